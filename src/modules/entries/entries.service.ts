import type { Tx } from '../../infra/database.ts';
import { writeTransaction, type Emit, type WriteDeps, type WriteSettings } from '../../infra/transaction.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError, WriteConflictError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames } from '../../domain/validate.ts';
import { Prisma, type Conflict, type Entry, type EntryVersion } from '../../generated/sqlite/client.ts';
import { tagIdsByName, withTagRetry } from '../tags/tags.service.ts';
import { indexEntries, indexEntry, searchBody } from '../search/search-index.ts';
import { uuidv7 } from '../../domain/uuid.ts';

export const ENTRY_KINDS = ['TOOL', 'GUIDELINE', 'KNOWLEDGE'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The content columns of a version; which ones a kind uses is fixed by `VERSION_FIELDS`. */
export interface VersionFields {
  description?: string | null;
  parameters?: Prisma.InputJsonValue | null;
  examples?: Prisma.InputJsonValue | null;
  constraints?: string | null;
  content?: string | null;
  rationale?: string | null;
  source?: string | null;
  confidence?: number | null;
  validUntil?: Date | null;
}
type VersionField = keyof VersionFields;

export const VERSION_FIELDS: Record<EntryKind, readonly VersionField[]> = {
  TOOL: ['description', 'parameters', 'examples', 'constraints'],
  GUIDELINE: ['content', 'rationale', 'examples'],
  KNOWLEDGE: ['content', 'source', 'confidence', 'validUntil'],
};
const JSON_FIELDS = new Set<VersionField>(['parameters', 'examples']);

const LABEL: Record<EntryKind, string> = { TOOL: 'tool', GUIDELINE: 'guideline', KNOWLEDGE: 'knowledge entry' };
/** Knowledge is named by its title; the API calls the field accordingly. */
const NAME_FIELD: Record<EntryKind, string> = { TOOL: 'name', GUIDELINE: 'name', KNOWLEDGE: 'title' };

export function checkVersion(c: Checker, kind: EntryKind, v: VersionFields, creating: boolean): void {
  const p = (f: string) => ['input', f];
  for (const field of Object.keys(v) as VersionField[]) {
    if (v[field] !== undefined && !VERSION_FIELDS[kind].includes(field)) c.fail(p(field), `is not a field of a ${LABEL[kind]}`);
  }
  const contentRequired = kind !== 'TOOL';
  if (contentRequired && (creating || v.content !== undefined)) c.text(v.content, p('content'), LIMITS.content, true);
  c.text(v.description, p('description'), LIMITS.content);
  c.text(v.constraints, p('constraints'), LIMITS.content);
  c.text(v.rationale, p('rationale'), LIMITS.content);
  c.text(v.source, p('source'), LIMITS.source);
  c.range(v.confidence, p('confidence'), LIMITS.confidence.min, LIMITS.confidence.max);
  c.json(v.parameters, p('parameters'), { objectOnly: true });
  c.json(v.examples, p('examples'));
  if (v.validUntil && Number.isNaN(v.validUntil.getTime())) c.fail(p('validUntil'), 'must be a valid date-time');
}

function checkEntry(c: Checker, kind: EntryKind, e: { category?: string | null; priority?: number | null }): void {
  c.text(e.category, ['input', 'category'], LIMITS.category);
  if (e.priority !== undefined && e.priority !== null && kind !== 'GUIDELINE') {
    c.fail(['input', 'priority'], 'only guidelines have a priority');
  }
  c.range(e.priority, ['input', 'priority'], LIMITS.priority.min, LIMITS.priority.max, true);
}

/** Column values of a new version: given fields win, absent ones carry over from `base`. */
function versionData(kind: EntryKind, given: VersionFields, base: EntryVersion | null) {
  const data: Record<string, unknown> = {};
  for (const field of VERSION_FIELDS[kind]) {
    const value = given[field] !== undefined ? given[field] : (base?.[field] ?? null);
    data[field] = value === null && JSON_FIELDS.has(field) ? Prisma.DbNull : value;
  }
  if (kind === 'KNOWLEDGE' && data.confidence === null) data.confidence = LIMITS.confidence.default;
  return data;
}

export interface AddEntryInput {
  kind: EntryKind;
  scopeId: string;
  name: string;
  category?: string | null;
  priority?: number | null;
  version: VersionFields;
  tags?: readonly string[] | null;
  author?: string | null;
}

/** Checks an add input into `c` (paths under `input`); returns its normalized tag names. */
function checkNewEntry(c: Checker, input: AddEntryInput): string[] {
  c.text(input.name, ['input', NAME_FIELD[input.kind]], LIMITS.name, true);
  checkEntry(c, input.kind, input);
  checkVersion(c, input.kind, input.version, true);
  c.text(input.author, ['input', 'author'], LIMITS.author);
  return checkTagNames(c, input.tags ?? [], ['input', 'tags']);
}

interface NewEntry {
  input: AddEntryInput;
  tags: string[];
  entryId: string;
  versionId: string;
}

/**
 * Inserts new entries with version 1, tag links and search text, in the caller's transaction.
 * Ids are made by the caller, so every table takes one plain multi-row insert (no read-back); the
 * caller points the entries at their versions. An unknown scope fails as a foreign-key violation.
 */
async function insertNewEntries(tx: Tx, emit: Emit, items: readonly NewEntry[]): Promise<void> {
  await tx.entry.createMany({
    data: items.map(({ input, entryId }) => ({
      id: entryId,
      kind: input.kind,
      scopeId: input.scopeId,
      name: input.name.trim(),
      category: input.category ?? null,
      priority: input.kind === 'GUIDELINE' ? (input.priority ?? LIMITS.priority.default) : null,
      createdBy: input.author ?? null,
      latestVersion: 1,
    })),
  });
  await tx.entryVersion.createMany({
    data: items.map(({ input, entryId, versionId }) => ({
      id: versionId,
      entryId,
      kind: input.kind,
      version: 1,
      createdBy: input.author ?? null,
      ...versionData(input.kind, input.version, null),
    })),
  });
  const tagIds = await tagIdsByName(tx, [...new Set(items.flatMap((item) => item.tags))]);
  const links = items.flatMap(({ tags, entryId }) => tags.map((name) => ({ entryId, tagId: tagIds.get(name)! })));
  if (links.length > 0) await tx.entryTag.createMany({ data: links });
  await indexEntries(
    tx,
    items.map(({ input, entryId }) => ({ entryId, name: input.name.trim(), body: searchBody(input.version) })),
  );
  for (const { input, entryId, versionId } of items) {
    emit({
      topic: 'entryChanged',
      payload: { type: 'CREATED', entryId, scopeId: input.scopeId, versionId, actor: input.author ?? null },
    });
  }
}

/** Creates the entry, its version 1 and its tag links in one transaction. */
export async function addEntry(deps: WriteDeps, input: AddEntryInput): Promise<Entry> {
  const { kind } = input;
  const c = new Checker();
  const tags = checkNewEntry(c, input);
  c.done();
  const name = input.name.trim();
  try {
    return await withTagRetry(() =>
      writeTransaction(deps, async (tx, emit) => {
        const item = { input, tags, entryId: uuidv7(), versionId: uuidv7() };
        await insertNewEntries(tx, emit, [item]);
        return tx.entry.update({ where: { id: item.entryId }, data: { currentVersionId: item.versionId } });
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AlreadyExistsError(
        `This scope already has a ${LABEL[kind]} ${NAME_FIELD[kind] === 'title' ? 'titled' : 'named'} "${name}"`,
        ['input', NAME_FIELD[kind]],
      );
    }
    if (isForeignKeyViolation(error)) throw new NotFoundError('No scope has this id', ['input', 'scope']);
    throw error;
  }
}

/** Entries added per transaction by `addEntries` (bounded by SQL parameter limits). */
export const BULK_BATCH = 400;

/**
 * Adds many entries, each with version 1, its tags and its search text: one transaction per
 * batch of BULK_BATCH, a handful of multi-row statements each. All inputs are validated before
 * anything is written; a duplicate name or an unknown scope fails its whole batch. Returns the
 * new entry ids in input order.
 */
export async function addEntries(deps: WriteDeps, inputs: readonly AddEntryInput[]): Promise<string[]> {
  const c = new Checker();
  const items: NewEntry[] = inputs.map((input, i) => {
    const each = new Checker();
    const tags = checkNewEntry(each, input);
    for (const issue of each.issues) c.fail(['input', 'entries', String(i), ...issue.path.slice(1)], issue.message);
    return { input, tags, entryId: uuidv7(), versionId: uuidv7() };
  });
  c.done();
  for (let start = 0; start < items.length; start += BULK_BATCH) {
    const batch = items.slice(start, start + BULK_BATCH);
    try {
      await withTagRetry(() =>
        writeTransaction(deps, async (tx, emit) => {
          await insertNewEntries(tx, emit, batch);
          await tx.$executeRaw`UPDATE "Entry" SET "currentVersionId" = (
              SELECT v."id" FROM "EntryVersion" v WHERE v."entryId" = "Entry"."id" AND v."version" = 1)
            WHERE "id" IN (${Prisma.join(batch.map((item) => item.entryId))})`;
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new AlreadyExistsError('An entry of this batch already exists in its scope', ['input']);
      if (isForeignKeyViolation(error)) throw new NotFoundError('A scope of this batch does not exist', ['input', 'scope']);
      throw error;
    }
  }
  return items.map((item) => item.entryId);
}

export interface UpdateEntryInput {
  kind: EntryKind;
  id: string;
  category?: string | null;
  priority?: number | null;
  version: VersionFields;
  changeReason?: string | null;
  author?: string | null;
  /** The version the writer based its change on. */
  expectedVersion?: number | null;
  /** KEEP_BOTH (default) writes a flagged version on conflict; REJECT refuses the write. */
  onConflict?: 'KEEP_BOTH' | 'REJECT' | null;
}

export interface UpdateEntryResult {
  entry: Entry;
  version: EntryVersion;
  /** The version this write conflicted with, if it did. */
  conflictWith: EntryVersion | null;
  conflict: Conflict | null;
}

/**
 * Appends a version. Fields left out carry over from the current version. The first statement
 * bumps `latestVersion`, which serializes writers of one entry (row lock on PostgreSQL, the write
 * lock on SQLite) so version numbers stay gapless and unique.
 *
 * A write conflicts when it is based on an older version than the current one
 * (`expectedVersion`), or, without `expectedVersion`, when the current version was written by a
 * different (named) writer less than the conflict window ago. On conflict both versions stay and a
 * conflict record links them, unless the caller asked to REJECT.
 */
export async function updateEntry(deps: WriteDeps, input: UpdateEntryInput): Promise<UpdateEntryResult> {
  const c = new Checker();
  checkEntry(c, input.kind, input);
  checkVersion(c, input.kind, input.version, false);
  c.text(input.changeReason, ['input', 'changeReason'], LIMITS.changeReason);
  c.text(input.author, ['input', 'author'], LIMITS.author);
  c.range(input.expectedVersion, ['input', 'expectedVersion'], 1, 2 ** 31 - 1, true);
  c.done();
  return writeTransaction(deps, (tx, emit) => appendVersion(tx, emit, deps.settings, input, true));
}

/**
 * The write of `updateEntry`, inside the caller's transaction; `detectConflicts` is false for
 * writes that settle a conflict themselves (resolutions).
 */
export async function appendVersion(
  tx: Tx,
  emit: Emit,
  settings: WriteSettings,
  input: UpdateEntryInput,
  detectConflicts: boolean,
): Promise<UpdateEntryResult> {
  const { kind } = input;
  const author = input.author ?? null;
  const locked = await lockForNewVersion(tx, input.id, kind);
  const previous = locked.latestVersion - 1;
  const current = locked.currentVersionId
    ? await tx.entryVersion.findUniqueOrThrow({ where: { id: locked.currentVersionId } })
    : null;
  if (input.expectedVersion != null && input.expectedVersion > previous) {
    const v = new Checker();
    v.fail(['input', 'expectedVersion'], `must be an existing version (the entry is at version ${previous})`);
    v.done();
  }
  const conflicted =
    detectConflicts &&
    current !== null &&
    (input.expectedVersion != null
      ? input.expectedVersion < previous
      : // Writers are told apart by author; an anonymous write cannot be told apart from any other.
        current.createdBy !== null &&
        author !== null &&
        current.createdBy !== author &&
        Date.now() - current.createdAt.getTime() < settings.conflictWindowMs);
  if (conflicted && input.onConflict === 'REJECT') {
    throw new WriteConflictError(
      input.expectedVersion != null
        ? `The entry is at version ${previous}, past the expected version ${input.expectedVersion}`
        : `Version ${previous} was written by another writer ${Date.now() - current.createdAt.getTime()} ms ago`,
      kind,
      current.id,
      previous,
      ['input', input.expectedVersion != null ? 'expectedVersion' : 'id'],
    );
  }
  const version = await tx.entryVersion.create({
    data: {
      entryId: locked.id,
      kind,
      version: locked.latestVersion,
      createdBy: author,
      changeReason: input.changeReason ?? null,
      conflictFlag: conflicted,
      ...versionData(kind, input.version, current),
    },
  });
  const entry = await tx.entry.update({
    where: { id: locked.id },
    data: {
      currentVersionId: version.id,
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.priority != null ? { priority: input.priority } : {}),
    },
  });
  await indexEntry(tx, entry.id, entry.name, searchBody(version));
  emit({
    topic: 'entryChanged',
    payload: { type: 'UPDATED', entryId: entry.id, scopeId: entry.scopeId, versionId: version.id, actor: author },
  });
  let conflict: Conflict | null = null;
  if (conflicted) {
    conflict = await tx.conflict.create({ data: { entryId: entry.id, versionAId: current.id, versionBId: version.id } });
    emit({ topic: 'conflict', payload: { type: 'DETECTED', conflictId: conflict.id, entryId: entry.id, scopeId: entry.scopeId } });
  }
  return { entry, version, conflictWith: conflicted ? current : null, conflict };
}

async function lockForNewVersion(tx: Tx, id: string, kind: EntryKind) {
  try {
    const entry = await tx.entry.update({ where: { id, kind }, data: { latestVersion: { increment: 1 } } });
    return entry;
  } catch (error) {
    if ((error as { code?: string }).code === 'P2025') throw new NotFoundError(`No ${LABEL[kind]} has this id`, ['input', 'id']);
    throw error;
  }
}

/** Soft delete (`active = false`) or undo it. Idempotent: no change, no event. */
export async function setEntryActive(deps: WriteDeps, id: string, active: boolean, actor: string | null): Promise<Entry> {
  return writeTransaction(deps, async (tx, emit) => {
    const { count } = await tx.entry.updateMany({ where: { id, active: !active }, data: { active } });
    const entry = await tx.entry.findUnique({ where: { id } });
    if (!entry) throw new NotFoundError('No entry has this id', ['input', 'id']);
    if (count > 0) {
      emit({
        topic: 'entryChanged',
        payload: { type: active ? 'REACTIVATED' : 'DEACTIVATED', entryId: id, scopeId: entry.scopeId, versionId: null, actor },
      });
    }
    return entry;
  });
}
