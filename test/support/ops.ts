import { graphql } from '../gql/index.ts';
import type { Harness } from './harness.ts';

const CreateProjectOp = graphql(`
  mutation FixtureCreateProject($input: CreateProjectInput!) {
    createProject(input: $input) {
      __typename
      ... on CreateProjectSuccess { project { id } }
      ... on UserError { message }
    }
  }
`);

const StartSessionOp = graphql(`
  mutation FixtureStartSession($input: StartSessionInput!) {
    startSession(input: $input) {
      __typename
      ... on StartSessionSuccess { session { id } }
      ... on UserError { message }
    }
  }
`);

const GlobalOp = graphql(`
  query FixtureGlobal { globalScope { id } }
`);

export const AddToolOp = graphql(`
  mutation FixtureAddTool($input: AddToolInput!) {
    addTool(input: $input) {
      __typename
      ... on AddToolSuccess { tool { id name latestVersion } }
      ... on UserError { code message path }
    }
  }
`);

export const AddGuidelineOp = graphql(`
  mutation FixtureAddGuideline($input: AddGuidelineInput!) {
    addGuideline(input: $input) {
      __typename
      ... on AddGuidelineSuccess { guideline { id name priority } }
      ... on UserError { code message path }
    }
  }
`);

export const AddKnowledgeOp = graphql(`
  mutation FixtureAddKnowledge($input: AddKnowledgeInput!) {
    addKnowledge(input: $input) {
      __typename
      ... on AddKnowledgeSuccess { knowledge { id title } }
      ... on UserError { code message path }
    }
  }
`);

function expectSuccess<T extends { __typename: string }>(result: T, typename: string): T {
  if (result.__typename !== typename) throw new Error(`expected ${typename}, got ${JSON.stringify(result)}`);
  return result;
}

export async function globalScopeId(h: Harness): Promise<string> {
  return (await h.ok(GlobalOp)).globalScope.id;
}

export async function createProject(h: Harness, name: string, organization?: string): Promise<string> {
  const r = expectSuccess((await h.ok(CreateProjectOp, { input: { name, organization } })).createProject, 'CreateProjectSuccess');
  return r.__typename === 'CreateProjectSuccess' ? r.project.id : '';
}

export async function startSession(h: Harness, project: string, name?: string): Promise<string> {
  const r = expectSuccess((await h.ok(StartSessionOp, { input: { project, name } })).startSession, 'StartSessionSuccess');
  return r.__typename === 'StartSessionSuccess' ? r.session.id : '';
}

export async function addTool(h: Harness, scope: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = expectSuccess((await h.ok(AddToolOp, { input: { scope, name, ...extra } })).addTool, 'AddToolSuccess');
  return r.__typename === 'AddToolSuccess' ? r.tool.id : '';
}

export async function addGuideline(h: Harness, scope: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = expectSuccess(
    (await h.ok(AddGuidelineOp, { input: { scope, name, content: `content of ${name}`, ...extra } })).addGuideline,
    'AddGuidelineSuccess',
  );
  return r.__typename === 'AddGuidelineSuccess' ? r.guideline.id : '';
}

export async function addKnowledge(h: Harness, scope: string, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = expectSuccess(
    (await h.ok(AddKnowledgeOp, { input: { scope, title, content: `content of ${title}`, ...extra } })).addKnowledge,
    'AddKnowledgeSuccess',
  );
  return r.__typename === 'AddKnowledgeSuccess' ? r.knowledge.id : '';
}
