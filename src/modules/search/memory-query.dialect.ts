// The SQL of the query engine that differs between SQLite and PostgreSQL, in one place per
// dialect. Everything else (memory-query.*.ts) is written once, in the SQL both accept.
import { Prisma } from '../../generated/sqlite/client.ts';
import type { Provider } from '../../infra/database.ts';
import { ranksWithExtension } from '../../infra/sqlite-rank-extension.ts';
import { DECAY } from './relevance.ts';

type Sql = Prisma.Sql;

/** A number as a double in both dialects. */
export const num = (n: number): Sql => Prisma.raw(`CAST(${n} AS DOUBLE PRECISION)`);

/**
 * A number that changes from one query to the next (the instant scores are computed at), as a
 * bound parameter: written into the text, it made every ranking statement new, so SQLite prepared
 * each one afresh (~3 ms of a 30 ms tag-only query at 100K entries) and the prepared-statement
 * cache filled with statements used once.
 */
const param = (n: number): Sql => Prisma.sql`CAST(${n} AS DOUBLE PRECISION)`;

export interface Dialect {
  provider: Provider;
  /** Milliseconds since the epoch of a DateTime column. */
  epochMs(column: Sql): Sql;
  /** Days from a DateTime column to `asOf` (milliseconds since the epoch). */
  ageDays(column: Sql, asOf: number): Sql;
  greatest: Sql;
  least: Sql;
  /** Decay (see DECAY in relevance.ts) from the candidate columns age (days), hl (hours) and boost. */
  decay: Sql;
  /** Where `needle` occurs in `haystack` (from 1), 0 when it does not, NULL when `needle` is NULL. */
  position(haystack: Sql, needle: Sql): Sql;
  /**
   * CTEs ending in `matches("entryId", rank, "scopeId", kind)`: the entries whose text matches any
   * of `terms` (as prefixes), with their text rank (higher is better); `filters` apply to the
   * entry's "EntrySearch" row `s`; `many`: the statement reads them more than once. `tags`: tag
   * ids the matches must carry (any of `include`, every one of `require`, none of `exclude`),
   * which SQLite also asks of its full-text index (`filters` holds them too).
   */
  textMatches(terms: readonly string[], filters: Sql, many: boolean, tags?: TagTerms): Sql;
  /**
   * `picked(id, rank)`'s rows: the distinct ids `ids` (a UNION), each with its text rank from
   * `matches` (NULL when it did not match; a match's entry id is unique there).
   */
  rankedIds(ids: Sql): Sql;
  /** How many entries match `term` (as a prefix), counting no further than `cap`. */
  documentFrequency(term: string, cap: number): Sql;
  /**
   * The database's sampled statistics of the indexed words, where it keeps them: one row of
   * `words` and `shares` (JSON arrays: the most common words, and the share of entries each is
   * in), or no row. Null where the database keeps none (SQLite's full-text index has none).
   */
  wordStatistics: Sql | null;
  /**
   * Where `textMatches` counts each word's matches anyway (PostgreSQL): a scalar subquery of its
   * CTEs giving them as a JSON object of word to document frequency (words without a match left
   * out). Null where it does not (SQLite's full-text index ranks without counting).
   */
  termCounts: Sql | null;
  /** The rows of `matches m` as one JSON text of [entryId, rank, scopeId, kind] arrays (an aggregate). */
  matchList: Sql;
  /** The CTE `matches` of the rows a `matchList` gave (JSON numbers carry a double exactly in both). */
  knownMatches(list: string): Sql;
  /** The FROM item of the "Entry" row `e` whose id is `id` (a column of an earlier FROM item: `p.id`, `start.id`). */
  entryById(id: Sql): Sql;
  /** Ends a correlated probe so that the planner keeps it a probe per row. */
  probeFence: Sql;
  /** A column that a condition must not pick an index by (another condition's index is the better one). */
  unindexed(column: Sql): Sql;
  /** "EntryTag" e, read by the index of its copies for a scope's most recent links, guidelines by priority, or the count. */
  tagLinks(by: 'recent' | 'priority' | 'count'): Sql;
  /**
   * The database keeps counters of each tag's plain links per scope, kind and active flag, and a
   * list of the others ("TagLinkCount", "TagLinkOdd": SQLite's migration tag_counts).
   */
  tagLinkCounters: boolean;
  /**
   * The ids (column `id`) of the entries that carry one of the tags `tags`, every tag of
   * `required` and none of `excluded`, from the tag links alone (no "Entry" row is read).
   */
  tagSet(tags: readonly string[], required: readonly string[], excluded: readonly string[]): Sql;
  /**
   * How many plain entries (no expiry, a name no other entry shares) of `set.scopes` and
   * `set.kinds` carry one of `set.tags`, every tag of `set.required` and none of `set.excluded`,
   * from the full-text index's scoped tag tokens alone (SQLite's migration
   * text_index_scoped_tag_tokens; a scalar query). Null where the database keeps none.
   */
  scopedTagCount: ((set: ScopedTagSet) => Sql) | null;
  /** The text matches without their rows (ScopedText), or null where the index cannot say their scope. */
  scopedText: ScopedText | null;
}

/**
 * The text matches read without their "EntrySearch" rows, where the full-text index names each
 * entry's scope, kind and active flag (SQLite's migration text_index_scope_tokens; see
 * memory-query.speculation.ts for the statement that uses them).
 */
export interface ScopedText {
  /**
   * The CTE `hits(rid, rank)`: every entry whose text matches `terms` and that carries `tags` (as
   * textMatches asks its index), by its "EntrySearch" rowid, with its text rank. No other filter.
   * Before it, the CTEs its ranks read (SQLite with the extension: the words' counts, `dfs`).
   */
  hits(terms: readonly string[], tags: TagTerms): Sql;
  /**
   * As hits, ranking only the `k` best hits (at least) and those of the entries `exactFor` selects
   * (column `id`); every other hit's rank is NULL, and ranks no higher than the k-th best's. Also
   * the CTE `ranged(id)`, those entries, for the statement's other uses (read once). Null where the
   * index cannot (every hit is ranked).
   */
  topHits: ((terms: readonly string[], tags: TagTerms, k: number, exactFor: Sql) => Sql) | null;
  /** The rowids (column `rid`) of the hits of entries of `scope` and `kind` whose active flag is one of `actives`. */
  ofScope(terms: readonly string[], tags: TagTerms, scope: string, kind: string, actives: readonly boolean[]): Sql;
  /**
   * As ofScope, with each hit's rank as `hits` gives it (column `rank`), where that rank can reach
   * `floor` (an SQL double; NULL: every hit), else a NULL rank; null where ranking them there
   * would cost more than reading their ranks from `hits` (see the SQLite dialect). Only in a
   * statement that has `hits` or `topHits` of the same terms (it reads their CTEs).
   */
  rankedOfScope: ((terms: readonly string[], tags: TagTerms, scope: string, kind: string, actives: readonly boolean[], floor: Sql) => Sql) | null;
  /** `picked(id, rank)`'s rows, as rankedIds, with the ranks of `hits`. */
  rankedIds(ids: Sql): Sql;
}

/** The tag conditions and the chain a scopedTagCount counts over. */
export interface ScopedTagSet {
  tags: readonly string[];
  required: readonly string[];
  excluded: readonly string[];
  scopes: readonly string[];
  kinds: readonly string[];
  includeInactive: boolean;
}

/** Values as a comma-separated list of parameters (for IN). */
export const list = (values: readonly string[]) => Prisma.join(values.map((v) => Prisma.sql`${v}`));

/** The ids (column `id`) of the entries that carry one of the tags, from the (tagId, entryId) index alone (sorted by id for one tag). */
export const tagEntryIds = (tags: readonly string[], distinct = false) =>
  Prisma.sql`SELECT ${Prisma.raw(distinct ? 'DISTINCT ' : '')}et."entryId" AS id FROM "EntryTag" et WHERE et."tagId" IN (${list(tags)})`;

/** The indexes over the tag links' copies (prisma/models.prisma, EntryTag). */
const TAG_LINK_INDEXES = {
  recent: 'EntryTag_tagId_scopeId_updatedAt_idx',
  priority: 'EntryTag_tagId_scopeId_kind_priority_idx',
  count: 'EntryTag_tagId_scopeId_kind_active_name_validUntil_nameShared_entryId_idx',
} as const;

const decayOf = (exponent: (e: Sql) => Sql, greatest: string, least: string): Sql => {
  const left = Prisma.sql`EXP(${exponent(Prisma.sql`${num(-Math.LN2 * 24)} * age / hl`)}) * boost`;
  return Prisma.sql`${Prisma.raw(greatest)}(${num(DECAY.floor)}, ${Prisma.raw(least)}(1.0, ${left}))`;
};

/** A term's quotes doubled, as an FTS5 string wants them. */
// Stryker disable next-line StringLiteral,Regex: equivalent, searchTerms keeps only letters, digits and _, so no term holds a quote
const doubleQuotes = (term: string) => term.replace(/"/g, '""');

/**
 * An FTS5 query of prefix terms of an entry's name or text, each quoted so that no word is read as
 * an operator (the index's third column, "tagTokens", holds its tags: see tagsQuery).
 */
const ftsQuery = (terms: readonly string[]) => `{name body} : (${terms.map((t) => `"${doubleQuotes(t)}"*`).join(' OR ')})`;

/** Tag ids a text search's matches must carry: any of `include`, all of `require`, none of `exclude`. */
export interface TagTerms {
  include: readonly string[];
  require: readonly string[];
  exclude: readonly string[];
}

/** A tag's token in the full-text index (SQLite's migration text_index_tag_tokens): "t" and its id's UTF-8 bytes in hex. */
export const tagToken = (id: string) => `t${hex(id)}`;

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/**
 * An entry's token of its scope, kind and active flag (migration text_index_scope_tokens): "x" and
 * the scope id in hex, "z", the kind's initial and "a" (active) or "i".
 */
const scopeToken = (scope: string, kind: string, active: boolean) => `x${hex(scope)}z${kind.charAt(0).toLowerCase()}${active ? 'a' : 'i'}`;

/**
 * A plain entry's token of a tag in its scope, of its kind and active flag, as the migration
 * text_index_scoped_tag_tokens writes it: the tag's token, then the scope token.
 */
const scopedTagToken = (tag: string, scope: string, kind: string, active: boolean) => `${tagToken(tag)}${scopeToken(scope, kind, active)}`;

/** The FTS5 query of a ScopedTagSet: any of its tags' scoped tokens, the required tags' postings, less the excluded ones'. */
function scopedTagsQuery(set: ScopedTagSet): string {
  const actives = set.includeInactive ? [true, false] : [true];
  const scoped = set.tags.flatMap((tag) => set.scopes.flatMap((scope) => set.kinds.flatMap((kind) => actives.map((a) => scopedTagToken(tag, scope, kind, a)))));
  return tagsQuery(`tagTokens : (${scoped.join(' OR ')})`, { include: [], require: set.required, exclude: set.excluded });
}

/**
 * The conditions `also` (none: every entry) and the tags as terms of the "tagTokens" column: FTS5
 * intersects the postings itself, so only the entries that carry the tags reach their rows.
 */
function tagsQuery(also: string | null, tags: TagTerms | undefined): string {
  const all = also ? [also] : [];
  if (tags?.include.length) all.push(`tagTokens : (${tags.include.map(tagToken).join(' OR ')})`);
  for (const id of tags?.require ?? []) all.push(`tagTokens : ${tagToken(id)}`);
  const query = all.join(' AND ');
  return tags?.exclude.length ? `(${query}) NOT tagTokens : (${tags.exclude.map(tagToken).join(' OR ')})` : query;
}

/** The words' query, and the tags asked for (see tagsQuery). */
const ftsMatch = (terms: readonly string[], tags: TagTerms | undefined) => tagsQuery(`(${ftsQuery(terms)})`, tags);

/** ftsMatch of the entries of `scope` and `kind` whose active flag is one of `actives` (their scope tokens come last). */
const scopedMatch = (terms: readonly string[], tags: TagTerms, scope: string, kind: string, actives: readonly boolean[]) =>
  `(${ftsMatch(terms, tags)}) AND tagTokens : (${actives.map((a) => scopeToken(scope, kind, a)).join(' OR ')})`;

/**
 * The rank of a match of ftsMatch(terms, tags): BM25, a match in the name weighing twice one in the
 * text, the tags nothing. With tags, where the database's connections have SQLite's ranking
 * extension (`extension`), engram_bm25 of the query's first `terms.length` phrases (the words:
 * ftsMatch puts them first): bm25() itself also counts every posting of each tag for an IDF that
 * the tags' weight of 0 then cancels (~97,000 for one tag at 1M entries: ~4 of a tag + word
 * statement's ~10 ms). The same scores either way (native/fts5-rank.c).
 */
function textRank(terms: readonly string[], tags: TagTerms | undefined, extension: boolean): Sql {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,ArithmeticOperator: equivalent where the extension is loaded (as in the tests), since without tag phrases engram_bm25 is bm25(); test/fts5-rank.test.ts checks the ranks with them
  const tagged = Boolean(tags && tags.include.length + tags.require.length + tags.exclude.length > 0);
  return tagged && extension ? wordsRank(terms) : Prisma.sql`-bm25("EntrySearchFts", 2.0, 1.0, 0.0)`;
}

/** textRank with the extension: BM25 of the query's first `terms.length` phrases, the words (ftsMatch puts them first). */
const wordsRank = (terms: readonly string[]) => Prisma.sql`-engram_bm25("EntrySearchFts", ${Prisma.raw(String(terms.length))}, 2.0, 1.0, 0.0)`;

/**
 * With the extension: the CTE dfs(v), the documents each of the words matches alone (as text, "7156
 * 7186": what the extension's functions take instead of counting them; native/fts5-rank.c), and
 * the argument that hands them on. Every read of the index ranked with them takes its IDFs from
 * them instead of counting each word's documents again (at 1M entries ~0.9 ms a read of a two-word
 * task; the speculative statement reads the index once for its best hits and once per scope and
 * kind that can reach the page).
 */
const wordCounts = (terms: readonly string[]) =>
  Prisma.sql`dfs(v) AS MATERIALIZED (SELECT ${Prisma.join(
    terms.map((term) => Prisma.sql`CAST((SELECT COUNT(*) FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${ftsQuery([term])}) AS TEXT)`),
    ` || ' ' || `,
  )})`;
const COUNTED = Prisma.raw('(SELECT v FROM dfs)');

/** SQLite's dialect; `extension`: the database's connections have the ranking extension (textRank). */
const sqliteOf = (extension: boolean): Dialect => ({
  provider: 'sqlite',
  // julianday is a double a few microseconds off the stored instant: rounded, a time filter's bound is exact.
  epochMs: (column) => Prisma.sql`ROUND((julianday(${column}) - 2440587.5) * 86400000.0)`,
  // One function call per row: the Julian day of `asOf` is a constant.
  ageDays: (column, asOf) => Prisma.sql`(${param(asOf / 86_400_000 + 2_440_587.5)} - julianday(${column}))`,
  greatest: Prisma.raw('MAX'),
  least: Prisma.raw('MIN'),
  decay: decayOf((e) => e, 'MAX', 'MIN'),
  position: (haystack, needle) => Prisma.sql`instr(${haystack}, ${needle})`,
  // Materialized where asked: a pruned query reads the matches three or four times (the sample,
  // their ranks, whether the sample is complete, whether any matched), and SQLite otherwise runs the
  // full-text match and BM25 again for each (a two-word context at 100K: 29 -> 25.5 ms, then 16 ->
  // 9 ms). A text filter reads them once, as its start: there the copy only costs (2.9 -> 3.9 ms).
  textMatches: (terms, filters, many, tags) =>
    Prisma.sql`matches("entryId", rank, "scopeId", kind) AS ${Prisma.raw(many ? 'MATERIALIZED ' : '')}(
    SELECT s."entryId", ${textRank(terms, tags, extension)}, s."scopeId", s."kind"
    FROM "EntrySearchFts" JOIN "EntrySearch" s ON s."rowid" = "EntrySearchFts"."rowid"
    WHERE "EntrySearchFts" MATCH ${ftsMatch(terms, tags)} AND ${filters})`,
  // A join: SQLite indexes the matches for it (a two-word `context` at 100K, ~1,100 matches: the
  // statement 6.0 -> 5.7 ms against PostgreSQL's grouping below).
  rankedIds: (ids) => Prisma.sql`SELECT u.id, m.rank FROM (${ids}) u LEFT JOIN matches m ON m."entryId" = u.id`,
  documentFrequency: (term, cap) =>
    Prisma.sql`SELECT COUNT(*) AS df FROM (SELECT 1 FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${ftsQuery([term])} LIMIT ${cap}) d`,
  wordStatistics: null,
  termCounts: null,
  matchList: Prisma.sql`json_group_array(json_array(m."entryId", m.rank, m."scopeId", m.kind))`,
  knownMatches: (list) => Prisma.sql`matches("entryId", rank, "scopeId", kind) AS MATERIALIZED (
    SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]')
    FROM json_each(${list}) j)`,
  entryById: () => Prisma.sql`"Entry" e`,
  probeFence: Prisma.empty,
  // SQLite's documented way: a unary + keeps the term from selecting an index.
  unindexed: (column) => Prisma.sql`+${column}`,
  // Named: SQLite's statistics are sampled (PRAGMA optimize reads ~400 rows of an index), which
  // sees a tag's links of one scope only and rates the scope column as no narrower than the tag;
  // the planner then read a guideline range through the (tagId, entryId) index, every link of the
  // tag (one tag-only query at 100K: 9 ms instead of 2).
  tagLinks: (by) => Prisma.raw(`"EntryTag" e INDEXED BY "${TAG_LINK_INDEXES[by]}"`),
  tagLinkCounters: true,
  // The tags' links alone from the (tagId, entryId) index; with tags required or excluded, the
  // full-text index's tag tokens (migration text_index_tag_tokens), whose postings FTS5 intersects
  // itself (every entry has its search row: an import withdraws the entries it could not give a
  // version). Require two tags and exclude one: 0.77 ms against 1.94 at 100K entries for set
  // operations over the links' index (INTERSECT, EXCEPT), 19 against 33 ms at 1M; as probes per
  // link of the first tag (PostgreSQL's form) the set took 22 ms at 100K.
  tagSet: (tags, required, excluded) =>
    required.length || excluded.length
      ? Prisma.sql`SELECT s."entryId" AS id FROM "EntrySearchFts" JOIN "EntrySearch" s ON s."rowid" = "EntrySearchFts"."rowid"
      WHERE "EntrySearchFts" MATCH ${tagsQuery(null, { include: tags, require: required, exclude: excluded })}`
      : tagEntryIds(tags, tags.length > 1),
  // FTS5 counts the postings' intersection itself: no entry's row is read.
  scopedTagCount: (set) => Prisma.sql`SELECT COUNT(*) FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${scopedTagsQuery(set)}`,
  scopedText: {
    // BM25 of every hit, once: what the statement's best match and its candidates' ranks read.
    // With the extension, engram_bm25 of the words from their counts (wordCounts): bm25()'s ranks.
    hits: (terms, tags) => Prisma.sql`${extension ? Prisma.sql`${wordCounts(terms)}, ` : Prisma.empty}hits(rid, rank) AS MATERIALIZED (
    SELECT "rowid", ${extension ? Prisma.sql`-engram_bm25("EntrySearchFts", ${COUNTED}, 2.0, 1.0, 0.0)` : textRank(terms, tags, false)}
    FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${ftsMatch(terms, tags)})`,
    // engram_top: the document length, which BM25 looks up per hit (most of its cost), is read only
    // for a hit that can be among the k best, or that `exactFor` names (native/fts5-rank.c).
    topHits: extension
      ? (terms, tags, k, exactFor) => Prisma.sql`${wordCounts(terms)}, ranged(id) AS MATERIALIZED (${exactFor}), hits(rid, rank) AS MATERIALIZED (
    SELECT "rowid", -engram_top("EntrySearchFts", ${COUNTED}, ${Prisma.raw(String(Math.max(1, Math.trunc(k))))},
      "rowid" IN (SELECT s."rowid" FROM ranged x CROSS JOIN "EntrySearch" s WHERE s."entryId" = x.id), 2.0, 1.0, 0.0)
    FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${ftsMatch(terms, tags)})`
      : null,
    // FTS5 intersects the words' postings with the token's: no row per hit. (Their ranks come from
    // `hits`: BM25 here would count the token's postings for its weight, ~150,000 of them for the
    // project's guidelines at 1M entries; a two-word `context`'s statement 41 -> 56 ms.)
    ofScope: (terms, tags, scope, kind, actives) =>
      Prisma.sql`SELECT "rowid" AS rid FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${scopedMatch(terms, tags, scope, kind, actives)}`,
    // With the extension, engram_above (engram_bm25 of the words alone) ranks a scope's hits as
    // `hits` does, without counting the scope token's postings (which bm25() would): the ranks come
    // with the hits, and `hits` is not joined (and indexed) for them. Only those that can reach the
    // floor have their length looked up (native/fts5-rank.c).
    rankedOfScope: extension
      ? (terms, tags, scope, kind, actives, floor) =>
          Prisma.sql`SELECT "rowid" AS rid, -engram_above("EntrySearchFts", ${COUNTED}, ${floor}, 2.0, 1.0, 0.0) AS rank
      FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ${scopedMatch(terms, tags, scope, kind, actives)}`
      : null,
    rankedIds: (ids) =>
      Prisma.sql`SELECT u.id, h.rank FROM (${ids}) u LEFT JOIN "EntrySearch" s ON s."entryId" = u.id LEFT JOIN hits h ON h.rid = s."rowid"`,
  },
});

const postgresql: Dialect = {
  provider: 'postgresql',
  epochMs: (column) => Prisma.sql`(EXTRACT(EPOCH FROM ${column}) * 1000.0)`,
  ageDays: (column, asOf) => Prisma.sql`((${param(asOf)} - (EXTRACT(EPOCH FROM ${column}) * 1000.0)) / 86400000.0)`,
  greatest: Prisma.raw('GREATEST'),
  least: Prisma.raw('LEAST'),
  // EXP raises an error where the result underflows: e^-50 (times the largest boost) is far below the floor anyway.
  decay: decayOf((e) => Prisma.sql`GREATEST(-50.0, ${e})`, 'GREATEST', 'LEAST'),
  position: (haystack, needle) => Prisma.sql`strpos(${haystack}, ${needle})`,
  // ts_rank has no document frequencies: each term is weighed by its BM25 idf so that a rare word
  // counts for more than a common one, as SQLite's bm25() does. A term's document frequency is the
  // number of its matches (in the whole memory), counted as they are found. The number of rows is
  // the planner's estimate (pg_class.reltuples), which lags behind the rows written since the last
  // ANALYZE: taken as never fewer than a term's matches, or its weight turns negative and the best
  // matches rank last.
  // Each term's tsquery is made once (OFFSET 0 keeps the subquery from being pulled up): written
  // inline, PostgreSQL parsed it again for every match it checked and ranked (a ten-word `context`
  // at 100K, ~2,100 matches: 14.6 -> 13.1 ms for the statement).
  textMatches: (terms, filters) => Prisma.sql`term_hits("entryId", term, r, kept, "scopeId", kind) AS (
    SELECT s."entryId", v.t, ts_rank(s."document", v.q, 1), ${filters}, s."scopeId", s."kind"
    FROM (SELECT w.t, to_tsquery('simple', w.t) AS q
      FROM (VALUES ${Prisma.join(terms.map((t) => Prisma.sql`(CAST(${`${t}:*`} AS TEXT))`), ', ')}) w(t) OFFSET 0) v
    JOIN "EntrySearch" s ON s."document" @@ v.q
  ),
  term_df(term, df) AS (SELECT th.term, COUNT(*) FROM term_hits th GROUP BY th.term),
  matches("entryId", rank, "scopeId", kind) AS (
    SELECT h."entryId", SUM(ln(1.0 + (GREATEST(n.total, d.df) - d.df + 0.5) / (d.df + 0.5)) * h.r), h."scopeId", h."kind"
    FROM term_hits h JOIN term_df d ON d.term = h.term,
      (SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples ELSE (SELECT COUNT(*) FROM "EntrySearch") END AS total
       FROM pg_class c WHERE c.relname = 'EntrySearch' AND c.relkind = 'r') n
    WHERE h.kept
    GROUP BY h."entryId", h."scopeId", h."kind")`,
  // term_df's words without their prefix mark.
  termCounts: Prisma.sql`(SELECT COALESCE(CAST(json_object_agg(left(d.term, -2), d.df) AS TEXT), '{}') FROM term_df d)`,
  // One grouping of ids and matches together: a join of the two made PostgreSQL, misjudging the
  // sizes, scan all matches once per id.
  rankedIds: (ids) => Prisma.sql`SELECT id, MAX(rank) FROM (
    SELECT u.id AS id, CAST(NULL AS DOUBLE PRECISION) AS rank, 1 AS wanted FROM (${ids}) u
    UNION ALL SELECT m."entryId", m.rank, 0 FROM matches m) x
    GROUP BY id HAVING MAX(wanted) = 1`,
  documentFrequency: (term, cap) =>
    Prisma.sql`SELECT COUNT(*) AS df FROM (SELECT 1 FROM "EntrySearch" WHERE "document" @@ to_tsquery('simple', ${`${term}:*`}) LIMIT ${cap}) d`,
  // ANALYZE's sample of the search documents (autovacuum keeps it fresh): the most common words
  // of the column and the share of rows each is in (pg_stats' most_common_elems and _freqs, whose
  // last two or three values are not words' but the minimum, maximum and null share).
  wordStatistics: Prisma.sql`SELECT CAST(array_to_json(CAST(CAST(s.most_common_elems AS TEXT) AS TEXT[])) AS TEXT) AS words,
      CAST(array_to_json(s.most_common_elem_freqs) AS TEXT) AS shares
    FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = 'EntrySearch' AND s.attname = 'document'
      AND s.most_common_elems IS NOT NULL`,
  // Text, not json: the driver would parse it only for the next statement to need the text again.
  // Read back as jsonb: json would parse each element again for each ->> (1,100 matches: 6 -> 1 ms).
  matchList: Prisma.sql`CAST(json_agg(json_build_array(m."entryId", m.rank, m."scopeId", m.kind)) AS TEXT)`,
  knownMatches: (list) => Prisma.sql`matches("entryId", rank, "scopeId", kind) AS MATERIALIZED (
    SELECT j.value->>0, CAST(j.value->>1 AS DOUBLE PRECISION), j.value->>2, j.value->>3
    FROM jsonb_array_elements(CAST(${list} AS jsonb)) j)`,
  // PostgreSQL would hash-join the whole "Entry" table to a few thousand ids: one lookup each. (It
  // expects thousands of ids from a tag set operation that leaves ~400: require two tags and
  // exclude one at 100K, 115 -> 26 ms; one include tag's ~8,600 ids, 131 -> 114 ms.)
  entryById: (id) => Prisma.sql`LATERAL (SELECT * FROM "Entry" x WHERE x."id" = ${id} OFFSET 0) e`,
  // As an anti-join the planner hashed every entry of the chain (76K at 100K entries) for a few
  // thousand candidates; OFFSET 0 keeps the override check a probe per candidate.
  probeFence: Prisma.raw(' OFFSET 0'),
  // PostgreSQL weighs both indexes by their statistics.
  unindexed: (column) => column,
  tagLinks: () => Prisma.raw('"EntryTag" e'),
  // A counter row per tag and scope would queue concurrent writers of the tag on it.
  tagLinkCounters: false,
  // Semi- and anti-joins, which PostgreSQL merges over the (tagId, entryId) index: its INTERSECT
  // and EXCEPT hash every link of every tag (require two tags, exclude one, at 100K entries:
  // 17.6 ms against 12.0).
  tagSet: (tags, required, excluded) => {
    const also = required.map((id) => Prisma.sql` AND EXISTS (SELECT 1 FROM "EntryTag" r WHERE r."entryId" = et."entryId" AND r."tagId" = ${id})`);
    const not = excluded.length
      ? Prisma.sql` AND NOT EXISTS (SELECT 1 FROM "EntryTag" x WHERE x."entryId" = et."entryId" AND x."tagId" IN (${list(excluded)}))`
      : Prisma.empty;
    return Prisma.sql`${tagEntryIds(tags, tags.length > 1)}${also.length ? Prisma.join(also, '') : Prisma.empty}${not}`;
  },
  scopedText: null,
  scopedTagCount: null,
};

const sqlite = sqliteOf(false);
const sqliteRanked = sqliteOf(true);

const DIALECTS: Record<Provider, Dialect> = { sqlite, postgresql };

/** The dialect of `db`'s queries: SQLite's with the ranking extension where its connections have it. */
export const dialectOf = (db: object, provider: Provider): Dialect => (provider === 'sqlite' && ranksWithExtension(db) ? sqliteRanked : DIALECTS[provider]);
