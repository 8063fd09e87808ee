// Stage 3 for a query that requires several tags, where the full-text index counts their set
// (SQLite: memory-query.tag-copies.ts, scopedCount): the set counted first, then pruned where it
// is large or ranked in full where it is small.
//
// Pruning's sample walks the first required tag's links for those that carry the other tags, a
// cost that does not shrink with the set; ranking the set in full costs what the set holds.
// Measured 2026-12-01 (require two tags, exclude one): at 100K entries (~450 candidates) the full
// ranking took 4.6 ms and pruning 6.7; at 1M (~4,650) the full ranking 36-57 ms, pruning ~11 and
// the count ~6.
import type { Prisma } from '../../generated/sqlite/client.ts';
import type { Db } from '../../infra/database.ts';
import { directRead } from '../../infra/direct-batch.ts';
import type { Plan } from './memory-query.plan.ts';
import { canPrune } from './memory-query.pruning.ts';
import type { PageRow } from './memory-query.ranking.ts';
import { shapeFamily, speculativePage } from './memory-query.speculation.ts';
import { taggedCount } from './memory-query.tag-copies.ts';

/** Candidates from which a set of required tags is pruned rather than ranked in full. */
export const PRUNE_FROM = 1_000;

/** The last total of a set, per memory and per family of queries (the same query with other tags). */
const sizes = new WeakMap<object, Map<string, number>>();
const KEPT_FAMILIES = 500;

export interface SetStart {
  /** The set's total, where it was counted here. */
  counted: number | null;
  /** The page of the shape's learnt bound, asked beside the count (null: none, or it did not hold). */
  guessed: PageRow[] | null;
  /** Whether to prune (else the full ranking, which counts the set). */
  prune: boolean;
}

/**
 * How a query that requires several tags starts (null for any other query). Where its family's
 * last set was small, the full ranking, without a count (at 100K the count added ~1 ms to a 6.6
 * ms query). Otherwise the set's count, and beside it the page of the shape's learnt bound (a shape
 * with a bound was pruned before, and a guess is exact whatever the set's size): on SQLite the two
 * statements run on two reader threads at once.
 */
export async function tagSetStart(db: Db, plan: Plan, run: (sql: Prisma.Sql) => Promise<PageRow[]>): Promise<SetStart | null> {
  if (plan.tags.require.length < 2 || !canPrune(plan)) return null;
  const last = sizes.get(db)?.get(shapeFamily(plan));
  if (last !== undefined && last < PRUNE_FROM) return { counted: null, guessed: null, prune: false };
  // canPrune admits several required tags only where taggedCount counts them.
  const [counted, guessed] = await Promise.all([countOf(db, taggedCount(plan)!), speculativePage(plan, run, db, true)]);
  observeSetSize(plan, db, counted);
  return { counted, guessed, prune: guessed !== null || counted >= PRUNE_FROM };
}

/** Remembers the total of a query that requires several tags, for its family's next query. */
export function observeSetSize(plan: Plan, memory: object, total: number): void {
  let families = sizes.get(memory);
  if (!families) sizes.set(memory, (families = new Map<string, number>()));
  const family = shapeFamily(plan);
  families.delete(family);
  families.set(family, total);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the answers, it bounds memory
  if (families.size > KEPT_FAMILIES) families.delete(families.keys().next().value!);
}

/** A count statement's `total`. */
export async function countOf(db: Db, count: Prisma.Sql): Promise<number> {
  const rows = await directRead<{ total: number | bigint | string }>(db, count);
  return Number(rows[0]?.total ?? 0);
}
