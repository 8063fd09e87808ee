// The SQLite side of `openDatabase`: loaded only for `file:` URLs.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { DEFAULT_SQLITE_CACHE_MB, sqlitePath } from '../config.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { STATISTICS_INTERVAL_MS, queryEvents, refreshStatistics, type DatabaseOptions, type OpenedClient } from './database.ts';
import { registerDirectDriver } from './direct-batch.ts';
import { periodic } from './periodic.ts';
import { serializeConnection } from './serialized-adapter.ts';
import { SqliteCheckpointer, WRITER_CHECKPOINT_PAGES } from './sqlite-checkpointer.ts';
import { loadRankExtension, rankExtension, rankWithExtension, type ExtensionClient } from './sqlite-rank-extension.ts';
import { DEFAULT_READERS, SqliteReaders } from './sqlite-readers.ts';

export async function openSqlite(url: string, options: DatabaseOptions): Promise<OpenedClient> {
  let readers: SqliteReaders | undefined;
  let checkpointer: SqliteCheckpointer | undefined;
  const path = sqlitePath(url);
  mkdirSync(dirname(path), { recursive: true });
  // A writer waits up to 5 s for the lock instead of failing with SQLITE_BUSY.
  // engram_bm25 for tag + word queries (sqlite-rank-extension.ts); the readers load it too.
  const extension = options.rankExtension === false ? null : rankExtension();
  let ranking = false;
  const adapter = serializeConnection(new PrismaBetterSqlite3({ url: path, timeout: 5000 }), (connection) => {
    ranking = loadRankExtension((connection as unknown as { client: ExtensionClient }).client, extension);
  });
  const prisma = new SqliteClient({ adapter, ...queryEvents(options) });
  // Write batches share the client's one connection (and its lock).
  registerDirectDriver(prisma, {
    provider: 'sqlite',
    onQuery: options.onQuery,
    adapter: async () => {
      if (!adapter.current) await prisma.$connect();
      return adapter.current!;
    },
  });
  // WAL lets readers run beside the single writer; NORMAL sync is durable in WAL mode.
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  if (ranking) rankWithExtension(prisma);
  await prisma.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
  await prisma.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  // Random lookups over a large memory (an entry per full-text match, its tags, its overrides)
  // missed SQLite's default 2 MiB page cache and went to the OS a page at a time. Memory-mapped
  // reads and a 64 MiB cache cut a 100K-entry search by about 40 %; this connection, which
  // writes, gets more (see DEFAULT_SQLITE_CACHE_MB).
  await prisma.$queryRawUnsafe('PRAGMA mmap_size = 268435456');
  await prisma.$executeRawUnsafe(`PRAGMA cache_size = ${-1024 * Math.trunc(options.cacheMb ?? DEFAULT_SQLITE_CACHE_MB)}`);
  // Planner statistics where they are missing or stale, at open and then now and then (SQLite's
  // advice for long-lived connections), each index read no further than 1,000 rows. Without them
  // the planner guesses on large tables; and a statement keeps the plan it was prepared with
  // (they are reused) until the statistics change.
  await prisma.$executeRawUnsafe('PRAGMA analysis_limit = 1000');
  await refreshStatistics(prisma, 'sqlite');
  const optimizer = periodic(options.statisticsIntervalMs ?? STATISTICS_INTERVAL_MS, () => refreshStatistics(prisma, 'sqlite'));
  // Readers open the file read-only: it must exist, in WAL mode, first.
  const count = options.readers ?? DEFAULT_READERS;
  if (count > 0) {
    adapter.useReaders((readers = new SqliteReaders(path, count, ranking ? extension : null)), options.readRouting);
    // Checkpoints leave the event loop with the reads; the writer's own is then only a bound.
    const writerCheckpoint = (pages: number) => prisma.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${pages}`).catch(() => undefined);
    checkpointer = new SqliteCheckpointer(path, (running) => void writerCheckpoint(WRITER_CHECKPOINT_PAGES[running ? 'behindCheckpointer' : 'alone']));
  }
  return {
    prisma,
    readersStarted: () => readers?.started() ?? Promise.resolve(),
    poolStats: () => null,
    readStats: () => adapter.reads,
    subscriptionOpened: () => adapter.listening(),
    startUpkeep: () => null,
    async close() {
      await optimizer.stop();
      await prisma.$disconnect();
      await readers?.close();
      await checkpointer?.close();
    },
  };
}
