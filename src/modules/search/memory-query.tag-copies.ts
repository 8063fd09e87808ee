// Where a query that includes tags reads a scope's candidates from: the copies of each tagged
// entry's scope, kind, active flag, name, expiry, last change and priority kept on its "EntryTag"
// rows (triggers keep them in step; see EntryTag in prisma/models.prisma). Their indexes serve a
// scope's tagged entries most recent or highest-priority first (pruning's sample and ranges), and
// count them with their override check, without reading a tagged entry's own row. The copies are
// named as the entry's columns, so the statements that read "Entry" e read "EntryTag" e alike.
import { Prisma } from '../../generated/sqlite/client.ts';
import { cross, drivingTags, known } from './memory-query.candidates.ts';
import { list, tagEntryIds } from './memory-query.dialect.ts';
import type { Plan } from './memory-query.plan.ts';

type Sql = Prisma.Sql;

/** Which index a scope's rows are read by: most recently changed first, guidelines by priority, or to count them. */
export type ReadBy = 'recent' | 'priority' | 'count';

/** A scope's rows a sample list or range reads, as `FROM <rows(scope, by)> AND ...`, with their entry id. */
export interface ScopeRows {
  rows(scopeId: string, by: ReadBy): Sql;
  id: Sql;
  /** The filters the rows can check themselves (the ranking checks every filter again). */
  filters: Sql;
}

/**
 * The tagged entries' copies, for a query whose candidates all carry one of its driving tags (its
 * known `include` tags, else its first required one); null otherwise. Every candidate is then
 * among these rows, so reading a scope's ranges from them alone is exact.
 */
export function taggedRows(plan: Plan): ScopeRows | null {
  const driving = plan.input.exhaustive ? null : drivingTags(plan);
  return driving && linksOf(plan, driving);
}

function linksOf(plan: Plan, driving: { tags: string[]; required: string[] }, excluded = known(plan.tags.exclude)): ScopeRows {
  return {
    rows: (scopeId, by) => Prisma.sql`${plan.d.tagLinks(by)} WHERE e."tagId" IN (${list(driving.tags)}) AND e."scopeId" = ${scopeId}`,
    id: Prisma.sql`e."entryId"`,
    filters: Prisma.join([...ownFilters(plan), ...tagProbes(driving.required, excluded)], ' AND '),
  };
}

/** The filters on a tagged entry's own copies: kind, active, expiry. */
function ownFilters(plan: Plan): Sql[] {
  const { input, d, asOf } = plan;
  const where: Sql[] = [Prisma.sql`e."kind" IN (${list(input.kinds)})`];
  if (!input.includeInactive) where.push(Prisma.sql`e."active" = ${true}`);
  if (!input.includeExpired) {
    where.push(Prisma.sql`(e."validUntil" IS NULL OR ${d.epochMs(Prisma.sql`e."validUntil"`)} > CAST(${asOf} AS DOUBLE PRECISION))`);
  }
  return where;
}

/** The other required tags and the excluded ones, as probes of the links' primary key (entryId, tagId): the index alone. */
function tagProbes(required: string[], excluded: string[]): Sql[] {
  const where = required.map((id) => Prisma.sql`EXISTS (SELECT 1 FROM "EntryTag" x WHERE x."entryId" = e."entryId" AND x."tagId" = ${id})`);
  if (excluded.length) {
    where.push(Prisma.sql`NOT EXISTS (SELECT 1 FROM "EntryTag" x WHERE x."entryId" = e."entryId" AND x."tagId" IN (${list(excluded)}))`);
  }
  return where;
}

/**
 * The total of a query whose candidates carry its driving tags, counted on the tagged entries'
 * copies (null when a filter needs the entry's own row: memory types, time ranges, a memory
 * type's TTL, `relatedTo`, a text filter). At 100K entries, one tag's ~8,600 links: ~6 ms on
 * SQLite against ~17 ms reading each entry.
 */
export function taggedCount(plan: Plan): Sql | null {
  const { input } = plan;
  const driving = input.exhaustive ? null : drivingTags(plan);
  if (!driving || plan.searchFilters || input.relatedTo || input.memoryTypes?.length || plan.ttls.length) return null;
  if (input.createdAfter || input.createdBefore || input.updatedAfter || input.updatedBefore) return null;
  const excluded = known(plan.tags.exclude);
  const scoped = plan.d.scopedTagCount;
  if (scoped && (driving.tags.length > 1 || driving.required.length || excluded.length)) {
    return Prisma.sql`SELECT ${scopedCount(plan, scoped, driving, excluded)} AS total`;
  }
  // One driving tag and excluded ones: the tag's links that count, less those that count and carry
  // an excluded tag. A probe of every link for the excluded tags cost ~0.8 µs a link (one tag
  // excluded from another's 6,553 links in the chain at 100K: 2.8-5.2 ms, against 0.4 ms for the
  // links alone and 1.3 ms for the ~440 that carry both, found by merging the two tags' sorted ids).
  const single = driving.tags.length === 1 && !driving.required.length ? driving.tags[0]! : null;
  if (single !== null && excluded.length) {
    return Prisma.sql`SELECT (${singleTagCount(plan, single)}) - (${excludedLinks(plan, single, excluded)}) AS total`;
  }
  if (single !== null) return Prisma.sql`SELECT ${singleTagCount(plan, single)} AS total`;
  return Prisma.sql`SELECT ${linkCount(plan, linksOf(plan, driving), driving.tags.length > 1)} AS total`;
}

/** The links of one tag that count, whatever else they carry: from the counters where the database keeps them. */
function singleTagCount(plan: Plan, tag: string): Sql {
  return plan.d.tagLinkCounters ? countedLinks(plan, tag) : linkCount(plan, linksOf(plan, { tags: [tag], required: [] }, []), false);
}

/**
 * Per scope of the chain, the links of `tag` that count, from the counters: the plain links (no
 * expiry, a name no other entry shares) all count, whatever the instant and the chain, so their
 * count is the counters' sum over the kinds asked; the others ("TagLinkOdd", few) are checked one
 * by one as linkCount checks them. One tag at 1M entries: ~73,000 links of the chain, counted
 * through their index in 10-16 ms.
 */
function countedLinks(plan: Plan, tag: string): Sql {
  const perScope = plan.chain.map(
    (scopeId) => Prisma.sql`(SELECT COALESCE(SUM(c."links"), 0) FROM "TagLinkCount" c WHERE ${oddKey(plan, 'c', [tag], scopeId)})`,
  );
  return Prisma.sql`${Prisma.join(perScope, ' + ')} + ${oddLinks(plan, { tags: [tag], required: [] }, [])}`;
}

/**
 * The entries with several tag conditions (tags required or excluded, or several `include` tags)
 * that count: the plain ones counted by the full-text index's scoped tag tokens, the odd ones
 * checked one by one. At 1M entries, require two tags and exclude one: ~6 ms, against ~190 ms
 * probing the first tag's ~73,000 links of the chain for the others.
 */
function scopedCount(plan: Plan, count: NonNullable<Plan['d']['scopedTagCount']>, driving: { tags: string[]; required: string[] }, excluded: string[]): Sql {
  const { chain, input } = plan;
  const plain = count({ ...driving, excluded, scopes: chain, kinds: input.kinds, includeInactive: input.includeInactive });
  return Prisma.sql`(${plain}) + ${oddLinks(plan, driving, excluded)}`;
}

/** The key columns of the counters and the odd list: one of the tags, the scope, the kinds asked, the active flag. */
function oddKey(plan: Plan, alias: string, tags: readonly string[], scopeId: string): Sql {
  const t = Prisma.raw(alias);
  const active = plan.input.includeInactive ? Prisma.empty : Prisma.sql` AND ${t}."active" = ${true}`;
  return Prisma.sql`${t}."tagId" IN (${list(tags)}) AND ${t}."scopeId" = ${scopeId} AND ${t}."kind" IN (${list(plan.input.kinds)})${active}`;
}

/**
 * Per scope of the chain, the entries of the odd list ("TagLinkOdd": an expiry, or a name another
 * entry shares) that carry a driving tag and pass every check: filters, the other tags, overrides.
 * An entry is odd on all its links alike, so with several driving tags it is counted once.
 */
function oddLinks(plan: Plan, driving: { tags: string[]; required: string[] }, excluded: string[]): Sql {
  const { chain } = plan;
  const filters = Prisma.join([...ownFilters(plan), ...tagProbes(driving.required, excluded)], ' AND ');
  const counted = Prisma.raw(driving.tags.length > 1 ? 'COUNT(DISTINCT x."entryId")' : 'COUNT(*)');
  const perScope = chain.map(
    (scopeId, depth) => Prisma.sql`(SELECT ${counted} FROM "TagLinkOdd" x ${cross} "EntryTag" e WHERE ${oddKey(plan, 'x', driving.tags, scopeId)}
        AND e."entryId" = x."entryId" AND e."tagId" = x."tagId" AND ${filters}${notOverriddenLink(plan, chain.slice(0, depth))})`,
  );
  return Prisma.join(perScope, ' + ');
}

/** The link e counts only if no entry of the same kind and name in a `nearer` scope overrides it. */
function notOverriddenLink(plan: Plan, nearer: readonly string[]): Sql {
  if (plan.input.includeOverridden || nearer.length === 0) return Prisma.empty;
  return Prisma.sql` AND (e."nameShared" = ${false} OR NOT EXISTS (SELECT 1 FROM "Entry" o WHERE o."scopeId" IN (${list(nearer)}) AND o."kind" = e."kind" AND o."name" = e."name" AND o."active" = ${true}${plan.d.probeFence}))`;
}

/**
 * Per scope of the chain, the links `rows` that count, less those a nearer scope's entry of the
 * same kind and name overrides: the nearer scopes are a list per scope, probed through the
 * (scopeId, kind, name) index, rather than the chain scanned again for each link; only for links
 * whose name another entry shares (nameShared: one tag at 100K on PostgreSQL, 54 -> 6 ms). One
 * tag links an entry once; several may link it more than once (an entry has one scope, so
 * distinct per scope is enough).
 */
function linkCount(plan: Plan, rows: ScopeRows, several: boolean): Sql {
  const { chain } = plan;
  const counted = Prisma.raw(several ? 'COUNT(DISTINCT e."entryId")' : 'COUNT(*)');
  const perScope = chain.map((scopeId, depth) => {
    const overridden = notOverriddenLink(plan, chain.slice(0, depth));
    return Prisma.sql`(SELECT ${counted} FROM ${rows.rows(scopeId, 'count')} AND ${rows.filters}${overridden})`;
  });
  return Prisma.join(perScope, ' + ');
}

/**
 * Of the links of tag `tag` that count, those whose entry carries an `excluded` tag: the ids
 * both tags list (their (tagId, entryId) ranges merged), each entry's link to `tag` then checked
 * as linkCount checks it. The scope's place in the chain decides which scopes are nearer.
 */
function excludedLinks(plan: Plan, tag: string, excluded: string[]): Sql {
  const { input, chain } = plan;
  const depth = (column: Sql) =>
    Prisma.sql`CASE ${column} ${Prisma.join(
      chain.map((scopeId, i) => Prisma.sql`WHEN ${scopeId} THEN CAST(${i} AS INTEGER)`),
      ' ',
    )} END`;
  const overridden =
    input.includeOverridden || chain.length < 2
      ? Prisma.empty
      : Prisma.sql` AND (e."nameShared" = ${false} OR NOT EXISTS (SELECT 1 FROM "Entry" o WHERE o."scopeId" IN (${list(chain)})
          AND ${depth(Prisma.sql`o."scopeId"`)} < ${depth(Prisma.sql`e."scopeId"`)} AND o."kind" = e."kind" AND o."name" = e."name" AND o."active" = ${true}${plan.d.probeFence}))`;
  return Prisma.sql`SELECT COUNT(*) FROM (${tagEntryIds([tag])} INTERSECT ${tagEntryIds(excluded)}) both_tags
    ${cross} "EntryTag" e
    WHERE e."entryId" = both_tags.id AND e."tagId" = ${tag} AND e."scopeId" IN (${list(chain)}) AND ${Prisma.join(ownFilters(plan), ' AND ')}${overridden}`;
}
