// An update reads its entry once (issue #14): the read for the access rule (or, when the caller may
// write everywhere, for the scope's secret policy) is the entry with its current version, and the
// update decides on that row; the write is then one batch. On PostgreSQL: two round trips.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();

const Update = graphql(`mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {
  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }`);

const Twice = graphql(`mutation RoundTripTwice($id: ID!) {
  a: updateKnowledge(input: { id: $id, content: "fourth" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }
  b: updateKnowledge(input: { id: $id, content: "fifth" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }
}`);

const isRead = (sql: string) => sql.includes('FROM "Entry" e LEFT JOIN "EntryVersion" v');
const isEntryRead = (sql: string) => isRead(sql) || /FROM [`"]\w+[`"]\.[`"]Entry[`"] WHERE/.test(sql);

describe(`an update's reads (${DB_KIND})`, () => {
  it('reads the entry once, with its current version, then writes one batch', async () => {
    const project = await createProject(h, 'round-trips');
    const id = await addKnowledge(h, project, 'once');
    await h.ok(Update, { id, c: 'warm-up' }); // the scope chain and its policies are then known
    h.resetStatements();
    const done = await h.ok(Update, { id, c: 'third' });
    expect(done.updateKnowledge).toMatchObject({ update: { version: { version: 3, content: 'third' } } });
    expect(h.statements.filter(isEntryRead)).toHaveLength(1);
    if (DB_KIND === 'postgresql') {
      expect(h.statements).toHaveLength(2);
      expect(isRead(h.statements[0]!)).toBe(true);
      for (const table of ['EntryVersion', 'AuditEvent']) expect(h.statements[1]).toContain(`INSERT INTO "${table}"`);
    } else {
      expect(h.statements.filter((sql) => sql.trim() === 'COMMIT')).toHaveLength(1);
    }
  });

  it('two updates of one entry in one request each read it: the second decides on the first one\'s version', async () => {
    const project = await createProject(h, 'round-trips-twice');
    const id = await addKnowledge(h, project, 'twice');
    await h.ok(Update, { id, c: 'second' });
    await h.ok(Update, { id, c: 'third' });
    h.resetStatements();
    const done = await h.ok(Twice, { id });
    expect(done).toEqual({ a: { update: { version: { version: 4 }, conflict: null } }, b: { update: { version: { version: 5 }, conflict: null } } });
    // Had the second used the row read for the first, its batch would have found the entry moved
    // and taken the locking path: more statements than a read and a batch each.
    expect(h.statements.filter(isEntryRead)).toHaveLength(2);
    if (DB_KIND === 'postgresql') expect(h.statements).toHaveLength(4);
    const versions = await h.database.prisma.entryVersion.findMany({ where: { entry: { name: 'twice' } }, orderBy: { version: 'asc' }, select: { version: true, content: true } });
    expect(versions.map((v) => [v.version, v.content])).toEqual([[1, 'content of twice'], [2, 'second'], [3, 'third'], [4, 'fourth'], [5, 'fifth']]);
  });
});
