// A learnt bound's margin (memory-query.speculation.ts): wide while a shape has few bounds, as
// narrow as its bounds' spread once they settle. A narrow margin ranks fewer entries; the price is
// that a smaller change of the page gives the guess up (then pruning decides, exactly as before).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

type Doc = TypedDocumentNode<Record<string, any>, Record<string, unknown>>;
const doc = (text: string) => parse(text) as unknown as Doc;

const MQ = doc(`query MarginQuery($i: MemoryQueryInput!, $first: Int) { memoryQuery(input: $i, first: $first) { edges { score node { id } } } }`);
const SET_ACTIVE = (active: boolean) =>
  doc(`mutation MarginActive($id: ID!) { ${active ? 'reactivateEntry' : 'deactivateEntry'}(input: { id: $id }) { __typename } }`);

let project = '';
/** Guideline ids by priority: 100, 99, ... 71. */
const byPriority: string[] = [];

beforeAll(async () => {
  project = (await h.ok(doc(`mutation MarginProject { createProject(input: { name: "margin" }) { ... on CreateProjectSuccess { project { id } } } }`))).createProject
    .project.id;
  // Priorities one point apart: one point moves a guideline's score by 0.015, between the
  // narrowest margin (0.005) and the widest (0.05).
  const entries = Array.from({ length: 30 }, (_, i) => ({ scope: project, kind: 'GUIDELINE', name: `g-${i}`, content: 'margin rule', priority: 100 - i }));
  const imported = await h.ok(
    doc(`mutation MarginImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) {
      __typename ... on ImportEntriesSuccess { imported { entries { id } } } } }`),
    { e: entries },
  );
  byPriority.push(...imported.importEntries.imported.entries.map((e: { id: string }) => e.id));
});

/** The statements of one page of `first` with the project's guidelines: "sample", "kept" or "guess". */
async function ask(first: number): Promise<{ kinds: string[] }> {
  const i = { scope: project, inherit: false, kinds: ['GUIDELINE'] };
  h.resetStatements();
  const { edges } = (await h.ok(MQ, { i, first })).memoryQuery;
  const kinds = h.statements
    .filter((sql) => /^\s*WITH chain\(/.test(sql))
    .map((sql) => (sql.includes('sampled(id)') ? 'sample' : sql.includes('kept(id) AS (VALUES') ? 'kept' : 'guess'));
  const full = (await exhaustive.ok(MQ, { i, first })).memoryQuery.edges;
  // (Scores move with the time they are computed at; the order may not.)
  const ids = (list: Array<{ node: { id: string } }>) => list.map((e) => e.node.id);
  expect(ids(edges)).toEqual(ids(full));
  return { kinds };
}

describe('the margin below a learnt bound', () => {
  it('is wide for a shape with few bounds: a page whose bound fell by one priority point is still guessed', async () => {
    // Pages of 3 (the bound: the 4th row, priority 97).
    expect((await ask(3)).kinds).toEqual(['sample', 'kept']);
    expect((await ask(3)).kinds).toEqual(['guess']);
    await h.ok(SET_ACTIVE(false), { id: byPriority[1] });
    try {
      // The bound is now priority 96: 0.015 lower, within the wide margin.
      expect((await ask(3)).kinds).toEqual(['guess']);
    } finally {
      await h.ok(SET_ACTIVE(true), { id: byPriority[1] });
    }
  });

  it('narrows to the spread of settled bounds: then one priority point is beyond it, and pruning decides', async () => {
    // Pages of 5 (another shape; the bound: the 6th row, priority 95), asked until settled.
    expect((await ask(5)).kinds).toEqual(['sample', 'kept']);
    for (let n = 0; n < 4; n++) expect((await ask(5)).kinds).toEqual(['guess']);
    await h.ok(SET_ACTIVE(false), { id: byPriority[1] });
    try {
      expect((await ask(5)).kinds).toEqual(['guess', 'sample', 'kept']);
    } finally {
      await h.ok(SET_ACTIVE(true), { id: byPriority[1] });
    }
  });
});
