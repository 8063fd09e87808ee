import type { Db, Tx } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames } from '../../domain/validate.ts';
import { Prisma, type Entry, type EntryVersion } from '../../generated/sqlite/client.ts';
import { ensureTags, withTagRetry } from '../tags/tags.service.ts';

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

function checkVersion(c: Checker, kind: EntryKind, v: VersionFields, creating: boolean): void {
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

/** Creates the entry, its version 1 and its tag links in one transaction. */
export async function addEntry(db: Db, input: AddEntryInput): Promise<Entry> {
  const { kind } = input;
  const c = new Checker();
  c.text(input.name, ['input', NAME_FIELD[kind]], LIMITS.name, true);
  checkEntry(c, kind, input);
  checkVersion(c, kind, input.version, true);
  c.text(input.author, ['input', 'author'], LIMITS.author);
  const tags = checkTagNames(c, input.tags ?? [], ['input', 'tags']);
  c.done();
  const name = input.name.trim();
  try {
    return await withTagRetry(() =>
      db.$transaction(async (tx) => {
        const scope = await tx.scope.findUnique({ where: { id: input.scopeId }, select: { id: true } });
        if (!scope) throw new NotFoundError('No scope has this id', ['input', 'scope']);
        const entry = await tx.entry.create({
          data: {
            kind,
            scopeId: scope.id,
            name,
            category: input.category ?? null,
            priority: kind === 'GUIDELINE' ? (input.priority ?? LIMITS.priority.default) : null,
            createdBy: input.author ?? null,
            latestVersion: 1,
            versions: {
              create: {
                kind,
                version: 1,
                createdBy: input.author ?? null,
                changeReason: null,
                ...versionData(kind, input.version, null),
              },
            },
          },
          include: { versions: { select: { id: true } } },
        });
        const tagIds = await ensureTags(tx, tags);
        if (tagIds.length > 0) await tx.entryTag.createMany({ data: tagIds.map((tagId) => ({ entryId: entry.id, tagId })) });
        const { versions, ...created } = entry;
        return tx.entry.update({ where: { id: created.id }, data: { currentVersionId: versions[0]!.id } });
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AlreadyExistsError(
        `This scope already has a ${LABEL[kind]} ${NAME_FIELD[kind] === 'title' ? 'titled' : 'named'} "${name}"`,
        ['input', NAME_FIELD[kind]],
      );
    }
    throw error;
  }
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
}

export interface UpdateEntryResult {
  entry: Entry;
  version: EntryVersion;
  /** The version this write conflicted with, when `expectedVersion` was behind. */
  conflictWith: EntryVersion | null;
}

/**
 * Appends a version. Fields left out carry over from the current version. The first statement
 * bumps `latestVersion`, which serializes writers of one entry (row lock on PostgreSQL, the write
 * lock on SQLite) so version numbers stay gapless and unique.
 */
export async function updateEntry(db: Db, input: UpdateEntryInput): Promise<UpdateEntryResult> {
  const { kind } = input;
  const c = new Checker();
  checkEntry(c, kind, input);
  checkVersion(c, kind, input.version, false);
  c.text(input.changeReason, ['input', 'changeReason'], LIMITS.changeReason);
  c.text(input.author, ['input', 'author'], LIMITS.author);
  c.range(input.expectedVersion, ['input', 'expectedVersion'], 1, 2 ** 31 - 1, true);
  c.done();
  return db.$transaction(async (tx) => {
    const locked = await lockForNewVersion(tx, input.id, kind);
    const current = locked.currentVersionId
      ? await tx.entryVersion.findUnique({ where: { id: locked.currentVersionId } })
      : null;
    if (input.expectedVersion != null && input.expectedVersion >= locked.latestVersion) {
      const v = new Checker();
      v.fail(['input', 'expectedVersion'], `must be an existing version (the entry is at version ${locked.latestVersion - 1})`);
      v.done();
    }
    const conflicted = input.expectedVersion != null && input.expectedVersion < locked.latestVersion - 1;
    const version = await tx.entryVersion.create({
      data: {
        entryId: locked.id,
        kind,
        version: locked.latestVersion,
        createdBy: input.author ?? null,
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
    if (conflicted && current) {
      await tx.conflict.create({ data: { entryId: entry.id, versionAId: current.id, versionBId: version.id } });
    }
    return { entry, version, conflictWith: conflicted ? current : null };
  });
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

/** Soft delete (`active = false`) or undo it. Idempotent. */
export async function setEntryActive(db: Db, id: string, active: boolean): Promise<Entry> {
  try {
    return await db.entry.update({ where: { id }, data: { active } });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2025') throw new NotFoundError('No entry has this id', ['input', 'id']);
    throw error;
  }
}
