import { NotFoundError } from '../../domain/errors.ts';
import type { Db } from '../../infra/database.ts';
import { readEntryForWrite } from '../entries/entry-read.ts';
import type { Access, Role } from './access.service.ts';

/** What an access rule can be about: each resolves to the scope whose grants decide. */
export type TargetKind = 'scope' | 'entry' | 'version' | 'task' | 'conversation' | 'message' | 'conflict' | 'relation' | 'grant' | 'voteQuestion' | 'vote';

/** A rule's parameter: the caller must hold `role` on the scope of the `kind` row with this id. */
export interface Target {
  role: Role;
  kind: TargetKind;
  id: string;
  /** Input path reported when the target is missing or unreadable. */
  path: string[];
  /** Noun of the not-found message (default: the kind), e.g. "session". */
  label?: string;
  /** Deny quietly instead of throwing NotFoundError (reads answering null for what they cannot see). */
  quiet?: boolean;
  /**
   * WRITE on an entry whose write checks the entry is still in the scope decided on (updates):
   * the rule may decide on the row this process last read or wrote (known-rows.ts).
   */
  reuseKnown?: boolean;
}

/** The scope of a row of each kind (a scope is its own: scopeOfTarget answers it without a read). */
const SCOPE_OF: Record<Exclude<TargetKind, 'scope'>, (db: Db, id: string) => Promise<string | null | undefined>> = {
  entry: async (db, id) => (await db.entry.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId,
  // Stryker disable next-line OptionalChaining: equivalent, versions (and messages below) are looked up only for rows node() has just read (src/graphql/node-access.ts)
  version: async (db, id) => (await db.entryVersion.findUnique({ where: { id }, select: { entry: { select: { scopeId: true } } } }))?.entry.scopeId,
  task: async (db, id) => (await db.task.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId,
  conversation: async (db, id) => (await db.conversation.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId,
  message: async (db, id) =>
    // Stryker disable next-line OptionalChaining: equivalent, as for versions above
    (await db.conversationMessage.findUnique({ where: { id }, select: { conversation: { select: { scopeId: true } } } }))?.conversation.scopeId,
  conflict: async (db, id) => (await db.conflict.findUnique({ where: { id }, select: { entry: { select: { scopeId: true } } } }))?.entry.scopeId,
  grant: async (db, id) => (await db.grant.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId,
  relation: async (db, id) => (await db.relation.findUnique({ where: { id }, select: { source: { select: { scopeId: true } } } }))?.source.scopeId,
  voteQuestion: async (db, id) => (await db.voteQuestion.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId,
  vote: async (db, id) => (await db.vote.findUnique({ where: { id }, select: { question: { select: { scopeId: true } } } }))?.question.scopeId,
};

/** Per request: the scope of each target read (rules and the writes they guard ask for the same ones). */
const memo = new WeakMap<Access, Map<string, Promise<string | null | undefined>>>();

/**
 * The scope of a target row (a scope is its own), read once per request. For WRITE on an entry the
 * read is the whole entry with its current version, which the update it guards then takes
 * (src/modules/entries/entry-read.ts) instead of reading it again.
 */
export function scopeOfTarget(db: Db, access: Access, kind: TargetKind, id: string, role?: Role, reuseKnown = false): Promise<string | null | undefined> {
  if (kind === 'scope') return Promise.resolve(id);
  let known = memo.get(access);
  if (!known) memo.set(access, (known = new Map<string, Promise<string | null | undefined>>()));
  // A scope decided on a kept row serves only the writes that check it again.
  const key = `${kind}:${id}${reuseKnown ? ':known' : ''}`;
  let scopeId = known.get(key);
  if (!scopeId) {
    const read = kind === 'entry' && role === 'WRITE' ? readEntryForWrite(db, access, id, reuseKnown).then((row) => row?.entry.scopeId) : SCOPE_OF[kind](db, id);
    known.set(key, (scopeId = read));
  }
  return scopeId;
}

/**
 * Whether the caller holds the target's role. A missing target and one the caller cannot read
 * both throw the same NotFoundError (nothing tells them apart); a readable one without the role
 * answers false, which the rule turns into a PermissionDeniedError.
 */
export async function allows(db: Db, access: Access, target: Target): Promise<boolean> {
  const notFound = () => new NotFoundError(`No ${target.label ?? target.kind} has this id`, target.path);
  // A scope's own chain says whether it exists: no separate read.
  const scopeId = await scopeOfTarget(db, access, target.kind, target.id, target.role, target.reuseKnown);
  const role = scopeId ? await access.roleOn(scopeId) : null;
  if (!scopeId || role === null) {
    if (target.quiet) return false;
    throw notFound();
  }
  return access.has(target.role, scopeId);
}

/** Forgets the request's reads of a target (a write found it moved: its rule decides again on a fresh read). */
export function forgetTarget(access: Access, kind: TargetKind, id: string): void {
  const known = memo.get(access);
  known?.delete(`${kind}:${id}`);
  known?.delete(`${kind}:${id}:known`);
}
