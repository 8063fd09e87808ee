import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Db } from '../../infra/database.ts';
import { isForeignKeyViolation } from '../../infra/prisma-errors.ts';
import type { Scope } from '../../generated/sqlite/client.ts';
import { scopeChainIds } from '../../infra/scope-chain.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import { MEMORY_TYPES, type MemoryType } from '../entries/memory-types.ts';
import { scopeById } from '../scopes/scopes.service.ts';
import { DECAY } from '../search/relevance.ts';

/** A memory type's lifetimes where a policy sets them (null: no limit). */
export interface Lifetimes {
  ttlHours: number | null;
  retentionDays: number | null;
  /** Hours for an item's decay in relevance to halve (null in a policy: the parent's, else the default). */
  halfLifeHours: number | null;
}

/**
 * What applies where no scope sets a policy (seeds 002 §8, 003): episodic memory is erased after
 * 90 days; semantic and procedural memory is kept; nothing expires by age.
 */
export const DEFAULT_LIFETIMES: Record<MemoryType, Lifetimes> = {
  SEMANTIC: { ttlHours: null, retentionDays: null, halfLifeHours: DECAY.halfLifeHours.SEMANTIC },
  EPISODIC: { ttlHours: null, retentionDays: 90, halfLifeHours: DECAY.halfLifeHours.EPISODIC },
  PROCEDURAL: { ttlHours: null, retentionDays: null, halfLifeHours: DECAY.halfLifeHours.PROCEDURAL },
  PROSPECTIVE: { ttlHours: null, retentionDays: null, halfLifeHours: DECAY.halfLifeHours.PROSPECTIVE },
  WORKING: { ttlHours: null, retentionDays: null, halfLifeHours: DECAY.halfLifeHours.WORKING },
};


const CACHE_MS = 1_000;
const lifetimesOf = ttlCachePer<Db, Promise<Record<MemoryType, Lifetimes>>>(CACHE_MS, 50_000);

/**
 * The lifetimes of each memory type in a scope: per type and per field, the nearest scope of its
 * chain that sets one, else the default. Reused for a second per instance.
 */
export function lifetimesIn(db: Db, scopeId: string): Promise<Record<MemoryType, Lifetimes>> {
  return lifetimesOf(db).getOrLoad(scopeId, () => readLifetimes(db, scopeId));
}

async function readLifetimes(db: Db, scopeId: string): Promise<Record<MemoryType, Lifetimes>> {
  const chain = (await scopeChainIds(db, scopeId)) ?? [];
  const rows = await db.memoryPolicy.findMany({ where: { scopeId: { in: chain } } });
  const nearest = (type: MemoryType, field: keyof Lifetimes): number | null => {
    for (const id of chain) {
      const value = rows.find((r) => r.scopeId === id && r.memoryType === type)?.[field];
      if (value !== null && value !== undefined) return value;
    }
    return DEFAULT_LIFETIMES[type][field];
  };
  const of = (t: MemoryType): Lifetimes => ({ ttlHours: nearest(t, 'ttlHours'), retentionDays: nearest(t, 'retentionDays'), halfLifeHours: nearest(t, 'halfLifeHours') });
  return Object.fromEntries(MEMORY_TYPES.map((t) => [t, of(t)])) as Record<MemoryType, Lifetimes>;
}

/** A lifetime that applies to the entries of one scope and memory type. */
export interface ChainPolicy {
  scopeId: string;
  memoryType: MemoryType;
  hours: number;
}

/** A scope's chain (nearest first) with the lifetimes that apply along it, for memoryQuery. */
export interface ChainWithPolicies {
  chain: string[];
  /** Per scope of the chain: the memory types with a TTL there (its policies' or the default). */
  ttls: ChainPolicy[];
  /** Per scope of the chain: the memory types whose decay half-life a policy sets (the others decay by defaults that depend on the entry). */
  halfLives: ChainPolicy[];
}

type PolicyRow = { s0: string; s1: string | null; s2: string | null; s3: string | null; pScope: string | null; memoryType: string | null; ttlHours: number | null; halfLifeHours: number | null };

const chainsOf = ttlCachePer<Db, Promise<ChainWithPolicies | null>>(CACHE_MS, 50_000);

/**
 * A scope's chain and the policies of its scopes (null for an unknown scope), kept CACHE_MS like
 * the lifetimes and the access layer's chains: this comes before every memoryQuery, where its
 * statement cost ~0.5 ms of a 9 ms text search at 100K entries. A policy set, a project moved or
 * a scope deleted through this instance is seen at once (forgetChains); through another, within
 * CACHE_MS.
 */
export function chainWithPolicies(db: Db, scopeId: string): Promise<ChainWithPolicies | null> {
  return chainsOf(db).getOrLoad(scopeId, () => readChainWithPolicies(db, scopeId));
}

/** After the tree or its policies changed through this instance. */
export function forgetChains(db: Db): void {
  chainsOf(db).clear();
}

/** The chain and its policies in one statement (a second one cost as much again). Each scope's own chain is the rest of this one. */
async function readChainWithPolicies(db: Db, scopeId: string): Promise<ChainWithPolicies | null> {
  const rows = await db.$queryRaw<PolicyRow[]>`
    SELECT s0."id" AS s0, s1."id" AS s1, s2."id" AS s2, s3."id" AS s3,
      p."scopeId" AS "pScope", p."memoryType" AS "memoryType", p."ttlHours" AS "ttlHours", p."halfLifeHours" AS "halfLifeHours"
    FROM "Scope" s0
    LEFT JOIN "Scope" s1 ON s1."id" = s0."parentId"
    LEFT JOIN "Scope" s2 ON s2."id" = s1."parentId"
    LEFT JOIN "Scope" s3 ON s3."id" = s2."parentId"
    LEFT JOIN "MemoryPolicy" p ON p."scopeId" IN (s0."id", s1."id", s2."id", s3."id") AND (p."ttlHours" IS NOT NULL OR p."halfLifeHours" IS NOT NULL)
    WHERE s0."id" = ${scopeId}`;
  const first = rows[0];
  if (!first) return null;
  const chain = [first.s0, first.s1, first.s2, first.s3].filter((id): id is string => id !== null);
  const policies = rows.filter((r) => r.pScope !== null);
  const nearest = (i: number, memoryType: MemoryType, field: 'ttlHours' | 'halfLifeHours') =>
    chain
      .slice(i)
      .map((id) => policies.find((r) => r.pScope === id && r.memoryType === memoryType)?.[field])
      .find((v): v is number => v !== null && v !== undefined);
  const per = (field: 'ttlHours' | 'halfLifeHours', fallback: (t: MemoryType) => number | null) =>
    chain.flatMap((id, i) =>
      MEMORY_TYPES.flatMap((memoryType) => {
        const hours = nearest(i, memoryType, field) ?? fallback(memoryType);
        return hours === null ? [] : [{ scopeId: id, memoryType, hours }];
      }),
    );
  return { chain, ttls: per('ttlHours', (t) => DEFAULT_LIFETIMES[t].ttlHours), halfLives: per('halfLifeHours', () => null) };
}

/** Sets a scope's own lifetimes for a memory type; all null removes its policy (the parent's apply). */
export async function setMemoryPolicy(db: Db, input: { scopeId: string; memoryType: MemoryType } & Lifetimes): Promise<Scope> {
  const issues = [];
  if (input.halfLifeHours !== null && (input.halfLifeHours < 1 || input.halfLifeHours > 1_000_000)) issues.push({ path: ['input', 'halfLifeHours'], message: 'must be between 1 and 1000000' });
  if (input.ttlHours !== null && (input.ttlHours < 1 || input.ttlHours > 1_000_000)) issues.push({ path: ['input', 'ttlHours'], message: 'must be between 1 and 1000000' });
  if (input.retentionDays !== null && (input.retentionDays < 1 || input.retentionDays > 100_000)) issues.push({ path: ['input', 'retentionDays'], message: 'must be between 1 and 100000' });
  if (issues.length) throw new ValidationError(issues);
  // A policy of no scope: NotFound, rather than the foreign key's failure (or nothing, when clearing).
  const scope = await scopeById(db, input.scopeId, ['input', 'scope']);
  const key = { scopeId_memoryType: { scopeId: input.scopeId, memoryType: input.memoryType } };
  if (input.ttlHours === null && input.retentionDays === null && input.halfLifeHours === null) await db.memoryPolicy.deleteMany({ where: { scopeId: input.scopeId, memoryType: input.memoryType } });
  else {
    const data = { ttlHours: input.ttlHours, retentionDays: input.retentionDays, halfLifeHours: input.halfLifeHours };
    await db.memoryPolicy.upsert({ where: key, create: { scopeId: input.scopeId, memoryType: input.memoryType, ...data }, update: data }).catch((error: unknown) => {
      // The scope was deleted since it was read above.
      if (isForeignKeyViolation(error)) throw new NotFoundError('No scope has this id', ['input', 'scope']);
      throw error;
    });
  }
  lifetimesOf(db).clear();
  forgetChains(db);
  return scope;
}
