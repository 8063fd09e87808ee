// An import of the most entries a call takes (1,000) writes them in parts of 400 in one
// transaction (BULK_BATCH, entries.service.ts). On SQLite the transaction gives the event loop back
// between its parts, so other requests are answered meanwhile; it stays all or nothing. Before it,
// the entries are screened for secrets a list at a time, the loop turning between two lists too.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { loopTurns } from './support/loop-turns.ts';
import { createProject } from './support/ops.ts';
import * as secrets from '../src/modules/redaction/secrets.ts';
import { TEXT_CHARS_PER_LIST } from '../src/infra/id-lists.ts';
import { TAG_LINK_CHARS } from '../src/modules/entries/entries.service.ts';

/**
 * How many texts of these tests (they start "screened:") secrets.ts has scanned so far. The spy
 * sees redaction.service.ts's calls: vitest's module runner calls an import through its module.
 */
let scanned = 0;
const findSecrets = secrets.findSecrets;
const scans = vi.spyOn(secrets, 'findSecrets').mockImplementation(async (text) => {
  const found = await findSecrets(text);
  if (text.startsWith('screened:')) scanned++;
  return found;
});
// The files of a worker share their modules (vitest.config.ts): the next one scans unwatched.
afterAll(() => scans.mockRestore());

const h = useHarness();
const ENTRIES = 1_000;
/** The statement that starts each part (PostgreSQL's batch is one text holding all of them). */
const PART = /INSERT INTO "Entry" /g;

const Import = graphql(`
  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }
  }
`);
const ImportScreened = graphql(`
  mutation LargeImportScreened($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) {
      __typename
      ... on ImportEntriesSuccess { imported { count } }
      ... on ValidationError { issues { path message } }
    }
  }
`);
const Content = graphql(`
  query LargeImportContent($scope: ID!, $name: String!) {
    entryByName(scope: $scope, kind: KNOWLEDGE, name: $name) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }
  }
`);
const SetPolicy = graphql(`
  mutation LargeImportPolicy($scope: ID!) { setSecretPolicy(input: { scope: $scope, policy: REFUSE }) { __typename } }
`);
const ImportReadBack = graphql(`
  mutation LargeImportReadBack($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) {
      __typename
      ... on ImportEntriesSuccess {
        imported {
          entries {
            id
            name
            scope { id }
            currentVersion { version }
            versions(first: 2) { totalCount edges { node { version } } }
            tags { name }
            ... on Knowledge { v: versions(first: 1) { edges { node { ... on KnowledgeVersion { content } } } } }
          }
        }
      }
    }
  }
`);
const Count = graphql(`
  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }
`);

/** 1,000 knowledge entries named in the order they are written (by name): n-0000 first, n-0999 last. */
const entries = (scope: string) =>
  Array.from({ length: ENTRIES }, (_, i) => ({ kind: 'KNOWLEDGE' as const, scope, name: `n-${String(i).padStart(4, '0')}`, content: `fact ${i}`, tags: ['bulk', `t${i % 20}`] }));

/**
 * SQLite: the timer saw the import between two of its parts (after the first, a turn may go
 * straight to the next part without the timers' phase, as in test/deletion-large.test.ts).
 * PostgreSQL: all parts went in one round trip, the loop free while it ran.
 */
function expectTurnsBetweenParts(seen: number[]): void {
  if (DB_KIND === 'sqlite') expect(seen.filter((parts) => parts > 0 && parts < 3)).not.toEqual([]);
  else expect(seen).toContain(3);
}

describe(`importing ${ENTRIES} entries (${DB_KIND})`, () => {
  it('gives the event loop back between its parts of 400', async () => {
    const project = await createProject(h, 'import-turns');
    const turns = await loopTurns(h, () => h.ok(Import, { entries: entries(project) }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'ImportEntriesSuccess', imported: { count: ENTRIES } });
    expect(turns.total(PART)).toBe(3);
    expectTurnsBetweenParts(turns.seen(PART));
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(ENTRIES);
  }, 60_000);

  it('ends a part early at TEXT_CHARS_PER_LIST of text (400 entries of 24 KB held the loop ~5 s in one part)', async () => {
    const project = await createProject(h, 'import-text-parts');
    const text = 'word '.repeat(4_000);
    const big = Array.from({ length: 40 }, (_, i) => ({ kind: 'KNOWLEDGE' as const, scope: project, name: `b-${String(i).padStart(2, '0')}`, content: text }));
    const perPart = Math.floor(TEXT_CHARS_PER_LIST / ('b-00'.length + text.length));
    expect(perPart).toBeGreaterThan(1);
    const turns = await loopTurns(h, () => h.ok(Import, { entries: big }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'ImportEntriesSuccess', imported: { count: 40 } });
    const parts = Math.ceil(40 / perPart);
    expect(turns.total(PART)).toBe(parts);
    if (DB_KIND === 'sqlite') expect(turns.seen(PART).filter((n) => n > 0 && n < parts)).not.toEqual([]);
  }, 60_000);

  it('ends a part early by its tags too, each weighing TAG_LINK_CHARS (400 entries of 50 new tags held the loop ~360 ms in one part)', async () => {
    const project = await createProject(h, 'import-tag-parts');
    const tagged = Array.from({ length: 100 }, (_, i) => ({
      kind: 'KNOWLEDGE' as const,
      scope: project,
      name: `g-${String(i).padStart(3, '0')}`,
      content: `fact ${i}`,
      tags: Array.from({ length: 50 }, (_, j) => `g${i}-${j}`),
    }));
    const turns = await loopTurns(h, () => h.ok(Import, { entries: tagged }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'ImportEntriesSuccess', imported: { count: 100 } });
    const atMostPerPart = Math.floor(TEXT_CHARS_PER_LIST / (50 * TAG_LINK_CHARS));
    expect(atMostPerPart).toBeLessThan(100);
    const parts = turns.total(PART);
    expect(parts).toBeGreaterThanOrEqual(Math.ceil(100 / atMostPerPart));
    if (DB_KIND === 'sqlite') expect(turns.seen(PART).filter((n) => n > 0 && n < parts)).not.toEqual([]);
  }, 60_000);

  it('writes nothing when its last part fails, after the loop turned', async () => {
    const project = await createProject(h, 'import-turns-taken');
    const last = entries(project).at(-1)!;
    expect((await h.ok(Import, { entries: [last] })).importEntries.__typename).toBe('ImportEntriesSuccess');
    const turns = await loopTurns(h, () => h.ok(Import, { entries: entries(project) }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS' });
    expect(turns.total(PART)).toBe(3);
    expectTurnsBetweenParts(turns.seen(PART));
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(1);
  }, 60_000);
});

/** 1,000 knowledge entries with texts the screening scans; every 100th (0, 100, ..., 900) holds a password. */
const screened = (scope: string) =>
  entries(scope).map((entry, i) => ({ ...entry, content: `screened: fact ${i} about the deploy${i % 100 === 0 ? `, password: hunter-${i}` : ''}` }));

describe(`screening ${ENTRIES} entries for secrets before an import (${DB_KIND})`, () => {
  it('gives the event loop back between lists of entries and while it builds the write, and redacts as one list would', async () => {
    const project = await createProject(h, 'import-screen-turns');
    const at = scanned;
    h.resetStatements();
    /** At each turn of the loop: how many texts were scanned, how many parts of the write begun. */
    const seen: Array<[number, number]> = [];
    const timer = setInterval(() => seen.push([scanned - at, h.statements.join('\n').match(PART)?.length ?? 0]), 0);
    const result = await h.ok(ImportScreened, { entries: screened(project) }).finally(() => clearInterval(timer));
    expect(scanned - at).toBe(ENTRIES);
    // Screened under one Promise.all, all 1,000 texts were scanned in one turn: the timer saw none or all.
    expect(seen.filter(([texts]) => texts > 0 && texts < ENTRIES)).not.toEqual([]);
    // SQLite: it turned while the write's parts were built, too (PostgreSQL's batch is one round trip).
    if (DB_KIND === 'sqlite') expect(seen.filter(([texts, parts]) => texts === ENTRIES && parts === 0)).not.toEqual([]);
    expect(result.importEntries).toEqual({ __typename: 'ImportEntriesSuccess', imported: { count: ENTRIES } });
    const content = async (i: number) => {
      const entry = (await h.ok(Content, { scope: project, name: screened(project)[i]!.name })).entryByName;
      return entry && 'currentVersion' in entry ? entry.currentVersion?.content : undefined;
    };
    expect(await content(0)).toBe('screened: fact 0 about the deploy, [REDACTED:credential]');
    expect(await content(900)).toBe('screened: fact 900 about the deploy, [REDACTED:credential]');
    expect(await content(901)).toBe('screened: fact 901 about the deploy');
  }, 60_000);

  it('under REFUSE names the first entry that holds a secret, and nothing is written', async () => {
    const project = await createProject(h, 'import-screen-refuse');
    await h.ok(SetPolicy, { scope: project });
    // Entries 300 and 700 hold one, in two lists: the first list's, as under one Promise.all (the first entry's).
    const input = screened(project).map((entry, i) => (i % 100 === 0 && i !== 300 && i !== 700 ? { ...entry, content: `screened: fact ${i}` } : entry));
    const result = await h.ok(ImportScreened, { entries: input });
    expect(result.importEntries).toEqual({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'entries', '300', 'content'], message: 'holds a secret (credential); this scope refuses secrets' }],
    });
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(0);
  }, 60_000);

  it('returns its entries with the relations asked for, in input order (a lookup per entry, batched, passed the bound values a statement takes)', async () => {
    const project = await createProject(h, 'import-read-back');
    const result = await h.ok(ImportReadBack, { entries: entries(project) });
    if (result.importEntries.__typename !== 'ImportEntriesSuccess') throw new Error(result.importEntries.__typename);
    const read = result.importEntries.imported.entries;
    expect(read.map((e) => e.name)).toEqual(entries(project).map((e) => e.name));
    expect(new Set(read.map((e) => e.scope.id))).toEqual(new Set([project]));
    expect(read.every((e) => e.currentVersion.version === 1 && e.versions.totalCount === 1 && e.versions.edges[0]?.node.version === 1)).toBe(true);
    expect(read[999]!.tags.map((t) => t.name).sort()).toEqual(['bulk', 't19']);
    const last = read[999]!;
    expect('v' in last && last.v.edges[0]?.node).toEqual({ content: 'fact 999' });
  }, 60_000);
});
