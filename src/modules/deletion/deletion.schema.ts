import { builder } from '../../graphql/builder.ts';
import { InvalidStateError, PermissionDeniedError, ValidationError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { ADMIN, can } from '../../graphql/rules.ts';
import type { Context } from '../../context.ts';
import type { TargetKind } from '../identity/targets.ts';
import { deleteConversation, deleteEntry, deleteScopeTree, deleteSession, deleteTask, eraseMemory, forgetUser, type DeletionRequest } from './deletion.service.ts';
import { MemoryTypeEnum } from '../entries/entry-enums.ts';
import { SCOPE_TYPENAMES } from '../../graphql/ids.ts';

export const DeletionReceiptRef = builder.prismaObject('DeletionReceipt', {
  description: 'What a deletion erased, kept after the data is gone: counts and ids per kind and a hash of the content, never the content.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The receipt (a database id; receipts are not nodes).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the deletion committed.' }),
    operation: t.exposeString('operation', { description: 'deleteEntry, deleteTask, deleteConversation, deleteSession or deleteScopeTree.' }),
    principalName: t.exposeString('principalName', { nullable: true, description: 'Who deleted (null: a local or unchecked caller).' }),
    criteria: t.field({ type: 'JSON', description: 'What was asked to be deleted.', resolve: (r) => JSON.parse(r.criteria) as unknown }),
    counts: t.field({ type: 'JSON', description: 'Rows erased per kind, e.g. {"Entry": 1, "EntryVersion": 3}.', resolve: (r) => JSON.parse(r.counts) as unknown }),
    ids: t.field({ type: 'JSON', description: 'Database ids erased per kind.', resolve: (r) => JSON.parse(r.ids) as unknown }),
    contentHash: t.exposeString('contentHash', { description: 'SHA-256 (hex) of the erased content in a canonical order: proof of what went.' }),
  }),
});

const DeleteInput = builder.inputType('DeleteInput', {
  description: 'What to delete for good.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The thing to delete.' }),
    dryRun: t.boolean({ description: 'Only say what would be erased (the receipt), changing nothing (default false).' }),
  }),
});

/** A hard-delete mutation: ADMIN on the target's scope; answers with the receipt. */
function deletion(
  name: string,
  description: string,
  target: { kind: TargetKind; typenames: readonly string[]; label: string },
  run: (ctx: Context, request: DeletionRequest) => ReturnType<typeof deleteEntry>,
  // Only a task can be refused for its state (while it has subtasks).
  errors: readonly (typeof InvalidStateError | (typeof WRITE_ERRORS)[number])[] = WRITE_ERRORS,
) {
  builder.mutationField(name, (t) =>
    t.field({
      type: DeletionReceiptRef,
      description: `${description} For good, in one transaction, with a receipt (ADMIN on its scope). \`dryRun\` only tells what would go.`,
      args: { input: t.arg({ type: DeleteInput, required: true, description: 'The target.' }) },
      authScopes: (_root, { input }) => can('ADMIN', target.kind, input.id, target.typenames, ['input', 'id'], { label: target.label }),
      errors: { types: [...errors], dataField: { name: 'receipt', description: 'What was (or, in a dry run, would be) erased.' } },
      resolve: (_root, { input }, ctx) =>
        run(ctx, {
          id: decodeId(String(input.id), target.typenames, ['input', 'id']),
          dryRun: input.dryRun ?? false,
          principal: ctx.caller.principal,
          actor: ctx.actor,
        }),
    }),
  );
}

deletion('deleteEntry', 'Deletes an entry with its versions, tags, relations, conflicts, conversation links and search text.', { kind: 'entry', typenames: ENTRY_TYPENAMES, label: 'entry' }, deleteEntry);
deletion('deleteTask', 'Deletes a task and its dependency links (refused while it has subtasks).', { kind: 'task', typenames: ['Task'], label: 'task' }, deleteTask, [
  ...WRITE_ERRORS,
  InvalidStateError,
]);
deletion('deleteConversation', 'Deletes a conversation with its messages and context links.', { kind: 'conversation', typenames: ['Conversation'], label: 'conversation' }, deleteConversation);
deletion(
  'deleteSession',
  'Deletes a session with its entries, events, temp: and session: state, conversations, tasks, relations to it and grants on it.',
  { kind: 'scope', typenames: ['Session'], label: 'session' },
  deleteSession,
);

deletion(
  'deleteScopeTree',
  'Deletes a project or an organization with everything below it: its sessions as deleteSession does, and each scope\'s own entries, tasks, conversations and project: state.',
  { kind: 'scope', typenames: ['Project', 'Organization'], label: 'project or organization' },
  deleteScopeTree,
);

const EraseMemoryInput = builder.inputType('EraseMemoryInput', {
  description: 'Which entries to erase: those matching every criterion given (at least one).',
  fields: (t) => ({
    author: t.string({ description: 'Created by this author (an actor: `agent:x`, `user:ana`).' }),
    scope: t.id({ description: 'In this scope (ADMIN on it needed; without a scope, only an admin of everything may erase).' }),
    includeDescendants: t.boolean({ description: 'With `scope`: also the scopes below it.' }),
    tag: t.string({ description: 'Carrying this tag.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'Of this memory type.' }),
    createdAfter: t.field({ type: 'DateTime', description: 'Created at or after this instant.' }),
    createdBefore: t.field({ type: 'DateTime', description: 'Created before this instant.' }),
    text: t.string({ description: 'Whose name or current content (content, description or rationale) contains this text exactly: case as given, and `%`, `_` and `\\` are characters like any other (blanks alone are refused).' }),
    dryRun: t.boolean({ description: 'Only say what would be erased (default false).' }),
  }),
});

const ForgetUserInput = builder.inputType('ForgetUserInput', {
  description: 'A user to forget.',
  fields: (t) => ({
    userId: t.string({ required: true, description: "The user id sessions record (owner of the user's user: keys)." }),
    dryRun: t.boolean({ description: 'Only say what would be erased (default false).' }),
  }),
});


builder.mutationFields((t) => ({
  eraseMemory: t.field({
    type: DeletionReceiptRef,
    description: 'Erases every entry matching the criteria, as deleteEntry does, in one transaction with one receipt.',
    args: { input: t.arg({ type: EraseMemoryInput, required: true, description: 'The criteria.' }) },
    authScopes: (_root, { input }) => (input.scope != null ? can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']) : ADMIN),
    errors: { types: [...WRITE_ERRORS], dataField: { name: 'receipt', description: 'What was (or would be) erased.' } },
    resolve: (_root, { input }, ctx) =>
      eraseMemory(ctx, { dryRun: input.dryRun ?? false, principal: ctx.caller.principal, actor: ctx.actor }, {
        ...input,
        scopeId: input.scope != null ? decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']) : null,
      }),
  }),
  forgetUser: t.field({
    type: DeletionReceiptRef,
    description: "Forgets a user everywhere: their user: state, the sessions they worked in (with events and conversations), and the entries they authored (admins of everything only).",
    args: { input: t.arg({ type: ForgetUserInput, required: true, description: 'The user.' }) },
    authScopes: ADMIN,
    // A user id that names nobody forgets nothing: there is nothing to be missing.
    errors: { types: [ValidationError, PermissionDeniedError], dataField: { name: 'receipt', description: 'What was (or would be) erased.' } },
    resolve: (_root, { input }, ctx) => forgetUser(ctx, { dryRun: input.dryRun ?? false, principal: ctx.caller.principal, actor: ctx.actor }, input.userId),
  }),
}));

builder.queryField('deletionReceipts', (t) =>
  t.prismaConnection(
    {
      type: 'DeletionReceipt',
      cursor: 'id',
      ...PAGING,
      description: 'Receipts of hard deletions, newest first (admins only).',
      authScopes: ADMIN,
      totalCount: (_parent, _args, ctx) => ctx.db.deletionReceipt.count(),
      resolve: (query, _root, _args, ctx) => ctx.db.deletionReceipt.findMany({ ...query, orderBy: { id: 'desc' } }),
    },
    { description: 'Page of deletion receipts.' },
    { description: 'A deletion receipt.' },
  ),
);
