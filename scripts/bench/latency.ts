// Write-to-subscriber latency: a graphql-ws client subscribes to conflictDetected on a project;
// each iteration sends one conflicting update over HTTP and stops the clock when the event arrives.
// On one instance, and on two instances sharing the database and Redis (subscriber on A, writes
// through B).
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { createApp, type App } from '../../src/app.ts';
import { openDatabase, type Database } from '../../src/infra/database.ts';
import { createEventBus, type EventBus } from '../../src/infra/events.ts';
import { freshDatabase, iterations, post, reachable, redisUrl, summarize, type Kind } from './common.ts';

export async function latencySuite(kind: Kind) {
  console.log(`\nlatency (${kind}): write over HTTP -> conflictDetected over graphql-ws`);
  const db = await freshDatabase(kind);
  try {
    const one = await instance(db.url, false);
    try {
      const r = await conflictLatency(one, one);
      summarize('latency', kind, 'one instance: mutation response', r.mutation);
      summarize('latency', kind, 'one instance: write-to-subscriber', r.delivery);
    } finally {
      await close(one);
    }
    const redisOk = await reachable(async () => {
      const c = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await c.connect();
        await c.ping();
      } finally {
        c.disconnect();
      }
    });
    if (!redisOk) {
      console.log(`  two instances: skipped (Redis unreachable at ${redisUrl})`);
      return;
    }
    const a = await instance(db.url, true);
    const b = await instance(db.url, true);
    try {
      const r = await conflictLatency(a, b);
      summarize('latency', kind, 'two instances over Redis: mutation response', r.mutation);
      summarize('latency', kind, 'two instances over Redis: write-to-subscriber', r.delivery);
    } finally {
      await close(a);
      await close(b);
    }
  } finally {
    await db.drop();
  }
}

interface Instance {
  app: App;
  database: Database;
  bus: EventBus;
  port: number;
}

async function instance(url: string, redis: boolean): Promise<Instance> {
  const database = await openDatabase(url);
  const bus = createEventBus({ redisUrl: redis ? redisUrl : null });
  await bus.ready();
  const app = createApp({ database, bus, graphiql: false });
  const port = await app.start(0, '127.0.0.1');
  return { app, database, bus, port };
}

async function close(i: Instance) {
  await i.app.stop(1_000);
  await i.bus.close();
  await i.database.close();
}

/** Conflict latency: subscriber on `sub`, writes through `writer`. */
async function conflictLatency(sub: Instance, writer: Instance): Promise<{ delivery: number[]; mutation: number[] }> {
  const project = (await post(writer.port, 'mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', {
    n: `bench-${Date.now()}-${Math.random()}`,
  })) as { createProject: { project: { id: string } } };
  const scope = project.createProject.project.id;
  const tool = (await post(writer.port, 'mutation($s: ID!) { addTool(input: { scope: $s, name: "hot", description: "v1" }) { ... on AddToolSuccess { tool { id } } } }', {
    s: scope,
  })) as { addTool: { tool: { id: string } } };
  const id = tool.addTool.tool.id;
  const update = 'mutation($id: ID!, $d: String!) { updateTool(input: { id: $id, description: $d, expectedVersion: 1 }) { __typename } }';

  const client = createClient({ url: `ws://127.0.0.1:${sub.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  let onEvent: (() => void) | null = null;
  const unsubscribe = client.subscribe(
    { query: 'subscription($s: ID!) { conflictDetected(scope: $s) { conflict { id versionB { version } } } }', variables: { s: scope } },
    {
      next: () => onEvent?.(),
      error: (e) => console.error('subscription error', e),
      complete: () => undefined,
    },
  );
  const nextEvent = (timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event')), timeoutMs);
      onEvent = () => {
        clearTimeout(timer);
        onEvent = null;
        resolve();
      };
    });
  // Warm up until the subscription delivers (it registers asynchronously).
  await post(writer.port, update, { id, d: 'warm-0' });
  for (let i = 1; ; i++) {
    const waiting = nextEvent(200);
    await post(writer.port, update, { id, d: `warm-${i}` });
    try {
      await waiting;
      break;
    } catch {
      if (i > 50) throw new Error('subscription never delivered');
    }
  }
  for (let i = 0; i < 20; i++) {
    const waiting = nextEvent(5_000);
    await post(writer.port, update, { id, d: `warm+${i}` });
    await waiting;
  }
  const delivery: number[] = [];
  const mutation: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const waiting = nextEvent(5_000);
    const t0 = performance.now();
    await post(writer.port, update, { id, d: `run-${i}` });
    mutation.push(performance.now() - t0);
    await waiting;
    delivery.push(performance.now() - t0);
  }
  unsubscribe();
  await client.dispose();
  return { delivery, mutation };
}
