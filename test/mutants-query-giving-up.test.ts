// Pruning gives up on a context whose words match only entries a nearer scope overrides (issue #11,
// memory-query.pruning.ts: "never give up" survived every other test). The words then match in the
// chain, but no entry of the first statement's sample scores on them, so there is no best match to
// scale text scores by: the full ranking must answer. Kept in a file of its own: it fills the
// global scope, which the other query tests' chains include.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

describe(`a pruned context whose words match only overridden entries (${DB_KIND})`, () => {
  it('ranks as the exhaustive ranking does, with no text score', async () => {
    const global = (await m(`{ globalScope { id } }`)).globalScope.id as string;
    const p = (await m(`mutation { createProject(input: { name: "giving-up" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id as string;
    // 203 global notes match "zebra" (more than the 200 best matches a page of 100 samples); the
    // project overrides each one by name with a note that does not.
    const entries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 203; i++) entries.push({ scope: global, kind: 'KNOWLEDGE', name: `shadow-${i}`, content: `zebra zebra note ${i}` });
    for (let i = 0; i < 203; i++) entries.push({ scope: p, kind: 'KNOWLEDGE', name: `shadow-${i}`, content: `plain words of note ${i}` });
    const imported = await m(`mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, { e: entries });
    expect(imported.importEntries.__typename).toBe('ImportEntriesSuccess');
    const CTX = `query($i: ContextInput!) { context(input: $i) { knowledge { score breakdown { text } node { id } } } }`;
    const i = { scope: p, task: 'zebra', kinds: ['KNOWLEDGE'], tokenBudget: 1_000_000 };
    type Hit = { score: number; breakdown: { text: number }; node: { id: string } };
    const plain = (await m(CTX, { i })).context.knowledge as Hit[];
    const doc = parse(CTX) as unknown as TypedDocumentNode<{ context: { knowledge: Hit[] } }, Record<string, unknown>>;
    const full = (await exhaustive.ok(doc, { i })).context.knowledge;
    expect(plain).toHaveLength(100);
    expect(plain.map((e) => e.node.id)).toEqual(full.map((e) => e.node.id));
    plain.forEach((e, k) => expect(e.score).toBeCloseTo(full[k]!.score, 4));
    expect(plain.every((e) => e.breakdown.text === 0)).toBe(true);
  });
});
