import { builder } from '../../graphql/builder.ts';
import { MEMBER, can } from '../../graphql/rules.ts';
import { CREATE_ERRORS, InvalidStateError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { EntryRef } from '../entries/entries.schema.ts';
import { TagCategoryEnum } from '../entries/entry-enums.ts';
import { FENCING_DESCRIPTION, FencingInput, fencedBy } from '../leases/leases.schema.ts';
import { attachTags, createTag, detachTags, type TagCategory } from './tags.service.ts';
import { screenSecrets, tagNames } from '../redaction/redaction.service.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';
import { scopeOfTarget } from '../identity/targets.ts';

export const TagRef = builder.prismaNode('Tag', {
  description: 'A label on entries: predefined (seeded in every database) or free-form.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Unique, normalized: trimmed, lower case, inner spaces as "-".' }),
    category: t.field({ type: TagCategoryEnum, description: 'Vocabulary it belongs to.', resolve: (tag) => tag.category as TagCategory }),
    predefined: t.exposeBoolean('predefined', { description: 'Part of the seeded vocabulary.' }),
    description: t.exposeString('description', { nullable: true, description: 'What it means.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

builder.queryField('tags', (t) =>
  t.prismaConnection(
    {
      type: TagRef,
      cursor: 'id',
      ...PAGING,
      description: 'Tags ordered by name (the shared vocabulary).',
      authScopes: MEMBER,
      args: {
        category: t.arg({ type: TagCategoryEnum, description: 'Only tags of this category.' }),
        predefined: t.arg.boolean({ description: 'Only predefined (true) or only free-form (false) tags.' }),
      },
      totalCount: (_parent, args, ctx) => ctx.db.tag.count({ where: tagWhere(args) }),
      resolve: (query, _root, args, ctx) =>
        ctx.db.tag.findMany({ ...query, where: tagWhere(args), orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
    },
    { description: 'Page of tags.' },
    { description: 'A tag.' },
  ),
);

function tagWhere(args: { category?: string | null; predefined?: boolean | null }) {
  return {
    ...(args.category ? { category: args.category } : {}),
    ...(args.predefined != null ? { predefined: args.predefined } : {}),
  };
}

const CreateTagInput = builder.inputType('CreateTagInput', {
  description: 'A new tag.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Name; stored normalized.' }),
    category: t.field({ type: TagCategoryEnum, description: 'Default CUSTOM.' }),
    description: t.string({ description: 'What it means.' }),
  }),
});

const TagsOfEntryInput = builder.inputType('TagsOfEntryInput', {
  description: 'Tags to link to or unlink from an entry.',
  fields: (t) => ({
    entry: t.id({ required: true, description: 'The entry.' }),
    tags: t.stringList({ required: true, description: 'Tag names.' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

builder.mutationFields((t) => ({
  createTag: t.field({
    type: TagRef,
    description: 'Creates a tag (any caller with WRITE somewhere: the vocabulary is shared).',
    authScopes: { writer: true },
    args: { input: t.arg({ type: CreateTagInput, required: true, description: 'The tag.' }) },
    errors: { types: [...CREATE_ERRORS], dataField: { name: 'tag', description: 'The new tag.' } },
    resolve: async (_root, { input }, ctx) => {
      // The vocabulary is shared: the global scope's policy. A tag is found by its name: refused, not redacted.
      const [name, description] = await screenSecrets(ctx.db, GLOBAL_SCOPE_ID, [
        { path: ['input', 'name'], value: input.name, isName: true },
        { path: ['input', 'description'], value: input.description ?? null },
      ]);
      return createTag(ctx.db, { ...input, name: name as string, description: description as string | null });
    },
  }),
  attachTags: t.field({
    type: EntryRef,
    description: 'Links tags to an entry; unknown names become free-form (CUSTOM) tags. Already linked tags are kept.',
    args: { input: t.arg({ type: TagsOfEntryInput, required: true, description: 'Entry and tags.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'entry', input.entry, ENTRY_TYPENAMES, ['input', 'entry']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'entry', description: 'The entry after the change.' } },
    resolve: async (_root, { input }, ctx) => {
      const entryId = decodeId(String(input.entry), ENTRY_TYPENAMES, ['input', 'entry']);
      await screenSecrets(ctx.db, (await scopeOfTarget(ctx.db, ctx.access, 'entry', entryId)) ?? null, tagNames(input.tags, ['input', 'tags']));
      return attachTags(fencedBy(ctx, input.fencing), entryId, input.tags, ctx.actor);
    },
  }),
  detachTags: t.field({
    type: EntryRef,
    description: 'Unlinks tags from an entry; names it does not carry are ignored.',
    args: { input: t.arg({ type: TagsOfEntryInput, required: true, description: 'Entry and tags.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'entry', input.entry, ENTRY_TYPENAMES, ['input', 'entry']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'entry', description: 'The entry after the change.' } },
    resolve: (_root, { input }, ctx) =>
      detachTags(fencedBy(ctx, input.fencing), decodeId(String(input.entry), ENTRY_TYPENAMES, ['input', 'entry']), input.tags, ctx.actor),
  }),
}));
