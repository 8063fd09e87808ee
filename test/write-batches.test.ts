import { decodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();
const dbId = (globalId: string) => decodeGlobalID(globalId).id;

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

  // About the largest import a request body holds: 1,000 contents of 20 KB with quotes,
  // backslashes and other scripts (~23 MB of JSON), stored exactly. How long it keeps other
  // requests waiting is a figure of `npm run bench` (its hostile suite): on PostgreSQL its batch
  // once quoted every value one character at a time (pg's escapeLiteral) and held the loop 12.5 s.
  it('write an import of 1,000 contents of 20 KB exactly as given', async () => {
    const project = await createProject(h, 'batches-large');
    const content = `${tricky} `.repeat(Math.ceil(20_000 / (tricky.length + 1))).slice(0, 20_000);
    const entries = Array.from({ length: 1_000 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE', name: `large-${i}`, content: `${i}: ${content}` }));
    const Import = parse('mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }') as TypedDocumentNode<{ importEntries: { __typename: string } }, { e: typeof entries }>;
    expect((await h.ok(Import, { e: entries })).importEntries.__typename).toBe('ImportEntriesSuccess');
    h.resetStatements(); // 23 MB of SQL text kept for the other tests' counts
    const stored = await h.database.prisma.entryVersion.findMany({ where: { entry: { name: { in: ['large-0', 'large-500', 'large-999'] } } }, select: { content: true } });
    expect(stored.map((v) => v.content).sort()).toEqual([`0: ${content}`, `500: ${content}`, `999: ${content}`]);
  });

  it('send a create as one transaction with its audit row (one query on PostgreSQL), and report a failed one as its constraint', async () => {
    const project = await createProject(h, 'batches-pg');
    await addKnowledge(h, project, 'warm-up'); // the scope chain and its policies are then known
    h.resetStatements();
    const id = await addKnowledge(h, project, 'one trip', { tags: ['trip'] });
    const tables = ['Entry', 'EntryVersion', 'EntryTag', 'EntrySearch', 'AuditEvent'];
    if (DB_KIND === 'postgresql') {
      // The whole request is one query: the write, its tags and search text, and its audit row.
      expect(h.statements).toHaveLength(1);
      for (const table of tables) expect(h.statements[0]).toContain(`INSERT INTO "${table}"`);
    } else {
      // One transaction, the audit row inside it.
      const commits = h.statements.flatMap((sql, i) => (sql.trim() === 'COMMIT' ? [i] : []));
      expect(commits).toHaveLength(1);
      for (const table of tables) expect(h.statements.slice(0, commits[0]).some((sql) => sql.includes(`INSERT INTO "${table}"`)), table).toBe(true);
    }
    const audited = await h.database.prisma.auditEvent.findMany({ where: { operation: 'addKnowledge', targetIds: { contains: dbId(id) } } });
    expect(audited.map((e) => [e.outcome, JSON.parse(e.targetIds) as unknown])).toEqual([['OK', [dbId(project), dbId(id)]]]);
    expect(Math.abs(audited[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
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
    // The failed batch took its audit row with it; the failure is recorded on its own.
    const rows = await h.database.prisma.auditEvent.findMany({
      where: { operation: 'addKnowledge', targetIds: { contains: dbId(project) } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    expect(rows.map((e) => [e.outcome, e.detail])).toEqual([['OK', null], ['OK', null], ['FAILED', '{"code":"ALREADY_EXISTS"}']]);
  });

  it('carry the audit row of an update in its write', async () => {
    const project = await createProject(h, 'batches-update');
    const id = await addKnowledge(h, project, 'updated');
    const Update = graphql(`mutation BatchUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }`);
    h.resetStatements();
    expect((await h.ok(Update, { id, c: 'second' })).updateKnowledge.__typename).toBe('UpdateKnowledgeSuccess');
    const audits = h.statements.filter((sql) => sql.includes('INSERT INTO "AuditEvent"'));
    expect(audits).toHaveLength(1);
    if (DB_KIND === 'postgresql') expect(audits[0]).toContain('INSERT INTO "EntryVersion"');
    else {
      // One transaction, the audit row inside it (not written after it by the audit plugin).
      const commits = h.statements.flatMap((sql, i) => (sql.trim() === 'COMMIT' ? [i] : []));
      expect(commits).toHaveLength(1);
      expect(h.statements.findIndex((sql) => sql.includes('INSERT INTO "AuditEvent"'))).toBeLessThan(commits[0]!);
    }
    const rows = await h.database.prisma.auditEvent.findMany({ where: { operation: 'updateKnowledge', targetIds: { contains: dbId(id) } } });
    // The row is made from the update's answer (the batch's `audit.result`): its scope and version too.
    const version = (await h.database.prisma.entry.findUniqueOrThrow({ where: { id: dbId(id) } })).currentVersionId;
    expect(rows.map((e) => [e.outcome, JSON.parse(e.targetIds) as unknown])).toEqual([['OK', [dbId(id), version]]]);
  });
  it('send a relation as a read of its ends and one write with its events and audit row (two queries on PostgreSQL); a duplicate writes nothing', async () => {
    const project = await createProject(h, 'batches-relation');
    const [a, b] = [await addKnowledge(h, project, 'rel-a'), await addKnowledge(h, project, 'rel-b')];
    const Relate = graphql(`
      mutation BatchRelate($input: CreateRelationInput!) {
        createRelation(input: $input) { __typename ... on CreateRelationSuccess { relation { id type } } }
      }
    `);
    const changesBefore = await h.database.prisma.change.count();
    h.resetStatements();
    const made = (await h.ok(Relate, { input: { source: a, target: b, type: 'DEPENDS_ON' } })).createRelation;
    if (made.__typename !== 'CreateRelationSuccess') throw new Error(made.__typename);
    const written = ['Relation', 'AuditEvent', 'Change'];
    if (DB_KIND === 'postgresql') {
      expect(h.statements).toHaveLength(2);
      for (const table of written) expect(h.statements[1]).toContain(`INSERT INTO "${table}"`);
    } else {
      const commits = h.statements.flatMap((sql, i) => (sql.trim() === 'COMMIT' ? [i] : []));
      expect(commits).toHaveLength(1);
      for (const table of written) expect(h.statements.slice(0, commits[0]).some((sql) => sql.includes(`INSERT INTO "${table}"`)), table).toBe(true);
    }
    const row = await h.database.prisma.relation.findUniqueOrThrow({ where: { id: dbId(made.relation.id) } });
    expect(row).toMatchObject({ type: 'DEPENDS_ON', sourceId: dbId(a), targetEntryId: dbId(b), targetScopeId: null });
    // One change per end, each naming its entry.
    const changes = await h.database.prisma.change.findMany({ orderBy: { seq: 'asc' }, skip: changesBefore });
    expect(changes.map((c) => (JSON.parse(c.payload) as { entryId: string; type: string }))).toMatchObject([
      { type: 'RELATED', entryId: dbId(a) },
      { type: 'RELATED', entryId: dbId(b) },
    ]);
    // The same relation to a scope twice: the second writes no row, no change and an audit row of its failure.
    const toScope = { source: a, target: project, type: 'APPLIES_TO' as const };
    expect((await h.ok(Relate, { input: toScope })).createRelation.__typename).toBe('CreateRelationSuccess');
    const changesBetween = await h.database.prisma.change.count();
    expect((await h.ok(Relate, { input: toScope })).createRelation.__typename).toBe('AlreadyExistsError');
    expect(await h.database.prisma.relation.count({ where: { sourceId: dbId(a), targetScopeId: dbId(project) } })).toBe(1);
    expect(await h.database.prisma.change.count()).toBe(changesBetween);
    const audits = await h.database.prisma.auditEvent.findMany({ where: { operation: 'createRelation', targetIds: { contains: dbId(a) } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(audits.map((e) => e.outcome)).toEqual(['OK', 'OK', 'FAILED']);
  });
});
