import { InvalidStateError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { scopeSubtreeWhere } from '../scopes/scope-where.ts';
import type { Provider, Tx } from '../../infra/database.ts';
import { writeTransaction, type Emit, type WriteDeps } from '../../infra/transaction.ts';
import type { PendingEvent } from '../../infra/events.ts';
import type { DeletionReceipt } from '../../generated/sqlite/client.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { Erasure, eraseEntries } from './erasure.ts';
import { chunked } from '../../infra/id-lists.ts';
import { forgetChains } from '../lifecycle/policies.service.ts';
import { forgetRow } from '../entries/known-rows.ts';

/**
 * Hard deletion. Each operation is one transaction that erases its target with everything that
 * hangs off it and writes a receipt (counts, ids, a hash of the content) in the same
 * transaction. A dry run does all of it and rolls back: the receipt it returns is what would go.
 */

export interface DeletionRequest {
  id: string;
  dryRun: boolean;
  /** Who asks (the receipt names them). */
  principal: { id: string; name: string } | null;
  actor: string | null;
}

/** Thrown to roll a dry run back, carrying the receipt it would have written. */
class DryRun extends Error {
  constructor(readonly receipt: DeletionReceipt) {
    super('dry run');
  }
}

type Eraser = (tx: Tx, emit: Emit, erasure: Erasure) => Promise<void>;
/** An event announcing a receipt, recorded in the receipt's own transaction. */
type Announce = (receipt: DeletionReceipt) => PendingEvent;

async function withReceipt(
  deps: WriteDeps,
  operation: string,
  request: DeletionRequest,
  erase: Eraser,
  criteria: object = { id: request.id },
  announce?: Announce,
): Promise<DeletionReceipt> {
  let erasure: Erasure | undefined;
  try {
    return await writeTransaction(deps, async (tx, emit) => {
      erasure = new Erasure();
      await erase(tx, emit, erasure);
      const receipt: DeletionReceipt = {
        id: uuidv7(),
        createdAt: new Date(),
        operation,
        principalId: request.principal?.id ?? null,
        principalName: request.principal?.name ?? null,
        criteria: JSON.stringify(criteria),
        counts: JSON.stringify(erasure.counts()),
        ids: JSON.stringify(erasure.idsByKind()),
        contentHash: erasure.contentHash(),
      };
      if (request.dryRun) throw new DryRun(receipt);
      await tx.deletionReceipt.create({ data: receipt });
      if (announce) emit(announce(receipt));
      return receipt;
    }).finally(() => {
      forgetChains(deps.db);
      // An erased entry's content leaves the rows kept for updates too (known-rows.ts), not 30 s later.
      for (const id of erasure?.idsOf('Entry') ?? []) forgetRow(deps.db, id);
    });
  } catch (error) {
    if (error instanceof DryRun) return error.receipt;
    throw error;
  }
}

/**
 * Locks the row a deletion names until its transaction ends (PostgreSQL): a concurrent deletion
 * of the same row waits here, then finds it gone (NotFoundError) instead of deleting nothing and
 * writing a receipt of its own (30 parallel deletes of one entry wrote 10 receipts). SQLite has
 * one writer: its write transactions never overlap.
 */
async function lockTarget(tx: Tx, provider: Provider, table: 'Entry' | 'Task' | 'Conversation' | 'Scope', id: string): Promise<void> {
  if (provider === 'postgresql') await tx.$queryRaw`SELECT 1 FROM ${Prisma.raw(`"${table}"`)} WHERE "id" = ${id} FOR UPDATE`;
}

/** An entry, its versions, tags, relations, conflicts, conversation links and search rows. */
export function deleteEntry(deps: WriteDeps, request: DeletionRequest): Promise<DeletionReceipt> {
  return withReceipt(deps, 'deleteEntry', request, async (tx, emit, erasure) => {
    await lockTarget(tx, deps.provider, 'Entry', request.id);
    if (!(await tx.entry.findUnique({ where: { id: request.id }, select: { id: true } }))) throw new NotFoundError('No entry has this id', ['input', 'id']);
    await eraseEntries(tx, emit, [request.id], erasure, request.actor);
  });
}

/**
 * A task and its dependency links (tasks that depended on it lose that dependency). Refused while
 * it has subtasks: they would lose their parent (delete or move them first).
 */
export function deleteTask(deps: WriteDeps, request: DeletionRequest): Promise<DeletionReceipt> {
  return withReceipt(deps, 'deleteTask', request, async (tx, _emit, erasure) => {
    await lockTarget(tx, deps.provider, 'Task', request.id);
    const task = await tx.task.findUnique({ where: { id: request.id }, include: { _count: { select: { children: true } } } });
    if (!task) throw new NotFoundError('No task has this id', ['input', 'id']);
    if (task._count.children > 0) {
      throw new InvalidStateError(`The task has ${task._count.children} subtask(s): delete or move them first`, 'HAS_SUBTASKS', ['input', 'id']);
    }
    await eraseTasks(tx, [task], erasure);
  });
}

async function eraseTasks(tx: Tx, tasks: ReadonlyArray<{ id: string; title: string; description: string | null }>, erasure: Erasure): Promise<void> {
  const lists = chunked(tasks.map((t) => t.id));
  for (const ids of lists) {
    // A dependency between tasks of two lists goes with the first (the second finds it gone).
    const touching = { OR: [{ taskId: { in: ids } }, { dependsOnId: { in: ids } }] };
    const links = await tx.taskDependency.findMany({ where: touching });
    await tx.taskDependency.deleteMany({ where: touching });
    erasure.add('TaskDependency', links.map((l) => ({ id: `${l.taskId}:${l.dependsOnId}` })));
  }
  // Subtasks among the erased go with their parents; the children of erased tasks elsewhere are
  // refused before this (deleteTask) or go together (deleteSession erases the session's tasks).
  // Every list unhooked before any is deleted: a parent may be in a later list than its child.
  for (const ids of lists) await tx.task.updateMany({ where: { id: { in: ids } }, data: { parentId: null } });
  for (const ids of lists) await tx.task.deleteMany({ where: { id: { in: ids } } });
  erasure.add('Task', tasks, (t: (typeof tasks)[number]) => [t.title, t.description]);
}

/** A conversation, its messages and their context links. */
export function deleteConversation(deps: WriteDeps, request: DeletionRequest): Promise<DeletionReceipt> {
  return withReceipt(deps, 'deleteConversation', request, async (tx, _emit, erasure) => {
    await lockTarget(tx, deps.provider, 'Conversation', request.id);
    const conversation = await tx.conversation.findUnique({ where: { id: request.id } });
    if (!conversation) throw new NotFoundError('No conversation has this id', ['input', 'id']);
    await eraseConversations(tx, [conversation], erasure);
  });
}

async function eraseConversations(tx: Tx, conversations: ReadonlyArray<{ id: string; title: string | null }>, erasure: Erasure): Promise<void> {
  const ids = conversations.map((c) => c.id);
  const messages = await tx.conversationMessage.findMany({ where: { conversationId: { in: ids } }, select: { id: true, content: true, metadata: true } });
  const links = await tx.conversationContext.findMany({ where: { conversationId: { in: ids } }, select: { id: true } });
  // Messages and links go with their conversation (cascading foreign keys).
  await tx.conversation.deleteMany({ where: { id: { in: ids } } });
  erasure.add('Conversation', conversations, (c: (typeof conversations)[number]) => c.title);
  erasure.add('ConversationMessage', messages, (m: (typeof messages)[number]) => [m.content, m.metadata]);
  erasure.add('ConversationContext', links);
}

/**
 * A session with everything in it: its entries (as deleteEntry), events, temp: and session:
 * state, conversations, tasks, relations pointing at it, and grants on it. Tasks elsewhere whose
 * parent is one of its tasks become top-level tasks.
 */
export function deleteSession(deps: WriteDeps, request: DeletionRequest): Promise<DeletionReceipt> {
  return withReceipt(deps, 'deleteSession', request, async (tx, emit, erasure) => {
    await lockTarget(tx, deps.provider, 'Scope', request.id);
    const session = await tx.scope.findUnique({ where: { id: request.id } });
    if (session?.kind !== 'SESSION') throw new NotFoundError('No session has this id', ['input', 'id']);
    await eraseScopes(tx, emit, [session], erasure, request.actor);
  });
}

/**
 * A project or an organization with its whole subtree: every scope below it erased as a session
 * is, and each scope's own entries, tasks, conversations and state (project: keys too).
 */
export function deleteScopeTree(deps: WriteDeps, request: DeletionRequest): Promise<DeletionReceipt> {
  return withReceipt(deps, 'deleteScopeTree', request, async (tx, emit, erasure) => {
    await lockTarget(tx, deps.provider, 'Scope', request.id);
    const root = await tx.scope.findUnique({ where: { id: request.id } });
    if (root?.kind !== 'PROJECT' && root?.kind !== 'ORGANIZATION') throw new NotFoundError('No project or organization has this id', ['input', 'id']);
    // Deepest first: the tree is at most organization > project > session.
    const children = await tx.scope.findMany({ where: { parentId: root.id } });
    const grandchildren = await tx.scope.findMany({ where: { parentId: { in: children.map((c) => c.id) } } });
    await eraseScopes(tx, emit, [...grandchildren, ...children, root], erasure, request.actor);
  });
}

type ScopeRow = NonNullable<Awaited<ReturnType<Tx['scope']['findUnique']>>>;

/**
 * Erases scopes (children before parents) with everything in them, a list of ids (id-lists.ts) at a
 * time (a user may have worked in thousands of sessions). A task of a later list whose parent is in
 * an earlier one is unhooked with the tasks elsewhere, then erased with its own list.
 */
async function eraseScopes(tx: Tx, emit: Emit, scopes: readonly ScopeRow[], erasure: Erasure, actor: string | null): Promise<void> {
  for (const some of chunked(scopes)) await eraseSomeScopes(tx, emit, some, erasure, actor);
}

async function eraseSomeScopes(tx: Tx, emit: Emit, scopes: readonly ScopeRow[], erasure: Erasure, actor: string | null): Promise<void> {
  const ids = scopes.map((s) => s.id);
  const entries = await tx.entry.findMany({ where: { scopeId: { in: ids } }, select: { id: true } });
  await eraseEntries(tx, emit, entries.map((e) => e.id), erasure, actor);
  const tasks = await tx.task.findMany({ where: { scopeId: { in: ids } }, select: { id: true, title: true, description: true } });
  for (const parents of chunked(tasks.map((t) => t.id))) {
    await tx.task.updateMany({ where: { parentId: { in: parents }, scopeId: { notIn: ids } }, data: { parentId: null } });
  }
  await eraseTasks(tx, tasks, erasure);
  await eraseConversations(tx, await tx.conversation.findMany({ where: { scopeId: { in: ids } }, select: { id: true, title: true } }), erasure);
  // temp:/session: keys are owned by their session, project: keys by their project.
  await eraseStateKeys(tx, { namespace: { in: ['TEMP', 'SESSION', 'PROJECT'] }, owner: { in: ids } }, erasure);
  const events = await tx.sessionEvent.findMany({ where: { sessionId: { in: ids } }, select: { id: true, content: true, stateDelta: true } });
  await tx.sessionEvent.deleteMany({ where: { sessionId: { in: ids } } });
  const relations = await tx.relation.findMany({ where: { targetScopeId: { in: ids } }, select: { id: true, type: true } });
  await tx.relation.deleteMany({ where: { targetScopeId: { in: ids } } });
  const grants = await tx.grant.findMany({ where: { scopeId: { in: ids } }, select: { id: true } });
  await noteCascades(tx, ids, erasure);
  for (const scope of scopes) await tx.scope.delete({ where: { id: scope.id } });
  erasure.add('Scope', scopes, (s: ScopeRow) => [s.kind, s.name, s.description, s.purpose, s.metadata, s.userId, s.appName]);
  erasure.add('SessionEvent', events, (e: (typeof events)[number]) => [e.content, e.stateDelta]);
  erasure.add('Relation', relations, (r: (typeof relations)[number]) => r.type);
  erasure.add('Grant', grants);
}

/**
 * The rows that go with the scopes by their cascading foreign keys (leases, votes, outcomes,
 * memory policies, flagged agents), put in the receipt: it lists what a deletion erased, and a
 * scale sweep found a project's 1,501 vote questions, their votes and 2,000 leases gone without a
 * line in it.
 */
async function noteCascades(tx: Tx, scopeIds: string[], erasure: Erasure): Promise<void> {
  const inScopes = { scopeId: { in: scopeIds } };
  const policies = await tx.memoryPolicy.findMany({ where: inScopes });
  erasure.add('MemoryPolicy', policies, (p: (typeof policies)[number]) => [p.scopeId, p.memoryType, p.ttlHours, p.retentionDays, p.halfLifeHours]);
  const resources = await tx.leaseResource.findMany({ where: inScopes });
  erasure.add('LeaseResource', resources.map((r) => ({ ...r, id: `${r.scopeId}:${r.resource}` })), (r: (typeof resources)[number]) => [r.resource, r.lastToken]);
  const leases = await tx.lease.findMany({ where: inScopes });
  erasure.add('Lease', leases, (l: (typeof leases)[number]) => [l.resource, l.holder, l.mode, l.token]);
  const questions = await tx.voteQuestion.findMany({ where: inScopes });
  erasure.add('VoteQuestion', questions, (q: (typeof questions)[number]) => [q.key, q.prompt, q.status, q.decidedAnswer, q.createdBy]);
  for (const some of chunked(questions.map((q) => q.id))) {
    const votes = await tx.vote.findMany({ where: { questionId: { in: some } } });
    erasure.add('Vote', votes, (v: (typeof votes)[number]) => [v.voter, v.answer, v.confidence, v.discardReason]);
    const tallies = await tx.voteTally.findMany({ where: { questionId: { in: some } } });
    erasure.add('VoteTally', tallies.map((t) => ({ ...t, id: `${t.questionId}:${t.normalized}` })), (t: (typeof tallies)[number]) => [t.normalized, t.votes]);
  }
  const flagged = await tx.flaggedAgent.findMany({ where: inScopes });
  erasure.add('FlaggedAgent', flagged.map((f) => ({ ...f, id: `${f.scopeId}:${f.agent}` })), (f: (typeof flagged)[number]) => [f.agent, f.reason, f.flaggedBy]);
  const outcomes = await tx.outcome.findMany({ where: inScopes });
  erasure.add('Outcome', outcomes, (o: (typeof outcomes)[number]) => [o.taskId, o.subtaskType, o.itemKey, o.agent, o.success, o.errorKind, o.durationMs, o.tokens, o.recordedBy]);
}

/** State keys with all their versions (which go with them: a cascading foreign key). */
async function eraseStateKeys(tx: Tx, where: Prisma.StateKeyWhereInput, erasure: Erasure): Promise<void> {
  const keys = await tx.stateKey.findMany({ where, select: { id: true, name: true, value: true } });
  const versions = await tx.stateVersion.findMany({ where: { keyId: { in: keys.map((k) => k.id) } }, select: { id: true, value: true } });
  await tx.stateKey.deleteMany({ where: { id: { in: keys.map((k) => k.id) } } });
  erasure.add('StateKey', keys, (k: (typeof keys)[number]) => [k.name, k.value]);
  erasure.add('StateVersion', versions, (v: (typeof versions)[number]) => v.value);
}

/** What eraseMemory selects: entries matching every criterion given (at least one). */
export interface ErasureCriteria {
  /** Entries created by this author (`createdBy`: an actor such as `agent:x` or `user:ana`). */
  author?: string | null;
  /** Entries of this scope, and with `includeDescendants` of the scopes below it. */
  scopeId?: string | null;
  includeDescendants?: boolean | null;
  tag?: string | null;
  memoryType?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  /** Entries whose name or current content contains this text. */
  text?: string | null;
}

/** Erasure by criteria (seed 002 §7): the matching entries, as deleteEntry erases each. */
export function eraseMemory(deps: WriteDeps, request: Omit<DeletionRequest, 'id'>, criteria: ErasureCriteria): Promise<DeletionReceipt> {
  const c = new Checker();
  c.text(criteria.text, ['input', 'text'], LIMITS.eraseText);
  // Blanks alone are a criterion only by accident: " " matches every entry with two words.
  if (criteria.text && !criteria.text.trim()) c.fail(['input', 'text'], 'must hold more than blanks (it would match nearly every entry)');
  c.done();
  return withReceipt(deps, 'eraseMemory', { ...request, id: '' }, async (tx, emit, erasure) => {
    const where = criteriaWhere(criteria, deps.provider);
    const text = criteria.text;
    if (!text) {
      await eraseEntries(tx, emit, (await tx.entry.findMany({ where, select: { id: true } })).map((e) => e.id), erasure, request.actor);
      return;
    }
    // Exactly the text, case and all (LIKE, below it, ignores case on SQLite and reads % and _ there).
    const found = await tx.entry.findMany({ where, select: { id: true, name: true, currentVersion: { select: { content: true, description: true, rationale: true } } } });
    const chosen = found.filter((e) => [e.name, e.currentVersion?.content, e.currentVersion?.description, e.currentVersion?.rationale].some((v) => v?.includes(text)));
    await eraseEntries(tx, emit, chosen.map((e) => e.id), erasure, request.actor);
  }, criteria);
}

function criteriaWhere(c: ErasureCriteria, provider: Provider): Prisma.EntryWhereInput {
  const and: Prisma.EntryWhereInput[] = [];
  if (c.author) and.push({ createdBy: c.author });
  if (c.scopeId) and.push(c.includeDescendants ? { scope: scopeSubtreeWhere(c.scopeId, true) } : { scopeId: c.scopeId });
  if (c.tag) and.push({ tags: { some: { tag: { name: c.tag.trim().toLowerCase() } } } });
  if (c.memoryType) and.push({ memoryType: c.memoryType });
  if (c.createdAfter) and.push({ createdAt: { gte: c.createdAfter } });
  if (c.createdBefore) and.push({ createdAt: { lt: c.createdBefore } });
  if (c.text) {
    // Prisma's `contains` is a LIKE whose pattern it does not escape: `_` and `%` matched every
    // entry (an erasure of "_" erased them all). PostgreSQL's LIKE escapes with a backslash, so
    // there the pattern is the text itself; SQLite's LIKE has no escape without an ESCAPE clause,
    // so there it finds more (any character for `_`, any case), and eraseMemory keeps only the
    // entries that hold the text exactly.
    const text = provider === 'postgresql' ? c.text.replace(/[\\%_]/g, (ch) => `\\${ch}`) : c.text;
    and.push({
      OR: [{ name: { contains: text } }, { currentVersion: { OR: [{ content: { contains: text } }, { description: { contains: text } }, { rationale: { contains: text } }] } }],
    });
  }
  if (and.length === 0) throw new ValidationError([{ path: ['input'], message: 'give at least one criterion' }]);
  return { AND: and };
}

/**
 * "Forget user X": their user: state, the sessions they worked in (erased as deleteSession erases
 * one, events and conversations included), and the entries they authored (`user:X`), everywhere.
 */
export async function forgetUser(deps: WriteDeps, request: Omit<DeletionRequest, 'id'>, userId: string): Promise<DeletionReceipt> {
  // A blank id names nobody, and would take what was written under a blank author.
  if (userId.trim() === '') throw new ValidationError([{ path: ['input', 'userId'], message: 'must not be blank' }]);
  return withReceipt(deps, 'forgetUser', { ...request, id: userId }, async (tx, emit, erasure) => {
    await eraseStateKeys(tx, { namespace: 'USER', owner: userId }, erasure);
    await eraseScopes(tx, emit, await tx.scope.findMany({ where: { kind: 'SESSION', userId } }), erasure, request.actor);
    const authored = await tx.entry.findMany({ where: { createdBy: { in: [`user:${userId}`, userId] } }, select: { id: true } });
    await eraseEntries(tx, emit, authored.map((e) => e.id), erasure, request.actor);
  });
}

/** Erases a batch of entries chosen elsewhere (the purge), with one receipt. */
export function eraseBatch(
  deps: WriteDeps,
  operation: string,
  request: Omit<DeletionRequest, 'id'>,
  entryIds: readonly string[],
  criteria: object,
  announce?: Announce,
): Promise<DeletionReceipt> {
  return withReceipt(deps, operation, { ...request, id: '' }, (tx, emit, erasure) => eraseEntries(tx, emit, entryIds, erasure, request.actor), criteria, announce);
}
