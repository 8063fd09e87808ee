// Keyset paging over computed rows: each answer orders by numeric sort columns ("k0", "k1", ...,
// ascending; a descending order is the negated value) and then by text columns, together unique.
// A cursor is those values (domain/cursors.ts), so a page continues after the last row seen.
import type { Db, Provider } from '../../infra/database.ts';
import { decodeCursor, encodeCursor, type CursorPage } from '../../domain/cursors.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { bytewise, dbl, type Sql } from './analytics.sql.ts';

/** How many numeric ("k0"..) and text ("t0"..) sort columns the rows carry. */
export interface Order {
  numbers: number;
  texts: number;
}

export type Keyed<T> = T & { cursor: string };

/** `SELECT * FROM rows` (a CTE holding the sort columns k0.., t0..) for one page, with each row's cursor. */
export async function page<T extends object>(db: Db, provider: Provider, ctes: Sql, order: Order, p: CursorPage): Promise<Array<Keyed<T>>> {
  const column = (prefix: string) => (_: unknown, i: number) => `"${prefix}${i}"`;
  const numeric = Array.from({ length: order.numbers }, column('k'));
  const text = Array.from({ length: order.texts }, column('t'));
  const keys = [...numeric.map((k) => Prisma.raw(k)), ...text.map((t) => bytewise(provider, Prisma.raw(t)))];
  const bound = (cursor: string, op: string, path: string) => {
    const decoded = decodeCursor(cursor, order, path);
    if (!decoded) return [];
    const values = decoded.map((v, i) => (i < order.numbers ? dbl(Prisma.sql`${v}`) : Prisma.sql`${v}`));
    return [Prisma.sql`(${Prisma.join(keys)}) ${Prisma.raw(op)} (${Prisma.join(values)})`];
  };
  const where = [Prisma.sql`1 = 1`];
  if (p.after) where.push(...bound(p.after, '>', 'after'));
  if (p.before) where.push(...bound(p.before, '<', 'before'));
  const direction = Prisma.raw(p.inverted ? 'DESC' : 'ASC');
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`${ctes}
    SELECT * FROM rows WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY ${Prisma.join(keys.map((k) => Prisma.sql`${k} ${direction}`))} LIMIT ${p.limit}`;
  return rows.map((row) => {
    const values = [...numeric.map((_, i) => Number(row[`k${i}`])), ...text.map((_, i) => String(row[`t${i}`]))];
    return { ...(numbers(row) as T), cursor: encodeCursor(values) };
  });
}

/** A row with PostgreSQL's bigint counts and sums (and any numeric) as JavaScript numbers. */
export function numbers(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}
