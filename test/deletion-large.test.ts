// Deletions of more rows than one statement may name (found by a hostile sweep: erasing a scope of
// 997 entries or more failed with INTERNAL_SERVER_ERROR, Prisma refusing the statement that listed
// their ids twice to find their relations). Every list of ids goes IDS_PER_STATEMENT at a time, in
// the one transaction: links between rows of two lists, and a parent task in a later list than its
// child, go too, and each is in the receipt once.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { TEXT_CHARS_PER_LIST } from '../src/infra/id-lists.ts';

const h = useHarness();
const ENTRIES = 1_100;
const TASKS = 1_001;
const KEYS = 1_001;

const Import = graphql(`
  mutation LargeImport($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }
  }
`);
const Relate = graphql(`
  mutation LargeRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }
`);
const Task = graphql(`
  mutation LargeTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }
`);
const SetKey = graphql(`
  mutation LargeState($project: ID!, $key: String!, $value: JSON!) { setState(input: { owner: { project: $project }, key: $key, value: $value }) { __typename } }
`);
const Kept = graphql(`
  mutation LargeKept($scope: ID!) { addKnowledge(input: { scope: $scope, title: "kept", content: "stays", tags: ["kept"] }) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }
`);
const DeleteTree = graphql(`
  mutation LargeDeleteTree($id: ID!) {
    deleteScopeTree(input: { id: $id }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts } } ... on UserError { code message } }
  }
`);
const Erase = graphql(`
  mutation LargeErase($scope: ID!, $tag: String!) {
    eraseMemory(input: { scope: $scope, tag: $tag }) { __typename ... on EraseMemorySuccess { receipt { counts } } ... on UserError { code message } }
  }
`);

const Session = graphql(`
  mutation LargeSession($project: ID!, $userId: String!) { startSession(input: { project: $project, userId: $userId }) { __typename ... on StartSessionSuccess { session { id } } } }
`);
const Forget = graphql(`
  mutation LargeForget($userId: String!) {
    forgetUser(input: { userId: $userId }) { __typename ... on ForgetUserSuccess { receipt { counts } } ... on UserError { code message } }
  }
`);
const TaskParent = graphql(`
  query LargeTaskParent($id: ID!) { node(id: $id) { ... on Task { id parent { id } } } }
`);

/** Imports `n` knowledge entries into the scope (in two calls): their ids, in order. */
async function entries(scope: string, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < n; start += 550) {
    const batch = Array.from({ length: Math.min(550, n - start) }, (_, i) => ({ kind: 'KNOWLEDGE' as const, name: `k${start + i}`, content: `fact ${start + i}`, scope, tags: [tag] }));
    const done = (await h.ok(Import, { entries: batch })).importEntries;
    if (done.__typename !== 'ImportEntriesSuccess') throw new Error(`import failed: ${done.__typename}`);
    const byName = new Map(done.imported.entries.map((e) => [e.name, e.id]));
    ids.push(...batch.map((b) => byName.get(b.name)!));
  }
  return ids;
}

/** How many rows of `table` have one of `ids` in one of `columns` (raw SQL, no GraphQL: nothing hides them). */
async function count(table: string, columns: string[], ids: string[]): Promise<number> {
  const p = (i: number) => (DB_KIND === 'postgresql' ? `$${i + 1}` : '?');
  const list = ids.map((_, i) => p(i)).join(', ');
  const sql = `SELECT COUNT(*) AS n FROM "${table}" WHERE ${columns.map((c) => `"${c}" IN (${list})`).join(' OR ')}`;
  // SQLite numbers each `?`: the list is bound once per column.
  const values = DB_KIND === 'postgresql' ? ids : columns.flatMap(() => ids);
  return Number((await h.database.prisma.$queryRawUnsafe<Array<{ n: number | bigint }>>(sql, ...values))[0]!.n);
}
const RELATION_ENDS = ['sourceId', 'targetEntryId'];
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

describe(`deletions of more ids than one statement names (${DB_KIND})`, () => {
  it(`deleteScopeTree erases a project of ${ENTRIES} entries, ${TASKS} tasks and ${KEYS} state keys, with links between rows of different lists`, async () => {
    const project = await createProject(h, 'large-tree');
    const ids = await entries(project, ENTRIES, 'bulk');
    // Relations between entries of the first list of ids and the last, both ways, and within one.
    for (const [source, target] of [[0, ENTRIES - 1], [ENTRIES - 2, 1], [2, 3]] as const) await h.ok(Relate, { source: ids[source]!, target: ids[target]! });
    const tasks: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      // The last three are children of the first three and depend on them: parent and child, and
      // the two ends of a dependency, in different lists.
      const parent = i >= TASKS - 3 ? tasks[i - (TASKS - 3)] : undefined;
      const made = (await h.ok(Task, { input: { scope: project, title: `t${i}`, parent, dependsOn: parent ? [parent] : undefined } })).createTask;
      if (made.__typename !== 'CreateTaskSuccess') throw new Error(`task ${i}: ${made.__typename}`);
      tasks.push(made.task.id);
    }
    for (let i = 0; i < KEYS; i++) await h.ok(SetKey, { project, key: `project:k${i}`, value: i });
    const relations = await count('Relation', RELATION_ENDS, ids.map(dbId));
    expect(relations).toBeGreaterThanOrEqual(3);

    const done = (await h.ok(DeleteTree, { id: project })).deleteScopeTree;
    if (done.__typename !== 'DeleteScopeTreeSuccess') throw new Error(`deleteScopeTree: ${JSON.stringify(done)}`);
    expect(done.receipt.counts).toMatchObject({ Entry: ENTRIES, EntryVersion: ENTRIES, EntryTag: ENTRIES, Relation: relations, Task: TASKS, TaskDependency: 3, StateKey: KEYS, Scope: 1 });
    const entryIds = ids.map(dbId);
    expect(await count('Entry', ['id'], entryIds)).toBe(0);
    expect(await count('EntrySearch', ['entryId'], entryIds)).toBe(0);
    expect(await count('Relation', RELATION_ENDS, entryIds)).toBe(0);
    expect(await count('Task', ['id'], tasks.map(dbId))).toBe(0);
    expect(await count('StateKey', ['owner'], [dbId(project)])).toBe(0);
  }, 120_000);

  it(`eraseMemory erases ${ENTRIES} entries chosen by a tag, and leaves the rest`, async () => {
    const project = await createProject(h, 'large-erase');
    const ids = await entries(project, ENTRIES, 'gone');
    await h.ok(Relate, { source: ids[0]!, target: ids[ENTRIES - 1]! });
    const made = (await h.ok(Kept, { scope: project })).addKnowledge;
    if (made.__typename !== 'AddKnowledgeSuccess') throw new Error(`addKnowledge: ${made.__typename}`);
    const kept = made.knowledge.id;
    await h.ok(Relate, { source: kept, target: ids[700]! });
    const relations = await count('Relation', RELATION_ENDS, ids.map(dbId));
    expect(relations).toBeGreaterThanOrEqual(2);

    // A timer's view of the erasure (one transaction): how many lists of entries it had erased
    // whenever the event loop turned. SQLite runs a transaction on the event loop, first statement
    // to last, unless it is given back between the lists.
    h.resetStatements();
    const lists = () => h.statements.filter((sql) => sql.startsWith('DELETE FROM "EntrySearch"')).length;
    const seen: number[] = [];
    const timer = setInterval(() => seen.push(lists()), 0);
    const done = (await h.ok(Erase, { scope: project, tag: 'gone' })).eraseMemory;
    clearInterval(timer);
    if (done.__typename !== 'EraseMemorySuccess') throw new Error(`eraseMemory: ${JSON.stringify(done)}`);
    expect(done.receipt.counts).toMatchObject({ Entry: ENTRIES, Relation: relations });
    expect(lists()).toBe(3);
    expect(seen.filter((n) => n > 0 && n < 3)).not.toEqual([]);
    expect(await count('Entry', ['id'], ids.map(dbId))).toBe(0);
    expect(await count('Entry', ['id'], [dbId(kept)])).toBe(1);
    expect(await count('Relation', RELATION_ENDS, [dbId(kept)])).toBe(0);
  }, 120_000);

  it('forgetUser erases the 1,001 sessions of one user, a task whose parent is in another list of sessions, and leaves a task elsewhere top-level', async () => {
    const project = await createProject(h, 'large-forget');
    const sessions: string[] = [];
    for (let i = 0; i < 1_001; i++) {
      const made = (await h.ok(Session, { project, userId: 'heavy' })).startSession;
      if (made.__typename !== 'StartSessionSuccess') throw new Error(`session ${i}: ${made.__typename}`);
      sessions.push(made.session.id);
    }
    const other = (await h.ok(Session, { project, userId: 'light' })).startSession;
    if (other.__typename !== 'StartSessionSuccess') throw new Error('the other session');
    const task = async (scope: string, parent?: string) => {
      const made = (await h.ok(Task, { input: { scope, title: 'work', parent } })).createTask;
      if (made.__typename !== 'CreateTaskSuccess') throw new Error(`task: ${made.__typename}`);
      return made.task.id;
    };
    const parent = await task(sessions[0]!);
    const child = await task(sessions[1_000]!, parent);
    const elsewhere = await task(other.session.id, parent);
    await entries(sessions[500]!, 3, 'theirs');

    const done = (await h.ok(Forget, { userId: 'heavy' })).forgetUser;
    if (done.__typename !== 'ForgetUserSuccess') throw new Error(`forgetUser: ${JSON.stringify(done)}`);
    expect(done.receipt.counts).toMatchObject({ Scope: 1_001, Task: 2, Entry: 3 });
    expect(await count('Scope', ['id'], sessions.map(dbId))).toBe(0);
    expect(await count('Task', ['id'], [dbId(parent), dbId(child)])).toBe(0);
    // The other user's task stays, now without a parent.
    const node = (await h.ok(TaskParent, { id: elsewhere })).node;
    expect(node).toEqual({ id: elsewhere, parent: null });
  }, 120_000);

  it('erases text-heavy entries in lists of at most TEXT_CHARS_PER_LIST of text (400 of 24 KB held the loop ~0.7 s in one list)', async () => {
    const project = await createProject(h, 'large-erase-heavy');
    const text = 'word '.repeat(4_000);
    const batch = Array.from({ length: 20 }, (_, i) => ({ kind: 'KNOWLEDGE' as const, name: `h${i}`, content: text, scope: project, tags: ['heavy'] }));
    expect((await h.ok(Import, { entries: batch })).importEntries.__typename).toBe('ImportEntriesSuccess');
    const perList = Math.floor(TEXT_CHARS_PER_LIST / ('h10'.length + text.length));
    expect(perList).toBeGreaterThan(1);
    h.resetStatements();
    const lists = () => h.statements.filter((sql) => sql.startsWith('DELETE FROM "EntrySearch"')).length;
    const done = (await h.ok(Erase, { scope: project, tag: 'heavy' })).eraseMemory;
    if (done.__typename !== 'EraseMemorySuccess') throw new Error(`eraseMemory: ${JSON.stringify(done)}`);
    expect(done.receipt.counts).toMatchObject({ Entry: 20 });
    expect(lists()).toBe(Math.ceil(20 / perList));
  }, 60_000);
});
