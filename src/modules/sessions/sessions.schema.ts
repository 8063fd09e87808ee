import { readableOwners } from '../identity/state-access.ts';
import { FencingInput, fencedBy } from '../leases/leases.schema.ts';
import { builder } from '../../graphql/builder.ts';
import { MemoryTypeEnum } from '../entries/entry-enums.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import { MEMBER, can } from '../../graphql/rules.ts';
import { InvalidStateError, NAMING_ERRORS, ValidationError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING, namedConnection } from '../../graphql/paging.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { Prisma, SessionEvent } from '../../generated/sqlite/client.ts';
import { EntryRef } from '../entries/entries.schema.ts';
import { SessionRef, SessionStatusEnum } from '../scopes/scopes.schema.ts';
import {
  appendEvent,
  endTurn,
  transitionSession,
  type LifecycleContent,
  type SessionEventType,
  type Transition,
  type TransitionResult,
} from './sessions.service.ts';
import {
  fullKey,
  listState,
  parseJson,
  ownersOfSession,
  resolveState,
  restoreState,
  setState,
  type RankedStateKey,
  type ResolvedState,
  type StateNamespace,
} from './state.service.ts';

export const SessionEventTypeEnum = builder.enumType('SessionEventType', {
  description: 'Kind of a session event.',
  values: {
    MESSAGE: { description: 'User input or agent text.' },
    ACTION: { description: 'An agent action.' },
    TOOL_CALL: { description: 'A tool invocation with its inputs and outputs.' },
    REFLECTION: { description: 'Agent reasoning or self-assessment.' },
    STATE_CHANGE: { description: 'An explicit state update (also: the end of a turn).' },
    LIFECYCLE: { description: 'A status transition, written by the server (not appendable).' },
  },
});

const StateNamespaceEnum = builder.enumType('StateNamespace', {
  description: 'Namespace of a state key, by its prefix. Reads resolve temp > session > user > app > project.',
  values: {
    TEMP: { description: '`temp:` keys: live until the session ends its current turn.' },
    SESSION: { description: '`session:` keys: live until the session ends.' },
    USER: { description: "`user:` keys: the session's user's, across sessions. Only the user's own principal (or a service acting for it) and admins of everything reach them." },
    APP: { description: "`app:` keys: the session's application's. Only the application's own principal (or a service acting for it) and admins of everything reach them." },
    PROJECT: { description: "`project:` keys: the session's project's. Writing needs ADMIN on the project." },
  },
});

const TransitionRef = builder.objectRef<LifecycleContent>('SessionTransition').implement({
  description: 'A status change of a session.',
  fields: (t) => ({
    from: t.field({ type: SessionStatusEnum, nullable: true, description: 'Status before; null for the start.', resolve: (c) => c.from }),
    to: t.field({ type: SessionStatusEnum, description: 'Status after.', resolve: (c) => c.to }),
    deactivatedEntries: t.int({
      description: 'Entries an ending SCRATCH session deactivated.',
      resolve: (c) => c.deactivated ?? 0,
    }),
  }),
});

export const SessionEventRef = builder.prismaNode('SessionEvent', {
  description: "One event of a session's log.",
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    sequence: t.exposeInt('sequence', { description: 'Position in the log, from 1, gapless, in commit order.' }),
    cursor: t.string({
      nullable: true,
      description: "Delivered by the sessionEvent subscription: the event's position in the change feed (pass it as `after` to resume). Null when read by a query.",
      resolve: (e) => (e as { cursor?: string }).cursor ?? null,
    }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'Always EPISODIC: what happened.', resolve: () => 'EPISODIC' as const }),
    type: t.field({ type: SessionEventTypeEnum, description: 'What kind of event.', resolve: (e) => e.type as SessionEventType }),
    actor: t.exposeString('actor', { description: 'Who: user, system or agent:<id>.' }),
    content: t.field({ type: 'JSON', nullable: true, description: 'The event itself (JSON).', resolve: (e) => parseJson(e.content) }),
    stateDelta: t.field({
      type: 'JSON',
      nullable: true,
      description: 'State keys this event wrote, merged into the state in its transaction (null values deleted keys).',
      resolve: (e) => parseJson(e.stateDelta),
    }),
    transition: t.field({
      type: TransitionRef,
      nullable: true,
      description: 'For LIFECYCLE events: the status change.',
      resolve: (e) => (e.type === 'LIFECYCLE' ? (parseJson(e.content) as LifecycleContent) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was appended.' }),
    session: t.relation('session', { type: SessionRef, description: 'The session.' }),
  }),
});

builder.objectField(TransitionRef, 'promotedEntries', (t) =>
  t.field({
    type: [EntryRef],
    description: 'The entries a completing SCRATCH session promoted to its project, as they are now.',
    resolve: async (c, _args, ctx) =>
      c.promoted?.length ? ctx.db.entry.findMany({ where: { id: { in: c.promoted } }, orderBy: { id: 'asc' } }) : [],
  }),
);

export const StateKeyRef = builder.prismaNode('StateKey', {
  description: 'A namespaced state key with its current value. Every write appended a version (see `history`).',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    key: t.string({ description: 'The full key, prefix included, e.g. `user:theme`.', resolve: (k) => fullKey(k.namespace as StateNamespace, k.name) }),
    name: t.exposeString('name', { description: 'The key without its prefix.' }),
    namespace: t.field({ type: StateNamespaceEnum, description: 'Its namespace.', resolve: (k) => k.namespace as StateNamespace }),
    memoryType: t.field({
      type: MemoryTypeEnum,
      description: 'WORKING for temp: and session: keys; SEMANTIC for user:, app: and project: keys (preferences and settings that outlive a session).',
      resolve: (k) => (k.namespace === 'TEMP' || k.namespace === 'SESSION' ? 'WORKING' : 'SEMANTIC'),
    }),
    owner: t.string({
      description: 'Whose key: the session ID (temp:, session:), the user id, the application name, or the project ID.',
      resolve: (k) => k.owner,
    }),
    value: t.field({ type: 'JSON', nullable: true, description: 'Current value; null when deleted.', resolve: (k) => parseJson(k.value) }),
    deleted: t.exposeBoolean('deleted', { description: 'True when the newest write deleted it.' }),
    version: t.exposeInt('version', { description: 'Number of the newest write, from 1.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'First write.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Newest write.' }),
    updatedBy: t.exposeString('updatedBy', { nullable: true, description: 'Author of the newest write.' }),
    history: t.relatedConnection(
      'versions',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Every write, newest first.',
        query: () => ({ orderBy: { version: 'desc' } }),
      },
      { name: 'StateKeyHistoryConnection', description: 'Page of writes.' },
      { name: 'StateKeyHistoryEdge', description: 'A write.' },
    ),
  }),
});

builder.prismaObject('StateVersion', {
  description: 'One write of a state key: a value, a deletion, or a restore.',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Its number, from 1.' }),
    value: t.field({ type: 'JSON', nullable: true, description: 'The value written; null for a deletion.', resolve: (v) => parseJson(v.value) }),
    deleted: t.exposeBoolean('deleted', { description: 'This write deleted the key.' }),
    restoredFrom: t.exposeInt('restoredFrom', { nullable: true, description: 'The version this write restored, if it was a restore.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who.' }),
    event: t.relation('event', { type: SessionEventRef, nullable: true, description: 'The session event whose state delta wrote it.' }),
  }),
});

const ResolvedStateRef = builder.objectRef<ResolvedState>('ResolvedState').implement({
  description: 'A key read through a session: its value and the namespace that supplied it.',
  fields: (t) => ({
    key: t.string({ description: 'The key as asked for.', resolve: (r) => r.key }),
    namespace: t.field({ type: StateNamespaceEnum, description: 'The namespace that supplied the value.', resolve: (r) => r.entry.namespace as StateNamespace }),
    value: t.field({ type: 'JSON', nullable: true, description: 'The value.', resolve: (r) => parseJson(r.entry.value) }),
    entry: t.field({ type: StateKeyRef, description: 'The key that supplied it.', resolve: (r) => r.entry }),
    shadowed: t.field({
      type: [StateKeyRef],
      description: 'Keys of the same name in lower-precedence namespaces, hidden by `entry`.',
      resolve: (r) => r.shadowed,
    }),
  }),
});

const EventFilterInput = builder.inputType('SessionEventFilter', {
  description: 'Narrows a session log. All conditions must hold.',
  fields: (t) => ({
    types: t.field({ type: [SessionEventTypeEnum], description: 'Only events of these types.' }),
    actor: t.string({ description: 'Only events of this actor.' }),
    since: t.field({ type: 'DateTime', description: 'Only events appended at or after this time.' }),
    until: t.field({ type: 'DateTime', description: 'Only events appended before this time.' }),
  }),
});

/** The filter's conditions (the session itself is the connection's parent). */
function eventWhere(filter: { types?: SessionEventType[] | null; actor?: string | null; since?: Date | null; until?: Date | null } | null | undefined): Prisma.SessionEventWhereInput {
  return {
    ...(filter?.types?.length ? { type: { in: filter.types } } : {}),
    ...(filter?.actor != null ? { actor: filter.actor } : {}),
    ...(filter?.since || filter?.until
      ? { createdAt: { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lt: filter.until } : {}) } }
      : {}),
  };
}

builder.prismaObjectFields(SessionRef, (t) => ({
  events: t.relatedConnection(
    'events',
    {
      cursor: 'id',
      ...PAGING,
      description: 'The session log in sequence order, filtered.',
      args: { filter: t.arg({ type: EventFilterInput, description: 'Which events.' }) },
      totalCount: true,
      query: (args) => ({ where: eventWhere(args.filter), orderBy: { sequence: 'asc' } }),
    },
    { name: 'SessionEventsConnection', description: 'Page of session events.' },
    { name: 'SessionEventsEdge', description: 'A session event.' },
  ),
  state: t.field({
    type: ResolvedStateRef,
    nullable: true,
    description:
      'Reads a state key as this session sees it. `user:theme` reads that namespace; a bare `theme` resolves temp > session > user > app > project. Null when no namespace has it (deleted keys count as absent).',
    args: { key: t.arg.string({ required: true, description: 'The key, with or without a namespace prefix.' }) },
    resolve: async (session, args, ctx) => resolveState(ctx.db, await readableOwners(ctx.stateGuard, ownersOfSession(session)), args.key),
  }),
  stateEntries: t.connection(
    {
      type: StateKeyRef,
      description:
        'The state keys this session sees, one per name (the one its reads resolve to), by name. A pattern matches segment by segment: `agent:*:*:user_*` matches `agent:a:b:user_1` but not `agent:a:user_1`; a prefix (`user:agent:*`) or `namespaces` narrows the namespaces listed.',
      args: {
        pattern: t.arg.string({ description: 'Segment-wise pattern; `*` matches within one segment.' }),
        includeDeleted: t.arg.boolean({ description: 'Also deleted keys (default false).' }),
        namespaces: t.arg({ type: [StateNamespaceEnum], description: 'Only keys of these namespaces (default all).' }),
      },
      ...PAGING,
      resolve: (session, args, ctx) =>
        namedConnection(
          args,
          (k: RankedStateKey) => k.name,
          async ({ after, before, limit, inverted }) =>
            listState(ctx.db, ctx.provider, await readableOwners(ctx.stateGuard, ownersOfSession(session)), {
              pattern: args.pattern,
              namespaces: args.namespaces ?? null,
              includeDeleted: args.includeDeleted ?? false,
              after,
              before,
              limit,
              inverted,
            }),
        ),
    },
    { name: 'StateEntriesConnection', description: 'Page of state keys.' },
    { name: 'StateEntriesEdge', description: 'A state key.' },
  ),
}));

const TransitionPayloadRef = builder.objectRef<TransitionResult>('SessionTransitionPayload').implement({
  description: 'A session after a lifecycle transition, with the LIFECYCLE event that records it.',
  fields: (t) => ({
    session: t.field({ type: SessionRef, description: 'The session after the transition.', resolve: (r) => r.session }),
    event: t.field({ type: SessionEventRef, description: 'The LIFECYCLE event.', resolve: (r) => r.event }),
  }),
});

const TransitionInput = builder.inputType('SessionTransitionInput', {
  description: 'Which session.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The session.' }) }),
});

const CompleteSessionInput = builder.inputType('CompleteSessionInput', {
  description: 'Completes an active or paused session.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The session.' }),
    promote: t.idList({
      description: `SCRATCH: entries of the session to promote to its project (at most ${LIMITS.promote}); the other entries are deactivated.`,
    }),
    autoPromote: t.boolean({ description: "SCRATCH: promote every active entry (default: the session's own setting)." }),
  }),
});

const TRANSITION_DOC: Record<Transition, string> = {
  pause: 'Pauses an ACTIVE session (→ PAUSED).',
  resume: 'Resumes a PAUSED session (→ ACTIVE).',
  complete:
    'Completes an ACTIVE or PAUSED session (→ COMPLETED). Its temp: and session: state is cleared. A SCRATCH session promotes the picked entries (or all, with autoPromote) to its project, keeping their history, and deactivates the rest.',
  discard:
    'Discards an ACTIVE or PAUSED session (→ DISCARDED). Its temp: and session: state is cleared; a SCRATCH session deactivates its entries.',
  archive: 'Archives a COMPLETED or DISCARDED session (→ ARCHIVED): a read-only record from then on.',
  restore: 'Restores an ARCHIVED session (→ COMPLETED): its record can be changed again (its entries, tasks, conversations).',
};

builder.mutationFields((t) => {
  const transitionField = (transition: Exclude<Transition, 'complete'>) =>
    t.field({
      type: TransitionPayloadRef,
      description: TRANSITION_DOC[transition],
      args: { input: t.arg({ type: TransitionInput, required: true, description: 'Which session.' }) },
      authScopes: (_root, { input }) => can('WRITE', 'scope', input.id, ['Session'], ['input', 'id'], { label: 'session' }),
      errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'transition', description: 'The transition.' } },
      resolve: (_root, { input }, ctx) =>
        transitionSession(ctx, transition, { sessionId: decodeId(String(input.id), ['Session'], ['input', 'id']), actor: ctx.actor }),
    });
  return {
    pauseSession: transitionField('pause'),
    resumeSession: transitionField('resume'),
    discardSession: transitionField('discard'),
    archiveSession: transitionField('archive'),
    restoreSession: transitionField('restore'),
    completeSession: t.field({
      type: TransitionPayloadRef,
      description: TRANSITION_DOC.complete,
      args: { input: t.arg({ type: CompleteSessionInput, required: true, description: 'Which session, and what to promote.' }) },
      authScopes: (_root, { input }) => can('WRITE', 'scope', input.id, ['Session'], ['input', 'id'], { label: 'session' }),
      errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'transition', description: 'The transition.' } },
      resolve: (_root, { input }, ctx) =>
        transitionSession(ctx, 'complete', {
          sessionId: decodeId(String(input.id), ['Session'], ['input', 'id']),
          actor: ctx.actor,
          promote: (input.promote ?? []).map((id, i) => decodeId(String(id), ENTRY_TYPENAMES, ['input', 'promote', String(i)])),
          autoPromote: input.autoPromote ?? null,
        }),
    }),
  };
});

const AppendEventInput = builder.inputType('AppendSessionEventInput', {
  description: 'An event for an active session.',
  fields: (t) => ({
    session: t.id({ required: true, description: 'The session.' }),
    type: t.field({ type: SessionEventTypeEnum, required: true, description: 'What kind of event (not LIFECYCLE).' }),
    actor: t.string({ required: true, description: 'Who: user, system or agent:<id>.' }),
    content: t.field({ type: 'JSON', description: 'The event (any JSON).' }),
    stateDelta: t.field({
      type: 'JSON',
      description:
        'State keys to write with the event, in one transaction: `{ "session:step": 3, "temp:draft": null }`. Keys need a namespace prefix; null deletes; who may write which namespace: see StateNamespace.',
    }),
    fencing: t.field({ type: FencingInput, description: 'Write only under this lease (see checkoutLease): a holder whose lease ended is refused.' }),
  }),
});

const AppendedRef = builder.objectRef<{ event: SessionEvent; session: Parameters<typeof ownersOfSession>[0] }>('AppendedSessionEvent').implement({
  description: 'An appended event and its session.',
  fields: (t) => ({
    event: t.field({ type: SessionEventRef, description: 'The event, with its sequence number.', resolve: (r) => r.event }),
    session: t.field({ type: SessionRef, description: 'The session after the append.', resolve: (r) => r.session }),
  }),
});

const EndTurnInput = builder.inputType('EndTurnInput', {
  description: 'Which session.',
  fields: (t) => ({ session: t.id({ required: true, description: 'An active session.' }) }),
});

const EndedTurnRef = builder
  .objectRef<{ session: Parameters<typeof ownersOfSession>[0]; event: SessionEvent; cleared: string[] }>('EndedTurn')
  .implement({
    description: 'A turn that ended: its temp: keys are gone.',
    fields: (t) => ({
      session: t.field({ type: SessionRef, description: 'The session, now on its next turn.', resolve: (r) => r.session }),
      event: t.field({ type: SessionEventRef, description: 'The STATE_CHANGE event recording it.', resolve: (r) => r.event }),
      clearedKeys: t.stringList({ description: 'The temp: keys cleared.', resolve: (r) => r.cleared }),
    }),
  });

const StateOwnerInput = builder.inputType('StateOwnerInput', {
  description:
    'Whose state a write addresses. A session brings its own owners (itself, its user, application and project); the other fields give or override them.',
  fields: (t) => ({
    session: t.id({ description: 'An active session: owner of temp: and session: keys, and source of the others.' }),
    project: t.id({ description: 'Owner of project: keys.' }),
    userId: t.string({ description: 'Owner of user: keys.' }),
    appName: t.string({ description: 'Owner of app: keys.' }),
  }),
});

const SetStateInput = builder.inputType('SetStateInput', {
  description: 'One state write.',
  fields: (t) => ({
    owner: t.field({ type: StateOwnerInput, required: true, description: 'Whose key.' }),
    key: t.string({ required: true, description: 'The key with its namespace prefix, e.g. `session:step`.' }),
    value: t.field({ type: 'JSON', required: true, description: 'The value (any JSON).' }),
    fencing: t.field({ type: FencingInput, description: 'Write only under this lease (see checkoutLease): a holder whose lease ended is refused.' }),
  }),
});

const DeleteStateInput = builder.inputType('DeleteStateInput', {
  description: 'A soft delete of a state key (its history stays).',
  fields: (t) => ({
    owner: t.field({ type: StateOwnerInput, required: true, description: 'Whose key.' }),
    key: t.string({ required: true, description: 'The key with its namespace prefix.' }),
  }),
});

const RestoreStateInput = builder.inputType('RestoreStateInput', {
  description: 'Brings back an earlier version of a key as a new write.',
  fields: (t) => ({
    key: t.id({ required: true, description: 'The StateKey.' }),
    version: t.int({ required: true, description: 'The version to restore (its value, or its deletion).' }),
  }),
});

/**
 * A state write names its owners: the session and project named must be readable (else they
 * answer as missing); which namespaces the caller may then write is the state guard's.
 */
function stateOwnerRule(owner: { session?: string | number | null; project?: string | number | null }) {
  const targets = [
    ...(owner.session != null ? [can('READ', 'scope', owner.session, ['Session'], ['input', 'owner', 'session'], { label: 'session' }).can] : []),
    ...(owner.project != null ? [can('READ', 'scope', owner.project, ['Project'], ['input', 'owner', 'project'], { label: 'project' }).can] : []),
  ];
  return { $all: { member: true, canEach: targets } };
}

function ownerOf(input: { session?: string | number | null; project?: string | number | null; userId?: string | null; appName?: string | null }) {
  return {
    sessionId: input.session != null ? decodeId(String(input.session), ['Session'], ['input', 'owner', 'session']) : null,
    projectId: input.project != null ? decodeId(String(input.project), ['Project'], ['input', 'owner', 'project']) : null,
    userId: input.userId ?? null,
    appName: input.appName ?? null,
  };
}

const STATE_ERRORS = [...WRITE_ERRORS, InvalidStateError] as const;

builder.mutationFields((t) => ({
  appendSessionEvent: t.field({
    type: AppendedRef,
    description:
      "Appends an event to an active session's log with the next sequence number (gapless under concurrent appends), merging its state delta into the state in the same transaction. Published to `sessionEvent`.",
    args: { input: t.arg({ type: AppendEventInput, required: true, description: 'The event.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.session, ['Session'], ['input', 'session'], { label: 'session' }),
    errors: { types: [...STATE_ERRORS], dataField: { name: 'appended', description: 'The event and its session.' } },
    resolve: async (_root, { input }, ctx) => {
      if (input.type === 'LIFECYCLE') {
        throw new ValidationError([{ path: ['input', 'type'], message: 'LIFECYCLE events are written by the server on transitions' }]);
      }
      const sessionId = decodeId(String(input.session), ['Session'], ['input', 'session']);
      const [content, stateDelta] = await screenSecrets(ctx.db, sessionId, [
        { path: ['input', 'content'], value: input.content },
        { path: ['input', 'stateDelta'], value: input.stateDelta },
      ]);
      return appendEvent(fencedBy(ctx, input.fencing), {
        sessionId,
        type: input.type,
        // `user` and `system` are the roles of a session's log; an `agent:<id>` must be the caller.
        actor: /^agent:/.test(input.actor) ? ((await ctx.author(input.actor, ['input', 'actor'])) ?? input.actor) : input.actor,
        content,
        stateDelta,
        guard: ctx.stateGuard,
      });
    },
  }),
  endTurn: t.field({
    type: EndedTurnRef,
    description: "Ends an active session's current turn: deletes its temp: keys and moves to the next turn.",
    args: { input: t.arg({ type: EndTurnInput, required: true, description: 'Which session.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.session, ['Session'], ['input', 'session'], { label: 'session' }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'turn', description: 'The ended turn.' } },
    resolve: (_root, { input }, ctx) =>
      endTurn(ctx, { sessionId: decodeId(String(input.session), ['Session'], ['input', 'session']), actor: ctx.actor }),
  }),
  setState: t.field({
    type: StateKeyRef,
    description: 'Writes a state key (a new version). Who may write which namespace: see the README (Grants).',
    args: { input: t.arg({ type: SetStateInput, required: true, description: 'The write.' }) },
    authScopes: (_root, { input }) => stateOwnerRule(input.owner),
    errors: { types: [...STATE_ERRORS], dataField: { name: 'state', description: 'The key as written.' } },
    resolve: async (_root, { input }, ctx) => {
      const owner = ownerOf(input.owner);
      // The key is how the value is read back: refused, not redacted, like a name.
      const [value] = await screenSecrets(ctx.db, owner.sessionId ?? owner.projectId, [
        { path: ['input', 'value'], value: input.value },
        { path: ['input', 'key'], value: input.key, isName: true },
      ]);
      return setState(fencedBy(ctx, input.fencing), { owner, key: input.key, value, author: ctx.actor, guard: ctx.stateGuard });
    },
  }),
  deleteState: t.field({
    type: StateKeyRef,
    description: 'Soft-deletes a state key: a new version marks it deleted; `restoreState` can bring a value back.',
    args: { input: t.arg({ type: DeleteStateInput, required: true, description: 'The key.' }) },
    authScopes: (_root, { input }) => stateOwnerRule(input.owner),
    errors: { types: [...STATE_ERRORS], dataField: { name: 'state', description: 'The key, now deleted.' } },
    resolve: (_root, { input }, ctx) =>
      setState(ctx, { owner: ownerOf(input.owner), key: input.key, deleted: true, author: ctx.actor, guard: ctx.stateGuard }),
  }),
  restoreState: t.field({
    type: StateKeyRef,
    description: 'Writes an earlier version of a key again, as a new version.',
    args: { input: t.arg({ type: RestoreStateInput, required: true, description: 'Which key and version.' }) },
    // Which keys the caller may restore is the state guard's (a key it cannot read answers as missing).
    authScopes: MEMBER,
    errors: { types: [...STATE_ERRORS], dataField: { name: 'state', description: 'The key as restored.' } },
    resolve: (_root, { input }, ctx) =>
      restoreState(ctx, {
        keyId: decodeId(String(input.key), ['StateKey'], ['input', 'key']),
        version: input.version,
        author: ctx.actor,
        guard: ctx.stateGuard,
      }),
  }),
}));

