import type DataLoader from 'dataloader';
import type { Tag } from './generated/sqlite/client.ts';
import { createTagLoader } from './modules/tags/tag-loader.ts';
import type { WriteDeps } from './infra/transaction.ts';
import type { Authenticator, Caller } from './server/authentication.ts';

/** Per-request (or per-subscription) context; read-only after creation. Services take it as WriteDeps. */
export interface Context extends WriteDeps {
  /** Who is asking: the `X-Engram-Actor` header; default author of writes. */
  actor: string | null;
  /**
   * An elevated caller (`X-Engram-Role: admin`) may write app: and project: state. Taken on trust
   * until the security issue ties roles to identities.
   */
  elevated: boolean;
  /** Batching loaders of this request (or subscription); they do not cache. */
  loaders: { tags: DataLoader<string, Tag[]> };
  /** Who is calling (the API key's principal, or a local caller in protected mode). */
  caller: Caller;
  /** Keys and protected mode; told when keys change. */
  authenticator: Authenticator;
  /** The principal a service acts for (`X-Engram-Actor` naming another principal), else null. */
  onBehalfOf: string | null;
  /** The caller's network address (null in-process). */
  clientAddress: string | null;
}

export function createContext(
  deps: WriteDeps & { authenticator: Authenticator },
  headers: { get(name: string): string | null },
  caller: Caller,
  clientAddress: string | null = null,
): Context {
  const actor = headers.get('x-engram-actor')?.trim().slice(0, 200) || null;
  const elevated = headers.get('x-engram-role')?.trim().toLowerCase() === 'admin' || caller.principal?.admin === true;
  return {
    db: deps.db,
    provider: deps.provider,
    bus: deps.bus,
    settings: deps.settings,
    actor,
    elevated,
    loaders: { tags: createTagLoader(deps.db) },
    caller,
    authenticator: deps.authenticator,
    onBehalfOf: null,
    clientAddress,
  };
}
