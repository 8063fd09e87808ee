/**
 * Relevance of a memoryQuery result: a weighted sum of components, each between 0 and 1.
 *
 * - relation:  1 when the entry is related (either direction) to `relatedTo`, or, without it, when
 *              it has a relation to a scope of the query's scope chain (e.g. APPLIES_TO the project).
 * - tags:      share of the `include` tags the entry carries (0 without `include`).
 * - scope:     proximity in the scope chain: the query's own scope 1, then decreasing evenly to
 *              1/L for the farthest of the L scopes (session > project > organization > global).
 * - text:      full-text rank divided by the best rank among the matches (0 without `search`).
 * - priority:  guideline priority / 100 (0 for tools and knowledge).
 * - recency:   1 / (1 + days since the entry last changed / 30).
 * - decay:     how much of the memory is left (seed 002 §6), see `DECAY`.
 *
 * Ties are broken by entry id (ascending), so the order is stable.
 */
export const RELEVANCE_WEIGHTS = {
  relation: 5.0,
  tags: 3.0,
  scope: 2.0,
  text: 1.0,
  priority: 1.5,
  recency: 0.5,
  decay: 1.0,
} as const;

export const RECENCY_HALF_DAYS = 30;

/**
 * Decay, computed at query time from the entry's last change (its current version):
 *
 *   decay = max(floor, min(1, 2^(-hours since the last change / half-life) * boost))
 *   boost = 1 + accessBoost * min(accessCount, accessCap) + importanceBoost * importance
 *
 * The half-life is the nearest memory policy's `halfLifeHours` for the entry's memory type, else
 * the default of its knowledge category (the seed's record kinds), else of its memory type.
 *
 * Seed 002 gives both decay rates and half-lives, which disagree (a rate of 0.1/hour halves in 7
 * hours, not 168): the half-lives are the parameter here. Its boost is written as a sum in §6.1
 * and as a product in §6.3: the sum (§6.1) is the model; §6.3 is a sketch of a nightly rewrite we
 * do not do. The access count is capped so that the boost, and so the bound the query's pruning
 * needs, stays finite; the result is capped at 1 so that decay is a share like the other terms (a
 * boost delays the decline instead of lifting fresh entries above 1).
 */
export const DECAY = {
  floor: 0.1,
  accessBoost: 0.1,
  accessCap: 10,
  importanceBoost: 0.2,
  /** Default half-lives (hours) per memory type. */
  halfLifeHours: { EPISODIC: 168, SEMANTIC: 720, PROCEDURAL: 1440, PROSPECTIVE: 720, WORKING: 24 },
  /** Knowledge categories with a half-life of their own (seed 002's records): conversation-like notes, decisions, findings, preferences. */
  categoryHalfLifeHours: { conversation: 168, decision: 720, finding: 336, preference: 1440 },
} as const;

/** The largest boost an entry can get. */
export const DECAY_MAX_BOOST = 1 + DECAY.accessBoost * DECAY.accessCap + DECAY.importanceBoost;

/**
 * The most decay an entry changed `ageDays` ago can have when no half-life exceeds
 * `maxHalfLifeHours`: what pruning may assume of an entry it does not rank.
 */
export function decayBound(ageDays: number, maxHalfLifeHours: number): number {
  // A bound that is too large only lets pruning rank more entries (the page stays exact): each
  // mutant that enlarges it is equivalent, each that shrinks it is killed (test/mutation-survivors.md).
  // Stryker disable next-line ArithmeticOperator,MethodExpression: equivalent, a younger age only enlarges the bound
  const hours = Math.max(ageDays, 0) * 24;
  // Stryker disable next-line UnaryOperator: equivalent, a positive exponent only enlarges the bound
  const left = Math.pow(2, -hours / maxHalfLifeHours) * DECAY_MAX_BOOST;
  // Stryker disable next-line MethodExpression: equivalent, no cap (or a floor of 1) only enlarges the bound
  const capped = Math.min(1, left);
  return Math.max(DECAY.floor, capped);
}

/**
 * The oldest age (days) at which `bound(age)`, a non-increasing function, still reaches `tau`:
 * null when even the oldest does (no limit), -1 when not even a fresh one does.
 */
export function maxAgeReaching(bound: (ageDays: number) => number, tau: number): number | null {
  const far = 1e7;
  if (bound(far) >= tau) return null;
  // Stryker disable next-line UnaryOperator: equivalent, an age of one day admits more than none
  if (bound(0) < tau) return -1;
  let lo = 0;
  let hi = far;
  // 80 halvings of 1e7 days leave well under a millisecond.
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (bound(mid) >= tau) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The one token estimator: about four characters per token, plus a fixed overhead per result for
 * ids, kind and field names. Compact results carry only id, kind, name and score.
 */
export function estimateTokens(nameLength: number, bodyLength: number, compact: boolean): number {
  return compact ? 12 + Math.ceil(nameLength / 4) : 24 + Math.ceil((nameLength + bodyLength) / 4);
}
