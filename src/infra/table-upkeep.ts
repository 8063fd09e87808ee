// Vacuuming Engram's own tables when the PostgreSQL server does not (autovacuum = off).
//
// Engram's reads lean on what VACUUM maintains. Updates rewrite an entry's rows (its tag links'
// copies, its search row), and until a VACUUM sets a page all-visible again, an index-only scan
// visits the table for every row there. The full-text index's pending list, which only VACUUM
// merges, is read through on every text search. With autovacuum off, a require/exclude query at
// 100K entries, after the bench's writes, read 20,000 table rows for its tag sets: 21.7 ms at p50,
// 10.1 ms after one VACUUM. A server with autovacuum on (PostgreSQL's default) is left alone.
import type pg from 'pg';
import { log } from './log.ts';
import { periodic } from './periodic.ts';
import { quotedIdentifier } from './sql.ts';

/** Any 64-bit number naming the upkeep among PostgreSQL advisory locks (one instance at a time). */
export const UPKEEP_LOCK = 4_242_017_014;

/**
 * Autovacuum's rules (a base plus a share of the live rows), with a smaller share: the tables
 * Engram reads by index-only scans lose that speed row by row, long before a fifth of them changed.
 */
export const UPKEEP_THRESHOLDS = {
  vacuumBase: 50,
  insertBase: 1_000,
  analyzeBase: 50,
  share: 0.05,
} as const;

/** One table's counters from pg_stat_user_tables. */
export interface TableCounters {
  table: string;
  live: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
}

export type UpkeepAction = { table: string; action: 'VACUUM (ANALYZE)' | 'ANALYZE' };

/** What a table needs: a VACUUM (which also analyzes) for dead or newly inserted rows, else maybe an ANALYZE. */
export function upkeepOf(t: TableCounters): UpkeepAction | null {
  const { vacuumBase, insertBase, analyzeBase, share } = UPKEEP_THRESHOLDS;
  if (t.dead > vacuumBase + share * t.live || t.insertedSinceVacuum > insertBase + share * t.live) return { table: t.table, action: 'VACUUM (ANALYZE)' };
  if (t.modifiedSinceAnalyze > analyzeBase + share * t.live) return { table: t.table, action: 'ANALYZE' };
  return null;
}

export type UpkeepRun =
  | { ran: false; reason: 'autovacuum is on' | 'another instance is running it' }
  | { ran: true; actions: UpkeepAction[] };

/**
 * One round: unless autovacuum is on, or another instance holds the upkeep lock, the tables of the
 * current schema that need it are vacuumed (or analyzed), one at a time, throttled as autovacuum
 * throttles itself so that requests keep their share of the disk and the cores.
 */
export async function upkeepOnce(pool: pg.Pool, onSession?: (pid: number) => void): Promise<UpkeepRun> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    onSession?.((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    // Stryker disable next-line StringLiteral: equivalent where autovacuum is off (this machine's server); the test asserts the other branch on a server with it on
    const setting = await client.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    // Stryker disable next-line ConditionalExpression,OptionalChaining: equivalent where autovacuum is off, as above; the query always answers one row
    if (setting.rows[0]?.on) return { ran: false, reason: 'autovacuum is on' };
    const lock = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${UPKEEP_LOCK}) AS locked`);
    // Stryker disable next-line OptionalChaining: equivalent, the query always answers one row
    if (!lock.rows[0]?.locked) return { ran: false, reason: 'another instance is running it' };
    try {
      return { ran: true, actions: await vacuumWhatNeedsIt(client) };
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${UPKEEP_LOCK})`);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A session that failed part way (its lock unknown) is not handed to anyone else.
    client.release(broken);
  }
}

async function vacuumWhatNeedsIt(client: pg.PoolClient): Promise<UpkeepAction[]> {
  const { rows } = await client.query<TableCounters>(
    `SELECT relname AS "table", n_live_tup::float8 AS live, n_dead_tup::float8 AS dead,
       n_ins_since_vacuum::float8 AS "insertedSinceVacuum", n_mod_since_analyze::float8 AS "modifiedSinceAnalyze"
     FROM pg_stat_user_tables WHERE schemaname = current_schema() ORDER BY relname`,
  );
  const actions = rows.map(upkeepOf).filter((a): a is UpkeepAction => a !== null);
  // Autovacuum's own throttle (autovacuum_vacuum_cost_delay); a manual VACUUM is not throttled.
  // Stryker disable next-line StringLiteral: equivalent for what a round does, the throttle only spreads it over time
  await client.query(`SET vacuum_cost_delay = '2ms'`);
  try {
    for (const { table, action } of actions) await client.query(`${action} ${quotedIdentifier(table)}`);
  } finally {
    await client.query('RESET vacuum_cost_delay');
  }
  return actions;
}

/**
 * The upkeep every `intervalMs` (PostgreSQL's autovacuum looks every minute). A failed round is
 * logged and the next one tries again. `stop` cancels a round's VACUUM rather than wait for it.
 */
export function startTableUpkeep(pool: pg.Pool, intervalMs: number): { stop(): Promise<void> } {
  let session: number | null = null;
  let stopping = false;
  const round = async () => {
    try {
      const run = await upkeepOnce(pool, (pid) => (session = pid));
      if (run.ran && run.actions.length) log.info({ actions: run.actions }, 'Vacuumed tables (the PostgreSQL server runs with autovacuum off)');
    } catch (error) {
      if (!stopping) log.warn({ err: error }, 'The table upkeep failed (it runs again at the next interval)');
    } finally {
      session = null;
    }
  };
  const cancel = async () => {
    stopping = true;
    if (session !== null) await pool.query('SELECT pg_cancel_backend($1)', [session]).catch(() => undefined);
  };
  return periodic(intervalMs, round, { onStop: cancel });
}
