import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { DEFAULT_PARALLEL_WORKERS, DEFAULT_SQLITE_CACHE_MB, sqlitePath } from '../config.ts';
import { registerDirectDriver } from './direct-batch.ts';
import { serializeConnection } from './serialized-adapter.ts';
import { DEFAULT_READERS, SqliteReaders } from './sqlite-readers.ts';
import { SqliteCheckpointer, WRITER_CHECKPOINT_PAGES } from './sqlite-checkpointer.ts';
import { quotedIdentifier } from './sql.ts';
import { startTableUpkeep } from './table-upkeep.ts';
import { periodic } from './periodic.ts';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { log } from './log.ts';

export type Provider = 'sqlite' | 'postgresql';

/**
 * The application's Prisma client. Both generated clients share one model definition; the SQLite
 * client's type stands for both (the PostgreSQL one only adds options Engram does not use).
 */
export type Db = SqliteClient;
/** A client inside an interactive transaction. */
export type Tx = Omit<Db, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export interface Database {
  provider: Provider;
  prisma: Db;
  /** Cheap round trip for health checks. */
  ping(): Promise<boolean>;
  /** Resolves once the SQLite reader threads have started (reads run on the main connection until then). */
  readersStarted(): Promise<void>;
  /** PostgreSQL: the pool's connections (open, idle, and queries waiting for one); null on SQLite. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * PostgreSQL: vacuums Engram's tables every `intervalMs` while the server's autovacuum is off
   * (see table-upkeep.ts); null on SQLite.
   */
  startUpkeep(intervalMs: number): { stop(): Promise<void> } | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Called with every SQL statement Prisma sends (tests count them). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * SQLite: worker threads that run reads on read-only connections of their own, off the event
   * loop (see sqlite-readers.ts); 0 reads on the main connection.
   */
  readers?: number;
  /** SQLite: the main (writing) connection's page cache, MiB (default DEFAULT_SQLITE_CACHE_MB). */
  cacheMb?: number;
  /** PostgreSQL: workers one statement may add (`max_parallel_workers_per_gather`; default 0, see DEFAULT_PARALLEL_WORKERS). */
  parallelWorkers?: number;
  /** SQLite: how often planner statistics are refreshed (default STATISTICS_INTERVAL_MS). */
  statisticsIntervalMs?: number;
}

/** How often SQLite's planner statistics are refreshed where stale (and after every bulk write). */
export const STATISTICS_INTERVAL_MS = 10 * 60_000;

/**
 * SQLite: `PRAGMA optimize` on the writing connection: ANALYZE (within the connection's
 * analysis_limit) of the tables whose size changed enough since their statistics, which also
 * makes every connection prepare its statements again. Reused statements keep the plan made when
 * they were first prepared: seeding a fresh memory, a bulk write's UPDATE prepared when "Entry"
 * was empty took 5-8 times as long at 150K entries as the same statement prepared anew, and the
 * 5,000-entry batches slowed from 0.55 s to 3 s by 600K. PostgreSQL plans every statement afresh
 * (and its autovacuum, or the table upkeep, analyzes): nothing to do. Failures are logged.
 */
export async function refreshStatistics(db: Db, provider: Provider): Promise<void> {
  if (provider !== 'sqlite') return;
  try {
    await db.$queryRawUnsafe('PRAGMA optimize = 0x10002');
  } catch (error) {
    log.warn({ err: error }, 'Refreshing planner statistics failed');
  }
}

export function providerOfUrl(url: string): Provider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`Unsupported database URL (expected file: or postgres://): ${url.split('@').pop()}`);
}

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const provider = providerOfUrl(url);
  const queryLog = options.onQuery ? ([{ emit: 'event', level: 'query' }] as const) : undefined;
  let prisma: Db;
  let pool: pg.Pool | undefined;
  let readers: SqliteReaders | undefined;
  let checkpointer: SqliteCheckpointer | undefined;
  let optimizer: { stop(): Promise<void> } | undefined;
  if (provider === 'sqlite') {
    const path = sqlitePath(url);
    mkdirSync(dirname(path), { recursive: true });
    // A writer waits up to 5 s for the lock instead of failing with SQLITE_BUSY.
    const adapter = serializeConnection(new PrismaBetterSqlite3({ url: path, timeout: 5000 }));
    prisma = new SqliteClient({ adapter, ...(queryLog ? { log: [...queryLog] } : {}) });
    const client = prisma;
    // Write batches share the client's one connection (and its lock).
    registerDirectDriver(prisma, {
      provider: 'sqlite',
      onQuery: options.onQuery,
      adapter: async () => {
        if (!adapter.current) await client.$connect();
        return adapter.current!;
      },
    });
    // WAL lets readers run beside the single writer; NORMAL sync is durable in WAL mode.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
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
    optimizer = periodic(options.statisticsIntervalMs ?? STATISTICS_INTERVAL_MS, () => refreshStatistics(client, 'sqlite'));
    // Readers open the file read-only: it must exist, in WAL mode, first.
    const count = options.readers ?? DEFAULT_READERS;
    if (count > 0) {
      adapter.useReaders((readers = new SqliteReaders(path, count)));
      // Checkpoints leave the event loop with the reads; the writer's own is then only a bound.
      const writerCheckpoint = (pages: number) => client.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${pages}`).catch(() => undefined);
      checkpointer = new SqliteCheckpointer(path, (running) => void writerCheckpoint(WRITER_CHECKPOINT_PAGES[running ? 'behindCheckpointer' : 'alone']));
    }
  } else {
    const parallel = `SET max_parallel_workers_per_gather = ${Math.trunc(options.parallelWorkers ?? DEFAULT_PARALLEL_WORKERS)}`;
    // No JIT compilation: the ranking statements are estimated above jit_above_cost (100,000) and
    // PostgreSQL compiled each one afresh, which took longer than running it: a tag's count at 100K
    // spent 14.8 ms of its 25 ms compiling (10-13 ms without; `EXPLAIN ANALYZE` shows it as "JIT").
    const settings = `${parallel}; SET jit = off`;
    // Awaited by pg-pool (3.14) before it hands the new connection out; @types/pg still types the
    // hook as returning void. Plain SETs rather than the `options` startup parameter, which
    // connection poolers (PgBouncer) refuse.
    const onConnect = (async (client: pg.ClientBase) => void (await client.query(settings))) as unknown as (client: pg.ClientBase) => void;
    const shared = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, onConnect });
    pool = shared;
    // A connection the server drops (restart, admin termination) must not crash the process:
    // pg emits 'error' on idle and closing clients; the pool replaces them on the next query.
    const warn = (error: Error) => log.warn(`PostgreSQL connection error: ${error.message}`);
    shared.on('error', warn);
    shared.on('connect', (client) => client.on('error', warn));
    const adapter = new PrismaPg(shared);
    prisma = new PostgresClient({ adapter, ...(queryLog ? { log: [...queryLog] } : {}) }) as unknown as Db;
    // Write batches take connections from the same pool, one round trip each.
    registerDirectDriver(prisma, { provider: 'postgresql', onQuery: options.onQuery, pool: shared });
  }
  if (options.onQuery) {
    const onQuery = options.onQuery;
    (prisma as unknown as { $on(event: 'query', cb: (e: { query: string }) => void): void }).$on(
      'query',
      (e) => onQuery(e.query),
    );
  }
  let closed = false;
  return {
    provider,
    prisma,
    readersStarted: () => readers?.started() ?? Promise.resolve(),
    poolStats: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null),
    startUpkeep: (intervalMs) => (pool ? startTableUpkeep(pool, intervalMs) : null),
    async ping() {
      if (closed) return false;
      try {
        await prisma.$queryRawUnsafe('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      // Idempotent; a closed database also stops answering pings (Prisma would reconnect).
      if (closed) return;
      closed = true;
      await optimizer?.stop();
      await prisma.$disconnect();
      await readers?.close();
      await checkpointer?.close();
      await pool?.end();
    },
  };
}

/**
 * After a bulk load (an import), what the database would otherwise reach only minutes later: fresh
 * planner statistics (autovacuum's ANALYZE on PostgreSQL; `PRAGMA optimize` on SQLite, which the
 * server runs on start) and, on PostgreSQL, the visibility map that autovacuum's VACUUM sets
 * after that many inserts. Without the map no index-only scan can skip the table: on 100K
 * freshly loaded entries a tag's count read ~4,000 heap pages and took 28 ms instead of ~2.
 * `tables`: those that received rows (all without).
 */
export async function settleAfterBulkLoad(db: Db, provider: Provider, tables?: readonly string[]): Promise<void> {
  // Nothing was loaded (an import that found every row there already).
  if (tables?.length === 0) return;
  if (provider === 'sqlite') {
    // Within the analysis_limit openDatabase sets on the connection.
    await db.$executeRawUnsafe('ANALYZE');
    return;
  }
  // Table names are the export's own (never a caller's), quoted as identifiers.
  await db.$executeRawUnsafe(`VACUUM (ANALYZE) ${(tables ?? []).map(quotedIdentifier).join(', ')}`);
}
