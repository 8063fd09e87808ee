import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

// Rules of tasks.service.ts that mutation testing (npm run mutate) found unchecked: which fields an
// update writes and which it leaves, completedAt, the dependency rules of addTaskDependencies, and
// that removeTaskDependencies removes only the named edges of that one task.

const h = useHarness();

const CreateTask = graphql(`
  mutation MutantCreateTask($input: CreateTaskInput!) {
    createTask(input: $input) {
      __typename
      ... on CreateTaskSuccess { task { id title description status assignee dueAt completedAt } }
      ... on UserError { code path }
    }
  }
`);

const UpdateTask = graphql(`
  mutation MutantUpdateTask($input: UpdateTaskInput!) {
    updateTask(input: $input) {
      __typename
      ... on UpdateTaskSuccess { task { title description status assignee dueAt completedAt } }
      ... on UserError { code path }
    }
  }
`);

const AddDependencies = graphql(`
  mutation MutantAddDependencies($input: TaskDependenciesInput!) {
    addTaskDependencies(input: $input) {
      __typename
      ... on AddTaskDependenciesSuccess { task { dependsOn { title } } }
      ... on UserError { code path message }
    }
  }
`);

const RemoveDependencies = graphql(`
  mutation MutantRemoveDependencies($input: TaskDependenciesInput!) {
    removeTaskDependencies(input: $input) {
      __typename
      ... on RemoveTaskDependenciesSuccess { task { dependsOn { title } } }
      ... on UserError { code path }
    }
  }
`);

const TaskDependencies = graphql(`
  query MutantTaskDependencies($id: ID!) {
    node(id: $id) { ... on Task { dependsOn { title } } }
  }
`);

const missingTask = Buffer.from('Task:0190a0a0-0000-7000-8000-000000000000').toString('base64');

async function createTask(input: Record<string, unknown>) {
  const r = (await h.ok(CreateTask, { input: input as never })).createTask;
  if (r.__typename !== 'CreateTaskSuccess') throw new Error(JSON.stringify(r));
  return r.task;
}

async function update(input: Record<string, unknown>) {
  return (await h.ok(UpdateTask, { input: input as never })).updateTask;
}

async function dependsOn(id: string) {
  const r = await h.ok(TaskDependencies, { id });
  return r.node && 'dependsOn' in r.node ? r.node.dependsOn.map((t) => t.title) : null;
}

describe('createTask', () => {
  it('stores every field; completedAt only for a task created DONE', async () => {
    const p = await createProject(h, 'task-create');
    const open = await createTask({ scope: p, title: ' spaced ', description: 'why', assignee: 'agent:a', dueAt: '2030-01-01T00:00:00.000Z' });
    expect(open).toMatchObject({ title: 'spaced', description: 'why', status: 'OPEN', assignee: 'agent:a', dueAt: '2030-01-01T00:00:00.000Z', completedAt: null });
    const done = await createTask({ scope: p, title: 'done', status: 'DONE' });
    expect(done.completedAt).not.toBeNull();
  });

  it('a task created DONE may depend on DONE tasks', async () => {
    const p = await createProject(h, 'task-create-done');
    const finished = await createTask({ scope: p, title: 'finished', status: 'DONE' });
    const created = (await h.ok(CreateTask, { input: { scope: p, title: 'after', status: 'DONE', dependsOn: [finished.id] } })).createTask;
    expect(created.__typename).toBe('CreateTaskSuccess');
    expect(await dependsOn(created.__typename === 'CreateTaskSuccess' ? created.task.id : '')).toEqual(['finished']);
  });
});

describe('updateTask', () => {
  it('writes the fields given, clears those given null, leaves the absent ones', async () => {
    const p = await createProject(h, 'task-update');
    const t = await createTask({ scope: p, title: 'full', description: 'd', assignee: 'agent:a', dueAt: '2030-01-01T00:00:00.000Z' });
    const changed = await update({ id: t.id, title: ' renamed ', description: 'd2', assignee: 'agent:b', dueAt: '2031-01-01T00:00:00.000Z' });
    expect(changed).toMatchObject({ task: { title: 'renamed', description: 'd2', assignee: 'agent:b', dueAt: '2031-01-01T00:00:00.000Z' } });
    const untouched = await update({ id: t.id, status: 'IN_PROGRESS' });
    expect(untouched).toMatchObject({ task: { title: 'renamed', description: 'd2', assignee: 'agent:b', dueAt: '2031-01-01T00:00:00.000Z' } });
    const cleared = await update({ id: t.id, description: null, assignee: null, dueAt: null });
    expect(cleared).toMatchObject({ task: { title: 'renamed', description: null, assignee: null, dueAt: null } });
  });

  it('sets completedAt when a task becomes DONE and keeps it when DONE is sent again', async () => {
    const p = await createProject(h, 'task-completed-at');
    const t = await createTask({ scope: p, title: 'finish me' });
    const done = await update({ id: t.id, status: 'DONE' });
    const completedAt = done.__typename === 'UpdateTaskSuccess' ? done.task.completedAt : null;
    expect(completedAt).not.toBeNull();
    const again = await update({ id: t.id, status: 'DONE' });
    expect(again).toMatchObject({ task: { status: 'DONE', completedAt } });
    expect(await update({ id: t.id, status: 'OPEN' })).toMatchObject({ task: { status: 'OPEN', completedAt: null } });
  });

  it('refuses clearing title or status and names the argument', async () => {
    const p = await createProject(h, 'task-refusals');
    const t = await createTask({ scope: p, title: 'kept' });
    expect(await update({ id: t.id, title: null })).toMatchObject({ __typename: 'ValidationError', path: ['input', 'title'] });
    expect(await update({ id: t.id, status: null })).toMatchObject({ __typename: 'ValidationError', path: ['input', 'status'] });
    expect(await update({ id: missingTask, title: 'x' })).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'id'] });
  });
});

describe('task dependencies', () => {
  it('refuses a task depending on itself or one listed twice, naming input.dependsOn', async () => {
    const p = await createProject(h, 'task-dep-rules');
    const a = await createTask({ scope: p, title: 'a' });
    const b = await createTask({ scope: p, title: 'b' });
    const self = (await h.ok(AddDependencies, { input: { task: a.id, dependsOn: [a.id] } })).addTaskDependencies;
    expect(self).toMatchObject({ __typename: 'ValidationError', path: ['input', 'dependsOn'] });
    expect(self.__typename === 'ValidationError' && self.message).toContain('itself');
    const twice = (await h.ok(AddDependencies, { input: { task: a.id, dependsOn: [b.id, b.id] } })).addTaskDependencies;
    expect(twice).toMatchObject({ __typename: 'ValidationError', path: ['input', 'dependsOn'] });
    const missing = (await h.ok(AddDependencies, { input: { task: missingTask, dependsOn: [b.id] } })).addTaskDependencies;
    expect(missing).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'task'] });
    expect(await dependsOn(a.id)).toEqual([]);
  });

  it('a DONE task takes DONE dependencies only', async () => {
    const p = await createProject(h, 'task-dep-done');
    const done = await createTask({ scope: p, title: 'done', status: 'DONE' });
    const finished = await createTask({ scope: p, title: 'finished', status: 'DONE' });
    const open = await createTask({ scope: p, title: 'open' });
    const refused = (await h.ok(AddDependencies, { input: { task: done.id, dependsOn: [finished.id, open.id] } })).addTaskDependencies;
    expect(refused).toMatchObject({ __typename: 'InvalidStateError', path: ['input', 'dependsOn'] });
    const taken = (await h.ok(AddDependencies, { input: { task: done.id, dependsOn: [finished.id] } })).addTaskDependencies;
    expect(taken).toEqual({ __typename: 'AddTaskDependenciesSuccess', task: { dependsOn: [{ title: 'finished' }] } });
  });

  it('removes only the named dependencies of that task', async () => {
    const p = await createProject(h, 'task-dep-remove');
    const [x, y, a, b] = await Promise.all(['x', 'y', 'a', 'b'].map((title) => createTask({ scope: p, title })));
    await h.ok(AddDependencies, { input: { task: a!.id, dependsOn: [x!.id, y!.id] } });
    await h.ok(AddDependencies, { input: { task: b!.id, dependsOn: [x!.id] } });
    const removed = (await h.ok(RemoveDependencies, { input: { task: a!.id, dependsOn: [x!.id] } })).removeTaskDependencies;
    expect(removed).toEqual({ __typename: 'RemoveTaskDependenciesSuccess', task: { dependsOn: [{ title: 'y' }] } });
    expect(await dependsOn(b!.id)).toEqual(['x']);
    const missing = (await h.ok(RemoveDependencies, { input: { task: missingTask, dependsOn: [x!.id] } })).removeTaskDependencies;
    expect(missing).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'task'] });
  });
});
