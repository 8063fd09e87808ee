import { builder } from '../../graphql/builder.ts';
import { MemoryTypeEnum } from '../entries/entry-enums.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import { scopeOfTarget } from '../identity/targets.ts';
import { MEMBER, can } from '../../graphql/rules.ts';
import type { Context } from '../../context.ts';
import { LIMITS } from '../../domain/limits.ts';
import { inReadableScope } from '../identity/access.service.ts';
import type { Target } from '../identity/targets.ts';
import { InvalidStateError, UnmetDependenciesError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { FENCING_DESCRIPTION, FencingInput, fencedBy } from '../leases/leases.schema.ts';
import {
  addTaskDependencies,
  createTask,
  removeTaskDependencies,
  taskWhere,
  updateTask,
  type TaskFilter,
  type TaskStatus,
} from './tasks.service.ts';

const TaskStatusEnum = builder.enumType('TaskStatus', {
  description: 'Where a task stands.',
  values: {
    OPEN: { description: 'Not started.' },
    IN_PROGRESS: { description: 'Being worked on.' },
    BLOCKED: { description: 'Waiting on something.' },
    DONE: { description: 'Finished; every dependency was done first.' },
    CANCELLED: { description: 'Dropped.' },
  },
});

export const TaskRef = builder.prismaNode('Task', {
  description: 'Prospective memory: something to do in a scope, with subtasks and dependencies.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    title: t.exposeString('title', { description: 'What to do.' }),
    memoryType: t.field({ type: MemoryTypeEnum, description: 'Always PROSPECTIVE: what is to be done.', resolve: () => 'PROSPECTIVE' as const }),
    description: t.exposeString('description', { nullable: true, description: 'Details.' }),
    status: t.field({ type: TaskStatusEnum, description: 'Where it stands.', resolve: (task) => task.status as TaskStatus }),
    assignee: t.exposeString('assignee', { nullable: true, description: 'The agent working on it.' }),
    dueAt: t.expose('dueAt', { type: 'DateTime', nullable: true, description: 'When it is due.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it became DONE.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who created it.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Last change.' }),
    scope: t.relation('scope', { type: ScopeRef, description: 'The scope it belongs to.' }),
  }),
});

// Fields that reference Task itself are added once the ref exists (keeps inference acyclic).
builder.prismaObjectFields(TaskRef, (t) => ({
    parent: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task it is a subtask of (null when the caller may not read it).',
      select: (_args, _ctx, nested) => ({ parent: nested(true) }),
      resolve: async (task, _args, ctx) => (await readableTasks(ctx, task.parent ? [task.parent] : []))[0] ?? null,
    }),
    subtasks: t.relatedConnection(
      'children',
      {
        type: TaskRef,
        cursor: 'id',
        ...PAGING,
        description: 'Its subtasks the caller may read, oldest first.',
        totalCount: true,
        query: (_args, ctx) => {
          const scope = ctx.access.scopeWhereNow();
          return { where: scope ? { scope } : {}, orderBy: { id: 'asc' } };
        },
      },
      { name: 'TaskSubtasksConnection', description: 'Page of subtasks.' },
      { name: 'TaskSubtasksEdge', description: 'A subtask.' },
    ),
    dependsOn: t.field({
      type: [TaskRef],
      description: 'Tasks that must be DONE before this one can be (those the caller may read).',
      select: { dependsOn: { select: { dependsOn: true }, orderBy: { dependsOnId: 'asc' } } },
      resolve: (task, _args, ctx) => readableTasks(ctx, task.dependsOn.map((d) => d.dependsOn)),
    }),
    dependents: t.field({
      type: [TaskRef],
      description: 'Tasks waiting on this one (those the caller may read).',
      select: { dependents: { select: { task: true }, orderBy: { taskId: 'asc' } } },
      resolve: (task, _args, ctx) => readableTasks(ctx, task.dependents.map((d) => d.task)),
    }),
    blocked: t.boolean({
      description: 'True while a dependency is not DONE.',
      select: { dependsOn: { select: { dependsOn: { select: { status: true } } } } },
      resolve: (task) => task.dependsOn.some((d) => d.dependsOn.status !== 'DONE'),
    }),
}));

const TaskFilterInput = builder.inputType('TaskFilter', {
  description: 'Narrows a task list. All conditions must hold.',
  fields: (t) => ({
    scope: t.id({ description: 'Only tasks of this scope.' }),
    includeDescendants: t.boolean({ description: 'With `scope`: also its descendant scopes (default false).' }),
    statuses: t.field({ type: [TaskStatusEnum], description: 'Only tasks in these statuses.' }),
    assignee: t.string({ description: 'Only tasks assigned to this agent.' }),
    parent: t.id({ description: 'Only subtasks of this task.' }),
    topLevelOnly: t.boolean({ description: 'Only tasks without a parent (default false).' }),
    dueBefore: t.field({ type: 'DateTime', description: 'Only tasks due before this time.' }),
    dueAfter: t.field({ type: 'DateTime', description: 'Only tasks due at or after this time.' }),
  }),
});

type FilterArg = {
  scope?: string | number | null;
  includeDescendants?: boolean | null;
  statuses?: TaskStatus[] | null;
  assignee?: string | null;
  parent?: string | number | null;
  topLevelOnly?: boolean | null;
  dueBefore?: Date | null;
  dueAfter?: Date | null;
} | null | undefined;

function filterOf(filter: FilterArg): TaskFilter {
  return {
    scopeId: filter?.scope != null ? decodeId(String(filter.scope), SCOPE_TYPENAMES, ['filter', 'scope']) : null,
    includeDescendants: filter?.includeDescendants ?? false,
    statuses: filter?.statuses ?? null,
    assignee: filter?.assignee ?? null,
    parentId: filter?.parent != null ? decodeId(String(filter.parent), ['Task'], ['filter', 'parent']) : null,
    topLevelOnly: filter?.topLevelOnly ?? false,
    dueBefore: filter?.dueBefore ?? null,
    dueAfter: filter?.dueAfter ?? null,
  };
}

builder.queryField('tasks', (t) =>
  t.prismaConnection(
    {
      type: TaskRef,
      cursor: 'id',
      ...PAGING,
      description: 'Tasks the caller may read, oldest first, filtered.',
      args: { filter: t.arg({ type: TaskFilterInput, description: 'Which tasks.' }) },
      authScopes: MEMBER,
      totalCount: async (_parent, args, ctx) => ctx.db.task.count({ where: await inReadableScope(ctx.access, taskWhere(filterOf(args.filter))) }),
      resolve: async (query, _root, args, ctx) =>
        ctx.db.task.findMany({ ...query, where: await inReadableScope(ctx.access, taskWhere(filterOf(args.filter))), orderBy: { id: 'asc' } }),
    },
    { description: 'Page of tasks.' },
    { description: 'A task.' },
  ),
);

const CreateTaskInput = builder.inputType('CreateTaskInput', {
  description: 'A new task.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    title: t.string({ required: true, description: 'What to do.' }),
    description: t.string({ description: 'Details.' }),
    status: t.field({ type: TaskStatusEnum, description: 'Default OPEN.' }),
    parent: t.id({ description: 'The task it is a subtask of.' }),
    dependsOn: t.idList({ description: 'Tasks that must be DONE first.' }),
    assignee: t.string({ description: 'The agent working on it.' }),
    dueAt: t.field({ type: 'DateTime', description: 'When it is due.' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const UpdateTaskInput = builder.inputType('UpdateTaskInput', {
  description: 'Changes to a task. Absent fields stay; null clears description, parent, assignee and due date.',
  fields: (t) => ({
    id: t.id({ required: true, description: 'The task.' }),
    title: t.string({ description: 'New title.' }),
    description: t.string({ description: 'New details.' }),
    status: t.field({ type: TaskStatusEnum, description: 'New status. DONE needs every dependency DONE.' }),
    parent: t.id({ description: 'New parent task (null: top level).' }),
    assignee: t.string({ description: 'New assignee.' }),
    dueAt: t.field({ type: 'DateTime', description: 'New due date.' }),
    fencing: t.field({ type: FencingInput, description: FENCING_DESCRIPTION }),
  }),
});

const DependenciesInput = builder.inputType('TaskDependenciesInput', {
  description: 'A task and the tasks it depends on.',
  fields: (t) => ({
    task: t.id({ required: true, description: 'The task.' }),
    dependsOn: t.idList({ required: true, description: 'The tasks.' }),
  }),
});

/** READ on each task named (one the caller cannot read answers as missing). */
function readsTasks(ids: ReadonlyArray<readonly [string | number, string[]]>): Target[] {
  return ids.slice(0, LIMITS.taskDependencies).map(([id, path]) => can('READ', 'task', id, ['Task'], path).can);
}

const listed = (ids: readonly (string | number)[] | null | undefined, path: string[]) =>
  (ids ?? []).map((id, i): readonly [string | number, string[]] => [id, [...path, String(i)]]);

/** Of some tasks, those in scopes the caller reads. */
async function readableTasks<T extends { scopeId: string }>(ctx: Context, tasks: T[]): Promise<T[]> {
  const readable = await Promise.all(tasks.map((task) => ctx.access.has('READ', task.scopeId)));
  return tasks.filter((_, i) => readable[i]);
}

const taskIds = (ids: readonly (string | number)[], path: string[]) => ids.map((id, i) => decodeId(String(id), ['Task'], [...path, String(i)]));

builder.mutationFields((t) => ({
  createTask: t.field({
    type: TaskRef,
    description: 'Creates a task.',
    args: { input: t.arg({ type: CreateTaskInput, required: true, description: 'The task.' }) },
    authScopes: (_root, { input }) => ({
      $all: {
        ...can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
        canEach: readsTasks([...(input.parent != null ? [[input.parent, ['input', 'parent']] as [string | number, string[]]] : []), ...listed(input.dependsOn, ['input', 'dependsOn'])]),
      },
    }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError, UnmetDependenciesError], dataField: { name: 'task', description: 'The new task.' } },
    resolve: async (_root, { input }, ctx) => {
      const scopeId = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
      // The assignee is how tasks are found (a filter): refused, not redacted, like a name.
      const [title, description] = await screenSecrets(ctx.db, scopeId, [
        { path: ['input', 'title'], value: input.title },
        { path: ['input', 'description'], value: input.description ?? null },
        { path: ['input', 'assignee'], value: input.assignee ?? null, isName: true },
      ]);
      return createTask(fencedBy(ctx, input.fencing), {
        scopeId,
        title: title as string,
        description: description as string | null,
        status: input.status ?? null,
        parentId: input.parent != null ? decodeId(String(input.parent), ['Task'], ['input', 'parent']) : null,
        dependsOn: taskIds(input.dependsOn ?? [], ['input', 'dependsOn']),
        assignee: input.assignee ?? null,
        dueAt: input.dueAt ?? null,
        author: ctx.actor,
      });
    },
  }),
  updateTask: t.field({
    type: TaskRef,
    description: 'Changes a task; marking it DONE while a dependency is not is an UnmetDependenciesError.',
    args: { input: t.arg({ type: UpdateTaskInput, required: true, description: 'The changes.' }) },
    authScopes: (_root, { input }) => ({
      $all: {
        ...can('WRITE', 'task', input.id, ['Task'], ['input', 'id']),
        canEach: readsTasks(input.parent != null ? [[input.parent, ['input', 'parent']] as [string | number, string[]]] : []),
      },
    }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError, UnmetDependenciesError], dataField: { name: 'task', description: 'The task after the change.' } },
    resolve: async (_root, { input }, ctx) => {
      const id = decodeId(String(input.id), ['Task'], ['input', 'id']);
      const [title, description] = await screenSecrets(ctx.db, (await scopeOfTarget(ctx.db, ctx.access, 'task', id)) ?? null, [
        { path: ['input', 'title'], value: input.title },
        { path: ['input', 'description'], value: input.description },
        { path: ['input', 'assignee'], value: input.assignee, isName: true },
      ]);
      return updateTask(fencedBy(ctx, input.fencing), {
        id,
        title: title as string | undefined,
        description: description as string | null | undefined,
        status: input.status,
        parentId: input.parent === undefined ? undefined : input.parent === null ? null : decodeId(String(input.parent), ['Task'], ['input', 'parent']),
        assignee: input.assignee,
        dueAt: input.dueAt,
      });
    },
  }),
  addTaskDependencies: t.field({
    type: TaskRef,
    description: 'Makes a task depend on more tasks (a cycle is refused).',
    args: { input: t.arg({ type: DependenciesInput, required: true, description: 'Task and dependencies.' }) },
    authScopes: (_root, { input }) => ({
      $all: { ...can('WRITE', 'task', input.task, ['Task'], ['input', 'task']), canEach: readsTasks(listed(input.dependsOn, ['input', 'dependsOn'])) },
    }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'task', description: 'The task.' } },
    resolve: (_root, { input }, ctx) =>
      addTaskDependencies(ctx, {
        taskId: decodeId(String(input.task), ['Task'], ['input', 'task']),
        dependsOn: taskIds(input.dependsOn, ['input', 'dependsOn']),
      }),
  }),
  removeTaskDependencies: t.field({
    type: TaskRef,
    description: 'Removes dependencies of a task (ones it does not have are ignored).',
    args: { input: t.arg({ type: DependenciesInput, required: true, description: 'Task and dependencies.' }) },
    authScopes: (_root, { input }) => ({
      $all: { ...can('WRITE', 'task', input.task, ['Task'], ['input', 'task']), canEach: readsTasks(listed(input.dependsOn, ['input', 'dependsOn'])) },
    }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'task', description: 'The task.' } },
    resolve: (_root, { input }, ctx) =>
      removeTaskDependencies(ctx, {
        taskId: decodeId(String(input.task), ['Task'], ['input', 'task']),
        dependsOn: taskIds(input.dependsOn, ['input', 'dependsOn']),
      }),
  }),
}));
