import { print, type ExecutionResult } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp, type App, type AppOptions } from '../../src/app.ts';
import { FEED_POLL_SQL } from '../../src/infra/change-feed.ts';
import { openDatabase, type Database } from '../../src/infra/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../src/infra/scratch-database.ts';
import type { WriteSettings } from '../../src/infra/transaction.ts';

export const DB_KIND = (process.env.ENGRAM_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgresql';

export interface Harness {
  app: App;
  database: Database;
  url: string;
  /** The bound port when created with `listen: true`. */
  port: number;
  /** SQL statements Prisma sent since the last `resetStatements()`. */
  statements: string[];
  resetStatements(): void;
  /** Runs an operation through `yoga.fetch` and returns the parsed result. */
  gql<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, headers?: Record<string, string>): Promise<ExecutionResult<R>>;
  /** Like `gql`, failing the test on any GraphQL error. */
  ok<R, V>(doc: TypedDocumentNode<R, V>, variables?: V, headers?: Record<string, string>): Promise<R>;
}

/** A fresh, migrated database of the run's kind: a copy of the run's migrated template. */
export function createDatabaseUrl(): Promise<ScratchDatabase> {
  return createScratchDatabase(DB_KIND, {
    adminUrl: process.env.TEST_POSTGRES_URL,
    prefix: DB_KIND === 'sqlite' ? 'engram-test' : inject('templateDatabase'),
    template: inject('templateDatabase'),
  });
}

export interface HarnessOptions {
  settings?: WriteSettings;
  /** Also listen on an ephemeral port (for WebSocket clients); see `port`. */
  listen?: boolean;
  /** Further createApp options (limits, CORS origins, ...). */
  app?: Omit<AppOptions, 'database' | 'settings'>;
}

/** `gql` and `ok` through `yoga.fetch` of `app`. */
export function client(app: App): Pick<Harness, 'gql' | 'ok'> {
  const gql = async (doc: TypedDocumentNode<unknown, unknown>, variables?: unknown, headers: Record<string, string> = {}) => {
    const response = await app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query: print(doc), variables }),
    });
    return (await response.json()) as ExecutionResult<unknown>;
  };
  const ok = async (doc: TypedDocumentNode<unknown, unknown>, variables?: unknown, headers?: Record<string, string>) => {
    const result = await gql(doc, variables, headers);
    if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors, null, 2)}`);
    return result.data;
  };
  return { gql, ok } as Pick<Harness, 'gql' | 'ok'>;
}

/**
 * A second app on the harness's database with a connection pool of its own, as a second server
 * instance would be (writers on the two then race in the database, not in one process's queues):
 * `work` gets its app and client; it is stopped and its pool closed afterwards.
 */
export async function withSecondInstance<T>(h: Harness, work: (other: Pick<Harness, 'app' | 'gql' | 'ok'>) => Promise<T>): Promise<T> {
  const database = await openDatabase(h.url);
  const app = createApp({ database });
  try {
    return await work({ app, ...client(app) });
  } finally {
    await app.stop();
    await database.close();
  }
}

/**
 * A second app on the harness's database with other options (e.g. `exhaustiveRanking`), for the
 * calling test file: its `ok` asks it. Created in beforeAll (after the harness's), stopped in afterAll.
 */
export function useVariant(h: Harness, options: Omit<AppOptions, 'database'>): Pick<Harness, 'gql' | 'ok'> {
  const variant = {} as Pick<Harness, 'gql' | 'ok'> & { app?: App };
  beforeAll(() => {
    const app = createApp({ accessFlushMs: 3_600_000, changePruneFirstMs: 3_600_000, rankBestHitsFrom: 0, ...options, database: h.database });
    Object.assign(variant, { app, ...client(app) });
  });
  afterAll(async () => {
    await variant.app?.stop(1_000);
  });
  return variant;
}

/**
 * Statements no request sends, which timers send whenever they fire: the feed tailer's read of the
 * head (every second; one falling within a counted operation once made its 10 statements 11), and
 * SQLite's writer checkpoint bound, set when the checkpointer thread starts or stops.
 */
export const isBackground = (sql: string) => sql.trim() === FEED_POLL_SQL.sql || sql.startsWith('PRAGMA wal_autocheckpoint');

/** Sets up one app + database for the calling test file (beforeAll/afterAll). */
export function useHarness(options: HarnessOptions = {}): Harness {
  const h = {} as Harness;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const created = await createDatabaseUrl();
    drop = created.drop;
    const statements: string[] = [];
    const database = await openDatabase(created.url, {
      onQuery: (sql) => {
        if (!isBackground(sql)) statements.push(sql);
      },
    });
    // Counted reads are written when the app stops (or at the file's own interval), and the change
    // feed is not pruned a second after start: a timer firing mid-test would add statements to the
    // tests that count them. A context ranks only its best text hits whatever the memory's size
    // (RANK_BEST_HITS_FROM), so that the tests' small memories take that path too.
    const app = createApp({
      accessFlushMs: 3_600_000,
      changePruneFirstMs: 3_600_000,
      rankBestHitsFrom: 0,
      ...options.app,
      database,
      ...(options.settings ? { settings: options.settings } : {}),
    });
    const port = options.listen ? await app.start(0, '127.0.0.1') : 0;
    Object.assign(h, {
      app,
      database,
      port,
      url: created.url,
      statements,
      resetStatements: () => void statements.splice(0),
      ...client(app),
    });
  });
  afterAll(async () => {
    await h.app?.stop(1_000);
    await h.database?.close();
    await drop();
  });
  return h;
}

/**
 * The fewest statements `run` sends in `tries` runs (those `counted` picks), with the last run's
 * result. The page-size tests compare these: what a page needs is its fewest. One run can pay a
 * read more than it needs when a cache kept a second (scope chains, grants, policies) expires
 * during it, or when a loaded machine splits one DataLoader batch over two ticks; CI's loaded
 * machine did both (11 statements where 10 are needed), never in every run of the same query.
 */
export async function fewestStatements<T>(
  h: Harness,
  run: () => Promise<T>,
  { tries = 3, counted = () => true }: { tries?: number; counted?: (sql: string) => boolean } = {},
): Promise<{ count: number; result: T }> {
  let count = Infinity;
  let result: T | undefined;
  for (let i = 0; i < tries; i++) {
    h.resetStatements();
    result = await run();
    count = Math.min(count, h.statements.filter(counted).length);
  }
  return { count, result: result as T };
}
