// MAX_SUBSCRIPTIONS: the subscriptions open at once on one instance, over WebSockets and SSE
// together. One more is refused with TOO_MANY_SUBSCRIPTIONS (and `limit`) while the open ones go
// on; one that ends frees its place. MAX_SUBSCRIPTIONS_PER_KEY: the same, for one API key's.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createEventBus } from '../src/infra/events.ts';
import { createDatabaseUrl } from './support/harness.ts';
import { principalWithKey } from './support/keys.ts';
import { collectOn, sseSubscribe, subscriptionsOpen, untilListening, wsSubscribe, type Collector } from './support/subscriptions.ts';

const MAX = 2;
let database: Database;
let drop: () => Promise<void>;
let app: App;
let port: number;

beforeAll(async () => {
  const created = await createDatabaseUrl();
  drop = created.drop;
  database = await openDatabase(created.url);
  app = createApp({ database, bus: createEventBus(), auth: 'off', maxSubscriptions: MAX });
  port = await app.start(0, '127.0.0.1');
});

afterAll(async () => {
  await app?.stop(1_000);
  await database?.close();
  await drop?.();
});

type EntryEvent = { entryChanged: { entry: { name: string } } };
const ON_ENTRY = parse('subscription CapOnEntry($scope: ID!) { entryChanged(scope: $scope) { entry { name } } }') as unknown as TypedDocumentNode<EntryEvent, { scope: string }>;

async function post<T>(query: string, variables: Record<string, unknown>, on: App = app): Promise<T> {
  const response = await on.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const result = (await response.json()) as ExecutionResult<T>;
  if (result.errors || !result.data) throw new Error(JSON.stringify(result));
  return result.data;
}

let probes = 0;
const addTool = (scope: string, name = `probe-${probes++}`, on: App = app) =>
  post('mutation CapTool($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { __typename } }', { s: scope, n: name }, on);
const createProject = async (on: App = app) =>
  (await post<{ createProject: { project: { id: string } } }>(
    'mutation CapProject($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }',
    { n: `cap-${probes++}` },
    on,
  ))
    .createProject.project.id;
const names = (c: Collector<EntryEvent>) => c.results.map((r) => r.data?.entryChanged.entry.name).filter((n) => n && !n.startsWith('probe'));
/** The first result's error codes (a refused subscription answers one result with its error). */
const refusal = async (c: Collector<EntryEvent>) => {
  const [first] = await c.until((results) => results.length > 0);
  return first!.errors?.map((e) => e.extensions);
};

describe(`MAX_SUBSCRIPTIONS (${MAX} here)`, () => {
  it('refuses one more subscription over either transport while the open ones go on, and takes one again once one ended', async () => {
    const scope = await createProject();
    const ws = wsSubscribe(port, ON_ENTRY, { scope });
    await untilListening(ws.collector, () => addTool(scope));
    const sse = await sseSubscribe(app, ON_ENTRY, { scope }, { port });
    await untilListening(sse.collector, () => addTool(scope));

    const wsRefused = wsSubscribe(port, ON_ENTRY, { scope });
    expect(await refusal(wsRefused.collector)).toEqual([{ code: 'TOO_MANY_SUBSCRIPTIONS', limit: MAX }]);
    const sseRefused = await sseSubscribe(app, ON_ENTRY, { scope }, { port });
    expect(await refusal(sseRefused.collector)).toEqual([{ code: 'TOO_MANY_SUBSCRIPTIONS', limit: MAX }]);
    await wsRefused.close();
    sseRefused.close();

    await addTool(scope, 'while-full');
    await ws.collector.until(() => names(ws.collector).includes('while-full'));
    await sse.collector.until(() => names(sse.collector).includes('while-full'));

    // The WebSocket one ends: its place is taken by a new one (its end is counted as it is handled).
    await ws.close();
    let again = wsSubscribe(port, ON_ENTRY, { scope });
    for (let tries = 0; ; tries++) {
      await untilListening(again.collector, () => addTool(scope));
      if (!again.collector.results[0]?.errors) break;
      // Refused: the end of the closed one was not counted yet.
      expect(tries).toBeLessThan(20);
      await again.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = wsSubscribe(port, ON_ENTRY, { scope });
    }
    await addTool(scope, 'after-one-ended');
    await again.collector.until(() => names(again.collector).includes('after-one-ended'));
    await again.close();
    sse.close();
  });

  it('counts subscriptions asked for at once before any of them starts', async () => {
    await expect.poll(() => subscriptionsOpen(port)).toBe(0);
    expect(await refusedOfFiveAtOnce(port, await createProject(), app)).toBe(5 - MAX);
  });
});

/** Five subscriptions sent together on one socket (their access checks run side by side): how many are refused as too many. */
async function refusedOfFiveAtOnce(on: number, scope: string, app_: App, params: Record<string, string> = {}): Promise<number> {
  const first = wsSubscribe(on, ON_ENTRY, { scope }, params);
  const more = Array.from({ length: 4 }, () => collectOn(first.client, ON_ENTRY, { scope }));
  const collectors = [first.collector, ...more.map((m) => m.collector)];
  await Promise.all(collectors.map((collector) => untilListening(collector, () => addTool(scope, undefined, app_))));
  const refused = collectors.filter((collector) => collector.results[0]?.errors?.[0]?.extensions?.code === 'TOO_MANY_SUBSCRIPTIONS');
  for (const m of more) m.unsubscribe();
  await first.close();
  return refused.length;
}


describe('MAX_SUBSCRIPTIONS_PER_KEY (2 here, of 10 on the instance)', () => {
  const PER_KEY = 2;
  let keyed: App;
  let keyedPort: number;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const created = await createDatabaseUrl();
    const keyedDatabase = await openDatabase(created.url);
    keyed = createApp({ database: keyedDatabase, bus: createEventBus(), maxSubscriptions: 10, maxSubscriptionsPerKey: PER_KEY });
    keyedPort = await keyed.start(0, '127.0.0.1');
    close = async () => {
      await keyed.stop(1_000);
      await keyedDatabase.close();
      await created.drop();
    };
  });
  afterAll(() => close?.());

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  it("refuses a key's next subscription over either transport, not another key's; one that ends, or never started, frees its place", async () => {
    const [a, b] = [await principalWithKey(keyed, 'cap-a', true), await principalWithKey(keyed, 'cap-b', true)];
    const scope = await createProject(keyed);
    const probe = () => addTool(scope, undefined, keyed);
    // Subscriptions that fail before they start (an unknown scope) hold no place afterwards.
    for (let i = 0; i < PER_KEY + 1; i++) {
      const failed = wsSubscribe(keyedPort, ON_ENTRY, { scope: 'UHJvamVjdDpub25l' }, bearer(a.key));
      expect((await refusal(failed.collector))?.[0]?.code).not.toBe('TOO_MANY_SUBSCRIPTIONS');
      await failed.close();
    }
    const ws = wsSubscribe(keyedPort, ON_ENTRY, { scope }, bearer(a.key));
    await untilListening(ws.collector, probe);
    const sse = await sseSubscribe(keyed, ON_ENTRY, { scope }, { port: keyedPort, headers: bearer(a.key) });
    await untilListening(sse.collector, probe);

    const wsRefused = wsSubscribe(keyedPort, ON_ENTRY, { scope }, bearer(a.key));
    expect(await refusal(wsRefused.collector)).toEqual([{ code: 'TOO_MANY_SUBSCRIPTIONS', limit: PER_KEY }]);
    expect(wsRefused.collector.results[0]?.errors?.[0]?.message).toMatch(/for this API key/);
    const sseRefused = await sseSubscribe(keyed, ON_ENTRY, { scope }, { port: keyedPort, headers: bearer(a.key) });
    expect(await refusal(sseRefused.collector)).toEqual([{ code: 'TOO_MANY_SUBSCRIPTIONS', limit: PER_KEY }]);
    await wsRefused.close();
    sseRefused.close();

    // Another key is not held back by the first one's.
    const other = wsSubscribe(keyedPort, ON_ENTRY, { scope }, bearer(b.key));
    await untilListening(other.collector, probe);
    await addTool(scope, 'while-a-is-full', keyed);
    await ws.collector.until(() => names(ws.collector).includes('while-a-is-full'));
    await other.collector.until(() => names(other.collector).includes('while-a-is-full'));

    // The first key's SSE stream ends: its place is taken by a new one (its end is counted as it is handled).
    sse.close();
    let again = wsSubscribe(keyedPort, ON_ENTRY, { scope }, bearer(a.key));
    for (let tries = 0; ; tries++) {
      await untilListening(again.collector, probe);
      if (!again.collector.results[0]?.errors) break;
      expect(tries).toBeLessThan(20);
      await again.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = wsSubscribe(keyedPort, ON_ENTRY, { scope }, bearer(a.key));
    }
    await addTool(scope, 'after-one-ended', keyed);
    await again.collector.until(() => names(again.collector).includes('after-one-ended'));
    await Promise.all([again.close(), ws.close(), other.close()]);
  });

  it("counts a key's subscriptions asked for at once before any of them starts", async () => {
    const c = await principalWithKey(keyed, 'cap-c', true);
    expect(await refusedOfFiveAtOnce(keyedPort, await createProject(keyed), keyed, bearer(c.key))).toBe(5 - PER_KEY);
  });
});

describe('callers without a key (AUTH=off here)', () => {
  it('are held only by the instance cap, not by the per-key one', async () => {
    const created = await createDatabaseUrl();
    const keyless = await openDatabase(created.url);
    const open = createApp({ database: keyless, bus: createEventBus(), auth: 'off', maxSubscriptions: 10, maxSubscriptionsPerKey: 1 });
    const openPort = await open.start(0, '127.0.0.1');
    try {
      const scope = await createProject(open);
      const subscriptions = [wsSubscribe(openPort, ON_ENTRY, { scope }), wsSubscribe(openPort, ON_ENTRY, { scope })];
      for (const s of subscriptions) await untilListening(s.collector, () => addTool(scope, undefined, open));
      expect(subscriptions.flatMap((s) => s.collector.results.flatMap((r) => r.errors ?? []))).toEqual([]);
      await Promise.all(subscriptions.map((s) => s.close()));
    } finally {
      await open.stop(1_000);
      await keyless.close();
      await created.drop();
    }
  });
});
