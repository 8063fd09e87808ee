// The PostgreSQL side of `openDatabase`: loaded only for postgres:// URLs, so that a SQLite
// process never loads pg and the PostgreSQL client (~0.1 s of every start).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { DEFAULT_PARALLEL_WORKERS } from '../config.ts';
import { PrismaClient as PostgresClient } from '../generated/postgresql/client.ts';
import { queryEvents, type Db, type DatabaseOptions, type OpenedClient } from './database.ts';
import { registerDirectDriver } from './direct-batch.ts';
import { log } from './log.ts';
import { oneStatementAtATime } from './pg-transactions.ts';
import { runPostgresBatch } from './postgres-batch.ts';
import { startTableUpkeep } from './table-upkeep.ts';

export function openPostgres(url: string, options: DatabaseOptions): OpenedClient {
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
  // A connection the server drops (restart, admin termination) must not crash the process:
  // pg emits 'error' on idle and closing clients; the pool replaces them on the next query.
  const warn = (error: Error) => log.warn(`PostgreSQL connection error: ${error.message}`);
  shared.on('error', warn);
  shared.on('connect', (client) => client.on('error', warn));
  const adapter = oneStatementAtATime(new PrismaPg(shared));
  const prisma = new PostgresClient({ adapter, ...queryEvents(options) }) as unknown as Db;
  // Write batches take connections from the same pool, one round trip each.
  registerDirectDriver(prisma, {
    provider: 'postgresql',
    onQuery: options.onQuery,
    batch: (statements, batchOptions) => runPostgresBatch(shared, statements, batchOptions, options.onQuery),
  });
  return {
    prisma,
    readersStarted: () => Promise.resolve(),
    poolStats: () => ({ total: shared.totalCount, idle: shared.idleCount, waiting: shared.waitingCount }),
    readStats: () => null,
    // Nothing to do: PostgreSQL's statements never run on the event loop.
    subscriptionOpened: () => () => undefined,
    startUpkeep: (intervalMs) => startTableUpkeep(shared, intervalMs),
    async close() {
      await prisma.$disconnect();
      await shared.end();
    },
  };
}
