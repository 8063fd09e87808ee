// Rules of the memory lifecycle that mutation testing (npm run mutate) found unchecked: the
// lifetimes each scope gets (nearest policy per type and field, defaults, the per-instance cache
// cleared by a change), setMemoryPolicy's bounds and what all-null removes, which TTLs and
// half-lives a memoryQuery applies along the chain, what the purge erases (each entry by its own
// scope's retention, in batches of 500 with exact receipts), which sessions it archives, and when
// the scheduled purge publishes.
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.ts';
import { RELEVANCE_WEIGHTS } from '../src/modules/search/relevance.ts';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';
import { log } from '../src/infra/log.ts';

const h = useHarness();
const DAY = 86_400_000;
const HOUR = 3_600_000;
let n = 0;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

async function org(): Promise<string> {
  return (await m(`mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: `mlc-org-${++n}` }))
    .createOrganization.organization.id;
}
async function project(organization: string | null = null): Promise<string> {
  return (await m(`mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `mlc-${++n}`, o: organization }))
    .createProject.project.id;
}
async function session(p: string): Promise<string> {
  return (await m(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
}
async function knowledge(scope: string, memoryType: string, title = `k-${++n}`): Promise<string> {
  return (await m(`mutation($s: ID!, $t: String!, $m: MemoryType) { addKnowledge(input: { scope: $s, title: $t, content: "c", memoryType: $m, importance: 0 }) {
    ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, m: memoryType })).addKnowledge.knowledge.id;
}
/** Moves entries' last change back in time (the clock of TTLs, retention and decay). */
async function age(entries: string[], ms: number): Promise<void> {
  await h.database.prisma.entry.updateMany({ where: { id: { in: entries.map(dbId) } }, data: { updatedAt: new Date(Date.now() - ms) } });
}

/** A real fault of the database: a trigger refusing `operation` on one entry (dropped by `allow`). */
async function refuse(operation: 'UPDATE OF "accessCount"' | 'DELETE', entryId: string): Promise<void> {
  const db = h.database.prisma;
  if (h.database.provider === 'sqlite') {
    await db.$executeRawUnsafe(`CREATE TRIGGER "refuse_test" BEFORE ${operation} ON "Entry" WHEN OLD."id" = '${entryId}'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
  } else {
    await db.$executeRawUnsafe(`CREATE FUNCTION "refuse_test"() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER "refuse_test" BEFORE ${operation} ON "Entry" FOR EACH ROW WHEN (OLD."id" = '${entryId}') EXECUTE FUNCTION "refuse_test"()`);
  }
}
async function allow(): Promise<void> {
  const db = h.database.prisma;
  if (h.database.provider === 'sqlite') await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "refuse_test"`);
  else {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "refuse_test" ON "Entry"`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS "refuse_test"()`);
  }
}
/** Polls `done` every 20 ms for up to 10 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

const LIFETIMES = `query($id: ID!) { node(id: $id) { ... on Scope { memoryLifetimes { memoryType ttlHours retentionDays halfLifeHours } } } }`;
type Lifetime = { memoryType: string; ttlHours: number | null; retentionDays: number | null; halfLifeHours: number };
async function lifetimes(scope: string): Promise<Record<string, [number | null, number | null, number]>> {
  const list = (await m(LIFETIMES, { id: scope })).node.memoryLifetimes as Lifetime[];
  return Object.fromEntries(list.map((l) => [l.memoryType, [l.ttlHours, l.retentionDays, l.halfLifeHours]]));
}
const DEFAULTS = { SEMANTIC: [null, null, 720], EPISODIC: [null, 90, 168], PROCEDURAL: [null, null, 1440], PROSPECTIVE: [null, null, 720], WORKING: [null, null, 24] };

const POLICY = `mutation($s: ID!, $m: MemoryType!, $t: Int, $r: Int, $hl: Int) { setMemoryPolicy(input: { scope: $s, memoryType: $m, ttlHours: $t, retentionDays: $r, halfLifeHours: $hl }) {
  __typename ... on ValidationError { issues { path message } } } }`;
async function policy(scope: string, memoryType: string, values: { t?: number; r?: number; hl?: number }): Promise<Record<string, unknown>> {
  return (await m(POLICY, { s: scope, m: memoryType, ...values })).setMemoryPolicy;
}

const QUERY = `query($s: ID!) { memoryQuery(input: { scope: $s }, first: 100) { edges { node { id } breakdown { decay } } } }`;
async function queried(scope: string): Promise<Map<string, number>> {
  const edges = (await m(QUERY, { s: scope })).memoryQuery.edges as { node: { id: string }; breakdown: { decay: number } }[];
  return new Map(edges.map((e) => [e.node.id, e.breakdown.decay / RELEVANCE_WEIGHTS.decay]));
}

const PURGE = `mutation($d: Boolean) { purgeMemory(input: { dryRun: $d }) { ... on PurgeMemorySuccess { run { archivedSessions
  receipts { operation principalName criteria counts ids } } } } }`;
type Run = { archivedSessions: number; receipts: { operation: string; principalName: string | null; criteria: Record<string, unknown>; counts: Record<string, number>; ids: Record<string, string[]> }[] };
async function purge(dryRun = false): Promise<Run> {
  return (await m(PURGE, { d: dryRun })).purgeMemory.run;
}

describe(`lifetimes of each scope (${DB_KIND})`, () => {
  it('without policies every scope has the defaults: episodic kept 90 days, nothing expires, half-lives by type', async () => {
    const p = await project();
    expect(await lifetimes(p)).toEqual(DEFAULTS);
  });

  it('per type and per field the nearest policy of the chain wins; a field a policy leaves null is the parent\'s, else the default', async () => {
    const o = await org();
    const p = await project(o);
    const s = await session(p);
    await lifetimes(s); // cached for a second: a change must be seen at once anyway
    expect(await policy(o, 'SEMANTIC', { r: 7, hl: 50 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect(await policy(p, 'EPISODIC', { t: 48 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect(await policy(s, 'EPISODIC', { r: 5 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect(await policy(s, 'SEMANTIC', { hl: 30 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect(await lifetimes(o)).toEqual({ ...DEFAULTS, SEMANTIC: [null, 7, 50] });
    expect(await lifetimes(p)).toEqual({ ...DEFAULTS, SEMANTIC: [null, 7, 50], EPISODIC: [48, 90, 168] });
    expect(await lifetimes(s)).toEqual({ ...DEFAULTS, SEMANTIC: [null, 7, 30], EPISODIC: [48, 5, 168] });
  });

  it('a change replaces every field of the policy; all fields null removes it', async () => {
    const p = await project();
    const s = await session(p);
    await policy(p, 'PROCEDURAL', { t: 10, r: 20, hl: 30 });
    expect((await lifetimes(s)).PROCEDURAL).toEqual([10, 20, 30]);
    await policy(p, 'PROCEDURAL', { t: 11 });
    expect((await lifetimes(s)).PROCEDURAL).toEqual([11, null, 1440]);
    await policy(p, 'PROCEDURAL', { r: 12 });
    expect((await lifetimes(s)).PROCEDURAL).toEqual([null, 12, 1440]);
    await policy(p, 'PROCEDURAL', { hl: 13 });
    expect((await lifetimes(s)).PROCEDURAL).toEqual([null, null, 13]);
    await policy(s, 'PROCEDURAL', { t: 14 });
    expect((await lifetimes(s)).PROCEDURAL).toEqual([14, null, 13]);
    await policy(s, 'PROCEDURAL', {});
    expect((await lifetimes(s)).PROCEDURAL).toEqual([null, null, 13]);
    expect(await h.database.prisma.memoryPolicy.count({ where: { scopeId: dbId(s) } })).toBe(0);
    await policy(p, 'PROCEDURAL', {});
    expect(await lifetimes(s)).toEqual(DEFAULTS);
  });

  it('setMemoryPolicy takes 1 to 1000000 hours and 1 to 100000 days, naming each field out of bounds', async () => {
    const p = await project();
    const issue = (field: string, max: string) => ({ path: ['input', field], message: `must be between 1 and ${max}` });
    expect(await policy(p, 'WORKING', { t: 0, r: 0, hl: 0 })).toEqual({
      __typename: 'ValidationError',
      issues: [issue('halfLifeHours', '1000000'), issue('ttlHours', '1000000'), issue('retentionDays', '100000')],
    });
    expect(await policy(p, 'WORKING', { t: 1_000_001, r: 100_001, hl: 1_000_001 })).toEqual({
      __typename: 'ValidationError',
      issues: [issue('halfLifeHours', '1000000'), issue('ttlHours', '1000000'), issue('retentionDays', '100000')],
    });
    expect(await policy(p, 'WORKING', { hl: 0 })).toEqual({ __typename: 'ValidationError', issues: [issue('halfLifeHours', '1000000')] });
    expect(await policy(p, 'WORKING', { t: 0 })).toEqual({ __typename: 'ValidationError', issues: [issue('ttlHours', '1000000')] });
    expect(await policy(p, 'WORKING', { r: 0 })).toEqual({ __typename: 'ValidationError', issues: [issue('retentionDays', '100000')] });
    expect(await lifetimes(p)).toEqual(DEFAULTS);
    expect(await policy(p, 'WORKING', { t: 1, r: 1, hl: 1 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect((await lifetimes(p)).WORKING).toEqual([1, 1, 1]);
    expect(await policy(p, 'WORKING', { t: 1_000_000, r: 100_000, hl: 1_000_000 })).toEqual({ __typename: 'SetMemoryPolicySuccess' });
    expect((await lifetimes(p)).WORKING).toEqual([1_000_000, 100_000, 1_000_000]);
  });
});

describe(`lifetimes in memoryQuery (${DB_KIND})`, () => {
  it('a scope that does not exist is NOT_FOUND at input.scope', async () => {
    const missing = Buffer.from('Project:01900000-0000-7000-8000-000000000000').toString('base64');
    const answer = await as(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s }) { edges { node { id } } } }`, { s: missing });
    expect(answer.errors?.map((e) => [e.message, e.path, e.extensions.code])).toEqual([['No scope has this id', ['memoryQuery'], 'NOT_FOUND']]);
  });

  it("a TTL covers its scope and those below, not the scopes above; a nearer policy without a TTL keeps the parent's", async () => {
    const o = await org();
    const p = await project(o);
    const s = await session(p);
    const inOrg = await knowledge(o, 'EPISODIC');
    const inProject = await knowledge(p, 'EPISODIC');
    const inSession = await knowledge(s, 'EPISODIC');
    const semantic = await knowledge(s, 'SEMANTIC');
    await age([inOrg, inProject, inSession, semantic], 3 * DAY);
    await policy(p, 'EPISODIC', { t: 48 });
    // The session's own EPISODIC policy sets only a half-life: the project's TTL still applies.
    await policy(s, 'EPISODIC', { hl: 1000 });
    expect([...(await queried(s)).keys()].sort()).toEqual([inOrg, semantic].sort());
    expect([...(await queried(o)).keys()]).toEqual([inOrg]);
  });

  it('a half-life covers its scope and those below, per memory type; above it the defaults apply', async () => {
    const o = await org();
    const p = await project(o);
    const s = await session(p);
    const inOrg = await knowledge(o, 'EPISODIC');
    const inProject = await knowledge(p, 'EPISODIC');
    const inSession = await knowledge(s, 'EPISODIC');
    const semantic = await knowledge(s, 'SEMANTIC');
    await age([inOrg, inProject, inSession, semantic], 10 * HOUR);
    await policy(p, 'EPISODIC', { hl: 10 });
    await policy(s, 'SEMANTIC', { t: 1000 });
    const decay = await queried(s);
    expect(decay.get(inSession)).toBeCloseTo(0.5, 3);
    expect(decay.get(inProject)).toBeCloseTo(0.5, 3);
    expect(decay.get(inOrg)).toBeCloseTo(2 ** (-10 / 168), 3);
    expect(decay.get(semantic)).toBeCloseTo(2 ** (-10 / 720), 3);
  });
});

describe(`the purge (${DB_KIND})`, () => {
  it("erases each entry by its own scope's retention, however short another scope's is", async () => {
    await purge();
    const short = await project();
    const other = await project();
    await policy(short, 'EPISODIC', { r: 10 });
    const due = await knowledge(short, 'EPISODIC');
    const young = await knowledge(short, 'EPISODIC');
    const elsewhere = await knowledge(other, 'EPISODIC');
    await age([due, elsewhere], 11 * DAY);
    await age([young], 9 * DAY);
    const admin = await principal(h, `purger-${DB_KIND}`, { admin: true });
    const before = Date.now();
    const run = (await as(h, admin.key, PURGE, { d: false })).data!.purgeMemory.run as Run;
    expect(run.receipts).toHaveLength(1);
    expect(run.receipts[0]).toMatchObject({ operation: 'purge', principalName: `purger-${DB_KIND}`, counts: { Entry: 1, EntryVersion: 1 }, ids: { Entry: [dbId(due)] } });
    const { retention, asOf, ...rest } = run.receipts[0]!.criteria as { retention: boolean; asOf: string };
    expect([retention, rest]).toEqual([true, {}]);
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
    expect((await m(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [due, young, elsewhere] })).nodes).toEqual([null, { id: young }, { id: elsewhere }]);
  });

  it('erases in batches of 500, each with its own receipt, in id order', async () => {
    await purge();
    const p = await project();
    const entries = Array.from({ length: 501 }, (_, i) => ({ kind: 'KNOWLEDGE', scope: p, name: `bulk-${String(i).padStart(3, '0')}`, content: 'c', memoryType: 'EPISODIC' }));
    const imported = (await m(`mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { ... on ImportEntriesSuccess { imported { entries { id } } } } }`, { e: entries }))
      .importEntries.imported.entries as { id: string }[];
    const ids = imported.map((e) => dbId(e.id)).sort();
    // The newest ids are the oldest changes: no index order gives id order by chance.
    const now = Date.now();
    for (const [i, id] of ids.entries()) await h.database.prisma.entry.update({ where: { id }, data: { updatedAt: new Date(now - 100 * DAY - i * 1000) } });
    const run = await purge();
    expect(run.receipts.map((r) => r.counts.Entry)).toEqual([500, 1]);
    expect(run.receipts.map((r) => r.ids.Entry)).toEqual([ids.slice(0, 500), ids.slice(500)]);
    expect(await h.database.prisma.entry.count({ where: { scopeId: dbId(p) } })).toBe(0);
  });

  it('archives completed and discarded sessions that ended 30 days ago, not later ones; a dry run archives none', async () => {
    await purge();
    const p = await project();
    const [completed, discarded, recent, active] = [await session(p), await session(p), await session(p), await session(p)];
    await m(`mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: completed });
    await m(`mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: recent });
    await m(`mutation($id: ID!) { discardSession(input: { id: $id }) { __typename } }`, { id: discarded });
    const end = async (id: string, days: number) => h.database.prisma.scope.update({ where: { id: dbId(id) }, data: { endedAt: new Date(Date.now() - days * DAY) } });
    await end(completed, 30.01);
    await end(discarded, 31);
    await end(recent, 29.9);
    const status = async () =>
      ((await m(`query($ids: [ID!]!) { nodes(ids: $ids) { ... on Session { status } } }`, { ids: [completed, discarded, recent, active] })).nodes as { status: string }[]).map((s) => s.status);
    expect(await purge(true)).toEqual({ archivedSessions: 2, receipts: [] });
    expect(await status()).toEqual(['COMPLETED', 'DISCARDED', 'COMPLETED', 'ACTIVE']);
    expect(await purge()).toEqual({ archivedSessions: 2, receipts: [] });
    expect(await status()).toEqual(['ARCHIVED', 'ARCHIVED', 'COMPLETED', 'ACTIVE']);
  });
});

describe(`the purge acts as "system" (${DB_KIND})`, () => {
  it('its erasures are announced as DELETED by system, and its archiving is logged as done by system', async () => {
    await purge();
    const p = await project();
    const s = await session(p);
    await m(`mutation($id: ID!) { discardSession(input: { id: $id }) { __typename } }`, { id: s });
    await h.database.prisma.scope.update({ where: { id: dbId(s) }, data: { endedAt: new Date(Date.now() - 31 * DAY) } });
    const doomed = await knowledge(p, 'EPISODIC');
    await age([doomed], 91 * DAY);
    const doc = parse(`subscription($scope: ID!) { entryChanged(scope: $scope) { type entryId actor } }`) as TypedDocumentNode<
      { entryChanged: { type: string; entryId: string; actor: string | null } },
      { scope: string }
    >;
    const sub = await sseSubscribe(h.app, doc, { scope: p });
    try {
      let probes = 0;
      await untilListening(sub.collector, () => knowledge(p, 'SEMANTIC', `probe-${++probes}`));
      const before = sub.collector.results.length;
      expect((await purge()).archivedSessions).toBe(1);
      await sub.collector.until((r) => r.length > before);
      expect(sub.collector.results.slice(before).map((r) => r.data!.entryChanged)).toEqual([{ type: 'DELETED', entryId: doomed, actor: 'system' }]);
    } finally {
      sub.close();
    }
    const events = (await m(`query($id: ID!) { node(id: $id) { ... on Session { events(first: 10) { edges { node { actor transition { to } } } } } } }`, { id: s })).node.events.edges as {
      node: { actor: string; transition: { to: string } | null };
    }[];
    expect(events.at(-1)!.node).toEqual({ actor: 'system', transition: { to: 'ARCHIVED' } });
  });
});

describe(`the scheduled purge (${DB_KIND})`, () => {
  it('an entry whose retention ends at the very instant of the run is erased', async () => {
    await purge();
    const p = await project();
    const at = new Date(Date.now() + DAY);
    const [exact, early] = [await knowledge(p, 'EPISODIC'), await knowledge(p, 'EPISODIC')];
    await h.database.prisma.entry.update({ where: { id: dbId(exact) }, data: { updatedAt: new Date(at.getTime() - 90 * DAY) } });
    await h.database.prisma.entry.update({ where: { id: dbId(early) }, data: { updatedAt: new Date(at.getTime() - 90 * DAY + 1) } });
    let runs = 0;
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 20, now: () => (runs++, at) } });
    try {
      const deadline = Date.now() + 10_000;
      while (runs < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await scheduled.stop();
    }
    expect((await m(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [exact, early] })).nodes).toEqual([null, { id: early }]);
  });

  const PURGED = parse(`subscription { memoryPurged { erasedEntries archivedSessions receipts { operation ids } } }`) as TypedDocumentNode<
    { memoryPurged: { erasedEntries: number; archivedSessions: number; receipts: { operation: string; ids: Record<string, string[]> }[] } },
    Record<string, never>
  >;

  it('a run that fails is logged, and the next interval runs again', async () => {
    await purge();
    const k = await knowledge(await project(), 'EPISODIC');
    await age([k], 91 * DAY);
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    await refuse('DELETE', dbId(k));
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 20 } });
    const exists = async () => (await m(`query($id: ID!) { node(id: $id) { id } }`, { id: k })).node !== null;
    try {
      const failed = () => error.mock.calls.filter((args: unknown[]) => args[1] === 'The retention purge failed (it runs again at the next interval)');
      await until(() => failed().length > 0);
      // The database's own error comes with it (SQLite's trigger abort reads as a foreign-key error through Prisma).
      expect((failed()[0]![0] as { err: unknown }).err).toBeInstanceOf(Error);
      expect(await exists()).toBe(true);
      await allow();
      await until(async () => !(await exists()));
    } finally {
      await allow();
      await scheduled.stop();
      error.mockRestore();
    }
    expect(await exists()).toBe(false);
  });

  it('publishes only runs that erased or archived something, with exact counts; after stop() it runs no more', async () => {
    await purge();
    let runs = 0;
    const scheduled = createApp({ database: h.database, purge: { intervalMs: 30, now: () => (runs++, new Date()) } });
    const sub = await sseSubscribe(scheduled, PURGED, {});
    try {
      const waitRuns = async (count: number) => {
        const target = runs + count;
        const deadline = Date.now() + 10_000;
        while (runs < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      // Runs with nothing to do publish nothing.
      await waitRuns(4);
      const p = await project();
      const s = await session(p);
      await m(`mutation($id: ID!) { discardSession(input: { id: $id }) { __typename } }`, { id: s });
      await h.database.prisma.scope.update({ where: { id: dbId(s) }, data: { endedAt: new Date(Date.now() - 31 * DAY) } });
      await sub.collector.until((r) => r.length >= 1);
      const a = await knowledge(p, 'EPISODIC');
      const b = await knowledge(p, 'EPISODIC');
      await age([a, b], 91 * DAY);
      await sub.collector.until((r) => r.length >= 2);
      await waitRuns(4);
      expect(sub.collector.results.map((r) => r.data!.memoryPurged)).toEqual([
        { erasedEntries: 0, archivedSessions: 1, receipts: [] },
        { erasedEntries: 2, archivedSessions: 0, receipts: [{ operation: 'purge', ids: expect.objectContaining({ Entry: [dbId(a), dbId(b)].sort() }) }] },
      ]);
    } finally {
      sub.close();
      await scheduled.stop();
    }
    const stopped = runs;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(runs).toBe(stopped);
  });
});

describe(`counted reads (${DB_KIND})`, () => {
  const READ = `query($id: ID!) { node(id: $id) { id } }`;
  const counted = async (id: string) => (await h.database.prisma.entry.findUniqueOrThrow({ where: { id: dbId(id) }, select: { accessCount: true } })).accessCount;
  const readOn = async (app: ReturnType<typeof createApp>, id: string) => {
    const response = await app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: READ, variables: { id } }),
    });
    expect(((await response.json()) as { data: unknown }).data).toEqual({ node: { id } });
  };

  it('are written on the timer while the server runs, at stop what is left, and not at all when tracking is off', async () => {
    const k = await knowledge(await project(), 'SEMANTIC');
    const timed = createApp({ database: h.database, accessFlushMs: 30 });
    try {
      await readOn(timed, k);
      await readOn(timed, k);
      const deadline = Date.now() + 10_000;
      while ((await counted(k)) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await counted(k)).toBe(2);
    } finally {
      await timed.stop();
    }
    const later = createApp({ database: h.database, accessFlushMs: 3_600_000 });
    await readOn(later, k);
    // Buffered, not written at once: only the interval or the stop writes it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await counted(k)).toBe(2);
    await later.stop();
    expect(await counted(k)).toBe(3);
    const off = createApp({ database: h.database, accessFlushMs: 10, trackAccess: false });
    await readOn(off, k);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await off.stop();
    expect(await counted(k)).toBe(3);
  });

  it('are written a hundred entries a statement, one statement per count, other work running between statements', async () => {
    const p = await project();
    const entries = Array.from({ length: 301 }, (_, i) => ({ kind: 'KNOWLEDGE', scope: p, name: `read-${i}`, content: 'c' }));
    await m(`mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, { e: entries });
    // Exactly one full chunk buffered: the flush at stop writes it and ends there (no empty chunk after it).
    const first = createApp({ database: h.database, accessFlushMs: 3_600_000 });
    await pagesRead(first, p, 1);
    h.resetStatements();
    await first.stop();
    expect(counting(h.statements)).toEqual([100]);
    // 100 entries read twice (one before), 201 once: two counts, the second in chunks of 100, 100 and 1.
    const app = createApp({ database: h.database, accessFlushMs: 3_600_000 });
    expect(await pagesRead(app, p)).toBe(4);
    h.resetStatements();
    let between = 0;
    const stopped = app.stop();
    // Scheduled now, so each runs only when the flush lets the event loop turn.
    const tick = () => setImmediate(() => void (between++ < 10 && tick()));
    tick();
    await stopped;
    expect(counting(h.statements).sort((a, b) => a - b)).toEqual([1, 100, 100, 100]);
    // Between the statements, at least one turn each (on SQLite, which writes on the event loop,
    // only the flush yielding gives them; PostgreSQL waits for its answers anyway).
    expect(between).toBeGreaterThanOrEqual(3);
    const counts = await h.database.prisma.entry.groupBy({ by: ['accessCount'], where: { scopeId: dbId(p) }, _count: true, orderBy: { accessCount: 'asc' } });
    expect(counts.map((c) => [c.accessCount, c._count])).toEqual([
      [1, 201],
      [2, 100],
    ]);
  });

  it('a statement the database refuses is logged and its counts lost; the server and later counts go on', async () => {
    const k = await knowledge(await project(), 'SEMANTIC');
    const id = dbId(k);
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    await refuse('UPDATE OF "accessCount"', id);
    const app = createApp({ database: h.database, accessFlushMs: 20 });
    try {
      await readOn(app, k);
      const failed = () => warn.mock.calls.filter((args: unknown[]) => args[1] === 'Recording entry reads failed');
      await until(() => failed().length > 0);
      expect(failed()).toHaveLength(1);
      expect(String((failed()[0]![0] as { err: unknown }).err)).toContain('refused by the test');
      await allow();
      await readOn(app, k);
      await until(async () => (await counted(k)) > 0);
    } finally {
      await allow();
      await app.stop();
      warn.mockRestore();
    }
    expect(await counted(k)).toBe(1);
  });

  /** Reads `scope`'s entries 100 a page through `app` (at most `limit` pages); returns the pages read. */
  /** The ids each statement that counts reads lists (PostgreSQL numbers parameters, SQLite does not). */
  function counting(statements: readonly string[]): number[] {
    return statements.filter((sql) => sql.includes('"accessCount" = "accessCount" +')).map((sql) => (sql.match(/\bIN \(([^)]*)\)/)?.[1] ?? '').split(',').length);
  }

  async function pagesRead(app: ReturnType<typeof createApp>, scope: string, limit = Infinity): Promise<number> {
    let after: string | null = null;
    let pages = 0;
    do {
      const response: Response = await app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `query($s: ID!, $a: String) { memoryQuery(input: { scope: $s, inherit: false }, first: 100, after: $a) { pageInfo { hasNextPage endCursor } } }`,
          variables: { s: scope, a: after },
        }),
      });
      const page: { hasNextPage: boolean; endCursor: string } = ((await response.json()) as { data: { memoryQuery: { pageInfo: { hasNextPage: boolean; endCursor: string } } } }).data.memoryQuery.pageInfo;
      after = page.hasNextPage ? page.endCursor : null;
      pages++;
    } while (after && pages < limit);
    return pages;
  }
});
