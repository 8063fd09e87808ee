import { ValidationError } from '../../domain/errors.ts';
import type { Db } from '../../infra/database.ts';
import { scopeChainIds } from '../../infra/scope-chain.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import { MEMORY_TYPES, type MemoryType } from '../entries/memory-types.ts';

/** A memory type's lifetimes where a policy sets them (null: no limit). */
export interface Lifetimes {
  ttlHours: number | null;
  retentionDays: number | null;
}

/**
 * What applies where no scope sets a policy (seeds 002 §8, 003): episodic memory is erased after
 * 90 days; semantic and procedural memory is kept; nothing expires by age.
 */
export const DEFAULT_LIFETIMES: Record<MemoryType, Lifetimes> = {
  SEMANTIC: { ttlHours: null, retentionDays: null },
  EPISODIC: { ttlHours: null, retentionDays: 90 },
  PROCEDURAL: { ttlHours: null, retentionDays: null },
  PROSPECTIVE: { ttlHours: null, retentionDays: null },
  WORKING: { ttlHours: null, retentionDays: null },
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
  return Object.fromEntries(MEMORY_TYPES.map((t) => [t, { ttlHours: nearest(t, 'ttlHours'), retentionDays: nearest(t, 'retentionDays') }])) as Record<
    MemoryType,
    Lifetimes
  >;
}

/**
 * Per scope of a chain (nearest first): the memory types with a TTL there, for the query's expiry
 * filter. One statement, every time: each scope's own chain is the rest of this one.
 */
export async function ttlsOfChain(db: Db, chain: readonly string[]): Promise<Array<{ scopeId: string; memoryType: MemoryType; ttlHours: number }>> {
  const rows = await db.memoryPolicy.findMany({ where: { scopeId: { in: [...chain] }, ttlHours: { not: null } }, select: { scopeId: true, memoryType: true, ttlHours: true } });
  return chain.flatMap((scopeId, i) =>
    MEMORY_TYPES.flatMap((memoryType) => {
      const own = chain.slice(i).map((id) => rows.find((r) => r.scopeId === id && r.memoryType === memoryType)?.ttlHours);
      const ttlHours = own.find((v): v is number => v !== null && v !== undefined) ?? DEFAULT_LIFETIMES[memoryType].ttlHours;
      return ttlHours === null ? [] : [{ scopeId, memoryType, ttlHours }];
    }),
  );
}

/** Sets a scope's own lifetimes for a memory type; both null removes its policy (the parent's apply). */
export async function setMemoryPolicy(db: Db, input: { scopeId: string; memoryType: MemoryType } & Lifetimes): Promise<void> {
  const issues = [];
  if (input.ttlHours !== null && (input.ttlHours < 1 || input.ttlHours > 1_000_000)) issues.push({ path: ['input', 'ttlHours'], message: 'must be between 1 and 1000000' });
  if (input.retentionDays !== null && (input.retentionDays < 1 || input.retentionDays > 100_000)) issues.push({ path: ['input', 'retentionDays'], message: 'must be between 1 and 100000' });
  if (issues.length) throw new ValidationError(issues);
  const key = { scopeId_memoryType: { scopeId: input.scopeId, memoryType: input.memoryType } };
  if (input.ttlHours === null && input.retentionDays === null) await db.memoryPolicy.deleteMany({ where: { scopeId: input.scopeId, memoryType: input.memoryType } });
  else {
    const data = { ttlHours: input.ttlHours, retentionDays: input.retentionDays };
    await db.memoryPolicy.upsert({ where: key, create: { scopeId: input.scopeId, memoryType: input.memoryType, ...data }, update: data });
  }
  lifetimesOf(db).clear();
}
