// Keyset paging over computed rows: each answer orders by numeric sort columns ("k0", "k1", ...,
// ascending; a descending order is the negated value) and then by text columns, together unique.
// A cursor is those values, so a page continues after the last row seen; EDGE_CURSOR (no values)
// is the edge of a list, where an empty page that was given no cursor sits.
import type { Db, Provider } from '../../infra/database.ts';
import { ValidationError } from '../../domain/errors.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { bytewise, dbl, type Sql } from './analytics.sql.ts';

export interface PageArgs {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted: boolean;
}

/** How many numeric ("k0"..) and text ("t0"..) sort columns the rows carry. */
export interface Order {
  numbers: number;
  texts: number;
}

export type Keyed<T> = T & { cursor: string };

const encodeCursor = (values: Array<number | string>) => Buffer.from(JSON.stringify(values)).toString('base64url');

/**
 * The cursor of a list's edge (no sort values): after it the list starts at its first row, before
 * it at its last, as with no cursor at all. An empty page asked for without a cursor (`first: 0`)
 * answers it as its end cursor where rows follow, so that a client has a cursor to go on from.
 */
export const EDGE_CURSOR = encodeCursor([]);

/** The sort values of a cursor; null for EDGE_CURSOR (no bound). */
function decodeCursor(cursor: string, order: Order, path: string): Array<number | string> | null {
  const bad = () => new ValidationError([{ path: [path], message: 'is not a cursor of this list' }]);
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (Array.isArray(values) && values.length === 0) return null;
  const arity = order.numbers + order.texts;
  if (!Array.isArray(values) || values.length !== arity) throw bad();
  values.forEach((v, i) => {
    // A text with a NUL is no row's (PostgreSQL cannot even compare with one: an unexpected error).
    const ok = i < order.numbers ? typeof v === 'number' && Number.isFinite(v) : typeof v === 'string' && v.length <= 1_000 && !v.includes('\u0000');
    if (!ok) throw bad();
  });
  return values as Array<number | string>;
}

/** `SELECT * FROM rows` (a CTE holding the sort columns k0.., t0..) for one page, with each row's cursor. */
export async function page<T extends object>(db: Db, provider: Provider, ctes: Sql, order: Order, p: PageArgs): Promise<Array<Keyed<T>>> {
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

interface PageInfo {
  startCursor?: string | null;
  endCursor?: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * A page's cursors as a client goes on from them. An empty page has no row to take a cursor from:
 * given a cursor, it sits there (Pothos' resolveCursorConnection answers that one); given none,
 * Pothos answers "" (not a cursor), which becomes EDGE_CURSOR where rows follow in that direction
 * (`first: 0` on a list that has rows) and null where none do, as on the API's other lists.
 */
export function edgeCursors<C extends { pageInfo: PageInfo }>(connection: C): C {
  const { pageInfo } = connection;
  const edge = (cursor: string | null | undefined, more: boolean) => (cursor === '' ? (more ? EDGE_CURSOR : null) : cursor);
  return {
    ...connection,
    pageInfo: { ...pageInfo, startCursor: edge(pageInfo.startCursor, pageInfo.hasPreviousPage), endCursor: edge(pageInfo.endCursor, pageInfo.hasNextPage) },
  };
}

/** A row with PostgreSQL's bigint counts and sums (and any numeric) as JavaScript numbers. */
export function numbers(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}
