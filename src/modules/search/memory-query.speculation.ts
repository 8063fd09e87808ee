// Stage 3, first try: a pruned page in one statement, from a bound learnt from earlier queries.
//
// Pruning (memory-query.pruning.ts) ranks a sample to find tau, a score the page's bounding row
// reaches, then ranks the entries whose bound reaches tau. Queries of one shape over one memory
// (the same chain, filters and budget: an agent's `context` before each step) find nearly the
// same tau each time, so the sample's statement mostly re-learns what the last query knew. Here a
// guess g (the lowest bounding score of recent queries of the shape, less a margin) stands in for
// tau, and one statement ranks every candidate whose bound reaches g.
//
// Why it is exact when it says so. The statement ranks C: the candidates whose bound reaches g
// (pruning's ranges), every entry related to the chain (the only ones with rel = 1, which the
// ranges' bounds leave out), and the best text match that passes the filters. Their scores are
// their real scores: the text score is relative to the best passing match, which C holds. Let b
// be C's bounding row (its L-th row, or the first its token budget cannot hold). Every candidate
// outside C scores at most its bound, below g; so if b scores g or more, nothing outside C ranks
// at or above b, and the page up to b is the real one. Otherwise (or with fewer rows than a page
// and no budget cut, or when the best passing match is unknown) the answer is thrown away and
// pruning runs as before.
//
// The best passing match: the statement checks the filters on the best `2 L` matches (or, where
// the index ranks only the best hits, the best BEST_OF). If one passes, the best of them is the
// best of all (any match outside them ranks no higher than the last of them). If none passes, it
// cannot tell: the guess is given up.
//
// Where the full-text index names each entry's scope, kind and active flag (SQLite: ScopedText in
// memory-query.dialect.ts), the statement reads the text matches without their rows: `hits`
// ranks every match (BM25) whatever its scope, the best `2 L` of them are checked as above (a
// superset of the passing matches: the argument holds), and the text range asks the index for
// the matches of each scope and kind that can reach g (pruning's textReachingByScope). Every rank
// comes from `hits`, so the scores are the ones the matches with their rows give.
import { Prisma } from '../../generated/sqlite/client.ts';
import { cross, entryFilters, indexedTags, notOverridden } from './memory-query.candidates.ts';
import type { Plan } from './memory-query.plan.ts';
import { ANY_MATCH, RELATED_TO_CHAIN, boundingRow, observeHitTokens, page, reaching, walkBudget } from './memory-query.pruning.ts';
import type { PageRow } from './memory-query.ranking.ts';
import { DEFAULT_RANK_BEST_HITS_FROM } from '../../config.ts';
import type { Db } from '../../infra/database.ts';
import { taggedCount } from './memory-query.tag-copies.ts';
import { lastMemorySize } from './memory-query.terms.ts';

type Sql = Prisma.Sql;
type Run = (sql: Sql) => Promise<PageRow[]>;

/** Bounding scores of recent pruned pages, per memory and per shape of query (most recent last). */
const bounds = new WeakMap<object, Map<string, number[]>>();
/** How many recent bounds a guess is taken from, and how many shapes a memory keeps. */
const KEPT_BOUNDS = 16;
const KEPT_SHAPES = 500;
/**
 * The guess is the lowest recent bound less a margin. A lower guess ranks more entries; a higher
 * one fails more often, and a failure costs the whole statement on top of pruning's two. The
 * margin follows how much the shape's recent bounds spread: where they hardly move (the same query
 * asked again, an agent's `context` with other words), a wide margin only ranks more entries than
 * the page needs (at 1M entries, a tag-only query ranked ~3,500 entries for 21 rows, 23.6 ms p50;
 * with a margin a tenth as wide, 15.3 ms). Until a shape has MARGIN_AFTER bounds, the widest.
 */
const MARGIN = { min: 0.005, max: 0.05, ofSpread: 0.5 };
const MARGIN_AFTER = 4;

/** The margin below the lowest of `seen`, the shape's recent bounds (see MARGIN). */
function marginOf(seen: readonly number[]): number {
  if (seen.length < MARGIN_AFTER) return MARGIN.max;
  const spread = Math.max(...seen) - Math.min(...seen);
  return Math.min(MARGIN.max, Math.max(MARGIN.min, MARGIN.ofSpread * spread));
}

/**
 * What decides tau besides the memory: the chain, the filters, the page and its budget, whether
 * a task's words score. Not the words themselves: a task's matches only move tau a little.
 * `tags` says how the tags count: by their ids (the shape), or by how many of each role there are
 * (the shape's family, below).
 */
function describe(plan: Plan, tags: 'ids' | 'counts'): string {
  const { input } = plan;
  const of = (list: readonly { id: string | null }[]) => (tags === 'ids' ? list.map((t) => t.id) : list.length);
  // A shape that mixes queries only makes worse guesses, which fail and fall back: each mutant
  // that merges shapes is equivalent for the answers (test/mutation-survivors.md).
  // Stryker disable ArrayDeclaration,ArrowFunction,ConditionalExpression,EqualityOperator: equivalent, see above
  return JSON.stringify([
    tags,
    plan.chain,
    input.kinds,
    of(plan.tags.include),
    of(plan.tags.require),
    of(plan.tags.exclude),
    plan.terms.length > 0,
    input.includeInactive,
    input.includeExpired,
    input.includeOverridden,
    input.memoryTypes,
    input.createdAfter,
    input.createdBefore,
    input.updatedAfter,
    input.updatedBefore,
    plan.L,
    input.tokenBudget,
    input.compact,
  ]);
  // Stryker restore ArrayDeclaration,ArrowFunction,ConditionalExpression,EqualityOperator
}

/**
 * The guess for a query of this shape over this memory: from the shape's recent bounds, or for a
 * shape not settled yet, from its family's (the same query with other tags: an agent's first
 * query with a tag, which would otherwise pay pruning's two statements; over the bench's 20 tags,
 * 13 of the first 30 tag-only queries did, at ~2 times a guessed page). Null when neither is known.
 * Where a family's guess is too high for this tag (fewer of its entries reach it), the statement
 * finds no bounding row at or above it and pruning decides, as after any guess that fails.
 */
function guessOf(plan: Plan, memory: object): number | null {
  const shapes = bounds.get(memory);
  const family = familyOf(plan);
  const seen = shapes?.get(describe(plan, 'ids')) ?? (family === null ? undefined : shapes?.get(family));
  // Stryker disable next-line MethodExpression,ArithmeticOperator: equivalent, a higher guess only fails more often
  return seen?.length ? Math.min(...seen) - marginOf(seen) : null;
}

/** The query's shape with its tags counted by role, not named: the same query with other tags. */
export const shapeFamily = (plan: Plan): string => describe(plan, 'counts');

/** The shape's family: null for a query without tags (its family would be itself). */
function familyOf(plan: Plan): string | null {
  const { include, require, exclude } = plan.tags;
  return include.length + require.length + exclude.length > 0 ? describe(plan, 'counts') : null;
}

/**
 * Remembers the bounding score of a settled pruned page. Without one (`complete`: the sample held
 * every candidate, so pruning's one statement is cheaper than a guess; or no bounding row), the
 * shape keeps no bound and takes none from its family: pruning decides its next query too.
 */
export function observeBound(plan: Plan, memory: object, rows: PageRow[], complete: boolean): void {
  let shapes = bounds.get(memory);
  if (!shapes) bounds.set(memory, (shapes = new Map<string, number[]>()));
  const last = complete ? undefined : boundingRow(plan, rows, walkBudget(plan, rows));
  const bound = last?.id ? Number(last.score) : null;
  remember(shapes, describe(plan, 'ids'), bound);
  // A family keeps what its shapes learnt; a small tag teaches it nothing.
  const family = familyOf(plan);
  if (family !== null && bound !== null) remember(shapes, family, bound);
}

/** Adds `bound` to the shape's recent bounds (most recent last); null leaves it none. */
function remember(shapes: Map<string, number[]>, shape: string, bound: number | null): void {
  const seen = bound === null ? [] : (shapes.get(shape) ?? []);
  shapes.delete(shape);
  if (bound !== null) seen.push(bound);
  // What a memory keeps is bounded (not visible through the API; the guesses are the same).
  // Stryker disable next-line MethodExpression: equivalent for the answers, it bounds memory
  shapes.set(shape, seen.slice(-KEPT_BOUNDS));
  // Oldest first: Map keeps insertion order, and a shape seen again was moved to the end.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the answers, it bounds memory
  if (shapes.size > KEPT_SHAPES) shapes.delete(shapes.keys().next().value!);
}

/**
 * Shapes of a memory whose best text match was not among the best hits (see bestMatch): their
 * next guesses read the matches with their rows, as before ScopedText.
 */
const hitsMissed = new WeakMap<object, Set<string>>();

/**
 * Where the index can rank only the best hits (ScopedText's topHits), the statement checks the
 * filters on the best BEST_OF hits instead of the best `2 L` of all of them ranked, and ranks
 * exactly only those and the hits that other ranges name (at 1M entries, of ~14,000 hits of a
 * two-word task ~2,000, of ~21,000 of a ten-word one ~2,200: the statement's `hits` 13.3 -> 6.6 ms
 * and 28.4 -> 14.0; the `context` 41.5 -> 32.0 and 55.9 -> 39.8 ms at p50 in turn). At 100K, where
 * a two-word task has ~1,400 hits whose lengths the page cache holds, it costs a little more than
 * it saves (8.9 -> 9.6 ms at p50 in turn): so only from the input's `bestHitsFrom` entries
 * (RANK_BEST_HITS_FROM). Shapes whose best passing match was not among them (topMissed) check the
 * best `2 L` again, every hit ranked, and only if that misses too go back to the rows (hitsMissed).
 */
const BEST_OF = 16;
const topMissed = new WeakMap<object, Set<string>>();

/** Whether the memory has `bestHitsFrom` searchable entries, as a task's words were last counted against (none counted: 0). */
const largeEnough = (plan: Plan, memory: object) => (lastMemorySize(memory as Db) ?? 0) >= (plan.input.bestHitsFrom ?? DEFAULT_RANK_BEST_HITS_FROM);

/** The page in one statement from a learnt guess, or null when there is none or it did not hold; `counted`: the total is known already. */
export async function speculativePage(plan: Plan, run: Run, memory: object, counted: boolean): Promise<PageRow[] | null> {
  const guess = guessOf(plan, memory);
  if (guess === null) return null;
  const words = plan.terms.length > 0;
  const shape = describe(plan, 'ids');
  const text = plan.d.scopedText;
  const scoped = words && text !== null && !hitsMissed.get(memory)?.has(shape);
  // Its scopes' hits ranked where they are read (reached.ranked), not from `hits`: `hits` need only rank the best.
  const narrow = scoped && text.topHits !== null && text.rankedOfScope !== null && largeEnough(plan, memory) && !topMissed.get(memory)?.has(shape);
  const linksCount = plan.input.wantsTotal && !counted ? taggedCount(plan) : null;
  // With pruning's float slack below the guess (an entry's bound and score are computed apart).
  // Stryker disable next-line ArithmeticOperator: equivalent in practice, a float margin no bound lands within
  const reached = reaching(plan, guess - 1e-9, words ? { best: Prisma.sql`(SELECT rank FROM best)`, sampledAbove: null, byScope: scoped } : null);
  // The entries whose ranks the page reads from `hits` besides the best's (which is among the best
  // hits): topHits ranks them exactly and reads them once, as `ranged`.
  const ranged = [RELATED_TO_CHAIN, ...reached.ids];
  const hits = narrow
    ? text.topHits!(plan.terms, indexedTags(plan), BEST_OF, Prisma.join(ranged, ' UNION '))
    : scoped
      ? text.hits(plan.terms, indexedTags(plan))
      : undefined;
  const best = words ? bestMatch(plan, scoped, narrow ? BEST_OF : 2 * plan.L) : null;
  const ranges = [...(narrow ? [Prisma.sql`SELECT id FROM ranged`] : ranged), ...(best ? [Prisma.sql`SELECT id FROM best`] : [])];
  const rows = await run(
    page(plan, {
      ctes: best ?? undefined,
      ids: Prisma.join(ranges, ' UNION '),
      ranked: reached.ranked,
      hits,
      anyMatch: words ? (scoped ? ANY_HIT : ANY_MATCH) : undefined,
      bestKnown: words ? Prisma.sql`(SELECT COUNT(*) FROM best)` : undefined,
      // A total asked for that the tag's links count rides along: one round trip, not two.
      counted: linksCount ? Prisma.sql`(${linksCount})` : undefined,
    }),
  );
  // Matches there are, but the best passing one is not known: the text scores cannot be trusted.
  // Stryker disable next-line OptionalChaining: equivalent, the ranking statement always returns its totals row
  if (words && Number(rows[0]?.anymatch ?? 0) > 0 && Number(rows[0]?.bestknown ?? 0) !== 1) {
    if (!narrow) {
      if (scoped) rememberMissed(hitsMissed, memory, shape);
      return null;
    }
    // The best BEST_OF hits lie outside what the query passes (the chain holds few of the
    // matches): this shape checks the best `2 L` from now on, starting now (one statement, where
    // pruning would take two).
    rememberMissed(topMissed, memory, shape);
    return speculativePage(plan, run, memory, counted);
  }
  const walk = walkBudget(plan, rows);
  const last = boundingRow(plan, rows, walk);
  // Stryker disable next-line EqualityOperator: equivalent in practice, a score exactly at the guess
  if (!last?.id || Number(last.score) < guess) return null;
  // Stryker disable next-line ConditionalExpression: equivalent, learning the tokens per hit only sizes later samples
  if (walk) observeHitTokens(memory, walk);
  return rows;
}

/** Remembers a shape whose best match the hits it checked did not hold (bounded as the bounds are). */
function rememberMissed(shapes: WeakMap<object, Set<string>>, memory: object, shape: string): void {
  let missed = shapes.get(memory);
  if (!missed) shapes.set(memory, (missed = new Set()));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent for the answers, it bounds memory
  if (missed.size >= KEPT_SHAPES) missed.clear();
  missed.add(shape);
}

/** 1 when any word matched at all (the `anymatch` column, from `hits`). */
const ANY_HIT = Prisma.sql`(SELECT COUNT(*) FROM (SELECT 1 FROM hits LIMIT 1) am)`;

/**
 * The CTE best(id, rank): the best of the best `checked` text matches that passes every filter
 * (none when none does). From `hits` (`scoped`), the best `checked` of every match, whatever its
 * scope, kind or flag: where the chain holds few of the matches, none of them may pass, and the
 * shape then checks more (topMissed) or goes back to the matches with their rows (hitsMissed).
 * Hits that topHits left unranked (NULL) sort last and rank no higher than its `checked` best.
 */
function bestMatch(plan: Plan, scoped: boolean, checked: number): Sql {
  const top = scoped
    ? Prisma.sql`(SELECT s."entryId" AS id, t.rank FROM (SELECT h.rid, h.rank FROM hits h ORDER BY h.rank DESC LIMIT ${checked}) t
        ${cross} "EntrySearch" s WHERE s."rowid" = t.rid)`
    : Prisma.sql`(SELECT m."entryId" AS id, m.rank FROM matches m ORDER BY m.rank DESC LIMIT ${2 * plan.L})`;
  // Materialized: the statement reads it three or four times (the ranges' bounds, its id, whether it is known).
  return Prisma.sql`best(id, rank) AS MATERIALIZED (
    SELECT e."id", t.rank FROM ${top} t
      ${cross} ${
        // Stryker disable next-line StringLiteral: equivalent on SQLite, whose entryById names "Entry" e (PostgreSQL's tests check it)
        plan.d.entryById(Prisma.raw('t.id'))
      } ${cross} chain c
    WHERE e."id" = t.id AND e."scopeId" = c.scope_id AND ${
      // Stryker disable next-line BooleanLiteral: equivalent, the fence changes PostgreSQL's plan only (it is empty on SQLite)
      Prisma.join([...entryFilters(plan), ...notOverridden(plan, true)], ' AND ')
    }
    ORDER BY t.rank DESC, e."id" LIMIT 1)`;
}
