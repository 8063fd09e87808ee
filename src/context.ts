import type { Db } from './infra/database.ts';
import { createLoaders, type Loaders } from './graphql/loaders.ts';

/** Per-request context: read-only after creation. */
export interface Context {
  db: Db;
  /** Who is asking: the `X-Engram-Actor` header; default author of writes. */
  actor: string | null;
  loaders: Loaders;
}

export function createContext(db: Db, request: Request): Context {
  const actor = request.headers.get('x-engram-actor')?.trim().slice(0, 200) || null;
  return { db, actor, loaders: createLoaders(db) };
}
