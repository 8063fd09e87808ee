import { Prisma, type EntryVersion } from '../../generated/sqlite/client.ts';
import type { Provider } from '../../infra/database.ts';
import { jsonSql, timestampSql, type ColumnType } from '../../infra/sql.ts';

/**
 * SQL for the hot write paths of entries. Raw statements skip Prisma's per-query planning, and
 * fixed ones can be sent as one batch transaction; both dialects take the same text except where
 * PostgreSQL needs a type (a jsonb value, a timestamp in a SELECT list).
 */

/** Every content column of a version, in the order the statements list them. */
export const VERSION_COLUMNS = [
  'description',
  'parameters',
  'constraints',
  'examples',
  'content',
  'rationale',
  'source',
  'confidence',
  'validUntil',
] as const;
export type VersionColumn = (typeof VERSION_COLUMNS)[number];

/** Every column of "EntryVersion" by how a raw read gives it back (see typedRow); its JSON ones are read as text. */
export const VERSION_COLUMN_TYPES = {
  id: 'text',
  entryId: 'text',
  kind: 'text',
  version: 'number',
  description: 'text',
  parameters: 'json',
  constraints: 'text',
  examples: 'json',
  content: 'text',
  rationale: 'text',
  source: 'text',
  confidence: 'number',
  validUntil: 'time',
  changeReason: 'text',
  conflictFlag: 'boolean',
  createdAt: 'time',
  createdBy: 'text',
} as const satisfies Record<keyof EntryVersion, ColumnType>;

/** The content columns that hold JSON (written as JSON values, read back as text and parsed). */
export const JSON_COLUMNS: ReadonlySet<VersionColumn> = new Set(VERSION_COLUMNS.filter((c) => VERSION_COLUMN_TYPES[c] === 'json'));

export interface NewEntryRow {
  id: string;
  kind: string;
  scopeId: string;
  name: string;
  category: string | null;
  priority: number | null;
  createdBy: string | null;
  memoryType: string;
  importance: number;
}

/**
 * Inserts entries whose scope takes writes: a row whose scope is missing or an archived session is
 * left out, so the version insert that follows fails on its foreign key (the caller explains).
 */
export function insertEntriesSql(provider: Provider, rows: readonly NewEntryRow[], at: Date): Prisma.Sql {
  const values = rows.map(
    (e) => Prisma.sql`(${e.id}, ${e.kind}, ${e.scopeId}, ${e.name}, ${e.category}, ${e.priority}, ${e.createdBy}, ${e.memoryType}, ${e.importance})`,
  );
  const time = timestampSql(provider, at);
  return Prisma.sql`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "category", "priority", "createdBy", "memoryType", "importance", "active", "latestVersion", "createdAt", "updatedAt")
    SELECT v.column1, v.column2, v.column3, v.column4, v.column5, CAST(v.column6 AS INTEGER), v.column7, v.column8, CAST(v.column9 AS DOUBLE PRECISION), ${true}, 1, ${time}, ${time}
    FROM (VALUES ${Prisma.join(values)}) AS v JOIN "Scope" s ON s."id" = v.column3
    WHERE COALESCE(s."status", '') <> 'ARCHIVED'`;
}

export interface NewVersionRow {
  id: string;
  entryId: string;
  kind: string;
  version: number;
  fields: Record<VersionColumn, unknown>;
  changeReason: string | null;
  conflictFlag: boolean;
  createdAt: Date;
  createdBy: string | null;
}

const VERSION_COLUMN_LIST = Prisma.raw(VERSION_COLUMNS.map((c) => `"${c}"`).join(', '));

export function insertVersionsSql(provider: Provider, rows: readonly NewVersionRow[], guard: Prisma.Sql | null = null): Prisma.Sql {
  const columns = Prisma.sql`("id", "entryId", "kind", "version", ${VERSION_COLUMN_LIST}, "changeReason", "conflictFlag", "createdAt", "createdBy")`;
  if (guard) {
    // One row, inserted only while `guard` holds; a SELECT list needs PostgreSQL told each type.
    const [v] = rows;
    const fields = VERSION_COLUMNS.map((c) => {
      const value = v!.fields[c] ?? null;
      if (JSON_COLUMNS.has(c)) return jsonSql(provider, value);
      if (c === 'confidence') return Prisma.sql`CAST(${value} AS DOUBLE PRECISION)`;
      if (c === 'validUntil') return value === null ? Prisma.sql`NULL` : timestampSql(provider, value as Date);
      return Prisma.sql`${value}`;
    });
    return Prisma.sql`INSERT INTO "EntryVersion" ${columns}
      SELECT ${v!.id}, ${v!.entryId}, ${v!.kind}, CAST(${v!.version} AS INTEGER), ${Prisma.join(fields)}, ${v!.changeReason},
        ${v!.conflictFlag}, ${timestampSql(provider, v!.createdAt)}, ${v!.createdBy}
      WHERE ${guard}`;
  }
  const values = rows.map((v) => {
    const fields = VERSION_COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? jsonSql(provider, v.fields[c]) : Prisma.sql`${v.fields[c] ?? null}`));
    return Prisma.sql`(${v.id}, ${v.entryId}, ${v.kind}, ${v.version}, ${Prisma.join(fields)}, ${v.changeReason}, ${v.conflictFlag}, ${v.createdAt}, ${v.createdBy})`;
  });
  return Prisma.sql`INSERT INTO "EntryVersion" ${columns} VALUES ${Prisma.join(values)}`;
}

/**
 * Links entries to tags by tag name, with the copies of each entry's columns that tag queries read
 * (see EntryTag in models.prisma): written here, they spare the trigger that fills a link made
 * without them a second write of every link. A link that exists is left alone, so two writers
 * linking the same tag at once both succeed (`WHERE true`: SQLite would otherwise read the
 * conflict clause as the join's ON).
 */
export function linkTagsSql(provider: Provider, links: ReadonlyArray<{ entryId: string; name: string }>, at: Date): Prisma.Sql {
  const values = links.map((l) => Prisma.sql`(${l.entryId}, ${l.name})`);
  return Prisma.sql`INSERT INTO "EntryTag" ("entryId", "tagId", "createdAt", "scopeId", "kind", "active", "name", "validUntil", "updatedAt", "priority", "nameShared")
    SELECT v.column1, t."id", ${timestampSql(provider, at)}, e."scopeId", e."kind", e."active", e."name", e."validUntil", e."updatedAt", e."priority", e."nameShared"
    FROM (VALUES ${Prisma.join(values)}) AS v
    JOIN "Tag" t ON t."name" = v.column2 JOIN "Entry" e ON e."id" = v.column1
    WHERE true
    ON CONFLICT ("entryId", "tagId") DO NOTHING`;
}
