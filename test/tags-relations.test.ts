import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness, withSecondInstance } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject } from './support/ops.ts';

const h = useHarness();

const Tags = graphql(`
  query Tags($category: TagCategory, $predefined: Boolean, $first: Int) {
    tags(category: $category, predefined: $predefined, first: $first) { totalCount edges { node { id name category predefined description } } }
  }
`);

const CreateTag = graphql(`
  mutation CreateTag($input: CreateTagInput!) {
    createTag(input: $input) {
      __typename
      ... on CreateTagSuccess { tag { name category predefined description } }
      ... on UserError { code path }
    }
  }
`);

const Attach = graphql(`
  mutation Attach($input: TagsOfEntryInput!) {
    attachTags(input: $input) {
      __typename
      ... on AttachTagsSuccess { entry { tags { name category } } }
      ... on UserError { code path }
    }
  }
`);

const Detach = graphql(`
  mutation Detach($input: TagsOfEntryInput!) {
    detachTags(input: $input) {
      __typename
      ... on DetachTagsSuccess { entry { tags { name } } }
      ... on UserError { code path }
    }
  }
`);

const CreateRelation = graphql(`
  mutation CreateRelation($input: CreateRelationInput!) {
    createRelation(input: $input) {
      __typename
      ... on CreateRelationSuccess {
        relation {
          id
          type
          createdBy
          source { id }
          targetEntry { id __typename }
          targetScope { id __typename }
        }
      }
      ... on UserError { code path message }
    }
  }
`);

const DeleteRelation = graphql(`
  mutation DeleteRelation($id: ID!) {
    deleteRelation(input: { id: $id }) {
      __typename
      ... on DeleteRelationSuccess { deleted { id } }
      ... on UserError { code }
    }
  }
`);

const Relations = graphql(`
  query Relations($id: ID!, $type: RelationType) {
    entry(id: $id) {
      outgoingRelations(type: $type) { type targetEntry { id } targetScope { id } }
      incomingRelations(type: $type) { type source { id name } }
    }
  }
`);

describe('tags', () => {
  it('seeds the predefined vocabulary in every database', async () => {
    const all = await h.ok(Tags, { predefined: true, first: 100 });
    expect(all.tags.totalCount).toBe(29);
    const names = all.tags.edges.map((e) => e.node.name);
    for (const name of ['python', 'typescript', 'sql', 'security', 'code_style', 'deprecated', 'required']) {
      expect(names).toContain(name);
    }
    const meta = await h.ok(Tags, { category: 'META', predefined: true });
    expect(meta.tags.edges.map((e) => e.node.name)).toEqual(['deprecated', 'experimental', 'optional', 'required', 'stable']);
    expect(meta.tags.edges.every((e) => e.node.description)).toBe(true);
  });

  it('creates tags normalized and unique', async () => {
    const r = await h.ok(CreateTag, { input: { name: '  Team Alpha ', category: 'DOMAIN', description: 'the team' } });
    expect(r.createTag).toMatchObject({ tag: { name: 'team-alpha', category: 'DOMAIN', predefined: false, description: 'the team' } });
    const dup = await h.ok(CreateTag, { input: { name: 'TEAM ALPHA' } });
    expect(dup.createTag).toMatchObject({ __typename: 'AlreadyExistsError', path: ['input', 'name'] });
    const bad = await h.ok(CreateTag, { input: { name: 'semi;colon' } });
    expect(bad.createTag).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION_FAILED' });
  });

  it('attaches (creating free-form tags) and detaches', async () => {
    const p = await createProject(h, 'tagging');
    const id = await addTool(h, p, 'tagged', { tags: ['python'] });
    const r = await h.ok(Attach, { input: { entry: id, tags: ['Python', 'brand new', 'sql'] } });
    expect(r.attachTags).toMatchObject({
      entry: { tags: [{ name: 'brand-new', category: 'CUSTOM' }, { name: 'python', category: 'LANGUAGE' }, { name: 'sql', category: 'LANGUAGE' }] },
    });
    const d = await h.ok(Detach, { input: { entry: id, tags: ['python', 'not-there'] } });
    expect(d.detachTags).toMatchObject({ entry: { tags: [{ name: 'brand-new' }, { name: 'sql' }] } });
    const missing = Buffer.from('Tool:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    expect((await h.ok(Attach, { input: { entry: missing, tags: ['x'] } })).attachTags).toMatchObject({ __typename: 'NotFoundError' });
    const tooMany = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect((await h.ok(Attach, { input: { entry: id, tags: tooMany } })).attachTags).toMatchObject({ __typename: 'ValidationError' });
  });

  it('creates a new tag once when several writers attach it concurrently', async () => {
    const p = await createProject(h, 'tag-race');
    const ids = await Promise.all([0, 1, 2, 3, 4].map((i) => addKnowledge(h, p, `k${i}`)));
    const results = await Promise.all(ids.map((id) => h.ok(Attach, { input: { entry: id, tags: ['race-tag'] } })));
    expect(results.every((r) => r.attachTags.__typename === 'AttachTagsSuccess')).toBe(true);
    const custom = await h.ok(Tags, { predefined: false, first: 100 });
    expect(custom.tags.edges.filter((e) => e.node.name === 'race-tag')).toHaveLength(1);
  });

  it('links a tag once when writers on two instances attach it to the same entry at once: every writer succeeds', async () => {
    await withSecondInstance(h, async (other) => {
      const p = await createProject(h, 'tag-link-race');
      for (let round = 0; round < 5; round++) {
        const id = await addKnowledge(h, p, `shared-${round}`);
        // Tags that exist already: a new one would make the writers wait on its name in turn.
        const attach = async (instance: Pick<typeof h, 'gql'>) => {
          const result = await instance.gql(Attach, { input: { entry: id, tags: ['sql', 'python'] } });
          return result.errors ?? result.data?.attachTags.__typename;
        };
        const results = await Promise.all([h, other, h, other, h, other].map(attach));
        expect(results).toEqual(Array(6).fill('AttachTagsSuccess'));
      }
    });
  });
});

describe('relations', () => {
  it('links entries to entries and scopes, filters by type, both directions', async () => {
    const p = await createProject(h, 'relating');
    const g = await addGuideline(h, p, 'use-pnpm');
    const t = await addTool(h, p, 'pnpm');
    const k = await addKnowledge(h, p, 'why pnpm');
    const applies = await h.ok(CreateRelation, { input: { source: g, target: p, type: 'APPLIES_TO' } }, { 'x-engram-actor': 'agent:r' });
    expect(applies.createRelation).toMatchObject({
      relation: { type: 'APPLIES_TO', createdBy: 'agent:r', source: { id: g }, targetEntry: null, targetScope: { id: p, __typename: 'Project' } },
    });
    await h.ok(CreateRelation, { input: { source: g, target: t, type: 'DEPENDS_ON' } });
    await h.ok(CreateRelation, { input: { source: k, target: t, type: 'RELATED_TO' } });
    const out = await h.ok(Relations, { id: g });
    expect(out.entry?.outgoingRelations).toEqual([
      { type: 'APPLIES_TO', targetEntry: null, targetScope: { id: p } },
      { type: 'DEPENDS_ON', targetEntry: { id: t }, targetScope: null },
    ]);
    const depends = await h.ok(Relations, { id: g, type: 'DEPENDS_ON' });
    expect(depends.entry?.outgoingRelations).toHaveLength(1);
    const incoming = await h.ok(Relations, { id: t });
    expect(incoming.entry?.incomingRelations.map((r) => [r.type, r.source.name])).toEqual([
      ['DEPENDS_ON', 'use-pnpm'],
      ['RELATED_TO', 'why pnpm'],
    ]);
  });

  it('refuses self relations, duplicates and unknown ends', async () => {
    const p = await createProject(h, 'relation-rules');
    const a = await addTool(h, p, 'a');
    const b = await addTool(h, p, 'b');
    const self = await h.ok(CreateRelation, { input: { source: a, target: a, type: 'RELATED_TO' } });
    expect(self.createRelation).toMatchObject({ __typename: 'ValidationError', path: ['input', 'target'] });
    await h.ok(CreateRelation, { input: { source: a, target: b, type: 'RELATED_TO' } });
    const dup = await h.ok(CreateRelation, { input: { source: a, target: b, type: 'RELATED_TO' } });
    expect(dup.createRelation).toMatchObject({ __typename: 'AlreadyExistsError' });
    const other = await h.ok(CreateRelation, { input: { source: a, target: b, type: 'DEPENDS_ON' } });
    expect(other.createRelation.__typename).toBe('CreateRelationSuccess');
    const ghost = Buffer.from('Guideline:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    const unknown = await h.ok(CreateRelation, { input: { source: a, target: ghost, type: 'RELATED_TO' } });
    expect(unknown.createRelation).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'target'] });
    const sourceScope = await h.ok(CreateRelation, { input: { source: p, target: a, type: 'RELATED_TO' } });
    expect(sourceScope.createRelation).toMatchObject({ __typename: 'ValidationError', path: ['input', 'source'] });
  });

  it('deletes a relation once', async () => {
    const p = await createProject(h, 'relation-delete');
    const a = await addTool(h, p, 'a');
    const created = await h.ok(CreateRelation, { input: { source: a, target: p, type: 'APPLIES_TO' } });
    const id = created.createRelation.__typename === 'CreateRelationSuccess' ? created.createRelation.relation.id : '';
    expect((await h.ok(DeleteRelation, { id })).deleteRelation).toEqual({ __typename: 'DeleteRelationSuccess', deleted: { id } });
    expect((await h.ok(DeleteRelation, { id })).deleteRelation).toMatchObject({ __typename: 'NotFoundError' });
    expect((await h.ok(Relations, { id: a })).entry?.outgoingRelations).toEqual([]);
  });
});
