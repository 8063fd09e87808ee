// The GraphQL clients people reach for, unmodified, against the real server process over its
// sockets: graphql-request for queries and mutations, graphql-sse (its default "distinct
// connections" mode, which Yoga's SSE speaks) for subscriptions and queries over Server-Sent Events.
import { ClientError, GraphQLClient } from 'graphql-request';
import { createClient, type Client, type ExecutionResult } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServerProcess } from './support/server-per-file.ts';

const running = useServerProcess();
let request: GraphQLClient;
beforeAll(() => {
  request = new GraphQLClient(`${running.server.base}/graphql`);
});

const CREATE_PROJECT = `mutation ($name: String!) {
  createProject(input: { name: $name }) { __typename ... on CreateProjectSuccess { project { id name } } ... on AlreadyExistsError { message } }
}`;
type CreateProject = { createProject: { __typename: string; project?: { id: string; name: string }; message?: string } };

async function project(name: string): Promise<string> {
  const created = await request.request<CreateProject>(CREATE_PROJECT, { name });
  if (!created.createProject.project) throw new Error(JSON.stringify(created));
  return created.createProject.project.id;
}

describe('graphql-request', () => {
  it('sends queries and mutations with variables; a refused input is a result type, a bad document a ClientError with its code', async () => {
    const id = await project('third-party-request');
    const read = await request.request<{ node: { name: string } | null }>('query ($id: ID!) { node(id: $id) { ... on Project { name } } }', { id });
    expect(read.node).toEqual({ name: 'third-party-request' });
    // The same name again: a typed error in the result union, not a thrown one.
    expect((await request.request<CreateProject>(CREATE_PROJECT, { name: 'third-party-request' })).createProject.__typename).toBe('AlreadyExistsError');
    const refused: unknown = await request.request('{ nope }').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ClientError);
    expect((refused as ClientError).response.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });
});

type Changed = { entryChanged: { type: string; entry: { name: string } | null } };

describe('graphql-sse (distinct connections)', () => {
  let sse: Client;
  beforeAll(() => {
    sse = createClient({ url: `${running.server.base}/graphql`, retryAttempts: 0 });
  });
  afterAll(() => sse?.dispose());

  it("a subscription receives a write's event; a query is answered over the stream", async () => {
    const scope = await project('third-party-sse');
    const events = sse.iterate<Changed>({
      query: 'subscription ($scope: ID!) { entryChanged(scope: $scope) { type entry { name } } }',
      variables: { scope },
    });
    // Written until the stream, which starts listening once the request is read, has the event.
    const first = events.next();
    let received = false;
    void first.then(() => (received = true));
    for (let i = 0; !received && i < 50; i++) {
      await request.request('mutation ($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { __typename } }', { s: scope, n: `tool-${i}` });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await first;
    expect(result.done).toBe(false);
    const event = (result.value as ExecutionResult<Changed>).data?.entryChanged;
    expect(event?.type).toBe('CREATED');
    expect(event?.entry?.name).toMatch(/^tool-\d+$/);
    await events.return?.();

    const answers: unknown[] = [];
    for await (const answer of sse.iterate({ query: '{ __typename }' })) answers.push(answer);
    expect(answers).toEqual([{ data: { __typename: 'Query' } }]);
  });

  it('a subscription refused at its start ends with the typed error', async () => {
    const results: Array<ExecutionResult<Record<string, unknown>, unknown>> = [];
    const events = sse.iterate({ query: 'subscription { entryChanged(scope: "not-a-scope") { type } }' });
    for await (const result of events) results.push(result);
    expect(results).toHaveLength(1);
    expect(results[0]?.errors?.map((e) => (e.extensions as { code?: string } | undefined)?.code)).toEqual(['VALIDATION_FAILED']);
  });
});
