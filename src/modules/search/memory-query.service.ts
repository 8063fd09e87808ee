// memoryQuery: the relevance-ranked, scope-inherited search behind `memoryQuery` and `context`.
// Its stages, each in its own file:
//   plan        (memory-query.plan.ts)        the input checked; chain, tags and words resolved
//   candidates  (memory-query.candidates.ts)  filters, overrides, where the statement starts reading
//   ranking     (memory-query.ranking.ts)     scores, order and the page, in one statement
//   pruning     (memory-query.pruning.ts)     the page of a whole-chain query from a bounded sample
//               (memory-query.speculation.ts) or, first, in one statement from a bound learnt before
//               (memory-query.tag-sets.ts)    several required tags: counted first, pruned where many
//   paging      (below)                       the token budget and the cursors
// The SQL that differs between SQLite and PostgreSQL is in memory-query.dialect.ts.
import type { Entry, Prisma } from '../../generated/sqlite/client.ts';
import { entryOfColumns } from '../entries/entries.service.ts';
import type { Db, Provider } from '../../infra/database.ts';
import { directRead } from '../../infra/direct-batch.ts';
import { candidateSource, notOverridden, tagsRuleOutAll, type Source } from './memory-query.candidates.ts';
import { encodeCursor, planQuery, type MemoryQueryInput, type Plan } from './memory-query.plan.ts';
import { canPrune, prunedPage } from './memory-query.pruning.ts';
import { ENTRY_PREFIX, countCandidates, rankedPage, termCountsOf, type PageRow } from './memory-query.ranking.ts';
import { observeBound, speculativePage } from './memory-query.speculation.ts';
import { countOf, observeSetSize, tagSetStart } from './memory-query.tag-sets.ts';
import { taggedCount } from './memory-query.tag-copies.ts';
import type { TermCounts } from './memory-query.terms.ts';
import { RELEVANCE_WEIGHTS as W, estimateTokens } from './relevance.ts';

export { MEMORY_QUERY_DEFAULTS, type MemoryQueryInput } from './memory-query.plan.ts';
export { searchTerms } from './memory-query.terms.ts';

export interface RelevanceBreakdown {
  relation: number;
  tags: number;
  scope: number;
  text: number;
  priority: number;
  recency: number;
  decay: number;
}

export interface MemoryHit {
  entryId: string;
  /** With the input's `withEntries`: the entry's own columns, from the page's statement. */
  entry?: Entry;
  score: number;
  /** Weighted contributions; they add up to `score`. */
  breakdown: RelevanceBreakdown;
  estimatedTokens: number;
  cursor: string;
}

export interface MemoryQueryResult {
  hits: MemoryHit[];
  /** The scopes searched, nearest first. */
  scopeChain: string[];
  /** Results of the whole query (all pages); counted on demand where ranking did not count them. */
  totalCount: () => Promise<number>;
  hasMore: boolean;
  /**
   * Where to continue after this page: its last hit's cursor; on a page without hits, the cursor it
   * was asked after, else (results follow: `first: 0`, or a budget too small for the first one)
   * the start cursor, before every result; null when nothing follows and none was given.
   */
  endCursor: string | null;
  /** The token budget stopped the page before it was full. */
  truncated: boolean;
  estimatedTokens: number;
}

/**
 * Filtering, overriding, scoring and paging run in SQL (one statement, or two when pruning), so
 * cost follows the rows that can make the page, not the size of the memory.
 */
export async function memoryQuery(
  db: Db,
  provider: Provider,
  options: Pick<MemoryQueryInput, 'scopeId'> & Partial<MemoryQueryInput>,
  terms?: string[],
): Promise<MemoryQueryResult> {
  const plan = await planQuery(db, provider, options, terms);
  const found: { counts: TermCounts | null } = { counts: null };
  const result = await ranked(db, plan, found);
  // A task's words were guessed while they were counted (see taskTerms): where the counts leave
  // other words, the page is ranked again on them.
  if (!plan.termsCounted) return result;
  const counted = await plan.termsCounted(found.counts);
  return sameWords(counted, plan.terms) ? result : memoryQuery(db, provider, options, counted);
}

const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((word, i) => word === b[i]);

/** The page of the plan, and its total; `found`: the words' counts a ranking statement gave (see termCounts in memory-query.ranking.ts). */
async function ranked(db: Db, plan: Plan, found: { counts: TermCounts | null }): Promise<MemoryQueryResult> {
  // No statement where the tags alone leave nothing (the exhaustive ranking still runs its own).
  if (!plan.input.exhaustive && tagsRuleOutAll(plan)) return { ...pageOf(plan, []), totalCount: () => Promise.resolve(0) };
  // The ranking statements skip Prisma's query interpreter on SQLite (see directRead).
  const run = async (sql: Prisma.Sql) => {
    const rows = await directRead<PageRow>(db, sql);
    found.counts ??= termCountsOf(rows[0]);
    return rows;
  };
  const source = candidateSource(plan);
  let rows: PageRow[] | null = null;
  let totalCount: (() => Promise<number>) | undefined;
  // Several required tags: counted first, then pruned or ranked in full (memory-query.tag-sets.ts).
  const start = await tagSetStart(db, plan, run);
  const counted = start?.counted ?? null;
  if (counted !== null) totalCount = () => Promise.resolve(counted);
  const prunable = canPrune(plan) && (start?.prune ?? true);
  if (prunable) {
    // One statement from a learnt bound where it holds (tried beside the count already, if counted first), else pruning's two.
    const guessed = start ? start.guessed : await speculativePage(plan, run, db, false);
    const pruned = guessed ? { rows: guessed, complete: false } : await prunedPage(plan, run, db);
    if (pruned) observeBound(plan, db, pruned.rows, pruned.complete);
    rows = pruned?.rows ?? null;
    // The rest of the chain was not ranked: it is counted only if asked (unless counted already).
    const along = rows?.[0]?.counted;
    if (along !== undefined && along !== null) totalCount = () => Promise.resolve(Number(along));
    else if (pruned && !pruned.complete) totalCount ??= lazyCount(db, plan, source);
  }
  if (!rows) {
    // The full ranking: the statement counted every candidate. (Where pruning gave up, its page
    // still teaches the shape's bound.)
    rows = await run(rankedPage(plan, source.from, [...source.where, ...notOverridden(plan, source.narrow)]));
    if (prunable) observeBound(plan, db, rows, false);
    // A set ranked in full without a count first: its total teaches its family's next query.
    if (start && start.counted === null) observeSetSize(plan, db, Number(rows[0]?.total ?? 0));
  }
  const total = Number(rows[0]?.total ?? 0);
  totalCount ??= () => Promise.resolve(total);
  return { ...pageOf(plan, rows), totalCount };
}

/** Counts the candidates once, when first asked: on a tag's links where they answer, else starting where the full ranking would. */
function lazyCount(db: Db, plan: Plan, source: Source): () => Promise<number> {
  const count = taggedCount(plan) ?? countCandidates(plan, source.from, [...source.where, ...notOverridden(plan, source.narrow)]);
  let pending: Promise<number> | undefined;
  return () => (pending ??= countOf(db, count));
}

/** The hits of the ranked rows within the token budget, with their cursors. */
function pageOf(plan: Plan, rows: PageRow[]): Omit<MemoryQueryResult, 'totalCount'> {
  const { input, asOf } = plan;
  const page = rows.filter((row): row is typeof row & { id: string } => row.id !== null);
  const hits: MemoryHit[] = [];
  let tokens = 0;
  let truncated = false;
  for (const row of page.slice(0, input.first)) {
    const estimated = estimateTokens(Number(row.name_len), Number(row.body_len), input.compact);
    if (input.tokenBudget !== null && tokens + estimated > input.tokenBudget) {
      truncated = true;
      break;
    }
    tokens += estimated;
    const score = Number(row.score);
    hits.push({
      entryId: row.id,
      score,
      breakdown: {
        relation: W.relation * Number(row.rel),
        tags: W.tags * Number(row.tag),
        scope: W.scope * Number(row.prox),
        text: W.text * Number(row.txt),
        priority: W.priority * Number(row.prio),
        recency: W.recency * Number(row.rec),
        decay: W.decay * Number(row.dec),
      },
      estimatedTokens: estimated,
      cursor: encodeCursor({ a: asOf, s: score, i: row.id }),
      ...(input.withEntries ? { entry: entryOfColumns(row, ENTRY_PREFIX) } : {}),
    });
  }
  const hasMore = truncated || page.length > hits.length;
  return {
    hits,
    scopeChain: plan.chain,
    hasMore,
    endCursor: hits.at(-1)?.cursor ?? input.after ?? (hasMore ? startCursor(asOf) : null),
    truncated,
    estimatedTokens: tokens,
  };
}

/**
 * A cursor before every result (scores are finite, so below the largest double), keeping the
 * instant scores are computed at like any cursor: after it, a query starts at its first result.
 */
const startCursor = (asOf: number) => encodeCursor({ a: asOf, s: Number.MAX_VALUE, i: '' });
