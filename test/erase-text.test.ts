// eraseMemory's `text` is the text itself, not a pattern (found by a sweep on PostgreSQL: `_` and
// `%` erased every entry of the scope, Prisma's `contains` being a LIKE it does not escape; and a
// backslash or another case than the entry's matched differently on the two databases).
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();

const Import = graphql(`
  mutation EraseTextImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
`);
const Erase = graphql(`
  mutation EraseText($scope: ID!, $text: String!, $dryRun: Boolean) {
    eraseMemory(input: { scope: $scope, text: $text, dryRun: $dryRun }) { __typename ... on EraseMemorySuccess { receipt { counts } } }
  }
`);
const Names = graphql(`
  query EraseTextNames($scope: ID!) { knowledge(filter: { scope: $scope }, first: 100) { edges { node { name } } } }
`);

const NOTES = { alpha: 'plain words', 'be_ta': 'an underscore', 'per-cent': 'all 100% sure', slash: 'a\\c path', upper: 'ABC upper' };

describe(`eraseMemory by text (${DB_KIND})`, () => {
  it.each([
    ['_', ['be_ta']],
    ['%', ['per-cent']],
    ['\\', ['slash']],
    ['ABC', ['upper']],
    ['abc', []],
    ['words', ['alpha']],
  ])('"%s" erases exactly the entries that hold it', async (text, erased) => {
    const scope = await createProject(h, `erase-text-${erased.join('-')}-${text.charCodeAt(0)}`);
    await h.ok(Import, { entries: Object.entries(NOTES).map(([name, content]) => ({ kind: 'KNOWLEDGE' as const, name, content, scope })) });
    const dry = (await h.ok(Erase, { scope, text, dryRun: true })).eraseMemory;
    if (dry.__typename !== 'EraseMemorySuccess') throw new Error(dry.__typename);
    expect(dry.receipt.counts).toEqual(erased.length ? expect.objectContaining({ Entry: erased.length }) : {});
    await h.ok(Erase, { scope, text });
    const left = (await h.ok(Names, { scope })).knowledge.edges.map((e) => e.node.name).sort();
    expect(left).toEqual(Object.keys(NOTES).filter((name) => !erased.includes(name)).sort());
  });

  it('blanks alone are refused: " " would match every entry with two words', async () => {
    const scope = await createProject(h, 'erase-text-blank');
    await h.ok(Import, { entries: Object.entries(NOTES).map(([name, content]) => ({ kind: 'KNOWLEDGE' as const, name, content, scope })) });
    for (const text of [' ', ' \t ']) expect((await h.ok(Erase, { scope, text, dryRun: false })).eraseMemory.__typename).toBe('ValidationError');
    expect((await h.ok(Names, { scope })).knowledge.edges).toHaveLength(Object.keys(NOTES).length);
  });
});
