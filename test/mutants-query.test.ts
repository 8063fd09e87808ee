// Rules of the query engine's stages (src/modules/search/memory-query.*.ts) that mutation testing
// found unchecked. Most of them are shortcuts (pruning, starting from tags, relations or text
// matches, common words): each is checked against the same database ranked with no shortcut
// (EXHAUSTIVE_RANKING), over a memory whose entries differ in every input of the score (age,
// priority, tags, memory type, category, reads, importance, relations, text) so that a shortcut
// that drops or misorders a single entry changes a page.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { rankExtension } from '../src/infra/sqlite-rank-extension.ts';
import { useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

type Doc = TypedDocumentNode<Record<string, any>, Record<string, unknown>>;
const doc = (text: string) => parse(text) as unknown as Doc;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const HOUR = 3_600_000;

const MQ = doc(`query MutQuery($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) {
  edges { cursor score node { id } } pageInfo { hasNextPage endCursor } meta { totalCount returnedCount hasMore } } }`);
const MQ_NO_TOTAL = doc(`query MutQueryNoTotal($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) {
  edges { cursor score node { id } } pageInfo { hasNextPage endCursor } } }`);
const CTX = doc(`query MutContext($i: ContextInput!) { context(input: $i) {
  guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } truncated } }`);

/** A deterministic pseudo-random sequence (the memory is the same on every run and database). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const scopes = { global: '', org: '', project: '', session: '', skewProject: '', skewSession: '' };
const entryIds: string[] = [];
let hub = '';

beforeAll(async () => {
  scopes.global = (await h.ok(doc(`query MutGlobal { globalScope { id } }`))).globalScope.id;
  scopes.org = (await h.ok(doc(`mutation MutOrg { createOrganization(input: { name: "mut-query-org" }) { ... on CreateOrganizationSuccess { organization { id } } } }`)))
    .createOrganization.organization.id;
  scopes.project = (
    await h.ok(doc(`mutation MutProject($o: ID!) { createProject(input: { name: "mut-query", organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`), {
      o: scopes.org,
    })
  ).createProject.project.id;
  scopes.session = (
    await h.ok(doc(`mutation MutSession($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`), { p: scopes.project })
  ).startSession.session.id;
  const rnd = random(11);
  const pick = <T>(values: readonly T[]) => values[Math.floor(rnd() * values.length)]!;
  const words = ['amber', 'basil', 'cedar', 'dune', 'ember'];
  const tagSets = [[], ['red'], ['green'], ['blue'], ['red', 'green'], ['red', 'blue'], ['green', 'blue'], ['red', 'green', 'blue']];
  const categories = [null, 'conversation', 'decision', 'finding', 'preference'];
  const entries: Array<Record<string, unknown>> = [];
  const sizes: Array<['global' | 'org' | 'project' | 'session', number]> = [['global', 14], ['org', 24], ['project', 80], ['session', 36]];
  for (const [scope, n] of sizes) {
    for (let i = 0; i < n; i++) {
      const kind = pick(['GUIDELINE', 'GUIDELINE', 'TOOL', 'KNOWLEDGE'] as const);
      // A few names repeat across scopes: the nearer entry overrides the farther one.
      const name = i % 6 === 0 && i < 12 ? `shared-${kind}-${i}` : `${scope}-${i}`;
      const text = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => pick(words)).join(' ') + ' filler'.repeat(Math.floor(rnd() * 8));
      entries.push({
        scope: scopes[scope],
        kind,
        name,
        ...(kind === 'GUIDELINE'
          ? { content: text, priority: rnd() < 0.1 ? null : Math.floor(rnd() * 101), memoryType: pick(['PROCEDURAL', 'SEMANTIC', 'EPISODIC']) }
          : kind === 'TOOL'
            ? { description: text }
            : { content: text, memoryType: pick(['SEMANTIC', 'EPISODIC', 'PROCEDURAL']), category: pick(categories) }),
        importance: pick([0, 0.5, 1]),
        tags: pick(tagSets),
      });
    }
  }
  const imported = await h.ok(
    doc(`mutation MutImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) {
      __typename ... on ImportEntriesSuccess { imported { entries { id } } } ... on UserError { message } } }`),
    { e: entries },
  );
  expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
  entryIds.push(...imported.importEntries.imported.entries.map((e: { id: string }) => e.id));
  // Ages from an hour to half a year apart, distinct, and reads from none to past the cap.
  await h.database.prisma.$transaction(
    entryIds.map((id) =>
      h.database.prisma.entry.update({
        where: { id: dbId(id) },
        data: { updatedAt: new Date(Date.now() - (1 + rnd() * 4_000) * HOUR), accessCount: pick([0, 0, 2, 10, 30]) },
      }),
    ),
  );
  const relate = (source: string, target: string, type: string) =>
    h.ok(doc(`mutation MutRelate($i: CreateRelationInput!) { createRelation(input: $i) { __typename } }`), { i: { source, target, type } });
  hub = entryIds[7]!;
  for (const i of [3, 19, 40, 77]) await relate(entryIds[i]!, scopes.project, 'APPLIES_TO');
  await relate(entryIds[90]!, scopes.org, 'APPLIES_TO');
  for (const i of [1, 11, 23, 58, 101]) await relate(entryIds[i]!, hub, i % 2 ? 'RELATED_TO' : 'DEPENDS_ON');
  await relate(hub, entryIds[130]!, 'DEPENDS_ON');
  // A half-life longer than any default: pruning's bound on decay must follow it.
  await h.ok(doc(`mutation MutPolicy($s: ID!) { setMemoryPolicy(input: { scope: $s, memoryType: EPISODIC, halfLifeHours: 20000 }) { __typename } }`), {
    s: scopes.project,
  });
  for (const i of [5, 33, 61]) await h.ok(doc(`mutation MutDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`), { id: entryIds[i] });

  // A second chain where the order of last change disagrees with the rest of the score: the most
  // recent entries of each scope carry one tag, decay fast and have low priorities; older ones
  // carry every tag, decay slowly (long half-lives, reads, importance), and guidelines sit at the
  // edges of pruning's priority bands. Pruning's sample (the most recent entries of each scope,
  // its top-priority guidelines) then misses entries of the page, which its bounds must let in.
  scopes.skewProject = (
    await h.ok(doc(`mutation MutSkew { createProject(input: { name: "mut-query-skew" }) { ... on CreateProjectSuccess { project { id } } } }`))
  ).createProject.project.id;
  scopes.skewSession = (
    await h.ok(doc(`mutation MutSkewSession($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`), {
      p: scopes.skewProject,
    })
  ).startSession.session.id;
  const skew: Array<Record<string, unknown>> = [];
  const skewAges: number[] = [];
  const bandEdges = [null, 0, 9, 10, 19, 20, 49, 50, 51, 79, 80, 89, 90, 99, 100];
  for (const [scope, n] of [['skewProject', 48], ['skewSession', 20]] as const) {
    for (let i = 0; i < n; i++) {
      const recent = i % 3 !== 0;
      const kind = (['GUIDELINE', 'TOOL', 'KNOWLEDGE'] as const)[i % 3 === 0 ? Math.floor(i / 3) % 3 : i % 3]!;
      skew.push({
        scope: scopes[scope],
        kind,
        name: `skew-${scope}-${i}`,
        ...(kind === 'GUIDELINE'
          ? { content: 'skew rule', priority: recent ? i % 10 : bandEdges[Math.floor(i / 3) % bandEdges.length], memoryType: recent ? 'EPISODIC' : 'PROCEDURAL' }
          : kind === 'TOOL'
            ? { description: 'skew tool' }
            : { content: 'skew fact', memoryType: recent ? 'EPISODIC' : 'SEMANTIC', category: recent ? 'conversation' : 'preference' }),
        importance: recent ? 0 : 1,
        tags: recent ? ['red'] : ['red', 'green', 'blue'],
      });
      // Recent: within two days; older: 3 to 300 days, spread.
      skewAges.push(recent ? 1 + rnd() * 47 : 72 + ((i * 977) % 7_128));
    }
  }
  const skewed = await h.ok(
    doc(`mutation MutSkewImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) {
      __typename ... on ImportEntriesSuccess { imported { entries { id } } } ... on UserError { message } } }`),
    { e: skew },
  );
  expect(skewed.importEntries.__typename).toBe('ImportEntriesSuccess');
  const skewIds = skewed.importEntries.imported.entries.map((e: { id: string }) => e.id) as string[];
  await h.database.prisma.$transaction(
    skewIds.map((id, i) =>
      h.database.prisma.entry.update({
        where: { id: dbId(id) },
        data: { updatedAt: new Date(Date.now() - skewAges[i]! * HOUR), accessCount: skewAges[i]! > 48 ? 10 + (i % 3) : 0 },
      }),
    ),
  );
}, 120_000);

type Edge = { score: number; node: { id: string } };
/** Ids in order, and scores to 4 places (recency moves ~2e-7 a second between the two queries). */
function same(a: Edge[], b: Edge[], label: string): void {
  expect(a.map((e) => e.node.id), label).toEqual(b.map((e) => e.node.id));
  a.forEach((e, i) => expect(e.score, label).toBeCloseTo(b[i]!.score, 4));
}

describe('the query engine against the exhaustive ranking', () => {
  it('every query shape gives the first pages and totals the exhaustive ranking gives, over a memory of every age', async () => {
    const { session, project } = scopes;
    const shapes: Array<Record<string, unknown>> = [
      { scope: session },
      { scope: session, kinds: ['GUIDELINE'] },
      { scope: session, kinds: ['TOOL', 'KNOWLEDGE'] },
      { scope: session, kinds: ['KNOWLEDGE'], memoryTypes: ['EPISODIC'] },
      { scope: session, tags: { include: ['red', 'blue'] } },
      { scope: session, tags: { include: ['green'] } },
      { scope: session, tags: { exclude: ['red'] } },
      { scope: session, tags: { require: ['red', 'green'] } },
      // The tag set operations: INTERSECT the required, EXCEPT the excluded.
      { scope: session, tags: { require: ['red', 'green'], exclude: ['blue'] } },
      { scope: session, tags: { include: ['red', 'blue'], require: ['green'], exclude: ['amber'] } },
      { scope: session, tags: { include: ['green'], exclude: ['red', 'blue'] } },
      { scope: session, tags: { require: ['red', 'no-such-tag'] } },
      { scope: session, includeInactive: true, includeOverridden: true },
      { scope: project, inherit: false },
      { scope: session, relatedTo: hub },
      { scope: session, relatedTo: project },
      { scope: session, search: 'amber' },
      { scope: session, search: 'basil cedar', tags: { include: ['red', 'green'] } },
      { scope: scopes.skewSession },
      { scope: scopes.skewSession, kinds: ['GUIDELINE'] },
      { scope: scopes.skewSession, kinds: ['TOOL', 'KNOWLEDGE'] },
      { scope: scopes.skewSession, tags: { include: ['red', 'green', 'blue'] } },
      { scope: scopes.skewSession, tags: { include: ['blue'] } },
      { scope: scopes.skewSession, tags: { require: ['blue'] } },
      { scope: scopes.skewSession, tags: { require: ['blue'], exclude: ['red'] } },
      { scope: scopes.skewSession, tags: { include: ['red', 'green', 'blue'], exclude: ['green'] }, kinds: ['TOOL', 'KNOWLEDGE'] },
      { scope: scopes.skewSession, tags: { include: ['red', 'green', 'blue'] }, kinds: ['GUIDELINE'] },
      { scope: scopes.skewProject, inherit: false, kinds: ['GUIDELINE', 'KNOWLEDGE'] },
    ];
    for (const i of shapes) {
      for (const first of [1, 4, 9, 15]) {
        const label = JSON.stringify({ i, first });
        const full = (await exhaustive.ok(MQ, { i, first })).memoryQuery;
        const page = (await h.ok(MQ, { i, first })).memoryQuery;
        same(page.edges, full.edges, label);
        expect(page.meta, label).toEqual(full.meta);
        same((await h.ok(MQ_NO_TOTAL, { i, first })).memoryQuery.edges, full.edges, `${label} without the total`);
      }
    }
  });

  it('context ranks every task as the exhaustive ranking does, with and without tags', async () => {
    for (const task of ['amber', 'basil ember', 'nothing matches this']) {
      for (const tags of [{}, { include: ['blue'] }, { exclude: ['green'] }]) {
        for (const tokenBudget of [150, 1_500]) {
          const i = { scope: scopes.session, task, tags, tokenBudget };
          const plain = (await h.ok(CTX, { i })).context;
          const full = (await exhaustive.ok(CTX, { i })).context;
          for (const kind of ['guidelines', 'tools', 'knowledge'] as const) same(plain[kind], full[kind], `${JSON.stringify(i)} ${kind}`);
          expect(plain.truncated).toBe(full.truncated);
        }
      }
    }
  });

  it('paging with cursors walks the exhaustive ranking, page after page, without a gap or a repeat', async () => {
    for (const i of [{ scope: scopes.session }, { scope: scopes.session, tags: { include: ['red'] } }, { scope: scopes.session, search: 'cedar' }]) {
      const full = (await exhaustive.ok(MQ, { i, first: 100 })).memoryQuery;
      const walked: Edge[] = [];
      let after: string | null = null;
      for (let n = 0; n < 100; n++) {
        const page: Record<string, any> = (await h.ok(MQ_NO_TOTAL, { i, first: 7, after })).memoryQuery;
        walked.push(...page.edges);
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(walked, JSON.stringify(i)).toHaveLength(full.meta.totalCount);
      same(walked.slice(0, 100), full.edges, JSON.stringify(i));
    }
  });

  it('context counts every word of its task in a memory of fewer than a thousand entries, common or not', async () => {
    // "filler" is in most entries here and "quincunx" in none: in a larger memory "filler" would
    // be left out of the text score; in this one it still raises the entries that have it.
    const TEXT = doc(`query MutContextText($i: ContextInput!) { context(input: $i) { tools { breakdown { text } } knowledge { breakdown { text } } } }`);
    const { context } = await h.ok(TEXT, { i: { scope: scopes.session, task: 'filler quincunx', kinds: ['TOOL', 'KNOWLEDGE'], tokenBudget: 100_000 } });
    const texts = [...context.tools, ...context.knowledge].map((e: { breakdown: { text: number } }) => e.breakdown.text);
    expect(texts.filter((t) => t > 0).length).toBeGreaterThan(10);
  });

  it('a learnt bound that no longer holds is given up: the page is still the exhaustive ranking, at the cost of one statement', async () => {
    const i = { scope: scopes.skewSession, kinds: ['GUIDELINE', 'TOOL'] };
    const first = 3;
    const statements = async () => {
      h.resetStatements();
      const page = (await h.ok(MQ_NO_TOTAL, { i, first })).memoryQuery.edges as Edge[];
      const kinds = h.statements
        .filter((sql) => /^\s*WITH chain\(/.test(sql))
        .map((sql) => (sql.includes('sampled(id)') ? 'sample' : sql.includes('kept(id) AS (VALUES') ? 'kept' : 'guess'));
      return { page, kinds };
    };
    const full = async () => (await exhaustive.ok(MQ_NO_TOTAL, { i, first: 40 })).memoryQuery.edges as Edge[];
    // Learnt, then used.
    expect((await statements()).kinds).toEqual(['sample', 'kept']);
    const guessed = await statements();
    expect(guessed.kinds).toEqual(['guess']);
    const before = await full();
    same(guessed.page, before.slice(0, first), 'the guess');
    // The best ten leave: the page's bounding row now scores well below what was learnt.
    const gone = before.slice(0, 10).map((e) => e.node.id);
    const setActive = (id: string, active: boolean) =>
      h.ok(doc(`mutation MutActive($id: ID!) { ${active ? 'reactivateEntry' : 'deactivateEntry'}(input: { id: $id }) { __typename } }`), { id });
    try {
      for (const id of gone) await setActive(id, false);
      const after = await full();
      // (The bound is the page's L-th row: the row after the page.)
      expect(after[first]!.score).toBeLessThan(before[first]!.score - 0.1);
      const given = await statements();
      expect(given.kinds).toEqual(['guess', 'sample', 'kept']);
      same(given.page, after.slice(0, first), 'after the guess failed');
    } finally {
      for (const id of gone) await setActive(id, true);
    }
  });

  it("when the best text match that passes the filters is not among the strongest matches, neither pruning's sample nor a learnt bound decides the page", async () => {
    // 210 strong matches of a memory type the task leaves out, then weaker ones it asks for: the
    // guess's statement cannot tell which passing match is the best (the text scores of the
    // high-priority guidelines on the page are relative to it), so pruning decides, and the page
    // is the exhaustive ranking's.
    const project = (await h.ok(doc(`mutation MutZebra { createProject(input: { name: "mut-query-zebra" }) { ... on CreateProjectSuccess { project { id } } } }`)))
      .createProject.project.id;
    const entries = [
      ...Array.from({ length: 210 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE', name: `strong-${i}`, content: 'zebra zebra zebra', memoryType: 'SEMANTIC' })),
      ...Array.from({ length: 30 }, (_, i) => ({
        scope: project,
        kind: 'GUIDELINE',
        name: `weak-${i}`,
        content: `zebra ${'filler '.repeat(1 + (i % 7))}`,
        priority: 100,
        memoryType: 'EPISODIC',
      })),
      // As high a priority without the word: the page's budget ends among them.
      ...Array.from({ length: 40 }, (_, i) => ({ scope: project, kind: 'GUIDELINE', name: `plain-${i}`, content: 'filler', priority: 100, memoryType: 'EPISODIC' })),
      // The best match the task asks for, a year old: too old for the page, yet every text score
      // on the page is relative to it. Its fillers keep it below the strong matches on PostgreSQL
      // too, whose rank divides by the document's length (once "old-best" was two words, not three,
      // it ranked above them).
      { scope: project, kind: 'KNOWLEDGE', name: 'old-best', content: 'zebra zebra filler filler', memoryType: 'EPISODIC' },
    ];
    const imported = await h.ok(
      doc(`mutation MutZebraImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) {
        __typename ... on ImportEntriesSuccess { imported { entries { id } } } } }`),
      { e: entries },
    );
    expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    const oldBest = imported.importEntries.imported.entries.at(-1).id as string;
    await h.database.prisma.entry.update({ where: { id: dbId(oldBest) }, data: { updatedAt: new Date(Date.now() - 365 * 24 * HOUR) } });
    const i = { scope: project, task: 'zebra', memoryTypes: ['EPISODIC'], tokenBudget: 1_500 };
    const asked: string[][] = [];
    for (let n = 0; n < 3; n++) {
      h.resetStatements();
      const plain = (await h.ok(CTX, { i })).context;
      asked.push(
        h.statements
          .filter((sql) => /^\s*WITH chain\(/.test(sql))
          .map((sql) => (sql.includes('sampled(id)') ? 'sample' : sql.includes('kept(id) AS (VALUES') ? 'kept' : sql.includes('picked(id') ? 'guess' : 'full')),
      );
      const full = (await exhaustive.ok(CTX, { i })).context;
      same(plain.guidelines, full.guidelines, `ask ${n}`);
      expect(plain.guidelines.length).toBeGreaterThan(0);
    }
    // Pruning's sample cannot tell either (none of its best matches passes): the full ranking
    // decides each time, and teaches the shape's bound, which each guess then gives up. (Where
    // SQLite's extension ranks only the best hits, the first guess checks the best 16, then the
    // best 2 L at once: neither holds the best match that passes.)
    const narrowFirst = h.database.provider === 'sqlite' && rankExtension() !== null ? ['guess'] : [];
    expect(asked).toEqual([['sample', 'full'], [...narrowFirst, 'guess', 'sample', 'full'], ['guess', 'sample', 'full']]);
  });

  it("a tag asked for the first time takes its family's bound; a tag that settles no bound then takes none", async () => {
    const project = (await h.ok(doc(`mutation MutFamily { createProject(input: { name: "mut-query-family" }) { ... on CreateProjectSuccess { project { id } } } }`)))
      .createProject.project.id;
    const entries = [
      ...Array.from({ length: 40 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE', name: `wide-${i}`, content: 'family fact', tags: ['wide'] })),
      ...Array.from({ length: 3 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE', name: `narrow-${i}`, content: 'family fact', tags: ['narrow'] })),
    ];
    const imported = await h.ok(
      doc(`mutation MutFamilyImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`),
      { e: entries },
    );
    expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    const ask = async (tag: string) => {
      const i = { scope: project, tags: { include: [tag] } };
      h.resetStatements();
      const edges = (await h.ok(MQ_NO_TOTAL, { i, first: 6 })).memoryQuery.edges as Edge[];
      const kinds = h.statements
        .filter((sql) => /^\s*WITH chain\(/.test(sql))
        .map((sql) => (sql.includes('sampled(id)') ? 'sample' : sql.includes('kept(id) AS (VALUES') ? 'kept' : sql.includes('picked(id') ? 'guess' : 'full'));
      same(edges, (await exhaustive.ok(MQ_NO_TOTAL, { i, first: 6 })).memoryQuery.edges, tag);
      return kinds;
    };
    expect(await ask('wide')).toEqual(['sample', 'kept']);
    // Three entries cannot reach the bound the family learnt from forty: the guess fails, and so
    // does pruning (the page's bounding row is not there), which leaves the tag no bound. Asked
    // again, it pays for no guess.
    expect(await ask('narrow')).toEqual(['guess', 'sample', 'full']);
    expect(await ask('narrow')).toEqual(['sample', 'full']);
  });

  it('each query shape starts reading where the README says, and counts only when the total is asked for', async () => {
    // The shortcuts change no answer (the tests above), only what is read: the statements show it.
    const kinds = (run: () => Promise<unknown>) => async () => {
      h.resetStatements();
      await run();
      return h.statements
        .filter((sql) => /^\s*(WITH chain\(|SELECT \(\(?SELECT (COUNT|COALESCE))/.test(sql))
        .map((sql) =>
          sql.includes('sampled(id)')
            ? 'sample'
            : sql.includes('kept(id) AS (VALUES')
              ? 'kept'
              : sql.includes('picked(id')
                ? 'guess'
              : // the links counted, or (SQLite) their counters summed, or the scoped tag tokens counted in the full-text index
                /^\s*SELECT \(\(?SELECT (COUNT\((\*|DISTINCT e."entryId")\) FROM "EntryTag" e|COALESCE\(SUM\(c."links"\), 0\) FROM "TagLinkCount" c|COUNT\(\*\) FROM "EntrySearchFts")/.test(sql)
                ? 'tag-count'
                : !sql.includes('cand AS')
              ? 'count'
              : sql.includes('FROM matches m CROSS JOIN "Entry" e')
                ? 'matches'
                : // (SQLite) the tags' postings intersected in the full-text index
                  sql.includes('(SELECT s."entryId" AS id FROM "EntrySearchFts" JOIN "EntrySearch" s')
                  ? 'tag-sets'
                : /SELECT (DISTINCT )?et."entryId" AS id FROM "EntryTag" et WHERE et."tagId" IN/.test(sql)
                  ? // set operations (SQLite) or semi- and anti-joins (PostgreSQL) over the links of the other tags
                    /\) (INTERSECT|EXCEPT) SELECT et."entryId"|\) AND (NOT )?EXISTS \(SELECT 1 FROM "EntryTag" [rx] WHERE/.test(sql)
                    ? 'tag-sets'
                    : 'tags'
                  : sql.includes('UNION SELECT r."sourceId" FROM "Relation" r WHERE r."targetEntryId"')
                      ? 'related-entry'
                      : sql.includes('SELECT DISTINCT r."sourceId" AS id FROM "Relation" r WHERE r."targetScopeId"')
                        ? 'related-scope'
                        : sql.includes('FROM chain c CROSS JOIN "Entry" e')
                          ? 'chain'
                          : 'other',
        );
    };
    const s = scopes.skewSession;
    // Pages of 6, a size the tests above did not ask for: no shape's bound is known yet.
    const page = (i: Record<string, unknown>, first = 6, via: Pick<typeof h, 'ok'> = h) => kinds(() => via.ok(MQ_NO_TOTAL, { i, first }));
    const total = (i: Record<string, unknown>, first = 6) => kinds(() => h.ok(MQ, { i, first }));
    // A whole-chain first page: a sample, then the page (the sample's rows above tau, by id, and the
    // entries whose bound reaches tau); its total is counted apart, when asked. Asked again, the
    // shape's bound is known: one statement ranks what reaches it (memory-query.speculation.ts).
    expect(await page({ scope: s })()).toEqual(['sample', 'kept']);
    expect(await total({ scope: s })()).toEqual(['guess', 'count']);
    expect(await page({ scope: s })()).toEqual(['guess']);
    // A sample that holds every candidate is the answer, with its count.
    expect(await total({ scope: scopes.skewProject, inherit: false }, 100)()).toEqual(['sample']);
    // An include tag is pruned (its sample and ranges read the tag's links) and, when asked, its
    // total is counted on the links' copies; a filter the copies do not hold counts on the entries.
    expect(await page({ scope: s, tags: { include: ['blue'] } })()).toEqual(['sample', 'kept']);
    expect(await page({ scope: s, tags: { include: ['blue'] } })()).toEqual(['guess']);
    // A tag not asked for before takes the bound its family learnt (the same query with another
    // tag): one statement, and the exhaustive ranking's page.
    expect(await page({ scope: s, tags: { include: ['red'] } })()).toEqual(['guess']);
    {
      const i = { scope: s, tags: { include: ['red'] } };
      same((await h.ok(MQ_NO_TOTAL, { i, first: 6 })).memoryQuery.edges, (await exhaustive.ok(MQ_NO_TOTAL, { i, first: 6 })).memoryQuery.edges, 'red');
    }
    expect(await total({ scope: s, tags: { include: ['blue', 'green'] } })()).toEqual(['sample', 'kept', 'tag-count']);
    expect(await total({ scope: s, tags: { include: ['blue'] }, memoryTypes: ['SEMANTIC'] })()).toEqual(['tags']);
    // Required and excluded tags are set operations over the tag index (SQLite: the full-text
    // index's tag postings, intersected), before any entry is read.
    // One required tag alone is pruned on its links, like an included one.
    expect(await page({ scope: s, tags: { require: ['blue'] } })()).toEqual(['sample', 'kept']);
    // (Pages of 4 with an excluded tag: this memory has too few such entries to bound a page of 6
    // from a sample.)
    expect(await total({ scope: s, tags: { require: ['blue'], exclude: ['green'] } }, 4)()).toEqual(['sample', 'kept', 'tag-count']);
    {
      // Its ranges rule out, on the links, the entries that carry the excluded tag before any is
      // read from "Entry" (at 1M entries ~850 links of a range, of which ~80 passed).
      const kept = h.statements.find((sql) => sql.includes('kept(id) AS (VALUES'))!;
      const ranges = kept.slice(kept.indexOf('kept(id) AS (VALUES'), kept.indexOf('cand AS'));
      const onLinks = ranges.split(' UNION ').filter((range) => range.includes('FROM "EntryTag" e'));
      expect(onLinks.length).toBeGreaterThan(0);
      for (const range of onLinks) expect(range).toContain('NOT EXISTS (SELECT 1 FROM "EntryTag" x WHERE x."entryId" = e."entryId"');
    }
    // Several required tags: on SQLite counted first in the full-text index (few: ranked in full).
    const counted = h.database.provider === 'sqlite' ? ['tag-count'] : [];
    expect(await page({ scope: s, tags: { require: ['blue', 'green'] } })()).toEqual([...counted, 'tag-sets']);
    expect(await page({ scope: s, tags: { include: ['blue'], exclude: ['green'] } }, 4)()).toEqual(['sample', 'kept']);
    // With a learnt bound, a total the links count is counted in the guess's own statement.
    expect(await total({ scope: s, tags: { include: ['blue'], exclude: ['green'] } }, 4)()).toEqual(['guess']);
    for (const tags of [{ include: ['blue'], exclude: ['green'] }, { include: ['blue'] }, { include: ['red', 'green'] }, { require: ['blue'] }]) {
      const i = { scope: s, tags };
      await h.ok(MQ, { i, first: 2 });
      const [counted, full] = [(await h.ok(MQ, { i, first: 2 })).memoryQuery, (await exhaustive.ok(MQ, { i, first: 2 })).memoryQuery];
      expect(counted.meta, JSON.stringify(tags)).toEqual(full.meta);
      same(counted.edges, full.edges, JSON.stringify(tags));
    }
    // context: its words do not change its shape. A bound learnt with words that match nothing (no
    // text score raises any entry) serves tasks whose words match.
    const context = (task: string) => kinds(() => h.ok(CTX, { i: { scope: s, task, tokenBudget: 300 } }));
    expect(await context('quincunx')()).toEqual(['sample', 'kept']);
    expect(await context('quincunx')()).toEqual(['guess']);
    // On SQLite with its ranking extension, the guess first checks only the best 16 hits: in this
    // memory, whose chain holds few of the matches of 'fact', none of them passes, so it checks
    // the best 2 L at once, and goes on doing so for this shape.
    const narrowFirst = h.database.provider === 'sqlite' && rankExtension() !== null ? ['guess'] : [];
    expect(await context('fact')()).toEqual([...narrowFirst, 'guess']);
    expect(await context('rule')()).toEqual(['guess']);
    for (const task of ['fact', 'rule', 'quincunx']) {
      const i = { scope: s, task, tokenBudget: 300 };
      const [plain, full] = [(await h.ok(CTX, { i })).context, (await exhaustive.ok(CTX, { i })).context];
      for (const kind of ['guidelines', 'tools', 'knowledge'] as const) same(plain[kind], full[kind], `${task} ${kind}`);
    }
    expect(await page({ scope: s, relatedTo: hub })()).toEqual(['related-entry']);
    expect(await page({ scope: s, relatedTo: scopes.project })()).toEqual(['related-scope']);
    expect(await page({ scope: s, search: 'skew' })()).toEqual(['matches']);
    // A later page is ranked whole (its cursor's score is the bound).
    const { endCursor } = (await h.ok(MQ_NO_TOTAL, { i: { scope: s }, first: 4 })).memoryQuery.pageInfo;
    expect(await kinds(() => h.ok(MQ_NO_TOTAL, { i: { scope: s }, first: 4, after: endCursor }))()).toEqual(['chain']);
    // The exhaustive ranking starts from the chain for every shape.
    for (const i of [{ scope: s }, { scope: s, tags: { include: ['blue'] } }, { scope: s, tags: { require: ['blue'] } }, { scope: s, relatedTo: hub }, { scope: s, search: 'skew' }]) {
      expect(await page(i, 4, exhaustive)(), JSON.stringify(i)).toEqual(['chain']);
    }
  });
});
