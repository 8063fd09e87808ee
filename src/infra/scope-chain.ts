import { Prisma } from '../generated/sqlite/client.ts';
import type { Tx } from './database.ts';

/**
 * A scope's id followed by its ancestors' up to global, nearest first; null when there is no such
 * scope. The tree is at most four levels deep, so one statement joining three parents reaches
 * the root.
 */
export async function scopeChainIds(db: Tx, scopeId: string): Promise<string[] | null> {
  const [chain] = await scopeChainsOf(db, [scopeId]);
  return chain ?? null;
}

/** scopeChainIds for many scopes in one statement, in the order asked (null for unknown ids). */
export async function scopeChainsOf(db: Tx, scopeIds: readonly string[]): Promise<Array<string[] | null>> {
  const rows = await db.$queryRaw<Array<{ s0: string; s1: string | null; s2: string | null; s3: string | null }>>`
    SELECT s0."id" AS s0, s1."id" AS s1, s2."id" AS s2, s3."id" AS s3
    FROM "Scope" s0
    LEFT JOIN "Scope" s1 ON s1."id" = s0."parentId"
    LEFT JOIN "Scope" s2 ON s2."id" = s1."parentId"
    LEFT JOIN "Scope" s3 ON s3."id" = s2."parentId"
    WHERE s0."id" IN (${Prisma.join([...scopeIds])})`;
  const byId = new Map(rows.map((r) => [r.s0, [r.s0, r.s1, r.s2, r.s3].filter((id): id is string => id !== null)]));
  return scopeIds.map((id) => byId.get(id) ?? null);
}
