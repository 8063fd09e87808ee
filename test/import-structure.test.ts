// An import keeps the tree rules the API keeps (src/modules/transfer/structure.ts): a scope goes
// under a parent of a kind its own may have, already there; no task is its own ancestor; no task
// depends on itself or, through others, on a task that depends on it. Files that said otherwise
// left a task that could never be finished or deleted, and scope chains naming a scope twice.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { importMemory, type ImportReport } from '../src/modules/transfer/import.service.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();
const at = '2026-12-01T00:00:00.000Z';

const scope = (id: string, kind: string, parentId: string | null, extra: Record<string, unknown> = {}) => ({
  table: 'Scope',
  row: {
    id, kind, parentId, name: id, description: null, rootPath: null, purpose: null, agentId: null, status: null, mode: null, userId: null, appName: null,
    secretPolicy: null, autoPromote: false, eventCount: 0, turn: 1, startedAt: null, endedAt: null, archivedAt: null, createdAt: at, updatedAt: at, ...extra,
  },
});
const session = (id: string, parentId: string) => scope(id, 'SESSION', parentId, { status: 'ACTIVE', mode: 'WORKING_PERIOD', startedAt: at });
const task = (id: string, scopeId: string, parentId: string | null) => ({
  table: 'Task',
  row: { id, scopeId, title: id, description: null, status: 'OPEN', parentId, assignee: null, dueAt: null, completedAt: null, createdAt: at, createdBy: null, updatedAt: at },
});
const dependency = (taskId: string, dependsOnId: string) => ({ table: 'TaskDependency', row: { taskId, dependsOnId, createdAt: at } });

/** Imports an export of `rows` (with its header and footer), in this process. */
async function importRows(rows: { table: string; row: Record<string, unknown> }[]): Promise<ImportReport> {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.table] = (counts[r.table] ?? 0) + 1;
  const lines = [{ engram: 'export', format: 1, exportedAt: at, scope: null }, ...rows, { end: true, counts }].map((l) => JSON.stringify(l));
  return importMemory(h.database, (async function* () {
    yield* lines;
  })());
}

const refusedOf = (report: ImportReport, table: string) => Object.fromEntries(report.refusals.filter((r) => r.table === table).map((r) => [r.key, r.reason]));

describe('import keeps the tree rules', () => {
  it('a scope goes under a parent of an allowed kind that came before it; no scope is its own ancestor', async () => {
    const report = await importRows([
      scope('st-org', 'ORGANIZATION', 'global'),
      scope('st-project', 'PROJECT', 'st-org'),
      session('st-session-under-global', 'global'),
      scope('st-project-under-session', 'PROJECT', 'st-session'),
      session('st-session', 'st-project'),
      scope('st-org-under-project', 'ORGANIZATION', 'st-project'),
      scope('st-own-parent', 'PROJECT', 'st-own-parent'),
      scope('st-second-global', 'GLOBAL', null),
    ]);
    expect(refusedOf(report, 'Scope')).toEqual({
      'st-session-under-global': 'A session cannot be placed under a global scope (allowed: project)',
      'st-project-under-session': 'parentId refers to a Scope that is not here (st-session)',
      'st-org-under-project': 'An organization cannot be placed under a project scope (allowed: global)',
      'st-own-parent': 'parentId refers to a Scope that is not here (st-own-parent)',
      'st-second-global': 'only the global scope is global, and it has no parent',
    });
    const stored = await h.database.prisma.scope.findMany({ where: { id: { startsWith: 'st-' } }, select: { id: true }, orderBy: { id: 'asc' } });
    expect(stored.map((s) => s.id)).toEqual(['st-org', 'st-project', 'st-session']);
    expect(report.created.Scope).toBe(3);
  });

  it('no task is its own ancestor: the parent that would close a cycle is left out, its task kept at the top level', async () => {
    const project = decodeGlobalID(await createProject(h, 'import-tree-tasks')).id;
    const report = await importRows([task('tt-a', project, 'tt-b'), task('tt-b', project, 'tt-a'), task('tt-c', project, 'tt-c'), task('tt-d', project, 'tt-a')]);
    expect(refusedOf(report, 'Task')).toEqual({
      'tt-b': 'parentId tt-a: it would make the task its own ancestor; imported without it',
      'tt-c': 'parentId tt-c: it would make the task its own ancestor; imported without it',
    });
    const parents = await h.database.prisma.task.findMany({ where: { id: { startsWith: 'tt-' } }, select: { id: true, parentId: true }, orderBy: { id: 'asc' } });
    expect(parents).toEqual([
      { id: 'tt-a', parentId: 'tt-b' },
      { id: 'tt-b', parentId: null },
      { id: 'tt-c', parentId: null },
      { id: 'tt-d', parentId: 'tt-a' },
    ]);
  });

  it('no task depends on itself or on a cycle of dependencies, within the file or with those stored', async () => {
    const project = decodeGlobalID(await createProject(h, 'import-tree-deps')).id;
    const report = await importRows([
      ...['td-e', 'td-f', 'td-g', 'td-h', 'td-i', 'td-j', 'td-k'].map((id) => task(id, project, null)),
      dependency('td-e', 'td-f'),
      dependency('td-f', 'td-e'),
      dependency('td-g', 'td-g'),
      dependency('td-h', 'td-e'),
      dependency('td-i', 'td-j'),
      dependency('td-j', 'td-k'),
      dependency('td-k', 'td-i'),
      dependency('td-k', 'td-h'),
    ]);
    const cycle = 'it would make the tasks depend on each other in a cycle';
    expect(refusedOf(report, 'TaskDependency')).toEqual({
      'td-e/td-f': cycle,
      'td-f/td-e': cycle,
      'td-g/td-g': 'a task cannot depend on itself',
      'td-i/td-j': cycle,
      'td-j/td-k': cycle,
      'td-k/td-i': cycle,
    });
    expect(report.created.TaskDependency).toBe(2);
    // Against what is stored: e -> h would close h -> e.
    const again = await importRows([dependency('td-e', 'td-h'), dependency('td-g', 'td-e')]);
    expect(refusedOf(again, 'TaskDependency')).toEqual({ 'td-e/td-h': cycle });
    const stored = await h.database.prisma.taskDependency.findMany({ where: { taskId: { startsWith: 'td-' } }, select: { taskId: true, dependsOnId: true }, orderBy: { taskId: 'asc' } });
    expect(stored).toEqual([
      { taskId: 'td-g', dependsOnId: 'td-e' },
      { taskId: 'td-h', dependsOnId: 'td-e' },
      { taskId: 'td-k', dependsOnId: 'td-h' },
    ]);
  });
});
