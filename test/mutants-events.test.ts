// Rules of the event bus (events.ts, event-transport.ts) that mutation testing (npm run mutate)
// found unchecked: the routing keys of each topic (a session's own events, a scope's own entries
// or those below it), the bus state /health reports, and over Redis: each instance listens to the
// wake-up channel once, and again after its connection was lost; an outage ends no subscription
// and refuses none; what is logged. Each Redis test starts its own redis-server on a spare port.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, type ExecutionResult } from 'graphql';
import { Redis } from 'ioredis';
import pg from 'pg';
import Sqlite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../src/app.ts';
import { createEventBus } from '../src/infra/events.ts';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { eventually, freePort, redisServer as startableRedis } from './support/redis-server.ts';
import { sseSubscribe, untilListening, type Collector } from './support/subscriptions.ts';
import { tcpProxy } from './support/tcp-proxy.ts';
import { redisInstance } from './support/instance.ts';
import { log } from '../src/infra/log.ts';

const h = useHarness();

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Changed = { entryChanged: { type: string; entry: { name: string } } };
const WATCH = parse(`subscription($s: ID!, $d: Boolean) { entryChanged(scope: $s, includeDescendants: $d) { type entry { name } } }`) as TypedDocumentNode<
  Changed,
  { s: string; d?: boolean }
>;
type SessionEvents = { sessionEvent: { sequence: number; type: string; session: { id: string } } };
const SESSION_EVENTS = parse(`subscription($s: ID, $p: ID) { sessionEvent(session: $s, project: $p) { sequence type session { id } } }`) as TypedDocumentNode<
  SessionEvents,
  { s?: string; p?: string }
>;

/** GraphQL through `app` (default: the harness's), failing on errors. */
async function via(app: App, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data!;
}
async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
async function session(p: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
}
let added = 0;
async function addIn(scope: string, title = `k${++added}`, app: App = h.app): Promise<string> {
  const d = await via(app, `mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, {
    s: scope,
    t: title,
  });
  return d.addKnowledge.knowledge.id as string;
}
const namesIn = (results: ExecutionResult<Changed>[]) => results.flatMap((r) => (r.data ? [r.data.entryChanged.entry.name] : [])).filter((n) => !n.startsWith('k'));
const codesIn = (results: ExecutionResult<unknown>[]) => results.flatMap((r) => r.errors?.map((e) => e.extensions?.code) ?? []);

/** An SSE subscription to `scope`'s entries through `app`, closed after the test. */
async function watch(app: App, s: string, d = false, port?: number) {
  const sub = await sseSubscribe(app, WATCH, { s, d }, { port });
  cleanups.push(() => sub.close());
  return sub;
}
/** Waits until `sub` receives writes made in `scope` (through `app`). */
async function listening(sub: { collector: Collector<Changed> }, scope: string, app: App = h.app) {
  await untilListening(sub.collector, () => addIn(scope, `k${++added}`, app));
}

describe('routing in one process', () => {
  it("sessionEvent of a session delivers that session's events only, not its siblings'", async () => {
    const p = await project('ev-sessions');
    const mine = await session(p);
    const sibling = await session(p);
    const sub = await sseSubscribe(h.app, SESSION_EVENTS, { s: mine });
    cleanups.push(() => sub.close());
    let appended = 0; // events appended to `mine` after its start (sequence 1)
    const append = (s: string) => {
      if (s === mine) appended++;
      return ok(h, null, `mutation($s: ID!) { appendSessionEvent(input: { session: $s, type: TOOL_CALL, actor: "agent:ev", content: { n: 1 } }) { __typename } }`, { s });
    };
    await untilListening(sub.collector, () => append(mine));
    await append(sibling);
    await append(mine);
    await sub.collector.until((r) => r.some((e) => e.data?.sessionEvent.sequence === 1 + appended));
    const sessions = sub.collector.results.map((r) => r.data?.sessionEvent.session.id);
    expect(new Set(sessions)).toEqual(new Set([mine]));
    const sequences = sub.collector.results.map((r) => r.data?.sessionEvent.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a! - b!));
  });

  it("entryChanged delivers a scope's own entries, and with includeDescendants those of the scopes below", async () => {
    const p = await project('ev-tree');
    const s = await session(p);
    const own = await watch(h.app, p);
    const tree = await watch(h.app, p, true);
    await listening(own, p);
    await listening(tree, p);
    await addIn(s, 'in-session');
    await addIn(p, 'in-project');
    await own.collector.until((r) => namesIn(r).includes('in-project'));
    await tree.collector.until((r) => namesIn(r).includes('in-project'));
    expect(namesIn(own.collector.results)).toEqual(['in-project']);
    expect(namesIn(tree.collector.results)).toEqual(['in-session', 'in-project']);
  });

  it('/health reports in-process events', async () => {
    const response = await h.app.yoga.fetch('http://engram.test/health');
    expect(await response.json()).toEqual({ status: 'ok', database: 'up', events: 'in-process', provider: h.database.provider });
  });
});

// ---------------------------------------------------------------------------------------------
// Over Redis

const redisServer = () => startableRedis((kill) => cleanups.push(kill));

/** An app on the test's database with its own bus over `redisUrl`. */
const instance = (redisUrl: string) => redisInstance(h.url, redisUrl, (c) => cleanups.push(c));

/** A client of `url` for the test to look at Redis with. */
function client(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 0 });
  cleanups.push(() => redis.disconnect());
  return redis;
}


/** The messages logged as warnings from now on (kept out of the test output). */
function warnLines(): () => string[] {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
  cleanups.push(() => warn.mockRestore());
  return () => warn.mock.calls.map((args) => args.filter((a) => typeof a === 'string').join(' '));
}

describe('over Redis', () => {
  it('ready rejects after its timeout while Redis does not answer', async () => {
    const bus = createEventBus({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    cleanups.push(() => bus.close());
    await expect(bus.ready(300)).rejects.toThrow('Redis was not ready after 300 ms');
    expect(bus.state()).toBe('down');
  });

  it('each instance listens to the wake-up channel once, whatever its subscribers, and events cross instances', async () => {
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const b = await instance(redis.url);
    const look = client(redis.url);
    const subscribers = async () => Number(((await look.pubsub('NUMSUB', 'engram:changes')) as [string, number])[1]);
    await eventually('both instances listen', async () => (await subscribers()) === 2);
    const p = await project('ev-channels');
    const first = await watch(a.app, p, false, a.port);
    await listening(first, p, b.app);
    const second = await watch(a.app, p, false, a.port);
    await listening(second, p, b.app);
    expect(await subscribers()).toBe(2);
    first.close();
    await addIn(p, 'after-first-left', b.app);
    await second.collector.until((r) => namesIn(r).includes('after-first-left'));
    expect(await subscribers()).toBe(2);
    expect(a.bus.state()).toBe('up');
  });

  it('an outage ends no subscription and refuses none; events go on through polling, and the wake-up channel is listened to again', async () => {
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const b = await instance(redis.url);
    const look = client(redis.url);
    const p = await project('ev-outage');
    const before = await watch(a.app, p);
    await listening(before, p, b.app);
    await redis.kill();
    await eventually('the bus is down', async () => a.bus.state() === 'down');
    const health = await a.app.yoga.fetch('http://engram.test/health');
    expect(await health.json()).toEqual({ status: 'degraded', database: 'up', events: 'down', provider: h.database.provider });
    const during = await watch(a.app, p);
    await listening(during, p, b.app);
    await addIn(p, 'during-outage', b.app);
    await before.collector.until((r) => namesIn(r).includes('during-outage'));
    await redis.start();
    await a.bus.ready(10_000);
    await eventually('both instances listen again', async () => Number(((await look.pubsub('NUMSUB', 'engram:changes')) as [string, number])[1]) === 2);
    await addIn(p, 'after-outage', b.app);
    for (const sub of [before, during]) await sub.collector.until((r) => namesIn(r).includes('after-outage'));
    expect(codesIn([...before.collector.results, ...during.collector.results])).toEqual([]);
  });

  // What operators read in the server's log during an outage: one line per connection when it is
  // lost (its first error too), one when it is back, not one per reconnection attempt; one line per
  // loss of published events; nothing once the bus is closed.
  it('logs one line per connection when Redis is lost and one when it is back, none per reconnection attempt', async () => {
    const warnings = warnLines();
    const redis = await redisServer();
    const bus = createEventBus({ redisUrl: redis.url });
    cleanups.push(() => bus.close());
    // Nothing listens on the port yet: several reconnection attempts (ioredis retries every 50 ms, then more).
    await eventually('both connections have failed', async () => warnings().filter((l) => l.includes('connection lost')).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const refused = warnings();
    expect(refused.filter((l) => !/ECONNREFUSED/.test(l)).sort()).toEqual([
      'Redis publisher: connection lost, retrying (writes and subscriptions go on; instances poll the change feed until Redis is back)',
      'Redis subscriber: connection lost, retrying (writes and subscriptions go on; instances poll the change feed until Redis is back)',
    ]);
    // The first error of each connection, once.
    expect(refused.filter((l) => /ECONNREFUSED/.test(l)).map((l) => l.split(':')[0]).sort()).toEqual(['Redis publisher', 'Redis subscriber']);
    await redis.start();
    await bus.ready(10_000);
    expect(warnings().slice(refused.length).sort()).toEqual(['Redis publisher: connected again', 'Redis subscriber: connected again']);
    // A second outage is reported like the first.
    const back = warnings().length;
    await redis.kill();
    await eventually('both connections are lost again', async () => warnings().slice(back).filter((l) => l.includes('connection lost')).length === 2);
  });

  it('logs a failed publish once per loss, and nothing when the bus is closed; closing leaves no connection open', async () => {
    const warnings = warnLines();
    const redis = await redisServer();
    await redis.start();
    const proxy = await tcpProxy(Number(new URL(redis.url).port), (c) => cleanups.push(c));
    const look = client(redis.url);
    const connections = async () => String(await look.client('LIST')).trim().split('\n').length - 1; // without `look`
    const { app, bus } = await instance(proxy.url);
    expect(await connections()).toBe(2);
    expect(warnings()).toEqual([]);
    proxy.cut();
    await eventually('the bus is down', async () => bus.state() === 'down');
    const before = warnings().length;
    const p = await project('ev-publish-failed');
    await addIn(p, 'lost-1', app);
    await addIn(p, 'lost-2', app);
    const failed = warnings()
      .slice(before)
      .filter((l) => l.startsWith('Redis: '));
    // The first failure of this loss only.
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/^Redis: a wake-up could not be published \(.+\); instances poll the change feed meanwhile$/);
    proxy.restore();
    await bus.ready(10_000);
    const open = warnings().length;
    await bus.close();
    await eventually('the connections are closed', async () => (await connections()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warnings().slice(open)).toEqual([]);
  });

});

// ---------------------------------------------------------------------------------------------
// Write transactions

/**
 * Holds the database's write lock from another connection for `ms` (past SQLite's 5 s busy
 * timeout: the app's write then fails with SQLITE_BUSY and is retried); resolves once it is held.
 */
async function holdWriteLock(ms: number): Promise<{ released: Promise<void> }> {
  if (DB_KIND === 'sqlite') {
    const db = new Sqlite(h.url.replace(/^file:/, ''));
    db.exec('BEGIN IMMEDIATE');
    const released = new Promise<void>((done) =>
      setTimeout(() => {
        db.exec('COMMIT');
        db.close();
        done();
      }, ms),
    );
    return { released };
  }
  const client = new pg.Client({ connectionString: h.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE "Entry" IN SHARE ROW EXCLUSIVE MODE');
  const released = new Promise<void>((done) =>
    setTimeout(() => {
      void client
        .query('COMMIT')
        .then(() => client.end())
        .then(done);
    }, ms),
  );
  return { released };
}

describe('write transactions', () => {
  it('a write that waits past the lock timeout is retried and commits once, after the lock is released', async () => {
    const p = await project('tx-lock');
    const { released } = await holdWriteLock(6_000);
    const started = Date.now();
    await addIn(p, 'after-the-lock');
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    await released;
    const names = (await ok(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }) { edges { node { name } } } }`, { s: p })).memoryQuery.edges.map(
      (e: { node: { name: string } }) => e.node.name,
    );
    expect(names).toEqual(['after-the-lock']);
  });
});
