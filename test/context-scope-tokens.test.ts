// A `context` asked again with other words (an agent before each step) is answered in one
// statement from its shape's learnt bound. On SQLite that statement reads the text matches of each
// scope and kind of the chain from the full-text index's scope tokens (migration
// text_index_scope_tokens, ScopedText in memory-query.dialect.ts) instead of every match's row.
// Its pages must be the exhaustive ranking's, through writes that move an entry's token.
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DEFAULT_RANK_BEST_HITS_FROM } from '../src/config.ts';
import { rankExtension } from '../src/infra/sqlite-rank-extension.ts';
import { DB_KIND, useHarness, useVariant } from './support/harness.ts';
import { createProject, globalScopeId, startSession } from './support/ops.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });
/** The server's default RANK_BEST_HITS_FROM (the harness's app ranks the best hits from 0 entries). */
const byDefault = useVariant(h, { rankBestHitsFrom: DEFAULT_RANK_BEST_HITS_FROM });

const Import = graphql(`
  mutation ScopeTokensImport($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }
  }
`);
const Ctx = graphql(`
  query ScopeTokensContext($input: ContextInput!) {
    context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }
  }
`);
const Deactivate = graphql(`mutation ScopeTokensOff($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`);
const Reactivate = graphql(`mutation ScopeTokensOn($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }`);

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'flint'];
let session = '';
/** The session's untagged guidelines, by name. */
const sessionGuidelines = new Map<string, string>();

/** Entries of a scope: each kind, texts of one to three of the words and of varied length (BM25 varies). */
function entries(scope: string, prefix: string, n: number, tagged: boolean) {
  return Array.from({ length: n }, (_, i) => {
    const kind = (['GUIDELINE', 'TOOL', 'KNOWLEDGE'] as const)[i % 3]!;
    const words = [WORDS[i % 6], ...(i % 4 === 0 ? [WORDS[(i + 1) % 6]] : []), ...(i % 9 === 0 ? [WORDS[(i + 3) % 6]] : [])].join(' ');
    const text = `${words} ${'filler '.repeat(i % 5)}`;
    return {
      scope,
      kind,
      name: `${prefix}-${i}`,
      ...(kind === 'GUIDELINE' ? { content: text, priority: (i * 37) % 101 } : kind === 'TOOL' ? { description: text } : { content: text }),
      ...(tagged && i % 2 ? { tags: ['odd'] } : {}),
    };
  });
}

const HOUR = 3_600_000;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

beforeAll(async () => {
  const project = await createProject(h, 'scope-tokens');
  session = await startSession(h, project, 'scope-tokens-session');
  const theirs = await h.ok(Import, { entries: entries(project, 'project', 300, true) });
  const own = await h.ok(Import, { entries: entries(session, 'session', 90, false) });
  // The global scope's entries: the farthest of the chain, whose text matches reach a page only
  // with the strongest text scores.
  const global = await h.ok(Import, { entries: entries(await globalScopeId(h), 'global', 120, false) });
  if (own.importEntries.__typename !== 'ImportEntriesSuccess' || theirs.importEntries.__typename !== 'ImportEntriesSuccess' || global.importEntries.__typename !== 'ImportEntriesSuccess') {
    throw new Error('import failed');
  }
  own.importEntries.imported.entries.forEach((e, i) => i % 3 === 0 && sessionGuidelines.set(e.name, e.id));
  // Ages from an hour to a year: recency and decay then leave old entries out of the ranges by
  // age, so the page's weak text matches come in by the text range alone.
  const all = [...theirs.importEntries.imported.entries, ...own.importEntries.imported.entries, ...global.importEntries.imported.entries];
  await h.database.prisma.$transaction(
    all.map((e, i) => h.database.prisma.entry.update({ where: { id: dbId(e.id) }, data: { updatedAt: new Date(Date.now() - (1 + ((i * 7919) % 8_760)) * HOUR) } })),
  );
});

/**
 * A context of `task` ranked as the exhaustive ranking ranks it; whether one statement answered
 * from a learnt bound and the hits, and whether that statement ranked each scope's hits as it
 * read them and only the best of all hits (engram_above and engram_top: SQLite with its ranking
 * extension), from one count of the task's words.
 */
async function ask(task: string, tokenBudget: number): Promise<{ guessedFromHits: boolean; rankedByScope: boolean; page: string[] }> {
  const input = { scope: session, task, tokenBudget };
  h.resetStatements();
  const plain = (await h.ok(Ctx, { input })).context;
  const ranking = h.statements.filter((sql) => /^\s*WITH chain\(/.test(sql));
  const full = (await exhaustive.ok(Ctx, { input })).context;
  for (const kind of ['guidelines', 'tools', 'knowledge'] as const) {
    expect(plain[kind].map((e) => e.node.id), `${task} ${tokenBudget} ${kind}`).toEqual(full[kind].map((e) => e.node.id));
    // Scores move a little with the instant they are computed at (recency, decay).
    plain[kind].forEach((e, i) => expect(e.score).toBeCloseTo(full[kind][i]!.score, 6));
  }
  return {
    guessedFromHits: ranking.length === 1 && ranking[0]!.includes('hits(rid, rank)'),
    // Each of them takes the words' counts from the statement's one count of them (dfs), instead of counting them again.
    rankedByScope:
      ranking.length === 1 &&
      ranking[0]!.includes('AS rid, -engram_above("EntrySearchFts", (SELECT v FROM dfs),') &&
      ranking[0]!.includes('-engram_top("EntrySearchFts", (SELECT v FROM dfs),') &&
      ranking[0]!.split('dfs(v) AS MATERIALIZED').length === 2,
    page: [...plain.guidelines, ...plain.tools, ...plain.knowledge].map((e) => e.node.id),
  };
}

describe('a context answered from a learnt bound', () => {
  it('ranks as the exhaustive ranking does, task after task, reading the matches by scope on SQLite', async () => {
    // Budgets that bound the page at different rows: the learnt bounds then fall near the most
    // that matches of each scope and kind can score, where a scope and kind read or left out decides.
    for (const tokenBudget of [150, 400, 1_000, 2_500, 100_000]) {
      const guesses: boolean[] = [];
      const rankedByScope: boolean[] = [];
      for (let n = 0; n < 12; n++) {
        const task = `${WORDS[n % 6]} ${WORDS[(n * 5 + 2) % 6]}`;
        const asked = await ask(task, tokenBudget);
        guesses.push(asked.guessedFromHits);
        rankedByScope.push(asked.rankedByScope);
      }
      // After the first questions of the shape, a learnt bound answers (on SQLite from the hits),
      // its scopes' hits ranked as they are read where the extension is loaded.
      expect(guesses.slice(4).some(Boolean)).toBe(DB_KIND === 'sqlite');
      expect(rankedByScope.slice(4).some(Boolean)).toBe(DB_KIND === 'sqlite' && rankExtension() !== null);
    }
  });

  it('follows an untagged guideline of the session out of the page and back as it is deactivated and reactivated', async () => {
    const task = `${WORDS[0]} ${WORDS[3]}`;
    for (let n = 0; n < 4; n++) await ask(task, 100_000);
    const { page } = await ask(task, 100_000);
    const inPage = [...sessionGuidelines.values()].find((id) => page.includes(id));
    expect(inPage).toBeDefined();
    await h.ok(Deactivate, { id: inPage! });
    expect((await ask(task, 100_000)).page).not.toContain(inPage);
    await h.ok(Reactivate, { id: inPage! });
    const back = await ask(task, 100_000);
    expect(back.page).toContain(inPage);
  });
});

describe('a context whose best matches are all outside its chain', () => {
  it('still ranks as the exhaustive ranking does, and its shape goes back to the matches with their rows (SQLite)', async () => {
    // Another project's entries match the task's word far better (it is their whole text, twice
    // in the name): more of them than the 2 L best hits the learnt bound's statement checks.
    const elsewhere = await createProject(h, 'scope-tokens-elsewhere');
    await h.ok(Import, {
      entries: Array.from({ length: 260 }, (_, i) => ({ scope: elsewhere, kind: 'KNOWLEDGE' as const, name: `zircon zircon ${i}`, content: 'zircon' })),
    });
    const project = await createProject(h, 'scope-tokens-near');
    const near = await startSession(h, project, 'scope-tokens-near-session');
    await h.ok(Import, { entries: entries(project, 'near', 320, false).map((e, i) => (i % 5 === 0 ? { ...e, name: `zircon-${e.name}` } : e)) });
    const forms: string[] = [];
    for (let n = 0; n < 6; n++) {
      const input = { scope: near, task: `zircon quasar${n}`, tokenBudget: 100_000 };
      h.resetStatements();
      const plain = (await h.ok(Ctx, { input })).context;
      const ranking = h.statements.filter((sql) => /^\s*WITH chain\(/.test(sql));
      const full = (await exhaustive.ok(Ctx, { input })).context;
      for (const kind of ['guidelines', 'tools', 'knowledge'] as const) expect(plain[kind].map((e) => e.node.id)).toEqual(full[kind].map((e) => e.node.id));
      forms.push(
        ranking
          .map((sql) => (sql.includes('engram_top(') ? 'top' : sql.includes('hits(rid, rank)') ? 'hits' : sql.includes('sampled(id)') ? 'sample' : sql.includes('kept(id)') ? 'kept' : 'guess'))
          .join(','),
      );
    }
    // Pruning first; then one guess from the hits that finds no passing match among them (with
    // the extension, first among the best 16, then the best 2 L), and guesses from the matches
    // with their rows after it.
    if (DB_KIND === 'sqlite') {
      expect(forms.filter((f) => /^(top|hits)/.test(f))).toEqual([rankExtension() ? 'top,hits,sample,kept' : 'hits,sample,kept']);
      expect(forms.at(-1)).toBe('guess');
    }
  });
});

describe('a context whose page ends among fresh text matches of one scope', () => {
  it('ranks as the exhaustive ranking does: no match that reaches the bound is left unranked (SQLite ranks only those)', async () => {
    // Fresh knowledge of the session: recency and decay at their most, so each entry's score is its
    // bound and the page's bounding row lies among them, text scores spread between 0 and 1. The
    // hits whose bound reaches the learnt guess are ranked; those below it are not (engram_above's
    // floor): a floor set too high drops entries of the page.
    const project = await createProject(h, 'scope-tokens-fresh');
    const fresh = await startSession(h, project, 'scope-tokens-fresh-session');
    await h.ok(Import, {
      entries: Array.from({ length: 80 }, (_, i) => ({
        scope: fresh,
        kind: 'KNOWLEDGE' as const,
        name: `fresh-${i}`,
        content: `${'garnet '.repeat(1 + (i % 4))}${i % 3 === 0 ? 'opal ' : ''}${'filler '.repeat(i % 9)}`,
      })),
    });
    for (const tokenBudget of [300, 600, 900]) {
      const forms: boolean[] = [];
      for (let n = 0; n < 6; n++) forms.push((await askIn(fresh, n % 2 ? 'garnet opal' : 'opal garnet', tokenBudget)).guessedFromHits);
      expect(forms.slice(2).some(Boolean)).toBe(DB_KIND === 'sqlite');
    }
  });
});

/** ask, in another scope. */
async function askIn(scope: string, task: string, tokenBudget: number) {
  const saved = session;
  session = scope;
  try {
    return await ask(task, tokenBudget);
  } finally {
    session = saved;
  }
}

describe('RANK_BEST_HITS_FROM', () => {
  it('keeps a memory smaller than it (the default 250,000) ranking every hit, with the same pages', async () => {
    const input = { scope: session, task: `${WORDS[1]} ${WORDS[4]}`, tokenBudget: 1_000 };
    for (let n = 0; n < 4; n++) await byDefault.ok(Ctx, { input });
    h.resetStatements();
    const plain = (await byDefault.ok(Ctx, { input })).context;
    const ranking = h.statements.filter((sql) => /^\s*WITH chain\(/.test(sql));
    expect(ranking.some((sql) => sql.includes('hits(rid, rank)'))).toBe(DB_KIND === 'sqlite');
    expect(ranking.some((sql) => sql.includes('engram_top('))).toBe(false);
    const full = (await exhaustive.ok(Ctx, { input })).context;
    for (const kind of ['guidelines', 'tools', 'knowledge'] as const) expect(plain[kind].map((e) => e.node.id)).toEqual(full[kind].map((e) => e.node.id));
  });
});
