// MAX_SUBSCRIPTIONS: the subscriptions open at once on one instance, over WebSockets and SSE
// together. One more is refused with TOO_MANY_SUBSCRIPTIONS (and `limit`) while the open ones go
// on; one that ends frees its place.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createEventBus } from '../src/infra/events.ts';
import { createDatabaseUrl } from './support/harness.ts';
import { sseSubscribe, untilListening, wsSubscribe, type Collector } from './support/subscriptions.ts';

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

async function post<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const result = (await response.json()) as ExecutionResult<T>;
  if (result.errors || !result.data) throw new Error(JSON.stringify(result));
  return result.data;
}

let probes = 0;
const addTool = (scope: string, name = `probe-${probes++}`) => post('mutation CapTool($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { __typename } }', { s: scope, n: name });
const names = (c: Collector<EntryEvent>) => c.results.map((r) => r.data?.entryChanged.entry.name).filter((n) => n && !n.startsWith('probe'));
/** The first result's error codes (a refused subscription answers one result with its error). */
const refusal = async (c: Collector<EntryEvent>) => {
  const [first] = await c.until((results) => results.length > 0);
  return first!.errors?.map((e) => e.extensions);
};

describe(`MAX_SUBSCRIPTIONS (${MAX} here)`, () => {
  it('refuses one more subscription over either transport while the open ones go on, and takes one again once one ended', async () => {
    const scope = (await post<{ createProject: { project: { id: string } } }>('mutation CapProject { createProject(input: { name: "cap" }) { ... on CreateProjectSuccess { project { id } } } }', {}))
      .createProject.project.id;
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
});
