import type { Prisma } from '../../generated/sqlite/client.ts';

/**
 * Prisma's condition for a scope, or (with `includeDescendants`) for it and every scope below it:
 * the tree is at most four levels deep, so three parent hops reach every descendant.
 */
export function scopeSubtreeWhere(scopeId: string, includeDescendants: boolean | null | undefined): Prisma.ScopeWhereInput {
  return includeDescendants
    ? {
        OR: [
          { id: scopeId },
          { parentId: scopeId },
          { parent: { parentId: scopeId } },
          { parent: { parent: { parentId: scopeId } } },
        ],
      }
    : { id: scopeId };
}
