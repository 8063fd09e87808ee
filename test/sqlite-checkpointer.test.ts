// WAL checkpoints off the event loop (issue #14): on SQLite a worker thread copies committed WAL
// pages into the database file, so no commit on the event loop runs a checkpoint (and its fsync).
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import type { Database } from '../src/infra/database.ts';
import { CHECKPOINT_INTERVAL_MS, WRITER_CHECKPOINT_PAGES } from '../src/infra/sqlite-checkpointer.ts';
import { DB_KIND } from './support/harness.ts';
import { useOwnDatabases } from './support/own-databases.ts';

describe.skipIf(DB_KIND !== 'sqlite')('SQLite checkpoints', () => {
  const openOwn = useOwnDatabases();
  const open = (readers: number) => openOwn({ readers });

  /** The writing connection's automatic checkpoint, in WAL pages (read in a transaction: on that connection). */
  const writerCheckpoint = async (database: Database) =>
    Number((await database.prisma.$transaction((tx) => tx.$queryRawUnsafe<Array<{ wal_autocheckpoint: number | bigint }>>('PRAGMA wal_autocheckpoint')))[0]!.wal_autocheckpoint);

  /** ~100 entries of ~2 KB through the API: a few hundred WAL pages, fewer than any automatic checkpoint waits for. */
  const importSome = async (app: App, prefix: string) => {
    const project = await ask(app, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: prefix });
    const scope = (project.createProject as { project: { id: string } }).project.id;
    const entries = Array.from({ length: 100 }, (_, i) => ({ scope, kind: 'KNOWLEDGE', name: `${prefix}-${i}`, content: `note ${i} `.repeat(200) }));
    const imported = await ask(app, `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, { e: entries });
    expect(imported.importEntries).toEqual({ __typename: 'ImportEntriesSuccess' });
  };

  const settle = () => new Promise((resolve) => setTimeout(resolve, 10 * CHECKPOINT_INTERVAL_MS));

  it('copies committed pages into the database file by itself; the writer checkpoints only past a bound', async () => {
    const { database, app, file } = await open(2);
    await database.readersStarted();
    await until(async () => (await writerCheckpoint(database)) === WRITER_CHECKPOINT_PAGES.behindCheckpointer);
    await settle();
    const before = statSync(file).size;
    await importSome(app, 'checkpointed');
    await settle();
    // Pages reach the file only through a checkpoint, and the writer's waits for 20,000.
    expect(statSync(file).size).toBeGreaterThan(before + 100 * 1_000);
  });

  it('without readers (SQLITE_READERS=0) the writer checkpoints itself, as SQLite does alone', async () => {
    const { database, app, file } = await open(0);
    expect(await writerCheckpoint(database)).toBe(WRITER_CHECKPOINT_PAGES.alone);
    await importSome(app, 'left-in-wal');
    const before = statSync(file).size;
    await importSome(app, 'left-in-wal-too');
    await settle();
    // Under 1,000 pages: nothing checkpointed them.
    expect(statSync(file).size).toBe(before);
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
