import { AlreadyExistsError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { Tx } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { serializedPerKey, writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { rememberWritten } from './known-rows.ts';
import { appendVersion, VERSION_FIELDS, type EntryKind, type UpdateEntryResult, type VersionFields } from './entries.service.ts';

/**
 * Edits that append a version rather than new content: rolling back to an earlier version and
 * renaming. History is never rewritten; each edit is one more version saying what it did.
 */

async function entryOf(tx: Tx, id: string): Promise<{ kind: EntryKind; name: string }> {
  const entry = await tx.entry.findUnique({ where: { id }, select: { kind: true, name: true } });
  if (!entry) throw new NotFoundError('No entry has this id', ['input', 'id']);
  return { kind: entry.kind as EntryKind, name: entry.name };
}

export interface RollbackInput {
  id: string;
  /** The version whose content the new version repeats. */
  version: number;
  changeReason?: string | null;
  author?: string | null;
}

/** Appends a version equal in content to version N (never rewrites history). */
export async function rollbackEntry(deps: WriteDeps, input: RollbackInput): Promise<UpdateEntryResult> {
  const c = new Checker();
  c.range(input.version, ['input', 'version'], 1, 2 ** 31 - 1, true);
  c.text(input.changeReason, ['input', 'changeReason'], LIMITS.changeReason);
  c.done();
  return serializedPerKey(deps.db, input.id)(() =>
    keptAfter(deps, writeTransaction(deps, async (tx, emit) => {
      const { kind } = await entryOf(tx, input.id);
      const old = await tx.entryVersion.findUnique({ where: { entryId_version: { entryId: input.id, version: input.version } } });
      if (!old) throw new NotFoundError(`The entry has no version ${input.version}`, ['input', 'version']);
      // Every field of the kind, nulls included: the new version is version N's content exactly.
      const content = Object.fromEntries(VERSION_FIELDS[kind].map((field) => [field, old[field]])) as VersionFields;
      const reason = input.changeReason ?? `Rolled back to version ${input.version}`;
      return appendVersion(tx, emit, deps, { kind, id: input.id, version: content, changeReason: reason, author: input.author }, false);
    })),
  );
}

export interface RenameInput {
  id: string;
  name: string;
  author?: string | null;
}

/**
 * Renames an entry (a knowledge entry's title): a new version records the change, the old name
 * stops resolving, and a name its scope already has for that kind is an AlreadyExistsError.
 */
export async function renameEntry(deps: WriteDeps, input: RenameInput): Promise<UpdateEntryResult> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name, true);
  c.done();
  const name = input.name.trim();
  return serializedPerKey(deps.db, input.id)(() =>
    keptAfter(deps, writeTransaction(deps, async (tx, emit) => {
      const before = await entryOf(tx, input.id);
      try {
        await tx.entry.update({ where: { id: input.id }, data: { name } });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AlreadyExistsError(`The scope already has a ${before.kind.toLowerCase()} named "${name}"`, ['input', 'name']);
        throw error;
      }
      const reason = `Renamed from "${before.name}" to "${name}"`;
      // The new version carries the content over and re-indexes the entry under its new name.
      return appendVersion(tx, emit, deps, { kind: before.kind, id: input.id, version: {}, changeReason: reason, author: input.author }, false);
    })),
  );
}

/** The edit's result, kept as the entry's row (known-rows.ts) before the next writer in line starts: its update skips the read. */
async function keptAfter(deps: WriteDeps, edit: Promise<UpdateEntryResult>): Promise<UpdateEntryResult> {
  const result = await edit;
  rememberWritten(deps.db, { entry: result.entry, version: result.version });
  return result;
}
