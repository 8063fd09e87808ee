import type { StateGuard } from '../identity/state-access.ts';
import type { Tx } from '../../infra/database.ts';
import type { PendingEvent } from '../../infra/events.ts';
import { writeTransaction, type Emit, type WriteDeps } from '../../infra/transaction.ts';
import { forgetRowsIn } from '../entries/known-rows.ts';
import { chunkedWithin, eachList, eachOf, TEXT_CHARS_PER_LIST } from '../../infra/id-lists.ts';
import { isRecordNotFound, isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, InvalidStateError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { Prisma, Scope, SessionEvent } from '../../generated/sqlite/client.ts';
import {
  checkDelta,
  addressed,
  checkWritePermission,
  ownersOfSession,
  writeState,
} from './state.service.ts';

export const SESSION_STATUSES = ['ACTIVE', 'PAUSED', 'COMPLETED', 'DISCARDED', 'ARCHIVED'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_EVENT_TYPES = ['MESSAGE', 'ACTION', 'TOOL_CALL', 'REFLECTION', 'STATE_CHANGE', 'LIFECYCLE'] as const;
export type SessionEventType = (typeof SESSION_EVENT_TYPES)[number];
/** LIFECYCLE events are written by the server (transitions, the start). */
export type AppendableEventType = Exclude<SessionEventType, 'LIFECYCLE'>;

export const TRANSITIONS = {
  pause: { from: ['ACTIVE'], to: 'PAUSED' },
  resume: { from: ['PAUSED'], to: 'ACTIVE' },
  complete: { from: ['ACTIVE', 'PAUSED'], to: 'COMPLETED' },
  discard: { from: ['ACTIVE', 'PAUSED'], to: 'DISCARDED' },
  archive: { from: ['COMPLETED', 'DISCARDED'], to: 'ARCHIVED' },
  /** Brings an archived session back as a (writable again) completed record. */
  restore: { from: ['ARCHIVED'], to: 'COMPLETED' },
} as const satisfies Record<string, { from: readonly SessionStatus[]; to: SessionStatus }>;
export type Transition = keyof typeof TRANSITIONS;

/** Actors of events: `user`, `system` or `agent:<id>`. */
const ACTOR = /^(user|system|agent:[^\s:][^\s]*)$/;

export function checkActor(c: Checker, actor: string, path: string[]): void {
  if (actor.length > LIMITS.author || !ACTOR.test(actor)) c.fail(path, 'must be user, system or agent:<id>');
}

/** The actor recorded on events the server writes for a caller: its header if well-formed, else system. */
export function systemActor(actor: string | null): string {
  return actor && ACTOR.test(actor) && actor.length <= LIMITS.author ? actor : 'system';
}

/** Content of a LIFECYCLE event. */
export interface LifecycleContent {
  from: SessionStatus | null;
  to: SessionStatus;
  promoted?: string[];
  deactivated?: number;
}

/**
 * Takes the next sequence number of an open session: one statement that bumps `eventCount`
 * (the session row's write lock, so concurrent appenders queue and numbers stay gapless) under a
 * status guard. Explains a refusal: unknown session, or one not in `allowed`.
 */
async function nextSequence(tx: Tx, sessionId: string, allowed: readonly SessionStatus[], data: Prisma.ScopeUpdateInput = {}, path = ['input', 'session']): Promise<Scope> {
  try {
    return await tx.scope.update({
      where: { id: sessionId, kind: 'SESSION', status: { in: [...allowed] } },
      data: { ...data, eventCount: { increment: 1 } },
    });
  } catch (error) {
    if (!isRecordNotFound(error)) throw error;
    const session = await tx.scope.findUnique({ where: { id: sessionId }, select: { kind: true, status: true } });
    if (!session || session.kind !== 'SESSION') throw new NotFoundError('No session has this id', path);
    throw new InvalidStateError(
      `The session is ${session.status}; this needs it ${allowed.join(' or ')}`,
      session.status ?? 'UNKNOWN',
      path,
    );
  }
}

async function insertEvent(
  tx: Tx,
  emit: Emit,
  session: Scope,
  event: { type: SessionEventType; actor: string; content: unknown; stateDelta?: unknown },
): Promise<SessionEvent> {
  const row = await tx.sessionEvent.create({
    data: {
      sessionId: session.id,
      sequence: session.eventCount,
      type: event.type,
      actor: event.actor,
      content: event.content === undefined || event.content === null ? null : JSON.stringify(event.content),
      stateDelta: event.stateDelta === undefined || event.stateDelta === null ? null : JSON.stringify(event.stateDelta),
    },
  });
  emit({ topic: 'sessionEvent', payload: { eventId: row.id, sessionId: session.id, projectId: session.parentId! } });
  return row;
}

/** Records the first event of a new session (called by startSession, in its transaction). */
export async function recordStart(tx: Tx, emit: Emit, session: Scope, actor: string | null): Promise<void> {
  const content: LifecycleContent = { from: null, to: 'ACTIVE' };
  await insertEvent(tx, emit, session, { type: 'LIFECYCLE', actor: systemActor(actor), content });
}

export interface AppendEventInput {
  sessionId: string;
  type: AppendableEventType;
  actor: string;
  content?: unknown;
  stateDelta?: unknown;
  guard: StateGuard;
}

export interface AppendEventResult {
  event: SessionEvent;
  session: Scope;
}

/**
 * Appends an event to an active session's log with the next sequence number, and merges its state
 * delta into the session's state in the same transaction (keys in the delta are written in order;
 * a null value deletes a key).
 */
export async function appendEvent(deps: WriteDeps, input: AppendEventInput): Promise<AppendEventResult> {
  const c = new Checker();
  checkActor(c, input.actor, ['input', 'actor']);
  c.json(input.content, ['input', 'content']);
  const changes = checkDelta(c, input.stateDelta, ['input', 'stateDelta']);
  c.done();
  // A session's owners never change: checked before the transaction, whose connection the access
  // checks' own reads must not wait for (SQLite has one).
  const owners = await deps.db.scope.findUnique({ where: { id: input.sessionId } });
  if (owners) await checkWritePermission(addressed(changes, ownersOfSession(owners), ['input', 'stateDelta']), input.guard, ['input', 'stateDelta']);
  return writeTransaction(deps, async (tx, emit) => {
    const session = await nextSequence(tx, input.sessionId, ['ACTIVE']);
    const writes = addressed(changes, ownersOfSession(session), ['input', 'stateDelta']);
    const event = await insertEvent(tx, emit, session, {
      type: input.type,
      actor: input.actor,
      content: input.content,
      stateDelta: input.stateDelta,
    });
    if (writes.length > 0) {
      await writeState(
        tx,
        writes.map((w) => ({ ...w, eventId: event.id })),
        input.actor,
      );
    }
    return { event, session };
  });
}

export interface TransitionInput {
  sessionId: string;
  actor: string | null;
  /** complete: entries of a SCRATCH session to promote to its project. */
  promote?: readonly string[] | null;
  /** complete: promote every active entry of a SCRATCH session (default: the session's setting). */
  autoPromote?: boolean | null;
  /** Events recorded with the transition, in its transaction (the scheduled purge announces each archive it makes). */
  alsoEmit?: readonly PendingEvent[];
}

export interface TransitionResult {
  session: Scope;
  event: SessionEvent;
  /** Entries moved to the project (complete of a SCRATCH session). */
  promotedIds: string[];
}

/**
 * Moves a session along its lifecycle (see TRANSITIONS) and records the transition as a
 * LIFECYCLE event. Ending a session (complete, discard) clears its temp: and session: state; a
 * SCRATCH session also settles its entries: complete promotes the picked ones (or all, with
 * auto-promote) to the project, keeping their history, and deactivates the rest; discard
 * deactivates them all.
 */
export async function transitionSession(deps: WriteDeps, transition: Transition, input: TransitionInput): Promise<TransitionResult> {
  const rule = TRANSITIONS[transition];
  const c = new Checker();
  if (transition !== 'complete' && (input.promote?.length || input.autoPromote != null)) {
    c.fail(['input', 'promote'], 'only completing a session promotes entries');
  }
  if ((input.promote?.length ?? 0) > LIMITS.promote) c.fail(['input', 'promote'], `must list at most ${LIMITS.promote} entries`);
  c.done();
  const result = await writeTransaction(deps, async (tx, emit) => {
    const before = await tx.scope.findUnique({ where: { id: input.sessionId } });
    if (!before || before.kind !== 'SESSION') throw new NotFoundError('No session has this id', ['input', 'id']);
    const from = before.status as SessionStatus;
    if (!(rule.from as readonly SessionStatus[]).includes(from)) {
      throw new InvalidStateError(
        `Cannot ${transition} a session that is ${from} (allowed from ${rule.from.join(' or ')})`,
        from,
        ['input', 'id'],
      );
    }
    const now = new Date();
    // Restoring ends nothing: the session ended before it was archived.
    const ending = (rule.to === 'COMPLETED' || rule.to === 'DISCARDED') && transition !== 'restore';
    const archivedAt = rule.to === 'ARCHIVED' ? { archivedAt: now } : transition === 'restore' ? { archivedAt: null } : {};
    // Guarded by the status read above: a concurrent transition makes this fail as InvalidState.
    const session = await nextSequence(tx, before.id, [from], { status: rule.to, ...(ending ? { endedAt: now } : {}), ...archivedAt }, ['input', 'id']);
    const content: LifecycleContent = { from, to: rule.to };
    let promotedIds: string[] = [];
    if (ending) {
      await tx.stateKey.deleteMany({ where: { namespace: { in: ['TEMP', 'SESSION'] }, owner: session.id } });
      if (session.mode === 'SCRATCH') {
        const settled = await settleScratchEntries(tx, emit, session, transition === 'complete' ? input : null, input.actor);
        promotedIds = settled.promoted;
        content.promoted = settled.promoted;
        content.deactivated = settled.deactivated;
      } else if (input.promote?.length || input.autoPromote) {
        throw new ValidationError([{ path: ['input', 'promote'], message: 'only a SCRATCH session promotes entries' }]);
      }
    }
    const event = await insertEvent(tx, emit, session, { type: 'LIFECYCLE', actor: systemActor(input.actor), content });
    for (const also of input.alsoEmit ?? []) emit(also);
    return { session, event, promotedIds };
  });
  // Its entries moved or were deactivated: rows kept for updates (known-rows.ts) no longer hold.
  forgetRowsIn(deps.db, result.session.id);
  return result;
}

async function settleScratchEntries(
  tx: Tx,
  emit: Emit,
  session: Scope,
  completing: TransitionInput | null,
  actor: string | null,
): Promise<{ promoted: string[]; deactivated: number }> {
  // With the length of each one's searchable text: moving or deactivating a tagged entry writes its
  // row of SQLite's full-text index again (its scope and active flag are in the tag tokens).
  const entries = (
    await tx.$queryRaw<Array<SessionEntry & { chars: number | bigint | null }>>`
      SELECT e."id", e."kind", e."name", LENGTH(s."name") + LENGTH(s."body") AS "chars"
      FROM "Entry" e LEFT JOIN "EntrySearch" s ON s."entryId" = e."id"
      WHERE e."scopeId" = ${session.id} AND e."active" = ${true} ORDER BY e."id"`
  ).map((e) => ({ id: e.id, kind: e.kind, name: e.name, chars: Number(e.chars ?? 0) }));
  const promote = completing ? pickPromoted(entries, session, completing) : [];
  await promoteEntries(tx, emit, promote, session.parentId!, actor);
  const promoted = new Set(promote.map((e) => e.id));
  const rest = entries.filter((e) => !promoted.has(e.id));
  await eachOf(textBounded(rest), async (some) => {
    await tx.entry.updateMany({ where: { id: { in: some.map((e) => e.id) } }, data: { active: false } });
    for (const e of some) {
      emit({ topic: 'entryChanged', payload: { type: 'DEACTIVATED', entryId: e.id, kind: e.kind, scopeId: session.id, versionId: null, actor } });
    }
  });
  return { promoted: [...promoted], deactivated: rest.length };
}

type SessionEntry = { id: string; kind: string; name: string; chars: number };

/** Entries in lists of at most IDS_PER_STATEMENT and TEXT_CHARS_PER_LIST characters of searchable text. */
const textBounded = (entries: SessionEntry[]) => chunkedWithin(entries, (e) => e.chars, TEXT_CHARS_PER_LIST);

/** The entries a completion promotes: the listed ones (each must be an active entry of the session), or all. */
function pickPromoted(entries: SessionEntry[], session: Scope, completing: TransitionInput): SessionEntry[] {
  // An explicit list wins over the session's auto-promote setting; the call's flag over both.
  const all = completing.autoPromote ?? ((completing.promote?.length ?? 0) > 0 ? false : session.autoPromote);
  if (all) return entries;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const promote: SessionEntry[] = [];
  const c = new Checker();
  (completing.promote ?? []).forEach((id, i) => {
    const entry = byId.get(id);
    if (entry) promote.push(entry);
    else c.fail(['input', 'promote', String(i)], 'is not an active entry of this session');
  });
  c.done();
  return promote;
}

/**
 * Moves the entries to the project, or none if the project has the name of one. A list of ids at a
 * time (two values an entry: Prisma binds at most 999 on SQLite), the event loop turning between
 * lists (id-lists.ts): on SQLite a promotion of 1,000 held it for its whole transaction, ~96 ms
 * (median of 7, 79-211), now ~34 at most (28-77); the check of a list's names is most of it. The
 * moves go in lists of at most TEXT_CHARS_PER_LIST of text too: 400 tagged entries of 24 KB held
 * it 8.9 s in one list (each one's row of the full-text index written again).
 */
async function promoteEntries(tx: Tx, emit: Emit, promote: SessionEntry[], projectId: string, actor: string | null): Promise<void> {
  const taken: Array<{ kind: string; name: string }> = [];
  await eachList(promote, async (some) => {
    taken.push(...(await tx.entry.findMany({ where: { scopeId: projectId, OR: some.map((e) => ({ kind: e.kind, name: e.name })) }, select: { kind: true, name: true } })));
  });
  const named = (names: { kind: string; name: string }[]) => names.map((t) => `a ${t.kind.toLowerCase()} named "${t.name}"`).join(', ');
  if (taken.length > 0) {
    throw new AlreadyExistsError(`The project already has ${named(taken)}; rename or leave out before promoting`, ['input', 'promote']);
  }
  await eachOf(textBounded(promote), async (some) => {
    // A writer that took one of the names since the check above fails the move on the unique index.
    await tx.entry.updateMany({ where: { id: { in: some.map((e) => e.id) } }, data: { scopeId: projectId } }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      throw new AlreadyExistsError(`Another writer just gave the project one of: ${named(promote)}; rename or leave out before promoting`, ['input', 'promote']);
    });
    for (const e of some) {
      emit({ topic: 'entryChanged', payload: { type: 'PROMOTED', entryId: e.id, kind: e.kind, scopeId: projectId, versionId: null, actor } });
    }
  });
}

/**
 * Ends the current turn of an active session: its temp: keys are deleted and the turn number
 * moves on. Recorded as a STATE_CHANGE event listing the keys cleared.
 */
export async function endTurn(deps: WriteDeps, input: { sessionId: string; actor: string | null }): Promise<{ session: Scope; event: SessionEvent; cleared: string[] }> {
  return writeTransaction(deps, async (tx, emit) => {
    const session = await nextSequence(tx, input.sessionId, ['ACTIVE'], { turn: { increment: 1 } }, ['input', 'session']);
    const temp = await tx.stateKey.findMany({
      where: { namespace: 'TEMP', owner: session.id, deleted: false },
      select: { name: true },
      orderBy: { name: 'asc' },
    });
    await tx.stateKey.deleteMany({ where: { namespace: 'TEMP', owner: session.id } });
    const cleared = temp.map((k) => `temp:${k.name}`);
    const event = await insertEvent(tx, emit, session, {
      type: 'STATE_CHANGE',
      actor: systemActor(input.actor),
      content: { turnEnded: session.turn - 1, cleared },
    });
    return { session, event, cleared };
  });
}

