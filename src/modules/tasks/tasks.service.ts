import type { Tx } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { InvalidStateError, NotFoundError, UnmetDependenciesError, ValidationError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { Prisma, type Task } from '../../generated/sqlite/client.ts';
import { archivedError, assertWritableScope } from '../scopes/archived.ts';
import { scopeSubtreeWhere } from '../scopes/scope-where.ts';

/** Prospective memory: tasks in a scope, with subtasks and dependencies. */
export const TASK_STATUSES = ['OPEN', 'IN_PROGRESS', 'BLOCKED', 'DONE', 'CANCELLED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

function checkFields(
  c: Checker,
  input: { title?: string | null; description?: string | null; assignee?: string | null; dueAt?: Date | null },
  creating: boolean,
): void {
  if (!creating && input.title === null) c.fail(['input', 'title'], 'cannot be cleared');
  c.text(input.title, ['input', 'title'], LIMITS.title, creating || input.title !== undefined);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.text(input.assignee, ['input', 'assignee'], LIMITS.agentId);
  if (input.dueAt && Number.isNaN(input.dueAt.getTime())) c.fail(['input', 'dueAt'], 'must be a valid date-time');
}

function checkDependencyList(c: Checker, ids: readonly string[], path: string[]): void {
  if (ids.length > LIMITS.taskDependencies) c.fail(path, `must list at most ${LIMITS.taskDependencies} tasks`);
  if (new Set(ids).size !== ids.length) c.fail(path, 'must not list a task twice');
}

/** Dependencies of `taskId` that are not DONE; on PostgreSQL they stay locked until commit. */
async function undoneDependencies(tx: Tx, provider: WriteDeps['provider'], taskId: string): Promise<string[]> {
  const lock = provider === 'postgresql' ? Prisma.sql`FOR SHARE OF t` : Prisma.empty;
  const rows = await tx.$queryRaw<Array<{ id: string; status: string }>>`
    SELECT t."id", t."status" FROM "Task" t JOIN "TaskDependency" d ON d."dependsOnId" = t."id"
    WHERE d."taskId" = ${taskId} ORDER BY t."id" ${lock}`;
  return rows.filter((r) => r.status !== 'DONE').map((r) => r.id);
}

function unmet(blocking: string[]): UnmetDependenciesError {
  return new UnmetDependenciesError(
    `The task depends on ${blocking.length} task${blocking.length === 1 ? '' : 's'} not done yet`,
    blocking,
    ['input', 'status'],
  );
}

/** Fails when `taskId` reaches `dependsOnId`'s dependency closure, i.e. the new edge would close a cycle. */
async function assertNoDependencyCycle(tx: Tx, taskId: string, dependsOnId: string, path: string[]): Promise<void> {
  const rows = await tx.$queryRaw<Array<{ hit: number }>>`
    WITH RECURSIVE reach("id") AS (
      SELECT ${dependsOnId}
      UNION
      SELECT d."dependsOnId" FROM "TaskDependency" d JOIN reach r ON d."taskId" = r."id"
    )
    SELECT 1 AS "hit" FROM reach WHERE "id" = ${taskId} LIMIT 1`;
  if (rows.length > 0) throw new ValidationError([{ path, message: 'would make the tasks depend on each other in a cycle' }]);
}

/**
 * The status of each task named as a dependency; NotFound at `input.dependsOn.<i>` for the first
 * one no task has (deleted, or never made), as for a missing parent and as the READ rule on each
 * dependency answers every caller but an admin, who passes it without the rule reading the task.
 */
async function statusesOf(tx: Tx, ids: readonly string[]): Promise<Map<string, string>> {
  const found = await tx.task.findMany({ where: { id: { in: [...ids] } }, select: { id: true, status: true } });
  const known = new Map(found.map((t) => [t.id, t.status]));
  const missing = ids.findIndex((id) => !known.has(id));
  if (missing >= 0) throw new NotFoundError('No task has this id', ['input', 'dependsOn', String(missing)]);
  return known;
}

async function taskInWritableScope(tx: Tx, id: string, path: string[]): Promise<Task & { scope: { status: string | null } }> {
  const task = await tx.task.findUnique({ where: { id }, include: { scope: { select: { status: true } } } });
  if (!task) throw new NotFoundError('No task has this id', path);
  if (task.scope.status === 'ARCHIVED') throw archivedError(path);
  return task;
}

/** Walks up from `parentId`; fails when `taskId` is on the way (a task cannot be its own ancestor). */
async function assertParentOk(tx: Tx, taskId: string | null, parentId: string): Promise<void> {
  let current: string | null = parentId;
  for (let depth = 0; current !== null; depth++) {
    if (current === taskId) throw new ValidationError([{ path: ['input', 'parent'], message: 'would make the task its own ancestor' }]);
    if (depth > 1_000) throw new ValidationError([{ path: ['input', 'parent'], message: 'nests too deep' }]);
    const row: { parentId: string | null } | null = await tx.task.findUnique({ where: { id: current }, select: { parentId: true } });
    if (!row) {
      if (current === parentId) throw new NotFoundError('No task has this id', ['input', 'parent']);
      break;
    }
    current = row.parentId;
  }
}

export interface CreateTaskInput {
  scopeId: string;
  title: string;
  description?: string | null;
  status?: TaskStatus | null;
  parentId?: string | null;
  dependsOn?: readonly string[] | null;
  assignee?: string | null;
  dueAt?: Date | null;
  author: string | null;
}

export async function createTask(deps: WriteDeps, input: CreateTaskInput): Promise<Task> {
  const c = new Checker();
  checkFields(c, input, true);
  checkDependencyList(c, input.dependsOn ?? [], ['input', 'dependsOn']);
  c.done();
  return writeTransaction(deps, async (tx) => {
    await assertWritableScope(tx, input.scopeId, ['input', 'scope']);
    if (input.parentId) await assertParentOk(tx, null, input.parentId);
    const dependsOn = input.dependsOn ?? [];
    if (dependsOn.length > 0) {
      const known = await statusesOf(tx, dependsOn);
      const blocking = dependsOn.filter((id) => known.get(id) !== 'DONE');
      if (input.status === 'DONE' && blocking.length > 0) throw unmet(blocking);
    }
    const status = input.status ?? 'OPEN';
    const task = await tx.task.create({
      data: {
        scopeId: input.scopeId,
        title: input.title.trim(),
        description: input.description ?? null,
        status,
        parentId: input.parentId ?? null,
        assignee: input.assignee ?? null,
        dueAt: input.dueAt ?? null,
        completedAt: status === 'DONE' ? new Date() : null,
        createdBy: input.author,
      },
    });
    if (dependsOn.length > 0) {
      await tx.taskDependency.createMany({ data: dependsOn.map((dependsOnId) => ({ taskId: task.id, dependsOnId })) });
    }
    return task;
  });
}

export interface UpdateTaskInput {
  id: string;
  title?: string | null;
  description?: string | null;
  status?: TaskStatus | null;
  /** Null moves the task to the top level. */
  parentId?: string | null;
  assignee?: string | null;
  dueAt?: Date | null;
}

/**
 * Changes a task. Absent fields stay; null clears description, parent, assignee and due date.
 * Marking it DONE needs every dependency DONE (UnmetDependenciesError otherwise).
 */
export async function updateTask(deps: WriteDeps, input: UpdateTaskInput): Promise<Task> {
  const c = new Checker();
  checkFields(c, input, false);
  if (input.status === null) c.fail(['input', 'status'], 'cannot be cleared');
  c.done();
  return writeTransaction(deps, async (tx) => {
    const task = await taskInWritableScope(tx, input.id, ['input', 'id']);
    if (input.parentId) await assertParentOk(tx, task.id, input.parentId);
    if (input.status === 'DONE') {
      const blocking = await undoneDependencies(tx, deps.provider, task.id);
      if (blocking.length > 0) throw unmet(blocking);
    }
    const data: Prisma.TaskUncheckedUpdateInput = {};
    if (input.title != null) data.title = input.title.trim();
    if (input.description !== undefined) data.description = input.description;
    if (input.parentId !== undefined) data.parentId = input.parentId;
    if (input.assignee !== undefined) data.assignee = input.assignee;
    if (input.dueAt !== undefined) data.dueAt = input.dueAt;
    if (input.status != null && input.status !== task.status) {
      data.status = input.status;
      data.completedAt = input.status === 'DONE' ? new Date() : null;
    }
    return tx.task.update({ where: { id: task.id }, data });
  });
}

/** Makes a task depend on more tasks. A DONE task takes only DONE dependencies; cycles are refused. */
export async function addTaskDependencies(deps: WriteDeps, input: { taskId: string; dependsOn: readonly string[] }): Promise<Task> {
  const c = new Checker();
  checkDependencyList(c, input.dependsOn, ['input', 'dependsOn']);
  if (input.dependsOn.includes(input.taskId)) c.fail(['input', 'dependsOn'], 'a task cannot depend on itself');
  c.done();
  return writeTransaction(deps, async (tx) => {
    const task = await taskInWritableScope(tx, input.taskId, ['input', 'task']);
    const known = await statusesOf(tx, input.dependsOn);
    const existing = new Set(
      (await tx.taskDependency.findMany({ where: { taskId: task.id }, select: { dependsOnId: true } })).map((d) => d.dependsOnId),
    );
    const added = input.dependsOn.filter((id) => !existing.has(id));
    if ((existing.size + added.length) > LIMITS.taskDependencies) {
      throw new ValidationError([{ path: ['input', 'dependsOn'], message: `a task may depend on at most ${LIMITS.taskDependencies} tasks` }]);
    }
    if (task.status === 'DONE') {
      const blocking = added.filter((id) => known.get(id) !== 'DONE');
      if (blocking.length > 0) {
        throw new InvalidStateError('The task is DONE: it can only take dependencies that are done', 'DONE', ['input', 'dependsOn']);
      }
    }
    for (const [i, id] of added.entries()) await assertNoDependencyCycle(tx, task.id, id, ['input', 'dependsOn', String(i)]);
    try {
      if (added.length > 0) await tx.taskDependency.createMany({ data: added.map((dependsOnId) => ({ taskId: task.id, dependsOnId })) });
    } catch (error) {
      // A concurrent call added the same edge: the outcome is the same.
      if (!isUniqueViolation(error)) throw error;
    }
    const { scope: _scope, ...row } = task;
    return row;
  });
}

export async function removeTaskDependencies(deps: WriteDeps, input: { taskId: string; dependsOn: readonly string[] }): Promise<Task> {
  return writeTransaction(deps, async (tx) => {
    const task = await taskInWritableScope(tx, input.taskId, ['input', 'task']);
    await tx.taskDependency.deleteMany({ where: { taskId: task.id, dependsOnId: { in: [...input.dependsOn] } } });
    const { scope: _scope, ...row } = task;
    return row;
  });
}

export interface TaskFilter {
  scopeId?: string | null;
  includeDescendants?: boolean;
  statuses?: readonly TaskStatus[] | null;
  assignee?: string | null;
  parentId?: string | null;
  topLevelOnly?: boolean;
  dueBefore?: Date | null;
  dueAfter?: Date | null;
}

export function taskWhere(filter: TaskFilter): Prisma.TaskWhereInput {
  const where: Prisma.TaskWhereInput = {};
  if (filter.scopeId) where.scope = scopeSubtreeWhere(filter.scopeId, filter.includeDescendants);
  if (filter.statuses?.length) where.status = { in: [...filter.statuses] };
  if (filter.assignee != null) where.assignee = filter.assignee;
  if (filter.parentId != null) where.parentId = filter.parentId;
  else if (filter.topLevelOnly) where.parentId = null;
  if (filter.dueBefore || filter.dueAfter) {
    where.dueAt = { ...(filter.dueBefore ? { lt: filter.dueBefore } : {}), ...(filter.dueAfter ? { gte: filter.dueAfter } : {}) };
  }
  return where;
}
