// Rules of src/modules/events/subscription-guard.ts that mutation testing (npm run mutate) found
// unchecked by in-process tests (the real-socket ones cover them too, but Stryker runs in-process):
// over SSE through yoga.fetch, events are delivered only when the subscriber reads them; every
// RECHECK_MS the key, the kind of caller (an admin demoted) and the grant are asked again, an
// allowed subscription goes on, a revoked one ends with FORBIDDEN and its message, then completes.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, type ExecutionResult } from 'graphql';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_MS } from '../src/modules/events/subscription-guard.ts';
import { grant, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();

type Changed = { entryChanged: { type: string; entry: { id: string } } };
const WATCH = parse(`subscription($s: ID!, $d: Boolean) { entryChanged(scope: $s, includeDescendants: $d) { type entry { id } } }`) as TypedDocumentNode<
  Changed,
  { s: string; d?: boolean }
>;
const WATCH_AFTER = parse(`subscription($s: ID!, $after: String) { entryChanged(scope: $s, after: $after) { type entry { id } } }`) as TypedDocumentNode<
  Changed,
  { s: string; after: string }
>;
const PURGED = parse(`subscription { memoryPurged { __typename } }`) as TypedDocumentNode<unknown, Record<string, never>>;

const w = {} as Record<'global' | 'A' | 'B', string>;
let added = 0;

async function addIn(scope: string): Promise<string> {
  const d = await ok(h, null, `mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, {
    s: scope,
    t: `k${++added}`,
  });
  return d.addKnowledge.knowledge.id as string;
}

const watch = (key: string, variables: { s: string; d?: boolean }) => sseSubscribe(h.app, WATCH, variables, { headers: { authorization: `Bearer ${key}` } });
const idsIn = (results: ExecutionResult<Changed>[]) => results.flatMap((r) => (r.data ? [r.data.entryChanged.entry.id] : []));
const errorsIn = (results: ExecutionResult<unknown>[]) => results.flatMap((r) => r.errors?.map((e) => [e.message, e.extensions?.code]) ?? []);
const REVOKED = ['The key or grant that allowed this subscription was revoked', 'FORBIDDEN'];

async function keyIdOf(name: string): Promise<string> {
  const d = await ok(h, null, `{ principals(first: 100) { edges { node { name keys { id } } } } }`);
  return d.principals.edges.find((e: { node: { name: string } }) => e.node.name === name).node.keys[0].id;
}

beforeAll(async () => {
  w.global = (await ok(h, null, `{ globalScope { id } }`)).globalScope.id;
  for (const p of ['A', 'B'] as const) {
    const made = await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `ms-${p}` });
    w[p] = made.createProject.project.id;
  }
});

describe(`subscriptions checked at delivery, in-process (${DB_KIND})`, () => {
  it("a grant on A receives A's events and never B's, and keeps receiving past a recheck", async () => {
    const agent = await principal(h, 'ms-agent', { grants: [[w.A, 'READ']] });
    const sse = await watch(agent.key, { s: w.global, d: true });
    try {
      await untilListening(sse.collector, () => addIn(w.A));
      const inB = await addIn(w.B);
      await sleep(RECHECK_MS + 300);
      const marker = await addIn(w.A);
      await sse.collector.until((r) => idsIn(r).includes(marker));
      expect(idsIn(sse.collector.results)).not.toContain(inB);
      expect(errorsIn(sse.collector.results)).toEqual([]);
      expect(sse.completed()).toBe(false);
    } finally {
      sse.close();
    }
  });

  it('the local admin receives everything', async () => {
    const sse = await sseSubscribe(h.app, WATCH, { s: w.global, d: true });
    try {
      await untilListening(sse.collector, () => addIn(w.A));
      const inB = await addIn(w.B);
      await sse.collector.until((r) => idsIn(r).includes(inB));
      expect(errorsIn(sse.collector.results)).toEqual([]);
    } finally {
      sse.close();
    }
  });

  it('revoking the grant ends it with FORBIDDEN, then completes; nothing more arrives', async () => {
    const agent = await principal(h, 'ms-revoked-grant', { grants: [] });
    const grantId = await grant(h, null, agent.id, w.A, 'READ');
    const sse = await watch(agent.key, { s: w.A });
    try {
      await untilListening(sse.collector, () => addIn(w.A));
      await ok(h, null, `mutation($id: ID!) { revokeGrant(input: { id: $id }) { __typename } }`, { id: grantId });
      await sse.collector.until((r) => errorsIn(r).length > 0, RECHECK_MS * 3);
      expect(errorsIn(sse.collector.results)).toEqual([REVOKED]);
      const count = sse.collector.results.length;
      await addIn(w.A);
      await sleep(200);
      expect(sse.collector.results.length).toBe(count);
      expect(sse.completed()).toBe(true);
    } finally {
      sse.close();
    }
  });

  it('revoking the key ends it with FORBIDDEN', async () => {
    const agent = await principal(h, 'ms-revoked-key', { grants: [[w.A, 'READ']] });
    const sse = await watch(agent.key, { s: w.A });
    try {
      await untilListening(sse.collector, () => addIn(w.A));
      await ok(h, null, `mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename } }`, { id: await keyIdOf('ms-revoked-key') });
      await sse.collector.until((r) => errorsIn(r).length > 0, RECHECK_MS * 3);
      expect(errorsIn(sse.collector.results)).toEqual([REVOKED]);
      for (let i = 0; i < 50 && !sse.completed(); i++) await sleep(20);
      expect(sse.completed()).toBe(true);
    } finally {
      sse.close();
    }
  });

  it('an admin demoted to a reader loses the subscription it opened as an admin', async () => {
    const boss = await principal(h, 'ms-demoted', { admin: true });
    const sse = await sseSubscribe(h.app, PURGED, {}, { headers: { authorization: `Bearer ${boss.key}` } });
    const watching = await watch(boss.key, { s: w.A });
    try {
      await untilListening(watching.collector, () => addIn(w.A));
      // The ADMIN grant on the global scope is replaced by READ: still a key, still reads A.
      await grant(h, null, boss.id, w.global, 'READ');
      for (const { collector } of [sse, watching]) {
        await collector.until((r) => errorsIn(r).length > 0, RECHECK_MS * 3);
        expect(errorsIn(collector.results)).toEqual([REVOKED]);
      }
    } finally {
      sse.close();
      watching.close();
    }
  });

  it('memoryPurged stays open for an admin past a recheck, and is refused to a reader', async () => {
    const boss = await principal(h, 'ms-admin', { admin: true });
    const sse = await sseSubscribe(h.app, PURGED, {}, { headers: { authorization: `Bearer ${boss.key}` } });
    const reader = await principal(h, 'ms-reader', { grants: [[w.A, 'READ']] });
    const refused = await sseSubscribe(h.app, PURGED, {}, { headers: { authorization: `Bearer ${reader.key}` } });
    try {
      await refused.collector.until((r) => r.length > 0);
      expect(errorsIn(refused.collector.results).map(([, code]) => code)).toEqual(['FORBIDDEN']);
      await sleep(RECHECK_MS + 500);
      expect(sse.collector.results).toEqual([]);
      expect(sse.completed()).toBe(false);
    } finally {
      sse.close();
      refused.close();
    }
  });

  it('a cursor the feed cannot resume from ends a reader’s subscription with CURSOR_EXPIRED, then completion', async () => {
    const agent = await principal(h, 'ms-expired', { grants: [[w.A, 'READ']] });
    const sse = await sseSubscribe(h.app, WATCH_AFTER, { s: w.A, after: '99999999999' }, { headers: { authorization: `Bearer ${agent.key}` } });
    try {
      await sse.collector.until((r) => errorsIn(r).length > 0, 10_000);
      expect(errorsIn(sse.collector.results).map(([, code]) => code)).toEqual(['CURSOR_EXPIRED']);
      for (let i = 0; i < 50 && !sse.completed(); i++) await sleep(20);
      expect(sse.completed()).toBe(true);
    } finally {
      sse.close();
    }
  });
});
