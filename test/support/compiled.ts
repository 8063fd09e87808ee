// The tests that start Engram as a process (the server, the `engram` command) run this checkout's
// src/ compiled to JavaScript, as the Docker image and `npm run build` do, rather than through tsx.
// Under tsx every start paid for the loader's hooks, which run on their own thread and answer each
// of ~150 module loads by message: `engram keys list` took 2.0 s against 1.4 compiled, loading the
// schema 1.7 s against 1.0 (2026-11-29), and the tests start the command and the server ~300 times
// a run. One compile (tsc, emit only: `npm run typecheck` is CI's own step) takes ~7 s per run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where each run compiles to: under node_modules so that the compiled modules find its packages. */
const CACHE = 'node_modules/.cache/engram-test-build';

/**
 * Compiles `root`'s src/ into a directory of this test run (keyed by the process that runs the
 * tests) and resolves with it. Each project's global setup calls it: the first compiles, the others
 * wait for it (and fail with it). Directories of runs that are no longer running are removed.
 */
export async function compileForRun(root: string): Promise<string> {
  const cache = join(root, CACHE);
  mkdirSync(cache, { recursive: true });
  removeDeadRuns(cache);
  const dir = join(cache, String(process.pid));
  const ready = join(dir, '.ready');
  const failed = join(dir, '.failed');
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another project's setup compiles: wait for its outcome (a failed compile must not leave this one waiting for good).
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
      await sleep(100);
    }
    return dir;
  }
  try {
    await compile(root, dir);
  } catch (error) {
    writeFileSync(failed, (error as Error).message);
    throw error;
  }
  writeFileSync(ready, '');
  return dir;
}

/** Compiles again into `dir` (watch mode: before each rerun, so no test starts yesterday's code). */
export function compile(root: string, dir: string): Promise<void> {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', dir, '--noCheck', '--sourceMap', 'false'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? done() : fail(new Error(`tsc could not compile src/ for the tests (exit ${code}):\n${output}`))));
  });
}

export function removeRun(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function removeDeadRuns(cache: string): void {
  for (const name of readdirSync(cache)) {
    if (/^\d+$/.test(name) && !running(Number(name))) removeRun(join(cache, name));
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
