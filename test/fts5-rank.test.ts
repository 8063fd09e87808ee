// On SQLite, a text search intersected with tags ranks with engram_bm25 (native/fts5-rank.c):
// FTS5's bm25() without the IDF of the tag tokens, which a weight of 0 cancels anyway. The ranks
// must be bm25()'s, bit for bit: compared here with bm25() on the index itself, and through
// memoryQuery with the exhaustive ranking (whose query holds no tag token, so it ranks with
// bm25()). SQLite only: PostgreSQL ranks with ts_rank.
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { sqlitePath } from '../src/config.ts';
import { openDatabase } from '../src/infra/database.ts';
import { rankExtension } from '../src/infra/sqlite-rank-extension.ts';
import { graphql } from './gql/index.ts';
import { DB_KIND, client, useHarness, useVariant } from './support/harness.ts';
import { createProject, startSession } from './support/ops.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

const MQ = graphql(`
  query RankExtensionQuery($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 15) { edges { node { id } breakdown { text } } meta { totalCount } } }
`);
const IMPORT = graphql(`
  mutation RankExtensionImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }
`);

const WORDS = ['amber', 'basalt', 'cobalt', 'dune'];
const TAGS = ['red', 'green', 'blue'];

/** Entry i: one to three of the words, texts of varied length, and a varied set of the tags. */
function entry(i: number, scope: string) {
  const kind = (['GUIDELINE', 'TOOL', 'KNOWLEDGE'] as const)[i % 3]!;
  const text = [WORDS[i % 4], ...(i % 3 === 0 ? [WORDS[(i + 1) % 4]] : []), ...(i % 7 === 0 ? [WORDS[(i + 2) % 4]] : []), 'filler '.repeat(i % 6)].join(' ');
  const tags = TAGS.filter((_, t) => (i >> t) % 2 === 1);
  return {
    scope,
    kind,
    name: i % 5 === 0 ? `${WORDS[(i + 3) % 4]} ${i}` : `entry-${i}`,
    tags,
    ...(kind === 'GUIDELINE' ? { content: text, priority: (i * 37) % 101 } : kind === 'TOOL' ? { description: text } : { content: text }),
  };
}

let session = '';

/** A full-text row's rank by a ranking function, NULL where it left the row out. */
type RankRow = { id: number; rank: number | null };

/**
 * `work` on the harness's full-text index opened read-only with the extension loaded: a tag's
 * token, and each match's rank by `rank` (an SQL expression) for an FTS5 query.
 */
function onIndex(work: (index: { token: (tag: string) => string; ranks: (rank: string, query: string) => RankRow[] }) => void): void {
  const extension = rankExtension()!;
  const db = new Database(sqlitePath(h.url), { readonly: true });
  try {
    // better-sqlite3 takes an entry point (its types, @types/better-sqlite3 9, do not say so).
    (db as unknown as { loadExtension(path: string, entryPoint: string): void }).loadExtension(extension.path, extension.entryPoint);
    const ids = new Map((db.prepare(`SELECT id, name FROM "Tag"`).all() as Array<{ id: string; name: string }>).map((t) => [t.name, t.id]));
    work({
      token: (tag) => `t${Buffer.from(ids.get(tag)!, 'utf8').toString('hex')}`,
      ranks: (rank, query) => db.prepare(`SELECT rowid AS id, ${rank} AS rank FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ? ORDER BY rowid`).all(query) as RankRow[],
    });
  } finally {
    db.close();
  }
}

/** A page's entries and their text scores. */
const texts = (page: { edges: Array<{ node: { id: string }; breakdown: { text: number } }> }) => page.edges.map((e) => [e.node.id, e.breakdown.text]);

beforeAll(async () => {
  const project = await createProject(h, 'rank-extension');
  session = await startSession(h, project, 'rank-extension-session');
  await h.ok(IMPORT, { e: Array.from({ length: 300 }, (_, i) => entry(i, project)) });
  await h.ok(IMPORT, { e: Array.from({ length: 60 }, (_, i) => entry(1_000 + i, session)) });
}, 60_000);

/** The FTS5 query of `words` as the dialect writes a search's words (ftsMatch without tags). */
const wordsQuery = (words: readonly string[]) => `({name body} : (${words.map((w) => `"${w}"*`).join(' OR ')}))`;

/** The tag conditions the tests intersect the words with, as memoryQuery takes them. */
const TAG_CONDITIONS = [
  { include: ['red'] },
  { include: ['red', 'blue'] },
  { require: ['green'] },
  { require: ['red', 'green'], exclude: ['blue'] },
  { include: ['blue'], exclude: ['green'] },
];
const SEARCHES = ['amber', 'basalt cobalt', 'dune amber cobalt'];

/**
 * `npm install` builds the extension where it finds a C compiler; a machine without one ranks with
 * bm25() and skips these tests, but CI must have it (ENGRAM_REQUIRE_RANK_EXTENSION): there a
 * missing build fails the run instead of skipping.
 */
const built = rankExtension() !== null;
const required = process.env.CI === 'true' || process.env.ENGRAM_REQUIRE_RANK_EXTENSION === '1';

describe.skipIf(DB_KIND !== 'sqlite' || (!built && !required))('engram_bm25, the rank of a text search with tags (SQLite)', () => {
  it('is built by the install and ranks tag + word queries', async () => {
    expect(built, 'native/build holds the compiled extension (npm run build:native)').toBe(true);
    h.resetStatements();
    await h.ok(MQ, { i: { scope: session, tags: { include: ['red'] }, search: 'amber' } });
    expect(h.statements.some((sql) => sql.includes('engram_bm25'))).toBe(true);
    // Without tags it would change nothing: bm25() as before.
    h.resetStatements();
    await h.ok(MQ, { i: { scope: session, search: 'amber' } });
    expect(h.statements.some((sql) => sql.includes('engram_bm25'))).toBe(false);
  });

  it("gives every match bm25()'s rank, bit for bit, whatever tags its query intersects the words with", () =>
    onIndex(({ token, ranks }) => {
      let compared = 0;
      for (const search of SEARCHES) {
        const words = search.split(' ');
        const text = wordsQuery(words);
        const queries = [
          `${text} AND tagTokens : (${token('red')})`,
          `${text} AND tagTokens : (${token('red')} OR ${token('blue')})`,
          `${text} AND tagTokens : ${token('red')} AND tagTokens : ${token('green')}`,
          `(${text} AND tagTokens : ${token('green')}) NOT tagTokens : (${token('blue')})`,
        ];
        for (const query of queries) {
          const expected = ranks(`bm25("EntrySearchFts", 2.0, 1.0, 0.0)`, query);
          expect(ranks(`engram_bm25("EntrySearchFts", ${words.length}, 2.0, 1.0, 0.0)`, query), query).toEqual(expected);
          compared += expected.length;
          // The comparison can tell: scoring one word fewer changes the ranks.
          if (words.length > 1) expect(ranks(`engram_bm25("EntrySearchFts", ${words.length - 1}, 2.0, 1.0, 0.0)`, query), query).not.toEqual(expected);
        }
      }
      expect(compared).toBeGreaterThan(200);
    }));

  it("takes the words' document counts instead of their number, as text: the same ranks bit for bit when they are the words' own, others when not; anything but counts is an error", () =>
    onIndex(({ token, ranks }) => {
      let compared = 0;
      for (const search of SEARCHES) {
        const words = search.split(' ');
        const text = wordsQuery(words);
        // What the statement's CTE `dfs` counts: each word's documents alone, with its column filter.
        const counts = words.map((w) => ranks('0', wordsQuery([w])).length);
        const given = `'${counts.join(' ')}'`;
        for (const query of [text, `${text} AND tagTokens : (${token('red')} OR ${token('blue')})`]) {
          const expected = ranks(`bm25("EntrySearchFts", 2.0, 1.0, 0.0)`, query);
          expect(ranks(`engram_bm25("EntrySearchFts", ${given}, 2.0, 1.0, 0.0)`, query), query).toEqual(expected);
          expect(ranks(`-engram_above("EntrySearchFts", ${given}, NULL, 2.0, 1.0, 0.0)`, query).map((r) => -r.rank!), query).toEqual(expected.map((r) => r.rank));
          compared += expected.length;
          // Counts that are not the words' own give other ranks: the counts are what ranks.
          const wrong = `'${counts.map((c) => c + 7).join(' ')}'`;
          expect(ranks(`engram_bm25("EntrySearchFts", ${wrong}, 2.0, 1.0, 0.0)`, query), query).not.toEqual(expected);
        }
      }
      expect(compared).toBeGreaterThan(200);
      for (const bad of ["'12 x'", "'-3'", "'1.5'"]) {
        expect(() => ranks(`engram_bm25("EntrySearchFts", ${bad}, 2.0, 1.0, 0.0)`, '"amber"*'), bad).toThrow(/mismatch/i);
      }
    }));

  it("engram_top gives the K best matches and every row asked for exactly bm25()'s rank, bit for bit, and leaves out only rows ranked no higher than the K-th; engram_above only rows below its floor", () =>
    onIndex(({ token, ranks }) => {
      let leftOut = 0;
      for (const search of SEARCHES) {
        const words = search.split(' ');
        const text = wordsQuery(words);
        for (const query of [text, `${text} AND tagTokens : (${token('red')} OR ${token('blue')})`, `(${text}) NOT tagTokens : (${token('green')})`]) {
          const full = ranks(`-bm25("EntrySearchFts", 2.0, 1.0, 0.0)`, query) as Array<{ id: number; rank: number }>;
          const byId = new Map(full.map((r) => [r.id, r.rank]));
          const best = full.map((r) => r.rank).sort((a, b) => b - a);
          for (const k of [1, 3, 10]) {
            const where = `${query} K=${k}`;
            const top = ranks(`-engram_top("EntrySearchFts", ${words.length}, ${k}, rowid % 5 = 0, 2.0, 1.0, 0.0)`, query);
            expect(top.map((r) => r.id), where).toEqual(full.map((r) => r.id));
            const kth = best[Math.min(k, best.length) - 1]!;
            for (const row of top) {
              const exact = byId.get(row.id)!;
              if (row.rank !== null) expect(row.rank, where).toBe(exact);
              // A row left out is neither asked for exactly nor above the K-th best (so the K best are all ranked).
              else expect(row.id % 5 !== 0 && exact <= kth, `${where} row ${row.id}`).toBe(true);
            }
            leftOut += top.filter((r) => r.rank === null).length;
          }
          // engram_above: the ranks of the rows that reach the floor (every row without one), bit for bit.
          const median = best[Math.floor(best.length / 2)]!;
          for (const floor of [median, null]) {
            const above = ranks(`-engram_above("EntrySearchFts", ${words.length}, ${floor === null ? 'NULL' : `CAST(${median} AS REAL)`}, 2.0, 1.0, 0.0)`, query);
            for (const row of above) {
              const exact = byId.get(row.id)!;
              if (row.rank !== null) expect(row.rank, `${query} floor ${floor}`).toBe(exact);
              else expect(floor !== null && exact < floor, `${query} floor ${floor} row ${row.id}`).toBe(true);
            }
            if (floor === null) expect(above.every((r) => r.rank !== null)).toBe(true);
            else leftOut += above.filter((r) => r.rank === null).length;
          }
        }
      }
      // The bound leaves rows out (what it is for), and the comparison can tell one from a rank.
      expect(leftOut).toBeGreaterThan(100);
    }));

  it("ranks memoryQuery's tag + word pages as the exhaustive ranking does, text scores equal", async () => {
    for (const tags of TAG_CONDITIONS) {
      for (const search of SEARCHES) {
        const i = { scope: session, tags, search };
        const full = (await exhaustive.ok(MQ, { i })).memoryQuery;
        const page = (await h.ok(MQ, { i })).memoryQuery;
        const where = JSON.stringify(i);
        expect(page.meta.totalCount, where).toBe(full.meta.totalCount);
        expect(texts(page), where).toEqual(texts(full));
      }
    }
  });

  it('is not used by a database opened without it (SQLITE_RANK_EXTENSION=false): bm25() ranks, the same pages', async () => {
    const statements: string[] = [];
    const database = await openDatabase(h.url, { readers: 0, rankExtension: false, onQuery: (sql) => statements.push(sql) });
    const app = createApp({ database, accessFlushMs: 3_600_000, changePruneFirstMs: 3_600_000 });
    try {
      const without = client(app);
      for (const tags of TAG_CONDITIONS.slice(0, 3)) {
        const i = { scope: session, tags, search: 'basalt cobalt' };
        expect(texts((await without.ok(MQ, { i })).memoryQuery), JSON.stringify(i)).toEqual(texts((await h.ok(MQ, { i })).memoryQuery));
      }
      expect(statements.some((sql) => sql.includes('MATCH'))).toBe(true);
      expect(statements.some((sql) => sql.includes('engram_bm25'))).toBe(false);
    } finally {
      await app.stop(1_000);
      await database.close();
    }
  });
});
