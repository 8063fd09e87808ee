// Stage 1 of a memoryQuery: the candidates. Which entries a query can return (its filters, the
// scope overrides), and where their statement starts reading: from the few rows that can pass
// (text matches, relations, tagged entries) rather than from every entry of the chain.
import { Prisma } from '../../generated/sqlite/client.ts';
import { ENTRY_KINDS } from '../entries/entries.service.ts';
import { list, type TagTerms } from './memory-query.dialect.ts';
import type { NamedTag, Plan } from './memory-query.plan.ts';

type Sql = Prisma.Sql;
export const join = (parts: Sql[], sep = ' AND ') => (parts.length ? Prisma.join(parts, sep) : Prisma.sql`1 = 1`);
/** SQLite's planner keeps the FROM order of a CROSS JOIN (PostgreSQL plans it freely). */
export const cross = Prisma.raw('CROSS JOIN');
const never = Prisma.sql`1 = 0`;

/** The ids of the named tags that exist. */
export const known = (tags: readonly NamedTag[]) => tags.flatMap((t) => (t.id ? [t.id] : []));

/**
 * The tags whose entries a query with tag conditions starts from: its known `include` tags, else
 * its first required tag, with the required tags left to check (`required`). Null when the tags do
 * not narrow the candidates (no known `include` or `require` tag), or leave none (tagsRuleOutAll:
 * memoryQuery answers those before any stage asks).
 */
export function drivingTags(plan: Plan): { tags: string[]; required: string[] } | null {
  if (tagsRuleOutAll(plan)) return null;
  const included = known(plan.tags.include);
  const required = known(plan.tags.require);
  if (included.length) return { tags: included, required };
  if (required.length) return { tags: required.slice(0, 1), required: required.slice(1) };
  return null;
}

/**
 * The tag conditions leave no candidate: a required tag that no entry carries or that is also
 * excluded, or `include` tags none of which exists or is allowed. The ranking finds none as well,
 * but pruning would first walk every link of the tag for one that passes (`require: [a],
 * exclude: [a]` at 100K entries: 25 ms for an empty page), and one in ten of the bench's random
 * require/exclude triples excludes a required tag.
 */
export function tagsRuleOutAll(plan: Plan): boolean {
  const { include, require, exclude } = plan.tags;
  const excluded = new Set(known(exclude));
  if (require.some((t) => !t.id || excluded.has(t.id))) return true;
  return include.length > 0 && include.every((t) => !t.id || excluded.has(t.id));
}

/** Entry e carries one of the tags `ids`: a probe of "EntryTag"'s primary key per id. */
const carries = (ids: readonly string[]) =>
  ids.length ? Prisma.sql`EXISTS (SELECT 1 FROM "EntryTag" et WHERE et."entryId" = e."id" AND et."tagId" IN (${list(ids)}))` : never;

/** The chain as a CTE: chain(scope_id, depth), nearest first. */
export function chainCte(plan: Plan): Sql {
  const rows = plan.chain.map((id, depth) => Prisma.sql`(CAST(${id} AS TEXT), CAST(${depth} AS INTEGER))`);
  // PostgreSQL needs the VALUES list named inline; both dialects accept this form.
  return Prisma.sql`chain(scope_id, depth) AS (VALUES ${Prisma.join(rows, ', ')})`;
}

/**
 * The text matches as CTEs (null without words). They carry the filters (but for the exhaustive
 * ranking): a text search then starts from the few matches that pass, and a `context` task's text
 * score, relative to the best match that passes, finds that match among pruning's sample of the
 * best matches (stronger matches of kinds or tags not asked for would otherwise fill it).
 */
export function matchesCte(plan: Plan): Sql | null {
  if (plan.terms.length === 0) return null;
  const filters: Sql[] = [Prisma.sql`s."scopeId" IN (SELECT scope_id FROM chain)`];
  let tagTerms: TagTerms | undefined;
  if (!plan.input.exhaustive) {
    // Each match is checked against copies of its entry's scope, kind, active flag and tag ids kept
    // on its "EntrySearch" row (which the match visits anyway): only the few matches that pass go
    // on to "Entry".
    const { input, d, tags } = plan;
    const hasTag = (id: string | null) => (id ? Prisma.sql`${d.position(Prisma.sql`s."tagIds"`, Prisma.sql`${` ${id} `}`)} > 0` : never);
    if (input.kinds.length < ENTRY_KINDS.length) filters.push(Prisma.sql`s."kind" IN (${list(input.kinds)})`);
    if (!input.includeInactive) filters.push(Prisma.sql`s."active" = ${true}`);
    if (tags.include.length) filters.push(Prisma.sql`(${Prisma.join(tags.include.map((t) => hasTag(t.id)), ' OR ')})`);
    for (const t of tags.require) filters.push(hasTag(t.id));
    const excluded = known(tags.exclude);
    if (excluded.length) filters.push(Prisma.sql`NOT (${Prisma.join(excluded.map(hasTag), ' OR ')})`);
    tagTerms = indexedTags(plan);
  }
  // A task's words (context) only raise scores: pruning, and the full ranking's join, read the
  // matches several times. A text filter starts from them, once.
  return plan.d.textMatches(plan.terms, join(filters), !plan.searchFilters, tagTerms);
}

/**
 * The tags for the full-text index to intersect with the words (an unknown tag's condition is
 * left to the filters: it leaves nothing, or nothing to exclude).
 */
export const indexedTags = (plan: Plan): TagTerms => ({ include: known(plan.tags.include), require: known(plan.tags.require), exclude: known(plan.tags.exclude) });

/** The text filter's conditions already hold for the matches themselves (see matchesCte). */
const tagsCheckedOnMatches = (plan: Plan) => plan.searchFilters && !plan.input.exhaustive;

/**
 * Conditions on the entry e alone that every candidate meets: kind, a current version, state, memory type, expiry,
 * time ranges, tags (unless `drivenBy` the tag sets, which imply them), relatedTo. Usable wherever
 * e is an "Entry" row.
 */
export function entryFilters(plan: Plan, drivenBy: 'tags' | 'related' | null = null): Sql[] {
  const { input, d, asOf, tags } = plan;
  const where: Sql[] = [Prisma.sql`e."kind" IN (${list(input.kinds)})`];
  // An entry without a current version is not there yet (an import writes it once the entry's
  // versions are in; one interrupted before then leaves it so until the file is imported again):
  // its result would fail (currentVersion is never null).
  where.push(Prisma.sql`e."currentVersionId" IS NOT NULL`);
  if (!input.includeInactive) where.push(Prisma.sql`e."active" = ${true}`);
  if (input.memoryTypes?.length) where.push(Prisma.sql`e."memoryType" IN (${list(input.memoryTypes)})`);
  if (!input.includeExpired) {
    // Expired as of the query's instant: the entry's own copy of its current version's validUntil.
    where.push(Prisma.sql`(e."validUntil" IS NULL OR ${d.epochMs(Prisma.sql`e."validUntil"`)} > CAST(${asOf} AS DOUBLE PRECISION))`);
    // A memory type's TTL where a policy of the scope's chain sets one: expired that long after its last change.
    for (const ttl of plan.ttls) {
      where.push(Prisma.sql`NOT (e."scopeId" = ${ttl.scopeId} AND e."memoryType" = ${ttl.memoryType}
        AND ${d.epochMs(Prisma.sql`e."updatedAt"`)} <= CAST(${asOf - ttl.hours * 3_600_000} AS DOUBLE PRECISION))`);
    }
  }
  const time = (column: string, op: '>=' | '<', value: Date | null) => {
    if (value) where.push(Prisma.sql`${d.epochMs(Prisma.raw(`e."${column}"`))} ${Prisma.raw(op)} CAST(${value.getTime()} AS DOUBLE PRECISION)`);
  };
  time('createdAt', '>=', input.createdAfter);
  time('createdAt', '<', input.createdBefore);
  time('updatedAt', '>=', input.updatedAfter);
  time('updatedAt', '<', input.updatedBefore);
  // The cheap, selective tag probes come before costlier terms (SQLite evaluates them in order).
  if (!tagsCheckedOnMatches(plan) && drivenBy !== 'tags') {
    if (tags.include.length) where.push(carries(known(tags.include)));
    for (const t of tags.require) where.push(t.id ? carries([t.id]) : never);
    const excluded = known(tags.exclude);
    if (excluded.length) where.push(Prisma.sql`NOT ${carries(excluded)}`);
  }
  if (input.relatedTo && drivenBy !== 'related') where.push(Prisma.sql`EXISTS (SELECT 1 FROM "Relation" r WHERE ${relatedCondition(plan)})`);
  return where;
}

/** Relation r links entry e to `relatedTo` (of `relationType`). */
function relatedCondition(plan: Plan): Sql {
  const { relatedTo, relationType } = plan.input;
  const type = relationType ? Prisma.sql` AND r."type" = ${relationType}` : Prisma.empty;
  if (relatedTo && 'entryId' in relatedTo) {
    const target = relatedTo.entryId;
    return Prisma.sql`((r."sourceId" = e."id" AND r."targetEntryId" = ${target}) OR (r."sourceId" = ${target} AND r."targetEntryId" = e."id"))${type}`;
  }
  if (relatedTo) return Prisma.sql`r."sourceId" = e."id" AND r."targetScopeId" = ${relatedTo.scopeId}${type}`;
  // Without relatedTo, the relation score: a relation to a scope of the chain (e.g. APPLIES_TO the project).
  return Prisma.sql`r."sourceId" = e."id" AND r."targetScopeId" IN (SELECT scope_id FROM chain)${type}`;
}

/**
 * The relation score of entry e (0 or 1): every candidate of a relatedTo query is related. Without
 * relatedTo, the probe per candidate runs only when some relation targets a scope of the chain
 * (an uncorrelated test, which both databases run once per statement): most chains have none, and
 * the probe was ~0.5 ms of a statement ranking 600 entries.
 */
export const relationScore = (plan: Plan): Sql =>
  plan.input.relatedTo
    ? Prisma.sql`1.0`
    : Prisma.sql`CASE WHEN EXISTS (SELECT 1 FROM "Relation" r0 WHERE r0."targetScopeId" IN (SELECT scope_id FROM chain))
        AND EXISTS (SELECT 1 FROM "Relation" r WHERE ${relatedCondition(plan)}) THEN 1.0 ELSE 0.0 END`;

/**
 * Entries a nearer scope overrides (same kind and name) are left out: a lookup in the (scopeId,
 * kind, name) index per nearer scope, for the entries whose name is shared. `fence` (for a few
 * thousand candidates at most) keeps it a probe per candidate; over the whole chain, the
 * planner's own choice is the better plan.
 */
export function notOverridden(plan: Plan, fence: boolean): Sql[] {
  if (plan.input.includeOverridden || plan.chain.length < 2) return [];
  const check = Prisma.sql`NOT EXISTS (
      SELECT 1 FROM chain oc ${cross} "Entry" o
      WHERE oc.depth < c.depth AND o."scopeId" = oc.scope_id AND o."kind" = e."kind" AND o."name" = e."name" AND o."active" = ${true}${
        fence ? plan.d.probeFence : Prisma.empty
      })`;
  // Only an entry whose name another entry shares can be overridden (Entry.nameShared); the
  // exhaustive ranking checks every entry, so the tests against it also check the marks.
  return [plan.input.exhaustive ? check : Prisma.sql`(e."nameShared" = ${false} OR ${check})`];
}

export interface Source {
  /** The FROM clause: it names "Entry" e, chain c and, with words, matches m. */
  from: Sql;
  /** Its join conditions and the filters it does not imply. */
  where: Sql[];
  /** Whether its candidates are few (the override check is then fenced as a probe per row). */
  narrow: boolean;
}

/**
 * Where the candidates' statement starts reading. With `exhaustive`, always from the chain, every
 * filter checked per entry: the reference every other start is tested against.
 */
export function candidateSource(plan: Plan): Source {
  const { input } = plan;
  const words = plan.terms.length > 0;
  const scoped = Prisma.sql`e."scopeId" = c.scope_id`;
  const ranked = words ? Prisma.sql`LEFT JOIN matches m ON m."entryId" = e."id"` : Prisma.empty;
  const startAt = (ids: Sql, drivenBy: 'tags' | 'related'): Source => ({
    from: Prisma.sql`(${ids}) start ${cross} ${plan.d.entryById(Prisma.raw('start.id'))} ${cross} chain c ${ranked}`,
    where: [Prisma.sql`e."id" = start.id`, scoped, ...entryFilters(plan, drivenBy)],
    // Stryker disable next-line BooleanLiteral: equivalent, the fence changes PostgreSQL's plan only (it is empty on SQLite)
    narrow: true,
  });
  if (!input.exhaustive) {
    if (plan.searchFilters) {
      // Stryker disable next-line BooleanLiteral: equivalent, the fence changes PostgreSQL's plan only (it is empty on SQLite)
      return { from: Prisma.sql`matches m ${cross} "Entry" e ${cross} chain c`, where: [Prisma.sql`e."id" = m."entryId"`, scoped, ...entryFilters(plan)], narrow: true };
    }
    // Stryker disable next-line StringLiteral: equivalent, another name only adds the relatedTo condition the start already implies
    if (input.relatedTo) return startAt(relatedIds(plan), 'related');
    const ids = taggedIds(plan);
    if (ids) return startAt(ids, 'tags');
  }
  const where = [scoped, ...entryFilters(plan)];
  if (words && plan.searchFilters) where.push(Prisma.sql`m."entryId" IS NOT NULL`);
  // Stryker disable next-line BooleanLiteral: equivalent, the fence changes PostgreSQL's plan only (it is empty on SQLite)
  return { from: Prisma.sql`chain c ${cross} "Entry" e ${ranked}`, where, narrow: false };
}

/**
 * The ids the tag conditions allow, from the tag links alone (the dialect's tagSet): the `include`
 * tags' entries (or the first required tag's) that carry every other required tag and no excluded
 * one. No "Entry" row is read for an id the tags rule out: `require` two tags and `exclude` one at
 * 100K entries reads ~400 entries instead of the first tag's ~8,600. Null when no tag condition
 * narrows the candidates (no known `include` or `require` tag).
 */
function taggedIds(plan: Plan): Sql | null {
  const driving = drivingTags(plan);
  return driving ? plan.d.tagSet(driving.tags, driving.required, known(plan.tags.exclude)) : null;
}

/** The ids related to `relatedTo`, from the relation indexes (both directions for an entry). */
function relatedIds(plan: Plan): Sql {
  const { relatedTo, relationType } = plan.input;
  const type = relationType ? Prisma.sql` AND r."type" = ${relationType}` : Prisma.empty;
  if (relatedTo && 'entryId' in relatedTo) {
    return Prisma.sql`SELECT r."targetEntryId" AS id FROM "Relation" r WHERE r."sourceId" = ${relatedTo.entryId} AND r."targetEntryId" IS NOT NULL${type}
      UNION SELECT r."sourceId" FROM "Relation" r WHERE r."targetEntryId" = ${relatedTo.entryId}${type}`;
  }
  // Stryker disable next-line LogicalOperator: equivalent, relatedTo is a scope here (the entry case returned above)
  const scopeId = relatedTo && 'scopeId' in relatedTo ? relatedTo.scopeId : '';
  return Prisma.sql`SELECT DISTINCT r."sourceId" AS id FROM "Relation" r WHERE r."targetScopeId" = ${scopeId}${type}`;
}
