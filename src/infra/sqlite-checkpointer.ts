import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { log } from './log.ts';

/** How often the checkpointer copies the WAL's committed pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;

/**
 * WAL pages past which the writing connection checkpoints itself: only while the checkpointer
 * is not running (SQLite's default), or as a bound if it ever falls that far behind (~80 MiB).
 */
export const WRITER_CHECKPOINT_PAGES = { alone: 1_000, behindCheckpointer: 20_000 } as const;

/**
 * WAL checkpoints off the event loop (issue #14). SQLite's automatic checkpoint runs inside the
 * commit that takes the WAL past 1,000 pages: it copies them into the database file and fsyncs
 * it, on the one writing connection, which is the event loop's. At 100K entries every 64th
 * create took 16-27 ms instead of 1.4 ms (p99 26.7 ms), and whatever request came next waited as
 * long. Here a worker thread with a connection of its own runs a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS: it never blocks the writer or the readers, copies only what readers no
 * longer need, and returns at once when there is nothing to copy. A checkpointer that exits is
 * started again; the writer keeps its own checkpoint as a bound while it runs.
 *
 * Hand-written: better-sqlite3 runs a checkpoint only on the thread of its connection, and no
 * maintained library moves one off the event loop. The worker is plain JavaScript (it needs only
 * better-sqlite3), so it starts without a TypeScript loader.
 */
export class SqliteCheckpointer {
  #worker: Worker | undefined;
  #closed = false;
  readonly #path: string;
  readonly #onRunning: (running: boolean) => void;

  /** `onRunning(true)` once a worker checkpoints, `onRunning(false)` when one stopped. */
  constructor(path: string, onRunning: (running: boolean) => void) {
    this.#path = path;
    this.#onRunning = onRunning;
    this.#start();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    // A checkpoint under way ends with the thread (the next writer or checkpoint resumes it).
    await worker?.terminate();
  }

  #start(): void {
    const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path: this.#path, betterSqlite3, intervalMs: CHECKPOINT_INTERVAL_MS } });
    worker.unref();
    this.#worker = worker;
    worker.on('message', (message: { ready?: true; error?: string }) => {
      if (message.ready) this.#onRunning(true);
      else if (message.error) log.warn(`SQLite checkpoint failed: ${message.error}`);
    });
    worker.on('error', (error) => log.warn(`The SQLite checkpointer stopped: ${error.message}`));
    worker.on('exit', () => {
      if (this.#closed || this.#worker !== worker) return;
      this.#onRunning(false);
      // Started again after a pause, so a checkpointer that cannot open the file does not spin.
      setTimeout(() => !this.#closed && this.#start(), 1_000).unref();
    });
  }
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = NORMAL');
let failures = 0;
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    // SQLITE_BUSY: another checkpoint is running; it resumes next time. Anything else is said once a run.
    if (error.code !== 'SQLITE_BUSY' && failures++ === 0) parentPort.postMessage({ error: error.message });
  }
}, workerData.intervalMs);
parentPort.postMessage({ ready: true });
`;
