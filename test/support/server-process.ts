// The real server process (src/main.ts, compiled: test/support/compiled.ts) for end-to-end tests:
// started on a given database with extra environment, its output collected, killed after each
// test file (by test/support/per-file.ts). And the `engram` command, compiled likewise.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The compiled module of `source` (a path under src/, e.g. `src/main.ts`) in this run's build. */
export function compiled(source: string): string {
  return join(inject('compiledRoot'), source.replace(/\.ts$/, '.js'));
}

/** The `engram` command as the tests start it: the compiled CLI (bin/engram.mjs runs dist/ or, without it, tsx). */
export const engramCommand = (): string => compiled('src/cli/main.ts');
/** Upper bound for a start (a failure guard, not a measurement). */
export const START_DEADLINE_MS = 20_000;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Resident set size of the process, in bytes (Linux). */
  rss(): number;
  /** Resolves with the exit status (rejects after the deadline). */
  exited(deadlineMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills every server this module started and is still running (test/support/per-file.ts, after each file). */
export async function killServerProcesses(): Promise<void> {
  await Promise.all([...children].map((child) => killed(child)));
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

export function withDeadline<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what()}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Starts the server (`entry`, default this run's compiled src/main.ts) on `databaseUrl` (PORT=0,
 * 127.0.0.1) and resolves once it listens, within `deadlineMs` (a start that migrates takes longer).
 * `node`: another Node binary to run it under (default this one).
 */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  { entry = compiled('src/main.ts'), deadlineMs = START_DEADLINE_MS, node = process.execPath }: { entry?: string; deadlineMs?: number; node?: string } = {},
): Promise<ServerProcess> {
  const child = spawn(node, [entry], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      done({ code, signal });
    });
  });
  const listening = new Promise<number>((done, fail) => {
    const check = () => {
      const port = /Engram listening on http:\/\/[^/:]+:(\d+)\//.exec(output)?.[1];
      if (port) done(Number(port));
    };
    child.stdout.on('data', check);
    void exit.then((status) => fail(new Error(`Server exited (${JSON.stringify(status)}) before listening:\n${output}`)));
  });
  const port = await withDeadline(listening, deadlineMs, () => `waiting for the server to listen:\n${output}`);
  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    rss: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    exited: (deadlineMs = 4_000) => withDeadline(exit, deadlineMs, () => `waiting for the server to exit:\n${output}`),
    kill: () => killed(child),
  };
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `engram` command (compiled, see engramCommand; or `entry`, e.g. bin/engram.mjs) as a
 * subprocess with `env` added, without blocking the
 * event loop: a spawnSync (3-10 s on a loaded machine) outlived the test server's keep-alive
 * timeout, and the test's next request met a socket the server had closed (ECONNRESET).
 */
export function runEngram(args: string[], env: Record<string, string> = {}, entry = engramCommand()): Promise<CliRun> {
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolveRun({ status, stdout, stderr }));
  });
}

/** `engram keys …` (`npm run keys`) on `databaseUrl`. */
export function runKeysCli(databaseUrl: string, ...args: string[]): Promise<CliRun> {
  return runEngram(['keys', ...args], { DATABASE_URL: databaseUrl });
}

/**
 * `engram …` on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it: what
 * it draws there (progress bars) and prints. `env` names variables for the command.
 */
export function runEngramOnTerminal(args: string[], env: Record<string, string>): Promise<string> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [...Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`), quote(process.execPath), quote(engramCommand()), ...args.map(quote)].join(' ');
  return new Promise((resolveRun, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { cwd: ROOT }, (error, stdout) => (error ? reject(new Error(error.message)) : resolveRun(stdout)));
  });
}
