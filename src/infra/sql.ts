import { Prisma } from '../generated/sqlite/client.ts';
import type { Provider } from './database.ts';

/**
 * Dialect helpers for raw statements. Both databases take the same SQL text except where
 * PostgreSQL needs a parameter's type: a jsonb value, a timestamp in a SELECT list.
 */

/** A JSON value as a statement parameter (stored as text on SQLite, jsonb on PostgreSQL). */
export function jsonSql(provider: Provider, value: unknown): Prisma.Sql {
  if (value === null || value === undefined) return Prisma.sql`NULL`;
  const text = JSON.stringify(value);
  return provider === 'postgresql' ? Prisma.sql`CAST(${text} AS JSONB)` : Prisma.sql`${text}`;
}

/** A time as a parameter usable anywhere, including a SELECT list feeding an INSERT. */
export function timestampSql(provider: Provider, at: Date): Prisma.Sql {
  return provider === 'postgresql' ? Prisma.sql`CAST(${at} AS TIMESTAMP(3))` : Prisma.sql`${at}`;
}

/** A name written into a statement as a quoted identifier (its double quotes doubled). */
export function quotedIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** How a raw read gives a column back: SQLite has booleans as 0/1, times as text, JSON as text. */
export type ColumnType = 'text' | 'number' | 'boolean' | 'time' | 'json';

/**
 * The `<prefix><column>` columns of a raw row, typed as Prisma's client types them (a direct read
 * on SQLite gives the driver's values; `$queryRaw` on PostgreSQL gives them typed already).
 */
export function typedRow<T>(row: object, types: Readonly<Record<string, ColumnType>>, prefix = ''): T {
  const typed: Record<string, unknown> = {};
  for (const column in types) typed[column] = typedValue(types[column]!, (row as Record<string, unknown>)[prefix + column]);
  return typed as T;
}

function typedValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return value === true || Number(value) === 1;
    case 'time':
      return value instanceof Date ? value : timeOf(value as string | number);
    case 'number':
      return Number(value);
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value;
    default:
      return value;
  }
}

/**
 * A time as SQLite holds it: text with a zone (as Prisma writes), text without one (a column's
 * CURRENT_TIMESTAMP default, in UTC), or milliseconds.
 */
function timeOf(value: string | number): Date {
  if (typeof value === 'number' || /(Z|[+-]\d\d:?\d\d)$/.test(value)) return new Date(value);
  return new Date(`${value.replace(' ', 'T')}Z`);
}
