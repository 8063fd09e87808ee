// Reads that leave the event loop (issue #14): on SQLite, statements that read and have taken a
// millisecond or more run on reader threads with read-only connections of their own, so a long
// read no longer holds up writes on the main connection.
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { load, operationStarted, requestStarted } from '../src/infra/load.ts';
import { DEFAULT_READERS } from '../src/infra/sqlite-readers.ts';
import { DB_KIND, createDatabaseUrl } from './support/harness.ts';
import { useOwnDatabases } from './support/own-databases.ts';
import { eventually } from './support/redis-server.ts';
import { wsSubscribe } from './support/subscriptions.ts';

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

  describe('where a read runs', () => {
    /** How many reads ran where, since `before`. */
    const since = (database: Database, before: { main: number; reader: number; running: number }) => {
      const now = database.readStats()!;
      return { main: now.main - before.main, reader: now.reader - before.reader };
    };
    /** A quick read (1,000 rows counted), and routing for which every read that has been timed counts as quick. */
    const quickRead = (database: Database) => slowRead(database, 1_000);
    const routed = () => openOwn({ readers: 2, readRouting: { offloadMs: 0, inlineWhenIdleMs: 60_000 } });

    it('a quick read runs on the main connection while nothing else runs: no hand-off to pay, nothing to hold up', async () => {
      const { database } = await routed();
      await database.readersStarted();
      let before = database.readStats()!;
      await quickRead(database); // not timed yet: a reader
      expect(since(database, before)).toEqual({ main: 0, reader: 1 });
      before = database.readStats()!;
      await quickRead(database);
      await quickRead(database);
      expect(since(database, before)).toEqual({ main: 2, reader: 0 });
      // One operation executing (the one asking) is nothing else.
      const asking = operationStarted();
      before = database.readStats()!;
      await quickRead(database);
      asking();
      expect(since(database, before)).toEqual({ main: 1, reader: 0 });
    });

    it('on a reader while another operation executes, another request is answered, a subscription is open or another read is on a reader', async () => {
      const { database } = await routed();
      await database.readersStarted();
      await quickRead(database);
      await quickRead(database);
      for (const started of [operationStarted, requestStarted]) {
        const [one, other] = [started(), started()];
        const before = database.readStats()!;
        await quickRead(database);
        one();
        other();
        expect(since(database, before)).toEqual({ main: 0, reader: 1 });
      }
      // A subscriber: an event published meanwhile would wait for a read run on the event loop.
      const listening = database.subscriptionOpened();
      const before1 = database.readStats()!;
      await quickRead(database);
      listening();
      expect(since(database, before1)).toEqual({ main: 0, reader: 1 });
      // A Prisma query starts when it is awaited or then'd.
      const long = slowRead(database, 3_000_000).then((rows) => rows);
      await eventually('the long read is on a reader', async () => database.readStats()!.running === 1, 10_000);
      const before = database.readStats()!;
      await quickRead(database);
      expect(since(database, before)).toEqual({ main: 0, reader: 1 });
      await long;
    });

    it('an HTTP request counts from its arrival to its answer; an event stream (SSE) does not, and counts as a subscription until it ends', async () => {
      const seen: string[] = [];
      const { app, database } = await openOwn({ readers: 0, onQuery: () => seen.push(JSON.stringify(load())) });
      const port = await app.start(0, '127.0.0.1');
      const post = (headers: Record<string, string>, query: string) =>
        fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
      const stream = await post({ accept: 'text/event-stream' }, 'subscription { memoryPurged { erasedEntries } }');
      expect(stream.status).toBe(200);
      await eventually('the stream counts as a subscription', async () => database.readStats()!.listening === 1, 5_000);
      expect(load()).toEqual({ operations: 0, requests: 0 });
      seen.length = 0;
      await (await post({}, '{ globalScope { id name } }')).json();
      expect(new Set(seen)).toEqual(new Set([JSON.stringify({ operations: 1, requests: 1 })]));
      await stream.body!.cancel();
      await eventually('the answered request and the ended stream are no longer counted', async () => load().requests === 0 && database.readStats()!.listening === 0, 5_000);
      expect(load()).toEqual({ operations: 0, requests: 0 });
    });

    it('a graphql-ws subscription counts from its start to its end, and one that ends with its connection too', async () => {
      const { app, database } = await openOwn({ readers: 0 });
      const port = await app.start(0, '127.0.0.1');
      const listening = () => database.readStats()!.listening;
      const closed = wsSubscribe(port, parse('subscription { memoryPurged { erasedEntries } }'), {});
      await eventually('the subscription is counted', async () => listening() === 1, 5_000);
      await closed.close();
      await eventually('the ended subscription is no longer counted', async () => listening() === 0, 5_000);
      const dropped = wsSubscribe(port, parse('subscription { memoryPurged { erasedEntries } }'), {});
      await eventually('the subscription is counted', async () => listening() === 1, 5_000);
      dropped.client.terminate();
      await eventually('the subscription of a dropped connection is no longer counted', async () => listening() === 0, 5_000);
    });

    it('an operation counts as executing while its statements run, and no longer once answered', async () => {
      const seen: string[] = [];
      const { gql } = await openOwn({ readers: 2, onQuery: () => seen.push(JSON.stringify(load())) });
      await gql(parse(`{ globalScope { id name } }`));
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([JSON.stringify({ operations: 1, requests: 0 })]));
      expect(load()).toEqual({ operations: 0, requests: 0 });
    });

    it('the counts are served as engram_sqlite_reads_total', async () => {
      const { app, database } = await open(2);
      await database.readersStarted();
      await quickRead(database);
      const { main, reader } = database.readStats()!;
      const text = await (await app.yoga.fetch('http://engram.test/metrics')).text();
      expect(text).toContain(`engram_sqlite_reads_total{connection="main"} ${main}`);
      expect(text).toContain(`engram_sqlite_reads_total{connection="reader"} ${reader}`);
      expect(reader).toBeGreaterThan(0);
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

