// `npm start` (scripts/serve.mjs) and the `engram` command (bin/engram.mjs) run dist/ only when it
// was built from the sources as they are, else the sources through tsx: never code older than the
// checkout's. Checked on a copy of the launchers over a tree of stand-in sources and builds that
// say which of them ran.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_FILE, sourceDigest } from '../scripts/built-server.mjs';

const ROOT = join(import.meta.dirname, '..');
// With this checkout's packages, so that the copied launchers find tsx as the real ones do (tsx
// compiles no TypeScript under a node_modules directory: the tree is beside it, not in it).
const TREE = mkdtempSync(join(tmpdir(), 'engram-launcher-'));
const run = promisify(execFile);

function put(path: string, text: string): void {
  mkdirSync(dirname(join(TREE, path)), { recursive: true });
  writeFileSync(join(TREE, path), text);
}

/** What the launcher at `path` (relative to the tree) printed. */
async function ran(path: string): Promise<string> {
  const { stdout } = await run(process.execPath, [join(TREE, path)], { cwd: TREE, timeout: 60_000 });
  return stdout.trim();
}

const stamp = () => put(DIGEST_FILE, `${sourceDigest(TREE)}\n`);

beforeAll(() => {
  symlinkSync(join(ROOT, 'node_modules'), join(TREE, 'node_modules'), 'dir');
  for (const file of ['scripts/serve.mjs', 'scripts/built-server.mjs', 'scripts/digest.mjs', 'bin/engram.mjs']) {
    mkdirSync(dirname(join(TREE, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(TREE, file));
  }
  put('package.json', '{ "type": "module" }\n');
  // TypeScript syntax: only tsx runs it.
  put('src/main.ts', "const from: string = 'server from the sources';\nconsole.log(from);\n");
  put('src/cli/main.ts', "const from: string = 'cli from the sources';\nconsole.log(from);\n");
  put('dist/src/main.js', "console.log('server from the build');\n");
  put('dist/src/cli/main.js', "console.log('cli from the build');\n");
});

afterAll(() => rmSync(TREE, { recursive: true, force: true }));

describe('the launchers', () => {
  it('run the build of the sources as they are', async () => {
    stamp();
    expect(await ran('scripts/serve.mjs')).toBe('server from the build');
    expect(await ran('bin/engram.mjs')).toBe('cli from the build');
  });

  it('run the sources once any of them changed since the build, or without a digest', async () => {
    stamp();
    put('src/infra/new-module.ts', 'export const added = 1;\n');
    expect(await ran('scripts/serve.mjs')).toBe('server from the sources');
    expect(await ran('bin/engram.mjs')).toBe('cli from the sources');
    stamp();
    expect(await ran('scripts/serve.mjs')).toBe('server from the build');
    rmSync(join(TREE, DIGEST_FILE));
    expect(await ran('scripts/serve.mjs')).toBe('server from the sources');
  });
});
