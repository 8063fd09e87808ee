// The change feed (issue 16): every subscription, not only entryChanged, resumes after a cursor.
// For each one: read changeFeedCursor, cause two of its events, subscribe with that cursor as
// `after`: the two arrive by replay (and nothing older), then a third arrives live, each once and
// in commit order. Events of the same kind elsewhere (another scope, another resource, another
// question) are caused in between and must not arrive.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { createProject, startSession } from './support/ops.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { sseSubscribe } from './support/subscriptions.ts';

const h = useHarness();
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A subscription to resume: its document (selecting `cursor` and `mark`), and how to cause its events. */
interface Case {
  name: string;
  /** Sets up the scope it follows; returns the variables and `cause(mark, elsewhere)`, which makes one event. */
  setUp(): Promise<{ variables: Record<string, unknown>; cause: (mark: string, elsewhere?: boolean) => Promise<void> }>;
  document: string;
  /** The mark of a delivered event (to tell the three apart). */
  markOf(data: Record<string, unknown>): string;
}

/** Runs `query` as the keyless caller; its data (errors fail the test). */
const gql = async <T = Record<string, unknown>>(query: string, variables: Record<string, unknown>) => (await ok(h, null, query, variables)) as T;

/** Runs a mutation as the agent `actor` (X-Engram-Actor); returns its result's __typename. */
async function asAgent(actor: string, query: string, variables: Record<string, unknown>): Promise<string> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-actor': actor },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, { __typename: string }> };
  return Object.values(body.data ?? {})[0]?.__typename ?? JSON.stringify(body);
}

const ADD_TOOL = `mutation ($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n, description: "d" }) { ... on AddToolSuccess { tool { id } } } }`;
const UPDATE_TOOL = `mutation ($input: UpdateToolInput!) { updateTool(input: $input) { ... on UpdateToolSuccess { update { conflict { id } } } } }`;

/** A conflict on a new tool named `name` of `scope` (two updates from different authors on one version); its id. */
async function conflictOn(scope: string, name: string): Promise<string> {
  const tool = (await gql<{ addTool: { tool: { id: string } } }>(ADD_TOOL, { s: scope, n: name })).addTool.tool.id;
  await gql(UPDATE_TOOL, { input: { id: tool, description: 'a', author: 'agent:a' } });
  const r = await gql<{ updateTool: { update: { conflict: { id: string } } } }>(UPDATE_TOOL, { input: { id: tool, description: 'b', author: 'agent:b', expectedVersion: 1 } });
  return r.updateTool.update.conflict.id;
}

const CASES: Case[] = [
  {
    name: 'conflictDetected',
    document: `subscription ($s: ID!, $after: String) { conflictDetected(scope: $s, after: $after) { cursor conflict { entry { name } } } }`,
    async setUp() {
      const [mine, other] = [await createProject(h, 'resume-conflicts'), await createProject(h, 'resume-conflicts-other')];
      return { variables: { s: mine }, cause: async (mark, elsewhere) => void (await conflictOn(elsewhere ? other : mine, mark)) };
    },
    markOf: (d) => (d.conflictDetected as { conflict: { entry: { name: string } } }).conflict.entry.name,
  },
  {
    name: 'conflictResolved',
    document: `subscription ($s: ID!, $after: String) { conflictResolved(scope: $s, after: $after) { cursor conflict { entry { name } } } }`,
    async setUp() {
      const [mine, other] = [await createProject(h, 'resume-resolved'), await createProject(h, 'resume-resolved-other')];
      return {
        variables: { s: mine },
        cause: async (mark, elsewhere) => {
          const id = await conflictOn(elsewhere ? other : mine, mark);
          await gql(`mutation ($id: ID!) { resolveConflict(input: { id: $id, strategy: KEEP_CURRENT }) { __typename } }`, { id });
        },
      };
    },
    markOf: (d) => (d.conflictResolved as { conflict: { entry: { name: string } } }).conflict.entry.name,
  },
  {
    name: 'sessionEvent',
    document: `subscription ($s: ID!, $after: String) { sessionEvent(session: $s, after: $after) { cursor content } }`,
    async setUp() {
      const project = await createProject(h, 'resume-session');
      const [mine, other] = [await startSession(h, project), await startSession(h, project)];
      const append = `mutation ($s: ID!, $c: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:r", content: $c }) { __typename } }`;
      return { variables: { s: mine }, cause: async (mark, elsewhere) => void (await gql(append, { s: elsewhere ? other : mine, c: { mark } })) };
    },
    markOf: (d) => (d.sessionEvent as { content: { mark: string } }).content.mark,
  },
  {
    name: 'leaseChanged',
    document: `subscription ($s: ID!, $after: String) { leaseChanged(scope: $s, resource: "shared.txt", after: $after) { cursor holder } }`,
    async setUp() {
      const scope = await createProject(h, 'resume-leases');
      const checkout = `mutation ($s: ID!, $r: String!) { checkoutLease(input: { scope: $s, resource: $r, ttlSeconds: 60, mode: SHARED }) { __typename } }`;
      return {
        variables: { s: scope },
        // Shared leases, so every agent is granted; the holder is the mark.
        cause: async (mark, elsewhere) => expect(await asAgent(mark, checkout, { s: scope, r: elsewhere ? 'other.txt' : 'shared.txt' })).toBe('CheckoutLeaseSuccess'),
      };
    },
    markOf: (d) => (d.leaseChanged as { holder: string }).holder,
  },
  {
    name: 'voteChanged',
    document: `subscription ($s: ID!, $q: ID!, $after: String) { voteChanged(scope: $s, question: $q, after: $after) { cursor vote { answer } } }`,
    async setUp() {
      const scope = await createProject(h, 'resume-votes');
      const open = `mutation ($s: ID!, $k: String!) { openVoteQuestion(input: { scope: $s, key: $k, k: 100 }) { ... on OpenVoteQuestionSuccess { question { id } } } }`;
      type Opened = { openVoteQuestion: { question: { id: string } } };
      const [mine, other] = [(await gql<Opened>(open, { s: scope, k: 'mine' })).openVoteQuestion.question.id, (await gql<Opened>(open, { s: scope, k: 'other' })).openVoteQuestion.question.id];
      const cast = `mutation ($q: ID!, $a: String!) { castVote(input: { question: $q, answer: $a }) { __typename } }`;
      // One vote per agent and question: each mark is its own agent.
      return { variables: { s: scope, q: mine }, cause: async (mark, elsewhere) => expect(await asAgent(mark, cast, { q: elsewhere ? other : mine, a: mark })).toBe('CastVoteSuccess') };
    },
    markOf: (d) => (d.voteChanged as { vote: { answer: string } }).vote.answer,
  },
  {
    name: 'entryChanged',
    document: `subscription ($s: ID!, $after: String) { entryChanged(scope: $s, after: $after) { cursor entry { name } } }`,
    async setUp() {
      const [mine, other] = [await createProject(h, 'resume-entries'), await createProject(h, 'resume-entries-other')];
      return { variables: { s: mine }, cause: async (mark, elsewhere) => void (await gql(ADD_TOOL, { s: elsewhere ? other : mine, n: mark })) };
    },
    markOf: (d) => (d.entryChanged as { entry: { name: string } }).entry.name,
  },
];

describe(`every subscription resumes after a cursor (${DB_KIND})`, () => {
  it.each(CASES)('$name: what happened after the cursor arrives by replay, then live events, each once and in order', async (c) => {
    const { variables, cause } = await c.setUp();
    await cause('before');
    const from = (await gql<{ changeFeedCursor: string }>('{ changeFeedCursor }', {})).changeFeedCursor;
    await cause('missed-1');
    await cause('elsewhere-1', true);
    await cause('missed-2');
    const sub = await sseSubscribe(h.app, parse(c.document) as TypedDocumentNode<Record<string, unknown>, Record<string, unknown>>, { ...variables, after: from });
    closers.push(() => sub.close());
    await sub.collector.until((r) => r.length >= 2);
    // Live now (the replay is done and the subscription listens): one more, and one elsewhere first.
    await cause('elsewhere-2', true);
    await cause('live');
    await sub.collector.until((r) => r.length >= 3);
    const results = sub.collector.results;
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    const delivered = results.map((r) => r.data!);
    expect(delivered.map((d) => c.markOf(d))).toEqual(['missed-1', 'missed-2', 'live']);
    const cursors = delivered.map((d) => Number((Object.values(d)[0] as { cursor: string }).cursor));
    expect(cursors[0]).toBeGreaterThan(Number(from));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(cursors).size).toBe(3);
  });
});
