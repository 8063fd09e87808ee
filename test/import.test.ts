import { decodeGlobalID } from '@pothos/plugin-relay';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();
const dbId = (globalId: string) => decodeGlobalID(globalId).id;

const Import = graphql(`
  mutation Import($input: ImportEntriesInput!) {
    importEntries(input: $input) {
      __typename
      ... on ImportEntriesSuccess {
        imported {
          count
          entries { __typename name createdBy latestVersion tags { name } currentVersion { version ... on GuidelineVersion { content } } }
        }
      }
      ... on ValidationError { path issues { path message } }
      ... on UserError { code message }
    }
  }
`);

const Find = graphql(`
  query ImportFind($scope: ID!, $search: String) {
    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 100) { meta { totalCount } edges { node { name } } }
  }
`);

describe('importEntries', () => {
  it('adds entries of every kind with tags and search text in one call', async () => {
    const p = await createProject(h, 'import');
    const r = await h.ok(Import, {
      input: {
        author: 'agent:importer',
        entries: [
          { kind: 'TOOL', scope: p, name: 'rg', description: 'Searches files with ripgrep.', tags: ['cli'] },
          { kind: 'GUIDELINE', scope: p, name: 'small-prs', content: 'Keep pull requests small.', priority: 70 },
          { kind: 'KNOWLEDGE', scope: p, name: 'ci vendor', content: 'CI runs on buildkite.', tags: ['devops', 'new-tag'] },
        ],
      },
    });
    expect(r.importEntries).toMatchObject({
      __typename: 'ImportEntriesSuccess',
      imported: {
        count: 3,
        entries: [
          { __typename: 'Tool', name: 'rg', createdBy: 'agent:importer', latestVersion: 1, tags: [{ name: 'cli' }] },
          { __typename: 'Guideline', name: 'small-prs', currentVersion: { version: 1, content: 'Keep pull requests small.' } },
          { __typename: 'Knowledge', name: 'ci vendor', tags: [{ name: 'devops' }, { name: 'new-tag' }] },
        ],
      },
    });
    expect((await h.ok(Find, { scope: p, search: 'ripgrep' })).memoryQuery.edges).toEqual([{ node: { name: 'rg' } }]);
  });

  it('validates every entry first and writes nothing when one is invalid or a duplicate', async () => {
    const p = await createProject(h, 'import-invalid');
    const invalid = await h.ok(Import, {
      input: {
        entries: [
          { kind: 'TOOL', scope: p, name: 'ok-tool' },
          { kind: 'GUIDELINE', scope: p, name: 'no-content' },
          { kind: 'KNOWLEDGE', scope: p, name: 'bad', content: 'x', confidence: 3 },
        ],
      },
    });
    expect(invalid.importEntries).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'entries', '1', 'content'] },
        { path: ['input', 'entries', '2', 'confidence'] },
      ],
    });
    const duplicate = await h.ok(Import, {
      input: { entries: [{ kind: 'TOOL', scope: p, name: 'twice' }, { kind: 'TOOL', scope: p, name: 'twice' }] },
    });
    expect(duplicate.importEntries).toMatchObject({ __typename: 'AlreadyExistsError' });
    expect((await h.ok(Find, { scope: p })).memoryQuery.meta.totalCount).toBe(0);
  });

  it('is one transaction however many entries: a duplicate at the end leaves nothing of the start', async () => {
    const p = await createProject(h, 'import-atomic');
    const entries = Array.from({ length: 450 }, (_, i) => ({ kind: 'TOOL' as const, scope: p, name: `tool-${i}`, tags: ['atomic-tag'] }));
    entries.push({ kind: 'TOOL', scope: p, name: 'tool-0', tags: ['atomic-tag'] });
    const r = await h.ok(Import, { input: { entries } });
    expect(r.importEntries).toMatchObject({ __typename: 'AlreadyExistsError' });
    expect((await h.ok(Find, { scope: p })).memoryQuery.meta.totalCount).toBe(0);
    const ok = await h.ok(Import, { input: { entries: entries.slice(0, 450) } });
    expect(ok.importEntries).toMatchObject({ __typename: 'ImportEntriesSuccess', imported: { count: 450 } });
    expect((await h.ok(Find, { scope: p })).memoryQuery.meta.totalCount).toBe(450);
  });

  // 400 entries a statement with 50 tags each made 20,000 tag rows (60,000 values) and links
  // (40,000) in one statement: past SQLite's 32,766, an unexpected error ("too many SQL variables").
  it('takes 1,000 entries of 50 tags each, new tags or shared ones', async () => {
    const p = await createProject(h, 'import-tags');
    const Lean = parse('mutation($input: ImportEntriesInput!) { importEntries(input: $input) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code message } } }') as TypedDocumentNode<
      { importEntries: { __typename: string; imported?: { count: number } } },
      { input: { entries: Array<{ kind: 'TOOL'; scope: string; name: string; tags: string[] }> } }
    >;
    const tags = (i: number, own: boolean) => Array.from({ length: 50 }, (_, j) => (own ? `own-${i}-${j}` : `shared-${j}`));
    for (const own of [true, false]) {
      const entries = Array.from({ length: 1_000 }, (_, i) => ({ kind: 'TOOL' as const, scope: p, name: `${own ? 'own' : 'shared'}-${i}`, tags: tags(i, own) }));
      const r = await h.ok(Lean, { input: { entries } });
      expect(r.importEntries, JSON.stringify(r.importEntries)).toEqual({ __typename: 'ImportEntriesSuccess', imported: { count: 1_000 } });
    }
    expect(await h.database.prisma.entryTag.count({ where: { entry: { scopeId: dbId(p) } } })).toBe(100_000);
    expect(await h.database.prisma.tag.count({ where: { name: { startsWith: 'own-' } } })).toBe(50_000);
  });
});
