// One read-only SQLite connection in a worker thread (see sqlite-readers.ts). It answers
// { id, query } with { id, result } (Prisma's SqlResultSet, exactly as the adapter makes it for the
// main connection) and the milliseconds it took, { id, notReadOnly: true } for a statement that would write, or { id, error }.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlQuery } from '@prisma/driver-adapter-utils';
import { cachePreparedStatements } from './serialized-adapter.ts';
import type { Extension, ExtensionClient } from './sqlite-rank-extension.ts';

interface Request {
  id: number;
  query: SqlQuery;
}

const { path, extension } = workerData as { path: string; extension: Extension | null };
type Client = ExtensionClient & { prepare(sql: string): { readonly: boolean }; pragma(sql: string): unknown };

// Started from a function, not with a top-level await: a worker terminated while its module was
// still being evaluated asynchronously (a database closed just after it was opened) crashed the
// whole process in V8 ("Check failed: (location_) != nullptr" in SourceTextModule::ExecuteAsyncModule,
// nodejs/node#53238; seen once in CI, 2026-11-29). Terminating one awaiting a plain promise is safe.
// A failure to open is thrown outside the promise, so the thread fails with it ('error' in sqlite-readers.ts).
void start().catch((error: unknown) => setImmediate(() => {
  throw error;
}));

async function start(): Promise<void> {
  const adapter = await new PrismaBetterSqlite3({ url: path, readonly: true, timeout: 5000 }).connect();
  cachePreparedStatements(adapter);
  const client = (adapter as unknown as { client: Client }).client;
  // The main connection has it, so the statements sent here may call it: a reader that cannot load it fails to start.
  if (extension) client.loadExtension(extension.path, extension.entryPoint);
  // A 64 MiB page cache, as the main connection (database.ts), but no memory-mapped reads: each
  // commit of the main connection makes a reader drop its page cache and, with mmap, unmap the file
  // too, at the start of its next read (SQLite's pager does both when the WAL changed), so every page
  // a statement then touches faults back into a new mapping. In-process at 100K entries, a read
  // 30 ms after an update (p50, mmap 256 MiB -> off): tag only 21.3 -> 10.2 ms, require/exclude
  // 38.6 -> 14.2, two-word context 39.3 -> 20.4, no filter 13.7 -> 6.9; with no write in between
  // the two were alike (tag only 5.3-5.7 ms either way).
  client.pragma('mmap_size = 0');
  client.pragma('cache_size = -65536');
  parentPort!.on('message', ({ id, query }: Request) => {
    void answer(adapter, client, id, query).then((reply) => parentPort!.postMessage(reply));
  });
  parentPort!.postMessage({ ready: true });
}

async function answer(adapter: SqlDriverAdapter, client: Client, id: number, query: SqlQuery): Promise<object> {
  try {
    // A statement that writes (an INSERT ... RETURNING read as rows, a PRAGMA that sets) goes back
    // to the main connection, the only one that may write.
    if (!client.prepare(query.sql).readonly) return { id, notReadOnly: true };
    const started = performance.now();
    const result = await adapter.queryRaw(query);
    return { id, result, ms: performance.now() - started };
  } catch (error) {
    const e = error as Error & { cause?: unknown };
    // DriverAdapterError carries a plain cause ({ kind, ... }) that Prisma maps to its errors.
    return { id, error: { name: e.name, message: e.message, cause: e.name === 'DriverAdapterError' ? e.cause : undefined } };
  }
}
