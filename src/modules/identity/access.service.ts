import DataLoader from 'dataloader';
import type { Db } from '../../infra/database.ts';
import { scopeChainsOf } from '../../infra/scope-chain.ts';
import { TtlCache } from '../../infra/ttl-cache.ts';
import type { Prisma } from '../../generated/sqlite/client.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';
import type { Caller } from './caller.ts';

export const ROLES = ['READ', 'WRITE', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
const RANK: Record<Role, number> = { READ: 1, WRITE: 2, ADMIN: 3 };

export interface AccessSettings {
  /**
   * A principal with a grant anywhere also reads the global scope's own entries (the shared tools
   * and guidelines every agent needs), but nothing else of the tree above its grants. Default true
   * (`GRANTS_READ_GLOBAL`).
   */
  globalReadable: boolean;
}

export const DEFAULT_ACCESS_SETTINGS: AccessSettings = { globalReadable: true };

/** How long one instance reuses a principal's grants; a change made through it is seen at once (`forget`). */
const GRANT_CACHE_MS = 1_000;

/**
 * Principals' grants, shared by the requests and subscriptions of one server instance so that
 * checking every delivered event costs no query. Grants changed through another instance are seen
 * within GRANT_CACHE_MS.
 */
export class GrantCache {
  private readonly grants = new TtlCache<Promise<Map<string, Role>>>(GRANT_CACHE_MS, 10_000);
  private readonly chainEntries = new TtlCache<Promise<string[] | null>>(GRANT_CACHE_MS, 100_000);
  /**
   * Scope chains (a scope and its ancestors), batched and reused for GRANT_CACHE_MS like grants: a
   * project moved through another instance is seen here within that time, through this one at once.
   */
  readonly chains: DataLoader<string, string[] | null>;

  constructor(private readonly db: Db) {
    this.chains = new DataLoader((ids) => scopeChainsOf(db, ids), { maxBatchSize: 500, cacheMap: this.chainEntries });
  }

  of(principalId: string): Promise<Map<string, Role>> {
    return this.grants.getOrLoad(principalId, () =>
      this.db.grant
        .findMany({ where: { principalId }, select: { scopeId: true, role: true } })
        .then((rows) => new Map(rows.map((g) => [g.scopeId, g.role as Role]))),
    );
  }

  /** After grants changed or a scope moved through this instance. */
  forget(): void {
    this.grants.clear();
    this.chainEntries.clear();
  }
}

/** The scopes a caller reads: all of them, or the subtrees of its grants plus single scopes. */
export type ReadableScopes = { all: true } | { all: false; subtrees: string[]; single: string[] };

/**
 * What one caller (one request or one subscription) may read and write. Grants are read once per
 * Access; a scope's ancestors come from a batching loader, so checking a page of objects costs one
 * statement. A grant on a scope covers it and everything below it; roles include the lower ones.
 */
export class Access {
  private grantsOnce: Promise<Map<string, Role>> | undefined;
  private loaded: Map<string, Role> | undefined;
  private readonly chains: DataLoader<string, string[] | null>;
  private readonly db: Db;

  constructor(
    db: Db,
    readonly caller: Caller,
    readonly settings: AccessSettings = DEFAULT_ACCESS_SETTINGS,
    private readonly grantCache: GrantCache = new GrantCache(db),
    chains?: DataLoader<string, string[] | null>,
  ) {
    this.db = db;
    this.chains = chains ?? this.grantCache.chains;
  }

  /** AUTH=off, a local caller in protected mode, in-process code, or ADMIN on the global scope. */
  get everything(): boolean {
    return this.caller.unchecked || this.caller.local || this.caller.principal?.admin === true;
  }

  /** The caller's grants by scope id (empty for a caller without a principal). */
  grants(): Promise<Map<string, Role>> {
    const principalId = this.caller.principal?.id;
    this.grantsOnce ??= principalId
      ? this.grantCache.of(principalId).then((grants) => (this.loaded = grants))
      : Promise.resolve((this.loaded = new Map()));
    return this.grantsOnce;
  }

  /** The same caller's access as of now (grants and chains read again, through the instance's caches). */
  renewed(): Access {
    return new Access(this.db, this.caller, this.settings, this.grantCache, this.chains);
  }

  /** Whether the caller may do anything at all: some grant, or everything. */
  async member(): Promise<boolean> {
    return this.everything || (await this.grants()).size > 0;
  }

  /** The caller's role on a scope (from grants on it or above); null without one or for no such scope. */
  async roleOn(scopeId: string): Promise<Role | null> {
    if (this.everything) return (await this.chainOf(scopeId)) ? 'ADMIN' : null;
    const grants = await this.grants();
    if (grants.size === 0) return null;
    const chain = await this.chainOf(scopeId);
    if (!chain) return null;
    const best = bestRoleAlong(grants, chain);
    if (!best && scopeId === GLOBAL_SCOPE_ID && this.settings.globalReadable) return 'READ';
    return best;
  }

  /**
   * Whether the caller holds `role` on the first scope of `chain` (a scope with its ancestors,
   * nearest first), judged on that chain as given: for a scope that no longer exists, whose chain
   * was read before it was erased.
   */
  async hasOnChain(role: Role, chain: readonly string[]): Promise<boolean> {
    // Stryker disable next-line BooleanLiteral: equivalent, its one caller (subscription delivery) answers for `everything` before asking
    if (this.everything) return true;
    const held = bestRoleAlong(await this.grants(), chain);
    // Stryker disable next-line LogicalOperator: equivalent, its one caller asks for READ, which any role held includes
    return held !== null && RANK[held] >= RANK[role];
  }

  /** A scope's chain; an unknown id is not remembered (it may name a scope created later). */
  private async chainOf(scopeId: string): Promise<string[] | null> {
    const chain = await this.chains.load(scopeId);
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent, it only decides whether an unknown id is remembered for a second, and no caller can name a scope id before the server made it (UUIDv7)
    if (!chain) this.chains.clear(scopeId);
    return chain;
  }

  async has(role: Role, scopeId: string): Promise<boolean> {
    const held = await this.roleOn(scopeId);
    return held !== null && RANK[held] >= RANK[role];
  }

  /** Of a scope chain (nearest first), the scopes the caller reads: what memoryQuery searches. */
  async readableChain(chain: string[]): Promise<string[]> {
    if (this.everything) return chain;
    const readable = await Promise.all(chain.map((id) => this.has('READ', id)));
    return chain.filter((_, i) => readable[i]);
  }

  /** The scopes the caller reads, as grant roots (bounded by the caller's grants, not the tree). */
  async readableScopes(): Promise<ReadableScopes> {
    return this.everything ? { all: true } : this.readableOf(await this.grants());
  }

  private readableOf(grants: Map<string, Role>): ReadableScopes {
    if (grants.has(GLOBAL_SCOPE_ID)) return { all: true };
    const single = grants.size > 0 && this.settings.globalReadable ? [GLOBAL_SCOPE_ID] : [];
    return { all: false, subtrees: [...grants.keys()], single };
  }

  /**
   * A Prisma filter for the scopes the caller reads (undefined: all). The tree is four levels deep
   * and a grant on global reads everything, so a granted scope's subtree is itself, its children
   * and its grandchildren.
   */
  async scopeWhere(): Promise<Prisma.ScopeWhereInput | undefined> {
    if (!this.everything) await this.grants();
    return this.scopeWhereNow();
  }

  /**
   * scopeWhere for the synchronous `query` options of nested Prisma fields. The access rules load
   * the grants before any root field resolves, so they are here by the time nested fields run.
   */
  scopeWhereNow(): Prisma.ScopeWhereInput | undefined {
    if (this.everything) return undefined;
    if (!this.loaded) throw new Error('Access.scopeWhereNow before the grants were loaded');
    const readable = this.readableOf(this.loaded);
    if (readable.all) return undefined;
    const { subtrees, single } = readable;
    return {
      OR: [
        { id: { in: [...subtrees, ...single] } },
        { parentId: { in: subtrees } },
        { parent: { parentId: { in: subtrees } } },
      ],
    };
  }
}

/** `where` narrowed to the caller's readable scopes, for rows with a `scope` relation. */
export async function inReadableScope<W extends object>(access: Access, where: W): Promise<W | { AND: [W, { scope: Prisma.ScopeWhereInput }] }> {
  const scope = await access.scopeWhere();
  return scope ? { AND: [where, { scope }] } : where;
}

/** The highest role granted on any scope of a chain (a scope's grants cover what is below it). */
function bestRoleAlong(grants: ReadonlyMap<string, Role>, chain: readonly string[]): Role | null {
  let best: Role | null = null;
  for (const id of chain) {
    const role = grants.get(id);
    if (role && (!best || RANK[role] > RANK[best])) best = role;
  }
  return best;
}
