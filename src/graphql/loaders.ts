import DataLoader from 'dataloader';
import type { Db } from '../infra/database.ts';
import type { Scope } from '../generated/sqlite/client.ts';

/** DataLoaders live for one request; never share them between requests. */
export interface Loaders {
  scope: DataLoader<string, Scope | null>;
}

export function createLoaders(db: Db): Loaders {
  return {
    scope: new DataLoader(async (ids) => {
      const rows = await db.scope.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
