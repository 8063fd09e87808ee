import { ValidationError } from '../../domain/errors.ts';
import { settleAfterBulkLoad, type Db, type Provider } from '../../infra/database.ts';
import { jsonSql } from '../../infra/sql.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { indexSql, searchBody } from '../search/search-index.ts';
import { isInstant, JSON_COLUMNS, rowsOf, TABLE, TABLES, type ExportFooter, type TableName, type TableSpec } from './tables.ts';

/** Rows written per statement. */
const BATCH = 500;
/** Refusals listed in the report (all are counted). */
const LISTED_REFUSALS = 200;

/** Columns kept in step by the database itself (triggers): left out, the import writes them afresh. */
const DERIVED: Partial<Record<TableName, string[]>> = {
  Entry: ['nameShared'],
  EntryTag: ['scopeId', 'kind', 'active', 'name', 'validUntil', 'updatedAt', 'priority', 'nameShared'],
};

/** `later` columns and the table whose rows they refer to: written once that table is complete. */
const LATER_TARGET: Record<string, TableName> = { currentVersionId: 'EntryVersion', parentId: 'Task' };

export interface Refusal {
  table: TableName;
  key: string;
  reason: string;
}

export interface ImportReport {
  created: Partial<Record<TableName, number>>;
  skipped: Partial<Record<TableName, number>>;
  refused: Partial<Record<TableName, number>>;
  /** The first LISTED_REFUSALS refusals, with why. */
  refusals: Refusal[];
  /** The file ended with its footer and held the rows the footer counts. */
  complete: boolean;
}

type Row = Record<string, unknown>;
/** A deferred column of a row, written once the row it refers to is in. */
type Fixup = { id: string; column: string; value: unknown };

/**
 * The columns each table has (Prisma's own list): the INSERT names the file's columns, so a file
 * naming any other is refused before anything of its row is written.
 */
const COLUMNS = Object.fromEntries(
  TABLES.map((t) => [t.name, new Set(Object.values((Prisma as unknown as Record<string, Record<string, string>>)[`${t.name}ScalarFieldEnum`]!))]),
) as Record<TableName, Set<string>>;

/**
 * Imports an export (exportMemory's JSON Lines). Rows keep their ids: a row whose key exists is
 * skipped, so importing a file again changes nothing. A row is refused (and reported) when it
 * refers to a row that is neither here nor earlier in the file, or would repeat a unique name
 * under another id. Each batch is one transaction; what a batch wrote stays if a later one fails.
 */
export async function importMemory(database: { prisma: Db; provider: Provider }, lines: AsyncIterable<string>, onProgress?: (report: ImportReport) => void): Promise<ImportReport> {
  const { prisma: db, provider } = database;
  const report: ImportReport = { created: {}, skipped: {}, refused: {}, refusals: [], complete: false };
  const fixups = new Map<TableName, Fixup[]>();
  const seen: Partial<Record<TableName, number>> = {};
  let footer: ExportFooter | null = null;
  let current = -1;
  let batch: Row[] = [];
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber++;
    if (!raw.trim()) continue;
    const record = parseLine(raw, lineNumber);
    if (current === -1) {
      checkHeader(record, lineNumber);
      current = 0;
      continue;
    }
    if (footer) throw invalid(lineNumber, 'nothing may follow the end line');
    if ('end' in record) {
      footer = record as unknown as ExportFooter;
      continue;
    }
    const index = TABLES.findIndex((t) => t.name === record.table);
    if (index < 0 || typeof record.row !== 'object' || record.row === null) throw invalid(lineNumber, 'expected {"table": <a table of the export>, "row": {...}}');
    if (index < current) throw invalid(lineNumber, `${String(record.table)} rows must come before ${TABLES[current]!.name} rows`);
    const unknown = Object.keys(record.row).find((column) => !COLUMNS[TABLES[index]!.name].has(column));
    if (unknown !== undefined) throw invalid(lineNumber, `${TABLES[index]!.name} has no column ${JSON.stringify(unknown.slice(0, 100))}`);
    if (index > current || batch.length === BATCH) {
      await flush(db, provider, TABLES[current]!, batch, report, fixups);
      batch = [];
      if (index > current) await completeTables(db, TABLES.slice(0, index), fixups);
      current = index;
      onProgress?.(report);
    }
    seen[TABLES[index]!.name] = (seen[TABLES[index]!.name] ?? 0) + 1;
    batch.push(record.row as Row);
  }
  if (current === -1) throw invalid(1, 'the file is empty');
  await flush(db, provider, TABLES[current]!, batch, report, fixups);
  await completeTables(db, TABLES, fixups);
  await settleAfterBulkLoad(db, provider, Object.keys(report.created));
  const counted = footer?.counts;
  report.complete = counted !== undefined && TABLES.every((t) => (counted[t.name] ?? 0) === (seen[t.name] ?? 0));
  return report;
}

function parseLine(raw: string, lineNumber: number): Row {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Row;
  } catch {
    // Reported below.
  }
  throw invalid(lineNumber, 'not a JSON object');
}

function checkHeader(record: Row, lineNumber: number): void {
  if (record.engram !== 'export' || record.format !== 1) throw invalid(lineNumber, 'not an Engram export (format 1): the first line must be its header');
}

const invalid = (line: number, message: string) => new ValidationError([{ path: ['file', `line ${line}`], message }]);

/** Writes one table's batch: decodes, leaves out existing and refused rows, inserts the rest. */
async function flush(
  db: Db,
  provider: Provider,
  table: TableSpec,
  rows: Row[],
  report: ImportReport,
  fixups: Map<TableName, Fixup[]>,
): Promise<void> {
  if (!rows.length) return;
  const decoded = rows.map((row) => decode(table, row));
  const existing = await existingKeys(db, table, decoded);
  const fresh = decoded.filter((row) => !existing.has(keyOf(table, row)));
  count(report.skipped, table.name, decoded.length - fresh.length);
  const accepted = await withoutRefused(db, table, fresh, report);
  if (!accepted.length) return;
  const later = table.later ?? [];
  const data = accepted.map((row) => {
    const copy = { ...row };
    for (const column of later) {
      if (copy[column] !== null && copy[column] !== undefined) {
        const list = fixups.get(table.name) ?? [];
        list.push({ id: row.id as string, column, value: copy[column] });
        fixups.set(table.name, list);
      }
      delete copy[column];
    }
    return copy;
  });
  await db.$executeRaw(insertSql(provider, table.name, data));
  count(report.created, table.name, data.length);
}

/**
 * One multi-row INSERT of a batch: Prisma's `createMany` spent most of an import's time in its
 * query compiler and argument handling (profiled: 20K entries into SQLite). A column some rows
 * lack (a JSON null left out) is NULL in them.
 */
function insertSql(provider: Provider, table: TableName, rows: Row[]): Prisma.Sql {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const names = Prisma.raw(columns.map((c) => `"${c}"`).join(', '));
  const values = rows.map((row) =>
    Prisma.sql`(${Prisma.join(columns.map((c) => (JSON_COLUMNS.has(c) ? jsonSql(provider, row[c]) : Prisma.sql`${row[c] ?? null}`)))})`,
  );
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} (${names}) VALUES ${Prisma.join(values)}`;
}

/** A file row as Prisma takes it: instants as Dates, derived columns left out, JSON nulls as no value. */
function decode(table: TableSpec, row: Row): Row {
  const out: Row = {};
  const derived = DERIVED[table.name] ?? [];
  for (const [column, value] of Object.entries(row)) {
    if (derived.includes(column)) continue;
    if (JSON_COLUMNS.has(column) && value === null) continue;
    out[column] = isInstant(column) && typeof value === 'string' ? new Date(value) : value;
  }
  return out;
}

const keyOf = (table: TableSpec, row: Row) => table.key.map((column) => String(row[column])).join('\u0000');

function count(counts: Partial<Record<TableName, number>>, table: TableName, n: number): void {
  if (n > 0) counts[table] = (counts[table] ?? 0) + n;
}

/**
 * Rows whose `columns` each hold one of the batch's values: a superset of the batch's tuples that
 * the table's index serves (an OR of 500 tuples took PostgreSQL ~1.5 s a batch at 90K entries: it
 * scanned). Callers match the exact tuples.
 */
function withinBatch(columns: string[], rows: Row[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((c) => [c, { in: [...new Set(rows.map((r) => r[c]))] }]));
}

/** Keys of `rows` that are already in the database. */
async function existingKeys(db: Db, table: TableSpec, rows: Row[]): Promise<Set<string>> {
  const found = await rowsOf(db, table.name).findMany({ where: withinBatch(table.key, rows), select: Object.fromEntries(table.key.map((c) => [c, true])) });
  return new Set(found.map((row) => keyOf(table, row)));
}

/** `rows` less those that refer to rows that are not there or repeat a unique name; refusals go to the report. */
async function withoutRefused(db: Db, table: TableSpec, rows: Row[], report: ImportReport): Promise<Row[]> {
  const reasons = new Map<Row, string>();
  await checkReferences(db, table, rows, reasons);
  await checkUniqueNames(db, table, rows, reasons);
  for (const [row, reason] of reasons) {
    count(report.refused, table.name, 1);
    if (report.refusals.length < LISTED_REFUSALS) report.refusals.push({ table: table.name, key: keyOf(table, row).replaceAll('\u0000', '/'), reason });
  }
  return rows.filter((row) => !reasons.has(row));
}

async function checkReferences(db: Db, table: TableSpec, rows: Row[], reasons: Map<Row, string>): Promise<void> {
  for (const [column, target] of Object.entries(table.refs ?? {})) {
    if (table.later?.includes(column)) continue;
    const wanted = [...new Set(rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string'))];
    if (!wanted.length) continue;
    const present = new Set((await rowsOf(db, target).findMany({ where: { id: { in: wanted } }, select: { id: true } })).map((r) => r.id as string));
    // Rows of this batch may refer to earlier ones of it (a scope's parent): one statement writes them in order.
    if (target === table.name) rows.forEach((r) => present.add(r.id as string));
    for (const row of rows) {
      const value = row[column];
      if (typeof value === 'string' && !present.has(value) && !reasons.has(row)) reasons.set(row, `${column} refers to a ${target} that is not here (${value})`);
    }
  }
}

async function checkUniqueNames(db: Db, table: TableSpec, rows: Row[], reasons: Map<Row, string>): Promise<void> {
  for (const columns of table.unique ?? []) {
    const complete = rows.filter((r) => !reasons.has(r) && columns.every((c) => r[c] !== null && r[c] !== undefined));
    if (!complete.length) continue;
    const tuple = (r: Row) => columns.map((c) => String(r[c])).join('\u0000');
    const found = await rowsOf(db, table.name).findMany({ where: withinBatch(columns, complete), select: Object.fromEntries([...columns, ...table.key].map((c) => [c, true])) });
    const taken = new Map(found.map((r) => [tuple(r), keyOf(table, r)]));
    for (const row of complete) {
      const owner = taken.get(tuple(row));
      if (owner !== undefined && owner !== keyOf(table, row)) reasons.set(row, `another ${table.name} already has its ${columns.join(', ')}`);
      else taken.set(tuple(row), keyOf(table, row));
    }
  }
}

/** Writes the deferred columns of `tables` (their targets are complete now), and indexes imported entries for search. */
async function completeTables(db: Db, tables: readonly TableSpec[], fixups: Map<TableName, Fixup[]>): Promise<void> {
  const done = new Set(tables.map((t) => t.name));
  for (const [name, list] of fixups) {
    const ready: Fixup[] = [];
    const waiting: Fixup[] = [];
    for (const f of list) (done.has(LATER_TARGET[f.column]!) ? ready : waiting).push(f);
    if (!ready.length) continue;
    fixups.set(name, waiting);
    for (let i = 0; i < ready.length; i += BATCH) await writeLater(db, TABLE[name], ready.slice(i, i + BATCH));
  }
}

async function writeLater(db: Db, table: TableSpec, fixups: Fixup[]): Promise<void> {
  const column = fixups[0]!.column;
  const cases = Prisma.join(fixups.map((f) => Prisma.sql`WHEN ${f.id} THEN ${f.value}`), ' ');
  const ids = Prisma.join(fixups.map((f) => f.id));
  await db.$transaction(async (tx) => {
    // The referenced row may have been refused: such a column stays empty (the reference would fail).
    await tx.$executeRaw`UPDATE ${Prisma.raw(`"${table.name}"`)} SET ${Prisma.raw(`"${column}"`)} = CASE "id" ${cases} END
      WHERE "id" IN (${ids}) AND EXISTS (SELECT 1 FROM ${Prisma.raw(`"${LATER_TARGET[column]}"`)} t WHERE t."id" = CASE ${Prisma.raw(`"${table.name}"`)}."id" ${cases} END)`;
    if (column === 'currentVersionId') await indexEntries(tx as unknown as Db, fixups.map((f) => f.id));
  });
}

/** The search text of imported entries (the index follows in the same transaction). */
async function indexEntries(db: Db, ids: string[]): Promise<void> {
  const entries = await db.entry.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, currentVersion: true } });
  const docs = entries.filter((e) => e.currentVersion).map((e) => ({ entryId: e.id, name: e.name, body: searchBody(e.currentVersion!) }));
  if (docs.length) await db.$executeRaw(indexSql(docs));
}
