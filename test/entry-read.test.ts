// `entry(id:)` and the page of a memoryQuery or context, with only the entries' own fields or
// their current versions selected, are read in one raw statement (findEntries) instead of through
// Prisma's client (two statements with the versions): the answers must be the ones Prisma's path
// gives, field for field, for every kind, with JSON, dates, nulls and booleans.
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject } from './support/ops.ts';

const h = useHarness();

const FIELDS = `id kind name category active importance memoryType accessCount lastAccessedAt latestVersion createdAt createdBy updatedAt
  ... on Guideline { priority }
  currentVersion {
    id version changeReason conflictFlag createdAt createdBy
    ... on ToolVersion { description parameters constraints examples }
    ... on GuidelineVersion { content rationale examples }
    ... on KnowledgeVersion { content source confidence validUntil }
  }`;
/** One statement: only the current version is included. */
const FAST = `query($id: ID!) { entry(id: $id) { ${FIELDS} } }`;
/** The entry's own fields only. */
const OWN = `query($id: ID!) { entry(id: $id) { ${FIELDS.slice(0, FIELDS.indexOf('currentVersion'))} } }`;
/** The same fields with the scope too: Prisma's path (and one more relation). */
const PRISMA = `query($id: ID!) { entry(id: $id) { ${FIELDS} scope { id } } }`;

/** A read of Prisma's client from Entry or EntryVersion (SQLite quotes `main`.`Entry`, PostgreSQL "public"."Entry"). */
const PRISMA_ENTRY_READ = /^SELECT [`"](main|public)[`"]\.[`"]Entry(Version)?[`"]\./;

/** The statements one `entry(id:)` sends (tags and other fields' own loaders aside: none are selected). */
async function read(query: string, id: string): Promise<{ entry: Record<string, unknown> | null; statements: number }> {
  h.resetStatements();
  const data = (await ok(h, null, query, { id })) as { entry: Record<string, unknown> | null };
  return { entry: data.entry, statements: h.statements.length };
}

describe(`entry(id:) with its current version (${DB_KIND})`, () => {
  it('answers from one statement what Prisma answers from two, for every kind and kind of value', async () => {
    const project = await createProject(h, 'entry-read');
    const tool = await addTool(h, project, 'entry-read-tool', {
      description: 'reads',
      parameters: { type: 'object', properties: { n: { type: 'integer' } } },
      examples: [{ n: 1 }, 'plain'],
      category: 'io',
      importance: 0.75,
    });
    const guideline = await addGuideline(h, project, 'entry-read-guideline', { priority: 80, rationale: 'why', examples: 7, memoryType: 'EPISODIC' });
    const knowledge = await addKnowledge(h, project, 'entry-read-knowledge', { source: 'docs', confidence: 0.4, validUntil: '2031-01-02T03:04:05.678Z', author: 'agent-a' });
    await ok(h, null, `mutation($id: ID!) { updateGuideline(input: { id: $id, content: "second", changeReason: "edit", author: "agent-b" }) { __typename } }`, { id: guideline });

    for (const id of [tool, guideline, knowledge]) {
      const fast = await read(FAST, id);
      const prisma = await read(PRISMA, id);
      expect(fast.statements).toBe(1);
      expect(prisma.statements).toBeGreaterThan(1);
      const { scope: _scope, ...rest } = prisma.entry!;
      expect(fast.entry).toEqual(rest);
      // The entry's own fields alone: one raw statement too.
      const own = await read(OWN, id);
      expect(own.statements).toBe(1);
      const { currentVersion: _version, ...entryOnly } = rest;
      expect(own.entry).toEqual(entryOnly);
    }
    // What the fixtures set is what both answered (so the comparison is of values, not of nulls).
    const g = (await read(FAST, guideline)).entry!;
    expect(g).toMatchObject({ priority: 80, memoryType: 'EPISODIC', latestVersion: 2, currentVersion: { version: 2, content: 'second', rationale: 'why', examples: 7, changeReason: 'edit', createdBy: 'agent-b' } });
    expect((await read(FAST, tool)).entry!.currentVersion).toMatchObject({ parameters: { type: 'object', properties: { n: { type: 'integer' } } }, examples: [{ n: 1 }, 'plain'] });
    expect((await read(FAST, knowledge)).entry!.currentVersion).toMatchObject({ confidence: 0.4, validUntil: '2031-01-02T03:04:05.678Z', source: 'docs' });
  });

  it('a memoryQuery page: the entries, with or without their current versions, as Prisma answers them', async () => {
    const project = await createProject(h, 'entries-read');
    await addTool(h, project, 'entries-read-tool', { description: 'reads', parameters: { a: [1, 2] }, importance: 0.25 });
    await addGuideline(h, project, 'entries-read-guideline', { priority: 10, examples: { e: true } });
    const knowledge = await addKnowledge(h, project, 'entries-read-knowledge', { validUntil: '2032-05-06T07:08:09.010Z' });
    // An inactive entry (a false boolean), a read one (a time that is not null), and on SQLite a
    // time as a CURRENT_TIMESTAMP default writes it (no zone: UTC).
    await ok(h, null, `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: knowledge });
    const knowledgeId = Buffer.from(knowledge, 'base64').toString().split(':')[1]!;
    await h.database.prisma.entry.update({ where: { id: knowledgeId }, data: { accessCount: 3, lastAccessedAt: new Date('2030-01-02T03:04:05.006Z') } });
    if (DB_KIND === 'sqlite') await h.database.prisma.$executeRaw`UPDATE "Entry" SET "createdAt" = '2029-12-31 23:59:58' WHERE "id" = ${knowledgeId}`;
    const page = (fields: string) =>
      `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false, includeInactive: true }, first: 10) { edges { node { ${fields} } } } }`;
    const nodes = async (fields: string) => {
      h.resetStatements();
      const data = (await ok(h, null, page(fields), { s: project })) as { memoryQuery: { edges: Array<{ node: Record<string, unknown> }> } };
      return { nodes: data.memoryQuery.edges.map((e) => e.node), statements: [...h.statements] };
    };
    const entryFields = FIELDS.slice(0, FIELDS.indexOf('currentVersion'));
    for (const fields of [FIELDS, entryFields]) {
      const fast = await nodes(fields);
      const prisma = await nodes(`${fields} scope { id }`);
      expect(fast.nodes).toHaveLength(3);
      expect(fast.nodes).toEqual(prisma.nodes.map(({ scope: _scope, ...rest }) => rest));
      // With versions, one raw statement for the page, none of Prisma's (Prisma's path reads Entry,
      // then the rest); the entries' own columns alone come with the ranking: no statement.
      expect(fast.statements.filter((sql) => PRISMA_ENTRY_READ.test(sql))).toEqual([]);
      expect(prisma.statements.filter((sql) => PRISMA_ENTRY_READ.test(sql))).toHaveLength(fields === FIELDS ? 2 : 1);
      const withVersions = /LEFT JOIN "EntryVersion" v ON v\."id" = e\."currentVersionId"\s+WHERE e\."id" IN/;
      expect(fast.statements.filter((sql) => withVersions.test(sql) || /^SELECT \* FROM "Entry" WHERE "id" IN/.test(sql))).toHaveLength(fields === FIELDS ? 1 : 0);
      expect(fast.statements.filter((sql) => sql.includes('AS "entry_createdAt"'))).toHaveLength(fields === FIELDS ? 0 : 1);
    }
    // Away from UTC, so that a time without a zone read as local time would show.
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    const read = await nodes(entryFields)
      .then((answer) => answer.nodes.find((n) => n.id === knowledge))
      .finally(() => (zone === undefined ? delete process.env.TZ : (process.env.TZ = zone)));
    expect(read).toMatchObject({ active: false, accessCount: 3, lastAccessedAt: '2030-01-02T03:04:05.006Z' });
    if (DB_KIND === 'sqlite') expect(read?.createdAt).toBe('2029-12-31T23:59:58.000Z');
  });

  it('answers null for an unknown id, as Prisma does', async () => {
    const unknown = Buffer.from('Tool:01900000-0000-7000-8000-000000000000').toString('base64');
    expect((await read(FAST, unknown)).entry).toBeNull();
    expect((await read(PRISMA, unknown)).entry).toBeNull();
  });

  it("an entry's tags, read straight from the driver, are the tags as Prisma's client answers them", async () => {
    const project = await createProject(h, 'entry-read-tags');
    // A predefined tag (seeded by the migration, a true boolean) and a free-form one (a false one).
    const tool = await addTool(h, project, 'entry-read-tagged', { description: 'tagged', tags: ['python', 'entry-read-custom'] });
    const TAG = 'id name category predefined description createdAt';
    type Tag = { name: string; predefined: boolean; createdAt: string };
    type Page = { edges: Array<{ node: Tag }> };
    const { entry } = (await ok(h, null, `query($id: ID!) { entry(id: $id) { tags { ${TAG} } } }`, { id: tool })) as { entry: { tags: Tag[] } };
    const listed = (await ok(h, null, `{ a: tags(category: LANGUAGE, first: 100) { edges { node { ${TAG} } } } b: tags(predefined: false, first: 100) { edges { node { ${TAG} } } } }`)) as { a: Page; b: Page };
    const byName = new Map([...listed.a.edges, ...listed.b.edges].map((e) => [e.node.name, e.node]));
    const tags = entry.tags;
    expect(tags.map((t) => [t.name, t.predefined])).toEqual([['entry-read-custom', false], ['python', true]]);
    expect(tags).toEqual(tags.map((t) => byName.get(t.name)));
    for (const t of tags) expect(new Date(t.createdAt).toISOString()).toBe(t.createdAt);
  });
});
