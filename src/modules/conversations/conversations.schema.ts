import { builder } from '../../graphql/builder.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import { scopeOfTarget } from '../identity/targets.ts';
import { can } from '../../graphql/rules.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { Context } from '../../context.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { InvalidPlacementError, InvalidStateError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { EntryRef } from '../entries/entries.schema.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { addMessage, linkEntries, startConversation, type MessageRole } from './conversations.service.ts';

const MessageRoleEnum = builder.enumType('MessageRole', {
  description: 'Who wrote a message.',
  values: {
    USER: { description: 'The user.' },
    ASSISTANT: { description: 'The agent.' },
    SYSTEM: { description: 'System instructions.' },
    TOOL: { description: 'A tool result.' },
  },
});

const ContextSourceEnum = builder.enumType('ConversationContextSource', {
  description: 'How an entry came to be linked.',
  values: {
    QUERY: { description: 'A memoryQuery or context call that named the conversation returned it.' },
    MANUAL: { description: 'Linked explicitly (addMessage, linkConversationEntries).' },
  },
});

export const ConversationRef = builder.prismaNode('Conversation', {
  description: 'A conversation thread in a project or session.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true, description: 'Its title.' }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true, description: 'Free-form JSON object.' }),
    messageCount: t.exposeInt('messageCount', { description: 'Number of messages.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it started.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who started it.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Last message or change.' }),
    scope: t.relation('scope', { type: ScopeRef, description: 'The project or session it belongs to.' }),
  }),
});

export const MessageRef = builder.prismaNode('ConversationMessage', {
  variant: 'Message',
  description: 'A message of a conversation.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    position: t.exposeInt('position', { description: 'Its place in the conversation, from 1, gapless.' }),
    role: t.field({ type: MessageRoleEnum, description: 'Who wrote it.', resolve: (m) => m.role as MessageRole }),
    content: t.exposeString('content', { description: 'The text.' }),
    toolsUsed: t.stringList({
      description: 'Names of the tools it used.',
      resolve: (m) => (Array.isArray(m.toolsUsed) ? (m.toolsUsed as string[]) : []),
    }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true, description: 'Free-form JSON object.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was added.' }),
    conversation: t.relation('conversation', { type: ConversationRef, description: 'Its conversation.' }),
  }),
});

const ContextLinkRef = builder.prismaObject('ConversationContext', {
  name: 'ConversationContextLink',
  description: 'A memory entry a conversation or message used, with its relevance score then.',
  fields: (t) => ({
    entry: t.relation('entry', { type: EntryRef, description: 'The entry.' }),
    message: t.relation('message', { type: MessageRef, nullable: true, description: 'The message that used it; null for the conversation as a whole.' }),
    score: t.exposeFloat('score', { nullable: true, description: 'Relevance score when linked (null when not given).' }),
    source: t.field({ type: ContextSourceEnum, description: 'How it was linked.', resolve: (l) => l.source as 'QUERY' | 'MANUAL' }),
    linkedAt: t.expose('linkedAt', { type: 'DateTime', description: 'When it was (last) linked.' }),
  }),
});

builder.prismaObjectFields(ConversationRef, (t) => ({
  messages: t.relatedConnection(
    'messages',
    { type: MessageRef, cursor: 'id', ...PAGING, totalCount: true, description: 'Messages in order.', query: () => ({ orderBy: { position: 'asc' } }) },
    { name: 'ConversationMessagesConnection', description: 'Page of messages.' },
    { name: 'ConversationMessagesEdge', description: 'A message.' },
  ),
  context: t.relatedConnection(
    'context',
    {
      type: ContextLinkRef,
      cursor: 'id',
      ...PAGING,
      totalCount: true,
      description: 'Entries the conversation and its messages used (those the caller may read), oldest link first.',
      query: (_args, ctx) => ({ where: readableLinks(ctx), orderBy: { id: 'asc' } }),
    },
    { name: 'ConversationContextConnection', description: 'Page of context links.' },
    { name: 'ConversationContextEdge', description: 'A context link.' },
  ),
}));

builder.prismaObjectFields(MessageRef, (t) => ({
  context: t.relation('context', {
    type: ContextLinkRef,
    description: 'Entries this message used (those the caller may read), highest score first.',
    query: (_args, ctx) => ({ where: readableLinks(ctx), orderBy: [{ score: 'desc' }, { id: 'asc' }], take: 100 }),
  }),
}));

builder.queryField('conversations', (t) =>
  t.prismaConnection(
    {
      type: ConversationRef,
      cursor: 'id',
      ...PAGING,
      description: 'Conversations of a project or session, newest first.',
      args: { scope: t.arg.id({ required: true, description: 'The project or session.' }) },
      authScopes: (_root, args) => can('READ', 'scope', args.scope, ['Project', 'Session'], ['scope']),
      totalCount: (_parent, args, ctx) => ctx.db.conversation.count({ where: { scopeId: scopeOf(args.scope) } }),
      resolve: (query, _root, args, ctx) =>
        ctx.db.conversation.findMany({ ...query, where: { scopeId: scopeOf(args.scope) }, orderBy: { id: 'desc' } }),
    },
    { description: 'Page of conversations.' },
    { description: 'A conversation.' },
  ),
);

const scopeOf = (id: string | number) => decodeId(String(id), ['Project', 'Session'], ['scope']);

const UsedEntryInput = builder.inputType('UsedEntryInput', {
  description: 'An entry a message used.',
  fields: (t) => ({
    entry: t.id({ required: true, description: 'The entry.' }),
    score: t.float({ description: 'Its relevance score then.' }),
  }),
});

const StartConversationInput = builder.inputType('StartConversationInput', {
  description: 'A new conversation.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The project or session.' }),
    title: t.string({ description: 'A title.' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form JSON object.' }),
  }),
});

const AddMessageInput = builder.inputType('AddMessageInput', {
  description: 'A message for a conversation.',
  fields: (t) => ({
    conversation: t.id({ required: true, description: 'The conversation.' }),
    role: t.field({ type: MessageRoleEnum, required: true, description: 'Who wrote it.' }),
    content: t.string({ required: true, description: 'The text.' }),
    toolsUsed: t.stringList({ description: 'Names of the tools it used.' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form JSON object.' }),
    usedEntries: t.field({ type: [UsedEntryInput], description: 'Memory entries it used.' }),
  }),
});

const LinkEntriesInput = builder.inputType('LinkConversationEntriesInput', {
  description: 'Entries a conversation or one of its messages used.',
  fields: (t) => ({
    conversation: t.id({ required: true, description: 'The conversation.' }),
    message: t.id({ description: 'One of its messages (default: the conversation as a whole).' }),
    usedEntries: t.field({ type: [UsedEntryInput], required: true, description: 'The entries.' }),
  }),
});

type UsedArg = Array<{ entry: string | number; score?: number | null }> | null | undefined;
const usedOf = (used: UsedArg) =>
  (used ?? []).map((u, i) => ({ entryId: decodeId(String(u.entry), ENTRY_TYPENAMES, ['input', 'usedEntries', String(i), 'entry']), score: u.score ?? null }));

/** WRITE on the conversation's scope, and READ on every entry linked to it (one it cannot read answers as missing). */
function writeAndLink(conversation: string | number, used: UsedArg) {
  return {
    $all: {
      ...can('WRITE', 'conversation', conversation, ['Conversation'], ['input', 'conversation']),
      canEach: (used ?? []).slice(0, LIMITS.contextLinks).map((u, i) =>
        can('READ', 'entry', u.entry, ENTRY_TYPENAMES, ['input', 'usedEntries', String(i), 'entry']).can),
    },
  };
}

/** Context links to entries the caller reads; for the synchronous nested `query`. */
function readableLinks(ctx: Context): Prisma.ConversationContextWhereInput {
  const scope = ctx.access.scopeWhereNow();
  return scope ? { entry: { scope } } : {};
}

builder.mutationFields((t) => ({
  startConversation: t.field({
    type: ConversationRef,
    description: 'Starts a conversation in a project or session.',
    args: { input: t.arg({ type: StartConversationInput, required: true, description: 'The conversation.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...WRITE_ERRORS, InvalidPlacementError, InvalidStateError], dataField: { name: 'conversation', description: 'The new conversation.' } },
    resolve: async (_root, { input }, ctx) => {
      const scopeId = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
      const [title, metadata] = await screenSecrets(ctx.db, scopeId, [
        { path: ['input', 'title'], value: input.title ?? null },
        { path: ['input', 'metadata'], value: input.metadata ?? null },
      ]);
      return startConversation(ctx, { scopeId, title: title as string | null, metadata: metadata as Prisma.InputJsonValue | null, author: ctx.actor });
    },
  }),
  addMessage: t.field({
    type: MessageRef,
    description: 'Appends a message to a conversation, with the entries it used.',
    args: { input: t.arg({ type: AddMessageInput, required: true, description: 'The message.' }) },
    authScopes: (_root, { input }) => writeAndLink(input.conversation, input.usedEntries),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'added', description: 'The new message.' } },
    resolve: async (_root, { input }, ctx) => {
      const conversationId = decodeId(String(input.conversation), ['Conversation'], ['input', 'conversation']);
      const scopeId = (await scopeOfTarget(ctx.db, ctx.access, 'conversation', conversationId)) ?? null;
      const [content, metadata] = await screenSecrets(ctx.db, scopeId, [
        { path: ['input', 'content'], value: input.content },
        { path: ['input', 'metadata'], value: input.metadata ?? null },
      ]);
      return addMessage(ctx, {
        conversationId,
        role: input.role,
        content: content as string,
        toolsUsed: input.toolsUsed ?? null,
        metadata: metadata as Prisma.InputJsonValue | null,
        usedEntries: usedOf(input.usedEntries),
      });
    },
  }),
  linkConversationEntries: t.field({
    type: ConversationRef,
    description: 'Links entries to a conversation or one of its messages (linking again updates the score).',
    args: { input: t.arg({ type: LinkEntriesInput, required: true, description: 'The links.' }) },
    authScopes: (_root, { input }) => writeAndLink(input.conversation, input.usedEntries),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'conversation', description: 'The conversation.' } },
    resolve: (_root, { input }, ctx) =>
      linkEntries(ctx, {
        conversationId: decodeId(String(input.conversation), ['Conversation'], ['input', 'conversation']),
        messageId: input.message != null ? decodeId(String(input.message), ['Message'], ['input', 'message']) : null,
        usedEntries: usedOf(input.usedEntries),
        source: 'MANUAL',
      }),
  }),
}));
