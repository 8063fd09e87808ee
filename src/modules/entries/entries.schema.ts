import { builder, type JsonInput } from '../../graphql/builder.ts';
import type { Context } from '../../context.ts';
import { InvalidStateError, NAMING_ERRORS, WRITE_ERRORS, WriteConflictError } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { FENCING_DESCRIPTION, FencingInput, fencedBy, type FencingShape } from '../leases/leases.schema.ts';
import { EntryVersionRef, EntryVersionsConnectionRef, GuidelineVersionRef, KnowledgeVersionRef, ToolVersionRef, withKindVersions } from './entry-versions.schema.ts';

export { EntryVersionRef };
import { PAGING } from '../../graphql/paging.ts';
import { MEMBER, can, passes, refused } from '../../graphql/rules.ts';
import type { MemoryType } from './memory-types.ts';
import { lifetimesIn } from '../lifecycle/policies.service.ts';
import { screenText, screenVersion, screenVersions } from '../redaction/redaction.service.ts';
import { forgetTarget, scopeOfTarget, type Target } from '../identity/targets.ts';
import { takeEntryRead } from './entry-read.ts';
import type { Entry, Prisma } from '../../generated/sqlite/client.ts';
import { chunked, inTurns } from '../../infra/id-lists.ts';
import { TagRef } from '../tags/tags.schema.ts';
import { RelationRef } from '../relations/relations.schema.ts';
import { EntryKindEnum, MemoryTypeEnum, RelationTypeEnum } from './entry-enums.ts';
import { EntryMovedError, addEntries, addEntry, findEntry, setEntryActive, updateEntry, type EntryKind, type UpdateEntryResult, type VersionFields } from './entries.service.ts';
import { ValidationError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { normalizeTagName } from '../../domain/validate.ts';
import { sharedRead } from '../../graphql/shared-read.ts';

export const ENTRY_TYPENAME: Record<EntryKind, string> = { TOOL: 'Tool', GUIDELINE: 'Guideline', KNOWLEDGE: 'Knowledge' };

// ---------------------------------------------------------------- entries

export const EntryRef = builder.prismaInterface('Entry', {
  name: 'Entry',
  description: 'A tool, guideline or knowledge entry in a scope. Its content is in its versions.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (entry) => ENTRY_TYPENAME[entry.kind as EntryKind],
  fields: (t) => ({
    kind: t.field({ type: EntryKindEnum, description: 'Tool, guideline or knowledge.', resolve: (e) => e.kind as EntryKind }),
    name: t.exposeString('name', { description: 'Unique per scope and kind (for knowledge: the title).' }),
    category: t.exposeString('category', { nullable: true, description: 'Free string; see the kind for documented defaults.' }),
    active: t.exposeBoolean('active', { description: 'False once deactivated (soft delete).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the entry was created.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created it.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the entry or its current version last changed.' }),
    latestVersion: t.exposeInt('latestVersion', { description: 'Number of the current (newest) version.' }),
  }),
});

const entryNode = (variant: string, kind: EntryKind, description: string) => ({
  variant,
  description,
  interfaces: [EntryRef],
  id: { field: 'id' as const },
  nullable: true as const,
  findUnique: (id: string) => ({ id, kind }),
});

export const ToolRef = builder.prismaNode('Entry', {
  ...entryNode('Tool', 'TOOL', 'A tool an agent can use. Categories: mcp, cli, function, api (free strings).'),
  fields: () => ({}),
});

export const GuidelineRef = builder.prismaNode('Entry', {
  ...entryNode(
    'Guideline',
    'GUIDELINE',
    'A rule for agents. Categories: code_style, behavior, security, architecture, ... (free strings).',
  ),
  fields: (t) => ({
    priority: t.int({ description: '0-100, higher matters more (default 50).', resolve: (e) => e.priority ?? 50 }),
  }),
});

export const KnowledgeRef = builder.prismaNode('Entry', {
  ...entryNode('Knowledge', 'KNOWLEDGE', 'Something known. Categories: decision, fact, context, reference (free strings).'),
  fields: (t) => ({
    title: t.exposeString('name', { description: 'The title (same as name).' }),
  }),
});

withKindVersions(ToolRef, ToolVersionRef, 'Tool');
withKindVersions(GuidelineRef, GuidelineVersionRef, 'Guideline');
withKindVersions(KnowledgeRef, KnowledgeVersionRef, 'Knowledge');

// Fields that reference other types are added once all refs exist (keeps inference acyclic).
builder.prismaInterfaceFields(EntryVersionRef, (t) => ({
    entry: t.relation('entry', { description: 'The entry it is a version of.' }),
}));

builder.prismaInterfaceFields(EntryRef, (t) => ({
    scope: t.relation('scope', { description: 'The scope it belongs to.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'What kind of remembering it is.', resolve: (entry) => entry.memoryType as MemoryType }),
    importance: t.exposeFloat('importance', { description: 'How much it matters, 0-1.' }),
    accessCount: t.exposeInt('accessCount', { description: 'How often memoryQuery, context and node read it (counted in batches, a few seconds behind).' }),
    lastAccessedAt: t.expose('lastAccessedAt', { type: 'DateTime', nullable: true, description: 'When it was last read (as accessCount).' }),
    expired: t.boolean({
      description:
        "True once its current version's validUntil has passed, or its memory type's TTL (a policy of its scope's chain) since its last change: memoryQuery and context leave it out unless asked.",
      resolve: async (entry, _args, ctx) => {
        const now = Date.now();
        if (entry.validUntil !== null && entry.validUntil.getTime() <= now) return true;
        const ttl = (await lifetimesIn(ctx.db, entry.scopeId))[entry.memoryType as MemoryType]?.ttlHours ?? null;
        return ttl !== null && entry.updatedAt.getTime() + ttl * 3_600_000 <= now;
      },
    }),
    currentVersion: t.relation('currentVersion', { onNull: 'error', description: 'The newest version.' }),
    version: t.field({
      type: EntryVersionRef,
      nullable: true,
      description: 'The version with this number; null when there is none.',
      args: { number: t.arg.int({ required: true, description: 'Version number, from 1.' }) },
      select: (args, _ctx, nested) => ({
        versions: nested({ where: { version: args.number }, take: 1 }),
      }),
      resolve: (entry) => entry.versions[0] ?? null,
    }),
    // Each kind answers with its own page type (withKindVersions); this resolver is never reached
    // for them, and only states what the interface field returns.
    versions: t.field({
      type: EntryVersionsConnectionRef,
      description: 'Version history, newest first.',
      args: {
        first: t.arg.int({}),
        after: t.arg.string({}),
        last: t.arg.int({}),
        before: t.arg.string({}),
      },
      resolve: () => {
        throw new Error('Entry.versions is resolved by Tool, Guideline and Knowledge');
      },
    }),
    tags: t.field({
      type: [TagRef],
      description: 'Tags, by name.',
      resolve: (entry, _args, ctx) => sharedRead(entry, 'tags', null, () => ctx.loaders.tags.load(entry.id)),
    }),
    outgoingRelations: t.relation('relationsOut', {
      description: 'Relations from this entry to entries or scopes the caller may read, oldest first.',
      args: { type: t.arg({ type: RelationTypeEnum, description: 'Only relations of this type.' }) },
      query: (args, ctx) => ({ where: { ...(args.type ? { type: args.type } : {}), ...readableTarget(ctx) }, orderBy: { id: 'asc' } }),
      type: RelationRef,
    }),
    incomingRelations: t.relation('relationsIn', {
      description: 'Relations from other entries the caller may read to this one, oldest first.',
      args: { type: t.arg({ type: RelationTypeEnum, description: 'Only relations of this type.' }) },
      query: (args, ctx) => {
        const scope = ctx.access.scopeWhereNow();
        return { where: { ...(args.type ? { type: args.type } : {}), ...(scope ? { source: { scope } } : {}) }, orderBy: { id: 'asc' } };
      },
      type: RelationRef,
    }),
}));

// ---------------------------------------------------------------- queries

const EntryFilter = builder.inputType('EntryFilter', {
  description: 'Narrows a list of entries. All conditions must hold.',
  fields: (t) => ({
    scope: t.id({ description: 'Only entries that belong directly to this scope.' }),
    category: t.string({ description: 'Only entries of this category.' }),
    tag: t.string({ description: 'Only entries carrying this tag (by name).' }),
    includeInactive: t.boolean({ description: 'Also deactivated entries (default false).' }),
  }),
});

interface EntryFilterShape {
  scope?: string | number | null;
  category?: string | null;
  tag?: string | null;
  includeInactive?: boolean | null;
}

function entryWhere(kind: EntryKind, filter: EntryFilterShape | null | undefined): Prisma.EntryWhereInput {
  return {
    kind,
    // Not there yet: an import writes an entry's current version once its versions are in (findEntries).
    currentVersionId: { not: null },
    ...(filter?.includeInactive ? {} : { active: true }),
    ...(filter?.scope != null ? { scopeId: decodeId(String(filter.scope), SCOPE_TYPENAMES, ['filter', 'scope']) } : {}),
    ...(filter?.category != null ? { category: filter.category } : {}),
    ...(filter?.tag != null ? { tags: { some: { tag: { name: normalizeTagName(filter.tag) } } } } : {}),
  };
}

/** Entries matching `where` in the scopes the caller reads. */
async function readableEntries(ctx: Context, where: Prisma.EntryWhereInput): Promise<Prisma.EntryWhereInput> {
  const scope = await ctx.access.scopeWhere();
  return scope ? { AND: [where, { scope }] } : where;
}

/** Relations whose target (entry or scope) the caller reads; for the synchronous nested `query`. */
function readableTarget(ctx: Context): Prisma.RelationWhereInput {
  const scope = ctx.access.scopeWhereNow();
  return scope ? { OR: [{ targetEntry: { scope } }, { targetScope: scope }] } : {};
}

interface EntryWarning {
  code: 'UNRESOLVED_CONFLICTS';
  message: string;
  entry: Prisma.EntryGetPayload<object>;
}

export const EntryWarningRef = builder.objectRef<EntryWarning>('EntryWarning').implement({
  description: 'Something a reader of a list of entries should know about one of them.',
  fields: (t) => ({
    code: t.string({ description: 'UNRESOLVED_CONFLICTS: the entry has conflicting versions nobody has settled.', resolve: (w) => w.code }),
    message: t.string({ description: 'Human-readable explanation.', resolve: (w) => w.message }),
    entry: t.field({ type: EntryRef, description: 'The entry concerned.', resolve: (w) => w.entry }),
  }),
});

export const WARNINGS_DESCRIPTION = 'Warnings about entries of this page, e.g. unresolved conflicts. Empty when all is well.';

/** `warnings` of a page of entries: one query for the whole page, only when the field is selected. */
export async function pageWarnings(
  ctx: Context,
  edges: readonly ({ node?: unknown } | null | undefined)[],
): Promise<EntryWarning[]> {
  // Only the ids of the page's nodes are sure to be loaded (the page may not select more).
  const ids = edges.flatMap((edge) => {
    const id = (edge?.node as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? [id] : [];
  });
  if (ids.length === 0) return [];
  const open = await ctx.db.conflict.groupBy({
    by: ['entryId'],
    where: { entryId: { in: ids }, resolved: false },
    _count: { _all: true },
  });
  if (open.length === 0) return [];
  const entries = await ctx.db.entry.findMany({ where: { id: { in: open.map((row) => row.entryId) } } });
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const counts = new Map(open.map((row) => [row.entryId, row._count._all]));
  // In page order.
  return ids.flatMap((id) => {
    const entry = byId.get(id);
    const count = counts.get(id);
    return entry && count ? [{ code: 'UNRESOLVED_CONFLICTS' as const, message: `"${entry.name}" has ${count} unresolved conflict(s)`, entry }] : [];
  });
}

const listField = (kind: EntryKind, type: typeof ToolRef, plural: string) =>
  builder.queryField(plural, (t) =>
    t.prismaConnection(
      {
        type,
        cursor: 'id',
        ...PAGING,
        description: `${ENTRY_TYPENAME[kind]} entries the caller may read, ordered by name, then creation.`,
        args: { filter: t.arg({ type: EntryFilter, description: 'Conditions.' }) },
        authScopes: MEMBER,
        totalCount: async (_parent, args, ctx) => ctx.db.entry.count({ where: await readableEntries(ctx, entryWhere(kind, args.filter)) }),
        resolve: async (query, _root, args, ctx) =>
          ctx.db.entry.findMany({ ...query, where: await readableEntries(ctx, entryWhere(kind, args.filter)), orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
      },
      {
        description: `Page of ${plural}.`,
        fields: (c) => ({
          warnings: c.field({
            type: [EntryWarningRef],
            description: WARNINGS_DESCRIPTION,
            resolve: (page, _args, ctx) => pageWarnings(ctx, page.edges),
          }),
        }),
      },
      { description: `One of the ${plural}.` },
    ),
  );
listField('TOOL', ToolRef, 'tools');
listField('GUIDELINE', GuidelineRef, 'guidelines');
listField('KNOWLEDGE', KnowledgeRef, 'knowledge');

builder.queryFields((t) => ({
  entry: t.prismaField({
    type: EntryRef,
    nullable: true,
    description: 'An entry of any kind by ID; null when there is none or the caller may not read it.',
    args: { id: t.arg.id({ required: true, description: 'Global ID of the entry.' }) },
    authScopes: (_root, args) => can('READ', 'entry', args.id, ENTRY_TYPENAMES, ['id'], { quiet: true }),
    unauthorizedResolver: () => null,
    resolve: (query, _root, args, ctx) => findEntry(ctx.db, decodeId(String(args.id), ENTRY_TYPENAMES, ['id']), query),
  }),
  entryByName: t.prismaField({
    type: EntryRef,
    nullable: true,
    description: 'The entry of this kind and name (knowledge: title) in exactly this scope; null when there is none or the caller may not read the scope.',
    authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope'], { quiet: true }),
    unauthorizedResolver: () => null,
    args: {
      scope: t.arg.id({ required: true, description: 'The scope.' }),
      kind: t.arg({ type: EntryKindEnum, required: true, description: 'The kind.' }),
      name: t.arg.string({ required: true, description: 'The name or title.' }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.db.entry.findUnique({
        ...query,
        where: {
          scopeId_kind_name: {
            scopeId: decodeId(String(args.scope), SCOPE_TYPENAMES, ['scope']),
            kind: args.kind,
            name: args.name.trim(),
          },
          AND: [{ currentVersionId: { not: null } }],
        },
      }),
  }),
}));

// ---------------------------------------------------------------- mutations

/** Version content as GraphQL inputs carry it (JSON values as the JSON scalar parses them). */
export type JsonVersionInput = Omit<VersionFields, 'parameters' | 'examples'> & {
  parameters?: JsonInput | null;
  examples?: JsonInput | null;
};

/** What every add input may carry; each kind's input type declares its subset. */
type AddInput = JsonVersionInput & {
  scope: string | number;
  name?: string | null;
  title?: string | null;
  category?: string | null;
  priority?: number | null;
  memoryType?: MemoryType | null;
  importance?: number | null;
  tags?: string[] | null;
  author?: string | null;
  fencing?: FencingShape | null;
};


/** What every update input may carry. */
interface UpdateInput extends Omit<AddInput, 'scope' | 'name' | 'title' | 'tags'> {
  id: string | number;
  changeReason?: string | null;
  expectedVersion?: number | null;
  onConflict?: 'KEEP_BOTH' | 'REJECT' | null;
}

const AddToolInput = builder.inputRef<AddInput>('AddToolInput').implement({
  description: 'A new tool with its version 1.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    name: t.string({ required: true, description: 'Unique per scope among tools.' }),
    category: t.string({ description: 'mcp, cli, function, api, or any string.' }),
    description: t.string({ description: 'What the tool does.' }),
    parameters: t.field({ type: 'JSON', description: 'JSON Schema (object) of its parameters.' }),
    examples: t.field({ type: 'JSON', description: 'Usage examples.' }),
    constraints: t.string({ description: 'Rules for using it.' }),
    importance: t.float({ description: 'How much it matters, 0-1 (default 0.5).' }),
    tags: t.stringList({ description: 'Tag names; unknown names become free-form tags.' }),
    author: t.string({ description: 'Who writes it (default: the X-Engram-Actor header).' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const AddGuidelineInput = builder.inputRef<AddInput>('AddGuidelineInput').implement({
  description: 'A new guideline with its version 1.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    name: t.string({ required: true, description: 'Unique per scope among guidelines.' }),
    category: t.string({ description: 'code_style, behavior, security, ... or any string.' }),
    priority: t.int({ description: '0-100, default 50.' }),
    content: t.string({ required: true, description: 'The guideline text.' }),
    rationale: t.string({ description: 'Why it exists.' }),
    examples: t.field({ type: 'JSON', description: 'Good and bad examples.' }),
    importance: t.float({ description: 'How much it matters, 0-1 (default 0.5).' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'PROCEDURAL (default), SEMANTIC or EPISODIC.' }),
    tags: t.stringList({ description: 'Tag names; unknown names become free-form tags.' }),
    author: t.string({ description: 'Who writes it (default: the X-Engram-Actor header).' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const AddKnowledgeInput = builder.inputRef<AddInput>('AddKnowledgeInput').implement({
  description: 'A new knowledge entry with its version 1.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    title: t.string({ required: true, description: 'Unique per scope among knowledge entries.' }),
    category: t.string({ description: 'decision, fact, context, reference, or any string.' }),
    content: t.string({ required: true, description: 'The knowledge itself.' }),
    source: t.string({ description: 'Where it came from.' }),
    confidence: t.float({ description: '0-1, default 1.' }),
    validUntil: t.field({ type: 'DateTime', description: 'When it expires.' }),
    importance: t.float({ description: 'How much it matters, 0-1 (default 0.5).' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'SEMANTIC (default), EPISODIC or PROCEDURAL.' }),
    tags: t.stringList({ description: 'Tag names; unknown names become free-form tags.' }),
    author: t.string({ description: 'Who writes it (default: the X-Engram-Actor header).' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const ConflictPolicyEnum = builder.enumType('ConflictPolicy', {
  description: 'What an update does when it conflicts with another writer.',
  values: {
    KEEP_BOTH: { description: 'Write the new version anyway, flagged, and record a conflict (default). Nothing is lost.' },
    REJECT: { description: 'Write nothing and return a WriteConflictError (strict optimistic locking).' },
  },
});

const updateFields = {
  changeReason: 'Why this change is made.',
  author: 'Who writes it (default: the X-Engram-Actor header).',
  expectedVersion:
    'The version this change is based on. When the entry has moved past it, the write conflicts. Without it, a write conflicts when another writer wrote the current version within the conflict window (CONFLICT_WINDOW_MS, default 5 s).',
  onConflict: 'KEEP_BOTH (default): keep both versions and record a conflict. REJECT: write nothing, return WriteConflictError.',
  fencing: FENCING_DESCRIPTION,
};

const UpdateToolInput = builder.inputRef<UpdateInput>('UpdateToolInput').implement({
  description: 'A new version of a tool. Fields left out keep their current value; null clears.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The tool.' }),
    category: t.string({ description: 'New category.' }),
    description: t.string({ description: 'What the tool does.' }),
    parameters: t.field({ type: 'JSON', description: 'JSON Schema (object) of its parameters.' }),
    examples: t.field({ type: 'JSON', description: 'Usage examples.' }),
    constraints: t.string({ description: 'Rules for using it.' }),
    importance: t.float({ description: 'New importance, 0-1.' }),
    changeReason: t.string({ description: updateFields.changeReason }),
    author: t.string({ description: updateFields.author }),
    expectedVersion: t.int({ description: updateFields.expectedVersion }),
    onConflict: t.field({ type: ConflictPolicyEnum, description: updateFields.onConflict }),
    fencing: t.field({ type: FencingInput, description: updateFields.fencing }),
  }),
});

const UpdateGuidelineInput = builder.inputRef<UpdateInput>('UpdateGuidelineInput').implement({
  description: 'A new version of a guideline. Fields left out keep their current value; null clears.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The guideline.' }),
    category: t.string({ description: 'New category.' }),
    priority: t.int({ description: 'New priority, 0-100.' }),
    content: t.string({ description: 'The guideline text (cannot be cleared).' }),
    rationale: t.string({ description: 'Why it exists.' }),
    examples: t.field({ type: 'JSON', description: 'Good and bad examples.' }),
    importance: t.float({ description: 'New importance, 0-1.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'New memory type: PROCEDURAL, SEMANTIC or EPISODIC.' }),
    changeReason: t.string({ description: updateFields.changeReason }),
    author: t.string({ description: updateFields.author }),
    expectedVersion: t.int({ description: updateFields.expectedVersion }),
    onConflict: t.field({ type: ConflictPolicyEnum, description: updateFields.onConflict }),
    fencing: t.field({ type: FencingInput, description: updateFields.fencing }),
  }),
});

const UpdateKnowledgeInput = builder.inputRef<UpdateInput>('UpdateKnowledgeInput').implement({
  description: 'A new version of a knowledge entry. Fields left out keep their current value; null clears.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The knowledge entry.' }),
    category: t.string({ description: 'New category.' }),
    content: t.string({ description: 'The knowledge itself (cannot be cleared).' }),
    source: t.string({ description: 'Where it came from.' }),
    confidence: t.float({ description: '0-1.' }),
    validUntil: t.field({ type: 'DateTime', description: 'When it expires.' }),
    importance: t.float({ description: 'New importance, 0-1.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'New memory type: SEMANTIC, EPISODIC or PROCEDURAL.' }),
    changeReason: t.string({ description: updateFields.changeReason }),
    author: t.string({ description: updateFields.author }),
    expectedVersion: t.int({ description: updateFields.expectedVersion }),
    onConflict: t.field({ type: ConflictPolicyEnum, description: updateFields.onConflict }),
    fencing: t.field({ type: FencingInput, description: updateFields.fencing }),
  }),
});

const EntryIdInput = builder.inputType('EntryIdInput', {
  description: 'Names one entry.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The entry (tool, guideline or knowledge).' }) }),
});

/** The version content of an input: the fields it carries, undefined ones left out. */
export function versionFieldsOf(input: JsonVersionInput): VersionFields {
  const { description, parameters, examples, constraints, content, rationale, source, confidence, validUntil } = input;
  const fields = { description, parameters, examples, constraints, content, rationale, source, confidence, validUntil };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

const addMutation = (kind: EntryKind, field: string, type: typeof ToolRef, input: typeof AddToolInput, dataName: string) =>
  builder.mutationField(field, (t) =>
    t.field({
      type,
      description: `Creates a ${ENTRY_TYPENAME[kind].toLowerCase()} with version 1 and its tags, in one transaction (WRITE on the scope).`,
      args: { input: t.arg({ type: input, required: true, description: 'The new entry.' }) },
      authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
      errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: dataName, description: 'The new entry.' } },
      resolve: async (_root, args, ctx) => {
        const { input } = args;
        const scopeId = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
        return addEntry(fencedBy(ctx, input.fencing), {
          kind,
          scopeId,
          name: input.name ?? input.title ?? '',
          category: input.category,
          priority: input.priority,
          memoryType: input.memoryType,
          importance: input.importance,
          tags: input.tags ?? [],
          author: await ctx.author(input.author, ['input', 'author']),
          version: await screenVersion(
            ctx.db,
            scopeId,
            versionFieldsOf(input),
            ['input'],
            { field: input.name === undefined ? 'title' : 'name', value: input.name ?? input.title ?? '' },
            input.tags ?? [],
          ),
        });
      },
    }),
  );
addMutation('TOOL', 'addTool', ToolRef, AddToolInput, 'tool');
addMutation('GUIDELINE', 'addGuideline', GuidelineRef, AddGuidelineInput, 'guideline');
addMutation('KNOWLEDGE', 'addKnowledge', KnowledgeRef, AddKnowledgeInput, 'knowledge');

export const UpdateResultRef = builder.objectRef<UpdateEntryResult>('EntryUpdate');
UpdateResultRef.implement({
  description: 'The outcome of an update: the entry, the version written, and the version it conflicted with, if any.',
  fields: (t) => ({
    entry: t.field({ type: EntryRef, description: 'The entry after the update.', resolve: (r) => r.entry }),
    version: t.field({ type: EntryVersionRef, description: 'The version this update wrote.', resolve: (r) => r.version }),
    conflicted: t.boolean({ description: 'True when this write conflicted with another writer.', resolve: (r) => r.conflict !== null }),
    conflictWith: t.field({
      type: EntryVersionRef,
      nullable: true,
      description: 'When the write conflicted: the version it was written over (both are kept).',
      resolve: (r) => r.conflictWith,
    }),
  }),
});

const updateMutation = (kind: EntryKind, name: string, input: typeof UpdateToolInput) => {
  const rule = (id: string | number) =>
    can('WRITE', 'entry', id, [ENTRY_TYPENAME[kind]], ['input', 'id'], { label: ENTRY_TYPENAME[kind].toLowerCase(), reuseKnown: true });
  builder.mutationField(name, (t) =>
    t.field({
      type: UpdateResultRef,
      description: `Appends a version to a ${ENTRY_TYPENAME[kind].toLowerCase()} (WRITE on its scope).`,
      args: { input: t.arg({ type: input, required: true, description: 'The change.' }) },
      // The update checks the entry is still in the scope decided on: the rule may take a kept row.
      authScopes: (_root, { input }) => rule(input.id),
      errors: { types: [...WRITE_ERRORS, WriteConflictError, InvalidStateError], dataField: { name: 'update', description: 'What was written.' } },
      resolve: async (_root, args, ctx) => {
        const { input } = args;
        const target = rule(input.id).can;
        const { id } = target;
        const write = async (reuseKnown: boolean) => {
          // Read for a write: the entry with its current version, which the update then takes.
          const scopeId = (await scopeOfTarget(ctx.db, ctx.access, 'entry', id, 'WRITE', reuseKnown)) ?? null;
          return updateEntry(fencedBy(ctx, input.fencing), {
            kind,
            id,
            read: takeEntryRead(ctx.access, id),
            scopeId,
            category: input.category,
            priority: input.priority,
            memoryType: input.memoryType,
            importance: input.importance,
            changeReason: await screenText(ctx.db, scopeId, ['input', 'changeReason'], input.changeReason),
            author: await ctx.author(input.author, ['input', 'author']),
            expectedVersion: input.expectedVersion,
            onConflict: input.onConflict,
            version: await screenVersion(ctx.db, scopeId, versionFieldsOf(input)),
          });
        };
        return whereItIsNow(ctx, target, write);
      },
    }),
  );
};

/**
 * Runs an update; when the entry turned out to have left the scope its access was decided on (a
 * kept row, or a session promoting it meanwhile), decides again on a fresh read and writes once
 * more. A second move in the same moment is reported, not chased.
 */
async function whereItIsNow<T>(ctx: Context, target: Target, write: (reuseKnown: boolean) => Promise<T>): Promise<T> {
  try {
    return await write(true);
  } catch (error) {
    if (!(error instanceof EntryMovedError)) throw error;
  }
  forgetTarget(ctx.access, 'entry', target.id);
  if (!(await passes(ctx, { ...target, reuseKnown: false }))) throw refused();
  try {
    return await write(false);
  } catch (error) {
    if (!(error instanceof EntryMovedError)) throw error;
    throw new InvalidStateError('The entry moved to another scope while it was being written; try again', 'MOVED', ['input', 'id']);
  }
}
updateMutation('TOOL', 'updateTool', UpdateToolInput);
updateMutation('GUIDELINE', 'updateGuideline', UpdateGuidelineInput);
updateMutation('KNOWLEDGE', 'updateKnowledge', UpdateKnowledgeInput);

const activeMutation = (field: string, active: boolean, description: string) =>
  builder.mutationField(field, (t) =>
    t.field({
      type: EntryRef,
      description,
      args: { input: t.arg({ type: EntryIdInput, required: true, description: 'The entry.' }) },
      authScopes: (_root, { input }) => can('WRITE', 'entry', input.id, ENTRY_TYPENAMES, ['input', 'id']),
      errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'entry', description: 'The entry after the change.' } },
      resolve: (_root, { input }, ctx) =>
        setEntryActive(ctx, decodeId(String(input.id), ENTRY_TYPENAMES, ['input', 'id']), active, ctx.actor),
    }),
  );
activeMutation('deactivateEntry', false, 'Soft-deletes an entry: it leaves lists and lookups that exclude inactive entries. Idempotent.');
activeMutation('reactivateEntry', true, 'Undoes deactivateEntry. Idempotent.');


const ImportEntryInput = builder.inputRef<JsonVersionInput & {
  kind: EntryKind;
  scope: string | number;
  name: string;
  category?: string | null;
  priority?: number | null;
  memoryType?: MemoryType | null;
  importance?: number | null;
  tags?: string[] | null;
}>('ImportEntryInput').implement({
  description: 'One entry of a bulk import: the fields of its kind (as in addTool, addGuideline, addKnowledge).',
  fields: (t) => ({
    kind: t.field({ type: EntryKindEnum, required: true, description: 'Tool, guideline or knowledge.' }),
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    name: t.string({ required: true, description: 'Name (knowledge: title), unique per scope and kind.' }),
    category: t.string({ description: 'Category.' }),
    priority: t.int({ description: 'Guidelines: 0-100, default 50.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'Guidelines and knowledge: the memory type (default by kind).' }),
    importance: t.float({ description: 'How much it matters, 0-1 (default 0.5).' }),
    description: t.string({ description: 'Tools: what the tool does.' }),
    parameters: t.field({ type: 'JSON', description: 'Tools: JSON Schema of its parameters.' }),
    examples: t.field({ type: 'JSON', description: 'Tools and guidelines: examples.' }),
    constraints: t.string({ description: 'Tools: rules for using it.' }),
    content: t.string({ description: 'Guidelines and knowledge: the text (required for them).' }),
    rationale: t.string({ description: 'Guidelines: why it exists.' }),
    source: t.string({ description: 'Knowledge: where it came from.' }),
    confidence: t.float({ description: 'Knowledge: 0-1, default 1.' }),
    validUntil: t.field({ type: 'DateTime', description: 'Knowledge: when it expires.' }),
    tags: t.stringList({ description: 'Tag names; unknown names become free-form tags.' }),
  }),
});

const ImportEntriesInput = builder.inputType('ImportEntriesInput', {
  description: `Entries to add in bulk (at most ${LIMITS.importEntries} a call).`,
  fields: (t) => ({
    entries: t.field({ type: [ImportEntryInput], required: true, description: 'The entries.' }),
    author: t.string({ description: 'Who writes them (default: the X-Engram-Actor header).' }),
  }),
});

/** Imported entries read, and handed on, per list (see `entries` below). */
const IMPORT_READ_LIST = 200;

const ImportResultRef = builder.objectRef<{ ids: string[] }>('ImportedEntries').implement({
  description: 'The entries an import created.',
  fields: (t) => ({
    count: t.int({ description: 'How many were created.', resolve: (r) => r.ids.length }),
    // Prisma's limit of bound values per statement (its findUnique batching does not split, Prisma
    // issue #23957): with 500 of the 1,000 entries an import may return, a relation resolved entry
    // by entry (`scope`, `currentVersion`, a kind's `versions`) was one batched lookup past the
    // limit, an internal error. The entries are read a list at a time with the relations the
    // selection asks for (the plugin's `query`), and handed on a list per turn of the event loop, so
    // that what is still resolved entry by entry is batched a list at a time.
    entries: t.prismaField({
      type: [EntryRef],
      description: 'The new entries, in input order.',
      resolve: async (query, r, _args, ctx) => {
        const rows: Entry[] = [];
        for (const some of chunked(r.ids, IMPORT_READ_LIST)) rows.push(...(await ctx.db.entry.findMany({ ...query, where: { id: { in: some } } })));
        const byId = new Map(rows.map((e) => [e.id, e]));
        // (graphql-js completes a list whose items are promises: Pothos types the items as rows.)
        return inTurns(r.ids.flatMap((id) => byId.get(id) ?? []), IMPORT_READ_LIST) as unknown as Entry[];
      },
    }),
  }),
});

builder.mutationField('importEntries', (t) =>
  t.field({
    type: ImportResultRef,
    description: `Adds many entries at once, each with version 1, tags and search text, in one transaction: all of them or none. Every input is validated before anything is written.`,
    args: { input: t.arg({ type: ImportEntriesInput, required: true, description: 'The entries.' }) },
    // WRITE on every scope imported into; the count is checked first so a huge list costs nothing.
    authScopes: (_root, { input }) => ({
      canEach: input.entries.slice(0, LIMITS.importEntries).map((entry, i) =>
        can('WRITE', 'scope', entry.scope, SCOPE_TYPENAMES, ['input', 'entries', String(i), 'scope']).can),
    }),
    errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'imported', description: 'What was created.' } },
    resolve: async (_root, { input }, ctx) => {
      if (input.entries.length > LIMITS.importEntries) {
        throw new ValidationError([{ path: ['input', 'entries'], message: `must list at most ${LIMITS.importEntries} entries` }]);
      }
      const author = await ctx.author(input.author, ['input', 'author']);
      // Every id decoded before any text is screened: a bad one is named first, as when each entry did both at once.
      const scopeIds = input.entries.map((entry, i) => decodeId(String(entry.scope), SCOPE_TYPENAMES, ['input', 'entries', String(i), 'scope']));
      const versions = await screenVersions(
        ctx.db,
        input.entries.map((entry, i) => ({
          scopeId: scopeIds[i]!,
          version: versionFieldsOf(entry),
          path: ['input', 'entries', String(i)],
          name: { field: 'name', value: entry.name },
          tags: entry.tags ?? [],
        })),
      );
      const entries = input.entries.map((entry, i) => {
        const { kind, name, category, priority, memoryType, importance } = entry;
        return { kind, scopeId: scopeIds[i]!, name, category, priority, memoryType, importance, tags: entry.tags ?? [], author, version: versions[i]! };
      });
      const ids = await addEntries(ctx, entries);
      return { ids };
    },
  }),
);
