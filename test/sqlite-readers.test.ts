// Reads that leave the event loop (issue #14): on SQLite, statements that read and have taken a
// millisecond or more run on reader threads with read-only connections of their own, so a long
// read no longer holds up writes on the main connection.
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { DEFAULT_READERS } from '../src/infra/sqlite-readers.ts';
import { DB_KIND, createDatabaseUrl } from './support/harness.ts';
import { useOwnDatabases } from './support/own-databases.ts';

/** A read-only statement that runs for a while (counts to `n` in a recursive CTE). */
const slowRead = (db: Database, n: number) =>
  db.prisma.$queryRawUnsafe<Array<{ c: bigint | number }>>(
    `WITH RECURSIVE t(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM t WHERE x < ${n}) SELECT count(*) AS c FROM t`,
  );

describe.skipIf(DB_KIND !== 'sqlite')('SQLite reader threads', () => {
  const openOwn = useOwnDatabases();
  const open = (readers: number) => openOwn({ readers });

  const createProject = async (app: App, name: string) => {
    const response = await app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation($n: String!) { createProject(input: { name: $n }) { __typename } }`, variables: { n: name } }),
    });
    return ((await response.json()) as { data: { createProject: { __typename: string } } }).data.createProject.__typename;
  };

  /** Which finishes first: a long read started first, or a write through the API started after it. */
  async function race(readers: number): Promise<string[]> {
    const { database, app } = await open(readers);
    await database.readersStarted();
    await createProject(app, `warm${readers}`); // the app's first request builds its caches
    const order: string[] = [];
    const read = slowRead(database, 3_000_000).then(() => order.push('read'));
    await new Promise((resolve) => setImmediate(resolve));
    const write = createProject(app, `p${readers}`).then((typename) => order.push(`write:${typename}`));
    await Promise.all([read, write]);
    return order;
  }

  it('a write started while a long read runs finishes first, and the read answers in full', async () => {
    expect(await race(2)).toEqual(['write:CreateProjectSuccess', 'read']);
  });

  it('without readers (SQLITE_READERS=0) the same write waits for the read', async () => {
    expect(await race(0)).toEqual(['read', 'write:CreateProjectSuccess']);
  });

  describe('answers as the main connection does', () => {
    let database: Database;
    beforeAll(async () => ({ database } = await open(2)));

    it('a count from a reader', async () => {
      expect(Number((await slowRead(database, 1000))[0]!.c)).toBe(1000);
    });

    it('a statement that starts like a read but writes runs on the main connection', async () => {
      await database.prisma.$queryRawUnsafe(`WITH v(n) AS (SELECT 'from-a-with') INSERT INTO "Tag" ("id", "name", "category", "createdAt") SELECT 'tag-with', n, 'CUSTOM', '2026-01-01T00:00:00.000Z' FROM v RETURNING "name"`);
      expect(await database.prisma.tag.findUnique({ where: { name: 'from-a-with' }, select: { id: true } })).toEqual({ id: 'tag-with' });
    });

    it('an error in a reader is the error Prisma gives for the main connection', async () => {
      const [viaReader, viaMain] = await Promise.all([
        database.prisma.$queryRawUnsafe('SELECT * FROM "NoSuchTable"').catch((e: { code?: string; message: string }) => e),
        (await open(0)).database.prisma.$queryRawUnsafe('SELECT * FROM "NoSuchTable"').catch((e: { code?: string; message: string }) => e),
      ]);
      expect((viaReader as { code?: string }).code).toBe('P2010');
      expect((viaReader as { code?: string }).code).toBe((viaMain as { code?: string }).code);
      expect((viaReader as Error).message).toContain('no such table: NoSuchTable');
    });

    it('reads see a write as soon as it is committed', async () => {
      for (let i = 0; i < 20; i++) {
        await database.prisma.tag.create({ data: { id: `seen-${i}`, name: `seen-${i}`, category: 'CUSTOM' } });
        const rows = await database.prisma.$queryRawUnsafe<Array<{ name: string }>>(`SELECT "name" FROM "Tag" WHERE "id" = 'seen-${i}'`);
        expect(rows).toEqual([{ name: `seen-${i}` }]);
      }
    });
  });

  it('SQLITE_READERS sets how many (0 to 16; default one per core, 2 to 4)', () => {
    expect(loadConfig({}).sqliteReaders).toBe(DEFAULT_READERS);
    expect(DEFAULT_READERS).toBeGreaterThanOrEqual(2);
    expect(DEFAULT_READERS).toBeLessThanOrEqual(4);
    expect(loadConfig({ SQLITE_READERS: '0' }).sqliteReaders).toBe(0);
    expect(() => loadConfig({ SQLITE_READERS: '17' })).toThrow(/SQLITE_READERS/);
  });

  it("SQLITE_CACHE_MB sets the writing connection's page cache (default 256 MiB)", async () => {
    expect(loadConfig({}).sqliteCacheMb).toBe(256);
    expect(loadConfig({ SQLITE_CACHE_MB: '1024' }).sqliteCacheMb).toBe(1024);
    expect(() => loadConfig({ SQLITE_CACHE_MB: '1' })).toThrow(/SQLITE_CACHE_MB/);
    for (const [cacheMb, pages] of [[undefined, -262_144], [8, -8_192]] as const) {
      const { url, drop } = await createDatabaseUrl();
      const db = await openDatabase(url, { readers: 0, cacheMb });
      try {
        const [row] = await db.prisma.$queryRawUnsafe<Array<{ cache_size: number | bigint }>>('PRAGMA cache_size');
        expect(Number(row!.cache_size)).toBe(pages);
      } finally {
        await db.close();
        await drop();
      }
    }
  });
});

