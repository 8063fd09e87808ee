// Engram vacuums its own tables while the PostgreSQL server's autovacuum is off (table-upkeep.ts):
// pages that updates left with dead rows cost every index-only scan a visit to the table.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPKEEP_LOCK, UPKEEP_THRESHOLDS, upkeepOf, upkeepOnce } from '../src/infra/table-upkeep.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();

describe('which tables need upkeep', () => {
  const table = (counts: Partial<{ live: number; dead: number; insertedSinceVacuum: number; modifiedSinceAnalyze: number }>) => ({
    table: 't',
    live: 10_000,
    dead: 0,
    insertedSinceVacuum: 0,
    modifiedSinceAnalyze: 0,
    ...counts,
  });
  const { share } = UPKEEP_THRESHOLDS;

  it('vacuums a table past its share of dead rows, or of rows inserted since its last vacuum; analyzes one past its share of changes', () => {
    expect(upkeepOf(table({ dead: 50 + share * 10_000 }))).toBeNull();
    expect(upkeepOf(table({ dead: 51 + share * 10_000 }))).toEqual({ table: 't', action: 'VACUUM (ANALYZE)' });
    expect(upkeepOf(table({ insertedSinceVacuum: 1_000 + share * 10_000 }))).toBeNull();
    expect(upkeepOf(table({ insertedSinceVacuum: 1_001 + share * 10_000 }))).toEqual({ table: 't', action: 'VACUUM (ANALYZE)' });
    expect(upkeepOf(table({ modifiedSinceAnalyze: 50 + share * 10_000 }))).toBeNull();
    expect(upkeepOf(table({ modifiedSinceAnalyze: 51 + share * 10_000 }))).toEqual({ table: 't', action: 'ANALYZE' });
    expect(upkeepOf(table({ live: 0, dead: 51 }))).toEqual({ table: 't', action: 'VACUUM (ANALYZE)' });
  });
});

describe.runIf(DB_KIND === 'postgresql')('table upkeep on PostgreSQL', () => {
  let pool: pg.Pool;
  let client: pg.Client;
  const stats = async (table: string) => {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ dead: string; last_vacuum: Date | null; last_analyze: Date | null }>(
      'SELECT n_dead_tup AS dead, last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = $1',
      [table],
    );
    return rows[0]!;
  };

  /** Reports this session's counters now rather than at its next report. */
  const flush = async () => {
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1');
  };
  /**
   * A table of 2,000 rows, `settled` first (vacuumed: its inserts no longer count toward a vacuum),
   * then `updated` of them updated (as many dead rows), its counters reported.
   */
  const makeTable = async (name: string, updated: number, settled = true) => {
    await client.query(`CREATE TABLE ${name} (id int PRIMARY KEY, v int)`);
    await client.query(`INSERT INTO ${name} SELECT g, 0 FROM generate_series(1, 2000) g`);
    // Counted before the VACUUM that resets them.
    await flush();
    if (settled) await client.query(`VACUUM (ANALYZE) ${name}`);
    await client.query(`UPDATE ${name} SET v = 1 WHERE id <= ${updated}`);
    await flush();
  };

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: h.url, max: 2 });
    // pg-pool's end() resolves once its clients are asked to close, not once they have: the file's
    // database, dropped WITH (FORCE) just after, can terminate one still open (FATAL 57P01), which
    // an idle client reports as the pool's 'error' event, uncaught without a listener (a CI run of
    // 2026-12-04 failed on it). The server's own pool listens (postgres-database.ts).
    pool.on('error', () => undefined);
    client = new pg.Client({ connectionString: h.url });
    await client.connect();
    // Tables of the current schema: one that updates left half dead, one barely touched, and one
    // whose name needs quoting as an identifier.
    await makeTable('upkeep_churned', 1000);
    await makeTable('upkeep_quiet', 10);
    await makeTable('"upkeep ""quoted"""', 2000);
  });
  afterAll(async () => {
    await client?.end();
    await pool?.end();
  });

  it('vacuums the tables past their thresholds while autovacuum is off, and leaves them to autovacuum when it is on', async () => {
    const autovacuum = (await client.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`)).rows[0]!.on;
    expect(Number((await stats('upkeep_churned')).dead)).toBe(1000);
    const quietBefore = (await stats('upkeep_quiet')).last_vacuum;
    const run = await upkeepOnce(pool);
    if (autovacuum) {
      expect(run).toEqual({ ran: false, reason: 'autovacuum is on' });
      expect((await stats('upkeep_quiet')).last_vacuum).toEqual(quietBefore);
      return;
    }
    expect(run.ran).toBe(true);
    const actions = run.ran ? run.actions : [];
    expect(actions).toContainEqual({ table: 'upkeep_churned', action: 'VACUUM (ANALYZE)' });
    expect(actions).toContainEqual({ table: 'upkeep "quoted"', action: 'VACUUM (ANALYZE)' });
    expect(actions.map((a) => a.table)).not.toContain('upkeep_quiet');
    await client.query('SELECT pg_sleep(0.05)');
    const churned = await stats('upkeep_churned');
    expect(churned.last_vacuum).not.toBeNull();
    expect(Number(churned.dead)).toBe(0);
    expect((await stats('upkeep_quiet')).last_vacuum).toEqual(quietBefore);
    expect((await stats('upkeep "quoted"')).last_vacuum).not.toBeNull();
    // The throttle was for the round alone: the pooled connections are back at the server's setting.
    const show = () => pool.query<{ vacuum_cost_delay: string }>('SHOW vacuum_cost_delay');
    const settings = await Promise.all([show(), show()]);
    expect(settings.map((r) => r.rows[0]!.vacuum_cost_delay)).toEqual(['0', '0']);
    // Done: the next round finds nothing left to do there.
    const again = await upkeepOnce(pool);
    expect(again.ran && again.actions.map((a) => a.table)).not.toContain('upkeep_churned');
  });

  it('skips a round while another instance holds the upkeep lock, and releases its own', async () => {
    const autovacuum = (await client.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`)).rows[0]!.on;
    if (autovacuum) return expect(await upkeepOnce(pool)).toEqual({ ran: false, reason: 'autovacuum is on' });
    await client.query(`SELECT pg_advisory_lock(${UPKEEP_LOCK})`);
    try {
      expect(await upkeepOnce(pool)).toEqual({ ran: false, reason: 'another instance is running it' });
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${UPKEEP_LOCK})`);
    }
    expect((await upkeepOnce(pool)).ran).toBe(true);
    // The round let go of the lock: another session takes it at once.
    expect((await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${UPKEEP_LOCK}) AS locked`)).rows[0]!.locked).toBe(true);
    await client.query(`SELECT pg_advisory_unlock(${UPKEEP_LOCK})`);
  });

  it("runs on its schedule from the server's database, round after round, until stopped", async () => {
    const autovacuum = (await client.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`)).rows[0]!.on;
    const churn = (table: string) => makeTable(table, 2000, false);
    const vacuumed = async (table: string, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      while ((await stats(table)).last_vacuum === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return (await stats(table)).last_vacuum !== null;
    };
    const upkeep = h.database.startUpkeep(100)!;
    try {
      await churn('upkeep_first');
      expect(await vacuumed('upkeep_first', autovacuum ? 500 : 10_000)).toBe(!autovacuum);
      // A later round takes what changed since.
      await churn('upkeep_later');
      expect(await vacuumed('upkeep_later', autovacuum ? 500 : 10_000)).toBe(!autovacuum);
    } finally {
      await upkeep.stop();
    }
    // Stopped: no round runs any more.
    await churn('upkeep_after_stop');
    expect(await vacuumed('upkeep_after_stop', 600)).toBe(false);
  });
});
