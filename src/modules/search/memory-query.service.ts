import { Prisma } from '../../generated/sqlite/client.ts';
import type { Db, Provider } from '../../infra/database.ts';
import { chainWithPolicies, type ChainPolicy } from '../lifecycle/policies.service.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames } from '../../domain/validate.ts';
import { ENTRY_KINDS, type EntryKind } from '../entries/entries.service.ts';
import type { RelationType } from '../relations/relations.service.ts';
import { DECAY, RECENCY_HALF_DAYS, RELEVANCE_WEIGHTS as W, decayBound, estimateTokens, maxAgeReaching } from './relevance.ts';

export interface MemoryQueryInput {
  scopeId: string;
  /** Of the scope chain, the scopes the caller may read (default: all). */
  readable?: (chain: string[]) => Promise<string[]>;
  /** Walk up the scope chain (default true). */
  inherit: boolean;
  kinds: readonly EntryKind[];
  tags: { include: readonly string[]; require: readonly string[]; exclude: readonly string[] };
  search: string | null;
  /** true: only entries matching `search` (memoryQuery); false: matching only raises the score (context). */
  searchFilters?: boolean;
  relatedTo: { entryId: string } | { scopeId: string } | null;
  relationType: RelationType | null;
  includeInactive: boolean;
  /** Also entries whose validUntil has passed (default false). */
  includeExpired: boolean;
  /** Only entries of these memory types (default: all). */
  memoryTypes: readonly string[] | null;
  /** Also return entries a nearer scope overrides (same kind and name). */
  includeOverridden: boolean;
  createdAfter: Date | null;
  createdBefore: Date | null;
  updatedAfter: Date | null;
  updatedBefore: Date | null;
  first: number;
  after: string | null;
  tokenBudget: number | null;
  compact: boolean;
}

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
  /** The token budget stopped the page before it was full. */
  truncated: boolean;
  estimatedTokens: number;
}

interface Cursor {
  /** Time the scores were computed at (ms): recency is frozen across pages. */
  a: number;
  s: number;
  i: string;
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(value: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(value, 'base64url').toString()) as Cursor;
    if (typeof c.a === 'number' && typeof c.s === 'number' && typeof c.i === 'string') return c;
  } catch {
    // fall through
  }
  throw new ValidationError([{ path: ['after'], message: 'is not a cursor of this query' }]);
}

/** Words of a search, as prefix terms; punctuation and operators are not syntax here. */
export function searchTerms(search: string): string[] {
  return [...new Set(search.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 16);
}

const join = (parts: Prisma.Sql[], sep = ' AND ') => (parts.length ? Prisma.join(parts, sep) : Prisma.sql`1 = 1`);
const list = (values: readonly string[]) => Prisma.join(values.map((v) => Prisma.sql`${v}`));

/**
 * Milliseconds since the epoch of a DateTime column, in each dialect. SQLite's julianday is a
 * double a few microseconds off the stored instant: rounded, a time filter's bound is exact.
 */
function epochMs(provider: Provider, column: Prisma.Sql): Prisma.Sql {
  return provider === 'sqlite'
    ? Prisma.sql`ROUND((julianday(${column}) - 2440587.5) * 86400000.0)`
    : Prisma.sql`(EXTRACT(EPOCH FROM ${column}) * 1000.0)`;
}

const num = (n: number) => Prisma.raw(`CAST(${n} AS DOUBLE PRECISION)`);
const greatest = (provider: Provider) => Prisma.raw(provider === 'sqlite' ? 'MAX' : 'GREATEST');
const least = (provider: Provider) => Prisma.raw(provider === 'sqlite' ? 'MIN' : 'LEAST');

/**
 * The inputs of an entry's decay (see DECAY in relevance.ts), as columns of the candidates: its
 * half-life (a policy of its scope and memory type, else its category's default, else its memory
 * type's) and its boost.
 */
function decayInputs(policies: ChainPolicy[]): { halfLife: Prisma.Sql; boost: Prisma.Sql } {
  const byType = Prisma.join(
    Object.entries(DECAY.halfLifeHours).map(([type, hours]) => Prisma.sql`WHEN ${type} THEN ${num(hours)}`),
    ' ',
  );
  const byCategory = Prisma.join(
    Object.entries(DECAY.categoryHalfLifeHours).map(([category, hours]) => Prisma.sql`WHEN ${category} THEN ${num(hours)}`),
    ' ',
  );
  const defaults = Prisma.sql`COALESCE(CASE e."category" ${byCategory} END, CASE e."memoryType" ${byType} END, ${num(DECAY.halfLifeHours.SEMANTIC)})`;
  const halfLife = policies.length
    ? Prisma.sql`CASE ${Prisma.join(
        policies.map((p) => Prisma.sql`WHEN e."scopeId" = ${p.scopeId} AND e."memoryType" = ${p.memoryType} THEN ${num(p.hours)}`),
        ' ',
      )} ELSE ${defaults} END`
    : defaults;
  const boost = Prisma.sql`(1.0 + ${num(DECAY.accessBoost)} * (CASE WHEN e."accessCount" > ${Prisma.raw(String(DECAY.accessCap))} THEN ${num(DECAY.accessCap)} ELSE e."accessCount" END)
    + ${num(DECAY.importanceBoost)} * e."importance")`;
  return { halfLife, boost };
}

/** Decay from the candidate columns age (days), hl (hours) and boost. */
function decayOf(provider: Provider): Prisma.Sql {
  // PostgreSQL's EXP raises an error where the result underflows: e^-50 (times the largest boost)
  // is far below the floor anyway.
  const exponent = Prisma.sql`${num(-Math.LN2 * 24)} * age / hl`;
  const left = Prisma.sql`EXP(${provider === 'sqlite' ? exponent : Prisma.sql`GREATEST(-50.0, ${exponent})`}) * boost`;
  return Prisma.sql`${greatest(provider)}(${num(DECAY.floor)}, ${least(provider)}(1.0, ${left}))`;
}

/**
 * The relevance-ranked, scope-inherited search behind `memoryQuery`: filtering, overriding,
 * scoring and paging all run in one SQL statement, so cost follows the matching rows, not the
 * size of the memory.
 */
/** What a caller leaves out: everything in the chain, every kind, no filters, a default page. */
export const MEMORY_QUERY_DEFAULTS: Omit<MemoryQueryInput, 'scopeId'> = {
  inherit: true,
  kinds: ENTRY_KINDS,
  tags: { include: [], require: [], exclude: [] },
  search: null,
  searchFilters: true,
  relatedTo: null,
  relationType: null,
  includeInactive: false,
  includeExpired: false,
  memoryTypes: null,
  includeOverridden: false,
  createdAfter: null,
  createdBefore: null,
  updatedAfter: null,
  updatedBefore: null,
  first: LIMITS.page.default,
  after: null,
  tokenBudget: null,
  compact: false,
};

interface PageRow {
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
  /** 1 when the statement's candidates were all there are (see `pruned`). */
  complete: number | bigint;
  /** 0 when a text search matched nothing in the chain at all. */
  anymatch: number | bigint;
}

export async function memoryQuery(
  db: Db,
  provider: Provider,
  options: Pick<MemoryQueryInput, 'scopeId'> & Partial<MemoryQueryInput>,
): Promise<MemoryQueryResult> {
  // Options given as `undefined` keep their default.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const input = { ...MEMORY_QUERY_DEFAULTS, ...given } as MemoryQueryInput;
  const c = new Checker();
  const include = checkTagNames(c, input.tags.include, ['input', 'tags', 'include']);
  const require = checkTagNames(c, input.tags.require, ['input', 'tags', 'require']);
  const exclude = checkTagNames(c, input.tags.exclude, ['input', 'tags', 'exclude']);
  c.text(input.search, ['input', 'search'], LIMITS.description);
  c.range(input.first, ['first'], 0, LIMITS.page.max, true);
  c.range(input.tokenBudget, ['input', 'tokenBudget'], 1, 10_000_000, true);
  if (input.kinds.length === 0) c.fail(['input', 'kinds'], 'must name at least one kind');
  c.done();
  const cursor = input.after ? decodeCursor(input.after) : null;
  const asOf = cursor?.a ?? Date.now();
  // Only the scopes the caller reads are searched: access is filtered inside the SQL, before paging.
  // The scopes searched: the scope and, when inheriting, its ancestors, of those the caller reads.
  // Lifetimes follow the whole chain (a project's TTL covers its sessions however they are searched).
  const policies = await chainWithPolicies(db, input.scopeId);
  if (!policies) throw new NotFoundError('No scope has this id', ['input', 'scope']);
  const fullChain = policies.chain;
  const chain = await (input.readable ?? ((ids: string[]) => Promise.resolve(ids)))(input.inherit ? fullChain : fullChain.slice(0, 1));
  const terms = input.search ? searchTerms(input.search) : [];
  if (input.search !== null && terms.length === 0) {
    throw new ValidationError([{ path: ['input', 'search'], message: 'must contain a word' }]);
  }

  const chainRows = Prisma.join(
    chain.map((id, depth) => Prisma.sql`(CAST(${id} AS TEXT), CAST(${depth} AS INTEGER))`),
    ', ',
  );
  // PostgreSQL needs the VALUES list named inline; both dialects accept this form.
  const chainCte = Prisma.sql`chain(scope_id, depth) AS (VALUES ${chainRows})`;

  const searchFilters = terms.length > 0 && input.searchFilters !== false;
  // When the text filters, each match is checked against copies of its entry's scope, kind, active
  // flag and tag ids kept on its "EntrySearch" row (which the match visits anyway): only the few
  // matches that pass go on to "Entry". A tag named here is looked up once per query.
  const hasTag = (name: string) =>
    Prisma.sql`COALESCE(${Prisma.raw(provider === 'sqlite' ? 'instr' : 'strpos')}(s."tagIds", (SELECT ' ' || t."id" || ' ' FROM "Tag" t WHERE t."name" = ${name})), 0) > 0`;
  const matchFilters: Prisma.Sql[] = [Prisma.sql`s."scopeId" IN (SELECT scope_id FROM chain)`];
  if (searchFilters) {
    if (input.kinds.length < ENTRY_KINDS.length) matchFilters.push(Prisma.sql`s."kind" IN (${list(input.kinds)})`);
    if (!input.includeInactive) matchFilters.push(Prisma.sql`s."active" = ${true}`);
    if (include.length) matchFilters.push(Prisma.sql`(${Prisma.join(include.map(hasTag), ' OR ')})`);
    for (const tag of require) matchFilters.push(hasTag(tag));
    if (exclude.length) matchFilters.push(Prisma.sql`NOT (${Prisma.join(exclude.map(hasTag), ' OR ')})`);
  }
  const matches =
    terms.length === 0
      ? null
      : provider === 'sqlite'
        ? Prisma.sql`matches("entryId", rank, "scopeId", kind) AS (
            SELECT s."entryId", -bm25("EntrySearchFts", 2.0, 1.0), s."scopeId", s."kind"
            FROM "EntrySearchFts" JOIN "EntrySearch" s ON s."rowid" = "EntrySearchFts"."rowid"
            WHERE "EntrySearchFts" MATCH ${terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' OR ')} AND ${join(matchFilters)})`
        : // PostgreSQL ranks without document frequencies; weigh each term by its BM25 idf so that a
          // rare word counts for more than a common one, as SQLite's bm25() does. A term's document
          // frequency is the number of its matches (in the whole memory), counted as they are found.
          Prisma.sql`term_hits("entryId", term, r, kept, "scopeId", kind) AS (
            SELECT s."entryId", v.t, ts_rank(s."document", to_tsquery('simple', v.t), 1), ${join(matchFilters)}, s."scopeId", s."kind"
            FROM (VALUES ${Prisma.join(terms.map((t) => Prisma.sql`(CAST(${`${t}:*`} AS TEXT))`), ', ')}) v(t)
            JOIN "EntrySearch" s ON s."document" @@ to_tsquery('simple', v.t)
          ),
          matches("entryId", rank, "scopeId", kind) AS (
            SELECT h."entryId", SUM(ln(1.0 + (n.total - h.df + 0.5) / (h.df + 0.5)) * h.r), h."scopeId", h."kind"
            FROM (SELECT th.*, COUNT(*) OVER (PARTITION BY th.term) AS df FROM term_hits th) h,
              (SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples ELSE (SELECT COUNT(*) FROM "EntrySearch") END AS total
               FROM pg_class c WHERE c.relname = 'EntrySearch' AND c.relkind = 'r') n
            WHERE h.kept
            GROUP BY h."entryId", h."scopeId", h."kind")`;

  const tagIn = (names: readonly string[]) =>
    Prisma.sql`SELECT 1 FROM "EntryTag" et JOIN "Tag" t ON t."id" = et."tagId" WHERE et."entryId" = e."id" AND t."name" IN (${list(names)})`;

  // SQLite's planner keeps the FROM order of a CROSS JOIN (PostgreSQL plans it freely): start from
  // the text matches when they filter, otherwise from the few scopes of the chain.
  const cross = Prisma.raw('CROSS JOIN');
  const where: Prisma.Sql[] = [Prisma.sql`e."scopeId" = c.scope_id`, Prisma.sql`e."kind" IN (${list(input.kinds)})`];
  if (!input.includeInactive) where.push(Prisma.sql`e."active" = ${true}`);
  // Expired as of the query's instant (a cursor keeps the first page's): the entry's own copy of its
  // current version's validUntil, so no version is read. Pruning stays sound: its samples may hold
  // expired entries, which only lowers the bound it derives.
  if (input.memoryTypes?.length) where.push(Prisma.sql`e."memoryType" IN (${list(input.memoryTypes)})`);
  if (!input.includeExpired) {
    where.push(Prisma.sql`(e."validUntil" IS NULL OR ${epochMs(provider, Prisma.sql`e."validUntil"`)} > CAST(${asOf} AS DOUBLE PRECISION))`);
    // A memory type's TTL where a policy of the scope's chain sets one: expired that long after its last change.
    for (const ttl of policies.ttls.filter((t) => chain.includes(t.scopeId))) {
      where.push(Prisma.sql`NOT (e."scopeId" = ${ttl.scopeId} AND e."memoryType" = ${ttl.memoryType}
        AND ${epochMs(provider, Prisma.sql`e."updatedAt"`)} <= CAST(${asOf - ttl.hours * 3_600_000} AS DOUBLE PRECISION))`);
    }
  }
  // Without a text filter but with `include` tags, the tagged entries are fewer than the chain's:
  // the query starts from them, which also applies the `include` condition.
  const tagDriven = !searchFilters && include.length > 0;
  // SQLite evaluates the terms in this order: the cheap, selective tag lookups come before the
  // override check (up to three index lookups a candidate).
  // (The text matches were checked against the tags already.)
  if (!searchFilters) {
    if (include.length && !tagDriven) where.push(Prisma.sql`EXISTS (${tagIn(include)})`);
    for (const tag of require) where.push(Prisma.sql`EXISTS (${tagIn([tag])})`);
    if (exclude.length) where.push(Prisma.sql`NOT EXISTS (${tagIn(exclude)})`);
  }
  /**
   * Entries a nearer scope overrides (same kind and name) are left out: a lookup in the (scopeId,
   * kind, name) index per nearer scope. `fence` (PostgreSQL, for a few thousand candidates at
   * most) keeps it a probe per candidate with OFFSET 0: as an anti-join the planner hashed every
   * entry of the chain (76K at 100K entries) for them. Over the whole chain, that hash is the
   * better plan.
   */
  const overridden = (fence: boolean): Prisma.Sql[] =>
    input.includeOverridden || chain.length < 2
      ? []
      : [
          Prisma.sql`NOT EXISTS (
            SELECT 1 FROM chain oc ${cross} "Entry" o
            WHERE oc.depth < c.depth AND o."scopeId" = oc.scope_id AND o."kind" = e."kind" AND o."name" = e."name" AND o."active" = ${true}${
              fence && provider === 'postgresql' ? Prisma.raw(' OFFSET 0') : Prisma.empty
            })`,
        ];
  const time = (column: string, op: '>=' | '<', value: Date | null) => {
    if (value) {
      where.push(Prisma.sql`${epochMs(provider, Prisma.raw(`e."${column}"`))} ${Prisma.raw(op)} CAST(${value.getTime()} AS DOUBLE PRECISION)`);
    }
  };
  time('createdAt', '>=', input.createdAfter);
  time('createdAt', '<', input.createdBefore);
  time('updatedAt', '>=', input.updatedAfter);
  time('updatedAt', '<', input.updatedBefore);

  const typeFilter = input.relationType ? Prisma.sql` AND r."type" = ${input.relationType}` : Prisma.empty;
  let related: Prisma.Sql;
  if (input.relatedTo && 'entryId' in input.relatedTo) {
    const target = input.relatedTo.entryId;
    related = Prisma.sql`EXISTS (SELECT 1 FROM "Relation" r WHERE ((r."sourceId" = e."id" AND r."targetEntryId" = ${target})
      OR (r."sourceId" = ${target} AND r."targetEntryId" = e."id"))${typeFilter})`;
    where.push(related);
  } else if (input.relatedTo) {
    related = Prisma.sql`EXISTS (SELECT 1 FROM "Relation" r WHERE r."sourceId" = e."id" AND r."targetScopeId" = ${input.relatedTo.scopeId}${typeFilter})`;
    where.push(related);
  } else {
    related = Prisma.sql`EXISTS (SELECT 1 FROM "Relation" r WHERE r."sourceId" = e."id" AND r."targetScopeId" IN (SELECT scope_id FROM chain)${typeFilter})`;
  }

  // Every candidate carries at least one `include` tag: with one, the share is 1.
  const tagShare = include.length === 1
    ? Prisma.sql`1.0`
    : include.length
    ? Prisma.sql`CAST((SELECT COUNT(*) FROM "EntryTag" et JOIN "Tag" t ON t."id" = et."tagId"
        WHERE et."entryId" = e."id" AND t."name" IN (${list(include)})) AS DOUBLE PRECISION) / CAST(${include.length} AS DOUBLE PRECISION)`
    : Prisma.sql`0.0`;
  // Days since the last change (SQLite: Julian days, a single function call per row).
  const ageDays =
    provider === 'sqlite'
      ? Prisma.sql`(${num(asOf / 86_400_000 + 2_440_587.5)} - julianday(e."updatedAt"))`
      : Prisma.sql`((CAST(${asOf} AS DOUBLE PRECISION) - ${epochMs(provider, Prisma.sql`e."updatedAt"`)}) / 86400000.0)`;
  const halfLives = policies.halfLives.filter((h) => chain.includes(h.scopeId));
  const decay = decayInputs(halfLives);
  /** The longest half-life an entry of this query can have: what bounds the decay of those not ranked. */
  const maxHalfLife = Math.max(...Object.values(DECAY.halfLifeHours), ...Object.values(DECAY.categoryHalfLifeHours), ...halfLives.map((h) => h.hours));
  const textRank = matches ? Prisma.sql`COALESCE(m.rank, 0.0)` : Prisma.sql`0.0`;
  if (searchFilters) where.push(Prisma.sql`e."id" = m."entryId"`);
  if (tagDriven) where.push(Prisma.sql`e."id" = tagged."entryId"`);
  const from = searchFilters
    ? Prisma.sql`matches m ${cross} "Entry" e ${cross} chain c`
    : tagDriven
      ? // Read from the (tagId, entryId) index alone; one tag lists an entry once.
        Prisma.sql`(SELECT ${Prisma.raw(include.length > 1 ? 'DISTINCT ' : '')}et."entryId" FROM "Tag" t ${cross} "EntryTag" et WHERE t."name" IN (${list(include)}) AND et."tagId" = t."id") tagged
          ${cross} "Entry" e ${cross} chain c ${matches ? Prisma.sql`LEFT JOIN matches m ON m."entryId" = e."id"` : Prisma.empty}`
      : Prisma.sql`chain c ${cross} "Entry" e ${matches ? Prisma.sql`LEFT JOIN matches m ON m."entryId" = e."id"` : Prisma.empty}`;
  /** The chain-driven FROM, limited to the ids of CTE "picked". */
  // (PostgreSQL would hash-join the whole "Entry" table to a few thousand ids: one lookup each.)
  const pickedEntry =
    provider === 'postgresql' ? Prisma.sql`LATERAL (SELECT * FROM "Entry" x WHERE x."id" = p.id OFFSET 0) e` : Prisma.sql`"Entry" e`;
  const pickedFrom = Prisma.sql`picked p ${cross} ${pickedEntry} ${cross} chain c`;

  const cursorFilter = cursor
    ? Prisma.sql`WHERE score < CAST(${cursor.s} AS DOUBLE PRECISION) OR (score = CAST(${cursor.s} AS DOUBLE PRECISION) AND id > ${cursor.i})`
    : Prisma.empty;

  /** The ranked page over FROM `source` (with the extra CTEs `ctes`, e.g. "picked"). */
  const rankedPage = (
    source: Prisma.Sql,
    extraWhere: Prisma.Sql[],
    ctes: Prisma.Sql = Prisma.empty,
    rank: Prisma.Sql = textRank,
    complete: Prisma.Sql = Prisma.sql`1`,
    anyMatch: Prisma.Sql = Prisma.sql`1`,
  ) => Prisma.sql`
    WITH ${chainCte}${matches ? Prisma.sql`, ${matches}` : Prisma.empty}${ctes},
    cand AS (
      SELECT e."id" AS id,
        CASE WHEN ${related} THEN 1.0 ELSE 0.0 END AS rel,
        ${tagShare} AS tag,
        CAST(${chain.length} - c.depth AS DOUBLE PRECISION) / CAST(${chain.length} AS DOUBLE PRECISION) AS prox,
        CAST(${rank} AS DOUBLE PRECISION) AS raw_text,
        CASE WHEN e."kind" = 'GUIDELINE' THEN CAST(COALESCE(e."priority", 50) AS DOUBLE PRECISION) / 100.0 ELSE 0.0 END AS prio,
        ${greatest(provider)}(0.0, ${ageDays}) AS age,
        ${decay.halfLife} AS hl,
        ${decay.boost} AS boost
      FROM ${source}
      WHERE ${join([...where, ...extraWhere])}
    ),
    scored AS (
      SELECT id, rel, tag, prox, prio,
        1.0 / (1.0 + age / ${num(RECENCY_HALF_DAYS)}) AS rec,
        ${decayOf(provider)} AS dec,
        ${
          // Without a text search every text score is 0: no window over them.
          matches
            ? Prisma.sql`CASE WHEN MAX(raw_text) OVER () > 0 THEN raw_text / MAX(raw_text) OVER () ELSE 0.0 END AS txt,
        MAX(raw_text) OVER () AS maxraw,`
            : Prisma.sql`0.0 AS txt, CAST(NULL AS DOUBLE PRECISION) AS maxraw,`
        }
        COUNT(*) OVER () AS total
      FROM cand
    ),
    ranked AS (
      SELECT id, rel, tag, prox, txt, prio, rec, dec, total, maxraw,
        ${Prisma.raw(`${W.relation} * rel + ${W.tags} * tag + ${W.scope} * prox + ${W.text} * txt + ${W.priority} * prio + ${W.recency} * rec + ${W.decay} * dec`)} AS score
      FROM scored
    )
    SELECT page.id, page.score, page.rel, page.tag, page.prox, page.txt, page.prio, page.rec, page.dec, page.maxraw, totals.total, ${complete} AS complete, ${anyMatch} AS anymatch,
      LENGTH(e."name") AS name_len, COALESCE(LENGTH(s."body"), 0) AS body_len
    FROM (SELECT COUNT(*) AS total FROM scored) totals
    LEFT JOIN (SELECT * FROM ranked ${cursorFilter} ORDER BY score DESC, id ASC LIMIT ${input.first + 1}) page ON 1 = 1
    LEFT JOIN "Entry" e ON e."id" = page.id
    LEFT JOIN "EntrySearch" s ON s."entryId" = page.id
    ORDER BY page.score DESC, page.id ASC`;

  const run = (sql: Prisma.Sql) => db.$queryRaw<PageRow[]>(sql);
  const L = input.first + 1;
  let rows: PageRow[] | null = null;
  let totalCount: (() => Promise<number>) | undefined;
  if (!searchFilters && !tagDriven && !input.relatedTo && !cursor) {
    // Everything in reach is a candidate (up to the whole chain): rank only those that can make
    // the page, and count the rest only if asked.
    const sampled = await pruned();
    rows = sampled?.rows ?? null;
    if (sampled && !sampled.complete) {
      const count = Prisma.sql`WITH ${chainCte}${matches ? Prisma.sql`, ${matches}` : Prisma.empty}
        SELECT COUNT(*) AS total FROM ${from} WHERE ${join([...where, ...overridden(false)])}`;
      let pending: Promise<number> | undefined;
      totalCount = () => (pending ??= db.$queryRaw<Array<{ total: number | bigint }>>(count).then((r) => Number(r[0]?.total ?? 0)));
    }
  }
  // The full ranking, or a complete sample: the statement counted every candidate.
  rows ??= await run(rankedPage(from, overridden(searchFilters || tagDriven)));
  const counted = Number(rows[0]?.total ?? 0);
  totalCount ??= () => Promise.resolve(counted);

  /**
   * The page of a chain-driven query without ranking the whole chain. An entry's score is at most
   * W.scope * proximity + W.priority * priority/100 (guidelines) + W.recency * recency + W.decay * decay, plus its
   * relation and text scores: a first query ranks a sample (per scope the most recently changed
   * entries and the highest-priority guidelines, the entries related to the chain, the best text
   * matches), and the sample's last score on the page, tau, is at most the real page's last score.
   * So the page lies among the sample and the entries whose bound reaches tau: per scope the
   * guidelines of priority >= p(tau) and the rest changed since t(tau) (ranges of an index), and
   * the text matches whose rank is high enough. `complete` when the sample is every candidate
   * there is (a small memory). Null when the page cannot be settled this way (fewer sampled
   * candidates than a page, or no usable text match among them): the full ranking runs instead.
   */
  async function pruned(): Promise<{ rows: PageRow[]; complete: boolean } | null> {
    const sampleSize = 2 * L;
    const kinds = new Set(input.kinds);
    const others = input.kinds.filter((k) => k !== 'GUIDELINE');
    const alive = input.includeInactive ? Prisma.empty : Prisma.sql` AND e."active" = ${true}`;
    const sample: Prisma.Sql[] = [];
    chain.forEach((scopeId, i) => {
      sample.push(Prisma.sql`SELECT id FROM (SELECT e."id" AS id FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" IN (${list(input.kinds)})${alive}
        ORDER BY e."updatedAt" DESC LIMIT ${sampleSize}) r${Prisma.raw(String(i))}`);
      if (kinds.has('GUIDELINE')) {
        sample.push(Prisma.sql`SELECT id FROM (SELECT e."id" AS id FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" = 'GUIDELINE'${alive}
          ORDER BY e."priority" DESC LIMIT ${sampleSize}) g${Prisma.raw(String(i))}`);
      }
    });
    sample.push(Prisma.sql`SELECT r."sourceId" AS id FROM "Relation" r WHERE r."targetScopeId" IN (SELECT scope_id FROM chain)`);
    // The best text matches: the best one that passes the filters is then among them (unless none
    // is), so the text scores are relative to the same best rank as in the full ranking.
    if (matches) sample.push(Prisma.sql`SELECT id FROM (SELECT m."entryId" AS id FROM matches m ORDER BY m.rank DESC LIMIT ${sampleSize}) tm`);
    const sampled = Prisma.sql`sampled(id) AS (${Prisma.join(sample, ' UNION ')})`;
    // The ids with their text rank: one grouping of ids and matches together. (A join of the two
    // made PostgreSQL, misjudging the sizes, scan all matches once per id.)
    const picked = (ids: Prisma.Sql) =>
      matches
        ? Prisma.sql`, ${sampled}, picked(id, rank) AS (
            SELECT id, MAX(rank) FROM (
              SELECT u.id AS id, CAST(NULL AS DOUBLE PRECISION) AS rank, 1 AS wanted FROM (${ids}) u
              UNION ALL SELECT m."entryId", m.rank, 0 FROM matches m) x
            GROUP BY id HAVING MAX(wanted) = 1)`
        : Prisma.sql`, ${sampled}, picked(id) AS (${ids})`;
    const pickedRank = matches ? Prisma.sql`COALESCE(p.rank, 0.0)` : Prisma.sql`0.0`;
    // The sample holds every candidate when no list of it was cut short (a small memory): its
    // ranking is then the answer, with its count.
    const cut = (rows: Prisma.Sql) => Prisma.sql`(SELECT COUNT(*) FROM (${rows} LIMIT ${sampleSize + 1}) z) > ${sampleSize}`;
    const cuts = chain.map(
      (scopeId) => cut(Prisma.sql`SELECT 1 FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" IN (${list(input.kinds)})${alive}`),
    );
    if (matches) cuts.push(cut(Prisma.sql`SELECT 1 FROM matches`));
    const complete = Prisma.sql`(CASE WHEN ${Prisma.join(cuts, ' OR ')} THEN 0 ELSE 1 END)`;
    const anyMatch = matches ? Prisma.sql`(SELECT COUNT(*) FROM (SELECT 1 FROM matches LIMIT 1) am)` : Prisma.sql`1`;
    const first = await run(
      rankedPage(pickedFrom, [Prisma.sql`e."id" = p.id`, ...overridden(true)], picked(Prisma.sql`SELECT id FROM sampled`), pickedRank, complete, anyMatch),
    );
    if (Number(first[0]?.complete ?? 0) === 1) return { rows: first, complete: true };
    const last = first[L - 1];
    if (!last?.id) return null;
    const best = Number(first[0]?.maxraw ?? 0);
    // Words that match nothing in the chain score nothing: the page is settled as without them.
    // (A match that is not in the sample but passes the filters could set the best rank: then
    // the full ranking runs.)
    const textMatches = matches !== null && Number(first[0]?.anymatch ?? 1) > 0;
    if (textMatches && !(best > 0)) return null;
    const tau = Number(last.score) - 1e-9;
    const ranges: Prisma.Sql[] = [Prisma.sql`SELECT id FROM sampled`];
    if (textMatches) {
      // A text match scores at most its text score + its scope + priority (guidelines) + recency + decay.
      ranges.push(Prisma.sql`SELECT m."entryId" AS id FROM matches m ${cross} chain c WHERE c.scope_id = m."scopeId"
        AND ${Prisma.raw(String(W.text))} * m.rank / CAST(${best} AS DOUBLE PRECISION)
          + CAST(${W.scope} AS DOUBLE PRECISION) * CAST(${chain.length} - c.depth AS DOUBLE PRECISION) / CAST(${chain.length} AS DOUBLE PRECISION)
          + CASE WHEN m.kind = 'GUIDELINE' THEN ${Prisma.raw(String(W.priority))} ELSE 0.0 END + ${Prisma.raw(String(W.recency + W.decay))}
          >= CAST(${tau} AS DOUBLE PRECISION)`);
    }
    chain.forEach((scopeId, depth) => {
      const scope = (W.scope * (chain.length - depth)) / chain.length;
      // Recency and the most decay an entry can keep both fall with the time since its change: the
      // oldest change at which an entry still reaches tau, with a second of slack (null: any age).
      const ageBound = (days: number) => W.recency / (1 + days / RECENCY_HALF_DAYS) + W.decay * decayBound(days, maxHalfLife);
      const changedSince = (need: number): Date | null | 'never' => {
        const oldest = maxAgeReaching(ageBound, need);
        return oldest === -1 ? 'never' : oldest === null ? null : new Date(asOf - oldest * 86_400_000 - 1_000);
      };
      if (kinds.has('GUIDELINE')) {
        const minPriority = ((tau - scope - W.recency - W.decay) * 100) / W.priority;
        if (minPriority <= LIMITS.priority.max) {
          // The priority range of the index, then per band of ten priority points (a null priority
          // scores as 50) the age that the band's highest priority still needs.
          const bands: Prisma.Sql[] = [];
          for (let lo = 0; lo <= 90; lo += 10) {
            const hi = lo === 90 ? LIMITS.priority.max + 1 : lo + 10;
            const since = changedSince(tau - scope - (W.priority * Math.min(hi, LIMITS.priority.max)) / 100);
            if (since === 'never') continue;
            bands.push(Prisma.sql`(COALESCE(e."priority", 50) >= ${lo} AND COALESCE(e."priority", 50) < ${hi}${since ? Prisma.sql` AND e."updatedAt" >= ${since}` : Prisma.empty})`);
          }
          if (bands.length) {
            ranges.push(Prisma.sql`SELECT e."id" AS id FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" = 'GUIDELINE'
              AND (e."priority" >= CAST(${minPriority} AS DOUBLE PRECISION) OR e."priority" IS NULL) AND (${Prisma.join(bands, ' OR ')})`);
          }
        }
      }
      if (others.length) {
        const since = changedSince(tau - scope);
        if (since !== 'never') {
          ranges.push(Prisma.sql`SELECT e."id" AS id FROM "Entry" e WHERE e."scopeId" = ${scopeId} AND e."kind" IN (${list(others)})${
            since ? Prisma.sql` AND e."updatedAt" >= ${since}` : Prisma.empty
          }`);
        }
      }
    });
    return { rows: await run(rankedPage(pickedFrom, [Prisma.sql`e."id" = p.id`, ...overridden(true)], picked(Prisma.join(ranges, ' UNION ')), pickedRank)), complete: false };
  }

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
    });
  }
  return {
    hits,
    scopeChain: chain,
    totalCount,
    hasMore: truncated || page.length > hits.length,
    truncated,
    estimatedTokens: tokens,
  };
}
