import { isDeepStrictEqual } from 'node:util';
import { ALLOWED_MEMORY_TYPES, DEFAULT_IMPORTANCE, DEFAULT_MEMORY_TYPE, type MemoryType } from './memory-types.ts';
import { refreshStatistics, type Db, type Provider, type Tx } from '../../infra/database.ts';
import type { PendingEvent } from '../../infra/events.ts';
import { forgetRow, knownRow, readAndRemember, rememberWritten } from './known-rows.ts';
import { serializedPerKey, writeBatch, writeMark, writeTransaction, type Emit, type WriteDeps, type WriteSettings } from '../../infra/transaction.ts';
import { directRead } from '../../infra/direct-batch.ts';
import { chunked, chunkedWithin, eachOf, TEXT_CHARS_PER_LIST } from '../../infra/id-lists.ts';
import { timestampSql, typedRow, type ColumnType } from '../../infra/sql.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError, WriteConflictError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames } from '../../domain/validate.ts';
import { Prisma, type Conflict, type Entry, type EntryVersion } from '../../generated/sqlite/client.ts';
import { indexSql, searchBody } from '../search/search-index.ts';
import { insertTagsSql } from '../tags/tags.service.ts';
import {
  VERSION_COLUMNS,
  VERSION_COLUMN_TYPES,
  insertEntriesSql,
  insertVersionsSql,
  linkTagsSql,
  type NewEntryRow,
  type NewVersionRow,
  type VersionColumn,
} from './entry-sql.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { archivedError, assertWritableScope, scopeTakesWritesSql, writableEntry } from '../scopes/archived.ts';

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

/** What an add or update may set on the entry itself (not its version). */
interface EntryFields {
  category?: string | null;
  priority?: number | null;
  memoryType?: MemoryType | null;
  importance?: number | null;
}

function checkEntry(c: Checker, kind: EntryKind, e: EntryFields): void {
  c.text(e.category, ['input', 'category'], LIMITS.category);
  if (e.memoryType != null && !ALLOWED_MEMORY_TYPES[kind].includes(e.memoryType)) {
    c.fail(['input', 'memoryType'], `a ${LABEL[kind]} is ${ALLOWED_MEMORY_TYPES[kind].join(' or ')}`);
  }
  c.range(e.importance, ['input', 'importance'], 0, 1);
  if (e.priority !== undefined && e.priority !== null && kind !== 'GUIDELINE') {
    c.fail(['input', 'priority'], 'only guidelines have a priority');
  }
  c.range(e.priority, ['input', 'priority'], LIMITS.priority.min, LIMITS.priority.max, true);
}

/** Column values of a new version: given fields win, absent ones carry over from `base`. */
function versionFields(kind: EntryKind, given: VersionFields, base: EntryVersion | null): Record<VersionColumn, unknown> {
  const fields = Object.fromEntries(VERSION_COLUMNS.map((c) => [c, null])) as Record<VersionColumn, unknown>;
  for (const field of VERSION_FIELDS[kind]) {
    fields[field] = given[field] !== undefined ? given[field] : (base?.[field] ?? null);
  }
  if (kind === 'KNOWLEDGE' && fields.confidence === null) fields.confidence = LIMITS.confidence.default;
  return fields;
}

export interface AddEntryInput {
  kind: EntryKind;
  scopeId: string;
  name: string;
  category?: string | null;
  priority?: number | null;
  memoryType?: MemoryType | null;
  importance?: number | null;
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
  /** Its search row's body (searchBody of its version), built once: a bulk write sizes its parts by it too. */
  body: string;
}

/** The entry columns a new entry is inserted with. */
function entryRow({ input, entryId }: NewEntry): NewEntryRow {
  return {
    id: entryId,
    kind: input.kind,
    scopeId: input.scopeId,
    name: input.name.trim(),
    category: input.category ?? null,
    priority: input.kind === 'GUIDELINE' ? (input.priority ?? LIMITS.priority.default) : null,
    createdBy: input.author ?? null,
    memoryType: input.memoryType ?? DEFAULT_MEMORY_TYPE[input.kind],
    importance: input.importance ?? DEFAULT_IMPORTANCE,
  };
}

/**
 * The statements that insert new entries with version 1, their tags (creating free-form ones) and
 * their search text, and point each entry at its version. Ids are made here, so nothing needs to
 * be read back and the statements run as one batch. An unknown scope fails as a foreign-key
 * violation, a taken name as a unique violation.
 */
function newEntryStatements(provider: Provider, items: readonly NewEntry[], at: Date): Prisma.Sql[] {
  const statements = [
    insertEntriesSql(provider, items.map(entryRow), at),
    insertVersionsSql(
      provider,
      items.map(({ input, entryId, versionId }) => ({
        id: versionId,
        entryId,
        kind: input.kind,
        version: 1,
        fields: versionFields(input.kind, input.version, null),
        changeReason: null,
        conflictFlag: false,
        createdAt: at,
        createdBy: input.author ?? null,
      })),
    ),
  ];
  // Up to 50 tags an entry: the rows of the tags and of the links are listed TAG_ROWS_PER_STATEMENT at a time.
  const tagNames = [...new Set(items.flatMap((item) => item.tags))];
  for (const names of chunked(tagNames, TAG_ROWS_PER_STATEMENT)) {
    statements.push(insertTagsSql(names.map((name) => ({ id: uuidv7(), name })), at));
  }
  const links = items.flatMap(({ tags, entryId }) => tags.map((name) => ({ entryId, name })));
  for (const some of chunked(links, TAG_ROWS_PER_STATEMENT)) statements.push(linkTagsSql(provider, some, at));
  statements.push(
    indexSql(items.map(({ input, entryId, body }) => ({ entryId, name: input.name.trim(), body }))),
    // The entry points at its version and carries its expiry (what queries filter on).
    items.length === 1
      ? Prisma.sql`UPDATE "Entry" SET "currentVersionId" = ${items[0]!.versionId}, "validUntil" = ${validUntilOf(items[0]!.input)}
          WHERE "id" = ${items[0]!.entryId}`
      : Prisma.sql`UPDATE "Entry" SET "currentVersionId" = (
          SELECT v."id" FROM "EntryVersion" v WHERE v."entryId" = "Entry"."id" AND v."version" = 1), "validUntil" = (
          SELECT v."validUntil" FROM "EntryVersion" v WHERE v."entryId" = "Entry"."id" AND v."version" = 1)
        WHERE "id" IN (${Prisma.join(items.map((item) => item.entryId))})`,
  );
  return statements;
}

/** A new entry's expiry: knowledge may have one. */
function validUntilOf(input: AddEntryInput): Date | null {
  return input.kind === 'KNOWLEDGE' ? (input.version.validUntil ?? null) : null;
}

function createdEvents(items: readonly NewEntry[]): PendingEvent[] {
  return items.map(({ input, entryId, versionId }) => ({
    topic: 'entryChanged',
    payload: { type: 'CREATED', entryId, kind: input.kind, scopeId: input.scopeId, versionId, actor: input.author ?? null },
  }));
}

/** Creates the entry, its version 1 and its tag links in one transaction. */
export async function addEntry(deps: WriteDeps, input: AddEntryInput): Promise<Entry> {
  const { kind } = input;
  const c = new Checker();
  const tags = checkNewEntry(c, input);
  c.done();
  const name = input.name.trim();
  const item: NewEntry = { input, tags, entryId: uuidv7(), versionId: uuidv7(), body: searchBody(input.version) };
  const at = new Date();
  const entry: Omit<Entry, 'nameShared'> = {
    ...entryRow(item),
    active: true,
    latestVersion: 1,
    currentVersionId: item.versionId,
    validUntil: validUntilOf(item.input),
    accessCount: 0,
    lastAccessedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await writeNewEntry(deps, newEntryStatements(deps.provider, [item], at), createdEvents([item]), entry);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AlreadyExistsError(
        `This scope already has a ${LABEL[kind]} ${NAME_FIELD[kind] === 'title' ? 'titled' : 'named'} "${name}"`,
        ['input', NAME_FIELD[kind]],
      );
    }
    if (isForeignKeyViolation(error)) {
      await assertWritableScope(deps.db, input.scopeId, ['input', 'scope']);
    }
    throw error;
  }
  // Not read back: whether another entry shares the name is the triggers' to mark, and only queries
  // read the mark (from the column). The audit row above leaves it out.
  return { ...entry, nameShared: false };
}

/**
 * Writes a new entry's statements: one batch, or, for a guarded (fenced) write, the same statements
 * in a transaction that runs the guard first (a batch cannot check before it writes). The guarded
 * path leaves the audit row to the audit plugin, which writes it when no batch carried it.
 */
async function writeNewEntry(deps: WriteDeps, statements: Prisma.Sql[], events: PendingEvent[], entry: unknown): Promise<void> {
  if (!deps.guard) {
    await writeBatch(deps, statements, events, { audit: { result: entry } });
    return;
  }
  await writeTransaction(deps, async (tx, emit) => {
    for (const statement of statements) await tx.$executeRaw(statement);
    for (const event of events) emit(event);
  });
}

/** Entries per statement in `addEntries` (bounded by SQL parameter limits). */
export const BULK_BATCH = 400;

/**
 * Tags, or tag links, per statement of a bulk write: 3 values a tag row, 2 a link, so a statement
 * stays under SQLite's 32,766. A statement of BULK_BATCH entries with 50 tags each listed 20,000
 * of them (60,000 values), which SQLite refused ("too many SQL variables", an unexpected error).
 */
const TAG_ROWS_PER_STATEMENT = 5_000;

/**
 * What a tag of a new entry weighs, in characters of text, when a bulk write is cut in parts
 * (a tag row, a link's row with its indexes and trigger, and its token in the entry's full-text
 * row). Tags weighed nothing until 2026-12-02: 1,000 entries of 50 new tags each, a few words of
 * text, held SQLite's event loop up to ~360 ms a part (400 entries, 20,000 links).
 */
export const TAG_LINK_CHARS = 32;

/** By kind, then name as stored (code units: the same order in every process). */
function compareNames(a: AddEntryInput, b: AddEntryInput): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  const [x, y] = [a.name.trim(), b.name.trim()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Adds many entries, each with version 1, its tags and its search text, in one transaction of a
 * few multi-row statements per BULK_BATCH entries. All inputs are validated before anything is
 * written; a duplicate name or an unknown scope fails the whole call. Returns the new entry ids in
 * input order.
 */
export async function addEntries(deps: WriteDeps, inputs: readonly AddEntryInput[]): Promise<string[]> {
  const c = new Checker();
  const checked = inputs.map((input, i) => {
    const each = new Checker();
    const tags = checkNewEntry(each, input);
    for (const issue of each.issues) c.fail(['input', 'entries', String(i), ...issue.path.slice(1)], issue.message);
    return { input, tags };
  });
  c.done();
  // Search bodies only for valid inputs, as addEntry builds its own.
  const items: NewEntry[] = checked.map(({ input, tags }) => ({ input, tags, entryId: uuidv7(), versionId: uuidv7(), body: searchBody(input.version) }));
  // Multi-row statements of at most BULK_BATCH entries each, all in one transaction, in the order
  // of kind and name: each new entry takes its name's "EntryName" row (see the migration
  // name_shared), and writers that take rows in one order never wait on each other in a cycle
  // (PostgreSQL would find the deadlock only after a second and retry the loser).
  const ordered = [...items].sort((a, b) => compareNames(a.input, b.input));
  const statements: Prisma.Sql[] = [];
  // On SQLite the event loop turns between two parts: 1,000 entries held it ~90 ms (median of 7,
  // 64-137), each part of 400 now ~30-40. It turns between building two parts, too: building the
  // statements of 1,000 (~10-20 ms) was held with the validation and the write's first part.
  const turnsBefore: number[] = [];
  const at = new Date();
  // A part ends early at TEXT_CHARS_PER_LIST of text (the full-text index's work on SQLite), a
  // tag weighing as TAG_LINK_CHARS of it.
  const parts = chunkedWithin(ordered, (item) => item.input.name.length + item.body.length + item.tags.length * TAG_LINK_CHARS, TEXT_CHARS_PER_LIST, BULK_BATCH);
  await eachOf(parts, async (part) => {
    if (statements.length > 0) turnsBefore.push(statements.length);
    statements.push(...newEntryStatements(deps.provider, part, at));
  });
  try {
    await writeBatch(deps, statements, createdEvents(items), { turnsBefore });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError('An entry of this input already exists in its scope', ['input']);
    if (isForeignKeyViolation(error)) {
      for (const scopeId of new Set(inputs.map((input) => input.scopeId))) await assertWritableScope(deps.db, scopeId, ['input', 'scope']);
    }
    throw error;
  }
  // A large write can leave the planner's statistics, and the plans made from them, far behind.
  if (items.length >= STATISTICS_AFTER) await refreshStatistics(deps.db, deps.provider);
  return items.map((item) => item.entryId);
}

/** Entries one bulk write adds past which planner statistics are refreshed (see refreshStatistics). */
const STATISTICS_AFTER = 1_000;

export interface UpdateEntryInput {
  kind: EntryKind;
  id: string;
  category?: string | null;
  priority?: number | null;
  memoryType?: MemoryType | null;
  importance?: number | null;
  version: VersionFields;
  changeReason?: string | null;
  author?: string | null;
  /** The version the writer based its change on. */
  expectedVersion?: number | null;
  /** KEEP_BOTH (default) writes a flagged version on conflict; REJECT refuses the write. */
  onConflict?: 'KEEP_BOTH' | 'REJECT' | null;
  /**
   * The entry with its current version as this request already read it (the access rule's read,
   * entry-read.ts), to decide on instead of reading again: one round trip less. Used only when no
   * write of the entry is in line in this process; a row that is stale all the same (another
   * instance wrote in between) fails the batch's guard, and the update takes the locking path.
   */
  read?: EntryRead;
  /**
   * The scope the caller's access was decided on (the rule read it from the entry): the write goes
   * ahead only while the entry is still there, else `EntryMovedError` (the caller decides again).
   */
  scopeId?: string | null;
}

/** The entry left the scope its write was allowed on (a session ended and promoted it) before the write took its lock. */
export class EntryMovedError extends Error {
  constructor(readonly entryId: string) {
    super('The entry moved to another scope while its write was decided');
  }
}

export interface EntryWithVersion {
  entry: Entry;
  version: EntryVersion | null;
}

/** A read of an entry with its current version, and the entry's write mark (transaction.ts) when it was read. */
export interface EntryRead {
  row: Promise<EntryWithVersion | null>;
  mark: number;
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
  // Else the update wrote a version identical to the current one: a new version number, a new
  // time (which resets its decay), a conflict with a concurrent writer, for a request that most
  // likely forgot its change.
  if (namesNothing(input)) c.fail(['input'], 'names nothing to change: give a field of the entry or of its version');
  c.done();
  // A write of this entry that joined the line since the request's read makes the row stale by this one's turn.
  const read = input.read?.mark === writeMark(deps.db, input.id) ? input.read.row : undefined;
  return serializedPerKey(deps.db, input.id)(async () => {
    // A guarded (fenced) write takes the locking path: the single-batch one cannot check first.
    const result =
      (deps.guard ? null : await optimisticUpdate(deps, input, read)) ?? (await writeTransaction(deps, (tx, emit) => appendVersion(tx, emit, deps, input, true)));
    // Kept before the next writer in line starts: it, and later updates, skip their read (known-rows.ts).
    rememberWritten(deps.db, { entry: result.entry, version: result.version });
    return result;
  });
}

/** Whether an update gives no field of the entry or its version (a null given, to clear one, counts). */
function namesNothing(input: UpdateEntryInput): boolean {
  const given: unknown[] = [input.category, input.priority, input.memoryType, input.importance, ...Object.values(input.version as Record<string, unknown>)];
  return given.every((value) => value === undefined);
}

/** Everything one update writes, decided from the entry (already at its new version number) and its current version. */
interface VersionPlan {
  result: UpdateEntryResult;
  events: PendingEvent[];
  /** The entry the plan started from (its version number already counting the new version). */
  before: Entry;
}

function planVersion(
  settings: WriteSettings,
  input: UpdateEntryInput,
  detectConflicts: boolean,
  /** The entry with `latestVersion` already counting the new version. */
  bumped: Entry,
  current: EntryVersion | null,
  at: Date,
): VersionPlan {
  const { kind } = input;
  const author = input.author ?? null;
  const previous = bumped.latestVersion - 1;
  if (input.expectedVersion != null && input.expectedVersion > previous) {
    const v = new Checker();
    v.fail(['input', 'expectedVersion'], `must be an existing version (the entry is at version ${previous})`);
    v.done();
  }
  const conflicted = detectConflicts && current !== null && conflictsWith(settings, input, current, previous, at);
  const fields = versionFields(kind, input.version, current);
  const version: EntryVersion = {
    ...(fields as Pick<EntryVersion, VersionColumn>),
    id: uuidv7(),
    entryId: bumped.id,
    kind,
    version: bumped.latestVersion,
    changeReason: input.changeReason ?? null,
    conflictFlag: conflicted,
    createdAt: at,
    createdBy: author,
  };
  const entry: Entry = {
    ...bumped,
    currentVersionId: version.id,
    validUntil: version.validUntil,
    category: input.category !== undefined ? input.category : bumped.category,
    priority: input.priority != null ? input.priority : bumped.priority,
    memoryType: input.memoryType ?? bumped.memoryType,
    importance: input.importance ?? bumped.importance,
    updatedAt: at,
  };
  const events: PendingEvent[] = [
    { topic: 'entryChanged', payload: { type: 'UPDATED', entryId: entry.id, kind: entry.kind, scopeId: entry.scopeId, versionId: version.id, actor: author } },
  ];
  const conflict = conflicted && current ? conflictBetween(current, version, at) : null;
  if (conflict) {
    events.push({ topic: 'conflict', payload: { type: 'DETECTED', conflictId: conflict.id, entryId: entry.id, scopeId: entry.scopeId } });
  }
  return { result: { entry, version, conflictWith: conflicted ? current : null, conflict }, events, before: bumped };
}

/**
 * Whether an update of the entry at version `previous` conflicts with its `current` version: it
 * expected an older version, or (without an expected version) another author wrote the current one
 * within the conflict window. Throws when the update conflicts and asked to be rejected then
 * (onConflict REJECT).
 */
function conflictsWith(settings: WriteSettings, input: UpdateEntryInput, current: EntryVersion, previous: number, at: Date): boolean {
  const author = input.author ?? null;
  const conflicted =
    input.expectedVersion != null
      ? input.expectedVersion < previous
      : // Writers are told apart by author; an anonymous write cannot be told apart from any other.
        current.createdBy !== null && author !== null && current.createdBy !== author && at.getTime() - current.createdAt.getTime() < settings.conflictWindowMs;
  if (conflicted && input.onConflict === 'REJECT') {
    throw new WriteConflictError(
      input.expectedVersion != null
        ? `The entry is at version ${previous}, past the expected version ${input.expectedVersion}`
        : `Version ${previous} was written by another writer ${at.getTime() - current.createdAt.getTime()} ms ago`,
      input.kind,
      current.id,
      previous,
      ['input', input.expectedVersion != null ? 'expectedVersion' : 'id'],
    );
  }
  return conflicted;
}

/** The unresolved conflict between the entry's current version and the new one. */
function conflictBetween(current: EntryVersion, version: EntryVersion, at: Date): Conflict {
  return {
    id: uuidv7(),
    entryId: version.entryId,
    versionAId: current.id,
    versionBId: version.id,
    detectedAt: at,
    resolved: false,
    resolution: null,
    note: null,
    resolvedAt: null,
    resolvedBy: null,
    resolutionVersionId: null,
  };
}

/**
 * The statements that write a plan. With `expectLatest` (the optimistic path) every statement is
 * guarded: the new version is inserted, and the entry moved to it, only while the entry is still
 * at that version number and in a writable scope, so a writer that lost a race writes nothing.
 */
function versionStatements(provider: Provider, { result, before }: VersionPlan, expectLatest: number | null): Prisma.Sql[] {
  const { entry, version, conflict } = result;
  const changed = changedColumns(before, entry);
  const row: NewVersionRow = {
    id: version.id,
    entryId: version.entryId,
    kind: version.kind,
    version: version.version,
    fields: Object.fromEntries(VERSION_COLUMNS.map((c) => [c, version[c]])) as Record<VersionColumn, unknown>,
    changeReason: version.changeReason,
    conflictFlag: version.conflictFlag,
    createdAt: version.createdAt,
    createdBy: version.createdBy,
  };
  const written = Prisma.sql`EXISTS (SELECT 1 FROM "EntryVersion" w WHERE w."id" = ${version.id})`;
  // The entry is still as the plan found it: at that version (every change of content or name
  // bumps it), in that scope (what access was decided on), active or not (the answer says which).
  const guard =
    expectLatest === null
      ? null
      : Prisma.sql`EXISTS (SELECT 1 FROM "Entry" g WHERE g."id" = ${entry.id} AND g."latestVersion" = ${expectLatest}
          AND g."scopeId" = ${entry.scopeId} AND g."active" = ${entry.active} AND ${scopeTakesWritesSql(Prisma.raw('g."scopeId"'))})`;
  const statements = [
    insertVersionsSql(provider, [row], guard),
    expectLatest === null
      ? Prisma.sql`UPDATE "Entry" SET "currentVersionId" = ${version.id}${changed} WHERE "id" = ${entry.id}`
      : Prisma.sql`UPDATE "Entry" SET "latestVersion" = ${version.version}, "updatedAt" = ${entry.updatedAt}, "currentVersionId" = ${version.id}${changed}
          WHERE "id" = ${entry.id} AND "latestVersion" = ${expectLatest} AND ${written}`,
    indexSql([{ entryId: entry.id, name: entry.name, body: searchBody(version) }], expectLatest === null ? null : written),
  ];
  if (conflict) {
    statements.push(Prisma.sql`INSERT INTO "Conflict" ("id", "entryId", "versionAId", "versionBId", "detectedAt", "resolved")
      SELECT ${conflict.id}, ${conflict.entryId}, ${conflict.versionAId}, ${conflict.versionBId}, ${timestampSql(provider, conflict.detectedAt)}, ${false}
      ${expectLatest === null ? Prisma.empty : Prisma.sql`WHERE ${written}`}`);
  }
  return statements;
}

/**
 * `, "column" = value` for each of the entry's columns besides its version that the plan changed.
 * SQLite rewrites every index over a column an UPDATE sets, whether its value changed or not (and
 * the tag links' copies of the entry, by trigger): an update that set them all, as it once did,
 * rewrote the (scopeId, kind, priority) and (kind, category) indexes each time (measured at 100K,
 * 2026-11-30: 15 pages written to the WAL per update of the entry's row, 8.9 setting what changed
 * with the triggers of migration tag_copies_updated_at).
 */
function changedColumns(before: Entry, after: Entry): Prisma.Sql {
  const sets: Prisma.Sql[] = [];
  // A column that compares unequal is set, as every one once was (a raw row may carry a date as text).
  const time = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());
  // Stryker disable ConditionalExpression: equivalent when it sets a column that did not change (written as before, only slower); a changed column left out is killed (test/entry-tag-copies.test.ts)
  if (time(before.validUntil) !== time(after.validUntil)) sets.push(Prisma.sql`"validUntil" = ${after.validUntil}`);
  if (before.category !== after.category) sets.push(Prisma.sql`"category" = ${after.category}`);
  if (before.priority !== after.priority) sets.push(Prisma.sql`"priority" = ${after.priority}`);
  if (before.memoryType !== after.memoryType) sets.push(Prisma.sql`"memoryType" = ${after.memoryType}`);
  if (before.importance !== after.importance) sets.push(Prisma.sql`"importance" = ${after.importance}`);
  // Stryker restore ConditionalExpression
  return sets.length ? Prisma.sql`, ${Prisma.join(sets, ', ')}` : Prisma.empty;
}

/**
 * An uncontended update in one round trip: read the entry and its current version, decide, then
 * write in one batch whose statements only apply while the entry is still where it was read. Null
 * when the entry moved in between (or is unknown or read-only): the caller then takes the locking
 * path, which also says why.
 */
async function optimisticUpdate(deps: WriteDeps, input: UpdateEntryInput, read?: Promise<EntryWithVersion | null>): Promise<UpdateEntryResult | null> {
  // A caller that decided access on a scope (which the batch checks again) may take a kept row.
  const found = (await read) ?? (input.scopeId != null ? knownRow(deps.db, input.id, true) : undefined) ?? (await readEntryWithVersion(deps.db, input.id));
  if (found?.entry.kind !== input.kind) return null;
  const { entry, version } = found;
  const at = new Date();
  const plan = planVersion(deps.settings, input, true, { ...entry, latestVersion: entry.latestVersion + 1 }, version, at);
  try {
    // The audit row goes in only if the entry now points at this version (the guard held).
    const wrote = Prisma.sql`EXISTS (SELECT 1 FROM "Entry" WHERE "id" = ${entry.id} AND "currentVersionId" = ${plan.result.version.id})`;
    const counts = await writeBatch(deps, versionStatements(deps.provider, plan, entry.latestVersion), plan.events, {
      eventsIf: wrote,
      audit: { result: plan.result, onlyIf: wrote },
    });
    if (counts[1] === 1) return plan.result;
    // The row decided on was stale: whether kept or just read, it is not kept any longer.
    forgetRow(deps.db, entry.id);
    if (counts[0] === 1) {
      // The version went in but the entry had moved on before it could point at it (a race
      // PostgreSQL's unique version number should already prevent): take the stray row out.
      await deps.db.$executeRaw`DELETE FROM "EntryVersion" WHERE "id" = ${plan.result.version.id}
        AND NOT EXISTS (SELECT 1 FROM "Entry" WHERE "currentVersionId" = ${plan.result.version.id})`;
    }
    return null;
  } catch (error) {
    // A concurrent writer took the same version number first; or deleted the entry after the
    // batch's guard saw it (PostgreSQL checks the version's foreign key at the statement's end:
    // INTERNAL_SERVER_ERROR for ~1 update in 25 racing deletes of the entry). The locking path
    // reads the entry under its lock and says what happened.
    if (isUniqueViolation(error) || isForeignKeyViolation(error)) {
      forgetRow(deps.db, entry.id);
      return null;
    }
    throw error;
  }
}

/**
 * A version's columns under `v_` names. JSON columns come as text and are parsed here: Prisma
 * cannot read a raw JSON column holding a bare number (SQLite stores one as an INTEGER), while a
 * version's `examples` may be any JSON value.
 */
const VERSION_SELECT = Prisma.raw(
  Object.entries(VERSION_COLUMN_TYPES)
    .map(([k, type]) => (type === 'json' ? `CAST(v."${k}" AS TEXT) AS "v_${k}"` : `v."${k}" AS "v_${k}"`))
    .join(', '),
);

/** What Pothos asks of an entry for a selection of its own fields (and their resolvers') only. */
const ENTRY_ONLY = {};

/** Whether `query` asks for the entries' own columns only (which a ranked page can carry: `entryOfColumns`). */
export function asksOwnColumnsOnly(query: EntryQuery): boolean {
  return isDeepStrictEqual(query, ENTRY_ONLY);
}

/** Every column of "Entry" by how a raw read gives it back (SQLite: booleans as 0/1, times as text). */
const ENTRY_COLUMN_TYPES = {
  id: 'text',
  kind: 'text',
  scopeId: 'text',
  name: 'text',
  category: 'text',
  priority: 'number',
  active: 'boolean',
  latestVersion: 'number',
  memoryType: 'text',
  importance: 'number',
  accessCount: 'number',
  lastAccessedAt: 'time',
  validUntil: 'time',
  nameShared: 'boolean',
  currentVersionId: 'text',
  createdAt: 'time',
  createdBy: 'text',
  updatedAt: 'time',
} as const satisfies Record<keyof Entry, ColumnType>;

/** The columns of "Entry" e, each as `<prefix><column>`, for `entryOfColumns` (e.g. in a ranked page). */
export function entryColumnsSql(prefix: string): Prisma.Sql {
  return Prisma.raw(Object.keys(ENTRY_COLUMN_TYPES).map((column) => `e."${column}" AS "${prefix}${column}"`).join(', '));
}

/** The entry in a raw row's `<prefix><column>` columns, typed as Prisma's client types it. */
export function entryOfColumns(row: object, prefix: string): Entry {
  return typedRow<Entry>(row, ENTRY_COLUMN_TYPES, prefix);
}

/** The selection most reads of entries make (`entry(id:)` of a client): the entries with their current versions. */
const WITH_CURRENT_VERSION = { include: { currentVersion: true } };
/** What Pothos' plugin-prisma asks to load of an entry for a request's selection. */
export type EntryQuery = { include?: Prisma.EntryInclude; select?: Prisma.EntrySelect };

/** One entry with what `query` includes, as `findEntries` reads it; null when there is none. */
export async function findEntry(db: Db, id: string, query: EntryQuery) {
  return (await findEntries(db, [id], query))[0] ?? null;
}

/**
 * Entries by id (in no order) with what `query` (the selection Pothos made of the request)
 * includes: `entry(id:)`, the page of a memoryQuery or context. The entries alone, or with their
 * current versions, come from one raw statement; Prisma's client took ~0.9 ms for an entry with
 * its version (two statements; a round trip more on PostgreSQL) against ~0.4, and ~0.9 against
 * ~0.6 ms for a page of 20, on SQLite. Any other selection goes through Prisma's client.
 */
export async function findEntries(db: Db, ids: readonly string[], query: EntryQuery) {
  if (ids.length === 0) return [];
  // An entry without a current version is not there yet (an import in progress, or one that was
  // interrupted, writes it last): it is not found, rather than failing (currentVersion is never null).
  if (asksOwnColumnsOnly(query)) {
    const rows = await directRead<object>(db, Prisma.sql`SELECT * FROM "Entry" WHERE "id" IN (${Prisma.join(ids)}) AND "currentVersionId" IS NOT NULL`);
    return rows.map((row) => entryOfColumns(row, ''));
  }
  if (!isDeepStrictEqual(query, WITH_CURRENT_VERSION)) return db.entry.findMany({ ...query, where: { id: { in: [...ids] }, currentVersionId: { not: null } } });
  return (await readEntriesWithVersions(db, ids)).flatMap(({ entry, version }) => (version ? [{ ...entry, currentVersion: version }] : []));
}

/** An entry with its current version, in one statement; null when there is none. */
export async function readEntryWithVersion(db: Db, id: string): Promise<EntryWithVersion | null> {
  return (await readEntriesWithVersions(db, [id]))[0] ?? null;
}

/** Entries (those of `ids` that exist, in no order) with their current versions, in one statement. */
async function readEntriesWithVersions(db: Db, ids: readonly string[]): Promise<EntryWithVersion[]> {
  // Kept for a write of them that may follow (known-rows.ts).
  return readAndRemember(db, ids, async () => {
    // Straight to the driver on SQLite (~0.15 ms less than through Prisma's raw query, measured).
    const rows = await directRead<object>(
      db,
      Prisma.sql`SELECT e.*, ${VERSION_SELECT} FROM "Entry" e LEFT JOIN "EntryVersion" v ON v."id" = e."currentVersionId"
      WHERE e."id" IN (${Prisma.join(ids)})`,
    );
    return rows.map(splitVersion);
  });
}

/** A row of an entry's columns and its version's under `v_` names (VERSION_SELECT), typed. */
function splitVersion(row: object): EntryWithVersion {
  const version = typedRow<EntryVersion>(row, VERSION_COLUMN_TYPES, 'v_');
  return { entry: entryOfColumns(row, ''), version: version.id ? version : null };
}

/** A version by id, read in the caller's transaction (JSON columns as in `splitVersion`). */
async function readVersion(tx: Tx, id: string): Promise<EntryVersion | null> {
  const [row] = await tx.$queryRaw<object[]>`SELECT ${VERSION_SELECT} FROM "EntryVersion" v WHERE v."id" = ${id}`;
  return row ? typedRow<EntryVersion>(row, VERSION_COLUMN_TYPES, 'v_') : null;
}

/**
 * The write of `updateEntry` under the entry's lock, inside the caller's transaction;
 * `detectConflicts` is false for writes that settle a conflict themselves (resolutions).
 */
export async function appendVersion(
  tx: Tx,
  emit: Emit,
  { provider, settings }: Pick<WriteDeps, 'provider' | 'settings'>,
  input: UpdateEntryInput,
  detectConflicts: boolean,
): Promise<UpdateEntryResult> {
  const at = new Date();
  const locked = await lockForNewVersion(tx, input.id, input.kind, at);
  if (input.scopeId != null && locked.scopeId !== input.scopeId) throw new EntryMovedError(input.id);
  const current = locked.currentVersionId ? await readVersion(tx, locked.currentVersionId) : null;
  const plan = planVersion(settings, input, detectConflicts, locked, current, at);
  for (const statement of versionStatements(provider, plan, null)) await tx.$executeRaw(statement);
  for (const event of plan.events) emit(event);
  return plan.result;
}

/** Bumps `latestVersion` (taking the entry's write lock) and returns the entry as updated. */
async function lockForNewVersion(tx: Tx, id: string, kind: EntryKind, at: Date): Promise<Entry> {
  const [entry] = await tx.$queryRaw<Entry[]>`UPDATE "Entry" SET "latestVersion" = "latestVersion" + 1, "updatedAt" = ${at}
    WHERE "id" = ${id} AND "kind" = ${kind}
      AND ${scopeTakesWritesSql(Prisma.raw('"Entry"."scopeId"'))}
    RETURNING *`;
  if (entry) return entry;
  // Unknown, of another kind, or in an archived session: say which.
  const found = await tx.entry.findUnique({ where: { id }, select: { kind: true } });
  if (!found || found.kind !== kind) throw new NotFoundError(`No ${LABEL[kind]} has this id`, ['input', 'id']);
  throw archivedError(['input', 'id']);
}

/** Soft delete (`active = false`) or undo it. Idempotent: no change, no event. */
export async function setEntryActive(deps: WriteDeps, id: string, active: boolean, actor: string | null): Promise<Entry> {
  const changed = await writeTransaction(deps, async (tx, emit) => {
    await writableEntry(tx, id, ['input', 'id']);
    const { count } = await tx.entry.updateMany({ where: { id, active: !active }, data: { active } });
    const entry = await tx.entry.findUniqueOrThrow({ where: { id } });
    if (count > 0) {
      emit({
        topic: 'entryChanged',
        payload: { type: active ? 'REACTIVATED' : 'DEACTIVATED', entryId: id, kind: entry.kind, scopeId: entry.scopeId, versionId: null, actor },
      });
    }
    return entry;
  });
  // A kept row says the old flag: the next update would send a batch only to see it fail.
  forgetRow(deps.db, id);
  return changed;
}
