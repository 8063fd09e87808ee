import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness, useVariant } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { LIMITS } from '../src/domain/limits.ts';

// PostgreSQL's full-text index holds no word longer than 2047 bytes (to_tsvector and to_tsquery
// drop it with a NOTICE), while SQLite's FTS5 indexes and matches it: such a word matched an entry
// on SQLite and nothing on PostgreSQL, silently. It is refused on both, as the caller's mistake.
const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

const Import = graphql(`
  mutation LongWordsImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
`);
const Ctx = graphql(`
  query LongWordsContext($input: ContextInput!) {
    context(input: $input) { knowledge { score breakdown { text } node { id name } } }
  }
`);
const Search = graphql(`
  query LongWordsSearch($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { name } } } }
`);

const MAX = LIMITS.searchWordBytes;
/**
 * Words of exactly the most bytes an index holds, in one-byte and two-byte letters (not Latin: a
 * Latin letter's accent is dropped before either index sees the word, see text-folding.test.ts).
 */
const widest = 'q'.repeat(MAX);
const widestAccented = `${'ж'.repeat((MAX - 1) / 2)}q`;
/** One byte more than either index holds alike. */
const tooWide = 'q'.repeat(MAX + 1);
const tooWideAccented = 'ж'.repeat((MAX + 1) / 2);
/** As many bytes as typed, but it reaches the indexes as 'e's: half of them. */
const foldsNarrow = 'é'.repeat((MAX + 1) / 2);
let project = '';

beforeAll(async () => {
  project = await createProject(h, 'long-words');
  await h.ok(Import, {
    entries: [
      { scope: project, kind: 'KNOWLEDGE', name: 'widest', content: `${widest} tail` },
      { scope: project, kind: 'KNOWLEDGE', name: 'accented', content: `${widestAccented} tail` },
            { scope: project, kind: 'KNOWLEDGE', name: 'plain', content: 'tail words only' },
    ],
  });
});

const refusal = async (input: { task: string } | { search: string }) => {
  const r = 'task' in input ? await h.gql(Ctx, { input: { scope: project, ...input } }) : await h.gql(Search, { input: { scope: project, ...input } });
  return r.errors?.map((e) => [e.extensions?.code, e.message]);
};

describe('a word longer than the full-text indexes hold', () => {
  it("is refused in a context's task (a task of 1,000 words too), not matched on one database and dropped on the other", async () => {
    const tooLong = `input.task: its words must be at most ${MAX} bytes each (got ${MAX + 1})`;
    expect(await refusal({ task: tooWide })).toEqual([['VALIDATION_FAILED', tooLong]]);
    expect(await refusal({ task: tooWideAccented })).toEqual([['VALIDATION_FAILED', tooLong]]);
    const words = Array.from({ length: 999 }, (_, i) => `word${i % 300}`);
    expect(await refusal({ task: [tooWide, ...words].join(' ') })).toEqual([['VALIDATION_FAILED', tooLong]]);
    // Past the first 16 different words no word is searched, so none is too long.
    expect(await refusal({ task: [...words, tooWide].join(' ') })).toBeUndefined();
  });

  it('is refused in a search, which matched the entry on SQLite and nothing on PostgreSQL', async () => {
    const tooLong = `input.search: its words must be at most ${MAX} bytes each (got ${MAX + 1})`;
    expect(await refusal({ search: tooWide })).toEqual([['VALIDATION_FAILED', tooLong]]);
    expect(await refusal({ search: `tail ${tooWideAccented}` })).toEqual([['VALIDATION_FAILED', tooLong]]);
    expect(await refusal({ search: `tail ${foldsNarrow}` })).toBeUndefined();
  });

  it('of the widest an index holds matches on both databases, in a search and in a task of 1,000 words', async () => {
    for (const [word, name] of [
      [widest, 'widest'],
      [widestAccented, 'accented'],
    ] as const) {
      const found = await h.ok(Search, { input: { scope: project, search: word } });
      expect(found.memoryQuery.edges.map((e) => e.node.name)).toEqual([name]);
      const task = [word, ...Array.from({ length: 999 }, () => 'tail')].join(' ');
      const { knowledge } = (await h.ok(Ctx, { input: { scope: project, task } })).context;
      expect(knowledge[0]?.node.name).toBe(name);
      expect(knowledge[0]?.breakdown.text).toBe(1);
      const full = (await exhaustive.ok(Ctx, { input: { scope: project, task } })).context.knowledge;
      expect(knowledge.map((e) => e.node.id)).toEqual(full.map((e) => e.node.id));
    }
  });
});
