// Hard deletion with receipts (issue #13): one transaction each, nothing left behind in any
// table (the full-text index included), a receipt that proves what went without the content.
import { describe, expect, it } from 'vitest';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
let n = 0;

async function project(): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `del-${++n}` })).createProject.project.id;
}
async function knowledge(scope: string, title: string, content = 'zanzibar fact'): Promise<string> {
  return (await ok(h, null, `mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: ["python", "x-tag"] }) {
    ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, c: content })).addKnowledge.knowledge.id;
}
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const RECEIPT = `... on DeleteEntrySuccess { receipt { operation counts ids contentHash principalName } } ... on UserError { code message }`;

/** Rows still referring to an erased entry, per table (raw SQL: nothing hides them). */
async function leftovers(entryId: string): Promise<Record<string, number>> {
  const db = h.database.prisma;
  // SQLite numbers each `?`; PostgreSQL's `$1` may repeat.
  const count = async (sql: string) =>
    Number((await db.$queryRawUnsafe<Array<{ n: number | bigint }>>(sql, ...(DB_KIND === 'postgresql' ? [entryId] : sql.split('?').slice(1).map(() => entryId))))[0]!.n);
  const p = DB_KIND === 'postgresql' ? '$1' : '?';
  return {
    Entry: await count(`SELECT COUNT(*) AS n FROM "Entry" WHERE "id" = ${p}`),
    EntryVersion: await count(`SELECT COUNT(*) AS n FROM "EntryVersion" WHERE "entryId" = ${p}`),
    EntryTag: await count(`SELECT COUNT(*) AS n FROM "EntryTag" WHERE "entryId" = ${p}`),
    EntrySearch: await count(`SELECT COUNT(*) AS n FROM "EntrySearch" WHERE "entryId" = ${p}`),
    Relation: await count(`SELECT COUNT(*) AS n FROM "Relation" WHERE "sourceId" = ${p} OR "targetEntryId" = ${p}`),
    Conflict: await count(`SELECT COUNT(*) AS n FROM "Conflict" WHERE "entryId" = ${p}`),
    ConversationContext: await count(`SELECT COUNT(*) AS n FROM "ConversationContext" WHERE "entryId" = ${p}`),
  };
}

describe(`hard deletion (${DB_KIND})`, () => {
  it('deleteEntry erases the entry and all that hangs off it, in every table; a dry run changes nothing and hashes the same', async () => {
    const p = await project();
    const k = await knowledge(p, 'to-erase');
    const other = await knowledge(p, 'stays', 'other text');
    const update = `mutation($id: ID!, $a: String!) { updateKnowledge(input: { id: $id, content: "zanzibar v2", author: $a }) { __typename } }`;
    await ok(h, null, update, { id: k, a: 'agent:x' });
    await ok(h, null, update, { id: k, a: 'agent:y' }); // a conflict
    const relate = `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename } }`;
    await ok(h, null, relate, { s: k, t: other });
    await ok(h, null, relate, { s: other, t: k });
    const conv = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: p })).startConversation.conversation.id;
    await ok(h, null, `mutation($c: ID!, $e: ID!) { linkConversationEntries(input: { conversation: $c, usedEntries: [{ entry: $e }] }) { __typename } }`, { c: conv, e: k });

    const del = `mutation($id: ID!, $d: Boolean) { deleteEntry(input: { id: $id, dryRun: $d }) { __typename ${RECEIPT} } }`;
    const dry = (await ok(h, null, del, { id: k, d: true })).deleteEntry;
    const counts = { Conflict: 1, ConversationContext: 1, Entry: 1, EntryTag: 2, EntryVersion: 3, Relation: 2 };
    expect(dry.receipt.counts).toEqual(counts);
    expect(await leftovers(dbId(k))).toEqual({ Entry: 1, EntryVersion: 3, EntryTag: 2, EntrySearch: 1, Relation: 2, Conflict: 1, ConversationContext: 1 });
    expect((await ok(h, null, `{ deletionReceipts { totalCount } }`)).deletionReceipts.totalCount).toBe(0);

    const done = (await ok(h, null, del, { id: k })).deleteEntry;
    expect(done).toMatchObject({ __typename: 'DeleteEntrySuccess', receipt: { operation: 'deleteEntry', counts, contentHash: dry.receipt.contentHash } });
    expect(done.receipt.ids.Entry).toEqual([dbId(k)]);
    expect(done.receipt.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(done.receipt)).not.toContain('zanzibar');
    expect(await leftovers(dbId(k))).toEqual({ Entry: 0, EntryVersion: 0, EntryTag: 0, EntrySearch: 0, Relation: 0, Conflict: 0, ConversationContext: 0 });
    // Not even the full-text index remembers it.
    const search = await ok(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s, search: "zanzibar" }) { edges { node { id } } } }`, { s: p });
    expect(search.memoryQuery.edges).toEqual([]);
    expect((await ok(h, null, `query($id: ID!) { node(id: $id) { id } }`, { id: other })).node).toEqual({ id: other });
    expect((await ok(h, null, `{ deletionReceipts { totalCount edges { node { operation contentHash } } } }`)).deletionReceipts).toEqual({
      totalCount: 1,
      edges: [{ node: { operation: 'deleteEntry', contentHash: dry.receipt.contentHash } }],
    });
    const again = (await ok(h, null, del, { id: k })).deleteEntry;
    expect(again).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('deleteTask is refused while it has subtasks; dependency links go with it', async () => {
    const p = await project();
    const create = `mutation($s: ID!, $t: String!, $p: ID, $d: [ID!]) { createTask(input: { scope: $s, title: $t, parent: $p, dependsOn: $d }) { ... on CreateTaskSuccess { task { id } } } }`;
    const parent = (await ok(h, null, create, { s: p, t: 'parent' })).createTask.task.id;
    const child = (await ok(h, null, create, { s: p, t: 'child', p: parent })).createTask.task.id;
    const waiting = (await ok(h, null, create, { s: p, t: 'waiting', d: [parent] })).createTask.task.id;
    const del = `mutation($id: ID!) { deleteTask(input: { id: $id }) { __typename ... on DeleteTaskSuccess { receipt { counts } } ... on InvalidStateError { currentState } } }`;
    expect((await ok(h, null, del, { id: parent })).deleteTask).toEqual({ __typename: 'InvalidStateError', currentState: 'HAS_SUBTASKS' });
    expect((await ok(h, null, del, { id: child })).deleteTask).toEqual({ __typename: 'DeleteTaskSuccess', receipt: { counts: { Task: 1 } } });
    expect((await ok(h, null, del, { id: parent })).deleteTask).toEqual({ __typename: 'DeleteTaskSuccess', receipt: { counts: { Task: 1, TaskDependency: 1 } } });
    const left = await ok(h, null, `query($id: ID!) { node(id: $id) { ... on Task { dependsOn { id } blocked } } }`, { id: waiting });
    expect(left.node).toEqual({ dependsOn: [], blocked: false });
  });

  it('deleteSession erases what is in the session; a user: key, which belongs to the user, stays', async () => {
    const p = await project();
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "ana" }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const k = await knowledge(s, 'session-note');
    await ok(h, null, `mutation($s: ID!, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "user", content: "hi", stateDelta: $d }) { __typename } }`, {
      s,
      d: { 'session:step': 1, 'user:lang': 'fr' },
    });
    const conv = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s })).startConversation.conversation.id;
    await ok(h, null, `mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "hello" }) { __typename } }`, { c: conv });
    await ok(h, null, `mutation($s: ID!) { createTask(input: { scope: $s, title: "t" }) { __typename } }`, { s });
    const elsewhere = await knowledge(p, 'points-at-session');
    await ok(h, null, `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: APPLIES_TO }) { __typename } }`, { s: elsewhere, t: s });
    const watcher = await principal(h, `watcher-${n}`, { grants: [[s, 'READ']] });

    const receipt = (await ok(h, null, `mutation($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }`, { id: s })).deleteSession;
    expect(receipt).toEqual({
      __typename: 'DeleteSessionSuccess',
      receipt: {
        counts: { Conversation: 1, ConversationMessage: 1, Entry: 1, EntryTag: 2, EntryVersion: 1, Grant: 1, Relation: 1, Scope: 1, SessionEvent: 2, StateKey: 1, StateVersion: 1, Task: 1 },
      },
    });
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [s, k, conv] })).nodes).toEqual([null, null, null]);
    expect(await leftovers(dbId(k))).toEqual({ Entry: 0, EntryVersion: 0, EntryTag: 0, EntrySearch: 0, Relation: 0, Conflict: 0, ConversationContext: 0 });
    const userKey = await h.database.prisma.stateKey.findMany({ where: { namespace: 'USER', owner: 'ana' }, select: { name: true } });
    expect(userKey).toEqual([{ name: 'lang' }]);
    expect(await h.database.prisma.grant.count({ where: { principalId: dbId(watcher.id) } })).toBe(0);
  });

  it('deleteScopeTree erases an organization with its projects, sessions and all in them', async () => {
    const org = (await ok(h, null, `mutation { createOrganization(input: { name: "doomed" }) { ... on CreateOrganizationSuccess { organization { id } } } }`)).createOrganization
      .organization.id;
    const p = (await ok(h, null, `mutation($o: ID!) { createProject(input: { name: "doomed-p", organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { o: org }))
      .createProject.project.id;
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const inOrg = await knowledge(org, 'org-note');
    const inProject = await knowledge(p, 'project-note');
    const inSession = await knowledge(s, 'session-note');
    await ok(h, null, `mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:x", value: 1 }) { __typename } }`, { p });
    const dry = (await ok(h, null, `mutation($id: ID!) { deleteScopeTree(input: { id: $id, dryRun: true }) { ... on DeleteScopeTreeSuccess { receipt { counts } } } }`, { id: org }))
      .deleteScopeTree.receipt.counts;
    expect(dry).toEqual({ Entry: 3, EntryTag: 6, EntryVersion: 3, Scope: 3, SessionEvent: 1, StateKey: 1, StateVersion: 1 });
    const done = (await ok(h, null, `mutation($id: ID!) { deleteScopeTree(input: { id: $id }) { ... on DeleteScopeTreeSuccess { receipt { counts } } } }`, { id: org })).deleteScopeTree;
    expect(done.receipt.counts).toEqual(dry);
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [org, p, s, inOrg, inProject, inSession] })).nodes).toEqual([null, null, null, null, null, null]);
    for (const k of [inOrg, inProject, inSession]) {
      expect(await leftovers(dbId(k))).toEqual({ Entry: 0, EntryVersion: 0, EntryTag: 0, EntrySearch: 0, Relation: 0, Conflict: 0, ConversationContext: 0 });
    }
  });

  it('eraseMemory erases the entries matching every criterion given; none given is refused', async () => {
    const p = await project();
    const add = `mutation($s: ID!, $t: String!, $c: String!, $a: String, $m: MemoryType) { addKnowledge(input: { scope: $s, title: $t, content: $c, author: $a, memoryType: $m }) {
      ... on AddKnowledgeSuccess { knowledge { id } } } }`;
    const id = async (t: string, c: string, a: string, m = 'SEMANTIC') => (await ok(h, null, add, { s: p, t, c, a, m })).addKnowledge.knowledge.id as string;
    const a1 = await id('a-episode', 'incident at noon', 'agent:a', 'EPISODIC');
    const a2 = await id('a-fact', 'the sky is blue', 'agent:a');
    const b1 = await id('b-episode', 'incident at night', 'agent:b', 'EPISODIC');
    const erase = `mutation($i: EraseMemoryInput!) { eraseMemory(input: $i) { __typename ... on EraseMemorySuccess { receipt { counts ids criteria } } ... on UserError { message } } }`;
    const byAuthorAndType = (await ok(h, null, erase, { i: { scope: p, author: 'agent:a', memoryType: 'EPISODIC' } })).eraseMemory;
    expect(byAuthorAndType.receipt.ids.Entry).toEqual([dbId(a1)]);
    expect(byAuthorAndType.receipt.criteria).toMatchObject({ author: 'agent:a', memoryType: 'EPISODIC' });
    const byText = (await ok(h, null, erase, { i: { scope: p, text: 'incident', dryRun: true } })).eraseMemory;
    expect(byText.receipt.ids.Entry).toEqual([dbId(b1)]);
    expect((await ok(h, null, erase, { i: {} })).eraseMemory).toEqual({ __typename: 'ValidationError', message: 'input: give at least one criterion' });
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [a1, a2, b1] })).nodes).toEqual([null, { id: a2 }, { id: b1 }]);
  });

  it('forgetUser removes their user: state, their sessions and what they authored, everywhere', async () => {
    const p = await project();
    const mine = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "zoe" }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const theirs = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "max" }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    await ok(h, null, `mutation($s: ID!, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "user", content: "about zoe", stateDelta: $d }) { __typename } }`, {
      s: mine,
      d: { 'user:theme': 'dark' },
    });
    const authored = (await ok(h, null, `mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "zoe-note", content: "c", author: "user:zoe" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: p }))
      .addKnowledge.knowledge.id;
    const forget = `mutation($u: String!, $d: Boolean) { forgetUser(input: { userId: $u, dryRun: $d }) { __typename ... on ForgetUserSuccess { receipt { counts } } } }`;
    const counts = (await ok(h, null, forget, { u: 'zoe', d: true })).forgetUser.receipt.counts;
    expect(counts).toEqual({ Entry: 1, EntryVersion: 1, Scope: 1, SessionEvent: 2, StateKey: 1, StateVersion: 1 });
    expect((await ok(h, null, forget, { u: 'zoe' })).forgetUser.receipt.counts).toEqual(counts);
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [mine, authored, theirs] })).nodes).toEqual([null, null, { id: theirs }]);
    expect(await h.database.prisma.stateKey.count({ where: { owner: 'zoe' } })).toBe(0);
    const agent = await principal(h, `not-admin-${n}`, { grants: [[p, 'ADMIN']] });
    expect((await as(h, agent.key, forget, { u: 'max' })).data!.forgetUser.__typename).toBe('PermissionDeniedError');
  });

  it('needs ADMIN on the scope: WRITE may not hard-delete', async () => {
    const p = await project();
    const k = await knowledge(p, 'guarded');
    const writer = await principal(h, `writer-del-${n}`, { grants: [[p, 'WRITE']] });
    const admin = await principal(h, `admin-del-${n}`, { grants: [[p, 'ADMIN']] });
    const del = `mutation($id: ID!) { deleteEntry(input: { id: $id }) { __typename ... on DeleteEntrySuccess { receipt { principalName } } } }`;
    expect((await as(h, writer.key, del, { id: k })).data!.deleteEntry.__typename).toBe('PermissionDeniedError');
    expect((await ok(h, admin.key, del, { id: k })).deleteEntry).toEqual({ __typename: 'DeleteEntrySuccess', receipt: { principalName: `admin-del-${n}` } });
  });

  it('ten deletes of one entry, task, conversation or session at once: one succeeds with the one receipt, the rest find nothing', async () => {
    const p = await project();
    const made = async (query: string, field: string, key: string) => ((await ok(h, null, query, { s: p }))[field] as Record<string, { id: string }>)[key]!.id;
    const targets: [string, string][] = [
      ['deleteEntry', await knowledge(p, 'raced')],
      ['deleteTask', await made('mutation($s: ID!) { createTask(input: { scope: $s, title: "raced" }) { ... on CreateTaskSuccess { task { id } } } }', 'createTask', 'task')],
      ['deleteConversation', await made('mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }', 'startConversation', 'conversation')],
      ['deleteSession', await made('mutation($s: ID!) { startSession(input: { project: $s }) { ... on StartSessionSuccess { session { id } } } }', 'startSession', 'session')],
    ];
    const before = (await ok(h, null, '{ deletionReceipts { totalCount } }')).deletionReceipts.totalCount as number;
    for (const [operation, id] of targets) {
      const del = `mutation($id: ID!) { ${operation}(input: { id: $id }) { __typename ... on UserError { code } } }`;
      const answers = await Promise.all(Array.from({ length: 10 }, () => ok(h, null, del, { id })));
      const kinds = answers.map((a) => (a[operation] as { __typename: string }).__typename);
      expect(kinds.filter((k) => k.endsWith('Success')), operation).toHaveLength(1);
      expect(kinds.filter((k) => !k.endsWith('Success')), operation).toEqual(Array.from({ length: 9 }, () => 'NotFoundError'));
    }
    expect((await ok(h, null, '{ deletionReceipts { totalCount } }')).deletionReceipts.totalCount).toBe(before + targets.length);
  });

  it('erasures of the same entries at once, and an update among them: each entry in one receipt, an acknowledged version in it', async () => {
    const erase = 'mutation($s: ID!, $t: String!) { eraseMemory(input: { scope: $s, tag: $t }) { __typename ... on EraseMemorySuccess { receipt { counts ids } } } }';
    const update = 'mutation($id: ID!) { updateKnowledge(input: { id: $id, content: "changed meanwhile" }) { __typename ... on UpdateKnowledgeSuccess { update { version { id } } } } }';
    for (let round = 0; round < 3; round++) {
      const p = await project();
      const tag = `raced-${round}`;
      const ids = [];
      for (let i = 0; i < 3; i++) {
        const made = await ok(h, null, 'mutation($s: ID!, $t: String!, $n: String!) { addKnowledge(input: { scope: $s, title: $n, content: "x", tags: [$t] }) { ... on AddKnowledgeSuccess { knowledge { id } } } }', { s: p, t: tag, n: `e${i}` });
        ids.push(made.addKnowledge.knowledge.id as string);
      }
      const [a, b, updated] = await Promise.all([ok(h, null, erase, { s: p, t: tag }), ok(h, null, erase, { s: p, t: tag }), ok(h, null, update, { id: ids[1] })]);
      const receipts = [a.eraseMemory.receipt, b.eraseMemory.receipt] as Array<{ counts: Record<string, number>; ids: Record<string, string[]> }>;
      // Three entries, erased once between the two.
      expect(receipts.reduce((sum, r) => sum + (r.counts.Entry ?? 0), 0), `round ${round}`).toBe(3);
      const version = updated.updateKnowledge.update?.version.id as string | undefined;
      if (version) expect(receipts.flatMap((r) => r.ids.EntryVersion ?? []), `round ${round}`).toContain(Buffer.from(version, 'base64').toString().split(':').pop());
      else expect(updated.updateKnowledge.__typename).toBe('NotFoundError');
    }
  });
});
