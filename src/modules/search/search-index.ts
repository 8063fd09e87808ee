import { Prisma } from '../../generated/sqlite/client.ts';

/** The searchable text of a version: description, content, rationale, constraints, examples. */
export function searchBody(version: {
  description?: unknown;
  content?: unknown;
  rationale?: unknown;
  constraints?: unknown;
  examples?: unknown;
}): string {
  const parts = [version.description, version.content, version.rationale, version.constraints].filter(
    (part): part is string => typeof part === 'string' && part.length > 0,
  );
  if (version.examples !== null && version.examples !== undefined && typeof version.examples === 'object') {
    parts.push(JSON.stringify(version.examples));
  } else if (typeof version.examples === 'string') {
    parts.push(version.examples);
  }
  return parts.join(' ');
}

export interface SearchDocument {
  entryId: string;
  name: string;
  body: string;
}

/**
 * The statement that writes entries' searchable text (at least one document); the full-text
 * index (FTS5 triggers on SQLite, a generated tsvector with GIN on PostgreSQL) follows within the
 * same transaction.
 */
export function indexSql(docs: readonly SearchDocument[], guard: Prisma.Sql | null = null): Prisma.Sql {
  const upsert = Prisma.sql`ON CONFLICT ("entryId") DO UPDATE SET "name" = excluded."name", "body" = excluded."body"`;
  if (guard) {
    // One document, written only while `guard` holds (an INSERT ... SELECT upsert needs its WHERE).
    const [d] = docs;
    return Prisma.sql`INSERT INTO "EntrySearch" ("entryId", "name", "body") SELECT ${d!.entryId}, ${d!.name}, ${d!.body} WHERE ${guard} ${upsert}`;
  }
  const rows = Prisma.join(docs.map((d) => Prisma.sql`(${d.entryId}, ${d.name}, ${d.body})`));
  return Prisma.sql`INSERT INTO "EntrySearch" ("entryId", "name", "body") VALUES ${rows} ${upsert}`;
}
