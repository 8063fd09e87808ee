import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { performance } from 'node:perf_hooks';
import { alone, held } from './load.ts';
import { Lock } from './lock.ts';
import { NOT_READ_ONLY, type Answer, type SqliteReaders } from './sqlite-readers.ts';

/**
 * Makes one SQLite connection safe to share between concurrent requests. Prisma's better-sqlite3
 * adapter serializes interactive transactions, but lets other queries run on the same connection
 * while one is open, so they would join it: a plain write could be rolled back with someone
 * else's transaction, and a read could see uncommitted rows. Here every query outside a
 * transaction waits until no transaction is open (better-sqlite3 is synchronous, so the connection
 * did one thing at a time anyway).
 */
export function serializeConnection(
  factory: SqlDriverAdapterFactory,
  /** Called with each connection as it opens, before any query (e.g. to load extensions). */
  onConnect: (adapter: SqlDriverAdapter) => void = () => undefined,
): SqlDriverAdapterFactory & {
  /** The adapter Prisma connected last (undefined before it connects). */
  readonly current: SqlDriverAdapter | undefined;
  /** From now on, reads outside transactions go to `readers` (once the file is set up for them), as `routing` says. */
  useReaders(readers: SqliteReaders, routing?: ReadRouting): void;
  /** Reads run outside transactions so far, by where they ran (the metric engram_sqlite_reads_total), how many are on the readers now, and the subscriptions open. */
  readonly reads: Reads & { running: number; listening: number };
  /** Marks one subscription as open until the returned function is called (see ReadRouting). */
  listening(): () => void;
} {
  let current: SerializedAdapter | undefined;
  const shared: Shared = { routing: READ_ROUTING, reads: { main: 0, reader: 0 }, listening: 0 };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    get current() {
      return current;
    },
    useReaders(readers: SqliteReaders, routing = READ_ROUTING) {
      shared.readers = readers;
      shared.routing = routing;
    },
    get reads() {
      return { ...shared.reads, running: shared.readers?.running ?? 0, listening: shared.listening };
    },
    listening() {
      return held((delta) => (shared.listening += delta));
    },
    async connect() {
      const adapter = await factory.connect();
      onConnect(adapter);
      cachePreparedStatements(adapter);
      current = new SerializedAdapter(adapter, shared);
      return current;
    },
  };
}

interface Reads {
  main: number;
  reader: number;
}

/** What the adapters of one connection share: its readers, once started, where reads run, and their counts. */
interface Shared {
  readers?: SqliteReaders;
  routing: ReadRouting;
  reads: Reads;
  /** Subscriptions open on this database's app. */
  listening: number;
}

/** Statements that may read without writing; the reader checks (better-sqlite3's `readonly`). */
const READ = /^\s*(SELECT|WITH)\b/i;
/** Where a read outside a transaction runs, by how long its statement has taken (on average). */
export interface ReadRouting {
  /**
   * A read that has taken at least this long goes to a reader thread; a quicker one runs here.
   * Handing a statement to a thread and back costs ~0.1 ms on an idle machine and a scheduling
   * delay on a busy one, more than a lookup by id takes; blocking the event loop for under a
   * millisecond holds up nothing that matters.
   */
  offloadMs: number;
  /**
   * A read that has taken less than this runs here too when nothing else is going on: no other
   * query or mutation executing, no other HTTP request being answered (src/infra/load.ts), no
   * subscription open (Database.subscriptionOpened), and no statement on a reader. Readers exist so that one request's
   * statement does not hold up the others, nor an event on its way to a subscriber; with neither
   * there is nothing to hold up, and a reader's answer costs more than the
   * main connection's: the hand-off both ways (~1 ms for a page of 100 entries) and a slower
   * statement (at 100K entries a ranking statement took ~8 ms here, ~10 ms on a reader, whose page
   * cache is smaller and not memory-mapped: see sqlite-reader.worker.ts). A request that arrives
   * meanwhile waits for it: about this long at most (the statement's average is under it, though
   * one run may take longer). The bench at 100K entries, the commit before and this one
   * in turn (2026-11-29), p95 over HTTP: tag + word 13.4 -> 8.6 ms, two-word context 24.9 -> 18.6
   * ms; sixteen concurrent clients' throughput unchanged (they are rarely alone). 20 ms became
   * 100 ms (2026-12-04) for memories of a million entries, whose `context` statements take 30-45
   * ms here and ~35 % more on a reader (each write empties a reader's page cache: the main
   * connection wrote the pages and keeps them). At 50 ms a ten-word `context` went back and forth
   * (its reader time above the limit, its own below); at 100 ms it stays here. The real server on
   * copies of one 1M memory, in turn, p50 / p95 over HTTP: two-word `context` 45.6 / 56.4 -> 32.8 /
   * 39.4 ms, ten-word 50.7 / 60.9 -> 42.7 / 51.8, no other shape slower. At 100K nothing changes
   * (no read there takes 20 ms).
   */
  inlineWhenIdleMs: number;
}

export const READ_ROUTING: ReadRouting = { offloadMs: 1, inlineWhenIdleMs: 100 };
/** Statements whose running time is remembered (the most recently used). */
const TIMINGS = 2_000;

class SerializedAdapter implements SqlDriverAdapter {
  readonly #inner: SqlDriverAdapter;
  readonly #lock = new Lock();
  readonly #shared: Shared;

  constructor(inner: SqlDriverAdapter, shared: Shared) {
    this.#inner = inner;
    this.#shared = shared;
  }

  get provider() {
    return this.#inner.provider;
  }

  get adapterName() {
    return this.#inner.adapterName;
  }

  /**
   * A read outside a transaction goes to a reader thread when there are readers (it sees what was
   * committed when it begins, and does not wait for a transaction open on this connection), unless
   * it is quick (see ReadRouting); anything else, and a statement the reader finds would write,
   * runs here.
   */
  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const readers = this.#shared.readers;
    const read = READ.test(query.sql);
    if (readers && read && this.#offloads(query.sql, readers)) {
      const answer = await readers.query(query).catch((error: unknown): Answer => {
        // The statement's own error is the answer; a reader that stopped under it is not.
        if (error instanceof DriverAdapterError) throw error;
        return NOT_READ_ONLY;
      });
      if (answer !== NOT_READ_ONLY) {
        this.#shared.reads.reader++;
        this.#timed(query.sql, answer.ms);
        return answer.result;
      }
    }
    return this.#lock.run(async () => {
      const started = performance.now();
      const result = await this.#inner.queryRaw(query);
      if (read) this.#shared.reads.main++;
      if (readers) this.#timed(query.sql, performance.now() - started);
      return result;
    });
  }

  /** Whether a read goes to a reader: one not timed yet, or slow enough, unless nothing else is going on and it is quick. */
  #offloads(sql: string, readers: SqliteReaders): boolean {
    if (!readers.available) return false;
    const known = this.#timings.get(sql);
    if (known === undefined) return true;
    const { offloadMs, inlineWhenIdleMs } = this.#shared.routing;
    if (known < offloadMs) return false;
    return !(known < inlineWhenIdleMs && idle(readers, this.#shared));
  }

  /** Running time per statement text: a moving average, so one slow or quick run does not flip it. */
  readonly #timings = new Map<string, number>();

  #timed(sql: string, ms: number): void {
    const before = this.#timings.get(sql);
    remember(this.#timings, sql, before === undefined ? ms : before * 0.8 + ms * 0.2, TIMINGS);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.#lock.run(() => this.#inner.executeRaw(query));
  }

  executeScript(script: string): Promise<void> {
    return this.#lock.run(() => this.#inner.executeScript(script));
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const release = await this.#lock.acquire();
    try {
      return releasingOnEnd(await this.#inner.startTransaction(isolationLevel), release);
    } catch (error) {
      release();
      throw error;
    }
  }

  getConnectionInfo() {
    return this.#inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  dispose(): Promise<void> {
    return this.#inner.dispose();
  }
}

/**
 * Nothing to hold up: no other operation or request going on, no statement on a reader, and
 * nobody listening. With a subscriber, an event published while a read blocks the event loop
 * reaches it only after the read (the bench's probe, 2026-11-29: an 18 ms ranking run here while
 * idle delayed an event by 7.8 ms against a 5 ms target).
 */
const idle = (readers: SqliteReaders, shared: Shared) => alone() && readers.running === 0 && shared.listening === 0;

/** The transaction, releasing the connection lock once it commits or rolls back. */
function releasingOnEnd(tx: Transaction, release: () => void): Transaction {
  const end = (finish: () => Promise<void>) => async () => {
    try {
      await finish();
    } finally {
      release();
    }
  };
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (query) => tx.queryRaw(query),
    executeRaw: (query) => tx.executeRaw(query),
    commit: end(() => tx.commit()),
    rollback: end(() => tx.rollback()),
    ...(tx.createSavepoint ? { createSavepoint: (name: string) => tx.createSavepoint!(name) } : {}),
    ...(tx.rollbackToSavepoint ? { rollbackToSavepoint: (name: string) => tx.rollbackToSavepoint!(name) } : {}),
    ...(tx.releaseSavepoint ? { releaseSavepoint: (name: string) => tx.releaseSavepoint!(name) } : {}),
  };
}

/** The parts of a better-sqlite3 statement Prisma's adapter uses. */
interface Statement {
  readonly reader: boolean;
  /** Whether the statement leaves the database as it is (the reader threads run only those). */
  readonly readonly: boolean;
  columns(): unknown[];
  raw(toggle?: boolean): Statement;
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Prisma's better-sqlite3 adapter prepares every query afresh (`prepare(sql).bind(args)`), which
 * cost about a tenth of a request's CPU time. This keeps the last STATEMENT_CACHE_SIZE prepared
 * statements of the connection and hands the adapter a cheap stand-in per call: `bind` keeps the
 * arguments instead of binding the shared statement for good (better-sqlite3 allows that only
 * once per statement), and the calls that follow pass them. Statements run synchronously, so a
 * shared one is never used by two queries at once; SQLite re-prepares one whose schema changed.
 * Does nothing if the adapter does not look as expected.
 */
export function cachePreparedStatements(adapter: SqlDriverAdapter): void {
  const client = (adapter as unknown as { client?: { prepare?: (sql: string) => Statement } }).client;
  if (!client || typeof client.prepare !== 'function') return;
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, Statement>();
  client.prepare = (sql: string) => {
    const statement = cache.get(sql) ?? prepare(sql);
    remember(cache, sql, statement, STATEMENT_CACHE_SIZE);
    return new BoundStatement(statement, []);
  };
}

/**
 * A shared statement with one call's arguments. A class, not an object literal of closures: V8
 * puts a literal's getter in old space, and what its closure reached (the stand-in, the call's
 * arguments) then outlived every young-generation collection until the next full one. Measured
 * on 2026-11-30, one query in a loop through Prisma's adapter: 3.4 MB promoted per scavenge (~4.7
 * KB a query), pauses of ~4.3 ms; as a class 0.8 MB and 1.5 ms. Through `directRead`: 2.8 MB ->
 * nothing, 3.2 -> 0.7 ms.
 */
class BoundStatement {
  readonly #statement: Statement;
  readonly #args: unknown[];

  constructor(statement: Statement, args: unknown[]) {
    this.#statement = statement;
    this.#args = args;
  }

  get reader(): boolean {
    return this.#statement.reader;
  }

  get readonly(): boolean {
    return this.#statement.readonly;
  }

  columns(): unknown[] {
    return columnsOf(this.#statement);
  }

  raw(toggle = true): this {
    this.#statement.raw(toggle);
    return this;
  }

  run(...extra: unknown[]): unknown {
    return this.#statement.run(...this.#pass(extra));
  }

  all(...extra: unknown[]): unknown[] {
    return this.#statement.all(...this.#pass(extra));
  }

  get(...extra: unknown[]): unknown {
    return this.#statement.get(...this.#pass(extra));
  }

  bind(bound: unknown[]): BoundStatement {
    return new BoundStatement(this.#statement, bound);
  }

  #pass(extra: unknown[]): unknown[] {
    return extra.length > 0 ? extra : this.#args.length > 0 ? [this.#args] : [];
  }
}

/**
 * A prepared statement's result columns, read once. better-sqlite3 builds them anew on every
 * `columns()` call, which Prisma's adapter makes before every read: for the 18 columns of an
 * "Entry" row 13.6 µs, against 5.4 µs for running the statement itself (measured here,
 * 2026-11-30). They change only with the schema, and migrations run before any connection opens
 * (main.ts), so a statement's columns are those it was prepared with.
 */
const columnsRead = new WeakMap<Statement, unknown[]>();
function columnsOf(statement: Statement): unknown[] {
  let columns = columnsRead.get(statement);
  if (!columns) columnsRead.set(statement, (columns = statement.columns()));
  return columns;
}

/** Sets `key` as the most recently used entry of `map`, dropping the least recent beyond `size`. */
function remember<V>(map: Map<string, V>, key: string, value: V, size: number): void {
  if (!map.delete(key) && map.size >= size) map.delete(map.keys().next().value!);
  map.set(key, value);
}
