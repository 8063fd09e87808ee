import type { PrismaClient as SqliteClient } from '../generated/sqlite/client.ts';
import { log } from './log.ts';
import { quotedIdentifier } from './sql.ts';
import type { ReadRouting } from './serialized-adapter.ts';

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
   * SQLite: reads run so far outside transactions, on the main connection and on reader threads,
   * how many are on the readers now, and the subscriptions open (`subscriptionOpened`); null on
   * PostgreSQL.
   */
  readStats(): { main: number; reader: number; running: number; listening: number } | null;
  /**
   * Marks one subscription to this database's events (graphql-ws or SSE) as open until the
   * returned function is called. On SQLite a quick read then stays off the event loop: an event
   * published while a read blocks it would reach its subscriber only after the read (see
   * ReadRouting in serialized-adapter.ts).
   */
  subscriptionOpened(): () => void;
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
  /** SQLite: where reads run (tests change it; default READ_ROUTING in serialized-adapter.ts). */
  readRouting?: ReadRouting;
  /** SQLite: the main (writing) connection's page cache, MiB (default DEFAULT_SQLITE_CACHE_MB). */
  cacheMb?: number;
  /** PostgreSQL: workers one statement may add (`max_parallel_workers_per_gather`; default 0, see DEFAULT_PARALLEL_WORKERS). */
  parallelWorkers?: number;
  /** SQLite: how often planner statistics are refreshed (default STATISTICS_INTERVAL_MS). */
  statisticsIntervalMs?: number;
  /** SQLite: load the ranking extension where it was built (default true; see sqlite-rank-extension.ts). */
  rankExtension?: boolean;
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

/** The client's log option: query events, which `openDatabase` forwards to `onQuery`, when asked for. */
export function queryEvents(options: DatabaseOptions): { log?: Array<{ emit: 'event'; level: 'query' }> } {
  return options.onQuery ? { log: [{ emit: 'event', level: 'query' }] } : {};
}

/** What a provider's opener hands `openDatabase`: its client, and what the database's methods need. */
export interface OpenedClient extends Pick<Database, 'readersStarted' | 'poolStats' | 'readStats' | 'subscriptionOpened' | 'startUpkeep'> {
  prisma: Db;
  /** Disconnects the client and stops what the opener started (readers, pool, timers). */
  close(): Promise<void>;
}

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const provider = providerOfUrl(url);
  // Each provider's driver, adapter and client load only for a URL of that provider.
  const opened =
    provider === 'sqlite'
      ? await (await import('./sqlite-database.ts')).openSqlite(url, options)
      : (await import('./postgres-database.ts')).openPostgres(url, options);
  const { prisma } = opened;
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
    readersStarted: () => opened.readersStarted(),
    poolStats: () => opened.poolStats(),
    readStats: () => opened.readStats(),
    subscriptionOpened: () => opened.subscriptionOpened(),
    startUpkeep: (intervalMs) => opened.startUpkeep(intervalMs),
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
      await opened.close();
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
