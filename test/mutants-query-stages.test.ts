// Rules of the query engine's stages (src/modules/search/memory-query.*.ts) that mutation testing
// found unchecked in its fourth pass: a memory type's TTL counted from the query's instant, a
// text search that excludes several tags, tags no entry carries, pruning's bound on decay with a
// half-life policy in the chain, the text score of a pruned context whose best match is not among
// the most recent entries, and the plan's tag ids kept across queries. Each test builds the
// entries it needs.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });
const HOUR = 3_600_000;
let n = 0;
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

async function project(): Promise<string> {
  return (await m(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `mqs-${++n}` })).createProject
    .project.id;
}
async function knowledge(scope: string, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const d = await m(`mutation($i: AddKnowledgeInput!) { addKnowledge(input: $i) { __typename ... on AddKnowledgeSuccess { knowledge { id } } ... on UserError { message } } }`, {
    i: { scope, title, content: 'c', ...extra },
  });
  if (!d.addKnowledge.knowledge) throw new Error(JSON.stringify(d));
  return d.addKnowledge.knowledge.id;
}
/** Moves an entry's last change back in time (the clock of TTLs and decay). */
async function age(entry: string, ms: number): Promise<void> {
  await h.database.prisma.entry.update({ where: { id: dbId(entry) }, data: { updatedAt: new Date(Date.now() - ms) } });
}
const MQ = `query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 50) { edges { node { id } } } }`;
const ids = async (i: Record<string, unknown>) => ((await m(MQ, { i })).memoryQuery.edges as Array<{ node: { id: string } }>).map((e) => e.node.id).sort();

describe('the candidates of a query', () => {
  it("a memory type's TTL expires its entries that long after their last change, others stay", async () => {
    const p = await project();
    const young = await knowledge(p, 'young', { memoryType: 'EPISODIC' });
    const old = await knowledge(p, 'old', { memoryType: 'EPISODIC' });
    const otherType = await knowledge(p, 'other type', { memoryType: 'SEMANTIC' });
    await age(young, 47 * HOUR);
    await age(old, 49 * HOUR);
    await age(otherType, 49 * HOUR);
    const policy = await m(`mutation($s: ID!) { setMemoryPolicy(input: { scope: $s, memoryType: EPISODIC, ttlHours: 48 }) { __typename } }`, { s: p });
    expect(policy.setMemoryPolicy.__typename).toBe('SetMemoryPolicySuccess');
    expect(await ids({ scope: p, inherit: false })).toEqual([young, otherType].sort());
    expect(await ids({ scope: p, inherit: false, includeExpired: true })).toEqual([young, old, otherType].sort());
  });

  it('a text search leaves out the entries of every excluded tag', async () => {
    const p = await project();
    const [x, y, z] = [
      await knowledge(p, 'x', { content: 'walrus', tags: ['mqs-x'] }),
      await knowledge(p, 'y', { content: 'walrus', tags: ['mqs-y'] }),
      await knowledge(p, 'z', { content: 'walrus', tags: ['mqs-z'] }),
    ];
    expect(await ids({ scope: p, inherit: false, search: 'walrus' })).toEqual([x, y, z].sort());
    expect(await ids({ scope: p, inherit: false, search: 'walrus', tags: { exclude: ['mqs-x', 'mqs-y'] } })).toEqual([z]);
  });
});

describe('the ranking of a query', () => {
  it('include tags that no entry carries find nothing', async () => {
    const p = await project();
    await knowledge(p, 'untagged');
    expect(await ids({ scope: p, inherit: false, tags: { include: ['mqs-none-1', 'mqs-none-2'] } })).toEqual([]);
  });

  it("a first page holds an older, slower-decaying entry outside pruning's sample, with a half-life policy in the chain", async () => {
    // A page of one samples the 4 most recently changed entries of the scope: EPISODIC notes (168 h
    // half-life, three days old). The older PROCEDURAL note (1,440 h) outranks them all; only
    // pruning's bound on decay, which follows the longest half-life of the chain, lets it in.
    const p = await project();
    for (let i = 0; i < 5; i++) await age(await knowledge(p, `episode-${i}`, { memoryType: 'EPISODIC', importance: 0 }), (72 - i) * HOUR);
    const slow = await knowledge(p, 'slow', { memoryType: 'PROCEDURAL', importance: 0 });
    await age(slow, 96 * HOUR);
    const policy = await m(`mutation($s: ID!) { setMemoryPolicy(input: { scope: $s, memoryType: SEMANTIC, halfLifeHours: 10 }) { __typename } }`, { s: p });
    expect(policy.setMemoryPolicy.__typename).toBe('SetMemoryPolicySuccess');
    const first = (await m(`query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }, first: 1) { edges { node { id } } } }`, { s: p })).memoryQuery.edges;
    expect(first.map((e: { node: { id: string } }) => e.node.id)).toEqual([slow]);
  });

  it("a first page holds an entry changed more than 30 days ago, outside pruning's sample, that its importance and reads keep on top", async () => {
    // The sample of a page of one: the 4 most recently changed entries, EPISODIC notes five days
    // old (score 2 + recency 0.43 + decay 0.61). The note changed forty days ago, read often and
    // rated important, keeps most of its decay (0.87) and outranks them (2 + 0.21 + 0.87). Pruning
    // admits it by its age bound, whose recency term must stay positive past the 30 days of
    // recency's half-value (a bound that turned negative there cut the range at 30 days).
    const p = await project();
    for (let i = 0; i < 6; i++) await age(await knowledge(p, `recent-${i}`, { memoryType: 'EPISODIC', importance: 0 }), (5 * 24 - i) * HOUR);
    const old = await knowledge(p, 'old-but-valued', { memoryType: 'SEMANTIC', importance: 1 });
    await h.database.prisma.entry.update({ where: { id: dbId(old) }, data: { accessCount: 10 } });
    await age(old, 40 * 24 * HOUR);
    const first = (await m(`query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }, first: 1) { edges { node { id } } } }`, { s: p })).memoryQuery.edges;
    expect(first.map((e: { node: { id: string } }) => e.node.id)).toEqual([old]);
    const doc = parse(`query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }, first: 1) { edges { node { id } } } }`) as unknown as TypedDocumentNode<
      { memoryQuery: { edges: Array<{ node: { id: string } }> } },
      Record<string, unknown>
    >;
    expect((await exhaustive.ok(doc, { s: p })).memoryQuery.edges.map((e) => e.node.id)).toEqual([old]);
  });

  it("a first page holds a guideline outside pruning's sample whose priority band reaches the page at any age", async () => {
    // A page of one samples per scope the 4 highest-priority guidelines (priority 96, ten years
    // old: 2 + 1.44 + 0.10) and the 4 most recently changed entries (EPISODIC notes, three days
    // old: 2 + 1.19). The priority-95 guideline, ten days old, is in neither list and tops the page
    // (2 + 1.425 + 1.27). For its band (90-100) the need left after priority is below what any age
    // keeps (the decay floor), so the band has no age limit: a limit there would leave it out.
    const p = await project();
    const guideline = async (name: string, priority: number) => {
      const d = await m(`mutation($i: AddGuidelineInput!) { addGuideline(input: $i) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
        i: { scope: p, name, content: 'g', priority },
      });
      return d.addGuideline.guideline.id as string;
    };
    for (let i = 0; i < 4; i++) await age(await guideline(`old-96-${i}`, 96), 3650 * 24 * HOUR);
    const top = await guideline('ten-days-95', 95);
    await age(top, 10 * 24 * HOUR);
    for (let i = 0; i < 4; i++) await age(await knowledge(p, `fresh-${i}`, { memoryType: 'EPISODIC', importance: 0 }), (72 - i) * HOUR);
    const q = `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }, first: 1) { edges { node { id } } } }`;
    expect((await m(q, { s: p })).memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([top]);
    const doc = parse(q) as unknown as TypedDocumentNode<{ memoryQuery: { edges: Array<{ node: { id: string } }> } }, Record<string, unknown>>;
    expect((await exhaustive.ok(doc, { s: p })).memoryQuery.edges.map((e) => e.node.id)).toEqual([top]);
  });

  it("a first page holds a priority-100 guideline outside pruning's sample (the last band includes 100)", async () => {
    // As above with priority 100 throughout: four ten-year-old guidelines of priority 100 fill the
    // priority list (written after the one that tops the page, so an index read from the top takes
    // them first), four fresh notes the recency list. The ten-day-old priority-100 guideline tops
    // the page; only the band of priorities 90 to 100 can admit it.
    const p = await project();
    const guideline = async (name: string) => {
      const d = await m(`mutation($i: AddGuidelineInput!) { addGuideline(input: $i) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
        i: { scope: p, name, content: 'g', priority: 100 },
      });
      return d.addGuideline.guideline.id as string;
    };
    const top = await guideline('ten-days-100');
    await age(top, 10 * 24 * HOUR);
    for (let i = 0; i < 4; i++) await age(await guideline(`old-100-${i}`), 3650 * 24 * HOUR);
    for (let i = 0; i < 4; i++) await age(await knowledge(p, `fresh-${i}`, { memoryType: 'EPISODIC', importance: 0 }), (72 - i) * HOUR);
    const q = `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false }, first: 1) { edges { node { id } } } }`;
    expect((await m(q, { s: p })).memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([top]);
    const doc = parse(q) as unknown as TypedDocumentNode<{ memoryQuery: { edges: Array<{ node: { id: string } }> } }, Record<string, unknown>>;
    expect((await exhaustive.ok(doc, { s: p })).memoryQuery.edges.map((e) => e.node.id)).toEqual([top]);
  });
});

describe('the token budget of a pruned page', () => {
  const SMALL_HITS = parse(`query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 100) { edges { node { id } } meta { truncated } } }`) as unknown as TypedDocumentNode<
    { memoryQuery: { edges: Array<{ node: { id: string } }>; meta: { truncated: boolean } } },
    Record<string, unknown>
  >;
  /** A project of 90 compact notes of 13 tokens, and a query of it with a budget of 1,000 tokens. */
  async function smallNotes(): Promise<Record<string, unknown>> {
    const p = await project();
    for (let i = 0; i < 90; i++) await knowledge(p, `n${String(i).padStart(2, '0')}`, { importance: 0 });
    return { scope: p, inherit: false, tokenBudget: 1_000, compact: true };
  }
  /** The ranking statements since the last reset: a pruning sample, or another. */
  const samplesTaken = () => h.statements.filter((sql) => /^\s*WITH chain\(/.test(sql)).map((sql) => (sql.includes('sampled(id)') ? 'sample' : 'other'));

  it("a page cut by its token budget holds an entry outside pruning's sample that ranks just above the sample's first entry that does not fit", async () => {
    // A page of four samples the 10 most recently changed of 12 notes (importance 0, ~94 to ~106
    // hours old). The budget holds the two best of them and a smaller note, but not a third: so
    // the sample's first row that does not fit (the third) bounds the page. The older note X (300
    // hours, important, read often: 2 + 0.353 + 1) ranks between the second (3.3544) and the third
    // (3.3516) and is small enough to fit: it is the page's third hit. Bounding by the second
    // sampled row, the last that fits, would leave it out.
    const p = await project();
    const fillers: string[] = [];
    const ages = [94, 95, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106];
    for (const [i, hours] of ages.entries()) {
      const id = await knowledge(p, `filler-${String(i).padStart(2, '0')}`, { content: 'c'.repeat(40), importance: 0 });
      await age(id, (hours - 0.05) * HOUR);
      fillers.push(id);
    }
    const x = await knowledge(p, 'x', { content: 'c', importance: 1 });
    await h.database.prisma.entry.update({ where: { id: dbId(x) }, data: { accessCount: 10 } });
    await age(x, 300 * HOUR);
    type Page = { memoryQuery: { edges: Array<{ estimatedTokens: number; node: { id: string } }>; meta: { truncated: boolean } } };
    const q = parse(`query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 4) { edges { estimatedTokens node { id } } meta { truncated } } }`) as unknown as TypedDocumentNode<
      Page,
      Record<string, unknown>
    >;
    const all = (await exhaustive.ok(q, { i: { scope: p, inherit: false } })).memoryQuery.edges;
    expect(all.map((e) => e.node.id)).toEqual([fillers[0], fillers[1], x, fillers[2]]);
    const budget = all[0]!.estimatedTokens + all[1]!.estimatedTokens + all[2]!.estimatedTokens;
    // The fillers are bigger than X: without X the third filler would not fit either.
    expect(all[3]!.estimatedTokens).toBeGreaterThan(all[2]!.estimatedTokens);
    const i = { scope: p, inherit: false, tokenBudget: budget };
    const pruned = (await h.ok(q, { i })).memoryQuery;
    expect(pruned.edges.map((e) => e.node.id)).toEqual([fillers[0], fillers[1], x]);
    expect(pruned.meta.truncated).toBe(true);
    expect(pruned).toEqual((await exhaustive.ok(q, { i })).memoryQuery);
  });

  it("a sample sized by the token budget that is too small to bound the page is taken again whole, not given up for the full ranking", async () => {
    // 90 compact notes of 13 tokens, a budget of 1,000 tokens: the budget stops the page at the
    // 77th. This memory's hits so far took 24 tokens or more (none was compact), so the sample
    // lists are sized for at most ~42 hits: too few rows to reach the budget or fill the page.
    // The sample is taken again at the page's size (it then holds all 90): two samples, no full
    // ranking of the chain, and the page the exhaustive ranking gives.
    const i = await smallNotes();
    h.resetStatements();
    const pruned = (await h.ok(SMALL_HITS, { i })).memoryQuery;
    expect(samplesTaken()).toEqual(['sample', 'sample']);
    expect(pruned.edges).toHaveLength(76);
    expect(pruned.meta.truncated).toBe(true);
    expect(pruned).toEqual((await exhaustive.ok(SMALL_HITS, { i })).memoryQuery);
  });

  it('a memory whose hits are small is sampled once, after a few queries have shown their size', async () => {
    // The same memory of small notes as above: its budget cuts teach the size of its hits (13
    // tokens), and the lists grow to hold what the budget takes, so one sample settles the page.
    const i = await smallNotes();
    const expected = (await exhaustive.ok(SMALL_HITS, { i })).memoryQuery;
    const taken: number[] = [];
    for (let n = 0; n < 12; n++) {
      h.resetStatements();
      expect((await h.ok(SMALL_HITS, { i })).memoryQuery).toEqual(expected);
      taken.push(samplesTaken().length);
    }
    expect(taken[0]).toBe(2);
    expect(taken.at(-1)).toBe(1);
  });

  it('a page whose budget its first hits fill exactly is still truncated by the next entry, outside the sample or not', async () => {
    // Twelve notes, all important and read often, so that decay is 1 and pruning's bound is each
    // one's own score; a page of four samples the 10 most recent. The budget holds exactly the
    // first three: the fourth does not fit, so the page is truncated. Bounding the page by the
    // third (the last that fits) would rank nothing after it, and the page would end untruncated.
    const p = await project();
    const notes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await knowledge(p, `valued-${String(i).padStart(2, '0')}`, { content: 'c'.repeat(40), importance: 1 });
      await h.database.prisma.entry.update({ where: { id: dbId(id) }, data: { accessCount: 10 } });
      await age(id, (10 + i) * HOUR);
      notes.push(id);
    }
    type Page = { memoryQuery: { edges: Array<{ estimatedTokens: number; node: { id: string } }>; meta: { truncated: boolean } } };
    const q = parse(`query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 4) { edges { estimatedTokens node { id } } meta { truncated } } }`) as unknown as TypedDocumentNode<
      Page,
      Record<string, unknown>
    >;
    const all = (await exhaustive.ok(q, { i: { scope: p, inherit: false } })).memoryQuery.edges;
    const i = { scope: p, inherit: false, tokenBudget: all[0]!.estimatedTokens + all[1]!.estimatedTokens + all[2]!.estimatedTokens };
    const pruned = (await h.ok(q, { i })).memoryQuery;
    expect(pruned.edges.map((e) => e.node.id)).toEqual(notes.slice(0, 3));
    expect(pruned.meta.truncated).toBe(true);
    expect(pruned).toEqual((await exhaustive.ok(q, { i })).memoryQuery);
  });
});

describe('the text score of a pruned context', () => {
  it('is relative to the best match of the kinds asked for, though stronger matches of other kinds fill the sample', async () => {
    // A page of 100 samples 202 entries of each list. The 203 tools of the project and the 203
    // notes of another project match "zebra" best; of the project's notes, 110 weak matches related
    // to it (5 points each: they fill the page) and one older, stronger match, neither recent nor
    // related. The notes' text scores are relative to that stronger match, which the sample of best
    // matches must therefore hold.
    const p = await project();
    const elsewhere = await project();
    const entries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 203; i++) entries.push({ scope: p, kind: 'TOOL', name: `tool-${i}`, description: 'zebra zebra zebra zebra' });
    for (let i = 0; i < 110; i++) entries.push({ scope: p, kind: 'KNOWLEDGE', name: `related-${i}`, content: `plain words number ${i} zebra and more filler text here` });
    entries.push({ scope: p, kind: 'KNOWLEDGE', name: 'strong', content: 'zebra zebra and a few other words' });
    for (let i = 0; i < 95; i++) entries.push({ scope: p, kind: 'KNOWLEDGE', name: `filler-${i}`, content: 'nothing to see' });
    for (let i = 0; i < 203; i++) entries.push({ scope: elsewhere, kind: 'KNOWLEDGE', name: `elsewhere-${i}`, content: 'zebra zebra zebra zebra' });
    const imported = await m(`mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { ... on ImportEntriesSuccess { imported { entries { id } } } } }`, {
      e: entries,
    });
    const ids = (imported.importEntries.imported.entries as Array<{ id: string }>).map((e) => e.id);
    await age(ids[313]!, 240 * HOUR);
    for (const source of ids.slice(203, 313)) {
      await m(`mutation($i: CreateRelationInput!) { createRelation(input: $i) { __typename } }`, { i: { source, target: p, type: 'APPLIES_TO' } });
    }
    const CTX = `query($i: ContextInput!) { context(input: $i) { knowledge { score node { id } } } }`;
    const i = { scope: p, task: 'zebra', kinds: ['KNOWLEDGE'], tokenBudget: 1_000_000 };
    type Hit = { score: number; node: { id: string } };
    const plain = (await m(CTX, { i })).context.knowledge as Hit[];
    const doc = parse(CTX) as unknown as TypedDocumentNode<{ context: { knowledge: Hit[] } }, Record<string, unknown>>;
    const full = (await exhaustive.ok(doc, { i })).context.knowledge;
    expect(plain.map((e) => e.node.id)).toEqual(full.map((e) => e.node.id));
    plain.forEach((e, k) => expect(e.score).toBeCloseTo(full[k]!.score, 4));
  });
});

describe('the plan of a query', () => {
  it("keeps a tag's id once found, though a later query names a tag that does not exist", async () => {
    // Prisma's lookup: SELECT ... FROM `main`.`Tag` WHERE ... (SQLite), FROM "public"."Tag" (PostgreSQL).
    const tagLookups = () => h.statements.filter((sql) => /FROM\s+\S*Tag[`"]\s+WHERE/.test(sql)).length;
    const p = await project();
    const known = await knowledge(p, 'known', { tags: ['mqs-known'] });
    expect(await ids({ scope: p, inherit: false, tags: { include: ['mqs-known'] } })).toEqual([known]);
    expect(await ids({ scope: p, inherit: false, tags: { include: ['mqs-no-such-tag'] } })).toEqual([]);
    h.resetStatements();
    expect(await ids({ scope: p, inherit: false, tags: { include: ['mqs-known'] } })).toEqual([known]);
    expect(tagLookups()).toBe(0);
  });
});
