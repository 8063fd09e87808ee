import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();

const GlobalScope = graphql(`
  query GlobalScope {
    globalScope { id kind name parent { id } ancestors { id } }
  }
`);

const CreateOrganization = graphql(`
  mutation CreateOrganization($input: CreateOrganizationInput!) {
    createOrganization(input: $input) {
      __typename
      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }
      ... on UserError { code message path }
    }
  }
`);

const CreateProject = graphql(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) {
      __typename
      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }
      ... on UserError { code message path }
      ... on ValidationError { issues { path message } }
    }
  }
`);

const UpdateProject = graphql(`
  mutation UpdateProject($input: UpdateProjectInput!) {
    updateProject(input: $input) {
      __typename
      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }
      ... on UserError { code message path }
    }
  }
`);

const StartSession = graphql(`
  mutation StartSession($input: StartSessionInput!) {
    startSession(input: $input) {
      __typename
      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }
      ... on UserError { code message path }
    }
  }
`);

const DiscardSession = graphql(`
  mutation ScopesDiscardSession($input: SessionTransitionInput!) {
    discardSession(input: $input) {
      __typename
      ... on DiscardSessionSuccess { transition { session { id status endedAt } } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Sessions = graphql(`
  query Sessions($project: ID, $status: SessionStatus) {
    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }
  }
`);

const ScopeTree = graphql(`
  query ScopeTree($id: ID!) {
    scope(id: $id) {
      __typename
      id
      name
      ancestors { __typename id name }
      children(first: 10) { totalCount edges { node { __typename id name } } }
    }
  }
`);

async function org(name: string) {
  const r = await h.ok(CreateOrganization, { input: { name } });
  if (r.createOrganization.__typename !== 'CreateOrganizationSuccess') throw new Error(JSON.stringify(r));
  return r.createOrganization.organization;
}

async function project(name: string, organization?: string) {
  const r = await h.ok(CreateProject, { input: { name, organization } });
  if (r.createProject.__typename !== 'CreateProjectSuccess') throw new Error(JSON.stringify(r));
  return r.createProject.project;
}

async function session(projectId: string, name?: string) {
  const r = await h.ok(StartSession, { input: { project: projectId, name, purpose: 'test', agentId: 'agent:1' } });
  if (r.startSession.__typename !== 'StartSessionSuccess') throw new Error(JSON.stringify(r));
  return r.startSession.session;
}

describe('scope tree', () => {
  it('has exactly one global root', async () => {
    const r = await h.ok(GlobalScope);
    expect(r.globalScope).toMatchObject({ kind: 'GLOBAL', name: 'global', parent: null, ancestors: [] });
  });

  it('creates organizations, projects under an organization or global, with metadata', async () => {
    const r = await h.ok(CreateOrganization, {
      input: { name: ' Acme ', description: 'the org', metadata: { tier: 'gold', seats: 3 } },
    });
    expect(r.createOrganization).toMatchObject({
      __typename: 'CreateOrganizationSuccess',
      organization: { name: 'Acme', description: 'the org', metadata: { tier: 'gold', seats: 3 }, kind: 'ORGANIZATION' },
    });
    const acme = r.createOrganization.__typename === 'CreateOrganizationSuccess' ? r.createOrganization.organization : null;
    const web = await project('web', acme!.id);
    expect(web.organization).toEqual({ id: acme!.id, name: 'Acme' });
    const solo = await project('solo');
    expect(solo.organization).toBeNull();
    expect(solo.parent?.kind).toBe('GLOBAL');
  });

  it('keeps names unique among siblings only', async () => {
    const a = await org('unique-a');
    const b = await org('unique-b');
    await project('api', a.id);
    await project('api', b.id); // same name, other parent: fine
    const dup = await h.ok(CreateProject, { input: { name: 'api', organization: a.id } });
    expect(dup.createProject).toMatchObject({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS', path: ['input', 'name'] });
    const dupOrg = await h.ok(CreateOrganization, { input: { name: 'unique-a' } });
    expect(dupOrg.createOrganization.__typename).toBe('AlreadyExistsError');
  });

  it('rejects invalid placements with a typed error', async () => {
    const o = await org('placement');
    const underOrg = await h.ok(StartSession, { input: { project: o.id } });
    expect(underOrg.startSession).toMatchObject({ __typename: 'InvalidPlacementError', code: 'INVALID_PLACEMENT', path: ['input', 'project'] });
    const p = await project('placement-p', o.id);
    const s = await session(p.id);
    const projectUnderSession = await h.ok(CreateProject, { input: { name: 'nested', organization: s.id } });
    expect(projectUnderSession.createProject.__typename).toBe('InvalidPlacementError');
  });

  it('validates input with field paths and writes nothing', async () => {
    const r = await h.ok(CreateProject, {
      input: { name: 'x'.repeat(201), rootPath: 'r'.repeat(1025), metadata: [1, 2] },
    });
    expect(r.createProject.__typename).toBe('ValidationError');
    if (r.createProject.__typename !== 'ValidationError') return;
    expect(r.createProject.code).toBe('VALIDATION_FAILED');
    expect(r.createProject.issues.map((i) => i.path.join('.'))).toEqual(['input.name', 'input.rootPath', 'input.metadata']);
    const blank = await h.ok(CreateOrganization, { input: { name: '   ' } });
    expect(blank.createOrganization).toMatchObject({ __typename: 'ValidationError', path: ['input', 'name'] });
  });

  it('reports unknown and malformed IDs as typed errors', async () => {
    const fakeProject = Buffer.from('Project:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    const missing = await h.ok(StartSession, { input: { project: fakeProject } });
    expect(missing.startSession).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'project'] });
    const malformed = await h.ok(StartSession, { input: { project: 'not-an-id' } });
    expect(malformed.startSession).toMatchObject({ __typename: 'ValidationError', path: ['input', 'project'] });
    const q = await h.gql(ScopeTree, { id: 'garbage' });
    expect(q.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('updates a project; absent fields stay, null clears', async () => {
    const p = await project('upd');
    await h.ok(UpdateProject, { input: { id: p.id, description: 'd1', rootPath: '/src', metadata: { a: 1 } } });
    const r = await h.ok(UpdateProject, { input: { id: p.id, name: 'upd2', rootPath: null } });
    expect(r.updateProject).toMatchObject({
      __typename: 'UpdateProjectSuccess',
      project: { name: 'upd2', description: 'd1', rootPath: null, metadata: { a: 1 } },
    });
    const s = await session(p.id);
    const wrongType = await h.ok(UpdateProject, { input: { id: s.id, name: 'x' } });
    expect(wrongType.updateProject.__typename).toBe('ValidationError');
  });

  it('walks ancestors and children', async () => {
    const o = await org('tree');
    const p = await project('tree-p', o.id);
    const s = await session(p.id, 's1');
    const r = await h.ok(ScopeTree, { id: s.id });
    expect(r.scope?.__typename).toBe('Session');
    expect(r.scope?.ancestors.map((a) => a.__typename)).toEqual(['Project', 'Organization', 'GlobalScope']);
    expect(r.scope?.ancestors.map((a) => a.name)).toEqual(['tree-p', 'tree', 'global']);
    const orgTree = await h.ok(ScopeTree, { id: o.id });
    expect(orgTree.scope?.children.totalCount).toBe(1);
    expect(orgTree.scope?.children.edges[0]?.node).toMatchObject({ __typename: 'Project', id: p.id });
  });
});

describe('sessions', () => {
  it('start, list by status, end, and refuse to end twice', async () => {
    const p = await project('sessions');
    const s1 = await session(p.id, 'one');
    const s2 = await session(p.id, 'two');
    expect(s1).toMatchObject({ status: 'ACTIVE', mode: 'WORKING_PERIOD', purpose: 'test', agentId: 'agent:1', endedAt: null });
    expect(s1.project?.id).toBe(p.id);

    const called = Date.now();
    const ended = await h.ok(DiscardSession, { input: { id: s1.id } });
    const answered = Date.now();
    expect(ended.discardSession).toMatchObject({ __typename: 'DiscardSessionSuccess', transition: { session: { status: 'DISCARDED' } } });
    // Stamped while the call ran.
    const endedAt = Date.parse(ended.discardSession.__typename === 'DiscardSessionSuccess' ? ended.discardSession.transition.session.endedAt ?? '' : '');
    expect(endedAt).toBeGreaterThanOrEqual(called);
    expect(endedAt).toBeLessThanOrEqual(answered);

    const again = await h.ok(DiscardSession, { input: { id: s1.id } });
    expect(again.discardSession).toMatchObject({ __typename: 'InvalidStateError', code: 'INVALID_STATE', currentState: 'DISCARDED' });

    const active = await h.ok(Sessions, { project: p.id, status: 'ACTIVE' });
    expect(active.sessions.totalCount).toBe(1);
    expect(active.sessions.edges.map((e) => e.node.id)).toEqual([s2.id]);
    const all = await h.ok(Sessions, { project: p.id });
    expect(all.sessions.edges.map((e) => e.node.name)).toEqual(['two', 'one']); // newest first
  });

  it('takes the agent id from the X-Engram-Actor header when not given', async () => {
    const p = await project('actor');
    const r = await h.ok(StartSession, { input: { project: p.id, mode: 'SCRATCH' } }, { 'x-engram-actor': 'agent:header' });
    expect(r.startSession).toMatchObject({ session: { agentId: 'agent:header', mode: 'SCRATCH' } });
  });
});
