import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject, startSession } from './support/ops.ts';

// Rules of scopes.service.ts that mutation testing (npm run mutate) found unchecked: the argument
// and message of each refusal, which fields creating and updating a scope store (trimmed), and what
// a new session records.

const h = useHarness();

const CreateOrganization = graphql(`
  mutation MutantCreateOrganization($input: CreateOrganizationInput!) {
    createOrganization(input: $input) {
      __typename
      ... on CreateOrganizationSuccess { organization { id name description metadata } }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const CreateProject = graphql(`
  mutation MutantCreateProject($input: CreateProjectInput!) {
    createProject(input: $input) {
      __typename
      ... on CreateProjectSuccess { project { id name description rootPath metadata } }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const UpdateProject = graphql(`
  mutation MutantUpdateProject($input: UpdateProjectInput!) {
    updateProject(input: $input) {
      __typename
      ... on UpdateProjectSuccess { project { name description rootPath metadata } }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const StartSession = graphql(`
  mutation MutantStartSession($input: StartSessionInput!) {
    startSession(input: $input) {
      __typename
      ... on StartSessionSuccess {
        session { id name purpose agentId userId appName mode autoPromote metadata events(first: 5) { edges { node { sequence type actor } } } }
      }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const globalId = (type: string, id: string) => Buffer.from(`${type}:${Buffer.from(id, 'base64').toString().split(':')[1]}`).toString('base64');
const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');

async function createOrganization(input: Record<string, unknown>) {
  return (await h.ok(CreateOrganization, { input: input as never })).createOrganization;
}

async function project(input: Record<string, unknown>) {
  return (await h.ok(CreateProject, { input: input as never })).createProject;
}

async function updateProject(input: Record<string, unknown>) {
  return (await h.ok(UpdateProject, { input: input as never })).updateProject;
}

async function session(input: Record<string, unknown>, headers?: Record<string, string>) {
  return (await h.ok(StartSession, { input: input as never }, headers)).startSession;
}

describe('placing a scope', () => {
  it('an unknown organization is NOT_FOUND at input.organization', async () => {
    expect(await project({ name: 'lost', organization: missing('Organization') })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No scope has this id',
      path: ['input', 'organization'],
    });
  });

  it('says which kinds of parent a scope may have', async () => {
    const p = await createProject(h, 'placement-messages');
    const s = await startSession(h, p);
    expect(await project({ name: 'nested', organization: s })).toEqual({
      __typename: 'InvalidPlacementError',
      code: 'INVALID_PLACEMENT',
      message: 'A project cannot be placed under a session scope (allowed: global, organization)',
      path: ['input', 'organization'],
    });
    const o = await createOrganization({ name: 'placement-org' });
    const orgId = o.__typename === 'CreateOrganizationSuccess' ? o.organization.id : '';
    expect(await session({ project: orgId })).toMatchObject({
      message: 'A session cannot be placed under an organization scope (allowed: project)',
      path: ['input', 'project'],
    });
  });
});

describe('creating organizations and projects', () => {
  it('stores the trimmed name and every field given', async () => {
    expect(await createOrganization({ name: ' org-fields ', description: 'd', metadata: { a: 1 } })).toMatchObject({
      organization: { name: 'org-fields', description: 'd', metadata: { a: 1 } },
    });
    expect(await project({ name: ' project-fields ', description: 'pd', rootPath: '/src', metadata: { b: [2] } })).toMatchObject({
      project: { name: 'project-fields', description: 'pd', rootPath: '/src', metadata: { b: [2] } },
    });
    expect(await project({ name: 'project-bare' })).toMatchObject({ project: { description: null, rootPath: null, metadata: null } });
  });

  it('names each invalid argument', async () => {
    expect(await createOrganization({ name: 'o', description: 'd'.repeat(4_001), metadata: [1] })).toMatchObject({
      issues: [
        { path: ['input', 'description'], message: 'must be at most 4000 characters (got 4001)' },
        { path: ['input', 'metadata'], message: 'must be a JSON object' },
      ],
    });
    expect(await project({ name: '   ', description: 'd'.repeat(4_001) })).toMatchObject({
      issues: [
        { path: ['input', 'name'], message: 'must not be blank' },
        { path: ['input', 'description'], message: 'must be at most 4000 characters (got 4001)' },
      ],
    });
  });

  it('a sibling with the same name is ALREADY_EXISTS, naming it', async () => {
    await createProject(h, 'taken');
    expect(await project({ name: 'taken' })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'A sibling scope is already named "taken"',
      path: ['input', 'name'],
    });
  });
});

describe('updating a project', () => {
  it('writes the fields given (trimmed), leaves the others', async () => {
    const p = await createProject(h, 'update-fields');
    expect(await updateProject({ id: p, name: ' renamed ', rootPath: '/app' })).toEqual({
      __typename: 'UpdateProjectSuccess',
      project: { name: 'renamed', description: null, rootPath: '/app', metadata: null },
    });
    expect(await updateProject({ id: p, description: 'd' })).toMatchObject({ project: { name: 'renamed', description: 'd', rootPath: '/app' } });
  });

  it('refuses clearing or blanking the name and names each invalid argument', async () => {
    const p = await createProject(h, 'update-refusals');
    expect(await updateProject({ id: p, name: null })).toMatchObject({
      issues: [{ path: ['input', 'name'], message: 'cannot be cleared' }, { path: ['input', 'name'], message: 'is required' }],
    });
    expect(await updateProject({ id: p, name: ' ' })).toMatchObject({ issues: [{ path: ['input', 'name'], message: 'must not be blank' }] });
    expect(await updateProject({ id: p, description: 'd'.repeat(4_001), rootPath: 'r'.repeat(1_025), metadata: 'text' })).toMatchObject({
      issues: [
        { path: ['input', 'description'], message: 'must be at most 4000 characters (got 4001)' },
        { path: ['input', 'rootPath'], message: 'must be at most 1024 characters (got 1025)' },
        { path: ['input', 'metadata'], message: 'must be a JSON object' },
      ],
    });
  });

  it('an unknown project, or a scope of another kind, is NOT_FOUND', async () => {
    const expected = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No project has this id', path: ['input', 'id'] };
    expect(await updateProject({ id: missing('Project'), name: 'x' })).toEqual(expected);
    const o = await createOrganization({ name: 'not-a-project' });
    const orgId = o.__typename === 'CreateOrganizationSuccess' ? o.organization.id : '';
    // The organization's own id, presented as a project's.
    expect(await updateProject({ id: globalId('Project', orgId), name: 'x' })).toEqual(expected);
  });

  it('renaming onto a sibling name is ALREADY_EXISTS', async () => {
    await createProject(h, 'rename-target');
    const p = await createProject(h, 'rename-source');
    expect(await updateProject({ id: p, name: 'rename-target' })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'A sibling scope is already named "rename-target"',
      path: ['input', 'name'],
    });
  });
});

describe('starting a session', () => {
  it('stores the trimmed fields; defaults: working period, no auto-promotion; the actor opens its log', async () => {
    const p = await createProject(h, 'session-fields');
    const full = await session(
      { project: p, name: ' s ', purpose: 'why', agentId: 'agent:x', userId: ' user:1 ', appName: ' app ', mode: 'SCRATCH', autoPromote: true, metadata: { m: 1 } },
      { 'x-engram-actor': 'agent:starter' },
    );
    expect(full).toMatchObject({
      session: {
        name: 's', purpose: 'why', agentId: 'agent:x', userId: 'user:1', appName: 'app', mode: 'SCRATCH', autoPromote: true, metadata: { m: 1 },
        events: { edges: [{ node: { sequence: 1, type: 'LIFECYCLE', actor: 'agent:starter' } }] },
      },
    });
    expect(await session({ project: p, name: '  ', userId: ' ', appName: '' })).toMatchObject({
      session: {
        name: null, purpose: null, agentId: null, userId: null, appName: null, mode: 'WORKING_PERIOD', autoPromote: false, metadata: null,
        events: { edges: [{ node: { sequence: 1, actor: 'system' } }] },
      },
    });
  });

  it('names each invalid argument', async () => {
    const p = await createProject(h, 'session-refusals');
    const long = 'x'.repeat(201);
    expect(await session({ project: p, name: long, purpose: 'p'.repeat(4_001), agentId: long, userId: long, appName: long, metadata: [1] })).toMatchObject({
      issues: [
        { path: ['input', 'name'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'purpose'], message: 'must be at most 4000 characters (got 4001)' },
        { path: ['input', 'agentId'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'userId'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'appName'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'metadata'], message: 'must be a JSON object' },
      ],
    });
    expect(await session({ project: p, autoPromote: true })).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.autoPromote: only a SCRATCH session promotes entries',
      path: ['input', 'autoPromote'],
      issues: [{ path: ['input', 'autoPromote'], message: 'only a SCRATCH session promotes entries' }],
    });
    expect(await session({ project: p, mode: 'WORKING_PERIOD', autoPromote: false })).toMatchObject({ __typename: 'StartSessionSuccess' });
  });
});
