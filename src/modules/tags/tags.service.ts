import type { Db, Tx } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames, normalizeTagName } from '../../domain/validate.ts';
import type { Entry, Tag } from '../../generated/sqlite/client.ts';

import { writableEntry } from '../scopes/archived.ts';

export const TAG_CATEGORIES = ['LANGUAGE', 'DOMAIN', 'CATEGORY', 'META', 'CUSTOM'] as const;
export type TagCategory = (typeof TAG_CATEGORIES)[number];

export interface CreateTagInput {
  name: string;
  category?: TagCategory | null;
  description?: string | null;
}

export async function createTag(db: Db, input: CreateTagInput): Promise<Tag> {
  const c = new Checker();
  const [name] = checkTagNames(c, [input.name], ['input', 'name']);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.done();
  try {
    return await db.tag.create({
      data: { name: name!, category: input.category ?? 'CUSTOM', description: input.description ?? null },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError(`Tag "${name}" already exists`, ['input', 'name']);
    throw error;
  }
}

/**
 * The tags with these (normalized) names, by name, creating free-form CUSTOM tags for unknown
 * names. Runs inside the caller's transaction.
 */
export async function tagIdsByName(tx: Tx, names: readonly string[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (names.length === 0) return ids;
  const existing = await tx.tag.findMany({ where: { name: { in: [...names] } }, select: { id: true, name: true } });
  for (const tag of existing) ids.set(tag.name, tag.id);
  const missing = [...new Set(names)].filter((n) => !ids.has(n));
  if (missing.length === 0) return ids;
  // A concurrent writer creating the same tag makes this fail with P2002; the caller's
  // transaction rolls back and `withTagRetry` runs it again, then finding the tag.
  const created = await tx.tag.createManyAndReturn({
    data: missing.map((name) => ({ name, category: 'CUSTOM' })),
    select: { id: true, name: true },
  });
  for (const tag of created) ids.set(tag.name, tag.id);
  return ids;
}

/** Ids of the tags with these names (see `tagIdsByName`). */
export async function ensureTags(tx: Tx, names: readonly string[]): Promise<string[]> {
  return [...(await tagIdsByName(tx, names)).values()];
}

/** Runs a transaction that may create tags, once more if a concurrent writer created one first. */
export async function withTagRetry<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error) || !isTagConflict(error)) throw error;
    return run();
  }
}

function isTagConflict(error: unknown): boolean {
  const meta = (error as { meta?: { modelName?: string; target?: unknown } }).meta;
  return meta?.modelName === 'Tag' || JSON.stringify(meta?.target ?? '').includes('name');
}

/** Links tags (by name) to an entry; unknown names become free-form tags. */
export async function attachTags(deps: WriteDeps, entryId: string, names: readonly string[], actor: string | null): Promise<Entry> {
  const c = new Checker();
  const normalized = checkTagNames(c, names, ['input', 'tags']);
  c.done();
  return withTagRetry(() =>
    writeTransaction(deps, async (tx, emit) => {
      const entry = await writableEntry(tx, entryId, ['input', 'entry']);
      const tagIds = await ensureTags(tx, normalized);
      const linked = await tx.entryTag.findMany({
        where: { entryId, tagId: { in: tagIds } },
        select: { tagId: true },
      });
      const have = new Set(linked.map((l) => l.tagId));
      const add = tagIds.filter((id) => !have.has(id));
      const total = await tx.entryTag.count({ where: { entryId } });
      if (total + add.length > LIMITS.tagsPerEntry) {
        const v = new Checker();
        v.fail(['input', 'tags'], `an entry may carry at most ${LIMITS.tagsPerEntry} tags`);
        v.done();
      }
      if (add.length > 0) {
        await tx.entryTag.createMany({ data: add.map((tagId) => ({ entryId, tagId })) });
        emit({ topic: 'entryChanged', payload: { type: 'TAGGED', entryId, scopeId: entry.scopeId, versionId: null, actor } });
      }
      return entry;
    }),
  );
}

/** Unlinks tags (by name) from an entry; names it does not carry are ignored. */
export async function detachTags(deps: WriteDeps, entryId: string, names: readonly string[], actor: string | null): Promise<Entry> {
  const normalized = [...new Set(names.map(normalizeTagName))];
  return writeTransaction(deps, async (tx, emit) => {
    const entry = await writableEntry(tx, entryId, ['input', 'entry']);
    const { count } = await tx.entryTag.deleteMany({ where: { entryId, tag: { name: { in: normalized } } } });
    if (count > 0) {
      emit({ topic: 'entryChanged', payload: { type: 'UNTAGGED', entryId, scopeId: entry.scopeId, versionId: null, actor } });
    }
    return entry;
  });
}
