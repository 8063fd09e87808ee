import { builder } from '../../graphql/builder.ts';
import { PermissionDeniedError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { ADMIN, can } from '../../graphql/rules.ts';
import { DeletionReceiptRef } from '../deletion/deletion.schema.ts';
import { purge, type PurgeResult } from './purge.service.ts';
import type { PurgePayload } from '../../infra/events.ts';
import { AFTER_DESCRIPTION, CURSOR_DESCRIPTION, delivered, guardSubscription } from '../events/subscription-guard.ts';
import { MemoryTypeEnum } from '../entries/entry-enums.ts';
import { MEMORY_TYPES, type MemoryType } from '../entries/memory-types.ts';
import { DECAY } from '../search/relevance.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { lifetimesIn, setMemoryPolicy, type Lifetimes } from './policies.service.ts';

const LifetimeRef = builder.objectRef<Lifetimes & { memoryType: MemoryType }>('MemoryLifetime').implement({
  description: 'How long items of one memory type live in a scope: the nearest policy of its chain, else the default.',
  fields: (t) => ({
    memoryType: t.field({ type: MemoryTypeEnum, description: 'The memory type.', resolve: (l) => l.memoryType }),
    ttlHours: t.exposeInt('ttlHours', { nullable: true, description: 'Hours after its last change an item counts as expired (null: never).' }),
    retentionDays: t.exposeInt('retentionDays', { nullable: true, description: 'Days after its last change the purge erases an item (null: kept).' }),
    halfLifeHours: t.int({
      resolve: (l) => l.halfLifeHours ?? DECAY.halfLifeHours[l.memoryType],
      description:
        'Hours for its decay in relevance to halve. Without a policy, knowledge and guidelines of category conversation, decision, finding or preference decay by their category (168, 720, 336, 1440).',
    }),
  }),
});

builder.prismaInterfaceFields(ScopeRef, (t) => ({
  memoryLifetimes: t.field({
    type: [LifetimeRef],
    description: 'The lifetime of each memory type here (policies of this scope and its ancestors, else the defaults: episodic kept 90 days).',
    resolve: async (scope, _args, ctx) => {
      const lifetimes = await lifetimesIn(ctx.db, scope.id);
      return MEMORY_TYPES.map((memoryType) => ({ memoryType, ...lifetimes[memoryType] }));
    },
  }),
}));

const SetMemoryPolicyInput = builder.inputType('SetMemoryPolicyInput', {
  description: "A scope's own lifetimes for one memory type (null fields take the parent's; all null removes the policy).",
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope; the policy covers it and what is below it (unless they set their own).' }),
    memoryType: t.field({ type: MemoryTypeEnum, required: true, description: 'The memory type.' }),
    ttlHours: t.int({ description: 'Hours after its last change an item counts as expired (1-1000000).' }),
    retentionDays: t.int({ description: 'Days after its last change the purge erases an item (1-100000).' }),
    halfLifeHours: t.int({ description: 'Hours for the decay of an item in relevance to halve (1-1000000).' }),
  }),
});

builder.mutationField('setMemoryPolicy', (t) =>
  t.field({
    type: ScopeRef,
    description: 'Sets how long items of a memory type live, and how fast they decay in relevance, in a scope and below (ADMIN on the scope).',
    args: { input: t.arg({ type: SetMemoryPolicyInput, required: true, description: 'Scope, memory type and lifetimes.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...WRITE_ERRORS], dataField: { name: 'scope', description: 'The scope, with its lifetimes.' } },
    resolve: async (_root, { input }, ctx) => {
      const scopeId = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
      return setMemoryPolicy(ctx.db, { scopeId, memoryType: input.memoryType, ttlHours: input.ttlHours ?? null, retentionDays: input.retentionDays ?? null, halfLifeHours: input.halfLifeHours ?? null });
    },
  }),
);

const PurgeRunRef = builder.objectRef<PurgeResult>('PurgeRun').implement({
  description: 'What one run of the retention purge erased and archived (or, in a dry run, would).',
  fields: (t) => ({
    receipts: t.field({ type: [DeletionReceiptRef], description: 'One receipt per transaction of erased entries (none when nothing was due).', resolve: (r) => r.receipts }),
    archivedSessions: t.int({ description: 'Sessions archived for having ended 30 days ago.', resolve: (r) => r.archivedSessionIds.length }),
  }),
});

const PurgeMemoryInput = builder.inputType('PurgeMemoryInput', {
  description: 'A run of the retention purge.',
  fields: (t) => ({ dryRun: t.boolean({ description: 'Only say what would go (default false).' }) }),
});

builder.mutationField('purgeMemory', (t) =>
  t.field({
    type: PurgeRunRef,
    description:
      "Runs the retention purge now (admins of everything): entries whose memory type's retention has passed since their last change are erased with receipts; sessions that ended 30 days ago are archived.",
    args: { input: t.arg({ type: PurgeMemoryInput, required: true, description: 'The run.' }) },
    authScopes: ADMIN,
    // Admins only, no input to refuse, and sessions that change under the run are skipped.
    errors: { types: [PermissionDeniedError], dataField: { name: 'run', description: 'What the run did.' } },
    resolve: (_root, { input }, ctx) => purge(ctx, { now: new Date(), dryRun: input.dryRun ?? false, principal: ctx.caller.principal }),
  }),
);

const PurgedEventRef = builder.objectRef<PurgePayload>('MemoryPurgedEvent').implement({
  description: 'A step of the scheduled retention purge, announced by the transaction that made it: a batch of erased entries (one receipt) or one archived session.',
  fields: (t) => ({
    receipts: t.field({
      type: [DeletionReceiptRef],
      description: 'The receipt of what it erased (none for an archived session).',
      resolve: (e, _args, ctx) => ctx.db.deletionReceipt.findMany({ where: { id: { in: e.receiptIds } }, orderBy: { id: 'asc' } }),
    }),
    erasedEntries: t.exposeInt('erasedEntries', { description: 'Entries erased.' }),
    archivedSessions: t.exposeInt('archivedSessions', { description: 'Sessions archived for having ended 30 days ago (0 or 1).' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the step was made.', resolve: (e) => e.occurredAt }),
    cursor: t.exposeString('cursor', { description: CURSOR_DESCRIPTION }),
  }),
});

builder.subscriptionField('memoryPurged', (t) =>
  t.field({
    type: PurgedEventRef,
    description: 'The steps of the scheduled retention purge, each announced in its own transaction (admins of everything).',
    authScopes: ADMIN,
    args: { after: t.arg.string({ description: AFTER_DESCRIPTION }) },
    subscribe: (_root, a, ctx) =>
      guardSubscription(ctx, ctx.bus.subscribe('purge', 'all', a.after), { key: 'everything', stillAllowed: async (access) => access.everything, mayDeliver: async () => true }),
    resolve: (event) => delivered(event),
  }),
);
