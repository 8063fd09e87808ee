import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import type { ArgType, SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/sqlite/client.ts';
import type { Db } from './database.ts';

/**
 * Fixed write batches (an entry and its version, tags and search text; an update's guarded
 * statements) go straight to the Prisma driver adapter the client itself uses, in one adapter
 * transaction. Prisma's client would run the same statements through its query interpreter one by
 * one, which was about a fifth of a create's time. The SQL, the connection (SQLite's one
 * serialized connection, PostgreSQL's pool), argument conversion and error reporting are the
 * adapter's, exactly as for a `$transaction([...$executeRaw])`.
 *
 * On PostgreSQL a batch is one round trip instead (see `runPostgresBatch` in postgres-batch.ts).
 */
type DirectDriver = (
  | { provider: 'sqlite'; adapter: () => Promise<SqlDriverAdapter> }
  | { provider: 'postgresql'; batch: (statements: readonly Prisma.Sql[], options: BatchOptions) => Promise<BatchResult> }
) & {
  /** The statement log of `openDatabase` (tests count statements; a PostgreSQL batch is one). */
  onQuery?: (sql: string) => void;
};

const drivers = new WeakMap<object, DirectDriver>();

export function registerDirectDriver(db: Db, driver: DirectDriver): void {
  drivers.set(db, driver);
}

const control = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** Prisma.Sql as the SQLite adapter takes it, arguments typed as Prisma types raw-query parameters. */
function toQuery(statement: Prisma.Sql): SqlQuery {
  const args: unknown[] = [];
  const argTypes: ArgType[] = [];
  for (const value of statement.values) {
    if (value === null || value === undefined) {
      args.push(null);
      argTypes.push({ scalarType: 'unknown', arity: 'scalar' });
    } else if (typeof value === 'string') {
      args.push(value);
      argTypes.push({ scalarType: 'string', arity: 'scalar' });
    } else if (typeof value === 'number') {
      args.push(value);
      argTypes.push({ scalarType: 'decimal', arity: 'scalar' });
    } else if (typeof value === 'boolean') {
      args.push(value);
      argTypes.push({ scalarType: 'unknown', arity: 'scalar' });
    } else if (value instanceof Date) {
      args.push(value.toISOString());
      argTypes.push({ scalarType: 'datetime', arity: 'scalar' });
    } else if (typeof value === 'bigint') {
      args.push(value.toString());
      argTypes.push({ scalarType: 'bigint', arity: 'scalar' });
    } else {
      throw new TypeError(`Unsupported SQL parameter in a direct batch: ${Object.prototype.toString.call(value)}`);
    }
  }
  return { sql: statement.sql, args, argTypes };
}

export interface BatchOptions {
  /**
   * `false`: on PostgreSQL the commit does not wait for the WAL to reach the disk
   * (`synchronous_commit = off` for this transaction alone). The rows are committed and visible at
   * once; only a crash of the PostgreSQL server in the next few hundred milliseconds could lose
   * them (never half of them). For records written beside a write that was already made durable
   * (the audit row): waiting for a second disk flush doubled the time of a create.
   */
  durable?: boolean;
  /** A read run last, in the batch's transaction (its rows are the result's `rows`). */
  read?: Prisma.Sql;
  /**
   * The statements (by index) before which, on SQLite, the event loop turns. better-sqlite3
   * answers at once, so a batch otherwise holds the loop from its first statement to its COMMIT
   * while every other request waits; the transaction stays one (other writes wait for its end, reads
   * go to the readers: serialized-adapter.ts). A PostgreSQL batch is one round trip, during which
   * the loop is free.
   */
  turnsBefore?: readonly number[];
}

/** Each statement's row count, and the rows of the batch's final read (none without one). */
export interface BatchResult {
  counts: number[];
  rows: Array<Record<string, unknown>>;
}

/**
 * Runs `statements` (then `options.read`) in one transaction and returns each statement's row
 * count (and the read's rows). Falls back to Prisma's batch transaction for a client
 * `openDatabase` did not make.
 */
export async function runBatch(db: Db, statements: readonly Prisma.Sql[], options: BatchOptions = {}): Promise<BatchResult> {
  const driver = drivers.get(db);
  if (!driver) return prismaBatch(db, statements, options.read);
  if (driver.provider === 'postgresql') return driver.batch(statements, options);
  const tx = await (await driver.adapter()).startTransaction();
  return finish(driver, tx, statements, options);
}

async function prismaBatch(db: Db, statements: readonly Prisma.Sql[], read?: Prisma.Sql): Promise<BatchResult> {
  if (!read) return { counts: await db.$transaction(statements.map((sql) => db.$executeRaw(sql))), rows: [] };
  const all = await db.$transaction([...statements.map((sql) => db.$executeRaw(sql)), db.$queryRaw<Array<Record<string, unknown>>>(read)]);
  return { counts: all.slice(0, -1) as number[], rows: all.at(-1) as Array<Record<string, unknown>> };
}

/**
 * Runs `statements` (then the read) in the open transaction `tx`, then commits it (or rolls it back
 * on an error). Each statement is converted as it runs, in its part (`turnsBefore`): converting
 * the statements of an import of 1,000 (~3-8 ms) was held with its first part. A statement that
 * cannot be converted rolls the transaction back.
 */
async function finish(driver: DirectDriver, tx: Transaction, statements: readonly Prisma.Sql[], options: BatchOptions): Promise<BatchResult> {
  const read = options.read && toQuery(options.read);
  const turns = new Set(options.turnsBefore);
  const counts: number[] = [];
  let rows: Array<Record<string, unknown>> = [];
  try {
    for (const [i, statement] of statements.entries()) {
      if (turns.has(i)) await eventLoopTurn();
      const query = toQuery(statement);
      driver.onQuery?.(query.sql);
      counts.push(await tx.executeRaw(query));
    }
    if (read) {
      driver.onQuery?.(read.sql);
      rows = objectsOf(await tx.queryRaw(read));
    }
    driver.onQuery?.('COMMIT');
    await tx.executeRaw(control('COMMIT'));
  } catch (error) {
    try {
      await tx.executeRaw(control('ROLLBACK'));
    } catch {
      // the transaction is gone already (a failed COMMIT rolls back by itself)
    }
    await tx.rollback();
    throw error;
  }
  await tx.commit();
  return { counts, rows };
}

/**
 * A read sent straight to the SQLite driver adapter, skipping Prisma's query interpreter and its
 * result mapping; rows come back as objects of the driver's values (numbers, strings, nulls).
 * Falls back to `$queryRaw` on PostgreSQL and for a client `openDatabase` did not make.
 */
export async function directRead<T>(db: Db, statement: Prisma.Sql): Promise<T[]> {
  const driver = drivers.get(db);
  if (driver?.provider !== 'sqlite') return db.$queryRaw<T[]>(statement);
  driver.onQuery?.(statement.sql);
  return objectsOf(await (await driver.adapter()).queryRaw(toQuery(statement))) as T[];
}

/** The adapter's result rows (arrays of values) as objects keyed by column name. */
function objectsOf({ columnNames, rows }: { columnNames: string[]; rows: unknown[][] }): Array<Record<string, unknown>> {
  // A loop, not Object.fromEntries of mapped pairs: a page of 101 rows of 33 columns took 1.1 ms.
  return rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) object[columnNames[i]!] = row[i];
    return object;
  });
}
