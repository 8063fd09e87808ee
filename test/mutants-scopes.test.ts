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

const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');

async function createOrganization(input: Record<string, unknown>) {
  return (await h.ok(CreateOrganization, { input: input as never })).createOrganization;
}

async function project(input: Record<string, unknown>) {
  return (await h.ok(CreateProject, { input: input as never })).createProject;
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
      message: 'A session cannot be placed under a organization scope (allowed: project)',
      path: ['input', 'project'],
    });
  });
});
