// An orchestrator loop against a running Engram, typed from schema.graphql with graphql-codegen
// (`npm run codegen` writes ./gql/), with live session events over graphql-ws:
//
//   ENGRAM_URL=http://localhost:4000 [ENGRAM_API_KEY=egk_…] npx tsx examples/typescript/orchestrator.ts
//
// It starts a session in a project, follows the session's events, asks `context` before each step,
// records what the "agent" did and learnt, and completes the session.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from './gql/index.ts';

const base = process.env.ENGRAM_URL ?? 'http://localhost:4000';
const headers: Record<string, string> = { 'content-type': 'application/json', 'x-engram-actor': 'agent:example' };
if (process.env.ENGRAM_API_KEY) headers.authorization = `Bearer ${process.env.ENGRAM_API_KEY}`;

async function ask<R, V>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const response = await fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: print(document), variables }) });
  const body = (await response.json()) as { data?: R; errors?: { message: string; extensions?: { code?: string } }[] };
  if (body.errors?.length || !body.data) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

const CreateProject = graphql(`
  mutation ExampleCreateProject($name: String!) {
    createProject(input: { name: $name }) {
      __typename
      ... on CreateProjectSuccess { project { id } }
      ... on UserError { code message }
    }
  }
`);

const StartSession = graphql(`
  mutation ExampleStartSession($project: ID!) {
    startSession(input: { project: $project, name: "example run", agentId: "example" }) {
      __typename
      ... on StartSessionSuccess { session { id } }
      ... on UserError { code message }
    }
  }
`);

const AddGuideline = graphql(`
  mutation ExampleAddGuideline($scope: ID!) {
    addGuideline(input: { scope: $scope, name: "small-commits", content: "Commit small changes with a message that says why", priority: 80 }) {
      __typename
      ... on UserError { code message }
    }
  }
`);

const Context = graphql(`
  query ExampleContext($scope: ID!, $task: String!) {
    context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {
      tokensUsed
      guidelines { score node { name ... on Guideline { currentVersion { ... on GuidelineVersion { content } } } } }
      knowledge { score node { name } }
    }
  }
`);

const Record = graphql(`
  mutation ExampleRecord($session: ID!, $did: JSON!) {
    appendSessionEvent(input: { session: $session, actor: "agent:example", type: ACTION, content: $did }) {
      __typename
      ... on UserError { code message }
    }
  }
`);

const Learn = graphql(`
  mutation ExampleLearn($scope: ID!, $title: String!, $content: String!) {
    addKnowledge(input: { scope: $scope, title: $title, content: $content }) {
      __typename
      ... on UserError { code message }
    }
  }
`);

const Complete = graphql(`
  mutation ExampleComplete($session: ID!) {
    completeSession(input: { id: $session }) {
      __typename
      ... on CompleteSessionSuccess { transition { session { status } } }
      ... on UserError { code message }
    }
  }
`);

const SessionEvents = graphql(`
  subscription ExampleSessionEvents($session: ID!) {
    sessionEvent(session: $session) { sequence type actor }
  }
`);

const created = (await ask(CreateProject, { name: `example-${Date.now()}` })).createProject;
if (created.__typename !== 'CreateProjectSuccess') throw new Error(`createProject: ${JSON.stringify(created)}`);
const project = created.project.id;
await ask(AddGuideline, { scope: project });
const started = (await ask(StartSession, { project })).startSession;
if (started.__typename !== 'StartSessionSuccess') throw new Error(`startSession: ${JSON.stringify(started)}`);
const session = started.session.id;

// Follow the session's events while the loop runs.
const ws = createClient({
  url: `${base.replace(/^http/, 'ws')}/graphql`,
  webSocketImpl: WebSocket,
  // graphql-ws: headers go in connection_init's payload, one key each.
  connectionParams: headers,
  retryAttempts: 0,
});
const seen: string[] = [];
const subscription = ws.iterate({ query: print(SessionEvents), variables: { session } });
const following = (async () => {
  for await (const event of subscription) {
    const data = event.data as { sessionEvent: { sequence: number; type: string } } | undefined;
    if (data) seen.push(`${data.sessionEvent.sequence}:${data.sessionEvent.type}`);
  }
})();
// Let the subscription start before the first event.
await new Promise((resolve) => setTimeout(resolve, 300));

for (const task of ['write the release notes', 'commit the notes']) {
  const context = (await ask(Context, { scope: session, task })).context;
  const advice = context.guidelines.map((g) => g.node.name).join(', ') || 'none';
  console.log(`task "${task}": ${context.tokensUsed} tokens of context, guidelines: ${advice}`);
  await ask(Record, { session, did: { task, followed: advice } });
}
await ask(Learn, { scope: project, title: 'release-notes-location', content: 'Release notes live in docs/releases' });
const ended = (await ask(Complete, { session })).completeSession;
if (ended.__typename !== 'CompleteSessionSuccess') throw new Error(`completeSession: ${JSON.stringify(ended)}`);

// Wait (bounded) for the events to arrive, then stop following.
for (let waited = 0; seen.length < 2 && waited < 5_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
await subscription.return?.();
await ws.dispose();
await following;
console.log(`session ${ended.transition.session.status}; events seen live: ${seen.join(' ')}`);
if (seen.filter((e) => e.endsWith(':ACTION')).length < 2) {
  console.error('the ACTION events did not arrive over the subscription');
  process.exit(1);
}
