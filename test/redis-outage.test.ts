// A Redis outage never takes Engram down and loses no event: writes commit and answer while Redis
// is away, subscriptions stay open and keep receiving what other instances write (each instance
// polls the change feed), new ones are accepted, /health says `events: "down"` with 200, and once
// Redis is back wake-ups cross instances again. Each test starts its own redis-server on a spare
// port and SIGKILLs it.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, print, type ExecutionResult } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../src/app.ts';
import type { EventBus } from '../src/infra/events.ts';
import { useHarness, type Harness } from './support/harness.ts';
import { addTool, createProject } from './support/ops.ts';
import { eventually, redisServer as startableRedis } from './support/redis-server.ts';
import { Collector, untilListening } from './support/subscriptions.ts';
import { redisInstance } from './support/instance.ts';
import { compiled } from './support/server-process.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const h = useHarness();

// Plain documents (no codegen): this file's operations are its own.
type EntryEvents = { entryChanged: { type: string; entry: { name: string } } };
const OnEntry = parse(`
  subscription OutageEntries($scope: ID!) { entryChanged(scope: $scope) { type entry { name } } }
`) as TypedDocumentNode<EntryEvents, { scope: string }>;
const ToolQuery = parse(`query OutageTool($id: ID!) { node(id: $id) { id ... on Tool { name } } }`) as TypedDocumentNode<
  { node: { id: string; name: string } | null },
  { id: string }
>;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// ---------------------------------------------------------------------------------------------
// Redis, instances, subscriptions

/** A redis-server of this test's, killed after it. */
const redisServer = () => startableRedis((kill) => cleanups.push(kill));

interface Instance {
  app: App;
  bus: EventBus;
  port: number;
  /** The harness operations, through this instance. */
  via: Harness;
}

/** An app on the test's database with its own bus over `redisUrl`, listening on a port. */
async function instance(redisUrl: string): Promise<Instance> {
  const started = await redisInstance(h.url, redisUrl, (c) => cleanups.push(c));
  return { ...started, via: through(`http://127.0.0.1:${started.port}`) };
}

/** Harness operations sent over HTTP to `base` (an in-process app's port or a server process). */
function through(base: string): Harness {
  const gql = async (doc: TypedDocumentNode<unknown, unknown>, variables?: unknown) => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: print(doc), variables }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as ExecutionResult<unknown>;
  };
  const ok = async (doc: TypedDocumentNode<unknown, unknown>, variables?: unknown) => {
    const result = await gql(doc, variables);
    if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
    return result.data;
  };
  return { ...h, gql, ok } as Harness;
}

async function health(base: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const eventsState = async (base: string) => (await health(base)).body.events;

/** A graphql-ws subscription that also records how it ended. */
function subscribe(port: number, scope: string) {
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const collector = new Collector<EntryEvents>();
  let completed = false;
  client.subscribe<EntryEvents>(
    { query: print(OnEntry), variables: { scope } },
    {
      next: (r) => collector.push(r as ExecutionResult<EntryEvents>),
      error: (e) => collector.fail(e),
      complete: () => {
        completed = true;
        collector.push({}); // wakes waiters; carries no data
      },
    },
  );
  cleanups.push(() => client.dispose());
  return { collector, isCompleted: () => completed };
}

const names = (c: Collector<EntryEvents>) =>
  c.results.flatMap((r) => (r.data?.entryChanged ? [r.data.entryChanged.entry.name] : [])).filter((n) => !n.startsWith('probe'));
const codes = (c: Collector<EntryEvents>) => c.results.flatMap((r) => r.errors?.map((e) => e.extensions?.code) ?? []);

/** Subscribes on `port` and waits until it receives probe writes made through `writer`. */
async function listeningSubscription(port: number, scope: string, writer: Harness) {
  const sub = subscribe(port, scope);
  let probes = 0;
  await untilListening(sub.collector, () => addTool(writer, scope, `probe-${probes++}-${Math.random()}`));
  return sub;
}

// ---------------------------------------------------------------------------------------------

describe('Redis outage under two instances', () => {
  it('writes commit, subscriptions stay open and miss nothing, new ones are accepted, health says events down with 200, and wake-ups flow again once Redis is back', async () => {
    const redis = await redisServer();
    await redis.start();
    const [a, b] = [await instance(redis.url), await instance(redis.url)];
    const [baseA, baseB] = [`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`];
    expect(await health(baseA)).toEqual({ status: 200, body: { status: 'ok', database: 'up', events: 'up', provider: h.database.provider } });
    const project = await createProject(h, 'outage');
    const before = await listeningSubscription(b.port, project, a.via);

    await redis.kill();
    const tool = await addTool(a.via, project, 'during-outage');
    expect((await b.via.ok(ToolQuery, { id: tool })).node).toEqual({ id: tool, name: 'during-outage' });
    // B's subscriber gets A's write through B's poll of the change feed.
    await before.collector.until(() => names(before.collector).includes('during-outage'), 10_000);
    for (const base of [baseA, baseB]) {
      await eventually(`${base} reports events down`, async () => (await eventsState(base)) === 'down');
      expect(await health(base)).toEqual({ status: 200, body: { status: 'degraded', database: 'up', events: 'down', provider: h.database.provider } });
    }
    const during = await listeningSubscription(b.port, project, a.via);

    await redis.start();
    for (const base of [baseA, baseB]) await eventually(`${base} reports events up`, async () => (await eventsState(base)) === 'up');
    await addTool(a.via, project, 'after-outage');
    for (const sub of [before, during]) await sub.collector.until(() => names(sub.collector).includes('after-outage'), 10_000);
    expect(names(before.collector)).toEqual(['during-outage', 'after-outage']);
    expect(names(during.collector)).toEqual(['after-outage']);
    expect([...codes(before.collector), ...codes(during.collector)]).toEqual([]);
    expect(before.isCompleted()).toBe(false);
  });
});

describe('Redis outage, server process', () => {
  it('starts without Redis, and keeps serving writes and subscriptions through an outage with health 200', async () => {
    const redis = await redisServer();
    const server = await startServer({ DATABASE_URL: h.url, REDIS_URL: redis.url });
    expect(server.output()).toMatch(/starting without Redis/);
    expect(await health(server.base)).toEqual({ status: 200, body: { status: 'degraded', database: 'up', events: 'down', provider: h.database.provider } });

    await redis.start();
    await eventually('the server reports events up', async () => (await eventsState(server.base)) === 'up');
    const other = await instance(redis.url);
    const project = await createProject(server.via, 'process');
    const sub = await listeningSubscription(server.port, project, other.via);

    await redis.kill();
    await addTool(other.via, project, 'written-during-outage');
    await sub.collector.until(() => names(sub.collector).includes('written-during-outage'), 10_000);
    await eventually('the server reports events down', async () => (await eventsState(server.base)) === 'down');
    expect((await health(server.base)).status).toBe(200);

    await redis.start();
    await eventually('the server reports events up', async () => (await eventsState(server.base)) === 'up');
    await eventually('the other instance reports events up', async () => other.bus.state() === 'up');
    await addTool(other.via, project, 'after-restart');
    await sub.collector.until(() => names(sub.collector).includes('after-restart'), 10_000);
    expect(codes(sub.collector)).toEqual([]);
    // The old bus died of an unhandled rejection a few reconnection attempts after the outage.
    expect(server.child.exitCode).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers: the server process


async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', GRAPHIQL: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  });
  await eventually('the server listens', async () => {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    return /Engram listening on .*\n/.test(output);
  });
  const port = Number(/http:\/\/[^/:]+:(\d+)\/graphql/.exec(output)?.[1]);
  const base = `http://127.0.0.1:${port}`;
  return { child, port, base, via: through(base), output: () => output };
}
