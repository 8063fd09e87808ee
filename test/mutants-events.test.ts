// Rules of the event bus (events.ts, event-transport.ts) that mutation testing (npm run mutate)
// found unchecked: the routing keys of each topic (a session's own events, a scope's own entries
// or those below it), the bus state /health reports, and over Redis: a channel is subscribed once
// and unsubscribed when its last listener leaves, an outage ends subscriptions with
// EVENTS_INTERRUPTED and refuses new ones with EVENTS_UNAVAILABLE, a lost publish is announced to
// the other instances once Redis answers again, and an announcement of another instance ends this
// one's subscriptions. Each Redis test starts its own redis-server on a spare port.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse, print, type ExecutionResult } from 'graphql';
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
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
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

  const importIn = (scope: string, prefix: string, n: number) =>
    ok(h, null, `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, {
      e: Array.from({ length: n }, (_, i) => ({ scope, kind: 'KNOWLEDGE', name: `${prefix}${i}`, content: 'c' })),
    });

  it('a subscriber that stops reading is ended with EVENTS_INTERRUPTED once 1,000 events wait; one that reads is not', async () => {
    const p = await project('ev-slow');
    const reader = await watch(h.app, p);
    await listening(reader, p);
    // Read only until it listens, then not until the writes are done: its events pile up.
    const response = await h.app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: print(WATCH), variables: { s: p } }),
    });
    const stream = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    cleanups.push(() => stream.cancel());
    let text = '';
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const chunk = await stream.read();
        if (chunk.done) return;
        text += chunk.value;
      }
    };
    const probe = await addIn(p);
    await readUntil(() => text.includes('"entryChanged"'));
    expect(probe).toBeTruthy();
    await importIn(p, 'a', 600);
    await reader.collector.until((r) => namesIn(r).length >= 600, 20_000);
    await importIn(p, 'b', 1_000);
    await reader.collector.until((r) => namesIn(r).length >= 1_600, 20_000);
    expect(codesIn(reader.collector.results)).toEqual([]);
    expect(reader.completed()).toBe(false);
    // The stalled one: at most 1,000 waiting events (and what the stream buffered meanwhile: under
    // 300 here), then the end.
    await readUntil(() => text.includes('event: complete'));
    const delivered = (text.match(/"entryChanged"/g) ?? []).length - 1;
    expect(delivered).toBeGreaterThanOrEqual(1_000);
    expect(delivered).toBeLessThan(1_300);
    expect(text.match(/"code":"[A-Z_]+"/g)).toEqual(['"code":"EVENTS_INTERRUPTED"']);
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

/** Resolves once the subscription has ended: one EVENTS_INTERRUPTED, then the end of the stream. */
async function interrupted(sub: Awaited<ReturnType<typeof watch>>) {
  await eventually('the stream completes', async () => sub.completed(), 10_000);
  expect(codesIn(sub.collector.results)).toEqual(['EVENTS_INTERRUPTED']);
  expect(sub.collector.results.at(-1)?.errors?.[0]?.message).toBe(
    'Event delivery was interrupted and events may have been missed: refetch what you follow, then subscribe again.',
  );
}

describe('over Redis', () => {
  it('ready rejects after its timeout while Redis does not answer', async () => {
    const bus = createEventBus({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    cleanups.push(() => bus.close());
    await expect(bus.ready(300)).rejects.toThrow('Redis was not ready after 300 ms');
    expect(bus.state()).toBe('down');
  });

  it('subscribes a channel once for its listeners and unsubscribes it when the last one leaves', async () => {
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const look = client(redis.url);
    const p = await project('ev-channels');
    const channel = `entryChanged:direct:${dbId(p)}`;
    const subscribers = async () => Number(((await look.pubsub('NUMSUB', channel)) as [string, number])[1]);
    expect(await subscribers()).toBe(0);
    const first = await watch(a.app, p, false, a.port);
    await listening(first, p, a.app);
    const second = await watch(a.app, p, false, a.port);
    await listening(second, p, a.app);
    expect(await subscribers()).toBe(1);
    first.close();
    // The other listener keeps the channel, and still receives.
    await addIn(p, 'after-first-left', a.app);
    await second.collector.until((r) => namesIn(r).includes('after-first-left'));
    expect(await subscribers()).toBe(1);
    second.close();
    await eventually('the channel is unsubscribed', async () => (await subscribers()) === 0);
    expect(a.bus.state()).toBe('up');
  });

  it('an outage ends subscriptions and refuses new ones until Redis is back; events then flow again', async () => {
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const p = await project('ev-outage');
    const before = await watch(a.app, p);
    await listening(before, p, a.app);
    await redis.kill();
    await interrupted(before);
    await eventually('the bus is down', async () => a.bus.state() === 'down');
    const health = await a.app.yoga.fetch('http://engram.test/health');
    expect(await health.json()).toEqual({ status: 'degraded', database: 'up', events: 'down', provider: h.database.provider });
    const refused = await watch(a.app, p);
    await refused.collector.until((r) => r.length > 0);
    expect(codesIn(refused.collector.results)).toEqual(['EVENTS_UNAVAILABLE']);
    expect(refused.collector.results[0]?.errors?.[0]?.message).toBe(
      'Events are unavailable right now (the event broker is down); writes still work. Retry the subscription later.',
    );
    // Writes go on meanwhile.
    await addIn(p, 'during-outage', a.app);
    await redis.start();
    await a.bus.ready(10_000);
    expect(a.bus.state()).toBe('up');
    const after = await watch(a.app, p);
    await listening(after, p, a.app);
    await addIn(p, 'after-outage', a.app);
    await after.collector.until((r) => namesIn(r).includes('after-outage'));
    expect(namesIn(after.collector.results)).toEqual(['after-outage']);
    expect(codesIn(after.collector.results)).toEqual([]);
  });

  it("an instance that could not publish announces it once Redis answers; the other instance's subscribers are ended", async () => {
    const redis = await redisServer();
    await redis.start();
    const proxy = await tcpProxy(Number(new URL(redis.url).port), (c) => cleanups.push(c));
    const a = await instance(proxy.url);
    const b = await instance(redis.url);
    const look = client(redis.url);
    const announcements: string[] = [];
    look.on('message', (channel: string, message: string) => announcements.push(`${channel} ${message}`));
    await look.subscribe('engram:events-lost');
    const p = await project('ev-partition');
    const onB = await watch(b.app, p);
    await listening(onB, p, a.app);
    const onA = await watch(a.app, p);
    await listening(onA, p, a.app);

    proxy.cut();
    await addIn(p, 'lost-on-a', a.app);
    await interrupted(onA);
    await eventually('A is down', async () => a.bus.state() === 'down');
    expect(b.bus.state()).toBe('up');
    expect(announcements).toEqual([]);
    proxy.restore();
    await interrupted(onB);
    await eventually('A is up', async () => a.bus.state() === 'up');
    expect(announcements).toHaveLength(1);
    const [channel, message] = announcements[0]!.split(' ');
    expect(channel).toBe('engram:events-lost');
    expect(Object.keys(JSON.parse(message!) as object)).toEqual(['instance']);
    expect(namesIn(onB.collector.results)).toEqual([]);
  });

  it('an announcement Redis refuses on a ready connection is retried until it goes through', async () => {
    const warnings = warnLines();
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const look = client(redis.url);
    const listener = client(redis.url);
    const announcements: string[] = [];
    listener.on('message', (_channel: string, message: string) => announcements.push(message));
    await listener.subscribe('engram:events-lost');
    const p = await project('ev-announce-retry');
    // Redis stays up but refuses every PUBLISH (NOPERM): the event is lost, and so is its announcement.
    await look.call('ACL', 'SETUSER', 'default', '-publish');
    await addIn(p, 'refused', a.app);
    await eventually('A is down', async () => a.bus.state() === 'down');
    // Commands Redis refused so far (ACL LOG counts them per kind); the event's two channels make 2.
    const refusals = async () => ((await look.call('ACL', 'LOG')) as unknown[][]).reduce((n, entry) => n + Number(entry[entry.indexOf('count') + 1]), 0);
    await eventually('both channels of the event were refused', async () => (await refusals()) >= 2);
    // The next write announces the loss first, on the same connection: the third refusal.
    await addIn(p, 'announcement-refused', a.app);
    await eventually('the announcement was refused', async () => (await refusals()) >= 3);
    expect(warnings().filter((l) => l.startsWith('Redis: an event could not be published'))).toHaveLength(1);
    await look.call('ACL', 'SETUSER', 'default', '+publish');
    // Nothing publishes or reconnects from here: only the retry can announce the loss.
    await a.bus.ready(10_000);
    await eventually('the loss is announced', async () => announcements.length > 0);
    expect(announcements).toHaveLength(1);
    expect(Object.keys(JSON.parse(announcements[0]!) as object)).toEqual(['instance']);
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
      'Redis publisher: connection lost, retrying (writes go on; subscriptions are ended, new ones refused until Redis is back)',
      'Redis subscriber: connection lost, retrying (writes go on; subscriptions are ended, new ones refused until Redis is back)',
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

  it('the bus is up only while its subscriber listens to the loss channel', async () => {
    const warnings = warnLines();
    const redis = await redisServer();
    await redis.start();
    const look = client(redis.url);
    // Channels Redis refused to the bus so far (ACL LOG counts them).
    const refusedChannels = async () =>
      ((await look.call('ACL', 'LOG')) as unknown[][])
        .filter((entry) => entry[entry.indexOf('reason') + 1] === 'channel')
        .reduce((n, entry) => n + Number(entry[entry.indexOf('count') + 1]), 0);
    // The subscriber may not listen to any channel: the publisher alone does not make the bus up.
    await look.call('ACL', 'SETUSER', 'default', 'resetchannels');
    const bus = createEventBus({ redisUrl: redis.url });
    cleanups.push(() => bus.close());
    await eventually('the subscription of the loss channel was refused', async () => (await refusedChannels()) >= 1);
    expect(bus.state()).toBe('down');
    await look.call('ACL', 'SETUSER', 'default', 'allchannels');
    await look.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'); // the bus reconnects, and subscribes now
    await bus.ready(10_000);
    // Taking the channel away again drops the subscriber's connection (Redis 7); its new one is refused.
    const before = await refusedChannels();
    await look.call('ACL', 'SETUSER', 'default', 'resetchannels');
    await eventually('the new subscription was refused', async () => (await refusedChannels()) > before);
    expect(bus.state()).toBe('down');
    expect(warnings().some((l) => l.startsWith('Redis subscriber: connection lost'))).toBe(true);
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
    // The first failure of this loss only (each addIn publishes on two channels).
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/^Redis: an event could not be published \(.+\); subscriptions are ended$/);
    proxy.restore();
    await bus.ready(10_000);
    const open = warnings().length;
    await bus.close();
    await eventually('the connections are closed', async () => (await connections()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warnings().slice(open)).toEqual([]);
  });

  it("an announcement of another instance ends this instance's subscriptions; other messages on that channel too", async () => {
    const redis = await redisServer();
    await redis.start();
    const a = await instance(redis.url);
    const look = client(redis.url);
    const p = await project('ev-announced');
    for (const message of [JSON.stringify({ instance: 'another' }), 'not json']) {
      const sub = await watch(a.app, p);
      await listening(sub, p, a.app);
      await look.publish('engram:events-lost', message);
      await interrupted(sub);
      expect(a.bus.state()).toBe('up');
    }
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
