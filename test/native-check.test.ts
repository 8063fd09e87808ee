// SQLite runs on better-sqlite3, chosen by the Node in use (packages/better-sqlite3): version 12, a
// native addon built for one Node ABI, on Node 20; version 13 (N-API, prebuilt) on Node 22 and
// later, where 12 built against Node 24.19+ headers can abort the process when a statement is
// freed. The real server and the `engram` command run here under Node 22, 24 and 26 too: the npm
// package `node` brings each; it is installed once into a cache directory under the OS temp dir
// (~10 s), and the test is skipped with the reason when that cannot be done (no registry).
// ENGRAM_NODE_22 / ENGRAM_NODE_24 / ENGRAM_NODE_26 name binaries to use instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explainAddonError, sqliteAddonProblem } from '../src/infra/native-check.ts';
import { ROOT, compiled, startServerProcess } from './support/server-process.ts';

const DB_KIND = process.env.ENGRAM_TEST_DB ?? 'sqlite';
const MAJOR = Number(process.versions.node.split('.')[0]);
/** Upper bounds (failure guards, not measurements). */
const INSTALL_DEADLINE_MS = 180_000;
const RUN_DEADLINE_MS = 60_000;

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A Node binary of `major`, or why there is none. */
function nodeOf(major: number): { bin: string } | { reason: string } {
  const named = process.env[`ENGRAM_NODE_${major}`];
  if (named) return { bin: named };
  const cache = join(tmpdir(), `engram-node-${major}`);
  const bin = join(cache, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    // Installed beside the cache and renamed into place: the SQLite and PostgreSQL projects may
    // run this file at once, and a half-installed cache must never be seen.
    const staging = mkdtempSync(join(tmpdir(), `engram-node-${major}-`));
    writeFileSync(join(staging, 'package.json'), '{"private":true}');
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', `node@${major}`], {
      cwd: staging,
      encoding: 'utf8',
      timeout: INSTALL_DEADLINE_MS,
    });
    if (install.status !== 0) {
      rmSync(staging, { recursive: true, force: true });
      return { reason: `npm install node@${major} failed: ${(install.stderr || String(install.error)).slice(-300)}` };
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

/** Runs `script` under `node` in the project (so that it finds its packages): its exit status and output. */
function runScript(node: string, script: string): { status: number | null; output: string } {
  const run = spawnSync(node, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: RUN_DEADLINE_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The version of better-sqlite3 that `require('better-sqlite3')` loads under `node`. */
const LOADED = `const D = require('better-sqlite3'); new D(':memory:').close();
  const loaded = Object.keys(require.cache).find((k) => /better-sqlite3-v1\\d[\\\\/]lib[\\\\/]index\\.js$/.test(k));
  console.log(require(require.resolve(loaded.replace(/lib[\\\\/]index\\.js$/, 'package.json'))).version);`;

/** Prepares and drops many statements, keeping some alive at exit (what aborted better-sqlite3 12 on Node 24.19+). */
const MANY_STATEMENTS = `const D = require('better-sqlite3'); const db = new D(':memory:'); globalThis.kept = [];
  for (let i = 0; i < 20000; i++) { const s = db.prepare('SELECT ?'); s.get(i); if (i % 4 === 0) kept.push(s); }`;

interface Answer {
  data?: { addKnowledge?: { __typename: string }; context?: { knowledge: { node: { name: string } }[] } };
  errors?: unknown[];
}
const ADD = `mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "node-check", content: "runs on this node" }) { __typename } }`;
const CONTEXT = `query($s: ID!) { context(input: { scope: $s, task: "which node runs" }) { knowledge { node { name } } } }`;

describe('better-sqlite3 native addon check', () => {
  it('finds nothing wrong on the Node it was built for', () => {
    expect(sqliteAddonProblem()).toBeUndefined();
  });

  it('explains an addon built for another Node ABI and how to mend it under this Node', () => {
    const error = new Error(
      'The module was compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115.',
    );
    const explained = explainAddonError(error);
    expect(explained).toContain('was built for Node 22 (NODE_MODULE_VERSION 127)');
    expect(explained).toContain(`but this is Node ${process.version} (NODE_MODULE_VERSION 115)`);
    expect(explained).toContain(MAJOR >= 22 ? 'npm install' : 'npm rebuild better-sqlite3-v12');
    expect(explainAddonError(new Error("Cannot find module 'better-sqlite3-v13'"))).toMatch(/cannot be loaded: Cannot find module .*Install it again/s);
  });

  it(`loads better-sqlite3 ${MAJOR >= 22 ? 13 : 12} on this Node (${process.version})`, () => {
    const { status, output } = runScript(process.execPath, LOADED);
    expect([status, output.trim().split('.')[0]]).toEqual([0, MAJOR >= 22 ? '13' : '12']);
  });

  // SQLite-only behaviour: the PostgreSQL project would repeat the same runs.
  for (const major of [22, 24, 26].filter((m) => m !== MAJOR)) {
    it.skipIf(DB_KIND !== 'sqlite')(
      `under Node ${major}: better-sqlite3 13 is loaded, statements freed at exit do not abort, the server answers and stops cleanly, the engram command runs`,
      async (ctx) => {
        const other = nodeOf(major);
        if ('reason' in other) {
          console.warn(`[native-check] skipped: ${other.reason}`);
          ctx.skip();
          return;
        }
        const loaded = runScript(other.bin, LOADED);
        expect([loaded.status, loaded.output.trim().split('.')[0]], loaded.output).toEqual([0, '13']);
        const many = runScript(other.bin, MANY_STATEMENTS);
        expect(many.status, many.output).toBe(0);

        const dir = mkdtempSync(join(tmpdir(), `engram-node${major}-`));
        tempDirs.push(dir);
        const url = `file:${join(dir, 'engram.db')}`;
        const server = await startServerProcess(url, {}, { node: other.bin, deadlineMs: RUN_DEADLINE_MS });
        const ask = async (query: string) => {
          const response = await fetch(`${server.base}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query, variables: { s: 'R2xvYmFsU2NvcGU6Z2xvYmFs' } }),
          });
          return (await response.json()) as Answer;
        };
        expect((await ask(ADD)).data?.addKnowledge?.__typename).toBe('AddKnowledgeSuccess');
        for (let i = 0; i < 50; i++) expect((await ask(CONTEXT)).errors).toBeUndefined();
        expect((await ask(CONTEXT)).data?.context?.knowledge.map((e) => e.node.name)).toContain('node-check');
        server.child.kill('SIGTERM');
        expect(await server.exited(RUN_DEADLINE_MS)).toEqual({ code: 0, signal: null });
        expect(server.output()).not.toContain('Assertion failed');

        const cli = spawnSync(other.bin, [compiled('src/cli/main.ts'), 'keys', 'list'], {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: RUN_DEADLINE_MS,
          env: { ...process.env, DATABASE_URL: url },
        });
        expect(cli.status, `${cli.stdout}${cli.stderr}`).toBe(0);
      },
      2 * INSTALL_DEADLINE_MS + 4 * RUN_DEADLINE_MS,
    );
  }
});
