// Stage 3 of a memoryQuery, where it applies: the page of a query whose candidates are the whole
// chain (no text filter, no relatedTo) without scoring the whole chain.
//
// Why it is exact. An entry's score is at most
//   W.relation * rel + W.tags * (1 with `include` tags, else 0) + W.scope * proximity
//   + W.priority * priority / 100 (guidelines) + W.recency * recency + W.decay * decay + W.text * text.
// A first statement ranks a sample of the candidates: per scope the most recently changed entries
// and the highest-priority guidelines (each list through an index, filters applied), every entry
// related to the chain (the only ones with rel = 1), and the best text matches. The sample's last
// score on the page, tau, is at most the real page's last score (the sample is a subset of the
// candidates). So the page lies among the sample and the entries whose bound reaches tau: per
// scope, the guidelines of priority >= p(tau) and the rest changed since t(tau) (ranges of the
// (scopeId, kind, priority) and (scopeId, updatedAt) indexes), and the text matches whose rank is
// high enough. A second statement ranks those. The text score is relative to the best match that
// passes the filters: that match is among the sampled best matches unless none of them passes, in
// which case the full ranking runs instead.
import { Prisma } from '../../generated/sqlite/client.ts';
import { LIMITS } from '../../domain/limits.ts';
import { cross, entryFilters, indexedTags, matchesCte, notOverridden } from './memory-query.candidates.ts';
import { list } from './memory-query.dialect.ts';
import type { Plan } from './memory-query.plan.ts';
import { maxHalfLife, rankedPage, type PageRow } from './memory-query.ranking.ts';
import { taggedCount, taggedRows, type ScopeRows } from './memory-query.tag-copies.ts';
import { RECENCY_HALF_DAYS, RELEVANCE_WEIGHTS as W, decayBound, estimateTokens, maxAgeReaching } from './relevance.ts';

type Sql = Prisma.Sql;
type Run = (sql: Sql) => Promise<PageRow[]>;

/**
 * Pruning settles the first page of a query with no text filter and no relatedTo. A query with
 * tags reads its sample and ranges from the tag's links (memory-query.tag-copies.ts) and, when the
 * total is wanted, counts it there too; where the links cannot count it (a filter they do not
 * hold), a query with tags ranks all its candidates in one statement, which counts them. Before
 * the links, a `require` query's sample walked a scope's entries for ones that carried every
 * required tag (296 ms at 100K against 54 ms for the full ranking).
 */
export const canPrune = (plan: Plan) =>
  !plan.input.exhaustive &&
  !plan.searchFilters &&
  !plan.input.relatedTo &&
  !plan.cursor &&
  // Required tags alone: the sample reads the first one's links. With more than one, where the
  // full-text index cannot count them (PostgreSQL), the full ranking starts from their set
  // operations, which leave few candidates (require two, exclude one at 100K: 7 ms ranked against
  // 37 ms pruned, whose sample and count probed every link for the other tags). Where it can
  // (SQLite), pruning when they are many (memoryQuery counts them first): at 1M entries that query
  // ranked ~4,650 candidates in 36-57 ms.
  (!plan.tags.require.length ||
    ((plan.tags.require.length === 1 || (plan.d.scopedTagCount !== null && taggedCount(plan) !== null)) && !plan.tags.include.length && taggedRows(plan) !== null)) &&
  !(plan.input.wantsTotal && (plan.tags.include.length || plan.tags.require.length) && !taggedCount(plan));

/**
 * The page without ranking the whole chain; `complete` when the sample was every candidate there
 * is (a small memory: its count is then exact). Null when the page cannot be settled this way
 * (fewer sampled candidates than a page, or no usable text match among them).
 */
export async function prunedPage(plan: Plan, run: Run, memory: object): Promise<{ rows: PageRow[]; complete: boolean } | null> {
  for (const size of sampleSizes(plan, memory)) {
    const sample = sampleOf(plan, size);
    const first = await run(
      page(plan, {
        ctes: Prisma.sql`sampled(id) AS (${sample.lists})`,
        ids: sample.ids,
        complete: sample.complete,
        anyMatch: sample.anyMatch,
        bestFloor: sample.bestFloor,
        withBest: true,
        withMatches: true,
      }),
    );
    // Stryker disable next-line OptionalChaining: equivalent, the ranking statement always returns its totals row
    if (Number(first[0]?.complete ?? 0) === 1) return { rows: first, complete: true };
    const walk = walkBudget(plan, first);
    if (walk) observeHitTokens(memory, walk);
    const last = boundingRow(plan, first, walk);
    // Too few sampled rows to bound the page: a larger sample, else the full ranking.
    if (last?.id) return settled(plan, first, last, run, size);
  }
  return null;
}

/**
 * Tokens a hit takes in a memory, learnt from its budget cuts (per database; a moving average).
 * The budget bounds the page at its first row that does not fit (see boundingRow), so the lists
 * need to hold about the hits the budget takes, not the whole page. A fixed guess cannot serve
 * every memory: one-line guidelines take ~20 tokens, the bench's notes ~60 (a `context` of 4,000
 * tokens then stops at ~65 hits, and lists sized for 40-token hits were the whole page's 202 rows:
 * 27 ms for the first statement, against 18 ms sized for 80). A guess too large only leaves the
 * sample too small to bound the page: it is then taken again whole (a second statement), and the
 * next query of that memory is sized by what this one saw.
 */
const hitTokens = new WeakMap<object, number>();
/** The guess before a memory has had a budget cut, and the weight of each new observation. */
const FIRST_GUESS = 40;
const LEARNING_RATE = 0.3;

/**
 * Sample lists sized by a budget hold this many times the hits it likely takes. The page's best
 * spread over several lists, so a margin gains little: at 100K a two-word `context` took 37 ms
 * (p50, in-process) with lists of 1x or 1.25x the ~68 hits, 45 ms with 1.5x, 51 ms with 2x; at
 * 0.75x, 57 ms (more samples too small to bound the page).
 */
const LIST_MARGIN = 1.25;

/** Rows per sample list: twice the page, or first about the hits a token budget likely holds. */
function sampleSizes(plan: Plan, memory: object): number[] {
  const whole = 2 * plan.L;
  const budget = plan.input.tokenBudget;
  const perHit = hitTokens.get(memory) ?? FIRST_GUESS;
  const likely = budget === null ? whole : Math.ceil(LIST_MARGIN * (Math.ceil(budget / perHit) + 1));
  return likely < whole ? [likely, whole] : [whole];
}

/** Learns the tokens per hit from the sampled rows the budget walk went through. */
export function observeHitTokens(memory: object, { tokens, hits }: BudgetWalk): void {
  if (hits === 0) return;
  const before = hitTokens.get(memory) ?? FIRST_GUESS;
  hitTokens.set(memory, before + LEARNING_RATE * (tokens / hits - before));
}

/** The page from the sample's ranking `first` and its bounding row (null: the full ranking must decide). */
async function settled(plan: Plan, first: PageRow[], last: PageRow, run: Run, size: number): Promise<{ rows: PageRow[]; complete: boolean } | null> {
  // Stryker disable next-line OptionalChaining,LogicalOperator: equivalent, first[0] always exists; a best of 0 sends words to the full ranking, and without words best is unused
  const best = Number(first[0]?.maxraw ?? 0);
  // Words that match nothing in the chain score nothing: the page is settled as without them.
  // (A match that is not in the sample but passes the filters could set the best rank: then the
  // full ranking runs.)
  // Stryker disable next-line OptionalChaining: equivalent, the ranking statement always returns its totals row
  const anyMatch = Number(first[0]?.anymatch ?? 1);
  const textMatches = plan.terms.length > 0 && anyMatch > 0;
  // Stryker disable next-line BooleanLiteral: equivalent, giving up whenever the best match scores sends the page to the full ranking, which gives the same page
  if (textMatches && !(best > 0)) return null;
  // The text score is relative to the best match that passes the filters. If one of the sample's
  // list of best matches passed, the best of them is it (a match outside the list ranks no higher
  // than the list's last). If none did, a better one than the sample's best may lie outside it:
  // then the full ranking decides.
  const floor = first[0]?.bestfloor;
  if (textMatches && floor !== null && floor !== undefined && best < Number(floor)) return null;
  // Stryker disable next-line ArithmeticOperator: equivalent in practice, a float margin no bound lands within
  const tau = Number(last.score) - 1e-9;
  // Of the sample, only the rows ranked above tau can make the page, and the first statement
  // returned them all: they go on by id, so the sample is not read or ranked again. So does the
  // sample's best text match: the text score is relative to the best match among the ranked, and
  // the ranges add any better one (its bound is the highest), as when the whole sample was ranked.
  const ids = new Set(first.flatMap((row) => (row.id && Number(row.score) >= tau ? [row.id] : [])));
  const bestId = first[0]?.bestid;
  if (textMatches && bestId) ids.add(bestId);
  const kept = [...ids].map((id) => Prisma.sql`(CAST(${id} AS TEXT))`);
  // The matches the first statement found, handed on rather than matched and ranked again.
  const list = first[0]?.matchlist;
  const knownMatches = list ? plan.d.knownMatches(list) : undefined;
  const text = textMatches ? { best, sampledAbove: list ? sampledAbove(list, size) : null } : null;
  const ranges = [Prisma.sql`SELECT id FROM kept`, ...reaching(plan, tau, text).ids];
  const ctes = Prisma.sql`kept(id) AS (VALUES ${Prisma.join(kept, ', ')})`;
  return { rows: await run(page(plan, { ctes, ids: Prisma.join(ranges, ' UNION '), knownMatches })), complete: false };
}

/**
 * The sampled row whose score bounds the page: its last row (the L-th, which tells whether there
 * is more), or, where the token budget ends the page before, the first row that does not fit. No
 * entry scoring below that row can be a hit: the real ranking has every sampled row above it in
 * front of it too, so its budget runs out at that row or earlier; and with fewer than `first`
 * hits the page is truncated, so the rows after the cut do not show. For `context` (a page of 100,
 * a budget that holds ~30 entries) this raises tau from the 101st sampled score to the ~31st.
 */
export function boundingRow(plan: Plan, rows: PageRow[], walk: BudgetWalk | null): PageRow | undefined {
  return walk?.cut ?? rows[plan.L - 1];
}

export interface BudgetWalk {
  /** The first row the budget cannot hold (none: the page ends before the budget does). */
  cut?: PageRow;
  /** Tokens and rows walked, the cut row included. */
  tokens: number;
  hits: number;
}

/** The page's rows taken in order until one does not fit the token budget (null without a budget). */
export function walkBudget(plan: Plan, rows: PageRow[]): BudgetWalk | null {
  const { tokenBudget, compact } = plan.input;
  if (tokenBudget === null) return null;
  const walk: BudgetWalk = { tokens: 0, hits: 0 };
  for (const row of rows.slice(0, plan.L - 1)) {
    if (!row.id) break;
    walk.tokens += estimateTokens(Number(row.name_len), Number(row.body_len), compact);
    walk.hits++;
    if (walk.tokens > tokenBudget) return { ...walk, cut: row };
  }
  return walk;
}

interface PageOf {
  /** The CTEs `ids` reads ("sampled", "kept", "best"). */
  ctes?: Sql;
  ids: Sql;
  complete?: Sql;
  anyMatch?: Sql;
  /** Also return a candidate with the best text rank (`bestid`). */
  withBest?: boolean;
  /** Also return the text matches (`matchlist`). */
  withMatches?: boolean;
  /** The text matches of a first statement's `matchlist`. */
  knownMatches?: Sql;
  /** ScopedText's `hits` CTE, instead of `matches`: the ids' ranks are read from it. */
  hits?: Sql;
  /** Rows (id, rank) ranked where they were found (see Reaching), besides `ids`. */
  ranked?: Sql | null;
  /** The value of a `bestknown` column. */
  bestKnown?: Sql;
  /** The value of a `bestfloor` column. */
  bestFloor?: Sql;
  /** The value of a `counted` column. */
  counted?: Sql;
}

/** The ranking of the ids `ids`. */
export function page(plan: Plan, { ctes, ids, ranked, complete, anyMatch, withBest, withMatches, knownMatches, hits, bestKnown, bestFloor, counted }: PageOf): Sql {
  const words = plan.terms.length > 0;
  const more = ctes ? Prisma.sql`, ${ctes}` : Prisma.empty;
  const ofIds = hits && plan.d.scopedText ? plan.d.scopedText.rankedIds(ids) : plan.d.rankedIds(ids);
  // An id found both ways has the same rank both ways (one BM25 of one match): one row per id.
  const all = ranked ? Prisma.sql`SELECT id, MAX(rank) AS rank FROM (${ofIds} UNION ALL ${ranked}) pr GROUP BY id` : ofIds;
  const picked = words ? Prisma.sql`${more}, picked(id, rank) AS (${all})` : Prisma.sql`${more}, picked(id) AS (${ids})`;
  return rankedPage(
    plan,
    Prisma.sql`picked p ${cross} ${plan.d.entryById(Prisma.raw('p.id'))} ${cross} chain c`,
    // Stryker disable next-line BooleanLiteral: equivalent, the flag only sets the override check's fence (a plan, not the rows)
    [Prisma.sql`e."id" = p.id`, Prisma.sql`e."scopeId" = c.scope_id`, ...entryFilters(plan), ...notOverridden(plan, true)],
    { ctes: picked, rank: words ? Prisma.sql`COALESCE(p.rank, 0.0)` : Prisma.sql`0.0`, complete, anyMatch, withBest, withMatches, knownMatches, textCte: hits, bestKnown, bestFloor, counted },
  );
}

/**
 * The entries related to a scope of the chain: the only ones with rel = 1, which no range's bound
 * counts. Probed per scope of the chain: written `IN (SELECT scope_id FROM chain)` inside a UNION,
 * SQLite read the whole (sourceId, ...) index for its order instead (every relation: 5,000 at
 * 100K entries, ~0.35 ms of a 6 ms `context`).
 */
export const RELATED_TO_CHAIN = Prisma.sql`SELECT r."sourceId" AS id FROM chain rc ${cross} "Relation" r WHERE r."targetScopeId" = rc.scope_id`;
/** 1 when any word matched in the chain, else 0 (the `anymatch` column). */
export const ANY_MATCH = Prisma.sql`(SELECT COUNT(*) FROM (SELECT 1 FROM matches LIMIT 1) am)`;

/** The sample's lists (see the head of this file), whether it is complete, whether any word matched. */
interface Sample {
  lists: Sql;
  ids: Sql;
  complete: Sql;
  anyMatch: Sql;
  /** With words: the rank of the list of best matches' last, when more matched (see settled). */
  bestFloor?: Sql;
}

/** Where the sample lists and ranges read a scope's entries: a tag's links (copies), else "Entry". */
function scopeRows(plan: Plan): ScopeRows {
  return (
    taggedRows(plan) ?? {
      rows: (scopeId) => Prisma.sql`"Entry" e WHERE e."scopeId" = ${scopeId}`,
      id: Prisma.sql`e."id"`,
      filters: Prisma.join(entryFilters(plan), ' AND '),
    }
  );
}

function sampleOf(plan: Plan, size: number): Sample {
  const { input, chain } = plan;
  const { rows, id, filters } = scopeRows(plan);
  // Stryker disable next-line StringLiteral: equivalent, counting inactive entries too only finds the sample incomplete more often (the exact ranking then decides)
  const alive = input.includeInactive ? Prisma.empty : Prisma.sql` AND e."active" = ${true}`;
  const lists: Sql[] = [];
  chain.forEach((scopeId, i) => {
    lists.push(Prisma.sql`SELECT id FROM (SELECT ${id} AS id FROM ${rows(scopeId, 'recent')} AND ${filters}
      ORDER BY e."updatedAt" DESC LIMIT ${size}) r${Prisma.raw(String(i))}`);
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: equivalent, the sample only sets tau (a smaller one is looser) and the filters drop kinds not asked for
    if (input.kinds.includes('GUIDELINE')) {
      lists.push(Prisma.sql`SELECT id FROM (SELECT ${id} AS id FROM ${rows(scopeId, 'priority')} AND e."kind" = 'GUIDELINE' AND ${filters}
        ORDER BY e."priority" DESC LIMIT ${size}) g${Prisma.raw(String(i))}`);
    }
  });
  lists.push(RELATED_TO_CHAIN);
  if (plan.terms.length) lists.push(Prisma.sql`SELECT id FROM (SELECT m."entryId" AS id FROM matches m ORDER BY m.rank DESC LIMIT ${size}) tm`);
  // The sample holds every candidate when no scope has more entries than a list takes (whatever
  // the filters) and no more words matched: its ranking is then the answer, with its count.
  const cut = (rows: Sql) => Prisma.sql`(SELECT COUNT(*) FROM (${rows} LIMIT ${size + 1}) z) > ${size}`;
  const cuts = chain.map((scopeId) => cut(Prisma.sql`SELECT 1 FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" IN (${list(input.kinds)})${alive}`));
  if (plan.terms.length) cuts.push(cut(Prisma.sql`SELECT 1 FROM matches`));
  return {
    lists: Prisma.join(lists, ' UNION '),
    ids: Prisma.sql`SELECT id FROM sampled`,
    complete: Prisma.sql`(CASE WHEN ${Prisma.join(cuts, ' OR ')} THEN 0 ELSE 1 END)`,
    anyMatch: matchesCte(plan) ? ANY_MATCH : Prisma.sql`1`,
    ...(plan.terms.length
      ? {
          bestFloor: Prisma.sql`(CASE WHEN ${cut(Prisma.sql`SELECT 1 FROM matches`)}
            THEN (SELECT MIN(bf.rank) FROM (SELECT m.rank FROM matches m ORDER BY m.rank DESC LIMIT ${size}) bf) END)`,
        }
      : {}),
  };
}

/**
 * The rank above which every match was in the sample (its list of the `size` best matches), from
 * a matchList; -Infinity when the list held them all. A sampled match that passes the filters was
 * ranked against the sample's best match, which is then also the best of all (no match outside
 * the list ranks higher), so its score was final: if it can make the page it is among the kept.
 */
function sampledAbove(list: string, size: number): number {
  const ranks = (JSON.parse(list) as Array<[string, number, string, string]>).map((m) => m[1]).sort((a, b) => b - a);
  return ranks.length > size ? ranks[size - 1]! : -Infinity;
}

/** The ranges of `reaching`: selects of ids, and (or null) a select of (id, rank) rows ranked as they were found. */
export interface Reaching {
  ids: Sql[];
  ranked: Sql | null;
}

/**
 * The candidates outside the sample whose bound reaches `tau`. Text matches only when the best
 * rank is known, and of them only those at or below `sampledAbove` (null: all of them).
 */
export function reaching(plan: Plan, tau: number, text: TextReach | null): Reaching {
  const ranges: Sql[] = [];
  let ranked: Sql | null = null;
  if (text?.byScope) {
    const scoped = textReachingByScope(plan, tau, text.best);
    if (scoped?.ranked) ranked = scoped.sql;
    else if (scoped) ranges.push(scoped.sql);
  } else if (text && text.sampledAbove !== -Infinity) ranges.push(textReaching(plan, tau, text));
  const { chain, input, asOf } = plan;
  const tags = plan.tags.include.length ? W.tags : 0;
  const longest = maxHalfLife(plan);
  // Recency and the most decay an entry can keep both fall with the time since its change: the
  // oldest change at which an entry still reaches `need`, with a second of slack (null: any age).
  const ageBound = (days: number) => W.recency / (1 + days / RECENCY_HALF_DAYS) + W.decay * decayBound(days, longest);
  // Stryker disable next-line BlockStatement: equivalent, no age limit (undefined) only admits more entries to the exact ranking
  const changedSince = (need: number): Date | null | 'never' => {
    const oldest = maxAgeReaching(ageBound, need);
    // Stryker disable next-line StringLiteral,UnaryOperator: equivalent, no limit or a date in the future (no row), and the bisection never returns exactly 1 day for no bound
    if (oldest === -1) return 'never';
    if (oldest === null) return null;
    const at = asOf - oldest * 86_400_000;
    // Stryker disable next-line ArithmeticOperator: equivalent in practice, a second more or less of slack
    return new Date(at - 1_000);
  };
  // Stryker disable next-line MethodExpression,StringLiteral: equivalent, guidelines then also admitted by age (looser)
  const others = input.kinds.filter((k) => k !== 'GUIDELINE');
  const { rows, id } = rangeRows(plan);
  chain.forEach((scopeId, depth) => {
    const fixed = tags + (W.scope * (chain.length - depth)) / chain.length;
    // Stryker disable next-line StringLiteral: equivalent, guideline ranges read when none is asked for are dropped by the kind filter
    if (input.kinds.includes('GUIDELINE')) {
      const guidelines = guidelinesReaching(plan, { rows: rows(scopeId, 'priority'), id }, tau - fixed, changedSince);
      if (guidelines) ranges.push(guidelines);
    }
    const since = others.length ? changedSince(tau - fixed) : 'never';
    if (since !== 'never') {
      // Stryker disable next-line StringLiteral: equivalent, no age condition admits every entry of the scope (looser)
      const age = since ? Prisma.sql` AND e."updatedAt" >= ${since}` : Prisma.empty;
      ranges.push(Prisma.sql`SELECT ${id} AS id FROM ${rows(scopeId, 'recent')} AND e."kind" IN (${list(others)})${age}`);
    }
  });
  return { ids: ranges, ranked };
}

/**
 * Where the ranges read a scope's entries: scopeRows, and on a tag's links with the filters the
 * links can check themselves (kind, active, expiry, the other required and the excluded tags), so
 * that an entry they rule out is never read from "Entry" (which the ranking would drop anyway).
 * At 1M entries a require/exclude query's guideline range held ~850 links of its first tag, of
 * which ~80 carry the other required tag and not the excluded one.
 */
function rangeRows(plan: Plan): Pick<ScopeRows, 'rows' | 'id'> {
  const tagged = taggedRows(plan);
  if (!tagged) return scopeRows(plan);
  return { rows: (scopeId, by) => Prisma.sql`${tagged.rows(scopeId, by)} AND ${tagged.filters}`, id: tagged.id };
}

/** What the text range of `reaching` knows: the best rank, and which matches the sample held. */
export interface TextReach {
  best: number | Sql;
  /** Only matches ranked at or below this were not in the sample (null: none was). */
  sampledAbove: number | null;
  /** Read the matches of each scope and kind from the full-text index (ScopedText's `hits` is in the statement). */
  byScope?: boolean;
}

/** The text score, scope, priority and what else a text match scores at most. */
const textBound = (plan: Plan, rank: Sql, best: number | Sql, depth: Sql, kind: Sql) => {
  const tags = plan.tags.include.length ? W.tags : 0;
  const L = plan.chain.length;
  return Prisma.sql`${Prisma.raw(String(W.text))} * ${rank} / CAST(${best} AS DOUBLE PRECISION)
        + CAST(${W.scope} AS DOUBLE PRECISION) * CAST(${L} - ${depth} AS DOUBLE PRECISION) / CAST(${L} AS DOUBLE PRECISION)
        + CASE WHEN ${kind} = 'GUIDELINE' THEN ${Prisma.raw(String(W.priority))} ELSE 0.0 END + ${Prisma.raw(String(tags + W.recency + W.decay))}`;
};

/** The text matches of the chain whose bound reaches `tau`, from "matches" (each with its scope and kind). */
function textReaching(plan: Plan, tau: number, { best, sampledAbove }: TextReach): Sql {
  const unsampled = sampledAbove === null ? Prisma.empty : Prisma.sql` AND m.rank <= CAST(${sampledAbove} AS DOUBLE PRECISION)`;
  return Prisma.sql`SELECT m."entryId" AS id FROM matches m ${cross} chain c WHERE c.scope_id = m."scopeId"${unsampled}
      AND ${textBound(plan, Prisma.sql`m.rank`, best, Prisma.sql`c.depth`, Prisma.sql`m.kind`)} >= CAST(${tau} AS DOUBLE PRECISION)`;
}

/**
 * The same entries from `hits`, per scope of the chain and kind asked: the full-text index gives
 * the hits of one scope and kind (its scope tokens), so no match's "EntrySearch" row is read to
 * learn them, and a scope and kind whose bound cannot reach `tau` even with the best text score
 * is not read at all. (At 1M entries a two-word `context` reached ~500 of ~10,800 matches of its
 * chain, all of them guidelines of the session or the project.) A match that passes the filters
 * ranks no higher than the best that does, so its text score is at most W.text.
 *
 * Where the index ranks a scope's hits itself (ScopedText's rankedOfScope), they come `ranked`,
 * with their ranks: joined to `hits` instead, SQLite indexed `hits` for each scope read and again
 * for the page's ids (a two-word `context` at 1M, ~14,000 hits: its statement 31.7 -> 27.7 ms).
 * Null when no scope and kind can reach `tau`.
 */
function textReachingByScope(plan: Plan, tau: number, best: number | Sql): { sql: Sql; ranked: boolean } | null {
  const { chain, input, d } = plan;
  const actives = input.includeInactive ? [true, false] : [true];
  const tags = indexedTags(plan);
  const rankedOfScope = d.scopedText!.rankedOfScope;
  const reached: Sql[] = [];
  chain.forEach((scopeId, depth) => {
    for (const kind of input.kinds) {
      // What a match of this scope and kind scores besides its text (as textBound adds it up).
      const rest = (plan.tags.include.length ? W.tags : 0) + (W.scope * (chain.length - depth)) / chain.length
        + (kind === 'GUIDELINE' ? W.priority : 0) + W.recency + W.decay;
      if (W.text + rest < tau) continue;
      const alias = Prisma.raw(`r${reached.length}`);
      reached.push(
        rankedOfScope
          ? Prisma.sql`SELECT rid, rank, ${depth} AS depth, ${kind} AS kind FROM (${rankedOfScope(plan.terms, tags, scopeId, kind, actives, rankFloor(tau - rest, best))}) ${alias}`
          : Prisma.sql`SELECT rid, ${depth} AS depth, ${kind} AS kind FROM (${d.scopedText!.ofScope(plan.terms, tags, scopeId, kind, actives)}) ${alias}`,
      );
    }
  });
  if (!reached.length) return null;
  const found = Prisma.join(reached, ' UNION ALL ');
  if (rankedOfScope) {
    return {
      ranked: true,
      sql: Prisma.sql`SELECT s."entryId" AS id, f.rank AS rank FROM (${found}) f ${cross} "EntrySearch" s
      WHERE ${textBound(plan, Prisma.sql`f.rank`, best, Prisma.sql`f.depth`, Prisma.sql`f.kind`)} >= CAST(${tau} AS DOUBLE PRECISION)
        AND s."rowid" = f.rid`,
    };
  }
  // One join to `hits` for their ranks.
  return {
    ranked: false,
    sql: Prisma.sql`SELECT s."entryId" AS id FROM (${found}) f ${cross} hits h ${cross} "EntrySearch" s
      WHERE h.rid = f.rid AND ${textBound(plan, Prisma.sql`h.rank`, best, Prisma.sql`f.depth`, Prisma.sql`f.kind`)} >= CAST(${tau} AS DOUBLE PRECISION)
        AND s."rowid" = f.rid`,
  };
}

/**
 * The lowest text rank whose text score reaches `need` (W.text * rank / best >= need), less a
 * relative margin far above floating point's error (the bound itself is checked after, as
 * textBound computes it): hits ranked below it cannot reach tau, and rankedOfScope need not rank
 * them. NULL (rank every hit) where any text score reaches `need`.
 */
function rankFloor(need: number, best: number | Sql): Sql {
  if (!(need > 0)) return Prisma.sql`NULL`;
  return Prisma.sql`(CAST(${(need / W.text) * (1 - 1e-9)} AS DOUBLE PRECISION) * CAST(${best} AS DOUBLE PRECISION))`;
}

/**
 * The guidelines of a scope that can reach `need` with their priority, recency and decay: the
 * priority range of the index, then per band of ten priority points (a null priority scores as
 * 50) the age that the band's highest priority still allows.
 */
function guidelinesReaching(plan: Plan, scope: { rows: Sql; id: Sql }, need: number, changedSince: (need: number) => Date | null | 'never'): Sql | null {
  const minPriority = ((need - W.recency - W.decay) * 100) / W.priority;
  if (minPriority > LIMITS.priority.max) return null;
  const bands: Sql[] = [];
  for (let lo = 0; lo <= 90; lo += 10) {
    const hi = lo === 90 ? LIMITS.priority.max + 1 : lo + 10;
    // Stryker disable next-line MethodExpression: equivalent, every band then gets the age of priority 100 (looser)
    const since = changedSince(need - (W.priority * Math.min(hi, LIMITS.priority.max)) / 100);
    if (since === 'never') continue;
    // The priority range is read from the (scopeId, kind, priority) index; SQLite would otherwise take
    // the (scopeId, updatedAt) index for a band's age, which spans the whole scope where entries
    // changed recently.
    const changed = plan.d.unindexed(Prisma.sql`e."updatedAt"`);
    // Stryker disable next-line StringLiteral: equivalent, no age condition admits the whole band (looser)
    const age = since ? Prisma.sql` AND ${changed} >= ${since}` : Prisma.empty;
    bands.push(Prisma.sql`(COALESCE(e."priority", 50) >= ${lo} AND COALESCE(e."priority", 50) < ${hi}${age})`);
  }
  if (!bands.length) return null;
  // Priorities are integers: compared with one, PostgreSQL reads the range from the index (compared
  // with a double, it read every guideline of the scope: ~3,300 at 100K for ~60).
  return Prisma.sql`SELECT ${scope.id} AS id FROM ${scope.rows} AND e."kind" = 'GUIDELINE'
    AND (e."priority" >= CAST(${Math.ceil(minPriority)} AS INTEGER) OR e."priority" IS NULL) AND (${Prisma.join(bands, ' OR ')})`;
}
