import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();

const Get = graphql(`
  query BatchGet($id: ID!) { entry(id: $id) { name tags { name } currentVersion { ... on KnowledgeVersion { content } } } }
`);

// Text a batch written as one query must carry through exactly: quotes, backslashes, what looks
// like a placeholder or a statement end, a NUL-free control character, and other scripts.
const tricky = `it's "quoted" \\ back\\slash $1 and $12; DROP TABLE "Entry"; -- not a comment ' || '' \t tab, 日本語, émoji 🧠`;

describe('write batches', () => {
  it('write any text exactly as given', async () => {
    const project = await createProject(h, 'batches');
    const id = await addKnowledge(h, project, `title ${tricky}`, { content: tricky, tags: ['batch-tag'] });
    const { entry } = await h.ok(Get, { id });
    expect(entry).toEqual({ name: `title ${tricky}`, tags: [{ name: 'batch-tag' }], currentVersion: { content: tricky } });
  });

  it.runIf(DB_KIND === 'postgresql')('send a create to PostgreSQL as one query, and report a failed one as its constraint', async () => {
    const project = await createProject(h, 'batches-pg');
    h.resetStatements();
    await addKnowledge(h, project, 'one trip', { tags: ['trip'] });
    const writes = h.statements.filter((sql) => sql.includes('INSERT INTO "Entry" '));
    expect(writes).toHaveLength(1);
    for (const table of ['EntryVersion', 'EntryTag', 'EntrySearch']) expect(writes[0]).toContain(`INSERT INTO "${table}"`);
    // A second entry of that name fails on the unique index: the database's error reaches the
    // service as the constraint it is (AlreadyExistsError), and nothing of the query stays. (A
    // failure in the middle of a batch: import.test.ts, 'a duplicate at the end leaves nothing'.)
    const duplicate = await h.gql(
      graphql(`mutation BatchDuplicate($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename } }`),
      { input: { scope: project, title: 'one trip', content: 'again', tags: ['fresh-tag-of-the-failed-write'] } },
    );
    expect(duplicate.data?.addKnowledge.__typename).toBe('AlreadyExistsError');
    const tags = await h.database.prisma.tag.findMany({ where: { name: 'fresh-tag-of-the-failed-write' } });
    expect(tags).toEqual([]);
  });
});
