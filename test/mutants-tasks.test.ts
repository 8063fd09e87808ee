import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject, startSession } from './support/ops.ts';

// Rules of tasks.service.ts that mutation testing (npm run mutate) found unchecked: which fields an
// update writes and which it leaves, completedAt, the dependency rules of addTaskDependencies, and
// that removeTaskDependencies removes only the named edges of that one task; the message and argument
// of each refusal, the dependency limits, parents that are missing or would make a loop, and tasks
// of an archived session.

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

const CompleteSession = graphql(`
  mutation MutantTaskCompleteSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

const ArchiveSession = graphql(`
  mutation MutantTaskArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }
`);

const UpdateFailure = graphql(`
  mutation MutantUpdateTaskFailure($input: UpdateTaskInput!) {
    updateTask(input: $input) {
      __typename
      ... on UpdateTaskSuccess { task { title status completedAt } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UnmetDependenciesError { blockingTaskIds }
      ... on UserError { code message path }
    }
  }
`);

const CreateFailure = graphql(`
  mutation MutantCreateTaskFailure($input: CreateTaskInput!) {
    createTask(input: $input) {
      __typename
      ... on CreateTaskSuccess { task { id title parent { title } } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const AddFailure = graphql(`
  mutation MutantAddDependenciesFailure($input: TaskDependenciesInput!) {
    addTaskDependencies(input: $input) {
      __typename
      ... on AddTaskDependenciesSuccess { task { title } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const TaskDependencyCount = graphql(`
  query MutantTaskDependencyCount($id: ID!) {
    node(id: $id) { ... on Task { dependsOn { id } } }
  }
`);

const taskId = (n: number) => Buffer.from(`Task:0190a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`).toString('base64');

async function updateFailure(input: Record<string, unknown>) {
  return (await h.ok(UpdateFailure, { input: input as never })).updateTask;
}

async function createFailure(input: Record<string, unknown>) {
  return (await h.ok(CreateFailure, { input: input as never })).createTask;
}

async function addFailure(input: Record<string, unknown>) {
  return (await h.ok(AddFailure, { input: input as never })).addTaskDependencies;
}

describe('task field checks', () => {
  it('says why a title or status cannot be changed so, and which argument is too long', async () => {
    const p = await createProject(h, 'task-field-messages');
    const t = await createTask({ scope: p, title: 'kept' });
    expect(await updateFailure({ id: t.id, title: null })).toMatchObject({
      issues: [{ path: ['input', 'title'], message: 'cannot be cleared' }, { path: ['input', 'title'], message: 'is required' }],
    });
    expect(await updateFailure({ id: t.id, title: '   ' })).toMatchObject({
      message: 'input.title: must not be blank',
      issues: [{ path: ['input', 'title'], message: 'must not be blank' }],
    });
    expect(await updateFailure({ id: t.id, status: null })).toMatchObject({ message: 'input.status: cannot be cleared' });
    expect(await updateFailure({ id: t.id, description: 'd'.repeat(4_001) })).toMatchObject({
      message: 'input.description: must be at most 4000 characters (got 4001)',
      path: ['input', 'description'],
    });
    expect(await createFailure({ scope: p, title: 'x', assignee: 'a'.repeat(201) })).toMatchObject({
      message: 'input.assignee: must be at most 200 characters (got 201)',
      path: ['input', 'assignee'],
    });
    expect(await updateFailure({ id: missingTask, title: 'x' })).toMatchObject({ code: 'NOT_FOUND', message: 'No task has this id' });
    expect((await update({ id: t.id })).__typename).toBe('UpdateTaskSuccess');
    expect(await update({ id: t.id })).toMatchObject({ task: { title: 'kept' } });
  });

  it('keeps completedAt when a DONE task changes anything but its status', async () => {
    const p = await createProject(h, 'task-keep-completed');
    const t = await createTask({ scope: p, title: 'finished', status: 'DONE' });
    expect(t.completedAt).not.toBeNull();
    expect(await update({ id: t.id, title: 'renamed' })).toMatchObject({ task: { title: 'renamed', status: 'DONE', completedAt: t.completedAt } });
  });

  it('a task in an archived session can be neither created nor changed', async () => {
    const p = await createProject(h, 'task-archived');
    const s = await startSession(h, p);
    const t = await createTask({ scope: s, title: 'in session' });
    await h.ok(CompleteSession, { id: s });
    expect((await h.ok(ArchiveSession, { id: s })).archiveSession.__typename).toBe('ArchiveSessionSuccess');
    expect(await updateFailure({ id: t.id, title: 'x' })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'id'] });
    expect(await createFailure({ scope: s, title: 'y' })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'scope'] });
  });
});

describe('task parents', () => {
  it('a parent that does not exist is NOT_FOUND at input.parent, on create and on move', async () => {
    const p = await createProject(h, 'task-parent-missing');
    const t = await createTask({ scope: p, title: 'child' });
    const expected = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No task has this id', path: ['input', 'parent'] };
    expect(await createFailure({ scope: p, title: 'orphan', parent: missingTask })).toEqual(expected);
    expect(await updateFailure({ id: t.id, parent: missingTask })).toEqual(expected);
  });

  it('a task cannot become its own ancestor; the message says so', async () => {
    const p = await createProject(h, 'task-parent-cycle');
    const top = await createTask({ scope: p, title: 'top' });
    const mid = await createFailure({ scope: p, title: 'mid', parent: top.id });
    const midId = mid.__typename === 'CreateTaskSuccess' ? mid.task.id : '';
    expect(mid).toMatchObject({ task: { parent: { title: 'top' } } });
    expect(await updateFailure({ id: top.id, parent: midId })).toMatchObject({
      message: 'input.parent: would make the task its own ancestor',
      path: ['input', 'parent'],
    });
  });
});

describe('task dependency limits and messages', () => {
  it('lists of dependencies: at most 100, none twice, each one a task', async () => {
    const p = await createProject(h, 'task-dep-list');
    const hundred = Array.from({ length: 100 }, (_, i) => taskId(i + 1));
    const tooMany = await createFailure({ scope: p, title: 'x', dependsOn: [...hundred, taskId(101)] });
    expect(tooMany).toMatchObject({ message: 'input.dependsOn: must list at most 100 tasks', issues: [{ path: ['input', 'dependsOn'] }] });
    // 100 is allowed: the unknown ids are what is refused, NOT_FOUND at the first.
    expect(await createFailure({ scope: p, title: 'x', dependsOn: hundred })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No task has this id',
      path: ['input', 'dependsOn', '0'],
    });
    const real = await createTask({ scope: p, title: 'real' });
    expect(await createFailure({ scope: p, title: 'x', dependsOn: [real.id, real.id] })).toMatchObject({
      __typename: 'ValidationError',
      message: 'input.dependsOn: must not list a task twice',
      path: ['input', 'dependsOn'],
    });
    expect(await addFailure({ task: real.id, dependsOn: [taskId(7)] })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No task has this id',
      path: ['input', 'dependsOn', '0'],
    });
  });

  it('a task depends on at most 100 tasks in all, counting those it has', async () => {
    const p = await createProject(h, 'task-dep-limit');
    const target = await createTask({ scope: p, title: 'target' });
    const others: string[] = [];
    for (let i = 0; i < 101; i++) others.push((await createTask({ scope: p, title: `dep ${i}` })).id);
    expect(await addFailure({ task: target.id, dependsOn: others.slice(0, 60) })).toMatchObject({ __typename: 'AddTaskDependenciesSuccess' });
    // Adding again what it has is no addition: 60 + 40 new = 100.
    expect(await addFailure({ task: target.id, dependsOn: others.slice(50, 100) })).toMatchObject({ __typename: 'AddTaskDependenciesSuccess' });
    expect(await addFailure({ task: target.id, dependsOn: [others[100]!] })).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.dependsOn: a task may depend on at most 100 tasks',
      path: ['input', 'dependsOn'],
      issues: [{ path: ['input', 'dependsOn'], message: 'a task may depend on at most 100 tasks' }],
    });
    const r = await h.ok(TaskDependencyCount, { id: target.id });
    expect(r.node && 'dependsOn' in r.node ? r.node.dependsOn.length : null).toBe(100);
  });

  it('names how many dependencies are not done, and which', async () => {
    const p = await createProject(h, 'task-dep-unmet');
    const a = await createTask({ scope: p, title: 'a' });
    const b = await createTask({ scope: p, title: 'b' });
    const one = await createTask({ scope: p, title: 'one', dependsOn: [a.id] });
    const two = await createTask({ scope: p, title: 'two', dependsOn: [a.id, b.id] });
    expect(await updateFailure({ id: one.id, status: 'DONE' })).toEqual({
      __typename: 'UnmetDependenciesError',
      code: 'DEPENDENCIES_NOT_DONE',
      message: 'The task depends on 1 task not done yet',
      path: ['input', 'status'],
      blockingTaskIds: [a.id],
    });
    expect(await updateFailure({ id: two.id, status: 'DONE' })).toMatchObject({ message: 'The task depends on 2 tasks not done yet' });
    // Only completing waits for dependencies: other changes go through.
    expect(await updateFailure({ id: two.id, title: 'renamed', status: 'IN_PROGRESS' })).toMatchObject({
      __typename: 'UpdateTaskSuccess',
      task: { title: 'renamed', status: 'IN_PROGRESS' },
    });
    expect(await createFailure({ scope: p, title: 'born done', status: 'DONE', dependsOn: [b.id] })).toMatchObject({
      message: 'The task depends on 1 task not done yet',
    });
  });

  it('says why a cycle or an undone dependency of a DONE task is refused', async () => {
    const p = await createProject(h, 'task-dep-messages');
    const a = await createTask({ scope: p, title: 'a' });
    const b = await createTask({ scope: p, title: 'b', dependsOn: [a.id] });
    expect(await addFailure({ task: a.id, dependsOn: [b.id] })).toMatchObject({
      message: 'input.dependsOn.0: would make the tasks depend on each other in a cycle',
      path: ['input', 'dependsOn', '0'],
    });
    const done = await createTask({ scope: p, title: 'done', status: 'DONE' });
    expect(await addFailure({ task: done.id, dependsOn: [a.id] })).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      currentState: 'DONE',
      message: 'The task is DONE: it can only take dependencies that are done',
      path: ['input', 'dependsOn'],
    });
  });
});
