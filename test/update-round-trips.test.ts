// An update reads its entry once (issue #14): the read for the access rule (or, when the caller may
// write everywhere, for the scope's secret policy) is the entry with its current version, and the
// update decides on that row; the write is then one batch. On PostgreSQL: two round trips. (An
// entry the process read or wrote lately is not read again at all: test/known-rows.test.ts.)
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { as, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();

const Update = graphql(`mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {
  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }`);

const Twice = graphql(`mutation RoundTripTwice($id: ID!) {
  a: updateKnowledge(input: { id: $id, content: "fourth" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }
  b: updateKnowledge(input: { id: $id, content: "fifth" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }
}`);

const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;

const isRead = (sql: string) => sql.includes('FROM "Entry" e LEFT JOIN "EntryVersion" v');
const isEntryRead = (sql: string) => isRead(sql) || /FROM [`"]\w+[`"]\.[`"]Entry[`"] WHERE/.test(sql);

describe(`an update's reads (${DB_KIND})`, () => {
  it('reads the entry once, with its current version, then writes one batch', async () => {
    const project = await createProject(h, 'round-trips');
    const id = await addKnowledge(h, project, 'once');
    // The scope chain and its policies are then known (another entry: this one stays unread).
    await h.ok(Update, { id: await addKnowledge(h, project, 'warm-up'), c: 'warm-up' });
    h.resetStatements();
    const done = await h.ok(Update, { id, c: 'second' });
    expect(done.updateKnowledge).toMatchObject({ update: { version: { version: 2, content: 'second' } } });
    expect(h.statements.filter(isEntryRead)).toHaveLength(1);
    if (DB_KIND === 'postgresql') {
      expect(h.statements).toHaveLength(2);
      expect(isRead(h.statements[0]!)).toBe(true);
      for (const table of ['EntryVersion', 'AuditEvent']) expect(h.statements[1]).toContain(`INSERT INTO "${table}"`);
    } else {
      expect(h.statements.filter((sql) => sql.trim() === 'COMMIT')).toHaveLength(1);
    }
  });

  it('two updates of one entry in one request: the second decides on the row the first wrote, not on the first one\'s read', async () => {
    const project = await createProject(h, 'round-trips-twice');
    const id = await addKnowledge(h, project, 'twice');
    await h.ok(Update, { id, c: 'second' });
    await h.ok(Update, { id, c: 'third' });
    h.resetStatements();
    const done = await h.ok(Twice, { id });
    expect(done).toEqual({ a: { update: { version: { version: 4 }, conflict: null } }, b: { update: { version: { version: 5 }, conflict: null } } });
    // The entry is known from the updates before (known-rows.ts): no read. Had the second decided
    // on the row the first decided on, its batch would have found the entry moved and taken the
    // locking path: more statements than a batch each.
    expect(h.statements.filter(isEntryRead)).toHaveLength(0);
    if (DB_KIND === 'postgresql') expect(h.statements).toHaveLength(2);
    const versions = await h.database.prisma.entryVersion.findMany({ where: { entry: { name: 'twice' } }, orderBy: { version: 'asc' }, select: { version: true, content: true } });
    expect(versions.map((v) => [v.version, v.content])).toEqual([[1, 'content of twice'], [2, 'second'], [3, 'third'], [4, 'fourth'], [5, 'fifth']]);
  });

  it('for a caller with a grant, the access rule\'s read is the update\'s: one read', async () => {
    const project = await createProject(h, 'round-trips-grant');
    const id = await addKnowledge(h, project, 'granted');
    const writer = await principal(h, 'round-trip-writer', { grants: [[project, 'WRITE']] });
    const update = `mutation($id: ID!) { updateKnowledge(input: { id: $id, content: "by key" }) { __typename ... on UpdateKnowledgeSuccess { update { version { version } } } } }`;
    // The key and its grants are then known (another entry: this one stays unread).
    await as(h, writer.key, update, { id: await addKnowledge(h, project, 'granted-warm-up') });
    h.resetStatements();
    const answer = await as(h, writer.key, update, { id });
    expect(answer.data).toEqual({ updateKnowledge: { __typename: 'UpdateKnowledgeSuccess', update: { version: { version: 2 } } } });
    expect(h.statements.filter(isEntryRead)).toHaveLength(1);
  });

  it('an update names an entry of its kind that exists: another kind\'s id, or an unknown one, is not found and writes nothing', async () => {
    const project = await createProject(h, 'round-trips-kind');
    const guideline = await addGuideline(h, project, 'not-a-tool');
    const asTool = gid('Tool', dbId(guideline));
    const updateTool = `mutation($id: ID!) { updateTool(input: { id: $id, description: "now a tool?" }) { __typename } }`;
    const writer = await principal(h, 'round-trip-kinds', { grants: [[project, 'WRITE']] });
    for (const key of [null, writer.key]) {
      expect((await as(h, key, updateTool, { id: asTool })).data).toEqual({ updateTool: { __typename: 'NotFoundError' } });
      const unknown = gid('Tool', '01a00000-0000-7000-8000-000000000000');
      expect((await as(h, key, updateTool, { id: unknown })).data).toEqual({ updateTool: { __typename: 'NotFoundError' } });
    }
    const versions = await h.database.prisma.entryVersion.findMany({ where: { entryId: dbId(guideline) }, select: { kind: true } });
    expect(versions).toEqual([{ kind: 'GUIDELINE' }]);
  });
});
