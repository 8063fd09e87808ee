import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { AddGuidelineOp, AddKnowledgeOp, AddToolOp, addGuideline, addKnowledge, addTool, createProject, globalScopeId } from './support/ops.ts';

const h = useHarness();

const EntryDetail = graphql(`
  query EntryDetail($id: ID!) {
    entry(id: $id) {
      __typename
      id
      kind
      name
      category
      active
      createdBy
      latestVersion
      scope { id }
      tags { name category predefined }
      currentVersion {
        __typename
        version
        createdBy
        changeReason
        conflictFlag
        ... on ToolVersion { description parameters examples constraints }
        ... on GuidelineVersion { content rationale }
        ... on KnowledgeVersion { content source confidence validUntil }
      }
      ... on Guideline { priority }
      ... on Knowledge { title }
    }
  }
`);

const History = graphql(`
  query History($id: ID!, $first: Int, $after: String) {
    entry(id: $id) {
      versions(first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { version changeReason ... on ToolVersion { description } } }
      }
      v1: version(number: 1) { version ... on ToolVersion { description } }
      v99: version(number: 99) { version }
    }
  }
`);

const UpdateTool = graphql(`
  mutation UpdateTool($input: UpdateToolInput!) {
    updateTool(input: $input) {
      __typename
      ... on UpdateToolSuccess {
        update {
          version { version conflictFlag createdBy }
          conflictWith { version }
          entry { latestVersion currentVersion { version } }
        }
      }
      ... on UserError { code message path }
    }
  }
`);

const UpdateGuideline = graphql(`
  mutation UpdateGuideline($input: UpdateGuidelineInput!) {
    updateGuideline(input: $input) {
      __typename
      ... on UpdateGuidelineSuccess { update { version { version ... on GuidelineVersion { content rationale } } entry { ... on Guideline { priority } } } }
      ... on UserError { code message path }
    }
  }
`);

const UpdateKnowledge = graphql(`
  mutation UpdateKnowledge($input: UpdateKnowledgeInput!) {
    updateKnowledge(input: $input) {
      __typename
      ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content source confidence } } } }
      ... on UserError { code message path }
    }
  }
`);

const ByName = graphql(`
  query ByName($scope: ID!, $kind: EntryKind!, $name: String!) {
    entryByName(scope: $scope, kind: $kind, name: $name) { id __typename }
  }
`);

const Deactivate = graphql(`
  mutation Deactivate($id: ID!) {
    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on UserError { code } }
  }
`);
const Reactivate = graphql(`
  mutation Reactivate($id: ID!) {
    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }
  }
`);

const Lists = graphql(`
  query Lists($filter: EntryFilter) {
    tools(filter: $filter) { totalCount edges { node { name } } }
    guidelines(filter: $filter) { totalCount edges { node { name priority } } }
    knowledge(filter: $filter) { totalCount edges { node { title } } }
  }
`);

const ScopeEntries = graphql(`
  query ScopeEntries($id: ID!, $kind: EntryKind, $includeInactive: Boolean) {
    scope(id: $id) { entries(kind: $kind, includeInactive: $includeInactive) { totalCount edges { node { __typename name } } } }
  }
`);

describe('entries', () => {
  it('adds a tool with version 1 and tags in one call', async () => {
    const project = await createProject(h, 'tools-p');
    const id = await addTool(h, project, 'git_commit', {
      category: 'cli',
      description: 'Commits staged changes',
      parameters: { type: 'object', properties: { message: { type: 'string' } } },
      examples: [{ message: 'fix: typo' }],
      constraints: 'Never amend pushed commits',
      tags: ['bash', 'Version Control'],
      author: 'agent:a',
    });
    const r = await h.ok(EntryDetail, { id });
    expect(r.entry).toMatchObject({
      __typename: 'Tool',
      kind: 'TOOL',
      name: 'git_commit',
      category: 'cli',
      active: true,
      createdBy: 'agent:a',
      latestVersion: 1,
      scope: { id: project },
      currentVersion: {
        __typename: 'ToolVersion',
        version: 1,
        createdBy: 'agent:a',
        conflictFlag: false,
        description: 'Commits staged changes',
        parameters: { type: 'object', properties: { message: { type: 'string' } } },
        examples: [{ message: 'fix: typo' }],
        constraints: 'Never amend pushed commits',
      },
    });
    expect(r.entry?.tags).toEqual([
      { name: 'bash', category: 'LANGUAGE', predefined: true },
      { name: 'version-control', category: 'CUSTOM', predefined: false },
    ]);
  });

  it('carries any JSON value of examples over an update, a bare number included', async () => {
    const project = await createProject(h, 'json-carry');
    for (const [name, examples] of [['number', 42], ['text', 'run it'], ['list', [1, 'two']]] as const) {
      const id = await addTool(h, project, name, { examples, parameters: { type: 'object' } });
      const r = await h.ok(UpdateTool, { input: { id, description: 'second' } });
      expect(r.updateTool).toMatchObject({ update: { version: { version: 2 } } });
      const detail = await h.ok(EntryDetail, { id });
      expect(detail.entry?.currentVersion).toMatchObject({ version: 2, description: 'second', examples, parameters: { type: 'object' } });
    }
  });

  it('adds guidelines (priority default 50) and knowledge (confidence default 1)', async () => {
    const g = await globalScopeId(h);
    const gid = await addGuideline(h, g, 'no-secrets', { rationale: 'leaks', category: 'security' });
    const kid = await addKnowledge(h, g, 'DB choice', { source: 'ADR-1', validUntil: '2030-01-01T00:00:00.000Z' });
    const gr = await h.ok(EntryDetail, { id: gid });
    expect(gr.entry).toMatchObject({ __typename: 'Guideline', priority: 50, currentVersion: { content: 'content of no-secrets', rationale: 'leaks' } });
    const kr = await h.ok(EntryDetail, { id: kid });
    expect(kr.entry).toMatchObject({
      __typename: 'Knowledge',
      title: 'DB choice',
      name: 'DB choice',
      currentVersion: { confidence: 1, source: 'ADR-1', validUntil: '2030-01-01T00:00:00.000Z' },
    });
  });

  it('keeps names unique per scope and kind', async () => {
    const p = await createProject(h, 'unique-entries');
    await addTool(h, p, 'shared');
    await addGuideline(h, p, 'shared'); // other kind: fine
    const dup = await h.ok(AddToolOp, { input: { scope: p, name: 'shared' } });
    expect(dup.addTool).toMatchObject({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS', path: ['input', 'name'] });
    const ghost = Buffer.from('Project:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    const unknownScope = await h.ok(AddToolOp, { input: { scope: ghost, name: 'orphan', tags: ['orphan-tag'] } });
    expect(unknownScope.addTool).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'scope'] });
    const dupK = await h.ok(AddKnowledgeOp, { input: { scope: p, title: 'k', content: 'c' } });
    expect(dupK.addKnowledge.__typename).toBe('AddKnowledgeSuccess');
    const dupK2 = await h.ok(AddKnowledgeOp, { input: { scope: p, title: 'k', content: 'c', tags: ['brand-new-tag'] } });
    expect(dupK2.addKnowledge).toMatchObject({ __typename: 'AlreadyExistsError', path: ['input', 'title'] });
    // The failed add rolled back entirely: its new tag does not exist.
    const tags = await h.ok(graphql(`query TagsAfterRollback { tags(predefined: false) { edges { node { name } } } }`));
    expect(tags.tags.edges.map((e) => e.node.name)).not.toContain('brand-new-tag');
  });

  it('bounds inputs: lengths, ranges, JSON size, tag names', async () => {
    const p = await createProject(h, 'bounds');
    const r = await h.ok(AddGuidelineOp, {
      input: { scope: p, name: 'g', content: 'x'.repeat(100_001), priority: 101, tags: ['ok', '', '-bad'] },
    });
    expect(r.addGuideline.__typename).toBe('ValidationError');
    const issues = await h.gql(
      graphql(`mutation BadKnowledge($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on ValidationError { issues { path message } } } }`),
      { input: { scope: p, title: 't', content: 'c', confidence: 1.5 } },
    );
    expect(issues.data?.addKnowledge).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'confidence'] }] });
    const big = await h.ok(AddToolOp, { input: { scope: p, name: 't', parameters: { blob: 'y'.repeat(70_000) } } });
    expect(big.addTool).toMatchObject({ __typename: 'ValidationError', path: ['input', 'parameters'] });
    const notObject = await h.ok(AddToolOp, { input: { scope: p, name: 't', parameters: [1] } });
    expect(notObject.addTool).toMatchObject({ __typename: 'ValidationError', path: ['input', 'parameters'] });
    const list = await h.ok(Lists, { filter: { scope: p } });
    expect(list.tools.totalCount + list.guidelines.totalCount + list.knowledge.totalCount).toBe(0);
    // An enum outside its values is refused by GraphQL itself.
    const badEnum = await h.gql(ByName, { scope: p, kind: 'NOPE' as never, name: 'x' });
    expect(badEnum.errors?.[0]?.message).toMatch(/EntryKind/);
  });

  it('updates append versions, carry fields over, and keep history newest first', async () => {
    const p = await createProject(h, 'history');
    // One writer throughout: no conflict window applies (see conflicts.test.ts).
    const id = await addTool(h, p, 'deploy', { description: 'v1 desc', constraints: 'keep', author: 'agent:u' });
    for (let i = 2; i <= 4; i++) {
      const r = await h.ok(UpdateTool, { input: { id, description: `v${i} desc`, changeReason: `step ${i}`, author: 'agent:u' } });
      expect(r.updateTool).toMatchObject({
        __typename: 'UpdateToolSuccess',
        update: { version: { version: i, conflictFlag: false, createdBy: 'agent:u' }, conflictWith: null, entry: { latestVersion: i, currentVersion: { version: i } } },
      });
    }
    const detail = await h.ok(EntryDetail, { id });
    expect(detail.entry?.currentVersion).toMatchObject({ description: 'v4 desc', constraints: 'keep', changeReason: 'step 4' });
    const page1 = await h.ok(History, { id, first: 2 });
    expect(page1.entry?.versions.totalCount).toBe(4);
    expect(page1.entry?.versions.edges.map((e) => e.node.version)).toEqual([4, 3]);
    expect(page1.entry?.v1).toEqual({ version: 1, description: 'v1 desc' });
    expect(page1.entry?.v99).toBeNull();
    const page2 = await h.ok(History, { id, first: 2, after: page1.entry?.versions.pageInfo.endCursor });
    expect(page2.entry?.versions.edges.map((e) => e.node.version)).toEqual([2, 1]);
    expect(page2.entry?.versions.pageInfo.hasNextPage).toBe(false);
    // null clears an optional field
    const cleared = await h.ok(UpdateTool, { input: { id, constraints: null } });
    expect(cleared.updateTool.__typename).toBe('UpdateToolSuccess');
    expect((await h.ok(EntryDetail, { id })).entry?.currentVersion).toMatchObject({ constraints: null, description: 'v4 desc' });
  });

  it('updates guidelines and knowledge with their own fields', async () => {
    const p = await createProject(h, 'kinds-update');
    const gid = await addGuideline(h, p, 'style', { rationale: 'r1' });
    const g = await h.ok(UpdateGuideline, { input: { id: gid, content: 'new content', priority: 90 } });
    expect(g.updateGuideline).toMatchObject({ update: { version: { version: 2, content: 'new content', rationale: 'r1' }, entry: { priority: 90 } } });
    const blank = await h.ok(UpdateGuideline, { input: { id: gid, content: '  ' } });
    expect(blank.updateGuideline).toMatchObject({ __typename: 'ValidationError', path: ['input', 'content'] });
    const kid = await addKnowledge(h, p, 'fact', { confidence: 0.5 });
    const k = await h.ok(UpdateKnowledge, { input: { id: kid, source: 'docs' } });
    expect(k.updateKnowledge).toMatchObject({ update: { version: { version: 2, content: 'content of fact', source: 'docs', confidence: 0.5 } } });
    // An ID of another kind is refused.
    const wrong = await h.ok(UpdateKnowledge, { input: { id: gid, content: 'x' } });
    expect(wrong.updateKnowledge).toMatchObject({ __typename: 'ValidationError', path: ['input', 'id'] });
  });

  it('expectedVersion: stale writes are kept, flagged and linked; impossible ones roll back', async () => {
    const p = await createProject(h, 'expected');
    const id = await addTool(h, p, 'racy', { description: 'base' });
    await h.ok(UpdateTool, { input: { id, description: 'A', expectedVersion: 1 } });
    const stale = await h.ok(UpdateTool, { input: { id, description: 'B', expectedVersion: 1 } });
    expect(stale.updateTool).toMatchObject({ update: { version: { version: 3, conflictFlag: true }, conflictWith: { version: 2 } } });
    const future = await h.ok(UpdateTool, { input: { id, description: 'C', expectedVersion: 7 } });
    expect(future.updateTool).toMatchObject({ __typename: 'ValidationError', path: ['input', 'expectedVersion'] });
    // The refused write left no gap: the next version is 4.
    const next = await h.ok(UpdateTool, { input: { id, description: 'D' } });
    expect(next.updateTool).toMatchObject({ update: { version: { version: 4 } } });
  });

  it('looks entries up by id and by (scope, kind, name)', async () => {
    const p = await createProject(h, 'lookup');
    const id = await addGuideline(h, p, 'find-me');
    const found = await h.ok(ByName, { scope: p, kind: 'GUIDELINE', name: 'find-me' });
    expect(found.entryByName).toEqual({ id, __typename: 'Guideline' });
    expect((await h.ok(ByName, { scope: p, kind: 'TOOL', name: 'find-me' })).entryByName).toBeNull();
    const unknown = Buffer.from('Tool:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    expect((await h.ok(EntryDetail, { id: unknown })).entry).toBeNull();
  });

  it('deactivates and reactivates; lists hide inactive entries unless asked', async () => {
    const p = await createProject(h, 'soft-delete');
    const a = await addTool(h, p, 'a-tool', { category: 'cli', tags: ['cli'] });
    await addTool(h, p, 'b-tool', { category: 'api' });
    await addGuideline(h, p, 'g1', { priority: 10 });
    await addKnowledge(h, p, 'k1');
    expect((await h.ok(Deactivate, { id: a })).deactivateEntry).toMatchObject({ entry: { active: false } });
    const visible = await h.ok(Lists, { filter: { scope: p } });
    expect(visible.tools.edges.map((e) => e.node.name)).toEqual(['b-tool']);
    expect(visible.guidelines.edges).toEqual([{ node: { name: 'g1', priority: 10 } }]);
    expect(visible.knowledge.edges).toEqual([{ node: { title: 'k1' } }]);
    const all = await h.ok(Lists, { filter: { scope: p, includeInactive: true } });
    expect(all.tools.edges.map((e) => e.node.name)).toEqual(['a-tool', 'b-tool']);
    expect((await h.ok(Lists, { filter: { scope: p, category: 'api' } })).tools.totalCount).toBe(1);
    expect((await h.ok(Lists, { filter: { scope: p, tag: 'CLI', includeInactive: true } })).tools.edges.map((e) => e.node.name)).toEqual(['a-tool']);
    const scoped = await h.ok(ScopeEntries, { id: p, kind: 'TOOL' });
    expect(scoped.scope?.entries.totalCount).toBe(1);
    expect((await h.ok(ScopeEntries, { id: p, includeInactive: true })).scope?.entries.totalCount).toBe(4);
    expect((await h.ok(Reactivate, { id: a })).reactivateEntry).toMatchObject({ entry: { active: true } });
    expect((await h.ok(Lists, { filter: { scope: p } })).tools.totalCount).toBe(2);
  });
});

const TypedGuidelines = graphql(`
  query TypedGuidelines($scope: ID!) {
    guidelines(filter: { scope: $scope }) {
      edges {
        node {
          currentVersion { content rationale }
          version(number: 1) { content }
          versions(first: 5) { totalCount edges { node { version content } } }
        }
      }
    }
    tools(filter: { scope: $scope }) { edges { node { currentVersion { description } versions { edges { node { parameters } } } } } }
    knowledge(filter: { scope: $scope }) { edges { node { currentVersion { content confidence } } } }
  }
`);

const ThroughInterface = graphql(`
  query ThroughInterface($id: ID!) {
    entry(id: $id) {
      currentVersion { __typename version }
      versions { __typename totalCount edges { __typename node { __typename ... on GuidelineVersion { content } } } }
    }
  }
`);

describe('version types per kind', () => {
  it("each kind's currentVersion, version and versions carry its own version type: no fragment needed", async () => {
    const scope = await createProject(h, 'typed-versions');
    const guideline = await addGuideline(h, scope, 'g', { content: 'first', rationale: 'why' });
    await h.ok(graphql(`mutation TypedUpdate($id: ID!) { updateGuideline(input: { id: $id, content: "second" }) { __typename } }`), { id: guideline });
    await addTool(h, scope, 't', { description: 'does', parameters: { type: 'object' } });
    await addKnowledge(h, scope, 'k', { content: 'known', confidence: 0.5 });

    const typed = await h.ok(TypedGuidelines, { scope });
    expect(typed.guidelines.edges).toEqual([
      {
        node: {
          currentVersion: { content: 'second', rationale: 'why' },
          version: { content: 'first' },
          versions: { totalCount: 2, edges: [{ node: { version: 2, content: 'second' } }, { node: { version: 1, content: 'first' } }] },
        },
      },
    ]);
    expect(typed.tools.edges).toEqual([{ node: { currentVersion: { description: 'does' }, versions: { edges: [{ node: { parameters: { type: 'object' } } }] } } }]);
    expect(typed.knowledge.edges).toEqual([{ node: { currentVersion: { content: 'known', confidence: 0.5 } } }]);

    // Through the Entry interface the same fields answer with the kind's concrete types.
    const generic = await h.ok(ThroughInterface, { id: guideline });
    expect(generic.entry).toEqual({
      currentVersion: { __typename: 'GuidelineVersion', version: 2 },
      versions: {
        __typename: 'GuidelineVersionsConnection',
        totalCount: 2,
        edges: [
          { __typename: 'GuidelineVersionsConnectionEdge', node: { __typename: 'GuidelineVersion', content: 'second' } },
          { __typename: 'GuidelineVersionsConnectionEdge', node: { __typename: 'GuidelineVersion', content: 'first' } },
        ],
      },
    });
  });
});
