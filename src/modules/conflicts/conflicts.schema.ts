import { builder } from '../../graphql/builder.ts';
import { MEMBER, can } from '../../graphql/rules.ts';
import { screenText, screenVersion } from '../redaction/redaction.service.ts';
import { scopeOfTarget } from '../identity/targets.ts';
import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { InvalidStateError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { EntryKindEnum } from '../entries/entry-enums.ts';
import { EntryRef, EntryVersionRef, UpdateResultRef, versionFieldsOf, type JsonVersionInput } from '../entries/entries.schema.ts';
import { conflictWhere, resolveConflict, type ConflictFilter } from './conflicts.service.ts';
import { FENCING_DESCRIPTION, FencingInput, fencedBy } from '../leases/leases.schema.ts';

export const ResolutionEnum = builder.enumType('ConflictResolution', {
  description: 'How a conflict was settled.',
  values: {
    KEPT_CURRENT: { description: 'The version that was current when the conflicting write arrived was adopted.' },
    TOOK_INCOMING: { description: 'The conflicting (incoming) version was adopted.' },
    MERGED: { description: 'Content merged by the resolver was adopted.' },
  },
});

const StrategyEnum = builder.enumType('ConflictResolutionStrategy', {
  description: 'How to settle a conflict. Nothing is deleted: adopted content that is not current becomes a new version.',
  values: {
    KEEP_CURRENT: { description: 'Adopt version A, the one that was current when the conflicting write arrived.' },
    TAKE_INCOMING: { description: 'Adopt version B, the conflicting write.' },
    MERGE: { description: 'Adopt the content given in `merged` (fields left out come from version B).' },
  },
});

export const ConflictRef = builder.prismaNode('Conflict', {
  description: 'Two versions of one entry written concurrently. Both are kept; a resolution settles which content stands.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    detectedAt: t.expose('detectedAt', { type: 'DateTime', description: 'When the conflicting write committed.' }),
    resolved: t.exposeBoolean('resolved', { description: 'True once settled.' }),
    resolution: t.field({
      type: ResolutionEnum,
      nullable: true,
      description: 'How it was settled; null while open.',
      resolve: (c) => c.resolution as 'KEPT_CURRENT' | 'TOOK_INCOMING' | 'MERGED' | null,
    }),
    note: t.exposeString('note', { nullable: true, description: "The resolver's note." }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true, description: 'When it was settled.' }),
    resolvedBy: t.exposeString('resolvedBy', { nullable: true, description: 'Who settled it.' }),
  }),
});

builder.prismaObjectFields(ConflictRef, (t) => ({
  entry: t.relation('entry', { type: EntryRef, description: 'The entry both versions belong to.' }),
  versionA: t.relation('versionA', {
    type: EntryVersionRef,
    description: 'The version that was current when the conflicting write arrived ("current").',
  }),
  versionB: t.relation('versionB', { type: EntryVersionRef, description: 'The conflicting write ("incoming"); flagged.' }),
  resolutionVersion: t.relation('resolutionVersion', {
    type: EntryVersionRef,
    nullable: true,
    description: 'The version the resolution wrote; null when the adopted content was already current.',
  }),
}));

const ConflictFilterInput = builder.inputType('ConflictFilter', {
  description: 'Narrows the list of conflicts. All conditions must hold.',
  fields: (t) => ({
    scope: t.id({ description: 'Only conflicts of entries in this scope.' }),
    includeDescendants: t.boolean({ description: 'With `scope`: also the scopes below it (default false).' }),
    resolved: t.boolean({ description: 'Only resolved (true) or only open (false) conflicts.' }),
    kind: t.field({ type: EntryKindEnum, description: 'Only conflicts of entries of this kind.' }),
  }),
});

function filterOf(filter: { scope?: string | number | null; includeDescendants?: boolean | null; resolved?: boolean | null; kind?: string | null } | null | undefined): ConflictFilter {
  return {
    scopeId: filter?.scope != null ? decodeId(String(filter.scope), SCOPE_TYPENAMES, ['filter', 'scope']) : null,
    includeDescendants: filter?.includeDescendants ?? false,
    resolved: filter?.resolved ?? null,
    kind: (filter?.kind as ConflictFilter['kind']) ?? null,
  };
}

/** The filter's conflicts among the entries of scopes the caller reads. */
async function readableConflicts(ctx: Context, filter: Parameters<typeof filterOf>[0]): Promise<Prisma.ConflictWhereInput> {
  const where = conflictWhere(filterOf(filter));
  const scope = await ctx.access.scopeWhere();
  return scope ? { AND: [where, { entry: { scope } }] } : where;
}

builder.queryField('conflicts', (t) =>
  t.prismaConnection(
    {
      type: ConflictRef,
      cursor: 'id',
      ...PAGING,
      description: 'Conflicts of entries the caller may read, newest first.',
      args: { filter: t.arg({ type: ConflictFilterInput, description: 'Conditions.' }) },
      authScopes: MEMBER,
      totalCount: async (_parent, args, ctx) => ctx.db.conflict.count({ where: await readableConflicts(ctx, args.filter) }),
      resolve: async (query, _root, args, ctx) =>
        ctx.db.conflict.findMany({ ...query, where: await readableConflicts(ctx, args.filter), orderBy: { id: 'desc' } }),
    },
    { description: 'Page of conflicts.' },
    { description: 'A conflict.' },
  ),
);

builder.queryField('conflict', (t) =>
  t.prismaField({
    type: ConflictRef,
    nullable: true,
    description: 'A conflict with both versions side by side; null when there is none or the caller may not read its entry.',
    args: { id: t.arg.id({ required: true, description: 'Global ID of the conflict.' }) },
    authScopes: (_root, args) => can('READ', 'conflict', args.id, ['Conflict'], ['id'], { quiet: true }),
    unauthorizedResolver: () => null,
    resolve: (query, _root, args, ctx) =>
      ctx.db.conflict.findUnique({ ...query, where: { id: decodeId(String(args.id), ['Conflict'], ['id']) } }),
  }),
);

const MergedContentInput = builder.inputRef<JsonVersionInput>('MergedContentInput').implement({
  description: "Merged content for MERGE, using the fields of the entry's kind; fields left out come from version B.",
  fields: (t) => ({
    description: t.string({ description: 'Tools: what the tool does.' }),
    parameters: t.field({ type: 'JSON', description: 'Tools: JSON Schema of its parameters.' }),
    examples: t.field({ type: 'JSON', description: 'Tools and guidelines: examples.' }),
    constraints: t.string({ description: 'Tools: rules for using it.' }),
    content: t.string({ description: 'Guidelines and knowledge: the text.' }),
    rationale: t.string({ description: 'Guidelines: why it exists.' }),
    source: t.string({ description: 'Knowledge: where it came from.' }),
    confidence: t.float({ description: 'Knowledge: 0-1.' }),
    validUntil: t.field({ type: 'DateTime', description: 'Knowledge: when it expires.' }),
  }),
});

const ResolveConflictInput = builder.inputType('ResolveConflictInput', {
  description: 'Settles a conflict.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The conflict.' }),
    strategy: t.field({ type: StrategyEnum, required: true, description: 'Which content stands.' }),
    merged: t.field({ type: MergedContentInput, description: 'For MERGE: the merged content.' }),
    note: t.string({ description: 'Why it was settled this way.' }),
    resolvedBy: t.string({ description: 'Who settles it (default: the X-Engram-Actor header).' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const ResolutionRef = builder.objectRef<Awaited<ReturnType<typeof resolveConflict>>>('ConflictResolutionResult').implement({
  description: 'A settled conflict and the version its resolution wrote, if any.',
  fields: (t) => ({
    conflict: t.field({ type: ConflictRef, description: 'The conflict, now resolved.', resolve: (r) => r.conflict }),
    version: t.field({
      type: EntryVersionRef,
      nullable: true,
      description: 'The version written to adopt content that was not current; null when none was needed.',
      resolve: (r) => r.version,
    }),
  }),
});

builder.mutationField('resolveConflict', (t) =>
  t.field({
    type: ResolutionRef,
    description: 'Settles a conflict: keep the current version, take the incoming one, or merge. Resolving twice is an InvalidStateError.',
    args: { input: t.arg({ type: ResolveConflictInput, required: true, description: 'The resolution.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'conflict', input.id, ['Conflict'], ['input', 'id']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'resolution', description: 'What was settled.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ['Conflict'], ['input', 'id']);
      const scopeId = (await scopeOfTarget(ctx.db, ctx.access, 'conflict', id)) ?? null;
      return resolveConflict(fencedBy(ctx, input.fencing), {
        id,
        strategy: input.strategy,
        merged: input.merged ? await screenVersion(ctx.db, scopeId, versionFieldsOf(input.merged), ['input', 'merged']) : null,
        note: await screenText(ctx.db, scopeId, ['input', 'note'], input.note),
        resolvedBy: await ctx.author(input.resolvedBy, ['input', 'resolvedBy']),
      });
    },
  }),
);


// Conflict fields of entries and update results live here, beside the Conflict type.
builder.prismaInterfaceFields(EntryRef, (t) => ({
  hasUnresolvedConflicts: t.boolean({
    description: 'True while the entry has a conflict nobody has resolved yet: read its content with care.',
    select: { _count: { select: { conflicts: { where: { resolved: false } } } } },
    resolve: (entry) => entry._count.conflicts > 0,
  }),
  unresolvedConflictCount: t.int({
    description: 'Number of unresolved conflicts of the entry.',
    select: { _count: { select: { conflicts: { where: { resolved: false } } } } },
    resolve: (entry) => entry._count.conflicts,
  }),
  conflicts: t.relation('conflicts', {
    type: ConflictRef,
    description: 'Conflicts of the entry, newest first.',
    args: { resolved: t.arg.boolean({ description: 'Only resolved (true) or only open (false) conflicts.' }) },
    query: (args) => ({ where: args.resolved != null ? { resolved: args.resolved } : {}, orderBy: { id: 'desc' } }),
  }),
}));

builder.objectField(UpdateResultRef, 'conflict', (t) =>
  t.field({
    type: ConflictRef,
    nullable: true,
    description: 'The conflict record this write created, if it conflicted.',
    resolve: (r) => r.conflict,
  }),
);
