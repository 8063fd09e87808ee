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
