// WAL checkpoints off the event loop (issue #14): on SQLite a worker thread copies committed WAL
// pages into the database file, so no commit on the event loop runs a checkpoint (and its fsync).
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/infra/database.ts';
import { CHECKPOINT_INTERVAL_MS, WRITER_CHECKPOINT_PAGES } from '../src/infra/sqlite-checkpointer.ts';
import { DB_KIND } from './support/harness.ts';
import { importNotes, useOwnDatabases, type OwnDatabase } from './support/own-databases.ts';
import { eventually } from './support/redis-server.ts';

describe.skipIf(DB_KIND !== 'sqlite')('SQLite checkpoints', () => {
  const openOwn = useOwnDatabases();
  const open = (readers: number) => openOwn({ readers });

  /** The writing connection's automatic checkpoint, in WAL pages (read in a transaction: on that connection). */
  const writerCheckpoint = async (database: Database) =>
    Number((await database.prisma.$transaction((tx) => tx.$queryRawUnsafe<Array<{ wal_autocheckpoint: number | bigint }>>('PRAGMA wal_autocheckpoint')))[0]!.wal_autocheckpoint);

  /** ~100 entries of ~2 KB through the API: a few hundred WAL pages, fewer than any automatic checkpoint waits for. */
  const importSome = (own: OwnDatabase, prefix: string) => importNotes(own, prefix, 100, (i) => `note ${i} `.repeat(200));

  const settle = () => new Promise((resolve) => setTimeout(resolve, 10 * CHECKPOINT_INTERVAL_MS));

  it('copies committed pages into the database file by itself; the writer checkpoints only past a bound', async () => {
    const own = await open(2);
    const { database, file } = own;
    await database.readersStarted();
    await eventually('the checkpointer runs', async () => (await writerCheckpoint(database)) === WRITER_CHECKPOINT_PAGES.behindCheckpointer, 5_000);
    await settle();
    const before = statSync(file).size;
    await importSome(own, 'checkpointed');
    await settle();
    // Pages reach the file only through a checkpoint, and the writer's waits for 20,000.
    expect(statSync(file).size).toBeGreaterThan(before + 100 * 1_000);
  });

  it('without readers (SQLITE_READERS=0) the writer checkpoints itself, as SQLite does alone', async () => {
    const own = await open(0);
    const { database, file } = own;
    expect(await writerCheckpoint(database)).toBe(WRITER_CHECKPOINT_PAGES.alone);
    await importSome(own, 'left-in-wal');
    const before = statSync(file).size;
    await importSome(own, 'left-in-wal-too');
    await settle();
    // Under 1,000 pages: nothing checkpointed them.
    expect(statSync(file).size).toBe(before);
  });
});
