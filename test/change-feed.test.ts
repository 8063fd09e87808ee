// The durable change feed (issue 16): every event a subscription delivers is recorded in the
// write's transaction with a gapless sequence; subscriptions resume after a cursor with no gap and
// no duplicate at the seam, across instances and through a Redis outage; a cursor the feed no
// longer holds ends the subscription with CURSOR_EXPIRED.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { FEED_POLL_SQL, pruneChanges } from '../src/infra/change-feed.ts';
import { openDatabase } from '../src/infra/database.ts';
import { ok } from './support/access.ts';
import { DB_KIND, isBackground, useHarness } from './support/harness.ts';
import { redisInstance } from './support/instance.ts';
import { eventually, redisServer } from './support/redis-server.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Changed = { entryChanged: { type: string; cursor: string; entry: { name: string } | null } };
const WATCH = parse(`subscription ($s: ID!, $after: String) { entryChanged(scope: $s, after: $after) { type cursor entry { name } } }`) as TypedDocumentNode<
  Changed,
  { s: string; after?: string | null }
>;

async function project(name: string): Promise<string> {
  return (await ok(h, null, 'mutation ($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', { n: name })).createProject.project.id;
}

/** Adds a knowledge entry named `name` through `app`. */
async function add(app: App, scope: string, name: string): Promise<void> {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation ($s: ID!, $n: String!) { addKnowledge(input: { scope: $s, title: $n, content: "c" }) { __typename } }', variables: { s: scope, n: name } }),
  });
  const body = (await response.json()) as { data?: { addKnowledge: { __typename: string } } };
  expect(body.data?.addKnowledge.__typename).toBe('AddKnowledgeSuccess');
}

/** Runs `count` adds named `${prefix}${i}`, `parallel` at a time, alternating between `apps`. */
async function addMany(apps: App[], scope: string, prefix: string, count: number, parallel = 10): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (let i = 0; i < count; i += parallel) {
    await Promise.all(names.slice(i, i + parallel).map((name, j) => add(apps[(i + j) % apps.length]!, scope, name)));
  }
  return names;
}

type Watch = Awaited<ReturnType<typeof sseSubscribe<Changed, { s: string; after?: string | null }>>>;
const watch = async (app: App, scope: string, after?: string, port?: number): Promise<Watch> => {
  const sub = await sseSubscribe(app, WATCH, { s: scope, after: after ?? null }, port ? { port } : {});
  cleanups.push(() => sub.close());
  return sub;
};
const events = (sub: Watch) => sub.collector.results.filter((r) => r.data).map((r) => r.data!.entryChanged);
const namesOf = (sub: Watch, prefix: string) => events(sub).map((e) => e.entry?.name ?? '').filter((n) => n.startsWith(prefix));
const codes = (sub: Watch) => sub.collector.results.flatMap((r) => (r.errors ?? []).map((e) => (e.extensions as { code?: string } | undefined)?.code));

/**
 * `names` in the order the subscriber received them (concurrent writes commit in any order); the
 * exact set is what the assertion checks, and expectOrdered that they came in commit order.
 */
function sorted(names: string[], sub: Watch): string[] {
  const at = new Map(events(sub).map((e, i) => [e.entry?.name ?? '', i]));
  return [...names].sort((a, b) => (at.get(a) ?? -1) - (at.get(b) ?? -1));
}

/** Cursors only grow, each event once. */
function expectOrdered(sub: Watch) {
  const cursors = events(sub).map((e) => Number(e.cursor));
  expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  expect(new Set(cursors).size).toBe(cursors.length);
}

/**
 * An SSE subscriber to a scope's entryChanged that reads only when told (its stream fills, then
 * the server stops taking its events), once it has seen a probe event. It asks for each entry's
 * content: with the entries' content PADDING long, the streams between the server and it hold
 * ~60 events, not the ~700 of bare names that Node 22's 64 KiB stream buffers held (16 KiB on Node
 * 20), so 1,600 events overflow its buffer of 1,000 on every Node.
 */
const PADDING = 'c'.repeat(1_000);

async function stalledReader(scope: string): Promise<{ readUntil(done: (text: string) => boolean): Promise<void>; text(): string }> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      query: 'subscription ($s: ID!) { entryChanged(scope: $s) { cursor entry { name ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } } } }',
      variables: { s: scope },
    }),
  });
  const stream = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  cleanups.push(() => stream.cancel());
  let text = '';
  const readUntil = async (done: (text: string) => boolean) => {
    while (!done(text)) {
      const chunk = await stream.read();
      if (chunk.done) return;
      text += chunk.value;
    }
  };
  await add(h.app, scope, 'probe');
  await readUntil((t) => t.includes('"probe"'));
  return { readUntil, text: () => text };
}

describe('change feed', () => {
  it('events carry a cursor; a subscription resumed after it gets exactly what it missed, in order, then live ones', async () => {
    const p = await project('feed-resume');
    const first = await watch(h.app, p);
    await untilListening(first.collector, () => add(h.app, p, `probe-${Date.now()}`));
    await add(h.app, p, 'seen');
    await first.collector.until(() => namesOf(first, 'seen').length === 1);
    const cursor = events(first).at(-1)!.cursor;
    first.close();

    const missed = await addMany([h.app], p, 'missed-', 50);
    const resumed = await watch(h.app, p, cursor);
    await resumed.collector.until(() => namesOf(resumed, 'missed-').length >= 50);
    await add(h.app, p, 'live');
    await resumed.collector.until(() => namesOf(resumed, 'live').length === 1);
    // Everything after the cursor, nothing before it (not `seen`, no probe), once each, in commit order.
    expect(events(resumed).map((e) => e.entry?.name)).toEqual([...sorted(missed, resumed), 'live']);
    expectOrdered(resumed);
    expect(Number(events(resumed)[0]!.cursor)).toBeGreaterThan(Number(cursor));
    expect(codes(resumed)).toEqual([]);
  });

  it('an instance hands its own commits to its subscribers without reading them back from the feed', async () => {
    const p = await project('feed-own');
    const sub = await watch(h.app, p);
    await untilListening(sub.collector, () => add(h.app, p, `probe-${Date.now()}`));
    const feedReads = () => h.statements.filter((sql) => /FROM "Change"/.test(sql)).length;
    h.resetStatements();
    // Creates (one batch each) and tag changes (a transaction each), one after the other.
    const names = await addMany([h.app], p, 'own-', 10, 1);
    const tagged = await ok(h, null, `query ($s: ID!) { scope(id: $s) { ... on Project { entries(first: 5) { edges { node { id } } } } } }`, { s: p });
    for (const { node } of tagged.scope.entries.edges as Array<{ node: { id: string } }>) {
      await ok(h, null, 'mutation ($e: ID!) { attachTags(input: { entry: $e, tags: ["own"] }) { __typename } }', { e: node.id });
    }
    await sub.collector.until(() => events(sub).filter((e) => e.type === 'TAGGED').length === 5);
    expect(namesOf(sub, 'own-')).toContain(names.at(-1));
    // 15 commits; only the feed's poll (once a second) may have read it meanwhile.
    expect(feedReads()).toBeLessThanOrEqual(3);
    expectOrdered(sub);
    const cursors = events(sub).slice(-15).map((e) => Number(e.cursor));
    expect(cursors).toEqual(Array.from({ length: 15 }, (_, i) => cursors[0]! + i));
    // A commit of three changes (an import of three entries) arrives whole with no read of the
    // feed. The poll may fall in between by chance, so up to three tries: one without is enough.
    let unread = false;
    for (let attempt = 0; attempt < 3 && !unread; attempt++) {
      const batch = [0, 1, 2].map((i) => `own-batch-${attempt}-${i}`);
      h.resetStatements();
      const imported = await ok(h, null, 'mutation ($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }', {
        e: batch.map((name) => ({ scope: p, kind: 'KNOWLEDGE', name, content: 'c' })),
      });
      expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
      await sub.collector.until(() => namesOf(sub, `own-batch-${attempt}-`).length === 3);
      expect(namesOf(sub, `own-batch-${attempt}-`)).toEqual(batch);
      unread = feedReads() === 0;
    }
    expect(unread).toBe(true);
    expectOrdered(sub);
  });

  it("an idle instance's poll of the feed is told apart from a request's statements (the tests that count statements leave it out)", async () => {
    // A second app on the same database, logging every statement: its tailer starts with a
    // subscription and, once that ends, reads the head on its timer under the poll's own text.
    const polled: string[] = [];
    const database = await openDatabase(h.url, { onQuery: (sql) => polled.push(sql) });
    const app = createApp({ database, accessFlushMs: 3_600_000, changePruneFirstMs: 3_600_000 });
    cleanups.push(() => database.close(), () => app.stop(1_000));
    const p = await project('feed-poll');
    const sub = await watch(app, p);
    await untilListening(sub.collector, () => add(app, p, `probe-${Date.now()}`));
    sub.close();
    const polls = () => polled.filter((sql) => sql.trim() === FEED_POLL_SQL.sql).length;
    await eventually('the idle tailer polls', async () => polls() > 0, 5_000);
    // Idle now (it polls only while nobody subscribes): all it sends is background to the harness.
    const mark = polled.length;
    const before = polls();
    await eventually('another poll', async () => polls() > before, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(polled.slice(mark).filter((sql) => !isBackground(sql))).toEqual([]);
  });

  it('changeFeedCursor is the position to subscribe from after a read: what commits after it arrives, nothing before', async () => {
    const p = await project('feed-head');
    await add(h.app, p, 'old');
    const read = async () => (await ok(h, null, '{ changeFeedCursor }')).changeFeedCursor as string;
    const head = await read();
    await add(h.app, p, 'after-read');
    expect(Number(await read())).toBeGreaterThan(Number(head));
    // Subscribed after the write: the write still arrives, the one before the read does not.
    const sub = await watch(h.app, p, head);
    await sub.collector.until(() => namesOf(sub, 'after-read').length === 1);
    expect(events(sub).map((e) => e.entry?.name)).toEqual(['after-read']);
    expect(Number(events(sub)[0]!.cursor)).toBeGreaterThan(Number(head));
  });

  it('no gap and no duplicate at the seam while writes go on during the catch-up', async () => {
    const p = await project('feed-seam');
    const first = await watch(h.app, p);
    await untilListening(first.collector, () => add(h.app, p, `probe-${Date.now()}`));
    const cursor = events(first).at(-1)!.cursor;
    first.close();
    const before = await addMany([h.app], p, 'before-', 200, 20);
    // The subscriber resumes while 200 more writes run.
    const [resumed, during] = await Promise.all([watch(h.app, p, cursor), addMany([h.app], p, 'during-', 200, 5)]);
    await resumed.collector.until(() => events(resumed).length >= 400, 20_000);
    expect(events(resumed).map((e) => e.entry?.name)).toEqual(sorted([...before, ...during], resumed));
    expectOrdered(resumed);
  });

  it('a subscriber that stops reading loses nothing: past its buffer it catches up from the feed', async () => {
    const p = await project('feed-slow');
    const reader = await stalledReader(p);
    // More than its buffer (1,000) arrives while it does not read.
    for (const from of [0, 800]) {
      const imported = await ok(h, null, 'mutation ($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }', {
        e: Array.from({ length: 800 }, (_, i) => ({ scope: p, kind: 'KNOWLEDGE', name: `slow-${from + i}`, content: PADDING })),
      });
      expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    }
    await reader.readUntil((text) => text.includes('"slow-1599"'));
    const names = [...reader.text().matchAll(/"name":"(slow-\d+)"/g)].map((m) => m[1]);
    expect(names).toEqual(Array.from({ length: 1_600 }, (_, i) => `slow-${i}`));
    expect(reader.text()).not.toContain('"errors"');
  });

  it('a subscriber that falls behind further than the feed keeps gets what it can, in order, then CURSOR_EXPIRED', async () => {
    const p = await project('feed-behind');
    const reader = await stalledReader(p);
    // A reader that keeps up, to know when the instance has handed every change on.
    const keeping = await watch(h.app, p);
    await untilListening(keeping.collector, () => add(h.app, p, `keeping-${Date.now()}`));
    // More than the stalled subscriber's buffer (1,000) while it does not read...
    for (const from of [0, 800]) {
      const imported = await ok(h, null, 'mutation ($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }', {
        e: Array.from({ length: 800 }, (_, i) => ({ scope: p, kind: 'KNOWLEDGE', name: `behind-${from + i}`, content: PADDING })),
      });
      expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    }
    // A failure guard, not a measure: a loaded 2-core machine delivered ~130 events a second here (1,318 in 10 s).
    await keeping.collector.until(() => namesOf(keeping, 'behind-1599').length === 1, 60_000);
    // ...and then the feed no longer holds them (all but the newest change pruned).
    expect(await pruneChanges(h.database.prisma, h.database.provider, new Date(Date.now() + 60_000))).toBeGreaterThan(1_600);
    await reader.readUntil((text) => text.includes('CURSOR_EXPIRED'));
    const names = [...reader.text().matchAll(/"name":"(behind-\d+)"/g)].map((m) => m[1]);
    // What it got before the end is a gapless start of what it missed.
    expect(names).toEqual(Array.from({ length: names.length }, (_, i) => `behind-${i}`));
    expect(names.length).toBeLessThan(1_600);
    expect(reader.text()).toContain('"code":"CURSOR_EXPIRED"');
  }, 120_000);

  it('refuses a cursor it never gave or no longer holds with CURSOR_EXPIRED', async () => {
    const p = await project('feed-expired');
    for (const bad of ['not-a-cursor', '999999999999']) {
      const sub = await watch(h.app, p, bad);
      await sub.collector.until((r) => r.length > 0);
      expect(codes(sub)).toEqual(['CURSOR_EXPIRED']);
      await eventually('the stream completes', async () => sub.completed(), 5_000);
    }
    const first = await watch(h.app, p);
    await untilListening(first.collector, () => add(h.app, p, `probe-${Date.now()}`));
    const old = events(first)[0]!.cursor;
    await add(h.app, p, 'newer');
    await add(h.app, p, 'newest');
    await first.collector.until(() => namesOf(first, 'newest').length === 1);
    // An instance that keeps no history prunes at start: all but the newest change go, so the
    // change after `old` is gone.
    const pruning = createApp({ database: h.database, changeRetentionHours: 0 });
    cleanups.push(() => pruning.stop(1_000));
    await eventually('the feed is pruned', async () => {
      const sub = await watch(h.app, p, old);
      await sub.collector.until((r) => r.length > 0).catch(() => undefined);
      sub.close();
      return codes(sub).includes('CURSOR_EXPIRED');
    });
    // The newest cursor still resumes.
    const head = events(first).at(-1)!.cursor;
    // So does the floor itself (the change just before the oldest kept): the oldest kept is replayed.
    const newer = events(first).find((e) => e.entry?.name === 'newer')!.cursor;
    expect(Number(newer)).toBe(Number(head) - 1);
    const atFloor = await watch(h.app, p, newer);
    await atFloor.collector.until(() => namesOf(atFloor, 'newest').length === 1);
    expect(codes(atFloor)).toEqual([]);
    const resumed = await watch(h.app, p, head);
    await add(h.app, p, 'after-prune');
    await resumed.collector.until(() => namesOf(resumed, 'after-prune').length === 1);
    expect(codes(resumed)).toEqual([]);
  });

  it('sequence numbers are gapless and in commit order under concurrent writers; a refused write records nothing', async () => {
    const p = await project('feed-gapless');
    const read = () =>
      h.database.prisma.$queryRawUnsafe<Array<{ seq: bigint | number; topic: string }>>('SELECT "seq", "topic" FROM "Change" ORDER BY "seq"');
    const head = async () => Number((await h.database.prisma.$queryRawUnsafe<Array<{ seq: bigint | number }>>('SELECT "seq" FROM "ChangeFeedHead"'))[0]!.seq);
    const before = await head();
    await addMany([h.app], p, 'g-', 60, 20);
    // A write refused by validation (an empty title) records nothing.
    await ok(h, null, 'mutation ($s: ID!) { addKnowledge(input: { scope: $s, title: "", content: "c" }) { __typename } }', { s: p });
    const rows = (await read()).map((r) => Number(r.seq));
    expect(await head()).toBe(before + 60);
    expect(rows.at(-1)).toBe(before + 60);
    // Consecutive: no number skipped or used twice.
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => rows[0]! + i));
  });
});

describe('change feed across instances and a Redis outage', () => {
  it('1,000 writes across two instances while Redis dies: a subscriber that stayed gets each once in order, one that was away resumes with exactly the missed events, then live ones', async () => {
    const redis = await redisServer((kill) => cleanups.push(kill));
    await redis.start();
    const a = await redisInstance(h.url, redis.url, (c) => cleanups.push(c));
    const b = await redisInstance(h.url, redis.url, (c) => cleanups.push(c));
    const p = await project('feed-instances');
    const first = await watch(a.app, p, undefined, a.port);
    await untilListening(first.collector, () => add(b.app, p, `probe-${Date.now()}`));
    const cursor = events(first).at(-1)!.cursor;
    first.close();
    // Connected throughout, on the first instance: live delivery while the wake-ups stop.
    const stayed = await watch(a.app, p, cursor, a.port);

    // Two apps of one process on one SQLite file would wait on each other's locks while blocking
    // the event loop both need (better-sqlite3 waits synchronously): one write at a time there.
    const parallel = DB_KIND === 'sqlite' ? 1 : 20;
    const early = await addMany([a.app, b.app], p, 'early-', 500, parallel);
    await redis.kill();
    const late = await addMany([a.app, b.app], p, 'late-', 500, parallel);
    // Back on the other instance, Redis still down.
    const resumed = await watch(b.app, p, cursor, b.port);
    await resumed.collector.until(() => events(resumed).length >= 1_000, 30_000);
    expect(events(resumed).map((e) => e.entry?.name)).toEqual([...sorted(early, resumed), ...sorted(late, resumed)]);
    await stayed.collector.until(() => events(stayed).length >= 1_000, 30_000);
    // The same events in the same (commit) order as the replay.
    expect(events(stayed).map((e) => e.cursor)).toEqual(events(resumed).map((e) => e.cursor));
    // Live, through the outage: a write on A reaches B's subscriber (B polls the feed).
    await add(a.app, p, 'live-outage');
    await resumed.collector.until(() => namesOf(resumed, 'live-outage').length === 1, 10_000);
    await redis.start();
    await b.bus.ready(10_000);
    await add(a.app, p, 'live-redis');
    await resumed.collector.until(() => namesOf(resumed, 'live-redis').length === 1, 10_000);
    expect(events(resumed).length).toBe(1_002);
    expectOrdered(resumed);
    expect(codes(resumed)).toEqual([]);
    await stayed.collector.until(() => namesOf(stayed, 'live-redis').length === 1, 10_000);
    expect(events(stayed).map((e) => e.cursor)).toEqual(events(resumed).map((e) => e.cursor));
    expect(codes(stayed)).toEqual([]);
  }, 120_000);
});
