// better-sqlite3 is a native addon built for one Node ABI. Run under another Node, the server must
// stop at start with what is wrong and the fix, not with Prisma's "External error id#0". The real
// server runs under a Node of another major: the npm package `node` brings one; it is installed
// once into a cache directory under the OS temp dir (~10 s), and the test is skipped with the
// reason when that cannot be done (no registry). ENGRAM_OTHER_NODE names a binary to use instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteAddonProblem } from '../src/infra/native-check.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DB_KIND = process.env.ENGRAM_TEST_DB ?? 'sqlite';
const MAJOR = Number(process.versions.node.split('.')[0]);
const OTHER_MAJOR = MAJOR === 22 ? 24 : 22;
/** Upper bounds (failure guards, not measurements). */
const INSTALL_DEADLINE_MS = 180_000;
const EXIT_DEADLINE_MS = 60_000;

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A Node binary of another major, or why there is none. */
function otherNode(): { bin: string } | { reason: string } {
  if (process.env.ENGRAM_OTHER_NODE) return { bin: process.env.ENGRAM_OTHER_NODE };
  const cache = join(tmpdir(), `engram-node-${OTHER_MAJOR}`);
  const bin = join(cache, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    // Installed beside the cache and renamed into place: the SQLite and PostgreSQL projects may
    // run this file at once, and a half-installed cache must never be seen.
    const staging = mkdtempSync(join(tmpdir(), `engram-node-${OTHER_MAJOR}-`));
    writeFileSync(join(staging, 'package.json'), '{"private":true}');
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', `node@${OTHER_MAJOR}`], {
      cwd: staging,
      encoding: 'utf8',
      timeout: INSTALL_DEADLINE_MS,
    });
    if (install.status !== 0) {
      rmSync(staging, { recursive: true, force: true });
      return { reason: `npm install node@${OTHER_MAJOR} failed: ${(install.stderr || String(install.error)).slice(-300)}` };
    }
    try {
      renameSync(staging, cache);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // the other project got there first
    }
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return version.status === 0 ? { bin } : { reason: `${bin} does not run: ${version.stderr}` };
}

/** Runs an entry point of Engram (`src/main.ts` by default) under `node`, with its arguments. */
function runServer(node: string, databaseUrl: string, entry: string[] = ['src/main.ts']): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1' };
  const child = spawn(node, ['--import', 'tsx', ...entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolveRun, reject) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server under ${node} did not exit within ${EXIT_DEADLINE_MS} ms:\n${output}`));
    }, EXIT_DEADLINE_MS);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolveRun({ code, output });
    });
  });
}

describe('better-sqlite3 native addon check', () => {
  it('finds nothing wrong on the Node it was built for', () => {
    expect(sqliteAddonProblem()).toBeUndefined();
  });

  // SQLite-only behaviour: the PostgreSQL project would repeat the same run.
  it.skipIf(DB_KIND !== 'sqlite')(
    `a server started under Node ${OTHER_MAJOR} says the addon was built for Node ${MAJOR} and how to rebuild it`,
    async (ctx) => {
      const other = otherNode();
      if ('reason' in other) {
        console.warn(`[native-check] skipped: ${other.reason}`);
        ctx.skip();
        return;
      }
      const dir = mkdtempSync(join(tmpdir(), 'engram-abi-'));
      tempDirs.push(dir);
      const file = join(dir, 'engram.db');

      const { code, output } = await runServer(other.bin, `file:${file}`);

      expect(code).toBe(1);
      // The migration and key commands stop the same way.
      for (const command of [['scripts/migrate.ts', 'deploy'], ['src/cli/main.ts', 'keys', 'list']]) {
        const run = await runServer(other.bin, `file:${file}`, command);
        expect(run.code, run.output).not.toBe(0);
        expect(run.output).toContain('npm rebuild better-sqlite3');
        expect(run.output).not.toContain('External error');
      }
      expect(output).toContain(`built for Node ${MAJOR} (NODE_MODULE_VERSION ${process.versions.modules})`);
      expect(output).toMatch(new RegExp(`this is Node v${OTHER_MAJOR}\\.\\d+\\.\\d+ \\(NODE_MODULE_VERSION \\d+\\)`));
      expect(output).toContain('npm rebuild better-sqlite3');
      expect(output).not.toContain('External error');
      // Stopped before migrations touched the database.
      expect(existsSync(file)).toBe(false);
    },
    INSTALL_DEADLINE_MS + EXIT_DEADLINE_MS,
  );
});
