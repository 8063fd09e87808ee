import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { as, ok, principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { createProject, startSession } from './support/ops.ts';

const h = useHarness();

const Create = graphql(`
  mutation TaskCreate($input: CreateTaskInput!) {
    createTask(input: $input) {
      __typename
      ... on CreateTaskSuccess { task { id title status assignee dueAt completedAt blocked parent { id } dependsOn { id } scope { id } } }
      ... on UnmetDependenciesError { blockingTaskIds }
      ... on UserError { code message path }
    }
  }
`);
const Update = graphql(`
  mutation TaskUpdate($input: UpdateTaskInput!) {
    updateTask(input: $input) {
      __typename
      ... on UpdateTaskSuccess { task { id status completedAt blocked parent { id } assignee } }
      ... on UnmetDependenciesError { code blockingTaskIds path }
      ... on UserError { code message path }
    }
  }
`);
const AddDeps = graphql(`
  mutation TaskAddDeps($input: TaskDependenciesInput!) {
    addTaskDependencies(input: $input) {
      __typename
      ... on AddTaskDependenciesSuccess { task { id dependsOn { id } blocked } }
      ... on UserError { code message path }
    }
  }
`);
const RemoveDeps = graphql(`
  mutation TaskRemoveDeps($input: TaskDependenciesInput!) {
    removeTaskDependencies(input: $input) { __typename ... on RemoveTaskDependenciesSuccess { task { dependsOn { id } blocked } } }
  }
`);
const List = graphql(`
  query TaskList($filter: TaskFilter, $first: Int) {
    tasks(filter: $filter, first: $first) {
      totalCount
      edges { node { title status assignee dependents { title } subtasks { totalCount edges { node { title } } } } }
    }
  }
`);

async function task(input: Record<string, unknown>) {
  const r = (await h.ok(Create, { input: input as never })).createTask;
  if (r.__typename !== 'CreateTaskSuccess') throw new Error(JSON.stringify(r));
  return r.task;
}

describe('tasks', () => {
  it('completing a task whose dependencies are not done is a typed error naming them', async () => {
    const p = await createProject(h, 'tasks-deps');
    const design = await task({ scope: p, title: 'design' });
    const build = await task({ scope: p, title: 'build', dependsOn: [design.id], assignee: 'agent:builder' });
    expect(build).toMatchObject({ status: 'OPEN', blocked: true, dependsOn: [{ id: design.id }], assignee: 'agent:builder' });

    const refused = (await h.ok(Update, { input: { id: build.id, status: 'DONE' } })).updateTask;
    expect(refused).toMatchObject({ __typename: 'UnmetDependenciesError', code: 'DEPENDENCIES_NOT_DONE', blockingTaskIds: [design.id], path: ['input', 'status'] });
    const createdDone = (await h.ok(Create, { input: { scope: p, title: 'ship', status: 'DONE', dependsOn: [build.id] } })).createTask;
    expect(createdDone).toMatchObject({ __typename: 'UnmetDependenciesError', blockingTaskIds: [build.id] });

    expect((await h.ok(Update, { input: { id: design.id, status: 'IN_PROGRESS' } })).updateTask).toMatchObject({ task: { status: 'IN_PROGRESS', completedAt: null } });
    expect((await h.ok(Update, { input: { id: design.id, status: 'DONE' } })).updateTask).toMatchObject({ task: { status: 'DONE' } });
    const called = Date.now();
    const done = (await h.ok(Update, { input: { id: build.id, status: 'DONE' } })).updateTask;
    const answered = Date.now();
    expect(done).toMatchObject({ task: { status: 'DONE', blocked: false } });
    // Stamped while the call ran.
    const completedAt = Date.parse(done.__typename === 'UpdateTaskSuccess' ? done.task.completedAt ?? '' : '');
    expect(completedAt).toBeGreaterThanOrEqual(called);
    expect(completedAt).toBeLessThanOrEqual(answered);
    // Reopening clears the completion time.
    expect((await h.ok(Update, { input: { id: build.id, status: 'BLOCKED' } })).updateTask).toMatchObject({ task: { status: 'BLOCKED', completedAt: null } });
  });

  it('refuses dependency cycles, self-dependencies and ancestry loops; removes dependencies', async () => {
    const p = await createProject(h, 'tasks-cycles');
    const a = await task({ scope: p, title: 'a' });
    const b = await task({ scope: p, title: 'b', dependsOn: [a.id] });
    const c = await task({ scope: p, title: 'c', dependsOn: [b.id] });
    const cycle = (await h.ok(AddDeps, { input: { task: a.id, dependsOn: [c.id] } })).addTaskDependencies;
    expect(cycle).toMatchObject({ __typename: 'ValidationError', path: ['input', 'dependsOn', '0'] });
    expect((await h.ok(AddDeps, { input: { task: a.id, dependsOn: [a.id] } })).addTaskDependencies).toMatchObject({ __typename: 'ValidationError' });
    const unknown = Buffer.from('Task:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    expect((await h.ok(AddDeps, { input: { task: c.id, dependsOn: [unknown] } })).addTaskDependencies).toMatchObject({
      __typename: 'NotFoundError',
      path: ['input', 'dependsOn', '0'],
    });
    const both = (await h.ok(AddDeps, { input: { task: c.id, dependsOn: [a.id, b.id] } })).addTaskDependencies;
    expect(both.__typename === 'AddTaskDependenciesSuccess' && both.task.dependsOn.map((d) => d.id).sort()).toEqual([a.id, b.id].sort());
    expect((await h.ok(RemoveDeps, { input: { task: c.id, dependsOn: [a.id, b.id] } })).removeTaskDependencies).toMatchObject({
      task: { dependsOn: [], blocked: false },
    });

    const child = await task({ scope: p, title: 'child', parent: a.id });
    const grandchild = await task({ scope: p, title: 'grandchild', parent: child.id });
    expect((await h.ok(Update, { input: { id: a.id, parent: grandchild.id } })).updateTask).toMatchObject({
      __typename: 'ValidationError',
      path: ['input', 'parent'],
    });
    expect((await h.ok(Update, { input: { id: grandchild.id, parent: null } })).updateTask).toMatchObject({ task: { parent: null } });
  });

  it('a dependency no task has (deleted, or never made) is NOT_FOUND at its place in dependsOn, like a missing parent, to an admin as to a grant holder', async () => {
    const p = await createProject(h, 'tasks-deps-missing');
    const task = async (title: string) => {
      const r = (await h.ok(Create, { input: { scope: p, title } })).createTask;
      return r.__typename === 'CreateTaskSuccess' ? r.task.id : '';
    };
    const kept = await task('kept');
    const gone = await task('gone');
    expect((await ok(h, null, 'mutation ($id: ID!) { deleteTask(input: { id: $id }) { __typename } }', { id: gone })).deleteTask).toEqual({ __typename: 'DeleteTaskSuccess' });
    const never = Buffer.from('Task:0190a0a0-0000-7000-8000-00000000abcd').toString('base64');
    const missing = (path: string[]) => ({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No task has this id', path });

    // The local admin: createTask and addTaskDependencies name the first missing one by its index.
    expect((await h.ok(Create, { input: { scope: p, title: 'x', dependsOn: [kept, gone] } })).createTask).toEqual(missing(['input', 'dependsOn', '1']));
    expect((await h.ok(Create, { input: { scope: p, title: 'x', dependsOn: [never, gone] } })).createTask).toEqual(missing(['input', 'dependsOn', '0']));
    expect((await h.ok(Create, { input: { scope: p, title: 'x', parent: gone } })).createTask).toEqual(missing(['input', 'parent']));
    expect((await h.ok(AddDeps, { input: { task: kept, dependsOn: [gone] } })).addTaskDependencies).toEqual(missing(['input', 'dependsOn', '0']));

    // A holder of WRITE on the project gets the same answers.
    const writer = await principal(h, 'tasks-deps-writer', { grants: [[p, 'WRITE']] });
    const create = 'mutation ($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on UserError { code message path } } }';
    const add = 'mutation ($input: TaskDependenciesInput!) { addTaskDependencies(input: $input) { __typename ... on UserError { code message path } } }';
    expect((await as(h, writer.key, create, { input: { scope: p, title: 'x', dependsOn: [kept, gone] } })).data!.createTask).toEqual(missing(['input', 'dependsOn', '1']));
    expect((await as(h, writer.key, create, { input: { scope: p, title: 'x', parent: gone } })).data!.createTask).toEqual(missing(['input', 'parent']));
    expect((await as(h, writer.key, add, { input: { task: kept, dependsOn: [gone] } })).data!.addTaskDependencies).toEqual(missing(['input', 'dependsOn', '0']));
    // Nothing was created or linked meanwhile.
    expect((await h.ok(List, { filter: { scope: p } })).tasks.totalCount).toBe(1);
  });

  it('lists with filters on scope, descendants, status, assignee and parent', async () => {
    const p = await createProject(h, 'tasks-list');
    const s = await startSession(h, p);
    const root = await task({ scope: p, title: 'root', assignee: 'agent:x', dueAt: '2030-01-01T00:00:00.000Z' });
    await task({ scope: p, title: 'sub-1', parent: root.id, status: 'IN_PROGRESS' });
    await task({ scope: p, title: 'sub-2', parent: root.id, dependsOn: [root.id] });
    await task({ scope: s, title: 'in-session', assignee: 'agent:x', status: 'BLOCKED' });

    const titles = async (filter: Record<string, unknown>) =>
      (await h.ok(List, { filter: filter as never })).tasks.edges.map((e) => e.node.title);
    expect(await titles({ scope: p })).toEqual(['root', 'sub-1', 'sub-2']);
    expect(await titles({ scope: p, includeDescendants: true })).toEqual(['root', 'sub-1', 'sub-2', 'in-session']);
    expect(await titles({ scope: p, includeDescendants: true, assignee: 'agent:x' })).toEqual(['root', 'in-session']);
    expect(await titles({ scope: p, includeDescendants: true, statuses: ['IN_PROGRESS', 'BLOCKED'] })).toEqual(['sub-1', 'in-session']);
    expect(await titles({ scope: p, topLevelOnly: true })).toEqual(['root']);
    expect(await titles({ parent: root.id })).toEqual(['sub-1', 'sub-2']);
    expect(await titles({ scope: p, dueBefore: '2031-01-01T00:00:00.000Z' })).toEqual(['root']);
    expect(await titles({ scope: p, dueBefore: '2030-01-01T00:00:00.000Z' })).toEqual([]); // before: exclusive
    const list = await h.ok(List, { filter: { scope: p, topLevelOnly: true } });
    expect(list.tasks.edges[0]?.node).toMatchObject({ dependents: [{ title: 'sub-2' }], subtasks: { totalCount: 2 } });
    expect(list.tasks.totalCount).toBe(1);

    const blank = (await h.ok(Create, { input: { scope: p, title: '  ' } })).createTask;
    expect(blank).toMatchObject({ __typename: 'ValidationError', path: ['input', 'title'] });
  });
});

describe('task lists', () => {
  it('filter by due time: dueAfter is inclusive and combines with dueBefore; undated tasks match neither', async () => {
    const p = await createProject(h, 'tasks-due');
    await task({ scope: p, title: 'january', dueAt: '2030-01-01T00:00:00.000Z' });
    await task({ scope: p, title: 'june', dueAt: '2030-06-01T00:00:00.000Z' });
    await task({ scope: p, title: 'december', dueAt: '2030-12-01T00:00:00.000Z' });
    await task({ scope: p, title: 'someday' });
    const titles = async (filter: Record<string, unknown>) =>
      (await h.ok(List, { filter: { scope: p, ...filter } as never })).tasks.edges.map((e) => e.node.title);
    expect(await titles({ dueAfter: '2030-06-01T00:00:00.000Z' })).toEqual(['june', 'december']);
    expect(await titles({ dueAfter: '2030-06-01T00:00:00.001Z' })).toEqual(['december']);
    expect(await titles({ dueAfter: '2030-01-01T00:00:00.000Z', dueBefore: '2030-12-01T00:00:00.000Z' })).toEqual(['january', 'june']);
    expect(await titles({ dueAfter: '2031-01-01T00:00:00.000Z' })).toEqual([]);
  });

  it('pages backwards with last and before, and forwards again from there', async () => {
    const Page = graphql(`
      query TaskPage($filter: TaskFilter, $first: Int, $after: String, $last: Int, $before: String) {
        tasks(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
          totalCount
          pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
          edges { cursor node { title } }
        }
      }
    `);
    const p = await createProject(h, 'tasks-paging');
    for (const title of ['t1', 't2', 't3', 't4', 't5']) await task({ scope: p, title });
    const page = async (args: { first?: number; after?: string | null; last?: number; before?: string | null }) => {
      const { tasks } = await h.ok(Page, { filter: { scope: p }, ...args });
      return { ...tasks, titles: tasks.edges.map((e) => e.node.title) };
    };
    const last = await page({ last: 2 });
    expect(last).toMatchObject({ totalCount: 5, titles: ['t4', 't5'] });
    expect(last.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false, startCursor: last.edges[0]!.cursor, endCursor: last.edges[1]!.cursor });
    const middle = await page({ last: 2, before: last.pageInfo.startCursor });
    expect(middle.titles).toEqual(['t2', 't3']);
    expect(middle.pageInfo.hasPreviousPage).toBe(true);
    const opening = await page({ last: 2, before: middle.pageInfo.startCursor });
    expect(opening.titles).toEqual(['t1']);
    expect(opening.pageInfo).toMatchObject({ hasPreviousPage: false, startCursor: opening.edges[0]!.cursor });
    // A backward page's end cursor continues forwards to the rest.
    expect((await page({ first: 10, after: middle.pageInfo.endCursor })).titles).toEqual(['t4', 't5']);
    const tooMany = await h.gql(Page, { filter: { scope: p }, last: 101 });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
