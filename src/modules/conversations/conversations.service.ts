import type { Tx } from '../../infra/database.ts';
import { isForeignKeyViolation, isRecordNotFound } from '../../infra/prisma-errors.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { InvalidPlacementError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { Prisma, type Conversation, type ConversationMessage } from '../../generated/sqlite/client.ts';
import { archivedError } from '../scopes/archived.ts';

/** Conversations in a project or session: ordered messages, and the memory entries they used. */
export const MESSAGE_ROLES = ['USER', 'ASSISTANT', 'SYSTEM', 'TOOL'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface UsedEntry {
  entryId: string;
  /** Relevance score at the time, if known. */
  score?: number | null;
}

export interface StartConversationInput {
  scopeId: string;
  title?: string | null;
  metadata?: Prisma.InputJsonValue | null;
  author: string | null;
}

export async function startConversation(deps: WriteDeps, input: StartConversationInput): Promise<Conversation> {
  const c = new Checker();
  c.text(input.title, ['input', 'title'], LIMITS.title);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  return writeTransaction(deps, async (tx) => {
    const scope = await tx.scope.findUnique({ where: { id: input.scopeId }, select: { kind: true, status: true } });
    if (!scope) throw new NotFoundError('No scope has this id', ['input', 'scope']);
    if (scope.kind !== 'PROJECT' && scope.kind !== 'SESSION') {
      throw new InvalidPlacementError('Conversations belong to a project or a session', ['input', 'scope']);
    }
    if (scope.status === 'ARCHIVED') throw archivedError(['input', 'scope']);
    return tx.conversation.create({
      data: {
        scopeId: input.scopeId,
        title: input.title?.trim() || null,
        metadata: input.metadata ?? Prisma.DbNull,
        createdBy: input.author,
      },
    });
  });
}

function checkUsed(c: Checker, used: readonly UsedEntry[], path: string[]): void {
  if (used.length > LIMITS.contextLinks) c.fail(path, `must list at most ${LIMITS.contextLinks} entries`);
  used.forEach((u, i) => c.range(u.score, [...path, String(i), 'score'], -1e6, 1e6));
}

/**
 * Links entries to a conversation (or one of its messages) in the caller's transaction. Linking
 * an entry again updates its score and time. An unknown entry fails as NotFound.
 */
export async function linkContext(
  tx: Tx,
  conversationId: string,
  messageId: string | null,
  used: readonly UsedEntry[],
  source: 'QUERY' | 'MANUAL',
): Promise<void> {
  if (used.length === 0) return;
  const at = new Date();
  const unique = [...new Map(used.map((u) => [u.entryId, u])).values()];
  const rows = unique.map(
    (u) => Prisma.sql`(${uuidv7()}, ${conversationId}, ${messageId}, ${messageId ?? ''}, ${u.entryId}, ${u.score ?? null}, ${source}, ${at})`,
  );
  try {
    await tx.$executeRaw`INSERT INTO "ConversationContext" ("id", "conversationId", "messageId", "messageKey", "entryId", "score", "source", "linkedAt")
      VALUES ${Prisma.join(rows)}
      ON CONFLICT ("conversationId", "messageKey", "entryId")
      DO UPDATE SET "score" = excluded."score", "source" = excluded."source", "linkedAt" = excluded."linkedAt"`;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new NotFoundError('An entry to link does not exist', ['input', 'usedEntries']);
    throw error;
  }
}

export interface AddMessageInput {
  conversationId: string;
  role: MessageRole;
  content: string;
  toolsUsed?: readonly string[] | null;
  metadata?: Prisma.InputJsonValue | null;
  usedEntries?: readonly UsedEntry[] | null;
}

/** Appends a message (positions are gapless from 1) with the entries it used, in one transaction. */
export async function addMessage(deps: WriteDeps, input: AddMessageInput): Promise<ConversationMessage> {
  const c = new Checker();
  c.text(input.content, ['input', 'content'], LIMITS.message, true);
  const tools = input.toolsUsed ?? [];
  if (tools.length > LIMITS.toolsUsed) c.fail(['input', 'toolsUsed'], `must list at most ${LIMITS.toolsUsed} tools`);
  tools.forEach((tool, i) => c.text(tool, ['input', 'toolsUsed', String(i)], LIMITS.name, true));
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  checkUsed(c, input.usedEntries ?? [], ['input', 'usedEntries']);
  c.done();
  return writeTransaction(deps, async (tx) => {
    const conversation = await lockConversation(tx, input.conversationId, ['input', 'conversation']);
    const message = await tx.conversationMessage.create({
      data: {
        conversationId: conversation.id,
        position: conversation.messageCount,
        role: input.role,
        content: input.content,
        toolsUsed: tools.length > 0 ? [...tools] : Prisma.DbNull,
        metadata: input.metadata ?? Prisma.DbNull,
      },
    });
    await linkContext(tx, conversation.id, message.id, input.usedEntries ?? [], 'MANUAL');
    return message;
  });
}

/** Takes the next message position (the conversation row's write lock); refuses archived scopes. */
async function lockConversation(tx: Tx, id: string, path: string[]): Promise<Conversation> {
  let conversation: Conversation;
  try {
    conversation = await tx.conversation.update({ where: { id }, data: { messageCount: { increment: 1 } } });
  } catch (error) {
    if (isRecordNotFound(error)) throw new NotFoundError('No conversation has this id', path);
    throw error;
  }
  const scope = await tx.scope.findUniqueOrThrow({ where: { id: conversation.scopeId }, select: { status: true } });
  if (scope.status === 'ARCHIVED') throw archivedError(path);
  return conversation;
}

/**
 * Links entries to a conversation or one of its messages: by hand (MANUAL), or the results of a
 * memory query that named the conversation, with the scores they had (QUERY).
 */
export async function linkEntries(
  deps: WriteDeps,
  input: { conversationId: string; messageId: string | null; usedEntries: readonly UsedEntry[]; source: 'QUERY' | 'MANUAL' },
): Promise<Conversation> {
  const c = new Checker();
  checkUsed(c, input.usedEntries, ['input', 'usedEntries']);
  c.done();
  return writeTransaction(deps, async (tx) => {
    const conversation = await checkTarget(tx, input.conversationId, input.messageId);
    await linkContext(tx, conversation.id, input.messageId, input.usedEntries, input.source);
    return conversation;
  });
}

/** The conversation, checked to exist, to take writes, and to hold `messageId` if given. */
async function checkTarget(tx: Tx, conversationId: string, messageId: string | null): Promise<Conversation> {
  const conversation = await tx.conversation.findUnique({ where: { id: conversationId }, include: { scope: { select: { status: true } } } });
  if (!conversation) throw new NotFoundError('No conversation has this id', ['input', 'conversation']);
  if (conversation.scope.status === 'ARCHIVED') throw archivedError(['input', 'conversation']);
  if (messageId) {
    // A message of another conversation answers like one that does not exist: that conversation
    // may be one the caller cannot read (the answer told that the message existed).
    const message = await tx.conversationMessage.findFirst({ where: { id: messageId, conversationId }, select: { id: true } });
    if (!message) throw new NotFoundError('No message of this conversation has this id', ['input', 'message']);
  }
  const { scope: _scope, ...row } = conversation;
  return row;
}
