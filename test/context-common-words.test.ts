import { beforeAll, describe, expect, it, vi } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness, useVariant } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { COMMON_MIN_ENTRIES, COMMON_SHARE } from '../src/modules/search/memory-query.terms.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

const Import = graphql(`
  mutation CommonImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
`);
const Ctx = graphql(`
  query CommonContext($input: ContextInput!) {
    context(input: $input) { knowledge { score breakdown { text } node { id name } } }
  }
`);

// The smallest memory the rule applies to: one note fewer and every word would count.
const N = COMMON_MIN_ENTRIES;
/** How many notes make a word common: more than COMMON_SHARE of them. */
const CUTOFF = Math.floor(N * COMMON_SHARE) + 1;
let project = '';

beforeAll(async () => {
  project = await createProject(h, 'common-words');
  // Every note has "usual"; one in 100 has "zebra" (well under COMMON_SHARE); one in 4 has "often".
  // At the cutoff: "kiwi" in one note fewer than CUTOFF (rare), "lime" in exactly CUTOFF (common);
  // a few notes with and without each carry a tag of their own, to ask about them alone.
  const notes = Array.from({ length: N }, (_, i) => ({
    scope: project,
    kind: 'KNOWLEDGE' as const,
    name: `note-${i}`,
    content: `usual note ${i % 4 === 0 ? 'often' : ''} ${i % 100 === 0 ? 'zebra' : ''} ${i < CUTOFF - 1 ? 'kiwi' : ''} ${i >= N - CUTOFF ? 'lime' : ''}`,
    tags: [...(Math.abs(i - (CUTOFF - 1)) <= 5 ? ['near-kiwi'] : []), ...(Math.abs(i - (N - CUTOFF)) <= 5 ? ['near-lime'] : [])],
  }));
  await h.ok(Import, { entries: notes });
  expect(1 / 4).toBeGreaterThan(COMMON_SHARE);
});

const ask = (task: string, via = h, tags: { include?: string[] } = {}) =>
  via.ok(Ctx, { input: { scope: project, task, kinds: ['KNOWLEDGE'], tokenBudget: 1_000_000, tags } });
/** The notes of a tag with a text score, and those without. */
const textScored = async (task: string, tag: string) => {
  const { knowledge } = (await ask(task, h, { include: [tag] })).context;
  expect(knowledge).toHaveLength(11);
  const names = (scored: boolean) => knowledge.filter((e) => e.breakdown.text > 0 === scored).map((e) => Number(e.node.name.slice(5))).sort((a, b) => a - b);
  return { scored: names(true), unscored: names(false) };
};

describe('context leaves common words out of the text score when the task has a rarer one', () => {
  it('scores only the rare word: notes with just the common words get no text score', async () => {
    const { knowledge } = (await ask('usual often zebra')).context;
    const zebras = knowledge.filter((e) => Number(e.node.name.slice(5)) % 100 === 0);
    expect(zebras).toHaveLength(N / 100);
    expect(knowledge.slice(0, zebras.length).map((e) => e.node.name).sort()).toEqual(zebras.map((e) => e.node.name).sort());
    for (const e of zebras) expect(e.breakdown.text, e.node.name).toBeGreaterThan(0);
    // "often" and "usual" would each raise these notes' text score were they counted.
    const others = knowledge.filter((e) => Number(e.node.name.slice(5)) % 100 !== 0);
    expect(others.length).toBeGreaterThan(0);
    for (const e of others) expect(e.breakdown.text, e.node.name).toBe(0);
  });

  it('keeps common words when the task has nothing rarer', async () => {
    const { knowledge } = (await ask('usual often')).context;
    expect(knowledge.length).toBeGreaterThan(0);
    // The notes with both words score highest, each with a text score.
    for (const e of knowledge.slice(0, 10)) {
      expect(Number(e.node.name.slice(5)) % 4, e.node.name).toBe(0);
      expect(e.breakdown.text).toBeGreaterThan(0);
    }
  });

  it('ranks as the exhaustive ranking does', async () => {
    for (const task of ['usual often zebra', 'usual often', 'zebra']) {
      const plain = (await ask(task)).context.knowledge;
      const full = (await ask(task, exhaustive as typeof h)).context.knowledge;
      expect(plain.map((e) => e.node.id), task).toEqual(full.map((e) => e.node.id));
      plain.forEach((e, i) => expect(e.score, task).toBeCloseTo(full[i]!.score, 4));
    }
  });

  it('a word in one note fewer than the cutoff is rare, in as many notes as the cutoff common, also in a task of two words', async () => {
    const around = (from: number) => Array.from({ length: 11 }, (_, i) => from - 5 + i);
    // "kiwi" is rare: "usual" (every note) is left out, so only the kiwi notes score.
    const kiwi = around(CUTOFF - 1);
    expect(await textScored('usual kiwi', 'near-kiwi')).toEqual({ scored: kiwi.filter((i) => i < CUTOFF - 1), unscored: kiwi.filter((i) => i >= CUTOFF - 1) });
    // "lime" is common beside the rare "zebra" (in none of these notes): nothing scores.
    const lime = around(N - CUTOFF);
    expect(await textScored('lime zebra', 'near-lime')).toEqual({ scored: [], unscored: lime });
    // Alone, or beside other common words, it counts.
    expect((await textScored('lime usual', 'near-lime')).unscored).toEqual([]);
  });

  it("counts a task's new words in one statement, and words counted lately not again", async () => {
    const counts = () => h.statements.filter((sql) => /AS "?df0"?/.test(sql));
    h.resetStatements();
    await ask('usual quince fig date');
    expect(counts()).toHaveLength(1);
    // "usual" was counted by the tests above: the three new words only.
    expect(counts()[0]).toMatch(/AS "?df2"?/);
    expect(counts()[0]).not.toMatch(/AS "?df3"?/);
    h.resetStatements();
    await ask('usual quince fig date plum');
    // Only "plum" is new.
    expect(counts()).toHaveLength(1);
    expect(counts()[0]).not.toMatch(/AS "?df1"?/);
  });

  it('waits for a word never counted, and ranks on the last counts while words are counted again, again when a word changed', async () => {
    const rankings = () => h.statements.filter((sql) => sql.includes('matches("entryId", rank')).length;
    const counts = () => h.statements.filter((sql) => /AS "?df0"?/.test(sql)).length;
    const samples = () => h.statements.filter((sql) => sql.includes('pg_stats')).length;
    const asked = async (task: string) => {
      h.resetStatements();
      const page = (await ask(task, exhaustive as typeof h)).context.knowledge;
      return { page: page.map((e) => [e.node.name, e.breakdown.text]), rankings: rankings(), counts: counts(), samples: samples() };
    };
    // "note" (in every note) was never counted: it is counted first (or, on PostgreSQL once
    // autovacuum has sampled the table, guessed common from the sample: see the test below), then
    // the page ranked once (the exhaustive ranking: one statement), without it.
    const first = await asked('note zebra');
    expect(first).toMatchObject({ rankings: 1, counts: 1 });
    expect(first.page.filter(([, text]) => Number(text) > 0).map(([name]) => Number(String(name).slice(5)) % 100)).toEqual(Array(N / 100).fill(0));
    // "mango" is in no note: counted, not common. Then it turns common (in far more notes than the
    // cutoff), and a minute later, counted no longer: ranked on its last count (not common), then
    // again without it once counted. The page is the one the counted words give.
    expect(await asked('mango zebra')).toMatchObject({ rankings: 1, counts: 1 });
    await h.ok(Import, { entries: Array.from({ length: 200 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE' as const, name: `mango-${i}`, content: 'mango' })) });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const guessed = await asked('mango zebra');
      // On PostgreSQL the ranking statement counts the words it ranks on: none is counted apart.
      // Every word had a count: no guess from PostgreSQL's sample is asked for.
      expect(guessed).toMatchObject({ rankings: 2, counts: DB_KIND === 'postgresql' ? 0 : 1, samples: 0 });
      const counted = await asked('mango zebra');
      expect(counted).toMatchObject({ rankings: 1, counts: 0 });
      expect(guessed.page).toEqual(counted.page);
      expect(counted.page.filter(([, text]) => Number(text) > 0).map(([name]) => Number(String(name).slice(5)) % 100)).toEqual(Array(N / 100).fill(0));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.runIf(DB_KIND === 'postgresql')("a word never counted, guessed from PostgreSQL's sample of the indexed words", () => {
  const statements = (test: (sql: string) => boolean) => h.statements.filter(test).length;
  const asked = async (task: string) => {
    h.resetStatements();
    const page = (await ask(task, exhaustive as typeof h)).context.knowledge;
    return {
      page: page.map((e) => [e.node.name, e.breakdown.text]),
      rankings: statements((sql) => sql.includes('matches("entryId", rank')),
      counts: statements((sql) => /AS "?df0"?/.test(sql)),
      samples: statements((sql) => sql.includes('pg_stats')),
    };
  };
  const scoredNames = (page: Array<Array<string | number>>) => page.filter(([, text]) => Number(text) > 0).map(([name]) => String(name));
  const notes = (word: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE' as const, name: `${word}-${i}`, content: word }));
  const sql = (statement: string) => h.database.prisma.$executeRawUnsafe(statement);

  it('ranks at once on the guess while the words are counted, and again where the count disagrees', async () => {
    // Sampled: "guava" and "guavajam", each in 150 of the 1,500 notes then (the test above added
    // 200): under the cutoff each, above it together, as the prefix "guava" is. After the sample,
    // "melon" in 300 more: common as well (300 of 1,800 against a cutoff of 226), and not sampled.
    // Autovacuum would sample again: not meanwhile.
    await h.ok(Import, { entries: [...notes('guava', 150), ...notes('guavajam', 150)] });
    await sql('ANALYZE "EntrySearch"');
    await sql('ALTER TABLE "EntrySearch" SET (autovacuum_enabled = false)');
    await h.ok(Import, { entries: notes('melon', 300) });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Past every count of the tests above (one of them moved the clock on a minute): the sample
      // and the memory's size are read again.
      vi.setSystemTime(Date.now() + 181_000);
      // Guessed common and counted common (apart, as it is not ranked on): ranked once, without
      // it (the zebra notes alone score).
      const guava = await asked('guava zebra');
      expect(guava).toMatchObject({ rankings: 1, counts: 1, samples: 1 });
      expect(scoredNames(guava.page).map((name) => Number(name.slice(5)) % 100)).toEqual(Array(N / 100).fill(0));
      // Guessed rare, and found common by the ranking statement itself, which counted its matches
      // (no statement apart): ranked with it, then again without; the page is the counted one.
      const melon = await asked('melon zebra');
      expect(melon).toMatchObject({ rankings: 2, counts: 0, samples: 0 });
      const counted = await asked('melon zebra');
      expect(counted).toMatchObject({ rankings: 1, counts: 0 });
      expect(melon.page).toEqual(counted.page);
      expect(scoredNames(counted.page).every((name) => name.startsWith('note-'))).toBe(true);
      // Guessed rare and found rare: no statement counts it, then or in the next minute.
      expect(await asked('papaya zebra')).toMatchObject({ rankings: 1, counts: 0, samples: 0 });
      expect(await asked('papaya zebra')).toMatchObject({ rankings: 1, counts: 0 });
      // The same through the pruned ranking, of a shape not asked before (two kinds): its first
      // statement ranks a sample and hands its matches on to the second, which does not match again.
      const twoKinds = (via: typeof h) =>
        via.ok(Ctx, { input: { scope: project, task: 'quince zebra', kinds: ['KNOWLEDGE', 'TOOL'], tokenBudget: 1_000_000 } });
      h.resetStatements();
      const pruned = (await twoKinds(h)).context.knowledge;
      expect(statements((sql) => /AS "?df0"?/.test(sql))).toBe(0);
      expect(statements((sql) => sql.includes('matches("entryId", rank'))).toBe(2);
      expect(pruned.map((e) => e.node.id)).toEqual((await twoKinds(exhaustive as typeof h)).context.knowledge.map((e) => e.node.id));
      // Tags that leave nothing: no ranking statement, so the words are counted apart.
      h.resetStatements();
      expect((await ask('lychee zebra', h, { include: ['no-such-tag'] })).context.knowledge).toEqual([]);
      expect(statements((sql) => /AS "?df0"?/.test(sql))).toBe(1);
      // In exactly as many notes as the cutoff (258 of 2,058, counted a minute on): common, as counted.
      await h.ok(Import, { entries: notes('plum', 258) });
      vi.setSystemTime(Date.now() + 61_000);
      expect(await asked('plum zebra')).toMatchObject({ rankings: 2, counts: 0 });
    } finally {
      vi.useRealTimers();
      await sql('ALTER TABLE "EntrySearch" RESET (autovacuum_enabled)');
    }
  });
});

