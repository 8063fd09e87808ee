// SQLite's planner statistics follow the memory as it grows (issue #14): a statement keeps the plan
// it was first prepared with until the statistics change, so plans made for an empty memory
// would otherwise stay for the life of the process.
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/infra/database.ts';
import { DB_KIND } from './support/harness.ts';
import { importNotes, useOwnDatabases, type OwnDatabase } from './support/own-databases.ts';
import { eventually } from './support/redis-server.ts';

describe.skipIf(DB_KIND !== 'sqlite')('SQLite planner statistics', () => {
  const open = useOwnDatabases();

  /** The rows "Entry" had when it was last analyzed (0: never). */
  const analyzedRows = async (database: Database) => {
    const rows = await database.prisma.$queryRawUnsafe<Array<{ stat: string }>>(`SELECT stat FROM sqlite_stat1 WHERE tbl = 'Entry' AND idx IS NOT NULL LIMIT 1`);
    return rows.length ? Number(rows[0]!.stat.split(' ')[0]) : 0;
  };

  const notes = (own: OwnDatabase, prefix: string, n: number) => importNotes(own, prefix, n, (i) => `note ${i}`);

  it('a bulk write of 1,000 entries or more refreshes them; a smaller one leaves them to the schedule', async () => {
    const own = await open({});
    await notes(own, 'small', 999);
    expect(await analyzedRows(own.database)).toBe(0);
    await notes(own, 'bulk', 1_000);
    expect(await analyzedRows(own.database)).toBeGreaterThanOrEqual(1_999);
  });

  it('they are refreshed on a schedule', async () => {
    const own = await open({ statisticsIntervalMs: 100 });
    // One write below the bulk refresh: its statistics come from the schedule. (Two writes of 600
    // let a run of the schedule fall between them, once an import gave the event loop back between
    // its parts: "Entry" then analyzed at 600 rows, and SQLite's optimize does not analyze a table
    // again for doubling.)
    await notes(own, 'first', 999);
    await eventually('the schedule analyzes "Entry"', async () => (await analyzedRows(own.database)) >= 999, 5_000);
  });
});
