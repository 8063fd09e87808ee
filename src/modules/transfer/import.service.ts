import { nextUnlessAborted } from '../../infra/next-unless-aborted.ts';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ValidationError } from '../../domain/errors.ts';
import { MAX_REQUEST_BODY_BYTES } from '../../domain/limits.ts';
import { settleAfterBulkLoad, type Db, type Provider } from '../../infra/database.ts';
import { jsonSql } from '../../infra/sql.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { indexSql, searchBody } from '../search/search-index.ts';
import { columnsOf, jsonColumnsOf, problemOf } from './columns.ts';
import { checkScopePlacement, checkSelfDependencies, cyclicDependencies, treeParents, type Dependency } from './structure.ts';
import { rowsOf, TABLE, TABLES, type ExportFooter, type TableName, type TableSpec } from './tables.ts';

/** Rows written per statement. */
const BATCH = 500;
/** Refusals listed in the report (all are counted). */
const LISTED_REFUSALS = 200;
/** The longest line linesOf reads, in bytes: no row the API writes comes near it (its longest values are LIMITS.content characters). */
export const MAX_LINE_BYTES = MAX_REQUEST_BODY_BYTES;

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
  /** Rows refused, and tasks imported without a parent that would have made them their own ancestor (also created). */
  refused: Partial<Record<TableName, number>>;
  /** The first LISTED_REFUSALS refusals, with why. */
  refusals: Refusal[];
  /** The file ended with its footer and held the rows the footer counts. */
  complete: boolean;
  /** The line the import stopped at, not valid (`message` says why): the rows before it were imported. */
  stopped: { line: number; message: string } | null;
  /** Stopped when asked to (`signal`): the rows read before were imported, as from a file cut off there. */
  interrupted: boolean;
}

type Row = Record<string, unknown>;
/** A deferred column of a row, written once the row it refers to is in. */
type Fixup = { id: string; column: string; value: unknown };
/** What an import keeps between batches: deferred columns, and the entries it created (each must end with a current version). */
interface Pending {
  fixups: Map<TableName, Fixup[]>;
  entries: string[];
  /** The task dependencies it wrote, checked for cycles once the table is complete. */
  dependencies: Dependency[];
}
/** A line of the file after its header: a row of a table (`index` in TABLES), decoded; the footer; or the last line, cut off. */
type Line = { kind: 'row'; index: number; row: Row } | { kind: 'footer'; footer: ExportFooter } | { kind: 'cut' };

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
 * refers to a row that is neither here nor earlier in the file, would repeat a unique name under
 * another id, or would break the API's tree rules (structure.ts). Each batch is one transaction; what a batch wrote stays if a later one fails.
 *
 * Every value is checked as it is read, against the schema's types and the API's rules, so no row
 * the API could not have written gets in. A line that is not valid ends the import as a cut-off file
 * does: what came before it is imported (and reported, with `stopped`), nothing from it on. A last
 * line that is not whole (the file cut mid-line) is the cut-off itself. When `signal` aborts, the
 * import stops reading and finishes as at a cut-off (`interrupted`).
 *
 * An entry here without a current version (an import interrupted before its versions' turn left
 * it so) is completed: from the file's row for it, else from its newest version.
 */
export async function importMemory(
  database: { prisma: Db; provider: Provider },
  lines: AsyncIterable<string>,
  onProgress?: (report: ImportReport) => void,
  signal?: AbortSignal,
): Promise<ImportReport> {
  const { prisma: db, provider } = database;
  const report: ImportReport = { created: {}, skipped: {}, refused: {}, refusals: [], complete: false, stopped: null, interrupted: false };
  const pending: Pending = { fixups: new Map(), entries: [], dependencies: [] };
  const seen: Partial<Record<TableName, number>> = {};
  let footer: ExportFooter | null = null;
  let current = -1;
  let batch: Row[] = [];
  let lineNumber = 0;
  try {
    // Asked to stop (the CLI's SIGINT), it reads no further line: what was read is finished below as
    // at a cut-off, so that no entry this import wrote is left without its current version.
    for await (const [raw, last] of withLast(untilAborted(lines, signal, report))) {
      lineNumber++;
      if (!raw.trim()) continue;
      if (current === -1) {
        // Not an export at all: refused whole, before anything is written.
        checkHeader(parseLine(raw, lineNumber), lineNumber);
        current = 0;
        continue;
      }
      const line = readOrStop(raw, lineNumber, last, current, footer !== null, report);
      if (!line || line.kind === 'cut') break;
      if (line.kind === 'footer') {
        footer = line.footer;
        continue;
      }
      if (line.index > current || batch.length === BATCH) {
        await flush(db, provider, TABLES[current]!, batch, report, pending);
        batch = [];
        if (line.index > current) await completeTables(database, TABLES.slice(0, line.index), pending, report);
        current = line.index;
        onProgress?.(report);
      }
      seen[TABLES[line.index]!.name] = (seen[TABLES[line.index]!.name] ?? 0) + 1;
      batch.push(line.row);
    }
  } catch (error) {
    // The line after the last one read is too long to read: the import stops there as at a line
    // that is not valid (the header: refused whole).
    if (!(error instanceof LineTooLong)) throw error;
    const tooLong = invalid(lineNumber + 1, error.message);
    if (current === -1) throw tooLong;
    report.stopped = { line: lineNumber + 1, message: tooLong.message };
  }
  if (current === -1) {
    if (report.interrupted) return report;
    throw invalid(1, 'the file is empty');
  }
  await flush(db, provider, TABLES[current]!, batch, report, pending);
  await completeTables(database, TABLES, pending, report);
  await repairEntriesWithoutVersion(db);
  await settleAfterBulkLoad(db, provider, Object.keys(report.created));
  const counted = footer?.counts;
  report.complete = !report.stopped && !report.interrupted && counted !== undefined && TABLES.every((t) => (counted[t.name] ?? 0) === (seen[t.name] ?? 0));
  return report;
}

/**
 * Each line with whether it is the last one (a last line that is not whole is a cut-off, not a
 * mistake). When reading the next line fails (LineTooLong), the line before it is yielded first.
 */
async function* withLast(lines: AsyncIterable<string>): AsyncGenerator<[string, boolean]> {
  let previous: string | undefined;
  try {
    for await (const line of lines) {
      if (previous !== undefined) yield [previous, false];
      previous = line;
    }
  } catch (error) {
    if (previous !== undefined) yield [previous, false];
    throw error;
  }
  if (previous !== undefined) yield [previous, true];
}

/**
 * `lines` until `signal` aborts (then `report.interrupted`): the line being waited for is not
 * waited for (stdin may send none for a long time).
 */
async function* untilAborted(lines: AsyncIterable<string>, signal: AbortSignal | undefined, report: ImportReport): AsyncGenerator<string> {
  if (!signal) {
    yield* lines;
    return;
  }
  const iterator = lines[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await nextUnlessAborted(iterator, signal);
      if (next === 'aborted') {
        report.interrupted = true;
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a generator's return waits for the next() still pending.
    void iterator.return?.();
  }
}

/** What linesOf throws after the lines before one longer than MAX_LINE_BYTES. */
class LineTooLong extends Error {}

/**
 * What linesOf throws after the lines before one that is not UTF-8. A LineTooLong too, so that
 * importMemory stops at it the same way: a line it will not read.
 */
class NotUtf8 extends LineTooLong {}

/**
 * The lines of `input` for importMemory: readline's, but a line longer than `max` bytes ends them
 * (LineTooLong) before it is read, and so does a line that is not UTF-8 (NotUtf8). readline
 * gathers a line whole: at V8's string limit (~512 MB) it died with a stack trace; and it decodes
 * bytes that are not UTF-8 as U+FFFD, which was imported as the text. A byte order mark at the
 * start of the file is left out (editors on Windows write one).
 */
export function linesOf(input: AsyncIterable<Buffer>, max: number = MAX_LINE_BYTES): AsyncIterable<string> {
  return createInterface({ input: Readable.from(bounded(withoutBom(input), max), { objectMode: false }), crlfDelay: Infinity });
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** `input` without a UTF-8 byte order mark at its very start (looked for in its first chunk: a file's or a pipe's holds more than 3 bytes). */
async function* withoutBom(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of input) {
    yield first && chunk.subarray(0, 3).equals(BOM) ? chunk.subarray(3) : chunk;
    first = false;
  }
}

/**
 * `input` up to the start of a line longer than `max` bytes (then LineTooLong), or of a line that
 * is not UTF-8 (then NotUtf8). Lines end at \n or \r, as readline's do. No byte of a UTF-8
 * character is \n or \r, so each line is checked as its bytes come, a character cut between
 * chunks included (the decoder is streaming).
 */
async function* bounded(input: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  let length = 0; // of the line being read, so far
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of input) {
    // The next \n and \r at or after `start` (chunk.length: none), each searched for again only once passed.
    let lf = -1;
    let cr = -1;
    for (let start = 0; ; ) {
      if (lf < start) lf = found(chunk.indexOf(0x0a, start), chunk);
      if (cr < start) cr = found(chunk.indexOf(0x0d, start), chunk);
      const end = Math.min(lf, cr);
      length += end - start;
      if (length > max) {
        yield chunk.subarray(0, start);
        throw new LineTooLong(`longer than ${max} bytes, the most an import reads in a line`);
      }
      if (!decodes(utf8, chunk.subarray(start, end + 1))) {
        yield chunk.subarray(0, start);
        throw new NotUtf8('not valid UTF-8');
      }
      if (end === chunk.length) break;
      length = 0;
      start = end + 1;
    }
    yield chunk;
  }
  // The last line ends in the middle of a character.
  if (!decodes(utf8)) throw new NotUtf8('not valid UTF-8');
}

/** Whether `bytes` go on the UTF-8 read so far (without them: whether it ended on a whole character). */
function decodes(decoder: TextDecoder, bytes?: Buffer): boolean {
  try {
    decoder.decode(bytes, { stream: bytes !== undefined });
    return true;
  } catch {
    return false;
  }
}

const found = (index: number, chunk: Buffer) => (index === -1 ? chunk.length : index);

/** The line read, or null when it is not valid: the import stops there, and the report says where and why. */
function readOrStop(raw: string, lineNumber: number, last: boolean, current: number, ended: boolean, report: ImportReport): Line | null {
  try {
    return readLine(raw, lineNumber, last, current, ended);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    report.stopped = { line: lineNumber, message: error.message };
    return null;
  }
}

function readLine(raw: string, lineNumber: number, last: boolean, current: number, ended: boolean): Line {
  if (ended) throw invalid(lineNumber, 'nothing may follow the end line');
  let record: Row;
  try {
    record = parseLine(raw, lineNumber);
  } catch (error) {
    if (last) return { kind: 'cut' };
    throw error;
  }
  if ('end' in record) return { kind: 'footer', footer: record as unknown as ExportFooter };
  const index = TABLES.findIndex((t) => t.name === record.table);
  if (index < 0 || typeof record.row !== 'object' || record.row === null || Array.isArray(record.row)) throw invalid(lineNumber, 'expected {"table": <a table of the export>, "row": {...}}');
  if (index < current) throw invalid(lineNumber, `${String(record.table)} rows must come before ${TABLES[current]!.name} rows`);
  const table = TABLES[index]!;
  checkRow(table, record.row as Row, lineNumber);
  return { kind: 'row', index, row: decode(table, record.row as Row) };
}

/** Refuses a row with a column the table does not have, a required column missing, or a value the API would not take. */
function checkRow(table: TableSpec, row: Row, lineNumber: number): void {
  const unknown = Object.keys(row).find((column) => !COLUMNS[table.name].has(column));
  if (unknown !== undefined) throw invalid(lineNumber, `${table.name} has no column ${JSON.stringify(unknown.slice(0, 100))}`);
  const derived = DERIVED[table.name] ?? [];
  for (const [name, column] of columnsOf(table.name)) {
    if (derived.includes(name) || (!(name in row) && (column.defaulted || column.optional))) continue;
    const problem = problemOf(column, name, row[name]);
    if (problem) throw invalid(lineNumber, `${table.name}.${name}: ${problem}`);
  }
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
  pending: Pending,
): Promise<void> {
  if (!rows.length) return;
  const existing = await existingKeys(db, table, rows);
  const fresh = rows.filter((row) => !existing.has(keyOf(table, row)));
  count(report.skipped, table.name, rows.length - fresh.length);
  if (fresh.length < rows.length) {
    const skipped = rows.filter((row) => existing.has(keyOf(table, row)));
    if (table.name === 'Entry') await repairSkippedEntries(db, skipped, pending);
    if (table.name === 'Task') await repairSkippedTasks(db, skipped, pending);
  }
  const accepted = await withoutRefused(db, table, fresh, report);
  if (!accepted.length) return;
  const later = table.later ?? [];
  const data = accepted.map((row) => {
    const copy = { ...row };
    for (const column of later) {
      if (copy[column] !== null && copy[column] !== undefined) {
        const list = pending.fixups.get(table.name) ?? [];
        list.push({ id: row.id as string, column, value: copy[column] });
        pending.fixups.set(table.name, list);
      }
      delete copy[column];
    }
    return copy;
  });
  await db.$executeRaw(insertSql(provider, table.name, data));
  count(report.created, table.name, data.length);
  if (table.name === 'Entry') pending.entries.push(...data.map((row) => row.id as string));
  if (table.name === 'TaskDependency') pending.dependencies.push(...data.map((row) => ({ taskId: row.taskId as string, dependsOnId: row.dependsOnId as string })));
}

/**
 * An entry that is here already but has no current version was written by an import that was
 * interrupted before its versions' turn (its current version was only in that import's memory):
 * the file's current version is queued for it as for a new entry, so importing the file again
 * completes it. Only where the column is empty: an entry that has one keeps it (it may have
 * changed since the export).
 */
async function repairSkippedEntries(db: Db, skipped: Row[], pending: Pending): Promise<void> {
  const withVersion = skipped.filter((row) => typeof row.currentVersionId === 'string');
  if (!withVersion.length) return;
  const empty = await db.entry.findMany({ where: { id: { in: withVersion.map((row) => row.id as string) }, currentVersionId: null }, select: { id: true } });
  if (!empty.length) return;
  const ids = new Set(empty.map((e) => e.id));
  const list = pending.fixups.get('Entry') ?? [];
  for (const row of withVersion) if (ids.has(row.id as string)) list.push({ id: row.id as string, column: 'currentVersionId', value: row.currentVersionId });
  pending.fixups.set('Entry', list);
}

/**
 * A task here already whose parent the file names but which has none, unchanged since the export
 * (its updatedAt is the file's): an import cut off before the parent's row left it so (its parent
 * is written once the parent is in, and was not yet). The parent is queued as for a new task, so
 * importing the file again completes it. A task changed since (moved to the top by its owner)
 * keeps what it has.
 */
async function repairSkippedTasks(db: Db, skipped: Row[], pending: Pending): Promise<void> {
  const withParent = skipped.filter((row) => typeof row.parentId === 'string' && row.updatedAt instanceof Date);
  if (!withParent.length) return;
  const orphans = await db.task.findMany({ where: { id: { in: withParent.map((row) => row.id as string) }, parentId: null }, select: { id: true, updatedAt: true } });
  const unchanged = new Map(orphans.map((t) => [t.id, t.updatedAt.getTime()]));
  const list = pending.fixups.get('Task') ?? [];
  for (const row of withParent) {
    if (unchanged.get(row.id as string) === (row.updatedAt as Date).getTime()) list.push({ id: row.id as string, column: 'parentId', value: row.parentId });
  }
  pending.fixups.set('Task', list);
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
    Prisma.sql`(${Prisma.join(columns.map((c) => (jsonColumnsOf(table).has(c) ? jsonSql(provider, row[c]) : Prisma.sql`${row[c] ?? null}`)))})`,
  );
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} (${names}) VALUES ${Prisma.join(values)}`;
}

/** A checked file row as Prisma takes it: instants as Dates, derived columns left out, JSON nulls as no value. */
function decode(table: TableSpec, row: Row): Row {
  const out: Row = {};
  const derived = DERIVED[table.name] ?? [];
  const columns = columnsOf(table.name);
  for (const [column, value] of Object.entries(row)) {
    const type = columns.get(column)?.type;
    if (derived.includes(column) || (type === 'Json' && value === null)) continue;
    out[column] = type === 'DateTime' && typeof value === 'string' ? new Date(value) : value;
  }
  return out;
}

const keyOf = (table: TableSpec, row: Row) => table.key.map((column) => String(row[column])).join('\u0000');

function count(counts: Partial<Record<TableName, number>>, table: TableName, n: number): void {
  if (n === 0) return;
  counts[table] = (counts[table] ?? 0) + n;
  if (counts[table] === 0) delete counts[table];
}

function refuse(report: ImportReport, table: TableName, key: string, reason: string): void {
  count(report.refused, table, 1);
  if (report.refusals.length < LISTED_REFUSALS) report.refusals.push({ table, key, reason });
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

/**
 * `rows` less those that refer to rows that are not there, repeat a unique name, or break the tree
 * rules (structure.ts); refusals go to the report.
 */
async function withoutRefused(db: Db, table: TableSpec, rows: Row[], report: ImportReport): Promise<Row[]> {
  const reasons = new Map<Row, string>();
  await checkReferences(db, table, rows, reasons);
  await checkUniqueNames(db, table, rows, reasons);
  if (table.name === 'Scope') await checkScopePlacement(db, rows, reasons);
  if (table.name === 'TaskDependency') checkSelfDependencies(rows, reasons);
  for (const [row, reason] of reasons) refuse(report, table.name, keyOf(table, row).replaceAll('\u0000', '/'), reason);
  return rows.filter((row) => !reasons.has(row));
}

async function checkReferences(db: Db, table: TableSpec, rows: Row[], reasons: Map<Row, string>): Promise<void> {
  for (const [column, target] of Object.entries(table.refs ?? {})) {
    if (table.later?.includes(column)) continue;
    const wanted = [...new Set(rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string'))];
    if (!wanted.length) continue;
    const present = new Set((await rowsOf(db, target).findMany({ where: { id: { in: wanted } }, select: { id: true } })).map((r) => r.id as string));
    for (const row of rows) {
      const value = row[column];
      if (typeof value === 'string' && !present.has(value) && !reasons.has(row)) reasons.set(row, `${column} refers to a ${target} that is not here (${value})`);
      // A row may refer to an earlier one of its batch (a scope's parent: one statement writes them
      // in order), not to itself or a later one (a scope that is its own ancestor).
      if (target === table.name) present.add(row.id as string);
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

/**
 * Writes the deferred columns of `tables` (their targets are complete now), and indexes imported
 * entries for search. Once versions are in, entries left without a current version are withdrawn.
 */
async function completeTables(database: { prisma: Db; provider: Provider }, tables: readonly TableSpec[], pending: Pending, report: ImportReport): Promise<void> {
  const db = database.prisma;
  const done = new Set(tables.map((t) => t.name));
  for (const [name, list] of pending.fixups) {
    const ready: Fixup[] = [];
    const waiting: Fixup[] = [];
    for (const f of list) (done.has(LATER_TARGET[f.column]!) ? ready : waiting).push(f);
    if (!ready.length) continue;
    pending.fixups.set(name, waiting);
    // A task's parent that would make it its own ancestor is left out: the task stays at the top level.
    const kept = name === 'Task' ? await treeParents(db, ready, (f, why) => refuse(report, 'Task', f.id, `parentId ${String(f.value)}: ${why}; imported without it`)) : ready;
    for (let i = 0; i < kept.length; i += BATCH) await writeLater(db, TABLE[name], kept.slice(i, i + BATCH));
  }
  if (done.has('EntryVersion')) await withdrawEntriesWithoutVersion(db, pending.entries.splice(0), report);
  if (done.has('TaskDependency')) await withdrawCyclicDependencies(database, pending.dependencies.splice(0), report);
}

/**
 * Removes the dependencies this import wrote that lie on a cycle (with the others it wrote, or
 * those stored): each of them, as the file gives no reason to keep one rather than another.
 */
async function withdrawCyclicDependencies(database: { prisma: Db; provider: Provider }, imported: Dependency[], report: ImportReport): Promise<void> {
  const cyclic = await cyclicDependencies(database.prisma, database.provider, imported);
  for (let i = 0; i < cyclic.length; i += BATCH) {
    const part = cyclic.slice(i, i + BATCH);
    await database.prisma.taskDependency.deleteMany({ where: { OR: part.map((d) => ({ taskId: d.taskId, dependsOnId: d.dependsOnId })) } });
  }
  count(report.created, 'TaskDependency', -cyclic.length);
  for (const d of cyclic) refuse(report, 'TaskDependency', `${d.taskId}/${d.dependsOnId}`, 'it would make the tasks depend on each other in a cycle');
}

/**
 * Entries of any earlier, interrupted import that are still without a current version (the file
 * imported now does not hold them, or not their current version): each gets its newest version,
 * which is what an export's current version is unless a conflict's incoming version came after
 * it. Those with no version at all are left as they are: readers pass over them (entryFilters).
 */
async function repairEntriesWithoutVersion(db: Db): Promise<number> {
  let repaired = 0;
  for (;;) {
    const ids = (await db.entry.findMany({ where: { currentVersionId: null, versions: { some: {} } }, select: { id: true }, take: BATCH })).map((e) => e.id);
    if (!ids.length) return repaired;
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "Entry" SET "currentVersionId" = (SELECT v."id" FROM "EntryVersion" v WHERE v."entryId" = "Entry"."id" ORDER BY v."version" DESC LIMIT 1)
        WHERE "id" IN (${Prisma.join(ids)}) AND "currentVersionId" IS NULL`;
      await indexEntries(tx as unknown as Db, ids);
    });
    repaired += ids.length;
  }
}

/**
 * Removes the entries this import created that have no current version (the file stopped before
 * it, or it was refused), with their versions, before any row of a later table can refer to them:
 * the API never leaves an entry so, and reads of one fail. They are counted as refused.
 */
async function withdrawEntriesWithoutVersion(db: Db, created: string[], report: ImportReport): Promise<void> {
  for (let i = 0; i < created.length; i += BATCH) {
    const ids = (await db.entry.findMany({ where: { id: { in: created.slice(i, i + BATCH) }, currentVersionId: null }, select: { id: true } })).map((e) => e.id);
    if (!ids.length) continue;
    const [versions] = await db.$transaction([db.entryVersion.deleteMany({ where: { entryId: { in: ids } } }), db.entry.deleteMany({ where: { id: { in: ids } } })]);
    count(report.created, 'EntryVersion', -versions.count);
    count(report.created, 'Entry', -ids.length);
    for (const id of ids) refuse(report, 'Entry', id, 'it has no current version in the file (cut off before it, or refused): withdrawn with its versions');
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
