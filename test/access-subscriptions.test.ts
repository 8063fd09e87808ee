// Access control on subscriptions (issue #12), over real sockets: graphql-ws and SSE deliver only
// what the subscriber may read, and a revoked grant or key ends the subscription.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, type ExecutionResult } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { grant, ok, principal, type Principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { Collector, untilListening, wsSubscribe } from './support/subscriptions.ts';

const h = useHarness({ listen: true });

type Changed = { entryChanged: { type: string; entry: { id: string } } };
const WATCH = parse(`subscription($s: ID!, $d: Boolean) { entryChanged(scope: $s, includeDescendants: $d) { type entry { id } } }`) as TypedDocumentNode<
  Changed,
  { s: string; d?: boolean }
>;
const WATCH_TEXT = `subscription($s: ID!, $d: Boolean) { entryChanged(scope: $s, includeDescendants: $d) { type entry { id } } }`;

const w = {} as Record<'global' | 'A' | 'B', string>;
let added = 0;

async function addIn(scope: string): Promise<string> {
  const d = await ok(h, null, `mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, {
    s: scope,
    t: `k${++added}`,
  });
  return d.addKnowledge.knowledge.id as string;
}

/** An SSE subscription over a real socket (Yoga's SSE transport), collected like graphql-ws results. */
async function sseSubscribe(key: string, query: string, variables: Record<string, unknown>) {
  const abort = new AbortController();
  const collector = new Collector<Changed>();
  let completed = false;
  const response = await fetch(`http://127.0.0.1:${h.port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: complete')) completed = true;
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (data && !block.startsWith('event: complete')) collector.push(JSON.parse(data) as ExecutionResult<Changed>);
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) collector.fail(error);
    }
  })();
  return { collector, completed: () => completed, close: () => abort.abort() };
}

const idsIn = (results: ExecutionResult<Changed>[]) => results.flatMap((r) => (r.data ? [r.data.entryChanged.entry.id] : []));
const codesIn = (results: ExecutionResult<Changed>[]) => results.flatMap((r) => r.errors?.map((e) => e.extensions?.code) ?? []);

beforeAll(async () => {
  w.global = (await ok(h, null, `{ globalScope { id } }`)).globalScope.id;
  for (const p of ['A', 'B'] as const) {
    const made = await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `sub-${p}` });
    w[p] = made.createProject.project.id;
  }
});

describe(`access on subscriptions (${DB_KIND})`, () => {
  let agentA: Principal;
  beforeAll(async () => {
    agentA = await principal(h, 'sub-agent-a', { grants: [[w.A, 'WRITE']] });
  });

  it("over graphql-ws and SSE, a grant on A receives A's events and never B's", async () => {
    const ws = wsSubscribe(h.port, WATCH, { s: w.global, d: true }, { authorization: `Bearer ${agentA.key}` });
    const sse = await sseSubscribe(agentA.key, WATCH_TEXT, { s: w.global, d: true });
    try {
      await untilListening(ws.collector, () => addIn(w.A));
      await untilListening(sse.collector, () => addIn(w.A));
      const inB = await addIn(w.B);
      const marker = await addIn(w.A);
      for (const { collector } of [ws, sse]) {
        await collector.until((r) => idsIn(r).includes(marker));
        expect(idsIn(collector.results)).not.toContain(inB);
        expect(codesIn(collector.results)).toEqual([]);
      }
    } finally {
      await ws.close();
      sse.close();
    }
  });

  it('a scope of B cannot be subscribed: NOT_FOUND, as for a scope that does not exist', async () => {
    const ws = wsSubscribe(h.port, WATCH, { s: w.B }, { authorization: `Bearer ${agentA.key}` });
    const sse = await sseSubscribe(agentA.key, WATCH_TEXT, { s: w.B });
    try {
      for (const { collector } of [ws, sse]) {
        await collector.until((r) => r.length > 0);
        expect(collector.results.map((r) => [r.data ?? null, r.errors?.map((e) => [e.message, e.extensions?.code])])).toEqual([[null, [['No scope has this id', 'NOT_FOUND']]]]);
      }
    } finally {
      await ws.close();
      sse.close();
    }
  });

  it('revoking the grant ends open subscriptions over graphql-ws and SSE with FORBIDDEN', async () => {
    const reader = await principal(h, 'sub-reader', { grants: [] });
    const grantId = await grant(h, null, reader.id, w.A, 'READ');
    const ws = wsSubscribe(h.port, WATCH, { s: w.A }, { authorization: `Bearer ${reader.key}` });
    const sse = await sseSubscribe(reader.key, WATCH_TEXT, { s: w.A });
    try {
      await untilListening(ws.collector, () => addIn(w.A));
      await untilListening(sse.collector, () => addIn(w.A));
      await ok(h, null, `mutation($id: ID!) { revokeGrant(input: { id: $id }) { __typename } }`, { id: grantId });
      for (const { collector } of [ws, sse]) {
        await collector.until((r) => codesIn(r).includes('FORBIDDEN'), 10_000);
        expect(codesIn(collector.results)).toEqual(['FORBIDDEN']);
      }
      // And nothing more arrives: the subscriptions are over.
      const count = [ws.collector.results.length, sse.collector.results.length];
      await addIn(w.A);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([ws.collector.results.length, sse.collector.results.length]).toEqual(count);
      expect(sse.completed()).toBe(true);
    } finally {
      await ws.close();
      sse.close();
    }
  });

  it('revoking the key ends an open SSE subscription', async () => {
    const holder = await principal(h, 'sub-holder', { grants: [[w.A, 'READ']] });
    const keys = await ok(h, null, `query($id: ID!) { node(id: $id) { id } principals(first: 100) { edges { node { name keys { id } } } } }`, { id: w.A });
    const keyId = keys.principals.edges.find((e: { node: { name: string } }) => e.node.name === 'sub-holder').node.keys[0].id as string;
    const sse = await sseSubscribe(holder.key, WATCH_TEXT, { s: w.A });
    try {
      await untilListening(sse.collector, () => addIn(w.A));
      await ok(h, null, `mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename } }`, { id: keyId });
      await sse.collector.until((r) => codesIn(r).includes('FORBIDDEN'), 10_000);
      expect(sse.completed()).toBe(true);
    } finally {
      sse.close();
    }
  });
});
