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
} as const;

export const RECENCY_HALF_DAYS = 30;

/**
 * The one token estimator: about four characters per token, plus a fixed overhead per result for
 * ids, kind and field names. Compact results carry only id, kind, name and score.
 */
export function estimateTokens(nameLength: number, bodyLength: number, compact: boolean): number {
  return compact ? 12 + Math.ceil(nameLength / 4) : 24 + Math.ceil((nameLength + bodyLength) / 4);
}
