// What a value of each column may be, read from the one model definition (prisma/models.prisma),
// so that an import takes into the database only what the API could have written there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, instantProblem, someText } from '../../domain/validate.ts';
import { projectRoot } from '../../infra/migrations.ts';

type ColumnType = 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime' | 'Json' | 'BigInt';

export interface Column {
  type: ColumnType;
  /** May be null (`Type?`). */
  optional: boolean;
  /** The database fills it when it is left out (`@default`, `@updatedAt`). */
  defaulted: boolean;
  /** The values the API takes, from the field's documentation (`/// A | B | C`); null for free text. */
  values: string[] | null;
  /** Text that holds a JSON value (`/// JSON text…`). */
  jsonText: boolean;
}

const SCALARS = new Set<string>(['String', 'Int', 'Float', 'Boolean', 'DateTime', 'Json', 'BigInt']);
/**
 * An enumeration in a field's documentation: upper-case values separated by `|`, each perhaps
 * followed by a remark in parentheses (`PROCEDURAL (tools always; …) | PROSPECTIVE`). The schema
 * keeps enumerations as plain strings (both providers store them alike), documented this way.
 */
const ENUMERATION = /\b[A-Z][A-Z_]*(?: \([^)]*\))?(?: \| [A-Z][A-Z_]*(?: \([^)]*\))?)+/;
const FIELD = /^(\w+)\s+(\w+)(\?|\[\])?(.*)$/;

/** Columns that copy another's value take its values (the copy's documentation does not list them). */
const COPIES: Record<string, [string, string]> = { 'EntryVersion.kind': ['Entry', 'kind'] };

/** Every model's scalar columns, as `prisma/models.prisma` declares them. */
export function parseModels(schema: string): Map<string, Map<string, Column>> {
  const models = new Map<string, Map<string, Column>>();
  let model: Map<string, Column> | null = null;
  let doc: string[] = [];
  for (const raw of schema.split('\n')) {
    const line = raw.trim();
    const start = /^model (\w+) \{$/.exec(line);
    if (start) models.set(start[1]!, (model = new Map<string, Column>()));
    else if (line === '}') model = null;
    else if (line.startsWith('///')) doc.push(line.slice(3).trim());
    else if (model && line && !line.startsWith('//') && !line.startsWith('@@')) addField(model, line, doc.join(' '));
    if (!line.startsWith('///')) doc = [];
  }
  for (const [name, [table, column]] of Object.entries(COPIES)) {
    const [copyTable, copyColumn] = name.split('.') as [string, string];
    models.get(copyTable)!.get(copyColumn)!.values = models.get(table)!.get(column)!.values;
  }
  return models;
}

function addField(model: Map<string, Column>, line: string, doc: string): void {
  const field = FIELD.exec(line);
  if (!field || !SCALARS.has(field[2]!) || field[3] === '[]') return;
  const values = ENUMERATION.exec(doc)?.[0].replace(/ \([^)]*\)/g, '').split(' | ') ?? null;
  model.set(field[1]!, {
    type: field[2] as ColumnType,
    optional: field[3] === '?',
    defaulted: /@default\(|@updatedAt/.test(field[4]!),
    values,
    jsonText: doc.startsWith('JSON text'),
  });
}

let cached: Map<string, Map<string, Column>> | null = null;

/** The columns of `table` (the schema is read once per process). */
export function columnsOf(table: string): Map<string, Column> {
  cached ??= parseModels(readFileSync(join(projectRoot(), 'prisma', 'models.prisma'), 'utf8'));
  const columns = cached.get(table);
  if (!columns) throw new Error(`prisma/models.prisma has no model ${table}`);
  return columns;
}

const jsonColumns = new Map<string, ReadonlySet<string>>();

/** The columns of `table` that hold JSON (a null there is written as no value). */
export function jsonColumnsOf(table: string): ReadonlySet<string> {
  let found = jsonColumns.get(table);
  if (!found) jsonColumns.set(table, (found = new Set([...columnsOf(table)].filter(([, column]) => column.type === 'Json').map(([name]) => name))));
  return found;
}

/** Numbers the API bounds, by column name. */
const RANGES: Record<string, [number, number]> = {
  priority: [LIMITS.priority.min, LIMITS.priority.max],
  confidence: [LIMITS.confidence.min, LIMITS.confidence.max],
  importance: [0, 1],
};
/** PostgreSQL's INTEGER (SQLite's is wider: a larger number would not move back). */
const INT32: [number, number] = [-(2 ** 31), 2 ** 31 - 1];
/**
 * The longest text the API writes to a column: content and messages (LIMITS.content); JSON text
 * up to a state delta of LIMITS.stateDeltaKeys values of LIMITS.jsonBytes each.
 */
const LONGEST_TEXT = LIMITS.content;
const LONGEST_JSON_TEXT = LIMITS.stateDeltaKeys * (LIMITS.jsonBytes + LIMITS.stateKey);
/** Why `value` cannot be stored in `column`, or null when it can. */
export function problemOf(column: Column, name: string, value: unknown): string | null {
  if (value === null || value === undefined) return column.optional ? null : 'is required';
  switch (column.type) {
    case 'String':
      return typeof value === 'string' ? textProblem(column, value) : 'must be a string';
    case 'Int':
      return typeof value === 'number' && Number.isInteger(value) ? rangeProblem(name, value, INT32) : 'must be an integer';
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? rangeProblem(name, value, null) : 'must be a number';
    case 'Boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'DateTime':
      return instantProblem(value);
    case 'Json':
      return jsonProblem(value);
    case 'BigInt':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : 'must be an integer';
  }
}

function textProblem(column: Column, value: string): string | null {
  if (column.values) return column.values.includes(value) ? null : `must be one of ${column.values.join(', ')} (got ${shown(value)})`;
  const longest = column.jsonText ? LONGEST_JSON_TEXT : LONGEST_TEXT;
  if (value.length > longest) return `must be at most ${longest} characters (got ${value.length})`;
  const checked = unicodeProblem(value);
  if (checked || !column.jsonText) return checked;
  try {
    JSON.parse(value);
    return null;
  } catch {
    return 'must be JSON text';
  }
}

/** The API's rules for text: no NUL (PostgreSQL cannot store it; SQLite cut the text there), no half of a surrogate pair. */
function unicodeProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters (U+0000)';
  const checker = new Checker();
  checker.text(value, [], Number.MAX_SAFE_INTEGER);
  return checker.issues[0]?.message ?? null;
}

function rangeProblem(name: string, value: number, bounds: [number, number] | null): string | null {
  const [min, max] = RANGES[name] ?? bounds ?? [-Infinity, Infinity];
  return value >= min && value <= max ? null : `must be between ${min} and ${max} (got ${value})`;
}

function jsonProblem(value: unknown): string | null {
  const checker = new Checker();
  checker.json(value, []);
  if (checker.issues[0]) return checker.issues[0].message;
  return someText(value, (text) => text.includes('\u0000')) ? 'must not contain NUL characters (U+0000)' : null;
}

/** A value in a message: quoted, and cut short (a line may be megabytes). */
function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
