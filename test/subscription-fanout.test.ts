// One change delivered to many subscribers of one scope: what the event's fields read is read once
// for all of them (1,000 subscribers' own reads of `entry { currentVersion }` were one statement
// over SQLite's bound-parameter limit: every one of them got INTERNAL_SERVER_ERROR), and a change
// handed on to more subscribers than one turn of the event loop takes (LISTENERS_PER_TURN) reaches
// each of them once, in order.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { LISTENERS_PER_TURN } from '../src/infra/feed-tailer.ts';
import { graphql } from './gql/index.ts';
import { DB_KIND, fewestStatements, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { collectOn, eventsDelivered, type Collector } from './support/subscriptions.ts';

const h = useHarness({ listen: true });

type Event = {
  entryChanged: { type: string; entry: { name: string; currentVersion: { version: number; content: string }; tags: Array<{ name: string }> } | null; version: { version: number } | null };
};
const ON_ENTRY = parse(`subscription FanOut($scope: ID!) {
  entryChanged(scope: $scope) {
    type
    entry { name ... on Knowledge { currentVersion { version content } tags { name } } }
    version { version }
  }
}`) as unknown as TypedDocumentNode<Event, { scope: string }>;

const AddKnowledge = graphql(`
  mutation FanOutAdd($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }
`);
const Update = graphql(`
  mutation FanOutUpdate($input: UpdateKnowledgeInput!) { updateKnowledge(input: $input) { __typename } }
`);

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) void client.dispose();
});

/** The same subscription as ON_ENTRY under another operation name. */
const ON_ENTRY_OTHER = parse(print(ON_ENTRY).replace('FanOut(', 'FanOutOther(')) as unknown as typeof ON_ENTRY;

/**
 * `n` subscriptions to the scope's entryChanged, at most 100 per socket (WS_MAX_SUBSCRIPTIONS_PER_SOCKET),
 * the last `other` of them as another operation.
 */
function subscribers(n: number, scope: string, other = 0): Array<Collector<Event>> {
  const collectors: Array<Collector<Event>> = [];
  let client: Client | null = null;
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) clients.push((client = createClient({ url: `ws://127.0.0.1:${h.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 })));
    collectors.push(collectOn(client!, i >= n - other ? ON_ENTRY_OTHER : ON_ENTRY, { scope }).collector);
  }
  return collectors;
}

async function knowledgeWithSubscribers(n: number, other = 0) {
  const scope = await createProject(h, `fan-out-${n}`);
  const added = await h.ok(AddKnowledge, { input: { scope, title: `fact-${n}`, content: 'v1', tags: ['alpha', 'beta'] } });
  const id = added.addKnowledge.__typename === 'AddKnowledgeSuccess' ? added.addKnowledge.knowledge.id : '';
  const collectors = subscribers(n, scope, other);
  let content = 0;
  /** Writes a new version and waits until every subscriber has it. */
  const write = async () => {
    const text = `v${++content + 1}`;
    await h.ok(Update, { input: { id, content: text } });
    await Promise.all(collectors.map((c) => c.until((r) => r.some((e) => e.data?.entryChanged.entry?.currentVersion.content === text), 15_000)));
    return text;
  };
  // Subscriptions register asynchronously: written to until every one has had an event.
  for (let attempt = 0; ; attempt++) {
    await h.ok(Update, { input: { id, content: `probe-${attempt}` } });
    try {
      await Promise.all(collectors.map((c) => c.until((r) => r.length > 0, 500)));
      break;
    } catch (error) {
      if (attempt > 20 || collectors.some((c) => c.errors.length > 0)) throw error;
    }
  }
  return { collectors, write, id };
}

describe('fan-out of one change to many subscribers', () => {
  it('what an event shows is read once for all its subscribers: a write costs the same statements with 2 and with 150 of them', async () => {
    expect(150).toBeGreaterThan(LISTENERS_PER_TURN); // handed on over two turns: the second shares the first's reads
    const few = await knowledgeWithSubscribers(2);
    const many = await knowledgeWithSubscribers(150);
    const a = await fewestStatements(h, few.write);
    const b = await fewestStatements(h, many.write);
    for (const collector of many.collectors) {
      const last = collector.results.at(-1)!;
      expect(last.errors).toBeUndefined();
      expect(last.data?.entryChanged).toMatchObject({ type: 'UPDATED', entry: { name: 'fact-150', currentVersion: { content: b.result }, tags: [{ name: 'alpha' }, { name: 'beta' }] } });
      expect(last.data?.entryChanged.version?.version).toBe(last.data?.entryChanged.entry?.currentVersion.version);
    }
    console.log(`[${DB_KIND}] a write with its event: ${a.count} statements with 2 subscribers, ${b.count} with 150`);
    expect(b.count).toBe(a.count);
  });

  it('subscribers of one operation with the same variables share one execution of an event; another operation executes its own', async () => {
    const { collectors, write } = await knowledgeWithSubscribers(35, 5);
    const before = await eventsDelivered(h.port); // /metrics answers anyone with AUTH=off
    const text = await write();
    const after = await eventsDelivered(h.port);
    expect({ own: after.own - before.own, shared: after.shared - before.shared }).toEqual({ own: 2, shared: 33 });
    for (const collector of collectors) {
      const last = collector.results.at(-1)!;
      expect(last.errors).toBeUndefined();
      expect(last.data?.entryChanged).toMatchObject({ type: 'UPDATED', entry: { name: 'fact-35', currentVersion: { content: text } } });
    }
  });

  it("a result with errors is not shared: each subscriber executes the event on its own (errors carry a request's id)", async () => {
    const scope = await createProject(h, 'fan-out-errors');
    const added = await h.ok(AddKnowledge, { input: { scope, title: 'with-errors', content: 'v1' } });
    const id = added.addKnowledge.__typename === 'AddKnowledgeSuccess' ? added.addKnowledge.knowledge.id : '';
    const client = createClient({ url: `ws://127.0.0.1:${h.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    clients.push(client);
    // A page size out of range fails in the event's execution (BAD_USER_INPUT), once the subscription runs.
    const failing = parse(`subscription FanOutErrors($scope: ID!) {
      entryChanged(scope: $scope) { type entry { ... on Knowledge { versions(first: -1) { totalCount } } } }
    }`) as unknown as TypedDocumentNode<{ entryChanged: { type: string } }, { scope: string }>;
    const collectors = [0, 1, 2].map(() => collectOn(client, failing, { scope }).collector);
    for (let attempt = 0; collectors.some((c) => c.results.length === 0); attempt++) {
      if (attempt > 20) throw new Error('not subscribed');
      await h.ok(Update, { input: { id, content: `probe-${attempt}` } });
      await Promise.all(collectors.map((c) => c.until((r) => r.length > 0, 500).catch(() => undefined)));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = await eventsDelivered(h.port);
    const counts = collectors.map((c) => c.results.length);
    await h.ok(Update, { input: { id, content: 'counted' } });
    await Promise.all(collectors.map((c, i) => c.until((r) => r.length > counts[i]!)));
    const after = await eventsDelivered(h.port);
    expect({ own: after.own - before.own, shared: after.shared - before.shared }).toEqual({ own: 3, shared: 0 });
    for (const collector of collectors) expect(collector.results.at(-1)?.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('changes written in a burst reach each of 250 subscribers once and in order, while they are handed on over several turns', async () => {
    const { collectors, id, write } = await knowledgeWithSubscribers(250);
    await write(); // every probe's event has arrived before it
    const before = collectors.map((c) => c.results.length);
    // Written one after another without waiting for their events: later ones commit while earlier
    // ones are still being handed on.
    for (let i = 1; i <= 5; i++) await h.ok(Update, { input: { id, content: `burst-${i}` } });
    await Promise.all(collectors.map((c, i) => c.until((r) => r.length >= before[i]! + 5, 15_000)));
    for (const [i, collector] of collectors.entries()) {
      const events = collector.results.slice(before[i]);
      expect(events.every((r) => r.errors === undefined && r.data?.entryChanged.type === 'UPDATED')).toBe(true);
      const versions = events.map((r) => r.data!.entryChanged.version!.version);
      expect(versions).toHaveLength(5);
      expect(versions.map((v) => v - versions[0]!)).toEqual([0, 1, 2, 3, 4]);
    }
  });
});
