import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DriverAdapterError, type SqlQuery, type SqlResultSet } from '@prisma/driver-adapter-utils';
import { log } from './log.ts';
import type { Extension } from './sqlite-rank-extension.ts';

/** Readers when not told: one per core, at least two (one long statement must not queue the rest), at most four. */
export const DEFAULT_READERS = Math.min(4, Math.max(2, availableParallelism()));

/** The answer for a statement that would write: run it on the main connection instead. */
export const NOT_READ_ONLY = Symbol('not read-only');

interface Reply {
  id: number;
  result?: SqlResultSet;
  /** How long the statement ran in the reader. */
  ms?: number;
  notReadOnly?: true;
  error?: { name: string; message: string; cause?: unknown };
}

interface Reader {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve(value: Answer): void; reject(error: unknown): void }>;
  started: boolean;
}

/** A reader's result set and how long its statement ran, or NOT_READ_ONLY. */
export type Answer = { result: SqlResultSet; ms: number } | typeof NOT_READ_ONLY;

/**
 * Reads that leave the event loop (issue #14). better-sqlite3 is synchronous, so on the one main
 * connection a 50 ms ranking statement held up every other request, every write and every
 * subscription event for 50 ms, and the second core did nothing. Each reader is a worker thread
 * with its own read-only connection to the same file; WAL lets them read beside the writer, each
 * statement seeing what was committed when it began. Writes and transactions stay on the main
 * connection (SQLite has one writer anyway).
 *
 * Statements go to the reader with the fewest in flight. Prisma's client and the SQL are the same:
 * a reader runs Prisma's own better-sqlite3 adapter and answers its result set, so values convert
 * exactly as on the main connection.
 */
export class SqliteReaders {
  readonly #readers: Reader[];
  #next = 0;
  #closed = false;

  readonly #path: string;
  /** The ranking extension each reader loads (sqlite-rank-extension.ts), or null. */
  readonly #extension: Extension | null;

  constructor(path: string, count: number, extension: Extension | null = null) {
    this.#path = path;
    this.#extension = extension;
    this.#readers = Array.from({ length: count }, () => this.#start());
  }

  /** Resolves once every reader has started (or failed to). */
  started(): Promise<void> {
    return Promise.allSettled(this.#readers.map((r) => r.ready)).then(() => undefined);
  }

  /** Whether a reader has started (until then, reads stay on the main connection). */
  get available(): boolean {
    return !this.#closed && this.#readers.some((r) => r.started);
  }

  /** Statements running or waiting on the readers. */
  get running(): number {
    return this.#readers.reduce((sum, r) => sum + r.pending.size, 0);
  }

  query(query: SqlQuery): Promise<Answer> {
    if (this.#closed) return Promise.reject(new Error('The database is closed'));
    const started = this.#readers.filter((r) => r.started);
    const reader = (started.length > 0 ? started : this.#readers).reduce((best, r) => (r.pending.size < best.pending.size ? r : best));
    const id = this.#next++;
    return reader.ready.then(
      () =>
        new Promise((resolve, reject) => {
          reader.pending.set(id, { resolve, reject });
          reader.worker.postMessage({ id, query });
        }),
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#readers.map((r) => r.worker.terminate()));
  }

  #start(): Reader {
    const [entry, options] = workerEntry();
    const worker = new Worker(entry, { ...options, workerData: { path: this.#path, extension: this.#extension } });
    worker.unref();
    const reader: Reader = { worker, pending: new Map(), ready: Promise.resolve(), started: false };
    reader.ready = new Promise((resolve, reject) => {
      worker.once('message', () => {
        reader.started = true;
        resolve();
      });
      worker.once('error', reject);
    });
    // Reads then stay on the main connection: slower under load, never wrong. Say so once.
    reader.ready.catch((error: Error) => warnOnce(`A SQLite reader thread did not start (${error.message}); reads run on the main connection`));
    worker.on('message', (reply: Reply & { ready?: true }) => (reply.ready ? undefined : settle(reader, reply)));
    worker.on('error', (error) => fail(reader, error));
    worker.on('exit', (code) => {
      fail(reader, new Error(`A SQLite reader stopped (exit ${code})`));
      // A reader that died (out of memory, a native fault) is replaced; its statements failed.
      const at = this.#readers.indexOf(reader);
      if (!this.#closed && at >= 0) this.#readers[at] = this.#start();
    });
    return reader;
  }
}

function settle(reader: Reader, reply: Reply): void {
  const waiting = reader.pending.get(reply.id);
  if (!waiting) return;
  reader.pending.delete(reply.id);
  if (reply.result) waiting.resolve({ result: reply.result, ms: reply.ms ?? 0 });
  else if (reply.notReadOnly) waiting.resolve(NOT_READ_ONLY);
  else waiting.reject(errorOf(reply.error!));
}

function errorOf(error: NonNullable<Reply['error']>): Error {
  if (error.cause) return new DriverAdapterError(error.cause as ConstructorParameters<typeof DriverAdapterError>[0]);
  return Object.assign(new Error(error.message), { name: error.name });
}

function fail(reader: Reader, error: unknown): void {
  for (const waiting of reader.pending.values()) waiting.reject(error);
  reader.pending.clear();
}

/**
 * Built, the worker is a .js file beside this one. Under tsx or vitest this module is TypeScript,
 * and a worker thread does not inherit their loaders for its entry: it registers tsx's first, then
 * imports the .ts file.
 */
function workerEntry(): [string | URL, { eval?: boolean }] {
  if (!import.meta.url.endsWith('.ts')) return [new URL('./sqlite-reader.worker.js', import.meta.url), {}];
  const file = new URL('./sqlite-reader.worker.ts', import.meta.url).href;
  // tsx's ESM API as this module finds it (an eval'd worker would look from the working directory):
  // the package's require entry, with the .mjs file that stands beside it for `import`.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  return [`import(${JSON.stringify(tsx)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(file)}))`, { eval: true }];
}

let warned = false;
function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  log.warn(message);
}
