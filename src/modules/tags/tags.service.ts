import type { Db } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames, normalizeTagName } from '../../domain/validate.ts';
import { Prisma, type Entry, type Tag } from '../../generated/sqlite/client.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { writableEntry } from '../scopes/archived.ts';
import { linkTagsSql } from '../entries/entry-sql.ts';

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
 * Creates the free-form tags among `names` that do not exist yet. A concurrent writer creating
 * the same tag is not an error: the row it commits is the one used.
 */
export function insertTagsSql(names: ReadonlyArray<{ id: string; name: string }>, at: Date): Prisma.Sql {
  const values = names.map((t) => Prisma.sql`(${t.id}, ${t.name}, 'CUSTOM', ${at})`);
  return Prisma.sql`INSERT INTO "Tag" ("id", "name", "category", "createdAt") VALUES ${Prisma.join(values)}
    ON CONFLICT ("name") DO NOTHING`;
}

/** Links tags (by name) to an entry; unknown names become free-form tags. */
export async function attachTags(deps: WriteDeps, entryId: string, names: readonly string[], actor: string | null): Promise<Entry> {
  const c = new Checker();
  const normalized = checkTagNames(c, names, ['input', 'tags']);
  c.done();
  return writeTransaction(deps, async (tx, emit) => {
    const entry = await writableEntry(tx, entryId, ['input', 'entry']);
    let tags: { id: string; name: string }[] = [];
    if (normalized.length > 0) {
      await tx.$executeRaw(insertTagsSql(normalized.map((name) => ({ id: uuidv7(), name })), new Date()));
      tags = await tx.tag.findMany({ where: { name: { in: normalized } }, select: { id: true, name: true } });
    }
    const linked = await tx.entryTag.findMany({
      where: { entryId, tagId: { in: tags.map((t) => t.id) } },
      select: { tagId: true },
    });
    const have = new Set(linked.map((l) => l.tagId));
    const add = tags.filter((t) => !have.has(t.id));
    const total = await tx.entryTag.count({ where: { entryId } });
    if (total + add.length > LIMITS.tagsPerEntry) {
      const v = new Checker();
      v.fail(['input', 'tags'], `an entry may carry at most ${LIMITS.tagsPerEntry} tags`);
      v.done();
    }
    // A concurrent attach of the same tag may have linked it since: that link stands.
    const added = add.length > 0 ? await tx.$executeRaw(linkTagsSql(deps.provider, add.map((t) => ({ entryId, name: t.name })), new Date())) : 0;
    if (added > 0) {
      emit({ topic: 'entryChanged', payload: { type: 'TAGGED', entryId, kind: entry.kind, scopeId: entry.scopeId, versionId: null, actor } });
    }
    return entry;
  });
}

/** Unlinks tags (by name) from an entry; names it does not carry are ignored. */
export async function detachTags(deps: WriteDeps, entryId: string, names: readonly string[], actor: string | null): Promise<Entry> {
  const normalized = [...new Set(names.map(normalizeTagName))];
  return writeTransaction(deps, async (tx, emit) => {
    const entry = await writableEntry(tx, entryId, ['input', 'entry']);
    const { count } = await tx.entryTag.deleteMany({ where: { entryId, tag: { name: { in: normalized } } } });
    if (count > 0) {
      emit({ topic: 'entryChanged', payload: { type: 'UNTAGGED', entryId, kind: entry.kind, scopeId: entry.scopeId, versionId: null, actor } });
    }
    return entry;
  });
}
