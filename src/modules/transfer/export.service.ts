import type { Db } from '../../infra/database.ts';
import { chunked } from '../../infra/id-lists.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { jsonColumnsOf } from './columns.ts';
import { rowsOf, TABLES, type ExportFooter, type ExportHeader, type TableName, type TableSpec } from './tables.ts';

/** Rows read per query: the export holds about this many rows in memory at once. */
const PAGE = 1_000;
/** Scope ids per `IN` list (well under SQLite's and PostgreSQL's parameter limits). */
const SCOPE_CHUNK = 1_000;


export interface ExportOptions {
  /** Only this scope and everything under it (with the enclosing scopes, so that it can be placed); default everything. */
  scope?: string | null;
  /** Told after each page, with the rows written so far per table (progress). */
  onProgress?: (counts: Partial<Record<TableName, number>>) => void;
}

/**
 * Writes memory as JSON Lines through `write` (which may wait, e.g. for a file stream to drain):
 * a header, one line per row in TABLES order, a footer with the counts. Rows are read a page at
 * a time in key order, so memory stays flat however large the export.
 */
export async function exportMemory(db: Db, write: (line: string) => Promise<void>, options: ExportOptions = {}): Promise<ExportFooter> {
  const scope = options.scope ?? null;
  // The scopes first: an unknown one (NotFound) writes nothing, not a header alone.
  const chunks = scope ? chunked(await scopeIds(db, scope), SCOPE_CHUNK) : [null];
  const header: ExportHeader = { engram: 'export', format: 1, exportedAt: new Date().toISOString(), scope };
  await write(JSON.stringify(header));
  const counts: Partial<Record<TableName, number>> = {};
  for (const table of TABLES) {
    if (table.name === 'Scope') {
      for await (const rows of scopesInOrder(db, chunks)) for (const row of rows) await emit(table, row);
      continue;
    }
    // Tags are shared by all scopes: once, whatever the chunks.
    for (const ids of table.name === 'Tag' ? [null] : chunks) {
      const where = ids ? table.inScopes(ids) : {};
      for await (const rows of pages(db, table, where)) {
        for (const row of rows) await emit(table, row);
        options.onProgress?.(counts);
      }
    }
  }
  const footer: ExportFooter = { end: true, counts };
  await write(JSON.stringify(footer));
  return footer;

  async function emit(table: TableSpec, row: Record<string, unknown>): Promise<void> {
    counts[table.name] = (counts[table.name] ?? 0) + 1;
    await write(JSON.stringify({ table: table.name, row: plain(row, jsonColumnsOf(table.name)) }));
  }
}

/** A table's rows matching `where`, a page at a time, in key order. */
async function* pages(db: Db, table: TableSpec, where: Record<string, unknown>): AsyncGenerator<Record<string, unknown>[]> {
  const delegate = rowsOf(db, table.name);
  const orderBy = table.key.map((column) => ({ [column]: 'asc' }));
  let after: Record<string, unknown> | null = null;
  for (;;) {
    const rows: Record<string, unknown>[] = await delegate.findMany({ where: after ? { AND: [where, keyAfter(table.key, after)] } : where, orderBy, take: PAGE });
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

/** Rows whose key comes after `row`'s in key order (keyset paging). */
function keyAfter(key: string[], row: Record<string, unknown>): Record<string, unknown> {
  const [first, second] = key as [string, string?];
  if (!second) return { [first]: { gt: row[first] } };
  return { OR: [{ [first]: { gt: row[first] } }, { [first]: row[first], [second]: { gt: row[second] } }] };
}

/**
 * Scopes with every parent before its children: for a subtree (`chunks` of its ids, root first,
 * level by level) the enclosing scopes outermost first, then the subtree in that order; for
 * everything, global, then its children, then theirs.
 */
async function* scopesInOrder(db: Db, chunks: (string[] | null)[]): AsyncGenerator<Record<string, unknown>[]> {
  const [first] = chunks;
  if (first) {
    yield await ancestors(db, first[0]!);
    for (const ids of chunks as string[][]) {
      const rows = await db.scope.findMany({ where: { id: { in: ids } } });
      const at = new Map(ids.map((id, i) => [id, i]));
      yield rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
    }
    return;
  }
  let parents: string[] | null = null;
  while (!parents || parents.length) {
    const next: string[] = [];
    for (const chunk of parents ? chunked(parents, SCOPE_CHUNK) : [null]) {
      const rows = await db.scope.findMany({ where: { parentId: chunk ? { in: chunk } : null }, orderBy: { id: 'asc' } });
      yield rows;
      next.push(...rows.map((r) => r.id));
    }
    parents = next;
  }
}

/** `root` and every scope under it, level by level. */
export async function scopeIds(db: Db, root: string): Promise<string[]> {
  const found = await db.scope.findUnique({ where: { id: root }, select: { id: true } });
  if (!found) throw new NotFoundError(`No scope ${root}`, ['scope']);
  const ids = [root];
  for (let frontier = [root]; frontier.length; ) {
    const children = [];
    for (const chunk of chunked(frontier, SCOPE_CHUNK)) {
      children.push(...(await db.scope.findMany({ where: { parentId: { in: chunk } }, select: { id: true } })).map((s) => s.id));
    }
    ids.push(...children);
    frontier = children;
  }
  return ids;
}

/** The scopes enclosing `id`, outermost (global) first. */
async function ancestors(db: Db, id: string): Promise<Record<string, unknown>[]> {
  const chain: Record<string, unknown>[] = [];
  let parentId = (await db.scope.findUnique({ where: { id } }))?.parentId ?? null;
  while (parentId) {
    const parent = await db.scope.findUnique({ where: { id: parentId } });
    if (!parent) break;
    chain.unshift(parent);
    parentId = parent.parentId;
  }
  return chain;
}

/** A row as JSON: instants as ISO strings (JSON.stringify does it), JSON columns as their value. */
function plain(row: Record<string, unknown>, json: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (json.has(column) && value === null) continue;
    out[column] = value;
  }
  return out;
}
