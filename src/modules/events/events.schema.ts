import { queryFromInfo } from '@pothos/plugin-prisma';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { filter, pipe } from 'graphql-yoga';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { MEMBER } from '../../graphql/rules.ts';
import { AFTER_DESCRIPTION, CURSOR_DESCRIPTION, delivered, guardSubscription, type REVOKED } from './subscription-guard.ts';
import { builder } from '../../graphql/builder.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import type { Context } from '../../context.ts';
import { encodeCursor, feedHead } from '../../infra/change-feed.ts';
import {
  type StreamEnd,
  directKey,
  treeKey,
  type ConflictPayload,
  type EntryChangedPayload,
  type SessionPayload,
} from '../../infra/events.ts';
import { ConflictRef } from '../conflicts/conflicts.schema.ts';
import { ENTRY_TYPENAME, EntryRef, EntryVersionRef } from '../entries/entries.schema.ts';
import { findEntry, type EntryKind } from '../entries/entries.service.ts';
import { sharedRead } from '../../graphql/shared-read.ts';
import { SessionEventRef } from '../sessions/sessions.schema.ts';

const EntryChangeTypeEnum = builder.enumType('EntryChangeType', {
  description: 'What happened to an entry.',
  values: {
    CREATED: { description: 'Added, with version 1.' },
    UPDATED: { description: 'A new version was written.' },
    DEACTIVATED: { description: 'Soft-deleted.' },
    REACTIVATED: { description: 'Undeleted.' },
    TAGGED: { description: 'Tags were attached.' },
    UNTAGGED: { description: 'Tags were detached.' },
    RELATED: { description: 'A relation from or to it was created.' },
    UNRELATED: { description: 'A relation from or to it was deleted.' },
    PROMOTED: { description: 'Moved from a completed SCRATCH session to its project.' },
    DELETED: { description: 'Erased for good (with a deletion receipt); `entry` is null.' },
  },
});

const ConflictEventTypeEnum = builder.enumType('ConflictEventType', {
  description: 'What happened to a conflict.',
  values: { DETECTED: { description: 'A write conflicted.' }, RESOLVED: { description: 'The conflict was settled.' } },
});

const EntryChangedEventRef = builder.objectRef<EntryChangedPayload>('EntryChangedEvent').implement({
  description: 'A committed change of an entry. `entry` is read when the event is delivered.',
  fields: (t) => ({
    type: t.field({ type: EntryChangeTypeEnum, description: 'What happened.', resolve: (e) => e.type }),
    entryId: t.id({
      description: 'Global ID of the entry (also once it is deleted, when `entry` is null).',
      resolve: async (e, _args, ctx) => {
        const kind = e.kind ?? (await ctx.db.entry.findUnique({ where: { id: e.entryId }, select: { kind: true } }))?.kind ?? 'KNOWLEDGE';
        return encodeGlobalID(ENTRY_TYPENAME[kind as EntryKind], e.entryId);
      },
    }),
    entry: t.prismaField({
      type: EntryRef,
      nullable: true,
      description: 'The entry as it is now; null once it has been deleted.',
      resolve: (query, e, _args, ctx) => sharedRead(e, 'entry', query, () => findEntry(ctx.db, e.entryId, query)),
    }),
    version: t.prismaField({
      type: EntryVersionRef,
      nullable: true,
      description: 'The version written (CREATED, UPDATED).',
      resolve: (query, e, _args, ctx) =>
        e.versionId ? sharedRead(e, 'version', query, () => ctx.db.entryVersion.findUnique({ ...query, where: { id: e.versionId! } })) : null,
    }),
    actor: t.string({ nullable: true, description: 'Who made the change.', resolve: (e) => e.actor }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the change was committed.', resolve: (e) => e.occurredAt }),
    cursor: t.exposeString('cursor', { description: CURSOR_DESCRIPTION }),
  }),
});

const ConflictEventRef = builder.objectRef<ConflictPayload>('ConflictEvent').implement({
  description: 'A conflict was detected or resolved.',
  fields: (t) => ({
    type: t.field({ type: ConflictEventTypeEnum, description: 'What happened.', resolve: (e) => e.type }),
    conflict: t.prismaField({
      type: ConflictRef,
      nullable: true,
      description: 'The conflict as it is now, with both versions; null once it is gone (its entry was deleted since, e.g. on a replay).',
      resolve: (query, e, _args, ctx) => sharedRead(e, 'conflict', query, () => ctx.db.conflict.findUnique({ ...query, where: { id: e.conflictId } })),
    }),
    occurredAt: t.field({ type: 'DateTime', description: 'When it was committed.', resolve: (e) => e.occurredAt }),
    cursor: t.exposeString('cursor', { description: CURSOR_DESCRIPTION }),
  }),
});

/** A scope subscription's scope: one the caller cannot read answers like one that does not exist. */
async function watchedScope(ctx: Context, scope: string | number): Promise<string> {
  const id = decodeId(String(scope), SCOPE_TYPENAMES, ['scope']);
  if (!(await ctx.access.has('READ', id))) throw new NotFoundError('No scope has this id', ['scope']);
  return id;
}

/**
 * Events of a scope subscription: each delivered only while the caller may read its entry's scope
 * (judged on the chain the event carries when its scope may be gone: an entry erased with it).
 */
async function scopeEvents<P extends { scopeId: string; chain?: string[] }>(
  ctx: Context,
  topic: 'entryChanged' | 'conflict',
  a: { scope: string | number; includeDescendants?: boolean | null; after?: string | null },
) {
  const id = await watchedScope(ctx, a.scope);
  const key = a.includeDescendants ? treeKey(id) : directKey(id);
  return guardSubscription(ctx, ctx.bus.subscribe(topic, key, a.after) as AsyncIterable<P | StreamEnd>, {
    key: `READ ${id}`,
    stillAllowed: (access) => access.has('READ', id),
    mayDeliver: (access, event) => (event.chain ? access.hasOnChain('READ', event.chain) : access.has('READ', event.scopeId)),
  });
}

builder.subscriptionFields((t) => {
  const args = {
    scope: t.arg.id({ required: true, description: 'The scope to watch.' }),
    includeDescendants: t.arg.boolean({ description: 'Also the scopes below it (default false).' }),
    after: t.arg.string({ description: AFTER_DESCRIPTION }),
  };
  const conflictField = (type: ConflictPayload['type'], description: string) =>
    t.field({
      type: ConflictEventRef,
      description,
      args,
      authScopes: MEMBER,
      subscribe: async (_root, a, ctx) =>
        pipe(
          await scopeEvents<ConflictPayload>(ctx, 'conflict', a),
          filter((event: ConflictPayload | StreamEnd | typeof REVOKED) => typeof event === 'symbol' || event.type === type),
        ),
      resolve: (event) => delivered(event),
    });
  return {
    entryChanged: t.field({
      type: EntryChangedEventRef,
      description: 'Changes of entries in a scope: created, updated, (de/re)activated, tagged, related.',
      args,
      authScopes: MEMBER,
      subscribe: (_root, a, ctx) => scopeEvents<EntryChangedPayload>(ctx, 'entryChanged', a),
      resolve: (event) => delivered(event),
    }),
    conflictDetected: conflictField('DETECTED', 'Conflicts detected on entries in a scope.'),
    conflictResolved: conflictField('RESOLVED', 'Conflicts resolved on entries in a scope.'),
    sessionEvent: t.field({
      type: SessionEventRef,
      description:
        'Events appended to the log of one session, or of every session of a project (lifecycle transitions included), each once it has committed. Give exactly one of the two.',
      args: {
        session: t.arg.id({ description: 'The session to watch.' }),
        project: t.arg.id({ description: "The project whose sessions to watch." }),
        after: t.arg.string({ description: AFTER_DESCRIPTION }),
      },
      authScopes: MEMBER,
      subscribe: async (_root, a, ctx) => {
        if ((a.session == null) === (a.project == null)) {
          throw new ValidationError([{ path: ['session'], message: 'give exactly one of session and project' }]);
        }
        const key =
          a.session != null
            ? `session:${decodeId(String(a.session), ['Session'], ['session'])}`
            : `project:${decodeId(String(a.project), ['Project'], ['project'])}`;
        const id = key.slice(key.indexOf(':') + 1);
        // One the caller cannot read answers like one that does not exist.
        if (!(await ctx.access.has('READ', id))) {
          throw new NotFoundError('No such session or project', [a.session != null ? 'session' : 'project']);
        }
        return guardSubscription(ctx, ctx.bus.subscribe('sessionEvent', key, a.after), {
          key: `READ ${id}`,
          stillAllowed: (access) => access.has('READ', id),
          mayDeliver: (access, event) => access.has('READ', event.sessionId),
        });
      },
      resolve: async (event: SessionPayload | StreamEnd | typeof REVOKED, _args, ctx, info) => {
        const payload = delivered(event);
        const { eventId, cursor } = payload;
        // What the client selected of the event, read with it once for every subscriber (shared-read.ts).
        const query = queryFromInfo({ context: ctx, info, typeName: 'SessionEvent' });
        const row = await sharedRead(payload, 'sessionEvent', query, () => ctx.db.sessionEvent.findUnique({ ...query, where: { id: eventId } }));
        // A replay may reach an event whose session was deleted since.
        if (!row) throw new NotFoundError('The event is gone: its session was deleted since', ['sessionEvent']);
        return { ...row, cursor };
      },
    }),
  };
});

builder.queryField('changeFeedCursor', (t) =>
  t.string({
    description:
      'The change feed\'s position now: the cursor of the last committed change. Read it before you read what you will show, then subscribe with it as `after`: every change committed after it is delivered, so nothing is lost between the read and the moment the subscription is registered.',
    authScopes: MEMBER,
    resolve: async (_root, _args, ctx) => encodeCursor(await feedHead(ctx.db)),
  }),
);
