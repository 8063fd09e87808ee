// The tree rules the API keeps, kept for imported rows too: a scope goes under a parent of a kind
// its own may have, one that is already there (so no scope is its own ancestor); no task is its own
// ancestor; no task depends on itself, or through others on a task that depends on it. A file can
// say otherwise (made by hand, or damaged): such rows left a task that could never be finished or
// deleted, and scope chains that named one scope several times.
import { Prisma } from '../../generated/sqlite/client.ts';
import type { Db, Provider } from '../../infra/database.ts';
import { placementProblem, type ScopeKind } from '../scopes/scopes.service.ts';

type Row = Record<string, unknown>;

/** How deep a task's parents may go (as the API's updateTask and createTask). */
const MAX_TASK_DEPTH = 1_000;

/**
 * Refusals (into `reasons`) of Scope rows whose parent may not hold them: a kind the API would not
 * place there, or a parent that is neither here nor accepted earlier in the batch. Rows are
 * checked in order, so a parent must come before its children, as in an export.
 */
export async function checkScopePlacement(db: Db, rows: Row[], reasons: Map<Row, string>): Promise<void> {
  const parents = [...new Set(rows.map((r) => r.parentId).filter((id): id is string => typeof id === 'string'))];
  const kinds = new Map((await db.scope.findMany({ where: { id: { in: parents } }, select: { id: true, kind: true } })).map((s) => [s.id, s.kind]));
  for (const row of rows) {
    if (reasons.has(row)) continue;
    const parentKind = typeof row.parentId === 'string' ? kinds.get(row.parentId) : undefined;
    const problem =
      row.kind === 'GLOBAL' || parentKind !== undefined
        ? placementProblem(row.kind as ScopeKind, parentKind ?? '')
        : `it has no parent scope here (${String(row.parentId)}): a parent comes before its children`;
    if (problem) reasons.set(row, problem);
    else kinds.set(row.id as string, row.kind as string);
  }
}

/** A deferred parent of an imported task. */
interface ParentLink {
  id: string;
  value: unknown;
}

/**
 * Of `links` (tasks' parents, written once every task is in), those that keep the tasks a tree, in
 * order: a link that would make a task its own ancestor, or nest it deeper than the API allows,
 * goes to `refused` and its task stays at the top level. Walks up through the links taken so far
 * and the parents already stored (read once each).
 */
export async function treeParents<L extends ParentLink>(db: Db, links: L[], refused: (link: L, reason: string) => void): Promise<L[]> {
  const parentOf = new Map<string, string | null>();
  const targets = [...new Set(links.map((l) => String(l.value)))];
  for (const t of await db.task.findMany({ where: { id: { in: targets } }, select: { id: true, parentId: true } })) parentOf.set(t.id, t.parentId);
  const parent = async (id: string): Promise<string | null> => {
    if (!parentOf.has(id)) parentOf.set(id, (await db.task.findUnique({ where: { id }, select: { parentId: true } }))?.parentId ?? null);
    return parentOf.get(id)!;
  };
  const kept: L[] = [];
  for (const link of links) {
    const problem = await ancestryProblem(link.id, String(link.value), parent);
    if (problem) refused(link, problem);
    else {
      kept.push(link);
      parentOf.set(link.id, String(link.value));
    }
  }
  return kept;
}

/** Why `id` cannot have `parentId` as its parent, walking up with `parent` (null: it can). */
async function ancestryProblem(id: string, parentId: string, parent: (id: string) => Promise<string | null>): Promise<string | null> {
  let current: string | null = parentId;
  for (let depth = 0; current !== null; depth++) {
    if (current === id) return 'it would make the task its own ancestor';
    if (depth > MAX_TASK_DEPTH) return 'it nests too deep';
    current = await parent(current);
  }
  return null;
}

/** Refusals of TaskDependency rows that would have a task depend on itself (cycles: see cyclicDependencies). */
export function checkSelfDependencies(rows: Row[], reasons: Map<Row, string>): void {
  for (const row of rows) if (!reasons.has(row) && row.taskId === row.dependsOnId) reasons.set(row, 'a task cannot depend on itself');
}

/** A dependency: `taskId` cannot be done before `dependsOnId`. */
export interface Dependency {
  taskId: string;
  dependsOnId: string;
}

/**
 * Of `imported` (dependencies an import wrote), those on a cycle of the stored dependencies: the
 * ones whose task is in the same strongly connected component as the task it depends on. Reads
 * the dependencies reachable from theirs (one statement), then finds the components in time
 * linear in them: a check per row, as the API makes, took 27 s for a chain of 5,000 on SQLite.
 */
export async function cyclicDependencies(db: Db, provider: Provider, imported: readonly Dependency[]): Promise<Dependency[]> {
  if (!imported.length) return [];
  const starts = JSON.stringify([...new Set(imported.map((d) => d.dependsOnId))]);
  const startRows = provider === 'sqlite' ? Prisma.sql`SELECT value FROM json_each(${starts})` : Prisma.sql`SELECT jsonb_array_elements_text(CAST(${starts} AS jsonb))`;
  const edges = await db.$queryRaw<Dependency[]>`
    WITH RECURSIVE reach(id) AS (${startRows} UNION SELECT d."dependsOnId" FROM reach r JOIN "TaskDependency" d ON d."taskId" = r.id)
    SELECT d."taskId" AS "taskId", d."dependsOnId" AS "dependsOnId" FROM "TaskDependency" d WHERE d."taskId" IN (SELECT id FROM reach)`;
  const out = new Map<string, string[]>();
  for (const e of edges) out.set(e.taskId, [...(out.get(e.taskId) ?? []), e.dependsOnId]);
  const component = components(out);
  return imported.filter((d) => component.has(d.taskId) && component.get(d.taskId) === component.get(d.dependsOnId));
}

/**
 * Each node's strongly connected component (a number), by Tarjan's algorithm, iteratively (a chain
 * of 100,000 dependencies would overflow the stack recursively).
 */
function components(out: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const component = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let visited = 0;
  let found = 0;
  const visit = (v: string) => {
    index.set(v, visited);
    low.set(v, visited++);
    stack.push(v);
    onStack.add(v);
  };
  for (const root of out.keys()) {
    if (index.has(root)) continue;
    visit(root);
    // Each frame: a node and how many of its successors were looked at.
    const frames: Array<[string, number]> = [[root, 0]];
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const [v, i] = frame;
      const next = out.get(v)?.[i];
      if (next !== undefined) {
        frame[1] = i + 1;
        if (!index.has(next)) {
          visit(next);
          frames.push([next, 0]);
        } else if (onStack.has(next)) low.set(v, Math.min(low.get(v)!, index.get(next)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(v)!));
      if (low.get(v) !== index.get(v)) continue;
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
        onStack.delete(w);
        component.set(w, found);
      }
      found++;
    }
  }
  return component;
}
