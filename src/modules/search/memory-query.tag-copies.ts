// Where a query that includes tags reads a scope's candidates from: the copies of each tagged
// entry's scope, kind, active flag, name, expiry, last change and priority kept on its "EntryTag"
// rows (triggers keep them in step; see EntryTag in prisma/models.prisma). Their indexes serve a
// scope's tagged entries most recent or highest-priority first (pruning's sample and ranges), and
// count them with their override check, without reading a tagged entry's own row. The copies are
// named as the entry's columns, so the statements that read "Entry" e read "EntryTag" e alike.
import { Prisma } from '../../generated/sqlite/client.ts';
import { drivingTags, known, list } from './memory-query.candidates.ts';
import type { Plan } from './memory-query.plan.ts';

type Sql = Prisma.Sql;

/** Which index a scope's rows are read by: most recently changed first, or guidelines by priority. */
export type ReadBy = 'recent' | 'priority';

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

function linksOf(plan: Plan, driving: { tags: string[]; required: string[] }): ScopeRows {
  return {
    rows: (scopeId, by) => Prisma.sql`${plan.d.tagLinks(by)} WHERE e."tagId" IN (${list(driving.tags)}) AND e."scopeId" = ${scopeId}`,
    id: Prisma.sql`e."entryId"`,
    filters: Prisma.join(copyFilters(plan, driving.required), ' AND '),
  };
}

/** The filters a tagged entry's copies answer: kind, active, expiry (its own), the other required tags, excluded tags. */
function copyFilters(plan: Plan, required: string[]): Sql[] {
  const { input, d, asOf } = plan;
  const where: Sql[] = [Prisma.sql`e."kind" IN (${list(input.kinds)})`];
  if (!input.includeInactive) where.push(Prisma.sql`e."active" = ${true}`);
  if (!input.includeExpired) {
    where.push(Prisma.sql`(e."validUntil" IS NULL OR ${d.epochMs(Prisma.sql`e."validUntil"`)} > CAST(${asOf} AS DOUBLE PRECISION))`);
  }
  // Probes of the links' primary key (entryId, tagId): the index alone.
  for (const id of required) where.push(Prisma.sql`EXISTS (SELECT 1 FROM "EntryTag" x WHERE x."entryId" = e."entryId" AND x."tagId" = ${id})`);
  const excluded = known(plan.tags.exclude);
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
  const { input, chain } = plan;
  const driving = input.exhaustive ? null : drivingTags(plan);
  if (!driving || plan.searchFilters || input.relatedTo || input.memoryTypes?.length || plan.ttls.length) return null;
  if (input.createdAfter || input.createdBefore || input.updatedAfter || input.updatedBefore) return null;
  const rows = linksOf(plan, driving);
  const included = driving.tags;
  // Per scope of the chain, its links that count, less those a nearer scope's entry of the same kind
  // and name overrides: the nearer scopes are a list per scope, probed through the (scopeId, kind,
  // name) index, rather than the chain scanned again for each link; only for links whose name
  // another entry shares (nameShared: one tag at 100K on PostgreSQL, 54 -> 6 ms). One tag links an
  // entry once; several may link it more than once (an entry has one scope, so distinct per scope
  // is enough).
  const counted = Prisma.raw(included.length > 1 ? 'COUNT(DISTINCT e."entryId")' : 'COUNT(*)');
  const perScope = chain.map((scopeId, depth) => {
    const nearer = chain.slice(0, depth);
    const overridden =
      input.includeOverridden || nearer.length === 0
        ? Prisma.empty
        : Prisma.sql` AND (e."nameShared" = ${false} OR NOT EXISTS (SELECT 1 FROM "Entry" o WHERE o."scopeId" IN (${list(nearer)}) AND o."kind" = e."kind" AND o."name" = e."name" AND o."active" = ${true}${plan.d.probeFence}))`;
    return Prisma.sql`(SELECT ${counted} FROM ${plan.d.tagLinks('count')} WHERE e."tagId" IN (${list(included)}) AND e."scopeId" = ${scopeId} AND ${rows.filters}${overridden})`;
  });
  return Prisma.sql`SELECT ${Prisma.join(perScope, ' + ')} AS total`;
}
