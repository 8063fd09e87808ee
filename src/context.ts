import type DataLoader from 'dataloader';
import type { AccessTracker } from './modules/entries/access-tracker.ts';
import { LIMITS } from './domain/limits.ts';
import { DEFAULT_RANK_BEST_HITS_FROM } from './config.ts';
import { GraphQLError } from 'graphql';
import { PermissionDeniedError, ValidationError } from './domain/errors.ts';
import { MutationAudit } from './modules/audit/audit.service.ts';
import { bindActor, type BoundActor } from './modules/identity/actors.ts';
import type { Tag } from './generated/sqlite/client.ts';
import { createTagLoader } from './modules/tags/tag-loader.ts';
import type { WriteDeps } from './infra/transaction.ts';
import type { Authenticator, Caller } from './server/authentication.ts';
import { Access, type AccessSettings, type GrantCache } from './modules/identity/access.service.ts';
import { stateGuard, type StateGuard } from './modules/identity/state-access.ts';

/** Per-request (or per-subscription) context; read-only after creation. Services take it as WriteDeps. */
export interface Context extends WriteDeps {
  /** The audit row of the Mutation field being resolved (src/graphql/audit.ts opens it; a write batch may carry it). */
  audit: MutationAudit;
  /**
   * Who writes are recorded as: the `X-Engram-Actor` header (bound to the caller: src/modules/identity/actors.ts),
   * else the caller's own actor name (`agent:<name>`), null for a local caller without the header.
   */
  actor: string | null;
  /**
   * An actor named in an input (`author`, `resolvedBy`), checked like the header; absent, the
   * request's actor. Naming another principal (a service acting for others) sets `onBehalfOf`.
   */
  author(named: string | null | undefined, path: string[]): Promise<string | null>;
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
  /** Counts reads of entries (written in batches). */
  tracker: AccessTracker;
  /** Grants of principals, shared by this instance; told when grants change. */
  grantCache: GrantCache;
  /** Whether the credentials this context was made with still authenticate (open subscriptions ask). */
  stillAuthenticated: () => Promise<Caller | null>;
  /** The principal a service acts for (an actor naming another principal), else null. */
  onBehalfOf: string | null;
  /** The caller's network address (null in-process). */
  clientAddress: string | null;
  /** memoryQuery and context rank every candidate, no shortcut (see MemoryQueryInput.exhaustive). */
  exhaustiveRanking: boolean;
  /** Searchable entries from which a context ranks only its best text hits (see MemoryQueryInput.bestHitsFrom). */
  rankBestHitsFrom: number;
  /**
   * Aborted when the server begins to stop: a request that waits (a checkout's `waitSeconds`)
   * answers then, rather than being cut without an answer when the grace period ends.
   */
  stopping: AbortSignal;
}

/** A signal that never aborts (a context without a server that stops). */
const NEVER = new AbortController().signal;

/** The request is refused when X-Engram-Actor names someone the caller may not act as. */
async function headerActor(db: WriteDeps['db'], caller: Caller, headers: { get(name: string): string | null }): Promise<BoundActor> {
  const named = headers.get('x-engram-actor')?.trim() || null;
  // Refused as an input's author is (it was cut to its first 200 characters unsaid).
  if (named && named.length > LIMITS.author) {
    throw new GraphQLError(`X-Engram-Actor: must be at most ${LIMITS.author} characters (got ${named.length})`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
  }
  try {
    return await bindActor(db, caller, named, ['X-Engram-Actor']);
  } catch (error) {
    if (error instanceof ValidationError) throw new GraphQLError(error.message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
    if (!(error instanceof PermissionDeniedError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
  }
}

export async function createContext(
  deps: WriteDeps & { authenticator: Authenticator; access?: AccessSettings; grantCache: GrantCache; tracker: AccessTracker; exhaustiveRanking?: boolean; rankBestHitsFrom?: number; stopping?: AbortSignal },
  headers: { get(name: string): string | null },
  caller: Caller,
  clientAddress: string | null = null,
  stillAuthenticated: () => Promise<Caller | null> = async () => caller,
): Promise<Context> {
  const bound = await headerActor(deps.db, caller, headers);
  const access = new Access(deps.db, caller, deps.access, deps.grantCache);
  const actingAs = [caller.principal?.name, bound.onBehalfOf].filter((name): name is string => !!name);
  const context: Context = {
    db: deps.db,
    provider: deps.provider,
    bus: deps.bus,
    settings: deps.settings,
    audit: new MutationAudit(),
    actor: bound.actor,
    async author(this: Context, named, path) {
      if (named === null || named === undefined) return context.actor;
      const author = await bindActor(deps.db, caller, named, path);
      // `this`, not `context`: Yoga copies the context this factory returns into the one resolvers
      // get, so only the object `author` is called on is the one they (and the audit log) read.
      this.onBehalfOf ??= author.onBehalfOf;
      return author.actor;
    },
    access,
    stateGuard: stateGuard(access, actingAs),
    loaders: { tags: createTagLoader(deps.db) },
    caller,
    authenticator: deps.authenticator,
    grantCache: deps.grantCache,
    tracker: deps.tracker,
    stillAuthenticated,
    onBehalfOf: bound.onBehalfOf,
    clientAddress,
    exhaustiveRanking: deps.exhaustiveRanking ?? false,
    rankBestHitsFrom: deps.rankBestHitsFrom ?? DEFAULT_RANK_BEST_HITS_FROM,
    stopping: deps.stopping ?? NEVER,
  };
  return context;
}
