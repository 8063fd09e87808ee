// Decay in relevance (issue #13): its own term of memoryQuery's breakdown, exponential in the time
// since an entry's last change with a half-life per memory type (or knowledge category), boosted by
// importance and reads, capped at 1, with a floor. The clock is the data's: rows are aged with SQL.
import { describe, expect, it } from 'vitest';
import { DECAY, RELEVANCE_WEIGHTS } from '../src/modules/search/relevance.ts';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
const HOUR = 3_600_000;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
async function knowledge(scope: string, title: string, opts: { memoryType?: string; category?: string; importance?: number } = {}): Promise<string> {
  const doc = `mutation($s: ID!, $t: String!, $m: MemoryType, $c: String, $i: Float) {
    addKnowledge(input: { scope: $s, title: $t, content: "c", memoryType: $m, category: $c, importance: $i }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`;
  return (await ok(h, null, doc, { s: scope, t: title, m: opts.memoryType, c: opts.category, i: opts.importance ?? 0 })).addKnowledge.knowledge.id;
}
/** Moves an entry's last change `hours` back, and sets the reads counted so far. */
async function age(entry: string, hours: number, accessCount = 0): Promise<void> {
  await h.database.prisma.entry.update({ where: { id: dbId(entry) }, data: { updatedAt: new Date(Date.now() - hours * HOUR), accessCount } });
}
const QUERY = `query($s: ID!, $first: Int) { memoryQuery(input: { scope: $s }, first: $first) {
  edges { score node { id } breakdown { relation tags scope text priority recency decay } } } }`;
type Edge = { score: number; node: { id: string }; breakdown: Record<string, number> };
async function edges(scope: string, first = 50): Promise<Edge[]> {
  return (await ok(h, null, QUERY, { s: scope, first })).memoryQuery.edges;
}
async function decayOf(scope: string, entry: string): Promise<number> {
  const edge = (await edges(scope)).find((e) => e.node.id === entry);
  if (!edge) throw new Error(`${entry} not in the results`);
  return edge.breakdown.decay! / RELEVANCE_WEIGHTS.decay;
}
const POLICY = `mutation($s: ID!, $m: MemoryType!, $hl: Int) { setMemoryPolicy(input: { scope: $s, memoryType: $m, halfLifeHours: $hl }) {
  __typename ... on SetMemoryPolicySuccess { scope { memoryLifetimes { memoryType halfLifeHours } } } ... on ValidationError { issues { path } } } }`;

describe(`decay in relevance (${DB_KIND})`, () => {
  it('halves every half-life of the memory type or knowledge category, with its own term in the breakdown', async () => {
    const p = await project('decay-half-lives');
    const cases: Array<[string, { memoryType?: string; category?: string }, number]> = [
      ['episodic', { memoryType: 'EPISODIC' }, 168],
      ['semantic', { memoryType: 'SEMANTIC' }, 720],
      ['procedural', { memoryType: 'PROCEDURAL' }, 1440],
      ['finding', { category: 'finding' }, 336],
      ['decision', { category: 'decision' }, 720],
      ['preference', { category: 'preference' }, 1440],
      ['conversation', { category: 'conversation' }, 168],
    ];
    const ids = new Map<string, string>();
    for (const [title, opts, halfLife] of cases) {
      const id = await knowledge(p, title, opts);
      await age(id, halfLife);
      ids.set(title, id);
    }
    const fresh = await knowledge(p, 'fresh', { memoryType: 'EPISODIC' });
    const twice = await knowledge(p, 'two-half-lives', { memoryType: 'EPISODIC' });
    await age(twice, 2 * 168);
    const all = await edges(p);
    for (const [title] of cases) {
      const edge = all.find((e) => e.node.id === ids.get(title))!;
      expect(edge.breakdown.decay, title).toBeCloseTo(0.5 * RELEVANCE_WEIGHTS.decay, 4);
      const sum = Object.values(edge.breakdown).reduce((a, b) => a + b, 0);
      expect(edge.score, title).toBeCloseTo(sum, 9);
    }
    // A fresh episode loses ~1e-6 a second (half-life 168 h): 5 places allow a loaded machine 4 s.
    expect(await decayOf(p, fresh)).toBeCloseTo(1, 5);
    expect(await decayOf(p, twice)).toBeCloseTo(0.25, 4);
  });

  it('importance and reads delay the decline; the boost is capped, decay never exceeds 1 nor falls below the floor', async () => {
    const p = await project('decay-boosts');
    const important = await knowledge(p, 'important', { memoryType: 'EPISODIC', importance: 1 });
    await age(important, 168);
    const read = await knowledge(p, 'read', { memoryType: 'EPISODIC' });
    await age(read, 2 * 168, 3);
    const popular = await knowledge(p, 'popular', { memoryType: 'EPISODIC' });
    await age(popular, 3 * 168, 40);
    const freshImportant = await knowledge(p, 'fresh-important', { memoryType: 'EPISODIC', importance: 1 });
    await age(freshImportant, 0, 10);
    const ancient = await knowledge(p, 'ancient', { memoryType: 'EPISODIC', importance: 1 });
    await age(ancient, 5000, 10);
    expect(await decayOf(p, important)).toBeCloseTo(0.5 * (1 + DECAY.importanceBoost), 4);
    expect(await decayOf(p, read)).toBeCloseTo(0.25 * (1 + 3 * DECAY.accessBoost), 4);
    // 40 reads count as the cap (10): 0.125 * 2, not 0.125 * 5.
    expect(await decayOf(p, popular)).toBeCloseTo(0.125 * (1 + DECAY.accessCap * DECAY.accessBoost), 4);
    expect(await decayOf(p, freshImportant)).toBe(1);
    expect(await decayOf(p, ancient)).toBeCloseTo(DECAY.floor, 9);
  });

  it('a memory policy sets the half-life for a scope and below, over the category default; admins only; bounds checked', async () => {
    const p = await project('decay-policy');
    await edges(p); // the query before the policy: what it read of the chain must not outlive the change
    const set = await ok(h, null, POLICY, { s: p, m: 'SEMANTIC', hl: 10 });
    expect(set.setMemoryPolicy.scope.memoryLifetimes).toContainEqual({ memoryType: 'SEMANTIC', halfLifeHours: 10 });
    expect(set.setMemoryPolicy.scope.memoryLifetimes).toContainEqual({ memoryType: 'EPISODIC', halfLifeHours: 168 });
    const finding = await knowledge(p, 'finding', { category: 'finding' });
    await age(finding, 10);
    expect(await decayOf(p, finding)).toBeCloseTo(0.5, 4);
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const inSession = await knowledge(s, 'session-fact', { memoryType: 'SEMANTIC' });
    await age(inSession, 20);
    expect(await decayOf(s, inSession)).toBeCloseTo(0.25, 4);
    // A nearer policy wins; removing it brings back the project's.
    await ok(h, null, POLICY, { s, m: 'SEMANTIC', hl: 20 });
    expect(await decayOf(s, inSession)).toBeCloseTo(0.5, 4);
    await ok(h, null, POLICY, { s, m: 'SEMANTIC', hl: null });
    expect(await decayOf(s, inSession)).toBeCloseTo(0.25, 4);
    for (const hl of [0, 1_000_001]) {
      const bad = await ok(h, null, POLICY, { s: p, m: 'SEMANTIC', hl });
      expect(bad.setMemoryPolicy).toEqual({ __typename: 'ValidationError', issues: [{ path: ['input', 'halfLifeHours'] }] });
    }
  });

  it('ranks a longer-lived memory above an equally old, faster-decaying one', async () => {
    const p = await project('decay-ranking');
    const episode = await knowledge(p, 'episode', { memoryType: 'EPISODIC' });
    const fact = await knowledge(p, 'fact', { memoryType: 'SEMANTIC' });
    await age(episode, 30 * 24);
    await age(fact, 30 * 24);
    const ranked = await edges(p);
    expect(ranked.map((e) => e.node.id)).toEqual([fact, episode]);
    expect(ranked[0]!.breakdown.recency).toBeCloseTo(ranked[1]!.breakdown.recency!, 6);
  });

  it('a first page over a chain with aged memory is what the full ranking gives (pruning bounds decay)', async () => {
    // Recently changed, fast-decaying episodes fill the pruning's sample; older procedures that
    // decay slowly (and one often read) outrank them. The full ranking is the same query with an
    // `include` tag every entry carries (each score W.tags higher).
    const p = await project('decay-pruning');
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const tagged = async (scope: string, title: string, memoryType: string, hours: number, reads = 0) => {
      const id = await knowledge(scope, title, { memoryType });
      await ok(h, null, `mutation($e: ID!) { attachTags(input: { entry: $e, tags: ["all-decay"] }) { __typename } }`, { e: id });
      await age(id, hours, reads);
      return id;
    };
    for (let i = 0; i < 30; i++) await tagged(p, `episode-${i}`, 'EPISODIC', 200 + i);
    const procedures: string[] = [];
    for (let i = 0; i < 8; i++) procedures.push(await tagged(p, `procedure-${i}`, 'PROCEDURAL', 400 + 50 * i, i === 7 ? 10 : 0));
    for (let i = 0; i < 6; i++) await tagged(s, `session-episode-${i}`, 'EPISODIC', 600 + 100 * i);
    // Guidelines of every priority band and age: pruning bounds them by priority and age together.
    for (let i = 0; i < 32; i++) {
      const doc = `mutation($s: ID!, $n: String!, $p: Int) { addGuideline(input: { scope: $s, name: $n, content: "c", priority: $p, importance: 0, tags: ["all-decay"] }) {
        ... on AddGuidelineSuccess { guideline { id } } } }`;
      const id = (await ok(h, null, doc, { s: p, n: `rule-${i}`, p: i === 5 ? null : i < 16 ? 90 + (i % 11) : (i * 41) % 101 })).addGuideline.guideline.id;
      await age(id, 24 * (50 + ((i * 37) % 300)), i % 4 === 0 ? 10 : 0);
    }
    const query = `query($s: ID!, $first: Int, $tags: MemoryTagFilter) { memoryQuery(input: { scope: $s, tags: $tags }, first: $first) {
      edges { score node { id } } meta { totalCount } } }`;
    for (const first of [1, 3, 8, 12, 20, 40]) {
      const page = (await ok(h, null, query, { s, first })).memoryQuery;
      const full = (await ok(h, null, query, { s, first, tags: { include: ['all-decay'] } })).memoryQuery;
      expect(page.edges.map((e: Edge) => e.node.id), `first ${first}`).toEqual(full.edges.map((e: Edge) => e.node.id));
      // Decay and recency move with the clock between the two queries (an episode at its half-life
      // loses ~6e-7 a second): 4 places hold on a loaded machine.
      page.edges.forEach((e: Edge, i: number) => expect(e.score + RELEVANCE_WEIGHTS.tags).toBeCloseTo(full.edges[i].score, 4));
    }
    // Slow procedures lead although thirty episodes changed after them; the often-read one first.
    const knowledgeFirst = (await ok(h, null, query, { s, first: 60 })).memoryQuery.edges
      .map((e: Edge) => e.node.id)
      .filter((id: string) => Buffer.from(id, 'base64').toString().startsWith('Knowledge:'));
    expect(knowledgeFirst.slice(0, 3)).toEqual([procedures[7], procedures[0], procedures[1]]);
  });
});
