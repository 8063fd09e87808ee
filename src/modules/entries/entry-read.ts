// An entry with its current version, read once per request for a write to it (issue #14): the
// access rule needs the entry's scope, and the update it guards needs the whole row, so the rule
// reads the row and the update takes it instead of reading again (one round trip less on PostgreSQL).
import type { Db } from '../../infra/database.ts';
import { isWriting, writeMark } from '../../infra/transaction.ts';
import { readEntryWithVersion, type EntryRead, type EntryWithVersion } from './entries.service.ts';
import { knownRow } from './known-rows.ts';

/** Per request (keyed by an object of the request, its Access): the rows read for writes, by entry id. */
const reads = new WeakMap<object, Map<string, EntryRead>>();

/**
 * The entry with its current version, read now (or, with `reuseKnown`, as this process last read
 * or wrote it: known-rows.ts). Kept for the request's write (`takeEntryRead`) with the entry's
 * write mark, unless a write of the entry is in line in this process.
 */
export function readEntryForWrite(db: Db, request: object, id: string, reuseKnown = false): Promise<EntryWithVersion | null> {
  // With a write of the entry in line, the row may predate it, and no later mark would tell.
  const writing = isWriting(db, id);
  const mark = writeMark(db, id);
  // A row this process read or wrote lately, for a write whose batch checks it still holds.
  const known = reuseKnown ? knownRow(db, id) : undefined;
  const row = known ? Promise.resolve(known) : readEntryWithVersion(db, id);
  if (!writing) {
    let rows = reads.get(request);
    if (!rows) reads.set(request, (rows = new Map<string, EntryRead>()));
    rows.set(id, { row, mark });
  }
  return row;
}

/** The row this request read for a write to the entry, once: a second write of it in the request reads again. */
export function takeEntryRead(request: object, id: string): EntryRead | undefined {
  const rows = reads.get(request);
  const read = rows?.get(id);
  rows?.delete(id);
  return read;
}
