// Both databases split and fold a text's words alike: a Latin letter's accent does not matter
// (SQLite's tokenizer drops it; PostgreSQL kept it), and ASCII punctuation breaks words (PostgreSQL
// kept hosts, paths, emails, decimals and hyphenated words as one word). Other scripts keep their
// marks on both.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();
const Search = parse('query($s: ID!, $q: String!) { memoryQuery(input: { scope: $s, search: $q }, first: 50) { edges { node { id } } } }') as TypedDocumentNode<any, any>;

describe(`words of a search (${DB_KIND})`, () => {
  it('are found whatever a Latin letter’s accent, and between ASCII punctuation', async () => {
    const p = await createProject(h, 'text-folding');
    const add = (title: string, content: string) => addKnowledge(h, p, title, { content });
    const ids = {
      cafe: await add('menu', 'Café au lait at the Ångström lab'),
      plain: await add('menu plain', 'cafe noir'),
      host: await add('endpoint', 'call api.example.com for it'),
      path: await add('binary', 'installed under /usr/local/bin'),
      email: await add('contact', 'write to ops@example.org'),
      decimal: await add('pi', 'roughly 3.14159 wide'),
      hyphen: await add('xray', 'an x-ray image'),
      cyrillic: await add('word', 'слово йод'),
    };
    const found = async (q: string) => ((await h.ok(Search, { s: p, q })).memoryQuery.edges as Array<{ node: { id: string } }>).map((e) => e.node.id).sort();
    const of = (...keys: Array<keyof typeof ids>) => keys.map((k) => ids[k]).sort();
    expect(await found('cafe')).toEqual(of('cafe', 'plain'));
    expect(await found('café')).toEqual(of('cafe', 'plain'));
    // Decomposed: "e" and a combining acute accent.
    expect(await found('cafe\u0301')).toEqual(of('cafe', 'plain'));
    expect(await found('angstrom')).toEqual(of('cafe'));
    expect(await found('ÅNGSTRÖM')).toEqual(of('cafe'));
    expect(await found('example')).toEqual(of('host', 'email'));
    expect(await found('com')).toEqual(of('host'));
    expect(await found('local')).toEqual(of('path'));
    expect(await found('org')).toEqual(of('email'));
    expect(await found('14159')).toEqual(of('decimal'));
    expect(await found('ray')).toEqual(of('hyphen'));
    // Not Latin: the breve of й is part of the letter (и is another word) on both.
    expect(await found('йод')).toEqual(of('cyrillic'));
    expect(await found('иод')).toEqual([]);
  });
});
