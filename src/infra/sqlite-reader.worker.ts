// One read-only SQLite connection in a worker thread (see sqlite-readers.ts). It answers
// { id, query } with { id, result } (Prisma's SqlResultSet, exactly as the adapter makes it for the
// main connection) and the milliseconds it took, { id, notReadOnly: true } for a statement that would write, or { id, error }.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlQuery } from '@prisma/driver-adapter-utils';
import { cachePreparedStatements } from './serialized-adapter.ts';

interface Request {
  id: number;
  query: SqlQuery;
}

const { path } = workerData as { path: string };
const adapter = await new PrismaBetterSqlite3({ url: path, readonly: true, timeout: 5000 }).connect();
cachePreparedStatements(adapter);
const client = (adapter as unknown as { client: { prepare(sql: string): { readonly: boolean }; pragma(sql: string): unknown } }).client;
// As the main connection (database.ts): memory-mapped reads and a 64 MiB page cache.
client.pragma('mmap_size = 268435456');
client.pragma('cache_size = -65536');

parentPort!.on('message', ({ id, query }: Request) => {
  void answer(id, query).then((reply) => parentPort!.postMessage(reply));
});
parentPort!.postMessage({ ready: true });

async function answer(id: number, query: SqlQuery): Promise<object> {
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
