// Stage 2 of a memoryQuery: scoring and the page. One statement scores the candidates of a source
// (see relevance.ts for the terms and weights), orders them and cuts the page after the cursor.
import { Prisma } from '../../generated/sqlite/client.ts';
import { entryColumnsSql } from '../entries/entries.service.ts';
import type { ChainPolicy } from '../lifecycle/policies.service.ts';
import { chainCte, join, matchesCte, relationScore } from './memory-query.candidates.ts';
import { list, num } from './memory-query.dialect.ts';
import type { Plan } from './memory-query.plan.ts';
import type { TermCounts } from './memory-query.terms.ts';
import { DECAY, RECENCY_HALF_DAYS, RELEVANCE_WEIGHTS as W } from './relevance.ts';

type Sql = Prisma.Sql;

/** The prefix of the entry's columns in a page row (with `withEntries`). */
export const ENTRY_PREFIX = 'entry_';

export interface PageRow {
  /** Null on the one row of an empty page (it still carries the total). */
  id: string | null;
  score: number;
  rel: number;
  tag: number;
  prox: number;
  txt: number;
  prio: number;
  rec: number;
  dec: number;
  /** All candidates of this statement. */
  total: number | bigint;
  name_len: number | bigint;
  body_len: number | bigint;
  /** The best text rank among all candidates (the text score is relative to it). */
  maxraw: number | null;
  /** 1 when the statement's candidates were all there are (see pruning). */
  complete: number | bigint;
  /** 0 when a text search matched nothing in the chain at all. */
  anymatch: number | bigint;
  /** With `withBest` and words: a candidate with the best text rank (null without one). */
  bestid?: string | null;
  /** With `withMatches`, on the first row: every text match as a dialect's matchList (null when too many). */
  matchlist?: string | null;
  /** With `bestKnown`: 1 when the statement knew the best text match that passes the filters. */
  bestknown?: number | bigint | string;
  /** With `bestFloor`: the rank no match outside the sample's list of best matches exceeds (null: the list held them all). */
  bestfloor?: number | string | null;
  /** With `counted`: the query's total, counted in the same statement. */
  counted?: number | bigint | string | null;
  /** Where the plan's words are being counted: each word's matches, as the dialect's termCounts gave them. */
  termdfs?: string | null;
  /** With the input's `withEntries`: the entry's columns (see entryOfColumns). */
  [entryColumn: `${typeof ENTRY_PREFIX}${string}`]: unknown;
}

/**
 * The inputs of an entry's decay (see DECAY in relevance.ts), as columns of the candidates: its
 * half-life (a policy of its scope and memory type, else its category's default, else its memory
 * type's) and its boost.
 */
function decayInputs(policies: ChainPolicy[]): { halfLife: Sql; boost: Sql } {
  const cases = (values: Record<string, number>) =>
    Prisma.join(
      Object.entries(values).map(([key, hours]) => Prisma.sql`WHEN ${key} THEN ${num(hours)}`),
      // Stryker disable next-line StringLiteral: equivalent, each WHEN ends in a parenthesis, so no blank is needed between them
      ' ',
    );
  const defaults = Prisma.sql`COALESCE(CASE e."category" ${cases(DECAY.categoryHalfLifeHours)} END, CASE e."memoryType" ${cases(DECAY.halfLifeHours)} END, ${num(DECAY.halfLifeHours.SEMANTIC)})`;
  const halfLife = policies.length
    ? Prisma.sql`CASE ${Prisma.join(
        policies.map((p) => Prisma.sql`WHEN e."scopeId" = ${p.scopeId} AND e."memoryType" = ${p.memoryType} THEN ${num(p.hours)}`),
        // Stryker disable next-line StringLiteral: equivalent, each WHEN ends in a parenthesis, so no blank is needed between them
        ' ',
      )} ELSE ${defaults} END`
    : defaults;
  const boost = Prisma.sql`(1.0 + ${num(DECAY.accessBoost)} * (CASE WHEN e."accessCount" > ${Prisma.raw(String(DECAY.accessCap))} THEN ${num(DECAY.accessCap)} ELSE e."accessCount" END)
    + ${num(DECAY.importanceBoost)} * e."importance")`;
  return { halfLife, boost };
}

/** The longest half-life an entry of this query can have: what bounds the decay of those not ranked. */
export function maxHalfLife(plan: Plan): number {
  return Math.max(...Object.values(DECAY.halfLifeHours), ...Object.values(DECAY.categoryHalfLifeHours), ...plan.halfLives.map((h) => h.hours));
}

/** The share of the `include` tags entry e carries; every candidate carries one, so with one tag it is 1. */
function tagShare(plan: Plan): Sql {
  const include = plan.tags.include;
  if (include.length === 0) return Prisma.sql`0.0`;
  if (include.length === 1) return Prisma.sql`1.0`;
  const ids = include.flatMap((t) => (t.id ? [t.id] : []));
  if (ids.length === 0) return Prisma.sql`0.0`;
  return Prisma.sql`CAST((SELECT COUNT(*) FROM "EntryTag" et WHERE et."entryId" = e."id" AND et."tagId" IN (${list(ids)})) AS DOUBLE PRECISION) / ${num(include.length)}`;
}

export interface PageOptions {
  /** Further CTEs after chain and matches (e.g. pruning's "picked"), each starting with a comma. */
  ctes?: Sql;
  /** The raw text rank of a candidate (default: of its match m). */
  rank?: Sql;
  /** The value of the `complete` column. */
  complete?: Sql;
  /** The value of the `anymatch` column. */
  anyMatch?: Sql;
  /** Also return, as `bestid`, a candidate whose text rank is the best. */
  withBest?: boolean;
  /** Also return, as `matchlist` on the first row, the text matches (at most MATCH_LIST_MAX of them). */
  withMatches?: boolean;
  /** The CTE `matches` as a previous statement's `matchlist` gave it, instead of matching again. */
  knownMatches?: Sql;
  /** The text matches as another CTE instead of `matches` (ScopedText's `hits`: the candidates' ranks are read from it already). */
  textCte?: Sql;
  /** The value of a `bestknown` column. */
  bestKnown?: Sql;
  /** The value of a `bestfloor` column. */
  bestFloor?: Sql;
  /** The value of a `counted` column (a scalar subquery counting the query's total). */
  counted?: Sql;
}

/**
 * Most text matches a statement hands on to the next as a list (~70 bytes each): the two-word
 * `context` at 100K has ~1,100, whose match and rank took ~20 ms on PostgreSQL.
 */
export const MATCH_LIST_MAX = 5_000;

/** The columns txt and maxraw: a candidate's text rank relative to the best among the candidates. */
function textScore(words: boolean): Sql {
  // Without a text search every text score is 0: no window over them.
  if (!words) return Prisma.sql`0.0 AS txt, CAST(NULL AS DOUBLE PRECISION) AS maxraw,`;
  return Prisma.sql`CASE WHEN MAX(raw_text) OVER () > 0 THEN raw_text / MAX(raw_text) OVER () ELSE 0.0 END AS txt,
        MAX(raw_text) OVER () AS maxraw,`;
}

/** The ranked page over the candidates FROM `from` WHERE `where`. */
export function rankedPage(plan: Plan, from: Sql, where: Sql[], options: PageOptions = {}): Sql {
  const { d, chain, cursor } = plan;
  const matches = options.knownMatches ?? options.textCte ?? matchesCte(plan);
  const rank = options.rank ?? (matches ? Prisma.sql`COALESCE(m.rank, 0.0)` : Prisma.sql`0.0`);
  const decay = decayInputs(plan.halfLives);
  const after = cursor
    ? // The cursor's score is the caller's: a parameter, never SQL text.
      Prisma.sql`WHERE score < CAST(${cursor.s} AS DOUBLE PRECISION) OR (score = CAST(${cursor.s} AS DOUBLE PRECISION) AND id > ${cursor.i})`
    : Prisma.empty;
  const pageRows = Prisma.sql`SELECT * FROM ranked ${after} ORDER BY score DESC, id ASC LIMIT ${plan.L}`;
  const listsMatches = Boolean(options.withMatches && matches);
  return Prisma.sql`
    WITH ${chainCte(plan)}${matches ? Prisma.sql`, ${matches}` : Prisma.empty}${options.ctes ?? Prisma.empty},
    cand AS (
      SELECT e."id" AS id,
        ${relationScore(plan)} AS rel,
        ${tagShare(plan)} AS tag,
        CAST(${chain.length} - c.depth AS DOUBLE PRECISION) / ${num(chain.length)} AS prox,
        CAST(${rank} AS DOUBLE PRECISION) AS raw_text,
        CASE WHEN e."kind" = 'GUIDELINE' THEN CAST(COALESCE(e."priority", 50) AS DOUBLE PRECISION) / 100.0 ELSE 0.0 END AS prio,
        ${d.greatest}(0.0, ${d.ageDays(Prisma.sql`e."updatedAt"`, plan.asOf)}) AS age,
        ${decay.halfLife} AS hl,
        ${decay.boost} AS boost
      FROM ${from}
      WHERE ${join(where)}
    ),
    scored AS (
      SELECT id, rel, tag, prox, prio,
        1.0 / (1.0 + age / ${num(RECENCY_HALF_DAYS)}) AS rec,
        ${d.decay} AS dec,
        ${textScore(matches !== null)}
        COUNT(*) OVER () AS total
      FROM cand
    ),
    ranked AS (
      SELECT id, rel, tag, prox, txt, prio, rec, dec, total, maxraw,
        ${Prisma.raw(`${W.relation} * rel + ${W.tags} * tag + ${W.scope} * prox + ${W.text} * txt + ${W.priority} * prio + ${W.recency} * rec + ${W.decay} * dec`)} AS score
      FROM scored
    )
    SELECT page.id, page.score, page.rel, page.tag, page.prox, page.txt, page.prio, page.rec, page.dec, page.maxraw, totals.total,
      ${options.complete ?? Prisma.sql`1`} AS complete, ${options.anyMatch ?? Prisma.sql`1`} AS anymatch,${
        options.bestKnown ? Prisma.sql` ${options.bestKnown} AS bestknown,` : Prisma.empty
      }${options.bestFloor ? Prisma.sql` ${options.bestFloor} AS bestfloor,` : Prisma.empty}${
        options.counted ? Prisma.sql` ${options.counted} AS counted,` : Prisma.empty
      }${
        // The statement that matches the words counts them: their counting need not read the matches again.
        plan.termsCounted && d.termCounts && matches && !options.knownMatches ? Prisma.sql` ${d.termCounts} AS termdfs,` : Prisma.empty
      }${
        // The best match has a text score of exactly 1 (its rank over itself).
        options.withBest && matches ? Prisma.sql` (SELECT b.id FROM scored b WHERE b.txt >= 1.0 ORDER BY b.id LIMIT 1) AS bestid,` : Prisma.empty
      }${
        // Once, not on every row of the page.
        listsMatches
          ? Prisma.sql` CASE WHEN page.pos = 1 THEN (SELECT CASE WHEN COUNT(*) <= ${MATCH_LIST_MAX} THEN ${d.matchList} END FROM matches m) END AS matchlist,`
          : Prisma.empty
      }
      ${plan.input.withEntries ? Prisma.sql`${entryColumnsSql(ENTRY_PREFIX)},` : Prisma.empty}
      LENGTH(e."name") AS name_len, COALESCE(LENGTH(s."body"), 0) AS body_len
    FROM (SELECT COUNT(*) AS total FROM scored) totals
    LEFT JOIN (${
      listsMatches
        ? Prisma.sql`SELECT r.*, ROW_NUMBER() OVER (ORDER BY score DESC, id ASC) AS pos FROM (${pageRows}) r`
        : pageRows
    }) page ON 1 = 1
    LEFT JOIN "Entry" e ON e."id" = page.id
    LEFT JOIN "EntrySearch" s ON s."entryId" = page.id
    ORDER BY page.score DESC, page.id ASC`;
}

/** The words' document frequencies a statement's `termdfs` column gave, or null without it. */
export function termCountsOf(row: Pick<PageRow, 'termdfs'> | undefined): TermCounts | null {
  const counts = row?.termdfs;
  return typeof counts === 'string' ? new Map(Object.entries(JSON.parse(counts) as Record<string, number>).map(([word, n]) => [word, Number(n)])) : null;
}

/** How many candidates FROM `from` WHERE `where` there are (for a total the ranking did not count). */
export function countCandidates(plan: Plan, from: Sql, where: Sql[]): Sql {
  const matches = matchesCte(plan);
  return Prisma.sql`WITH ${chainCte(plan)}${matches ? Prisma.sql`, ${matches}` : Prisma.empty}
    SELECT COUNT(*) AS total FROM ${from} WHERE ${join(where)}`;
}
