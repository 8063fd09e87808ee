import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../../graphql/builder.ts';
import { can } from '../../graphql/rules.ts';
import { selectsPath } from '../../graphql/selection.ts';
import { allows } from '../identity/targets.ts';
import type { Context } from '../../context.ts';
import { ENTRY_TYPENAMES, SCOPE_TYPENAMES, decodeId, decodeTypedId } from '../../graphql/ids.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { EntryKindEnum, MemoryTypeEnum, RelationTypeEnum } from '../entries/entry-enums.ts';
import { EntryRef } from '../entries/entries.schema.ts';
import { asksOwnColumnsOnly, findEntries, type EntryQuery } from '../entries/entries.service.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { memoryQuery, type MemoryHit, type MemoryQueryResult, type RelevanceBreakdown } from './memory-query.service.ts';
import { RELEVANCE_WEIGHTS } from './relevance.ts';
import { taskSearch } from './memory-query.terms.ts';
import { PermissionDeniedError, ValidationError } from '../../domain/errors.ts';
import { linkEntries } from '../conversations/conversations.service.ts';

type Entry = Prisma.EntryGetPayload<object>;
type Scope = Prisma.ScopeGetPayload<object>;

interface Edge extends MemoryHit {
  entry: Entry;
}

interface Page extends MemoryQueryResult {
  edges: Edge[];
  tokenBudget: number | null;
}

/**
 * The entries behind a result's hits, in one query carrying what the client selected below them
 * (`query`, from Pothos' queryFromInfo), in order.
 */
async function hydrate(ctx: Context, result: MemoryQueryResult, query: EntryQuery): Promise<Edge[]> {
  // The page's statement carried the entries (`withEntries`): nothing more to read.
  if (result.hits.every((hit) => hit.entry)) return result.hits.map((hit) => ({ ...hit, entry: hit.entry! }));
  const entries = await findEntries(ctx.db, result.hits.map((h) => h.entryId), query);
  const byId = new Map(entries.map((e) => [e.id, e]));
  return result.hits.flatMap((hit) => {
    const entry = byId.get(hit.entryId);
    return entry ? [{ ...hit, entry }] : [];
  });
}

/** The scopes of a chain, in its order; loaded only when a client asks for them. */
async function chainScopes(ctx: Context, chain: readonly string[]): Promise<Scope[]> {
  const scopes = await ctx.db.scope.findMany({ where: { id: { in: [...chain] } } });
  const byId = new Map(scopes.map((s) => [s.id, s]));
  return chain.flatMap((id) => byId.get(id) ?? []);
}

const BreakdownRef = builder.objectRef<RelevanceBreakdown>('RelevanceBreakdown').implement({
  description: `Weighted parts of a score; they add up to it. Weights: relation ${RELEVANCE_WEIGHTS.relation}, tags ${RELEVANCE_WEIGHTS.tags}, scope ${RELEVANCE_WEIGHTS.scope}, text ${RELEVANCE_WEIGHTS.text}, priority ${RELEVANCE_WEIGHTS.priority}, recency ${RELEVANCE_WEIGHTS.recency}, decay ${RELEVANCE_WEIGHTS.decay}.`,
  fields: (t) => ({
    relation: t.exposeFloat('relation', {
      description: 'Related to `relatedTo`, or (without it) to a scope of the chain, e.g. APPLIES_TO the project.',
    }),
    tags: t.exposeFloat('tags', { description: 'Share of the `include` tags the entry carries.' }),
    scope: t.exposeFloat('scope', { description: 'Proximity of its scope: session > project > organization > global.' }),
    text: t.exposeFloat('text', { description: 'Full-text rank, relative to the best match.' }),
    priority: t.exposeFloat('priority', { description: 'Guideline priority (0 for tools and knowledge).' }),
    recency: t.exposeFloat('recency', { description: 'How recently the entry changed.' }),
    decay: t.exposeFloat('decay', {
      description:
        "How much of the memory is left: halves every half-life of its memory type (or knowledge category) since its last change, delayed by importance and reads, never below a tenth of the weight.",
    }),
  }),
});

const EdgeRef = builder.objectRef<Edge>('MemoryQueryEdge').implement({
  description: 'One result with its relevance.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` to continue after this result.' }),
    node: t.field({ type: EntryRef, description: 'The entry.', resolve: (e) => e.entry }),
    score: t.exposeFloat('score', { description: 'Relevance; results are ordered by it (ties by id).' }),
    breakdown: t.field({ type: BreakdownRef, description: 'How the score was made.', resolve: (e) => e.breakdown }),
    estimatedTokens: t.exposeInt('estimatedTokens', { description: 'Estimated tokens this result adds to a prompt.' }),
  }),
});

const MetaRef = builder.objectRef<Page>('MemoryQueryMeta').implement({
  description: 'Counts of a memoryQuery page.',
  fields: (t) => ({
    totalCount: t.int({
      description: 'Results of the whole query, all pages (over a whole scope chain, counted only when asked for).',
      resolve: (p) => p.totalCount(),
    }),
    returnedCount: t.int({ description: 'Results on this page.', resolve: (p) => p.edges.length }),
    truncated: t.exposeBoolean('truncated', { description: 'The token budget ended the page before `first` results.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'Results follow this page.' }),
    estimatedTokens: t.exposeInt('estimatedTokens', {
      description: 'Estimated tokens of this page (about 4 characters a token, plus a fixed overhead per result).',
    }),
    tokenBudget: t.exposeInt('tokenBudget', { nullable: true, description: 'The budget asked for, if any.' }),
  }),
});

const PageInfoRef = builder.objectRef<Page>('MemoryQueryPageInfo').implement({
  description: 'Where this page sits.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasMore', { description: 'True when results follow this page.' }),
    endCursor: t.exposeString('endCursor', {
      nullable: true,
      description:
        'Cursor to continue after: of the last result of the page. A page without results answers the cursor it was asked after, or, when results follow (first: 0), one before the first result; null when nothing follows.',
    }),
  }),
});

const ConnectionRef = builder.objectRef<Page>('MemoryQueryConnection').implement({
  description: 'Results of a memoryQuery, most relevant first.',
  fields: (t) => ({
    edges: t.field({ type: [EdgeRef], description: 'The results of this page.', resolve: (p) => p.edges }),
    pageInfo: t.field({ type: PageInfoRef, description: 'Paging.', resolve: (p) => p }),
    meta: t.field({ type: MetaRef, description: 'Counts and token estimate.', resolve: (p) => p }),
    scopeChain: t.field({
      type: [ScopeRef],
      description: 'The scopes searched, nearest first (with `inherit`: up to global).',
      resolve: (p, _args, ctx) => chainScopes(ctx, p.scopeChain),
    }),
  }),
});

const TagFilterInput = builder.inputType('MemoryTagFilter', {
  description: 'Tag conditions, by tag name.',
  fields: (t) => ({
    include: t.stringList({ description: 'At least one of these (also scores: share carried).' }),
    require: t.stringList({ description: 'All of these.' }),
    exclude: t.stringList({ description: 'None of these.' }),
  }),
});

/** The tag conditions of an input, absent lists as empty. */
function tagFilterOf(tags: { include?: string[] | null; require?: string[] | null; exclude?: string[] | null } | null | undefined) {
  return { include: tags?.include ?? [], require: tags?.require ?? [], exclude: tags?.exclude ?? [] };
}

const MemoryQueryInput = builder.inputType('MemoryQueryInput', {
  description: 'What to look for. All conditions must hold.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope asking (a session, project, organization or global).' }),
    inherit: t.boolean({
      description:
        'Also search the enclosing scopes up to global (default true). An entry of the same kind and name in a nearer scope overrides farther ones.',
    }),
    kinds: t.field({ type: [EntryKindEnum], description: 'Kinds to search (default all).' }),
    tags: t.field({ type: TagFilterInput, description: 'Tag conditions.' }),
    search: t.string({
      description: 'Words to find in names, descriptions, content, rationale, constraints and examples (prefix match; any word).',
    }),
    relatedTo: t.id({ description: 'Only entries related (either direction) to this entry or scope.' }),
    relationType: t.field({ type: RelationTypeEnum, description: 'With relatedTo: only this relation type.' }),
    includeInactive: t.boolean({ description: 'Also deactivated entries (default false).' }),
    includeExpired: t.boolean({ description: 'Also entries whose validUntil has passed (default false).' }),
    memoryTypes: t.field({ type: [MemoryTypeEnum], description: 'Only entries of these memory types (default all).' }),
    includeOverridden: t.boolean({ description: 'Also entries a nearer scope overrides (default false).' }),
    createdAfter: t.field({ type: 'DateTime', description: 'Created at or after.' }),
    createdBefore: t.field({ type: 'DateTime', description: 'Created before.' }),
    updatedAfter: t.field({ type: 'DateTime', description: 'Changed at or after.' }),
    updatedBefore: t.field({ type: 'DateTime', description: 'Changed before.' }),
    tokenBudget: t.int({ description: 'Stop adding results before their estimated tokens would exceed this.' }),
    compact: t.boolean({
      description: 'Estimate tokens for compact results (id, kind, name, score), for clients that select only those.',
    }),
    conversation: t.id({ description: 'Link the returned entries, with their scores, to this conversation (see Conversation.context).' }),
    message: t.id({ description: 'With `conversation`: link them to this message of it.' }),
  }),
});

/**
 * With a conversation named, links the returned entries (and their scores) to it, or to one of
 * its messages, in one transaction.
 */
async function linkToConversation(
  ctx: Context,
  input: { conversation?: string | number | null; message?: string | number | null },
  hits: readonly MemoryHit[],
): Promise<void> {
  if (input.conversation == null) {
    if (input.message != null) throw new ValidationError([{ path: ['input', 'message'], message: 'needs `conversation`' }]);
    return;
  }
  const conversationId = decodeId(String(input.conversation), ['Conversation'], ['input', 'conversation']);
  // Linking writes to the conversation: WRITE on its scope, or it answers like a missing one.
  if (!(await allows(ctx.db, ctx.access, { role: 'WRITE', kind: 'conversation', id: conversationId, path: ['input', 'conversation'] }))) {
    throw new PermissionDeniedError('Linking entries to this conversation needs WRITE on its scope', ['input', 'conversation']);
  }
  await linkEntries(ctx, {
    conversationId,
    messageId: input.message != null ? decodeId(String(input.message), ['Message'], ['input', 'message']) : null,
    usedEntries: hits.map((h) => ({ entryId: h.entryId, score: h.score })),
    source: 'QUERY',
  });
}

/**
 * The entry or scope a query's relations must point to. One the caller may not read is swapped
 * for an id nothing has, so the answer is exactly that of an unknown ID (no matches), not a leak.
 */
async function readableRelatedTo(ctx: Context, globalId: string): Promise<{ id: string; typename: string }> {
  const related = decodeTypedId(globalId, [...ENTRY_TYPENAMES, ...SCOPE_TYPENAMES], ['input', 'relatedTo']);
  const kind = (ENTRY_TYPENAMES as readonly string[]).includes(related.typename) ? 'entry' : 'scope';
  const readable = await allows(ctx.db, ctx.access, { role: 'READ', kind, id: related.id, path: ['input', 'relatedTo'], quiet: true });
  return readable ? related : { ...related, id: UNKNOWN_ID };
}

/** An id no row has (ids are UUIDs). */
const UNKNOWN_ID = 'unknown';

/** What a ranking costs on top of its results (src/graphql/complexity.ts): a few statements over many rows. */
const RANKING_COST = 25;
/** Each kind of a context may hold the whole page. */
const CONTEXT_LIST_COST = { field: 1, multiplier: LIMITS.page.max };

builder.queryField('memoryQuery', (t) =>
  t.field({
    type: ConnectionRef,
    complexity: (args) => ({ field: RANKING_COST, multiplier: args.first ?? LIMITS.page.default }),
    description:
      'The entries that apply to a scope, ranked by relevance: scope inheritance with overrides, tags, full-text search, relations, time ranges and a token budget.',
    authScopes: (_root, { input }) => can('READ', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    args: {
      input: t.arg({ type: MemoryQueryInput, required: true, description: 'The query.' }),
      first: t.arg.int({ description: `Page size (default ${LIMITS.page.default}, at most ${LIMITS.page.max}).` }),
      after: t.arg.string({ description: 'Cursor to continue after (cursors stay valid while entries are written).' }),
    },
    resolve: async (_root, { input, first, after }, ctx, info) => {
      const relatedTo = input.relatedTo ? await readableRelatedTo(ctx, String(input.relatedTo)) : null;
      // What the client selected below `node`: one query for the page's entries, or none when the
      // page's statement can carry them.
      const query = queryFromInfo({ context: ctx, info, typeName: 'Entry', path: ['edges', 'node'] });
      const result = await memoryQuery(ctx.db, ctx.provider, {
        scopeId: decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']),
        readable: (chain) => ctx.access.readableChain(chain),
        inherit: input.inherit ?? true,
        kinds: input.kinds ?? undefined,
        tags: tagFilterOf(input.tags),
        search: input.search ?? null,
        relatedTo: relatedTo
          ? (ENTRY_TYPENAMES as readonly string[]).includes(relatedTo.typename)
            ? { entryId: relatedTo.id }
            : { scopeId: relatedTo.id }
          : null,
        relationType: input.relationType ?? null,
        includeInactive: input.includeInactive ?? false,
        includeExpired: input.includeExpired ?? false,
        memoryTypes: input.memoryTypes ?? null,
        includeOverridden: input.includeOverridden ?? false,
        createdAfter: input.createdAfter ?? null,
        createdBefore: input.createdBefore ?? null,
        updatedAfter: input.updatedAfter ?? null,
        updatedBefore: input.updatedBefore ?? null,
        first: first ?? LIMITS.page.default,
        after: after ?? null,
        tokenBudget: input.tokenBudget ?? null,
        compact: input.compact ?? false,
        exhaustive: ctx.exhaustiveRanking,
        wantsTotal: selectsPath(info, ['meta', 'totalCount']),
        withEntries: asksOwnColumnsOnly(query),
      });
      await linkToConversation(ctx, input, result.hits);
      ctx.tracker.record(result.hits.map((hit) => hit.entryId));
      const edges = await hydrate(ctx, result, query);
      return { ...result, tokenBudget: input.tokenBudget ?? null, edges };
    },
  }),
);

/** Tokens a `context` call may fill when the caller names no budget. */
const CONTEXT_DEFAULT_BUDGET = 4_000;

interface ContextResult {
  scopeChain: string[];
  edges: Edge[];
  tokensUsed: number;
  tokenBudget: number;
  truncated: boolean;
}

const ContextInput = builder.inputType('ContextInput', {
  description: 'What an orchestrator is about to ask an agent to do.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope of the work (usually the session).' }),
    task: t.string({ description: 'The task, in words: entries matching it rank higher (nothing is left out for not matching).' }),
    tokenBudget: t.int({ description: `Most tokens the context may take (default ${CONTEXT_DEFAULT_BUDGET}).` }),
    tags: t.field({ type: TagFilterInput, description: 'Tag conditions.' }),
    kinds: t.field({ type: [EntryKindEnum], description: 'Kinds to include (default all).' }),
    includeExpired: t.boolean({ description: 'Also entries whose validUntil has passed (default false).' }),
    memoryTypes: t.field({ type: [MemoryTypeEnum], description: 'Only entries of these memory types (default all).' }),
    conversation: t.id({ description: 'Link the returned entries, with their scores, to this conversation.' }),
    message: t.id({ description: 'With `conversation`: link them to this message of it.' }),
  }),
});

const ContextRef = builder.objectRef<ContextResult>('Context').implement({
  description: 'The memory to put before a prompt: the most relevant entries within a token budget, grouped by kind.',
  fields: (t) => ({
    guidelines: t.field({
      type: [EdgeRef],
      complexity: CONTEXT_LIST_COST,
      description: 'Guidelines, most relevant first.',
      resolve: (c) => c.edges.filter((e) => e.entry.kind === 'GUIDELINE'),
    }),
    tools: t.field({
      type: [EdgeRef],
      complexity: CONTEXT_LIST_COST,
      description: 'Tools, most relevant first.', resolve: (c) => c.edges.filter((e) => e.entry.kind === 'TOOL') }),
    knowledge: t.field({
      type: [EdgeRef],
      complexity: CONTEXT_LIST_COST,
      description: 'Knowledge, most relevant first.',
      resolve: (c) => c.edges.filter((e) => e.entry.kind === 'KNOWLEDGE'),
    }),
    scopeChain: t.field({ type: [ScopeRef], description: 'The scopes used, nearest first.', resolve: (c, _args, ctx) => chainScopes(ctx, c.scopeChain) }),
    tokensUsed: t.exposeInt('tokensUsed', { description: 'Estimated tokens of everything returned.' }),
    tokenBudget: t.exposeInt('tokenBudget', { description: 'The budget applied.' }),
    truncated: t.exposeBoolean('truncated', { description: 'More entries applied than the budget allowed.' }),
  }),
});

builder.queryField('context', (t) =>
  t.field({
    type: ContextRef,
    complexity: RANKING_COST,
    description:
      'One call before prompting an agent: for a scope and a task, the most relevant guidelines, tools and knowledge (inherited up to global) within a token budget.',
    args: { input: t.arg({ type: ContextInput, required: true, description: 'Scope, task and budget.' }) },
    authScopes: (_root, { input }) => can('READ', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    resolve: async (_root, { input }, ctx, info) => {
      const budget = input.tokenBudget ?? CONTEXT_DEFAULT_BUDGET;
      const search = taskSearch(input.task);
      const query = queryFromInfo({
        context: ctx,
        info,
        typeName: 'Entry',
        paths: [
          ['guidelines', 'node'],
          ['tools', 'node'],
          ['knowledge', 'node'],
        ],
      });
      const result = await memoryQuery(ctx.db, ctx.provider, {
        scopeId: decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']),
        readable: (chain) => ctx.access.readableChain(chain),
        kinds: input.kinds ?? undefined,
        includeExpired: input.includeExpired ?? false,
        memoryTypes: input.memoryTypes ?? null,
        tags: tagFilterOf(input.tags),
        search,
        searchFilters: false,
        first: LIMITS.page.max,
        tokenBudget: budget,
        exhaustive: ctx.exhaustiveRanking,
        bestHitsFrom: ctx.rankBestHitsFrom,
        withEntries: asksOwnColumnsOnly(query),
      });
      await linkToConversation(ctx, input, result.hits);
      ctx.tracker.record(result.hits.map((hit) => hit.entryId));
      const edges = await hydrate(ctx, result, query);
      return {
        edges,
        scopeChain: result.scopeChain,
        tokensUsed: result.estimatedTokens,
        tokenBudget: budget,
        truncated: result.hasMore,
      };
    },
  }),
);
