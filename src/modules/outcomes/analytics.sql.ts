// SQL fragments every outcome analytics statement shares: the window's CTEs, the casts and
// orderings that make SQLite and PostgreSQL give the same numbers, and the percentile formula.
// Each query family has its own file (analytics.rates.ts, analytics.durations.ts,
// analytics.trend.ts, analytics.correlation.ts); every figure is computed by the database, one
// statement per answer.
import type { Provider } from '../../infra/database.ts';
import { timestampSql } from '../../infra/sql.ts';
import { Prisma } from '../../generated/sqlite/client.ts';

export type Sql = Prisma.Sql;

/** Which outcomes an analytics answer covers. */
export interface OutcomeWindow {
  scopeId: string;
  /** Also the scopes below it (the default: a project's figures include its sessions'). */
  includeDescendants: boolean;
  since: Date | null;
  until: Date | null;
  subtaskType: string | null;
  /**
   * With includeDescendants, for a caller who may read only some scopes of the subtree (see
   * `readableWindow`): the roots of its grants, each read with everything below it, and the
   * scopes read alone (global). Absent: every scope of the subtree counts.
   */
  readable?: { subtrees: readonly string[]; single: readonly string[] };
}

/**
 * CTEs `sub` (the scopes covered) and `w` (their outcomes in the window). The recursive walk down
 * Scope.parentId is bounded by the tree's depth (four levels); the outcomes are then read through
 * the (scopeId, occurredAt) index, one range per scope. With `readable`, the walk is filtered by the
 * caller's grants.
 */
export function windowCtes(provider: Provider, w: OutcomeWindow): Sql {
  const where = [Prisma.sql`o."scopeId" IN (SELECT "id" FROM sub)`];
  if (w.since) where.push(Prisma.sql`o."occurredAt" >= ${timestampSql(provider, w.since)}`);
  if (w.until) where.push(Prisma.sql`o."occurredAt" < ${timestampSql(provider, w.until)}`);
  if (w.subtaskType != null) where.push(Prisma.sql`o."subtaskType" = ${w.subtaskType}`);
  const outcomes = Prisma.sql`w AS (SELECT o.* FROM "Outcome" o WHERE ${Prisma.join(where, ' AND ')})`;
  // The scope, and with includeDescendants every scope below it, as the CTE `name`.
  const walk = (name: string, down: boolean) => {
    const cte = Prisma.raw(name);
    const below = down ? Prisma.sql`UNION ALL SELECT s."id" FROM "Scope" s JOIN ${cte} ON s."parentId" = ${cte}."id"` : Prisma.empty;
    return Prisma.sql`${cte}("id") AS (SELECT CAST(${w.scopeId} AS TEXT) ${below})`;
  };
  if (!w.readable) return Prisma.sql`WITH RECURSIVE ${walk('sub', w.includeDescendants)}, ${outcomes}`;
  // The caller reads only part of the subtree: `sub` keeps the walked scopes it reads. The tree is
  // four levels deep, so a scope is under a grant when it, its parent or its grandparent holds one
  // (as Access.scopeWhere); the parameters are the grants' scopes, however many scopes they hold.
  const { subtrees, single } = w.readable;
  const granted = [...subtrees, ...single];
  const held = granted.length > 0 ? [Prisma.sql`s."id" IN (${Prisma.join(granted)})`] : [];
  if (subtrees.length > 0) held.push(Prisma.sql`s."parentId" IN (${Prisma.join([...subtrees])})`, Prisma.sql`p."parentId" IN (${Prisma.join([...subtrees])})`);
  const kept = held.length > 0 ? Prisma.join(held, ' OR ') : Prisma.sql`FALSE`;
  return Prisma.sql`WITH RECURSIVE ${walk('walked', true)},
    sub("id") AS (SELECT s."id" FROM walked d JOIN "Scope" s ON s."id" = d."id" LEFT JOIN "Scope" p ON p."id" = s."parentId" WHERE ${kept}), ${outcomes}`;
}

/** A number as a double on both databases (PostgreSQL would otherwise compute in numeric or bigint). */
export const dbl = (e: Sql): Sql => Prisma.sql`CAST(${e} AS DOUBLE PRECISION)`;

/** Text that orders byte-wise on both databases (PostgreSQL's default collation would not). */
export const bytewise = (provider: Provider, e: Sql): Sql => (provider === 'postgresql' ? Prisma.sql`${e} COLLATE "C"` : e);

/**
 * Percentile `pct` (an integer percent) of `column` within the groups of a CTE that numbers its
 * rows `rn` (1..n, ascending by the column) per group of `n` rows; used inside a GROUP BY of that
 * CTE. Linear interpolation between the two nearest ranks, as PostgreSQL's percentile_cont does:
 * position pct*(n-1)/100 from the first row. The position's integer part and remainder are
 * computed in integers, so both databases interpolate with the same double arithmetic and give
 * the very same numbers (percentile_cont computes the position in floating point, which can differ
 * in the last bits).
 */
export function percentile(pct: number, column: Sql): Sql {
  const whole = Prisma.sql`(${Prisma.raw(String(pct))} * (n - 1)) / 100`;
  const low = Prisma.sql`MAX(CASE WHEN rn = ${whole} + 1 THEN ${column} END)`;
  const high = Prisma.sql`MAX(CASE WHEN rn = ${whole} + 2 THEN ${column} END)`;
  const fraction = Prisma.sql`MAX(${dbl(Prisma.sql`(${Prisma.raw(String(pct))} * (n - 1)) % 100`)}) / ${dbl(Prisma.raw('100'))}`;
  return Prisma.sql`(${dbl(low)} + ${fraction} * ${dbl(Prisma.sql`COALESCE(${high}, ${low}) - ${low}`)})`;
}

/** Milliseconds since the epoch of a DateTime column, as an integer. */
export function epochMs(provider: Provider, column: Sql): Sql {
  // SQLite keeps DateTime as ISO text; julianday is a double a few microseconds off, so it is rounded.
  return provider === 'postgresql'
    ? Prisma.sql`CAST(FLOOR(EXTRACT(EPOCH FROM ${column}) * 1000) AS BIGINT)`
    : Prisma.sql`CAST(ROUND((julianday(${column}) - 2440587.5) * 86400000.0) AS INTEGER)`;
}
