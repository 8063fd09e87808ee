import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import type { Prisma } from '../generated/sqlite/client.ts';
import type { BatchOptions, BatchResult } from './direct-batch.ts';

/**
 * A PostgreSQL batch in one round trip: its statements as one simple-protocol query, which the
 * server runs as one implicit transaction (all or nothing; `SET LOCAL` holds for it alone). The
 * extended protocol that parameters need takes one statement per message, and node-postgres has
 * no pipelining, so BEGIN, each statement and COMMIT were a round trip each (8 for a create).
 * Parameters become literals the way the server reads untyped parameters: quoted text it casts
 * by context (pg's escapeLiteral quotes them), NULL for null.
 */
export async function runPostgresBatch(pool: pg.Pool, statements: readonly Prisma.Sql[], options: BatchOptions, onQuery?: (sql: string) => void): Promise<BatchResult> {
  const head = options.durable === false ? ['SET LOCAL synchronous_commit TO OFF'] : [];
  const text = [...head, ...statements.map(inlined), ...(options.read ? [inlined(options.read)] : [])].join(';\n');
  onQuery?.(text);
  let results: pg.QueryResult | pg.QueryResult[];
  try {
    results = await pool.query(text);
  } catch (error) {
    throw asAdapterError(error);
  }
  // One statement answers one result, several an array of them.
  const all: pg.QueryResult[] = Array.isArray(results) ? results : [results];
  const counts = all.slice(head.length, head.length + statements.length).map((result) => result.rowCount ?? 0);
  return { counts, rows: options.read ? (all.at(-1)!.rows as Array<Record<string, unknown>>) : [] };
}

/** A statement with its parameters written in as literals. */
function inlined(statement: Prisma.Sql): string {
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (value instanceof Date) return quoted(value.toISOString());
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`Not a finite number in a batch: ${value}`);
    if (typeof value === 'string') return quoted(value);
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return quoted(String(value));
    throw new TypeError(`Unsupported SQL parameter in a direct batch: ${Object.prototype.toString.call(value)}`);
  };
  return statement.text.replace(/\$(\d+)/g, (_, n: string) => literal(statement.values[Number(n) - 1]));
}

/**
 * `text` as a string literal, as pg's escapeLiteral writes it (quotes and backslashes doubled, an
 * E'' literal when there is a backslash), but in three passes of native code. escapeLiteral appends
 * one character at a time: for an importEntries of 1,000 contents of 24 KB (25 MB, a body within
 * the limit) its strings of single-character concatenations took the event loop ~9 s to build,
 * join and send (12 s of lag; three such requests at once, 29 s), most of it garbage collection.
 */
function quoted(text: string): string {
  const body = text.replaceAll("'", "''");
  return text.includes('\\') ? ` E'${body.replaceAll('\\', '\\\\')}'` : `'${body}'`;
}

/** node-postgres' error as the Prisma adapter reports it (what prisma-errors.ts and the retries read). */
function asAdapterError(error: unknown): unknown {
  if (!(error instanceof pg.DatabaseError) || !error.code) return error;
  const original = { originalCode: error.code, originalMessage: error.message };
  const constraint = error.constraint ? { index: error.constraint } : undefined;
  if (error.code === '23505') return new DriverAdapterError({ kind: 'UniqueConstraintViolation', constraint, ...original });
  if (error.code === '23503') return new DriverAdapterError({ kind: 'ForeignKeyConstraintViolation', constraint, ...original });
  return new DriverAdapterError({
    kind: 'postgres',
    code: error.code,
    severity: error.severity ?? 'ERROR',
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
    ...original,
  });
}
