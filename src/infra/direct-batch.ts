import type { ArgType, SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/sqlite/client.ts';
import type { Db, Provider } from './database.ts';

/**
 * Fixed write batches (an entry and its version, tags and search text; an update's guarded
 * statements) go straight to the Prisma driver adapter the client itself uses, in one adapter
 * transaction. Prisma's client would run the same statements through its query interpreter one by
 * one, which was about a fifth of a create's time. The SQL, the connection (SQLite's one
 * serialized connection, PostgreSQL's pool), argument conversion and error reporting are the
 * adapter's, exactly as for a `$transaction([...$executeRaw])`.
 */
interface DirectDriver {
  provider: Provider;
  adapter: () => Promise<SqlDriverAdapter>;
  /** The statement log of `openDatabase` (tests count statements). */
  onQuery?: (sql: string) => void;
}

const drivers = new WeakMap<object, DirectDriver>();

export function registerDirectDriver(db: Db, driver: DirectDriver): void {
  drivers.set(db, driver);
}

const control = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/** Prisma.Sql as the adapter takes it, arguments typed as Prisma types raw-query parameters. */
function toQuery(provider: Provider, statement: Prisma.Sql): SqlQuery {
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
  return { sql: provider === 'postgresql' ? statement.text : statement.sql, args, argTypes };
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
}

const ASYNC_COMMIT = control('SET LOCAL synchronous_commit TO OFF');

/**
 * Runs `statements` in one transaction and returns each one's row count. Falls back to Prisma's
 * batch transaction for a client `openDatabase` did not make.
 */
export async function runBatch(db: Db, statements: readonly Prisma.Sql[], options: BatchOptions = {}): Promise<number[]> {
  const driver = drivers.get(db);
  if (!driver) return db.$transaction(statements.map((sql) => db.$executeRaw(sql)));
  const queries = statements.map((statement) => toQuery(driver.provider, statement));
  if (options.durable === false && driver.provider === 'postgresql') {
    const tx = await (await driver.adapter()).startTransaction();
    return finish(driver, tx, [ASYNC_COMMIT, ...queries]).then((counts) => counts.slice(1));
  }
  const tx = await (await driver.adapter()).startTransaction();
  return finish(driver, tx, queries);
}

/** Runs `queries` in the open transaction `tx`, then commits it (or rolls it back on an error). */
async function finish(driver: DirectDriver, tx: Transaction, queries: readonly SqlQuery[]): Promise<number[]> {
  const counts: number[] = [];
  try {
    for (const query of queries) {
      driver.onQuery?.(query.sql);
      counts.push(await tx.executeRaw(query));
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
  return counts;
}
