// Lifetimes (issue #13): a TTL per memory type and scope leaves items out of queries; retention
// lets the purge erase them with receipts. The clock is the data's: rows are aged with SQL.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createApp } from '../src/app.ts';
import { PURGE_LOCK } from '../src/modules/lifecycle/purge-job.ts';
import { as, ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
const DAY = 86_400_000;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
async function knowledge(scope: string, title: string, memoryType: string): Promise<string> {
  return (await ok(h, null, `mutation($s: ID!, $t: String!, $m: MemoryType) { addKnowledge(input: { scope: $s, title: $t, content: "c", memoryType: $m }) {
    ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, m: memoryType })).addKnowledge.knowledge.id;
}
/** Moves an entry's last change back in time (the purge's and the TTL's clock). */
async function age(entry: string, days: number): Promise<void> {
  await h.database.prisma.entry.update({ where: { id: dbId(entry) }, data: { updatedAt: new Date(Date.now() - days * DAY) } });
}
const POLICY = `mutation($s: ID!, $m: MemoryType!, $t: Int, $r: Int) { setMemoryPolicy(input: { scope: $s, memoryType: $m, ttlHours: $t, retentionDays: $r }) {
  __typename ... on SetMemoryPolicySuccess { scope { memoryLifetimes { memoryType ttlHours retentionDays } } } } }`;

describe(`lifetimes and purge (${DB_KIND})`, () => {
  it('a TTL per memory type and scope leaves expired items out of memoryQuery, and marks them expired', async () => {
    const p = await project('ttl');
    const note = await knowledge(p, 'stand-up', 'EPISODIC');
    const fact = await knowledge(p, 'fact', 'SEMANTIC');
    await age(note, 3);
    await age(fact, 3);
    const set = await ok(h, null, POLICY, { s: p, m: 'EPISODIC', t: 48 });
    expect(set.setMemoryPolicy.scope.memoryLifetimes.find((l: { memoryType: string }) => l.memoryType === 'EPISODIC')).toEqual({ memoryType: 'EPISODIC', ttlHours: 48, retentionDays: 90 });
    const query = `query($s: ID!, $x: Boolean) { memoryQuery(input: { scope: $s, inherit: false, includeExpired: $x }) { edges { node { id expired } } } }`;
    expect((await ok(h, null, query, { s: p })).memoryQuery.edges).toEqual([{ node: { id: fact, expired: false } }]);
    expect((await ok(h, null, query, { s: p, x: true })).memoryQuery.edges).toContainEqual({ node: { id: note, expired: true } });
    // A session below inherits the project's TTL; a nearer policy would win.
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const inSession = await knowledge(s, 'session-note', 'EPISODIC');
    await age(inSession, 3);
    expect((await ok(h, null, query, { s })).memoryQuery.edges).toEqual([]);
    await ok(h, null, POLICY, { s, m: 'EPISODIC', t: 1000 });
    expect((await ok(h, null, query, { s })).memoryQuery.edges).toEqual([{ node: { id: inSession, expired: false } }]);
    const bad = await ok(h, null, POLICY, { s: p, m: 'EPISODIC', t: 0 });
    expect(bad.setMemoryPolicy.__typename).toBe('ValidationError');
  });

  it('the purge erases what outlived its retention (default: episodic 90 days), with receipts; a dry run changes nothing', async () => {
    const p = await project('purge');
    const short = await project('purge-short');
    await ok(h, null, POLICY, { s: short, m: 'SEMANTIC', r: 10 });
    const oldEpisode = await knowledge(p, 'old-episode', 'EPISODIC');
    const newEpisode = await knowledge(p, 'new-episode', 'EPISODIC');
    const oldFact = await knowledge(p, 'old-fact', 'SEMANTIC');
    const shortFact = await knowledge(short, 'short-fact', 'SEMANTIC');
    await age(oldEpisode, 91);
    await age(newEpisode, 89);
    await age(oldFact, 400);
    await age(shortFact, 11);
    const session = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    await ok(h, null, `mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: session });
    await h.database.prisma.scope.update({ where: { id: dbId(session) }, data: { endedAt: new Date(Date.now() - 31 * DAY) } });

    const run = `mutation($d: Boolean) { purgeMemory(input: { dryRun: $d }) { ... on PurgeMemorySuccess { run { archivedSessions receipts { operation counts ids } } } } }`;
    const dry = (await ok(h, null, run, { d: true })).purgeMemory.run;
    const erased = dry.receipts.flatMap((r: { ids: { Entry?: string[] } }) => r.ids.Entry ?? []).sort();
    expect(erased).toEqual([dbId(oldEpisode), dbId(shortFact)].sort());
    expect(dry.archivedSessions).toBe(1);
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [oldEpisode, shortFact] })).nodes).toEqual([{ id: oldEpisode }, { id: shortFact }]);

    const done = (await ok(h, null, run, {})).purgeMemory.run;
    expect(done.receipts.map((r: { operation: string }) => r.operation)).toEqual(['purge']);
    expect(done.receipts[0].counts.Entry).toBe(2);
    expect(done.archivedSessions).toBe(1);
    const left = await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Session { status } } }`, { ids: [oldEpisode, newEpisode, oldFact, shortFact, session] });
    expect(left.nodes).toEqual([null, { id: newEpisode }, { id: oldFact }, null, { id: session, status: 'ARCHIVED' }]);
    expect((await ok(h, null, run, {})).purgeMemory.run).toEqual({ archivedSessions: 0, receipts: [] });
  });

  it('two purges at once each archive some of the ended sessions, none twice, and neither fails', async () => {
    const p = await project('purge-race');
    const sessions: string[] = [];
    for (let i = 0; i < 6; i++) {
      const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
      await ok(h, null, `mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: s });
      await h.database.prisma.scope.update({ where: { id: dbId(s) }, data: { endedAt: new Date(Date.now() - 31 * DAY) } });
      sessions.push(s);
    }
    const run = `mutation { purgeMemory(input: {}) { __typename ... on PurgeMemorySuccess { run { archivedSessions } } } }`;
    const [a, b] = await Promise.all([as(h, null, run), as(h, null, run)]);
    expect(a.errors).toBeUndefined();
    expect(b.errors).toBeUndefined();
    // Both listed all six; whichever archived a session first counts it, the other skips it.
    expect(a.data!.purgeMemory.run.archivedSessions + b.data!.purgeMemory.run.archivedSessions).toBe(6);
    const left = await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Session { status } } }`, { ids: sessions });
    expect(left.nodes.every((n: { status: string }) => n.status === 'ARCHIVED')).toBe(true);
  });

  it('on a schedule, the purge runs by itself and tells admins subscribed to memoryPurged', async () => {
    const p = await project('scheduled');
    const episode = await knowledge(p, 'old-news', 'EPISODIC');
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 100 } });
    try {
      const response = await scheduled.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: 'subscription { memoryPurged { erasedEntries receipts { operation ids } } }' }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      // Aged only now that the subscription is open: the run that erases it comes after.
      await age(episode, 91);
      let text = '';
      while (!/data: \{"data"/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      await reader.cancel();
      const event = JSON.parse(/data: (\{"data".*)/.exec(text)![1]!) as { data: { memoryPurged: { erasedEntries: number; receipts: { operation: string; ids: { Entry: string[] } }[] } } };
      expect(event.data.memoryPurged.erasedEntries).toBeGreaterThanOrEqual(1);
      expect(event.data.memoryPurged.receipts.flatMap((r) => r.ids.Entry)).toContain(dbId(episode));
      expect((await ok(h, null, `query($id: ID!) { node(id: $id) { id } }`, { id: episode })).node).toBeNull();
    } finally {
      await scheduled.stop();
    }
  });

  it('the scheduled purge announces each step in the transaction that made it: a batch with its receipt, each archived session', async () => {
    const p = await project('purge-steps');
    const episode = await knowledge(p, 'stale', 'EPISODIC');
    await age(episode, 91);
    const sessions: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
      await ok(h, null, `mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: s });
      await h.database.prisma.scope.update({ where: { id: dbId(s) }, data: { endedAt: new Date(Date.now() - 31 * DAY) } });
      sessions.push(dbId(s));
    }
    const { seq: before } = (await h.database.prisma.changeFeedHead.findUniqueOrThrow({ where: { id: 1 } })) as { seq: bigint | number };
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 50 } });
    try {
      const archived = async () => (await h.database.prisma.scope.count({ where: { id: { in: sessions }, status: 'ARCHIVED' } })) === 2;
      const deadline = Date.now() + 10_000;
      while (!(await archived()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await scheduled.stop();
    }
    const changes = await h.database.prisma.change.findMany({ where: { seq: { gt: before } }, orderBy: { seq: 'asc' } });
    const purged = changes.filter((c) => c.topic === 'purge').map((c) => ({ ...(JSON.parse(c.payload) as { receiptIds: string[]; erasedEntries: number; archivedSessions: number }), seq: Number(c.seq), at: c.occurredAt.getTime() }));
    expect(purged.map(({ erasedEntries, archivedSessions }) => ({ erasedEntries, archivedSessions }))).toEqual([
      { erasedEntries: 1, archivedSessions: 0 },
      { erasedEntries: 0, archivedSessions: 1 },
      { erasedEntries: 0, archivedSessions: 1 },
    ]);
    // Each announcement is the last change of its step's transaction: right after the entry's
    // DELETED (with the receipt that names it) or the session's LIFECYCLE event, at the same instant.
    const [erased, ...archives] = purged;
    const receipt = await h.database.prisma.deletionReceipt.findUniqueOrThrow({ where: { id: erased!.receiptIds[0]! } });
    expect((JSON.parse(receipt.ids) as { Entry: string[] }).Entry).toEqual([dbId(episode)]);
    for (const step of purged) {
      const previous = changes.find((c) => Number(c.seq) === step.seq - 1)!;
      expect(previous.occurredAt.getTime()).toBe(step.at);
      expect(previous.topic).toBe(step === erased ? 'entryChanged' : 'sessionEvent');
    }
    expect(archives.map((a) => changes.find((c) => Number(c.seq) === a.seq - 1)!.keys.includes(`session:${sessions[archives.indexOf(a)]}`))).toEqual([true, true]);
  });

  it('the scheduled purge judges ages by its clock: 89 days on keeps an episode, 91 days on erases it', async () => {
    const p = await project('purge-clock');
    const episode = await knowledge(p, 'clocked', 'EPISODIC');
    const exists = async () => (await ok(h, null, `query($id: ID!) { node(id: $id) { id } }`, { id: episode })).node !== null;
    const runFor = async (days: number) => {
      let runs = 0;
      const scheduled = createApp({ database: h.database, purge: { intervalMs: 20, now: () => (runs++, new Date(Date.now() + days * DAY)) } });
      try {
        // A few runs of the job (a bound on the wait, not a measurement).
        const deadline = Date.now() + 10_000;
        while (runs < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await scheduled.stop();
      }
      expect(runs).toBeGreaterThanOrEqual(3);
    };
    await runFor(89);
    expect(await exists()).toBe(true);
    await runFor(91);
    expect(await exists()).toBe(false);
  });

  it.runIf(DB_KIND === 'postgresql')('on PostgreSQL one instance purges at a time: while another holds the purge lock, scheduled runs skip', async () => {
    const p = await project('purge-lock');
    const episode = await knowledge(p, 'locked-out', 'EPISODIC');
    await age(episode, 91);
    // Another instance in the middle of its run: a second connection holding the purge's lock.
    const other = new pg.Client({ connectionString: h.url });
    await other.connect();
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 50 } });
    const exists = async () => (await ok(h, null, `query($id: ID!) { node(id: $id) { id } }`, { id: episode })).node !== null;
    try {
      await other.query('SELECT pg_advisory_lock($1::bigint)', [PURGE_LOCK]);
      // Twenty intervals: each run finds the lock taken and leaves the entry to the other instance.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await exists()).toBe(true);
      await other.query('SELECT pg_advisory_unlock($1::bigint)', [PURGE_LOCK]);
      // Released, the next run of this instance erases it (a bound on the wait, not a measurement).
      const deadline = Date.now() + 10_000;
      while ((await exists()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await exists()).toBe(false);
    } finally {
      await scheduled.stop();
      await other.end();
    }
  });

  it('the purge and its dry run give the event loop back between batches (SQLite runs a transaction on it, first statement to last)', async () => {
    const p = await project('purge-turns');
    // 501 old episodes: two batches, the first erasing its 500 entries in two lists of ids (400 and 100).
    const entries = Array.from({ length: 501 }, (_, i) => ({ kind: 'KNOWLEDGE', name: `episode-${i}`, content: `what happened ${i}`, scope: p, memoryType: 'EPISODIC', tags: ['turns'] }));
    const imported = await ok(h, null, `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, { e: entries });
    expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    await h.database.prisma.entry.updateMany({ where: { scope: { name: 'purge-turns' } }, data: { updatedAt: new Date(Date.now() - 91 * DAY) } });
    const run = `mutation($d: Boolean) { purgeMemory(input: { dryRun: $d }) { ... on PurgeMemorySuccess { run { receipts { counts } } } } }`;
    for (const dryRun of [true, false]) {
      // A timer's view of the purge: how many lists of entries it had erased whenever the event loop turned.
      h.resetStatements();
      const lists = () => h.statements.filter((sql) => sql.startsWith('DELETE FROM "EntrySearch"')).length;
      const seen: number[] = [];
      const timer = setInterval(() => seen.push(lists()), 0);
      const receipts = (await ok(h, null, run, { d: dryRun })).purgeMemory.run.receipts;
      clearInterval(timer);
      expect(receipts.map((r: { counts: { Entry: number } }) => r.counts.Entry)).toEqual([500, 1]);
      expect(lists()).toBe(3);
      expect(seen.filter((n) => n > 0 && n < 3)).not.toEqual([]);
    }
  });
});
