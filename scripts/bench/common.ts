// What every bench suite shares: the command line, the result rows, timing, databases, and the
// two ways of asking Engram (in-process through yoga.fetch, and HTTP to the real server process).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.ts';
import { applyMigrations } from '../../src/infra/migrations.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database.ts';

export type Kind = 'sqlite' | 'postgresql';

export const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', multiple: true },
    suite: { type: 'string', multiple: true },
    sizes: { type: 'string', default: '1000,10000,100000' },
    iterations: { type: 'string', default: '300' },
    'warmup-seconds': { type: 'string', default: '30' },
    'contention-writers': { type: 'string', default: '50' },
    'contention-writes': { type: 'string', default: '20' },
    'auth-size': { type: 'string', default: '100000' },
    'concurrency-size': { type: 'string', default: '100000' },
    'concurrency-seconds': { type: 'string', default: '10' },
    'concurrency-clients': { type: 'string', default: '16' },
    'transfer-size': { type: 'string', default: '100000' },
    'lease-agents': { type: 'string', default: '100' },
    'lease-resources': { type: 'string', default: '10' },
    'lease-rounds': { type: 'string', default: '10' },
    'vote-agents': { type: 'string', default: '25' },
    'vote-rounds': { type: 'string', default: '100' },
    'outcome-size': { type: 'string', default: '100000' },
    'feed-events': { type: 'string', default: '100000' },
    'fanout-subscribers': { type: 'string', default: '10000' },
    'fanout-writes': { type: 'string', default: '10' },
  },
});
export const iterations = Number(opts.iterations);
/**
 * How long the workload suites ask before they measure (the shapes in turn, not recorded). A server
 * just started runs its first thousands of requests in V8's unoptimized tiers: on this machine a
 * `{ __typename }` over HTTP took 0.93 ms at p50 in its first 2,000 requests and 0.43 from the
 * 6,000th on, and the 100K shapes settled after ~500 rounds (~35 s). A server that answers agents
 * runs for hours, so the figures are taken once it has settled.
 */
export const warmupSeconds = Number(opts['warmup-seconds']);
export const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Row {
  suite: string;
  db: string;
  case: string;
  iterations: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** For the targets of issue #14: workload size, shape key (see shapes.ts) and how it was asked. */
  size?: number;
  shape?: string;
  via?: 'http' | 'in-process';
}
export const rows: Row[] = [];

/** Where a row of the workload suites belongs in the targets table. */
export interface RowKey {
  size: number;
  shape: string;
  via?: 'http' | 'in-process';
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The percentiles of `samples` (sorted once): `at(0.95)` is the p95; NaN without samples. */
export function percentiles(samples: readonly number[]): (q: number) => number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Percentiles of `samples`, recorded as a row and printed. */
export function summarize(suite: string, db: string, name: string, samples: number[], key?: RowKey): Row {
  const at = percentiles(samples);
  const row = {
    suite,
    db,
    case: name,
    iterations: samples.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
    ...key,
  };
  rows.push(row);
  console.log(`  ${name.padEnd(52)} p50 ${String(row.p50).padStart(7)} ms   p95 ${String(row.p95).padStart(7)} ms   (n=${row.iterations})`);
  return row;
}

/** A single figure (a seeding time, a throughput, a ratio) as a row, printed with its unit. */
export function record(suite: string, db: string, name: string, value: number, unit: string, key?: RowKey): Row {
  const v = round(value);
  const row = { suite, db, case: name, iterations: 1, p50: v, p95: v, p99: v, mean: v, ...key };
  rows.push(row);
  console.log(`  ${name.padEnd(52)} ${String(v).padStart(11)} ${unit}`);
  return row;
}

export async function timed(samples: number[], run: () => Promise<unknown>) {
  const t0 = performance.now();
  await run();
  samples.push(performance.now() - t0);
}

export async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (error) {
    console.log(`  (${(error as Error).message})`);
    return false;
  }
}

/** A fresh migrated database; `drop` removes it. */
export async function freshDatabase(kind: Kind): Promise<ScratchDatabase> {
  const db = await createScratchDatabase(kind, { adminUrl, prefix: 'engram_bench' });
  await applyMigrations(db.url);
  return db;
}

/** Deterministic pseudo-random numbers, so every run seeds the same memory. */
export function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'ri', 'do', 'fe', 'gu', 'ha', 'jo', 'bi'];

/** Asks Engram one operation and answers its data, failing on any GraphQL error. */
export type Ask = (query: string, variables: Record<string, unknown>) => Promise<unknown>;

function dataOf(body: { data?: unknown; errors?: unknown }): unknown {
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** Through `yoga.fetch`: no sockets, no HTTP parsing. */
export function inProcess(app: App): Ask {
  return async (query, variables) => {
    const response = await app.yoga.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-actor': 'bench' },
      body: JSON.stringify({ query, variables }),
    });
    return dataOf((await response.json()) as { data?: unknown; errors?: unknown });
  };
}

/**
 * Kept-alive connections, one pool for every port. The HTTP figures are taken with node:http:
 * fetch (undici) cost this process ~1 ms more per request at p50 and ~3-5 ms at p95 on the
 * 2-core machine (get by id over HTTP, p50 2.4 against 3.5 ms, p95 6 against 9-11 ms), time the
 * server did not spend.
 */
const agent = new http.Agent({ keepAlive: true });

/** Over HTTP to `port` on this machine, on kept-alive connections. */
export function overHttp(port: number, headers: Record<string, string> = {}): Ask {
  return async (query, variables) => {
    const body = JSON.stringify({ query, variables });
    const text = await new Promise<string>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/graphql',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-engram-actor': 'bench', ...headers },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(Buffer.concat(chunks).toString()));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    return dataOf(JSON.parse(text) as { data?: unknown; errors?: unknown });
  };
}

/** One request over HTTP (a new `overHttp` client each time is fine: the agent pools connections). */
export function post(port: number, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  return overHttp(port, headers)(query, variables) as Promise<Record<string, unknown>>;
}

/**
 * The server as `npm start` runs it (package.json), V8's young generation included (see the
 * README's Configuration): the build when it is of the sources, else the sources through tsx
 * (scripts/serve.mjs). A checkout from before that launcher runs its sources through tsx.
 */
const serverArgs = (checkout: string) => [
  '--max-semi-space-size=32',
  // BENCH_CPU_PROF=<dir>: each server process writes a CPU profile there when it stops (Node does not take --cpu-prof from NODE_OPTIONS).
  ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ...(existsSync(join(checkout, 'scripts', 'serve.mjs')) ? ['scripts/serve.mjs'] : ['--import', 'tsx', 'src/main.ts']),
];

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** From spawning the process to its "listening" line. */
  startMs: number;
  /** Resident set size now, in MB (Linux). */
  rssMb(): number;
}

/**
 * The real server process on `url` (of the checkout at `checkout`); resolves once it listens. Rate limits and the scheduled purge
 * are off: the suites measure how fast Engram answers, and one client on one address would hit the
 * limits.
 */
export async function serverProcess(url: string, env: Record<string, string> = {}, checkout = '.'): Promise<ServerProcess> {
  const quiet = { RATE_LIMIT_REQUESTS_PER_SECOND: '0', RATE_LIMIT_WRITES_PER_SECOND: '0', PURGE_INTERVAL_MINUTES: '0' };
  const t0 = performance.now();
  const child = spawn(process.execPath, serverArgs(checkout), {
    cwd: checkout,
    env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', GRAPHIQL: 'false', REDIS_URL: '', ...quiet, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)\//.exec(output);
      if (!match) return;
      // The server logs a line per request from now on: read and drop them rather than keep
      // them all in memory for the whole run.
      child.stdout.off('data', read);
      child.stdout.resume();
      output = '';
      resolve(Number(match[1]));
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${output}`)));
  });
  const startMs = performance.now() - t0;
  const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { child, port, startMs, rssMb };
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The database id inside a global ID. */
export const dbIdOf = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
/** A global ID of `type` for a database id. */
export const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
