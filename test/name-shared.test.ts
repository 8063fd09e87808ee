// Entry.nameShared: queries check whether a nearer scope overrides an entry only when another
// entry of its kind has (or had) its name. The mark is set when an entry is added or renamed into
// a taken name, on both entries, also when two writers take one name at once; queries that skip
// the check for unmarked entries agree with the exhaustive ranking, which checks every entry.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness, useVariant } from './support/harness.ts';

const h = useHarness();
const exhaustive = useVariant(h, { exhaustiveRanking: true });
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
let n = 0;

async function scopes(): Promise<{ project: string; session: string }> {
  const project = (await m(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `ns-${++n}` }))
    .createProject.project.id;
  const session = (await m(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p: project })).startSession
    .session.id;
  return { project, session };
}
const addTool = async (scope: string, name: string, tags: string[] = ['ns-tag']): Promise<string> => {
  const r = await m(`mutation($s: ID!, $n: String!, $t: [String!]) { addTool(input: { scope: $s, name: $n, description: "d", tags: $t }) { ... on AddToolSuccess { tool { id } } } }`, {
    s: scope,
    n: name,
    t: tags,
  });
  return r.addTool.tool.id;
};
/** Each entry's mark, and its tag links' copies of it. */
async function marks(ids: string[]): Promise<Array<{ entry: boolean; links: Array<boolean | null> }>> {
  const rows = await h.database.prisma.entry.findMany({ where: { id: { in: ids.map(dbId) } }, include: { tags: true } });
  return ids.map((id) => {
    const row = rows.find((r) => r.id === dbId(id))!;
    return { entry: row.nameShared, links: row.tags.map((t) => t.nameShared) };
  });
}

type Page = { memoryQuery: { edges: Array<{ node: { id: string } }>; meta: { totalCount: number } } };
const TAGGED = parse(`query($s: ID!) { memoryQuery(input: { scope: $s, tags: { include: ["ns-tag"] } }, first: 50) { edges { node { id } } meta { totalCount } } }`) as unknown as TypedDocumentNode<
  Page,
  Record<string, unknown>
>;
const PLAIN = parse(`query($s: ID!) { memoryQuery(input: { scope: $s, kinds: [TOOL] }, first: 50) { edges { node { id } } meta { totalCount } } }`) as unknown as TypedDocumentNode<
  Page,
  Record<string, unknown>
>;
/** The session's tagged and untagged pages, as the pruned and counted-on-links paths give them and as the exhaustive ranking does. */
async function agree(session: string): Promise<Page[]> {
  const pages: Page[] = [];
  for (const doc of [TAGGED, PLAIN]) {
    const fast = await h.ok(doc, { s: session });
    expect(fast).toEqual(await exhaustive.ok(doc, { s: session }));
    pages.push(fast);
  }
  return pages;
}

describe("an entry's nameShared mark", () => {
  it('is set on both entries when a second entry of the kind takes the name, in another scope or by a rename, and not for another kind', async () => {
    const { project, session } = await scopes();
    const alone = await addTool(project, 'ns-alone');
    const far = await addTool(project, 'ns-x');
    await m(`mutation($s: ID!) { addGuideline(input: { scope: $s, name: "ns-x", content: "c" }) { __typename } }`, { s: session });
    expect(await marks([alone, far])).toEqual([
      { entry: false, links: [false] },
      { entry: false, links: [false] },
    ]);
    const near = await addTool(session, 'ns-x');
    expect(await marks([alone, far, near])).toEqual([
      { entry: false, links: [false] },
      { entry: true, links: [true] },
      { entry: true, links: [true] },
    ]);
    // The session's tool overrides the project's: left out of the page and of the count.
    const [tagged] = await agree(session);
    expect(tagged!.memoryQuery.edges.map((e) => e.node.id).sort()).toEqual([alone, near].sort());
    expect(tagged!.memoryQuery.meta.totalCount).toBe(2);

    const renamed = await addTool(session, 'ns-other');
    expect(await marks([renamed])).toEqual([{ entry: false, links: [false] }]);
    const r = await m(`mutation($id: ID!) { renameEntry(input: { id: $id, name: "ns-alone" }) { __typename } }`, { id: renamed });
    expect(r.renameEntry.__typename).toMatch(/Success$/);
    expect(await marks([alone, renamed])).toEqual([
      { entry: true, links: [true] },
      { entry: true, links: [true] },
    ]);
    const [afterRename, plain] = await agree(session);
    expect(afterRename!.memoryQuery.edges.map((e) => e.node.id).sort()).toEqual([renamed, near].sort());
    expect(plain!.memoryQuery.meta.totalCount).toBe(2);
  });

  it("is copied to the renamed entry's links by the rename's own statement, whatever runs after it", async () => {
    // The statement that takes the name marks the renamed row in a nested update (its trigger);
    // the copy the statement itself then makes must take the row as it is by then, not as the
    // statement wrote it (which would put the links back to unmarked until some later write of
    // the entry happened to copy its row again).
    const { project, session } = await scopes();
    const first = await addTool(project, 'ns-copy-a');
    const second = await addTool(session, 'ns-copy-b');
    await h.database.prisma.$executeRaw`UPDATE "Entry" SET "name" = ${'ns-copy-a'} WHERE "id" = ${dbId(second)}`;
    expect(await marks([first, second])).toEqual([
      { entry: true, links: [true] },
      { entry: true, links: [true] },
    ]);
  });

  it('is set when two writers add entries of one name at once', async () => {
    const { project, session } = await scopes();
    const pairs = await Promise.all(
      Array.from({ length: 15 }, (_, i) => Promise.all([addTool(project, `ns-race-${i}`), addTool(session, `ns-race-${i}`)])),
    );
    const all = await marks(pairs.flat());
    expect(all.every((mark) => mark.entry && mark.links.every(Boolean))).toBe(true);
    // Every project tool is overridden by its session twin.
    const [tagged, plain] = await agree(session);
    expect(tagged!.memoryQuery.meta.totalCount).toBe(15);
    expect(plain!.memoryQuery.meta.totalCount).toBe(15);
  });

  it('is set on every entry of two bulk imports of the same names in opposite orders, run at once', async () => {
    // Each import takes its names' rows in one order (kind, then name) whatever the order it was
    // given, so the two never wait on each other in a cycle; either way, every name ends up shared.
    const { project, session } = await scopes();
    const names = Array.from({ length: 60 }, (_, i) => `ns-bulk-${String(i).padStart(2, '0')}`);
    const entries = (scope: string, order: string[]) => order.map((name) => ({ scope, kind: 'TOOL', name, description: 'd', tags: ['ns-tag'] }));
    const importing = (scope: string, order: string[]) =>
      m(`mutation($i: ImportEntriesInput!) { importEntries(input: $i) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } } }`, { i: { entries: entries(scope, order) } });
    const [a, b] = await Promise.all([importing(project, names), importing(session, [...names].reverse())]);
    const ids = [...a.importEntries.imported.entries, ...b.importEntries.imported.entries].map((e: { id: string }) => e.id);
    expect(ids).toHaveLength(120);
    expect((await marks(ids)).every((mark) => mark.entry && mark.links.every(Boolean))).toBe(true);
    const [tagged, plain] = await agree(session);
    expect(tagged!.memoryQuery.meta.totalCount).toBe(60);
    expect(plain!.memoryQuery.meta.totalCount).toBe(60);
  });

  it.skipIf(DB_KIND !== 'postgresql')('is set on both entries when the second of two open transactions takes the name (PostgreSQL: it waits for the first)', async () => {
    // Two connections, each adding an entry of one name in its own transaction: the second's
    // trigger waits on the name's row until the first commits, then sees the first's entry. A
    // check that did not wait would see neither entry from the other side and mark neither.
    const { project, session } = await scopes();
    const [a, b] = [new pg.Client({ connectionString: h.url }), new pg.Client({ connectionString: h.url })];
    await a.connect();
    await b.connect();
    try {
      const insert = (c: pg.Client, id: string, scope: string) =>
        c.query(`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "updatedAt") VALUES ($1, 'TOOL', $2, 'ns-open', now())`, [id, dbId(scope)]);
      await a.query('BEGIN');
      await b.query('BEGIN');
      await insert(a, 'ns-open-a', project);
      const second = insert(b, 'ns-open-b', session);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await a.query('COMMIT');
      await second;
      await b.query('COMMIT');
      const rows = await h.database.prisma.entry.findMany({ where: { id: { in: ['ns-open-a', 'ns-open-b'] } }, select: { nameShared: true } });
      expect(rows.map((r) => r.nameShared)).toEqual([true, true]);
    } finally {
      await a.end();
      await b.end();
    }
  });
});
