// Entries with their current versions as this process last read or wrote them (issue #14: an
// update in one round trip). An update of a known entry decides on the kept row instead of reading
// it first; its batch only applies while the entry is still as kept (same version number, scope
// and active flag, entries.service.ts), so a row another instance changed in the meantime costs
// the write its guard, and the update then takes the locking path, which reads under the lock.
import type { Db } from '../../infra/database.ts';
import { isWriting, writeMark } from '../../infra/transaction.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import type { EntryWithVersion } from './entries.service.ts';

/**
 * How long a row is kept: an agent reads an entry, thinks, then writes it back. Only the read
 * counts of the update's answer can be this far behind, and only by reads another instance
 * counted (nothing else of the row changes without failing the guard).
 */
export const KNOWN_ROW_MS = 30_000;
/** Rows kept per database (when full, the one used least recently makes room, as in every TtlCache). */
export const KNOWN_ROWS = 1_000;
/** A row whose version holds more text than this is not kept (bounds the memory to ~1,000 × 32 KB). */
const KNOWN_ROW_CHARS = 16_000;

const rowsOf = ttlCachePer<Db, EntryWithVersion>(KNOWN_ROW_MS, KNOWN_ROWS);

/**
 * The row kept for the entry, unless a write of it is in line in this process; for the writer
 * whose turn it is (`inLine`), the row the writers before it left.
 */
export function knownRow(db: Db, id: string, inLine = false): EntryWithVersion | undefined {
  return !inLine && isWriting(db, id) ? undefined : rowsOf(db).get(id);
}

/** Keeps a row just written (its entry at the version written). */
export function rememberWritten(db: Db, row: EntryWithVersion): void {
  if (textLength(row) > KNOWN_ROW_CHARS) return;
  const kept = rowsOf(db);
  const older = kept.get(row.entry.id);
  if (older && older.entry.latestVersion > row.entry.latestVersion) return;
  kept.set(row.entry.id, row);
}

/** Adds reads just counted in the database to the rows kept (replaced: a kept row is never changed in place). */
export function countKnownReads(db: Db, ids: readonly string[], n: number, at: Date): void {
  const kept = rowsOf(db);
  for (const id of ids) {
    const row = kept.get(id);
    if (row) kept.set(id, { ...row, entry: { ...row.entry, accessCount: row.entry.accessCount + n, lastAccessedAt: at } });
  }
}

/** Drops the row kept for the entry (it turned out stale, or this process changed it other than by an update). */
export function forgetRow(db: Db, id: string): void {
  rowsOf(db).delete(id);
}

/** Drops the rows kept for the entries of a scope (a session that ended moved or deactivated them). */
export function forgetRowsIn(db: Db, scopeId: string): void {
  rowsOf(db).deleteIf((row) => row.entry.scopeId === scopeId);
}

/**
 * Reads rows and keeps those no write of this process can have passed: none of the entry was in
 * line when the read started, and none joined since (its write mark, transaction.ts, is unchanged).
 */
export async function readAndRemember(db: Db, ids: readonly string[], read: () => Promise<EntryWithVersion[]>): Promise<EntryWithVersion[]> {
  const marks = new Map(ids.filter((id) => !isWriting(db, id)).map((id) => [id, writeMark(db, id)]));
  const rows = await read();
  for (const row of rows) {
    const id = row.entry.id;
    if (row.version && marks.get(id) === writeMark(db, id) && !isWriting(db, id)) rememberWritten(db, row);
  }
  return rows;
}

function textLength({ version }: EntryWithVersion): number {
  let length = 0;
  for (const value of Object.values(version ?? {})) {
    length += typeof value === 'string' ? value.length : value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value).length : 0;
  }
  return length;
}
