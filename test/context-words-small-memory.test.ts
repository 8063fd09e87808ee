import { describe, expect, it, vi } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();

const Import = graphql(`
  mutation SmallMemoryImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
`);
const Ctx = graphql(`
  query SmallMemoryContext($input: ContextInput!) {
    context(input: $input) { knowledge { breakdown { text } node { name } } }
  }
`);

describe("a small memory's task words", () => {
  // On PostgreSQL a word never counted may be guessed from ANALYZE's sample (context-common-words
  // test): not in a memory too small for the common-word rule, which keeps every word.
  it('keeps every word, a minute on as well, without asking for the sample of the indexed words', async () => {
    const project = await createProject(h, 'small-memory-words');
    // Every note has "common"; one has "rare" too. Under 1,000 notes, both words count.
    await h.ok(Import, {
      entries: Array.from({ length: 20 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE' as const, name: `n-${i}`, content: `common ${i === 0 ? 'rare' : ''}` })),
    });
    const ask = async () => {
      h.resetStatements();
      const { knowledge } = (await h.ok(Ctx, { input: { scope: project, task: 'common rare', kinds: ['KNOWLEDGE'] } })).context;
      return {
        scored: knowledge.filter((e) => e.breakdown.text > 0).length,
        samples: h.statements.filter((sql) => sql.includes('pg_stats')).length,
        rankings: h.statements.filter((sql) => sql.includes('matches("entryId", rank')).length,
      };
    };
    expect(await ask()).toMatchObject({ scored: 20, samples: 0 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // The words' counts are a minute old: ranked at once on every word, counted again meanwhile.
      vi.setSystemTime(Date.now() + 61_000);
      const later = await ask();
      expect(later).toMatchObject({ scored: 20, samples: 0 });
      expect(later.rankings).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
