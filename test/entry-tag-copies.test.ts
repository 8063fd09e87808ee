// The copies of an entry's columns on its tag links (EntryTag: scope, kind, active flag, name,
// expiry, last change, priority, whether its name is shared), which tag queries count and sample on, follow every write that
// changes them: a new link, an update of the content alone, a priority change, tags attached and detached, deactivation
// and reactivation, a new expiry, a promotion from a session to its project. Both databases.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const COPIED = ['scopeId', 'kind', 'active', 'name', 'validUntil', 'updatedAt', 'priority', 'nameShared'] as const;

/** Every link of these entries whose copies differ from its entry, as [entry name, tag, column]. */
async function stale(entries: string[]): Promise<Array<[string, string, string]>> {
  const links = await h.database.prisma.entryTag.findMany({ where: { entryId: { in: entries.map(dbId) } }, include: { entry: true } });
  expect(links.length).toBeGreaterThan(0);
  const text = (v: Date | string | number | boolean | null) => (v instanceof Date ? v.toISOString() : String(v));
  return links.flatMap((link) =>
    COPIED.filter((c) => text(link[c]) !== text(link.entry[c])).map((c): [string, string, string] => [link.entry.name, link.tagId, c]),
  );
}

describe("an entry's tag links", () => {
  it('keep copies of the columns tag queries read through every kind of write, and tag queries agree with the exhaustive ranking', async () => {
    const project = (await m(`mutation { createProject(input: { name: "tag-copies" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
    const session = (
      await m(`mutation($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { ... on StartSessionSuccess { session { id } } } }`, { p: project })
    ).startSession.session.id;
    const guideline = (
      await m(`mutation($s: ID!) { addGuideline(input: { scope: $s, name: "tc-guideline", content: "g", priority: 10, tags: ["tc-a", "tc-b"] }) { ... on AddGuidelineSuccess { guideline { id } } } }`, { s: project })
    ).addGuideline.guideline.id;
    const tool = (await m(`mutation($s: ID!) { addTool(input: { scope: $s, name: "tc-tool", description: "t" }) { ... on AddToolSuccess { tool { id } } } }`, { s: project })).addTool.tool.id;
    const note = (
      await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "tc-note", content: "k", tags: ["tc-a"], validUntil: "2999-01-01T00:00:00.000Z" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, {
        s: session,
      })
    ).addKnowledge.knowledge.id;
    const entries = [guideline, tool, note];
    expect(await stale([guideline, note])).toEqual([]);

    const steps: Array<[string, string, Record<string, unknown>]> = [
      ['an update with a new priority', `mutation($id: ID!) { updateGuideline(input: { id: $id, content: "g2", priority: 90 }) { __typename } }`, { id: guideline }],
      ['an update of the content alone (of the copies, only the last change moves)', `mutation($id: ID!) { updateGuideline(input: { id: $id, content: "g3" }) { __typename } }`, { id: guideline }],
      ['tags attached (the trigger fills a link made without copies)', `mutation($id: ID!) { attachTags(input: { entry: $id, tags: ["tc-a"] }) { __typename } }`, { id: tool }],
      ['tags detached', `mutation($id: ID!) { detachTags(input: { entry: $id, tags: ["tc-b"] }) { __typename } }`, { id: guideline }],
      ['deactivation', `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: guideline }],
      ['reactivation', `mutation($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }`, { id: guideline }],
      ['a new expiry', `mutation($id: ID!) { updateKnowledge(input: { id: $id, content: "k2", validUntil: "2998-01-01T00:00:00.000Z" }) { __typename } }`, { id: note }],
      ['a promotion to the project', `mutation($id: ID!, $e: ID!) { completeSession(input: { id: $id, promote: [$e] }) { __typename } }`, { id: session, e: note }],
      ['another deactivation', `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: tool }],
    ];
    for (const [label, mutation, variables] of steps) {
      const result = await m(mutation, variables);
      expect(Object.values(result)[0], label).toMatchObject({ __typename: expect.stringMatching(/Success$/) });
      expect(await stale(entries), label).toEqual([]);
    }
    const links = await h.database.prisma.entryTag.findMany({ where: { entryId: dbId(note) } });
    expect(links.map((l) => l.scopeId)).toEqual([dbId(project)]);

    // A tag query's page and total, pruned and counted on the links, as the exhaustive ranking has them.
    const q = parse(`query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 1) { edges { score node { id } } meta { totalCount } } }`) as unknown as TypedDocumentNode<
      { memoryQuery: { edges: Array<{ score: number; node: { id: string } }>; meta: { totalCount: number } } },
      Record<string, unknown>
    >;
    for (const i of [{ scope: project, tags: { include: ['tc-a'] } }, { scope: project, tags: { include: ['tc-a'] }, includeInactive: true }]) {
      const page = (await h.ok(q, { i })).memoryQuery;
      const full = (await exhaustive.ok(q, { i })).memoryQuery;
      // Scored a few milliseconds apart: recency differs in the eighth decimal.
      expect(page.edges.map((e) => e.node.id)).toEqual(full.edges.map((e) => e.node.id));
      expect(page.edges[0]!.score).toBeCloseTo(full.edges[0]!.score, 5);
      expect(page.meta).toEqual(full.meta);
      expect(page.meta.totalCount).toBe(i.includeInactive ? 3 : 2);
    }
  });
});

describe("a tag's total", () => {
  // On SQLite the total of a tag's entries sums counters of its plain links and checks the others
  // one by one (migration tag_counts); on PostgreSQL it counts the links. Either way, after every
  // write that moves a link into or out of a count, it is the exhaustive ranking's total.
  it('stays exact through every write that moves a link into or out of a count, expiry and overrides included', async () => {
    const add = async (kind: 'Guideline' | 'Tool' | 'Knowledge', scope: string, name: string, tags: string[], extra = '') => {
      const field = kind === 'Tool' ? 'description' : 'content';
      const title = kind === 'Knowledge' ? 'title' : 'name';
      const result = await m(
        `mutation($s: ID!, $n: String!, $t: [String!]) { add${kind}(input: { scope: $s, ${title}: $n, ${field}: "x", tags: $t${extra} }) { ... on Add${kind}Success { ${kind.toLowerCase()} { id } } } }`,
        { s: scope, n: name, t: tags },
      );
      return (Object.values(result)[0] as Record<string, { id: string }>)[kind.toLowerCase()]!.id;
    };
    const project = (await m(`mutation { createProject(input: { name: "tag-totals" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
    const session = (
      await m(`mutation($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { ... on StartSessionSuccess { session { id } } } }`, { p: project })
    ).startSession.session.id;
    const guideline = await add('Guideline', project, 'tt-g', ['tt-a']);
    const tool = await add('Tool', project, 'tt-t', ['tt-a', 'tt-b']);
    const untagged = await add('Tool', project, 'tt-u', []);
    const note = await add('Knowledge', project, 'tt-k', ['tt-a'], `, validUntil: "2999-01-01T00:00:00.000Z"`);
    const gone = await add('Knowledge', session, 'tt-gone', ['tt-a']);
    // Enough tagged entries that a page's sample does not hold them all: the total is then counted
    // apart (a sample that holds every candidate counts them itself).
    for (let i = 0; i < 12; i++) await add('Tool', project, `tt-filler-${i}`, ['tt-a']);

    const q = parse(`query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 1) { meta { totalCount } } }`) as unknown as TypedDocumentNode<
      { memoryQuery: { meta: { totalCount: number } } },
      Record<string, unknown>
    >;
    const shapes = [
      { scope: session, tags: { include: ['tt-a'] } },
      { scope: project, tags: { include: ['tt-a'] } },
      { scope: session, tags: { include: ['tt-a'] }, includeInactive: true },
      { scope: session, tags: { include: ['tt-a'] }, kinds: ['GUIDELINE', 'KNOWLEDGE'] },
      { scope: session, tags: { include: ['tt-a'], exclude: ['tt-b'] } },
    ];
    const totals = async (via: Pick<typeof h, 'ok'>) => Promise.all(shapes.map(async (i) => (await via.ok(q, { i })).memoryQuery.meta.totalCount));
    const check = async (label: string, expected: number[]) => {
      // Twice: the second asks with the bound the first taught (the total then rides in its statement).
      for (let n = 0; n < 2; n++) expect(await totals(h), label).toEqual(await totals(exhaustive));
      expect(await totals(h), label).toEqual(expected);
    };
    await check('created', [16, 15, 16, 3, 15]);
    const steps: Array<[string, string, Record<string, unknown>, number[]]> = [
      // A session guideline of the project guideline's name and kind overrides it in the session's chain.
      ['an override', `mutation($s: ID!) { addGuideline(input: { scope: $s, name: "tt-g", content: "y" }) { __typename } }`, { s: session }, [15, 15, 15, 2, 14]],
      ['a tag attached', `mutation($id: ID!) { attachTags(input: { entry: $id, tags: ["tt-a"] }) { __typename } }`, { id: untagged }, [16, 16, 16, 2, 15]],
      ['a tag detached', `mutation($id: ID!) { detachTags(input: { entry: $id, tags: ["tt-a"] }) { __typename } }`, { id: tool }, [15, 15, 15, 2, 15]],
      ['a deactivation', `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: gone }, [14, 15, 15, 1, 14]],
      ['a reactivation', `mutation($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }`, { id: gone }, [15, 15, 15, 2, 15]],
      ['a deletion', `mutation($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }`, { id: gone }, [14, 15, 14, 1, 14]],
      ['an update', `mutation($id: ID!) { updateGuideline(input: { id: $id, content: "g2", priority: 90 }) { __typename } }`, { id: guideline }, [14, 15, 14, 1, 14]],
    ];
    for (const [label, mutation, variables, expected] of steps) {
      const result = await m(mutation, variables);
      expect(Object.values(result)[0], label).toMatchObject({ __typename: expect.stringMatching(/Success$/) });
      await check(label, expected);
    }
    // The note's expiry, brought near, passes: no write then, yet it no longer counts.
    const expiring = new Date(Date.now() + 1_000).toISOString();
    const update = `mutation($id: ID!, $v: DateTime!) { updateKnowledge(input: { id: $id, content: "k2", validUntil: $v }) { __typename } }`;
    expect((await m(update, { id: note, v: expiring })).updateKnowledge.__typename).toBe('UpdateKnowledgeSuccess');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiring) - Date.now()) + 50));
    await check('an expiry passed', [13, 14, 13, 0, 13]);
    if (h.database.provider === 'sqlite') {
      // The counters are the plain links' counts, and the odd list the other links, as recounted.
      const raw = (sql: string) => h.database.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(sql);
      const norm = (rows: Array<Record<string, unknown>>) => rows.map((r) => JSON.stringify(Object.values(r).map(String)));
      expect(norm(await raw(`SELECT "tagId", "scopeId", "kind", "active", "links" FROM "TagLinkCount" WHERE "links" <> 0 ORDER BY 1, 2, 3, 4`))).toEqual(
        norm(
          await raw(`SELECT "tagId", "scopeId", "kind", "active", COUNT(*) FROM "EntryTag" WHERE "validUntil" IS NULL AND NOT "nameShared" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
        ),
      );
      expect(norm(await raw(`SELECT "tagId", "entryId" FROM "TagLinkOdd" ORDER BY 1, 2`))).toEqual(
        norm(await raw(`SELECT "tagId", "entryId" FROM "EntryTag" WHERE "validUntil" IS NOT NULL OR "nameShared" ORDER BY 1, 2`)),
      );
    }
  });
});

describe('an update of an entry', () => {
  it("writes the columns it changes and keeps the others, as a read of the database finds them (it sets only the changed ones)", async () => {
    const scope = (await m(`mutation { createProject(input: { name: "update-columns" }) { ... on CreateProjectSuccess { project { id } } } }`, {})).createProject.project.id;
    const id = (
      await m(`mutation($s: ID!) { addGuideline(input: { scope: $s, name: "uc", content: "one", priority: 10, category: "first", tags: ["uc-tag"] }) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
        s: scope,
      })
    ).addGuideline.guideline.id;
    // The list reads the database through Prisma (not the rows this process keeps for its writes).
    const listed = async () =>
      (await m(`query($s: ID!) { guidelines(filter: { scope: $s }, first: 5) { edges { node { priority category memoryType importance currentVersion { content } } } } }`, { s: scope }))
        .guidelines.edges[0].node;
    const update = async (input: string) =>
      expect((await m(`mutation($id: ID!) { updateGuideline(input: { id: $id, ${input} }) { __typename } }`, { id })).updateGuideline.__typename).toBe('UpdateGuidelineSuccess');
    const before = await listed();
    await update('content: "two"');
    expect(await listed()).toEqual({ ...before, currentVersion: { content: 'two' } });
    await update('content: "three", priority: 70, category: "second", memoryType: SEMANTIC, importance: 0.9');
    const changed = { priority: 70, category: 'second', memoryType: 'SEMANTIC', importance: 0.9, currentVersion: { content: 'three' } };
    expect(await listed()).toEqual(changed);
    await update('content: "four"');
    expect(await listed()).toEqual({ ...changed, currentVersion: { content: 'four' } });
  });
});
