// Writes racing the deletion of what they write to (found by a sweep on PostgreSQL: an update of an
// entry, a relation to an entry, a memory policy of a scope, each sent while the entry or the scope
// was being deleted, failed now and then with INTERNAL_SERVER_ERROR: the row was gone by the time
// its foreign key was checked, after the write's guard had seen it). Each answer is now data or a
// typed error. The race needs requests in parallel on the database: PostgreSQL, over HTTP to the
// real server (the sweep's rate, ~1 update in 25 of those racing a delete, did not show in-process).
// On SQLite writes take turns, so it cannot happen there.
import { describe, expect, it } from 'vitest';
import { print, type ExecutionResult } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

const h = useHarness();
const ROUNDS = 16;

const Add = graphql(`
  mutation RaceAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }
`);
const Update = graphql(`mutation RaceUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: "zz" }) { __typename } }`);
const Delete = graphql(`mutation RaceDelete($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }`);
const Relate = graphql(`mutation RaceRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }`);
const Policy = graphql(`mutation RacePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: SEMANTIC, ttlHours: 1 }) { __typename } }`);
const DeleteTree = graphql(`mutation RaceDeleteTree($id: ID!) { deleteScopeTree(input: { id: $id }) { __typename } }`);

async function knowledge(scope: string, title: string): Promise<string> {
  const made = (await h.ok(Add, { scope, title })).addKnowledge;
  if (!('knowledge' in made)) throw new Error('addKnowledge');
  return made.knowledge.id;
}

/** Every answer is data, or errors that are not the server's own. */
function expectTyped(answers: ExecutionResult<unknown>[]): void {
  const codes = answers.flatMap((a) => (a.errors ?? []).map((e) => e.extensions?.code));
  expect(codes.filter((code) => code === 'INTERNAL_SERVER_ERROR' || code === undefined)).toEqual([]);
}

describe.runIf(DB_KIND === 'postgresql')('writes racing deletes, over HTTP (postgresql)', () => {
  let server: ServerProcess;
  const post = async <R, V>(doc: TypedDocumentNode<R, V>, variables: V): Promise<ExecutionResult<unknown>> => {
    const response = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-actor': 'agent:racer' },
      body: JSON.stringify({ query: print(doc), variables }),
    });
    return (await response.json()) as ExecutionResult<unknown>;
  };
  /** Twenty-four requests at once, alternating the two. */
  const race = (a: () => Promise<ExecutionResult<unknown>>, b: () => Promise<ExecutionResult<unknown>>) =>
    Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? a() : b())));

  it('updates of an entry being deleted, relations to it, and memory policies of a scope being deleted', async () => {
    server = await startServerProcess(h.url, { RATE_LIMIT_REQUESTS_PER_SECOND: '0', RATE_LIMIT_WRITES_PER_SECOND: '0', REDIS_URL: '', AUTH: 'off' });
    try {
      const scope = await createProject(h, 'races');
      const source = await knowledge(scope, 'source');
      for (let round = 0; round < ROUNDS; round++) {
        const id = await knowledge(scope, `k${round}`);
        expectTyped(await race(() => post(Delete, { id }), () => post(Update, { id })));
        const target = await knowledge(scope, `t${round}`);
        expectTyped(await race(() => post(Delete, { id: target }), () => post(Relate, { source, target })));
        const doomed = await createProject(h, `race-policy-${round}`);
        expectTyped(await race(() => post(DeleteTree, { id: doomed }), () => post(Policy, { scope: doomed })));
      }
    } finally {
      await server.kill();
    }
  }, 120_000);
});
