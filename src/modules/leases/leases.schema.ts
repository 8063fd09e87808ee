import { builder } from '../../graphql/builder.ts';
import { PAGING } from '../../graphql/paging.ts';
import type { LeasePayload } from '../../infra/events.ts';
import { AFTER_DESCRIPTION, CURSOR_DESCRIPTION, delivered, scopeTopicEvents } from '../events/subscription-guard.ts';
import { InvalidStateError, NotFoundError, PermissionDeniedError, ValidationError } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { MEMBER, can } from '../../graphql/rules.ts';
import { LeaseHeldError, type LeaseHolding } from '../../domain/errors.ts';
import { UserErrorRef } from '../../graphql/errors.ts';
import { LEASE_TTL, LEASE_WAIT_MAX, checkoutWaiting, fenceGuard, forceUnlock, liveLeasesWhere, release, renew, type LeaseMode } from './leases.service.ts';
import type { Context } from '../../context.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { scopeById } from '../scopes/scopes.service.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';

const LeaseModeEnum = builder.enumType('LeaseMode', {
  description: 'How a lease holds its resource.',
  values: {
    EXCLUSIVE: { description: 'Alone: no other lease of any mode while it lasts.' },
    SHARED: { description: 'With other SHARED leases; no EXCLUSIVE one while it lasts.' },
  },
});

const LeaseRef = builder.prismaObject('Lease', {
  description: 'A lease on a named resource of a scope (a file path, a task, any key), held by an agent until it is released or expires.',
  fields: (t) => ({
    // By its id rather than through the lease's row: a released lease's row is gone.
    scope: t.field({ type: ScopeRef, description: 'The scope the resource belongs to.', resolve: (l, _args, ctx) => scopeById(ctx.db, l.scopeId, ['scope']) }),
    resource: t.exposeString('resource', { description: 'The resource, as named at checkout.' }),
    holder: t.exposeString('holder', { description: 'Who holds it (the actor of the checkout).' }),
    mode: t.field({ type: LeaseModeEnum, description: 'How it is held.', resolve: (l) => l.mode as LeaseMode }),
    fencingToken: t.exposeInt('token', {
      description: 'Grows with every grant on the resource: a write carrying an older token than the current holder\'s comes from a holder that lost the lease.',
    }),
    acquiredAt: t.expose('acquiredAt', { type: 'DateTime', description: 'When it was granted.' }),
    renewedAt: t.expose('renewedAt', { type: 'DateTime', description: 'When it was last granted or renewed.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When it ends unless renewed; from then on it is not held.' }),
  }),
});

const LeaseHoldingRef = builder.objectRef<LeaseHolding>('LeaseHolding').implement({
  description: 'A lease that stands in the way of a checkout.',
  fields: (t) => ({
    holder: t.exposeString('holder', { description: 'Who holds it.' }),
    mode: t.field({ type: LeaseModeEnum, description: 'How it is held.', resolve: (h) => h.mode as LeaseMode }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When it ends unless renewed.' }),
  }),
});

builder.objectType(LeaseHeldError, {
  name: 'LeaseHeldError',
  description: 'The resource is held by others in a mode that excludes this checkout. Nothing was written.',
  interfaces: [UserErrorRef],
  fields: (t) => ({
    holders: t.field({ type: [LeaseHoldingRef], description: 'The leases in the way, the first to end first: at most 20 (the message says how many more).', resolve: (e) => e.holders }),
  }),
});

const LeaseTargetFields = (t: PothosInput) => ({
  scope: t.id({ required: true, description: 'The scope the resource belongs to.' }),
  resource: t.string({ required: true, description: 'The resource: a file path, a task id, any key (1 to 200 characters).' }),
});
type PothosInput = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

const CheckoutLeaseInput = builder.inputType('CheckoutLeaseInput', {
  description: 'Which resource to check out, how, and for how long.',
  fields: (t) => ({
    ...LeaseTargetFields(t),
    mode: t.field({ type: LeaseModeEnum, required: true, defaultValue: 'EXCLUSIVE', description: 'EXCLUSIVE (default) or SHARED.' }),
    ttlSeconds: t.int({ required: true, description: `Seconds until it expires unless renewed (${LEASE_TTL.min} to ${LEASE_TTL.max}).` }),
    waitSeconds: t.int({
      required: true, defaultValue: 0,
      description: `While others hold it, wait up to this many seconds (0 to ${LEASE_WAIT_MAX}, default 0: answer at once) before answering LeaseHeldError.`,
    }),
  }),
});

const RenewLeaseInput = builder.inputType('RenewLeaseInput', {
  description: "The caller's lease to extend, and for how long from now.",
  fields: (t) => ({
    ...LeaseTargetFields(t),
    fencingToken: t.int({ description: 'Only the grant of this token (a newer grant to the same holder is left alone).' }),
    ttlSeconds: t.int({ required: true, description: `Seconds from now (${LEASE_TTL.min} to ${LEASE_TTL.max}).` }),
  }),
});

const ReleaseLeaseInput = builder.inputType('ReleaseLeaseInput', {
  description: "The caller's lease to check in.",
  fields: (t) => ({
    ...LeaseTargetFields(t),
    fencingToken: t.int({ description: 'Only the grant of this token.' }),
  }),
});

const ForceUnlockInput = builder.inputType('ForceUnlockInput', {
  description: 'The resource whose leases an admin ends.',
  fields: (t) => ({ ...LeaseTargetFields(t) }),
});

const target = (ctx: Context, input: { scope: string | number; resource: string }) => ({
  scopeId: decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']),
  resource: input.resource,
  holder: ctx.actor,
});

const LEASE_ERRORS = [NotFoundError, ValidationError, PermissionDeniedError] as const;

builder.mutationFields((t) => ({
  checkoutLease: t.field({
    type: LeaseRef,
    description:
      'Checks a resource out for the caller (its actor is the holder) with the next fencing token of the resource, or answers LeaseHeldError. A lease past its time to live is no longer held: a dead agent\'s lease frees itself.',
    args: { input: t.arg({ type: CheckoutLeaseInput, required: true, description: 'What and how.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...LEASE_ERRORS, InvalidStateError, LeaseHeldError], dataField: { name: 'lease', description: 'The lease granted.' } },
    resolve: async (_root, { input }, ctx) => {
      const at = target(ctx, input);
      // A checkout names the resource for good (its row keeps the fencing tokens): a name, refused rather than redacted.
      await screenSecrets(ctx.db, at.scopeId, [{ path: ['input', 'resource'], value: at.resource, isName: true }]);
      // Yoga's context carries the HTTP request (none over WebSocket): its signal ends the wait when the client goes away.
      return checkoutWaiting(ctx, at, input.mode, input.ttlSeconds, input.waitSeconds, { gone: (ctx as { request?: Request }).request?.signal, stopping: ctx.stopping });
    },
  }),
  renewLease: t.field({
    type: LeaseRef,
    description: "Extends the caller's live lease (a heartbeat). An expired lease is InvalidStateError EXPIRED: check it out again.",
    args: { input: t.arg({ type: RenewLeaseInput, required: true, description: 'Which lease, and for how long.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...LEASE_ERRORS, InvalidStateError], dataField: { name: 'lease', description: 'The lease as renewed.' } },
    resolve: (_root, { input }, ctx) => renew(ctx, target(ctx, input), input.fencingToken ?? null, input.ttlSeconds),
  }),
  releaseLease: t.field({
    type: LeaseRef,
    description: "Checks the caller's lease in.",
    args: { input: t.arg({ type: ReleaseLeaseInput, required: true, description: 'Which lease.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...LEASE_ERRORS, InvalidStateError], dataField: { name: 'lease', description: 'The lease as it was.' } },
    resolve: (_root, { input }, ctx) => release(ctx, target(ctx, input), input.fencingToken ?? null),
  }),
  forceUnlock: t.field({
    type: 'Int',
    description: 'Ends every lease on a resource, whoever holds it (ADMIN on the scope): for a stuck agent. The fencing token keeps growing, so the old holder\'s writes stay refused.',
    args: { input: t.arg({ type: ForceUnlockInput, required: true, description: 'Which resource.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...LEASE_ERRORS], dataField: { name: 'ended', description: 'How many live leases it ended.' } },
    resolve: (_root, { input }, ctx) => forceUnlock(ctx, decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']), input.resource),
  }),
}));

builder.queryField('leases', (t) =>
  t.prismaConnection(
    {
      type: LeaseRef,
      cursor: 'id',
      ...PAGING,
      // A list cut at 1,000 leases said nothing of the rest (a scale sweep held 2,000 in one scope).
      description: 'The live leases of a scope (of one resource, when named), the first to end first.',
      args: {
        scope: t.arg.id({ required: true, description: 'The scope.' }),
        resource: t.arg.string({ description: 'Only this resource.' }),
      },
      authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope']),
      totalCount: (_parent, args, ctx) => ctx.db.lease.count({ where: liveLeases(args) }),
      resolve: (query, _root, args, ctx) => ctx.db.lease.findMany({ ...query, where: liveLeases(args), orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }] }),
    },
    { description: 'Page of live leases.' },
    { description: 'A live lease.' },
  ),
);

/** The leases of the scope (and resource) that have not run out. */
function liveLeases(args: { scope: string | number; resource?: string | null }) {
  return liveLeasesWhere(decodeId(String(args.scope), SCOPE_TYPENAMES, ['scope']), args.resource ?? null);
}

const LeaseEventTypeEnum = builder.enumType('LeaseEventType', {
  description: 'What happened to a lease.',
  values: {
    GRANTED: { description: 'A checkout was granted.' },
    RENEWED: { description: 'Its holder extended it.' },
    RELEASED: { description: 'Its holder checked it in.' },
    UNLOCKED: { description: 'An admin ended every lease on the resource.' },
  },
});

const LeaseEventRef = builder.objectRef<LeasePayload>('LeaseEvent').implement({
  description: 'A lease of a resource changed: granted, renewed, released or force-unlocked. (A lease that runs out is not announced: it simply stops being held at `expiresAt`.)',
  fields: (t) => ({
    type: t.field({ type: LeaseEventTypeEnum, description: 'What happened.', resolve: (e) => e.type }),
    resource: t.exposeString('resource', { description: 'The resource.' }),
    holder: t.exposeString('holder', { nullable: true, description: 'Whose lease (null for UNLOCKED).' }),
    mode: t.field({ type: LeaseModeEnum, nullable: true, description: 'How it is held (null for UNLOCKED).', resolve: (e) => e.mode as LeaseMode | null }),
    fencingToken: t.exposeInt('token', { nullable: true, description: 'The grant\'s fencing token (null for UNLOCKED).' }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When it ends unless renewed (null for UNLOCKED).', resolve: (e) => e.expiresAt }),
    occurredAt: t.field({ type: 'DateTime', description: 'When it was committed.', resolve: (e) => e.occurredAt }),
    cursor: t.exposeString('cursor', { description: CURSOR_DESCRIPTION }),
  }),
});

builder.subscriptionField('leaseChanged', (t) =>
  t.field({
    type: LeaseEventRef,
    description: 'Changes of the leases of a scope (of one resource, when named), each once it has committed: holders and waiters learn when to act.',
    args: {
      scope: t.arg.id({ required: true, description: 'The scope to watch.' }),
      resource: t.arg.string({ description: 'Only this resource.' }),
      after: t.arg.string({ description: AFTER_DESCRIPTION }),
    },
    authScopes: MEMBER,
    subscribe: (_root, a, ctx) => scopeTopicEvents(ctx, 'lease', a.scope, a.after, (e) => a.resource == null || e.resource === a.resource),
    resolve: (event) => delivered(event),
  }),
);

/** A write's fencing: the lease it is made under. */
export interface FencingShape {
  scope: string | number;
  resource: string;
  token: number;
}

export const FencingInput = builder.inputRef<FencingShape>('FencingInput').implement({
  description:
    'The lease a write is made under: the write happens only while the caller holds that grant (the fencing token of its checkout), else it is refused with InvalidStateError STALE_FENCING_TOKEN and writes nothing.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope of the leased resource.' }),
    resource: t.string({ required: true, description: 'The leased resource.' }),
    token: t.int({ required: true, description: "The lease's fencingToken." }),
  }),
});

/** The description of a write input's `fencing` field (every fenced write says the same). */
export const FENCING_DESCRIPTION = 'Write only under this lease (see checkoutLease): a holder whose lease ended is refused.';

/** The write dependencies of a resolver: the context, guarded by the lease when the input names one. */
export function fencedBy<C extends Context>(ctx: C, fencing: FencingShape | null | undefined): C {
  if (!fencing) return ctx;
  const scopeId = decodeId(String(fencing.scope), SCOPE_TYPENAMES, ['input', 'fencing', 'scope']);
  // A copy, not the request's context: only this write is guarded.
  return { ...ctx, guard: fenceGuard({ scopeId, resource: fencing.resource, token: fencing.token, holder: ctx.actor }) };
}
