import type { Db } from './database.ts';

/**
 * A scope's id followed by its ancestors' up to global, nearest first; null when there is no such
 * scope. The tree is at most four levels deep, so one query with three nested parents reaches
 * the root.
 */
export async function scopeChainIds(db: Db, scopeId: string): Promise<string[] | null> {
  const row = await db.scope.findUnique({
    where: { id: scopeId },
    select: { id: true, parent: { select: { id: true, parent: { select: { id: true, parent: { select: { id: true } } } } } } },
  });
  if (!row) return null;
  const chain: string[] = [];
  for (let s: { id: string; parent?: unknown } | null | undefined = row; s; s = s.parent as typeof s) chain.push(s.id);
  return chain;
}
