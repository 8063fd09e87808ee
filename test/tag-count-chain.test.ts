// A tag's total counted on its links, less those carrying an excluded tag (taggedCount's
// subtraction, memory-query.tag-copies.ts), in the shortest chain that has an override: a project
// directly under global. The links subtracted must be the ones the first count counted: an entry
// of global overridden by the project's entry of its name is in neither. (A mutation run found no
// test with a chain of two scopes.) Its own file: it writes into the global scope.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });

const IMPORT = `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`;
const TOTAL = `query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 5) { edges { node { id } } meta { totalCount } } }`;

describe(`a tag's total less its excluded links, project under global (${DB_KIND})`, () => {
  it('leaves out of both counts an entry a nearer scope overrides', async () => {
    const created = await ok(h, null, `mutation { createProject(input: { name: "tcc" }) { ... on CreateProjectSuccess { project { id } } } }`);
    const project = (created as { createProject: { project: { id: string } } }).createProject.project.id;
    const global = ((await ok(h, null, `{ globalScope { id } }`)) as { globalScope: { id: string } }).globalScope.id;
    // Enough tagged entries that the page is pruned and the total counted on the links.
    const many = Array.from({ length: 300 }, (_, i) => ({
      scope: project,
      kind: 'KNOWLEDGE',
      name: `tcc-${i}`,
      content: 'c',
      tags: i % 3 ? ['tcc-x'] : ['tcc-x', 'tcc-z'],
    }));
    // The same name in both scopes, both carrying the driving and the excluded tag: the project's
    // entry overrides global's, so global's counts in neither term.
    const shared = [project, global].map((scope) => ({ scope, kind: 'KNOWLEDGE', name: 'tcc-shared', content: 'c', tags: ['tcc-x', 'tcc-z'] }));
    // And one of global's own that the project does not override, excluded too.
    const own = { scope: global, kind: 'KNOWLEDGE', name: 'tcc-global', content: 'c', tags: ['tcc-x', 'tcc-z'] };
    await ok(h, null, IMPORT, { e: [...many, ...shared, own] });

    const input = { scope: project, tags: { include: ['tcc-x'], exclude: ['tcc-z'] } };
    type Total = { memoryQuery: { meta: { totalCount: number } } };
    const page = (await ok(h, null, TOTAL, { i: input })) as Total;
    const doc = parse(TOTAL) as unknown as TypedDocumentNode<Total, Record<string, unknown>>;
    const full = await exhaustive.ok(doc, { i: input });
    // 300 entries, every third one excluded: 200 counted.
    expect(full.memoryQuery.meta.totalCount).toBe(200);
    expect(page.memoryQuery.meta.totalCount).toBe(200);
  });
});
