// SQLite's planner statistics follow the memory as it grows (issue #14): a statement keeps the plan
// it was first prepared with until the statistics change, so plans made for an empty memory
// would otherwise stay for the life of the process.
import { describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import type { Database } from '../src/infra/database.ts';
import { DB_KIND } from './support/harness.ts';
import { useOwnDatabases } from './support/own-databases.ts';

describe.skipIf(DB_KIND !== 'sqlite')('SQLite planner statistics', () => {
  const open = useOwnDatabases();

  /** The rows "Entry" had when it was last analyzed (0: never). */
  const analyzedRows = async (database: Database) => {
    const rows = await database.prisma.$queryRawUnsafe<Array<{ stat: string }>>(`SELECT stat FROM sqlite_stat1 WHERE tbl = 'Entry' AND idx IS NOT NULL LIMIT 1`);
    return rows.length ? Number(rows[0]!.stat.split(' ')[0]) : 0;
  };

  const importNotes = async (app: App, prefix: string, n: number) => {
    const created = await ask(app, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: prefix });
    const scope = (created.createProject as { project: { id: string } }).project.id;
    const entries = Array.from({ length: n }, (_, i) => ({ scope, kind: 'KNOWLEDGE', name: `${prefix}-${i}`, content: `note ${i}` }));
    const imported = await ask(app, `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, { e: entries });
    expect(imported.importEntries).toEqual({ __typename: 'ImportEntriesSuccess' });
  };

  it('a bulk write of 1,000 entries or more refreshes them; a smaller one leaves them to the schedule', async () => {
    const { database, app } = await open({});
    await importNotes(app, 'small', 999);
    expect(await analyzedRows(database)).toBe(0);
    await importNotes(app, 'bulk', 1_000);
    expect(await analyzedRows(database)).toBeGreaterThanOrEqual(1_999);
  });

  it('they are refreshed on a schedule', async () => {
    const { database, app } = await open({ statisticsIntervalMs: 100 });
    await importNotes(app, 'first', 600);
    await importNotes(app, 'second', 600);
    await until(async () => (await analyzedRows(database)) >= 1_200);
  });
});

async function ask(app: App, query: string, variables: object): Promise<Record<string, unknown>> {
  const response = await app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function until(condition: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
