import DataLoader from 'dataloader';
import type { Db } from '../../infra/database.ts';
import { Prisma, type Tag } from '../../generated/sqlite/client.ts';

/**
 * The tags of entries, by entry id, in one statement per batch (a join Prisma would split into
 * two). Batches without caching: a subscription's context lives for many deliveries, and cached
 * tags would go stale between them.
 */
export function createTagLoader(db: Db): DataLoader<string, Tag[]> {
  return new DataLoader<string, Tag[]>(
    async (entryIds) => {
      const rows = await db.$queryRaw<Array<Tag & { entryId: string }>>`
        SELECT et."entryId", t.* FROM "EntryTag" et JOIN "Tag" t ON t."id" = et."tagId"
        WHERE et."entryId" IN (${Prisma.join(entryIds)}) ORDER BY t."name"`;
      const byEntry = new Map<string, Tag[]>();
      for (const { entryId, ...tag } of rows) {
        const list = byEntry.get(entryId);
        if (list) list.push(tag);
        else byEntry.set(entryId, [tag]);
      }
      return entryIds.map((id) => byEntry.get(id) ?? []);
    },
    { cache: false, maxBatchSize: 500 },
  );
}
