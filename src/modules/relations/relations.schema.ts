import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { can, canOn } from '../../graphql/rules.ts';
import { InvalidStateError, NAMING_ERRORS, WRITE_ERRORS } from '../../graphql/errors.ts';
import { ENTRY_TYPENAMES, SCOPE_TYPENAMES, decodeId, decodeTypedId } from '../../graphql/ids.ts';
import { EntryRef } from '../entries/entries.schema.ts';
import { RelationTypeEnum } from '../entries/entry-enums.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { FENCING_DESCRIPTION, FencingInput, fencedBy } from '../leases/leases.schema.ts';
import { createRelation, deleteRelation, type RelationType } from './relations.service.ts';

export const RelationRef = builder.prismaNode('Relation', {
  description: 'A typed link from an entry to another entry or to a scope.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    type: t.field({ type: RelationTypeEnum, description: 'How the source relates to the target.', resolve: (r) => r.type as RelationType }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created it.' }),
  }),
});

builder.prismaObjectFields(RelationRef, (t) => ({
    source: t.relation('source', { type: EntryRef, description: 'The entry the relation starts from.' }),
    targetEntry: t.relation('targetEntry', { type: EntryRef, nullable: true, description: 'The target, when it is an entry.' }),
    targetScope: t.relation('targetScope', { type: ScopeRef, nullable: true, description: 'The target, when it is a scope.' }),
}));

const CreateRelationInput = builder.inputType('CreateRelationInput', {
  description: 'A new relation.',
  fields: (t) => ({
    source: t.id({ required: true, description: 'The entry it starts from.' }),
    target: t.id({ required: true, description: 'An entry or a scope (not the source itself).' }),
    type: t.field({ type: RelationTypeEnum, required: true, description: 'How they relate.' }),
    author: t.string({ description: 'Who creates it (default: the X-Engram-Actor header).' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const DeleteRelationInput = builder.inputType('DeleteRelationInput', {
  description: 'Names one relation.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The relation.' }) }),
});

const DeletedRelationRef = builder.objectRef<{ id: string }>('DeletedRelation').implement({
  description: 'A relation that no longer exists.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      description: 'Global ID the relation had.',
      resolve: (r) => encode(r.id),
    }),
  }),
});

const encode = (id: string) => encodeGlobalID('Relation', id);

builder.mutationFields((t) => ({
  createRelation: t.field({
    type: RelationRef,
    description: 'Relates an entry to an entry or a scope. Unique per (source, target, type).',
    args: { input: t.arg({ type: CreateRelationInput, required: true, description: 'The relation.' }) },
    // WRITE on the source's scope; the target must be readable (one that is not answers as missing).
    authScopes: (_root, { input }) => {
      const target = decodeTypedId(String(input.target), [...ENTRY_TYPENAMES, ...SCOPE_TYPENAMES], ['input', 'target']);
      const kind = (ENTRY_TYPENAMES as readonly string[]).includes(target.typename) ? 'entry' : 'scope';
      return {
        $all: {
          ...can('WRITE', 'entry', input.source, ENTRY_TYPENAMES, ['input', 'source']),
          canEach: [canOn('READ', kind, target.id, ['input', 'target']).can],
        },
      };
    },
    errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'relation', description: 'The new relation.' } },
    resolve: async (_root, { input }, ctx) => {
      const target = decodeTypedId(String(input.target), [...ENTRY_TYPENAMES, ...SCOPE_TYPENAMES], ['input', 'target']);
      return createRelation(fencedBy(ctx, input.fencing), {
        type: input.type,
        sourceId: decodeId(String(input.source), ENTRY_TYPENAMES, ['input', 'source']),
        target: (ENTRY_TYPENAMES as readonly string[]).includes(target.typename) ? { entryId: target.id } : { scopeId: target.id },
        author: await ctx.author(input.author, ['input', 'author']),
      });
    },
  }),
  deleteRelation: t.field({
    type: DeletedRelationRef,
    description: 'Deletes a relation.',
    args: { input: t.arg({ type: DeleteRelationInput, required: true, description: 'The relation.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'relation', input.id, ['Relation'], ['input', 'id']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'deleted', description: 'The deleted relation.' } },
    resolve: (_root, { input }, ctx) => deleteRelation(ctx, decodeId(String(input.id), ['Relation'], ['input', 'id']), ctx.actor),
  }),
}));
