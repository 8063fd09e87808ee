// A word's weight in a search never turns negative. PostgreSQL weighs a word by its BM25 idf over
// the number of search rows, read from the planner's statistics (pg_class.reltuples); until the
// next ANALYZE that number lags behind the rows written since, and a word in more rows than it
// counts got a negative weight: the better an entry matched, the lower it ranked, and the text
// score (rank relative to the best) went above 1. SQLite's FTS5 counts its rows exactly.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();
const Search = parse(
  'query($s: ID!, $q: String!) { memoryQuery(input: { scope: $s, search: $q }, first: 50) { edges { breakdown { text } node { id } } } }',
) as TypedDocumentNode<any, any>;

describe(`a word's weight (${DB_KIND})`, () => {
  it('stays positive when the statistics count fewer rows than match the word', async () => {
    const p = await createProject(h, 'text-weights');
    for (const title of ['alpha', 'beta', 'gamma']) await addKnowledge(h, p, title);
    if (DB_KIND === 'postgresql') {
      await h.database.prisma.$executeRawUnsafe('ANALYZE "EntrySearch"');
      const [stats] = await h.database.prisma.$queryRawUnsafe<Array<{ rows: number }>>(`SELECT reltuples AS rows FROM pg_class WHERE relname = 'EntrySearch' AND relkind = 'r'`);
      expect(stats!.rows).toBeLessThan(10);
    }
    // Twelve rows hold the word, more than the statistics count; one holds it three times.
    const best = await addKnowledge(h, p, 'zebra', { content: 'zebra zebra zebra' });
    for (let i = 0; i < 11; i++) await addKnowledge(h, p, `note ${i}`, { content: `one zebra among ${'many other words '.repeat(3)}${i}` });
    const { memoryQuery } = await h.ok(Search, { s: p, q: 'zebra' });
    const texts = memoryQuery.edges.map((e: any) => e.breakdown.text as number);
    expect(texts).toHaveLength(12);
    expect(memoryQuery.edges[0].node.id).toBe(best);
    expect(texts[0]).toBe(1);
    for (const t of texts.slice(1)) {
      expect(t).toBeGreaterThan(0);
      expect(t).toBeLessThan(1);
    }
  });
});
