import type DataLoader from 'dataloader';
import type { Tag } from './generated/sqlite/client.ts';
import { createTagLoader } from './modules/tags/tag-loader.ts';
import type { WriteDeps } from './infra/transaction.ts';
import type { Authenticator, Caller } from './server/authentication.ts';
import { Access, type AccessSettings, type GrantCache } from './modules/identity/access.service.ts';
import { stateGuard, type StateGuard } from './modules/identity/state-access.ts';

/** Per-request (or per-subscription) context; read-only after creation. Services take it as WriteDeps. */
export interface Context extends WriteDeps {
  /** Who is asking: the `X-Engram-Actor` header; default author of writes. */
  actor: string | null;
  /** What the caller may read and write (its grants). */
  access: Access;
  /** Which state keys the caller may read and write. */
  stateGuard: StateGuard;
  /** Batching loaders of this request (or subscription); they do not cache. */
  loaders: { tags: DataLoader<string, Tag[]> };
  /** Who is calling (the API key's principal, or a local caller in protected mode). */
  caller: Caller;
  /** Keys and protected mode; told when keys change. */
  authenticator: Authenticator;
  /** Grants of principals, shared by this instance; told when grants change. */
  grantCache: GrantCache;
  /** Whether the credentials this context was made with still authenticate (open subscriptions ask). */
  stillAuthenticated: () => Promise<Caller | null>;
  /** The principal a service acts for (`X-Engram-Actor` naming another principal), else null. */
  onBehalfOf: string | null;
  /** The caller's network address (null in-process). */
  clientAddress: string | null;
}

export function createContext(
  deps: WriteDeps & { authenticator: Authenticator; access?: AccessSettings; grantCache: GrantCache },
  headers: { get(name: string): string | null },
  caller: Caller,
  clientAddress: string | null = null,
  stillAuthenticated: () => Promise<Caller | null> = async () => caller,
): Context {
  const actor = headers.get('x-engram-actor')?.trim().slice(0, 200) || null;
  const access = new Access(deps.db, caller, deps.access, deps.grantCache);
  const onBehalfOf: string | null = null;
  const actingAs = [caller.principal?.name, onBehalfOf].filter((name): name is string => !!name);
  return {
    db: deps.db,
    provider: deps.provider,
    bus: deps.bus,
    settings: deps.settings,
    actor,
    access,
    stateGuard: stateGuard(access, actingAs),
    loaders: { tags: createTagLoader(deps.db) },
    caller,
    authenticator: deps.authenticator,
    grantCache: deps.grantCache,
    stillAuthenticated,
    onBehalfOf,
    clientAddress,
  };
}
