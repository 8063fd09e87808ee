import { builder } from '../../graphql/builder.ts';
import { InvalidStateError, NAMING_ERRORS, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { can } from '../../graphql/rules.ts';
import { UpdateResultRef } from './entries.schema.ts';
import type { Context } from '../../context.ts';
import { scopeOfTarget } from '../identity/targets.ts';
import { screenSecrets, screenText } from '../redaction/redaction.service.ts';
import { renameEntry, rollbackEntry } from './entry-edits.service.ts';

const RollbackEntryInput = builder.inputType('RollbackEntryInput', {
  description: 'Which entry to roll back, and to which version.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The entry (tool, guideline or knowledge).' }),
    version: t.int({ required: true, description: 'The version whose content to bring back.' }),
    changeReason: t.string({ description: 'Why (default: "Rolled back to version N").' }),
    author: t.string({ description: 'Who (default: the caller).' }),
  }),
});

const RenameEntryInput = builder.inputType('RenameEntryInput', {
  description: 'A new name for an entry (a knowledge entry: its title).',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The entry.' }),
    name: t.string({ required: true, description: 'The new name, unique per scope and kind.' }),
    author: t.string({ description: 'Who (default: the caller).' }),
  }),
});

/** The scope an entry is in, for the secret policy its texts are screened under (the access rule has just read it). */
const scopeOf = async (ctx: Context, id: string): Promise<string | null> => (await scopeOfTarget(ctx.db, ctx.access, 'entry', id)) ?? null;

builder.mutationFields((t) => ({
  rollbackEntry: t.field({
    type: UpdateResultRef,
    description: "Appends a version equal to an earlier one: history is kept, the entry's content is version N's again (WRITE on its scope).",
    args: { input: t.arg({ type: RollbackEntryInput, required: true, description: 'Entry and version.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'entry', input.id, ENTRY_TYPENAMES, ['input', 'id']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'update', description: 'The version written.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ENTRY_TYPENAMES, ['input', 'id']);
      return rollbackEntry(ctx, {
        id,
        version: input.version,
        // Without a reason of the caller's there is nothing to screen (and no scope to read for it).
        changeReason: input.changeReason == null ? input.changeReason : await screenText(ctx.db, await scopeOf(ctx, id), ['input', 'changeReason'], input.changeReason),
        author: await ctx.author(input.author, ['input', 'author']),
      });
    },
  }),
  renameEntry: t.field({
    type: UpdateResultRef,
    description: 'Renames an entry: a new version records the change and the old name stops resolving (WRITE on its scope).',
    args: { input: t.arg({ type: RenameEntryInput, required: true, description: 'Entry and name.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'entry', input.id, ENTRY_TYPENAMES, ['input', 'id']),
    errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'update', description: 'The version that records the rename.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ENTRY_TYPENAMES, ['input', 'id']);
      await screenSecrets(ctx.db, await scopeOf(ctx, id), [{ path: ['input', 'name'], value: input.name, isName: true }]);
      return renameEntry(ctx, { id, name: input.name, author: await ctx.author(input.author, ['input', 'author']) });
    },
  }),
}));
