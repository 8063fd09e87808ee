import type { Db, Tx } from '../../infra/database.ts';
import { InvalidStateError, NotFoundError } from '../../domain/errors.ts';
import { Prisma, type Entry } from '../../generated/sqlite/client.ts';

/** An archived session is a read-only record: nothing in its scope may change. */
export function archivedError(path: string[]): InvalidStateError {
  return new InvalidStateError('The session is ARCHIVED: its scope is read-only', 'ARCHIVED', path);
}

/** SQL: the scope whose id is `scopeId` (a column or value) takes writes, i.e. is not archived. */
export function scopeTakesWritesSql(scopeId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM "Scope" s WHERE s."id" = ${scopeId} AND s."status" = 'ARCHIVED')`;
}

/** The entry, if it exists and its scope takes writes; else NotFound or InvalidState (archived). */
export async function writableEntry(db: Db | Tx, id: string, path: string[], label = 'entry'): Promise<Entry> {
  const found = await db.entry.findUnique({ where: { id }, include: { scope: { select: { status: true } } } });
  if (!found) throw new NotFoundError(`No ${label} has this id`, path);
  const { scope, ...entry } = found;
  if (scope.status === 'ARCHIVED') throw archivedError(path);
  return entry;
}

/** Fails unless the scope exists and takes writes. */
export async function assertWritableScope(db: Db | Tx, id: string, path: string[]): Promise<void> {
  const scope = await db.scope.findUnique({ where: { id }, select: { status: true } });
  if (!scope) throw new NotFoundError('No scope has this id', path);
  if (scope.status === 'ARCHIVED') throw archivedError(path);
}
