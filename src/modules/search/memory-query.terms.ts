// The words of a search or a task, and which of a task's words say something about relevance.
import type { Db } from '../../infra/database.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import type { Dialect } from './memory-query.dialect.ts';

/** Words of a search, as prefix terms; punctuation and operators are not syntax here. */
export function searchTerms(search: string): string[] {
  return [...new Set(search.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 16);
}

/**
 * A word of a task found in more than this share of the searchable entries is a common word
 * ("the", "use", "when" in notes written in English).
 */
export const COMMON_SHARE = 1 / 8;

/** Below this many searchable entries every word counts: ranking them all is cheap there. */
export const COMMON_MIN_ENTRIES = 1_000;

/** Per database: counts change slowly, and a word's standing may lag a bulk import by a minute. */
const totalOf = ttlCachePer<Db, Promise<number>>(60_000, 1);
const frequencyOf = ttlCachePer<Db, Promise<boolean>>(60_000, 10_000);

/**
 * The words of a natural-language task (`context`) that the text score uses. When a task has a
 * word that is not common (see COMMON_SHARE), its common words are left out: they barely separate
 * entries (an idf near that of a word every entry has), yet scoring them means reading the text
 * rank of most of the memory. This is the cutoff-frequency rule of full-text engines (Lucene's
 * common-terms query). A task of only common words keeps them all, and so does a memory of fewer
 * than COMMON_MIN_ENTRIES entries. A word's frequency is counted
 * only up to the cutoff, once a minute per word.
 */
export async function informativeTerms(db: Db, dialect: Dialect, terms: readonly string[]): Promise<string[]> {
  if (terms.length < 2) return [...terms];
  // Stryker disable next-line StringLiteral: equivalent, the total's cache holds one value whatever its key
  const total = await totalOf(db).getOrLoad('total', () =>
    // Stryker disable next-line OptionalChaining: equivalent, COUNT(*) always returns one row
    db.$queryRaw<Array<{ n: number | bigint }>>`SELECT COUNT(*) AS n FROM "EntrySearch"`.then((r) => Number(r[0]?.n ?? 0)),
  );
  if (total < COMMON_MIN_ENTRIES) return [...terms];
  const cap = Math.floor(total * COMMON_SHARE) + 1;
  const common = await Promise.all(
    terms.map((term) =>
      frequencyOf(db).getOrLoad(`${cap}:${term}`, () =>
        // Stryker disable next-line OptionalChaining: equivalent, COUNT(*) always returns one row
        db.$queryRaw<Array<{ df: number | bigint }>>(dialect.documentFrequency(term, cap)).then((r) => Number(r[0]?.df ?? 0) >= cap),
      ),
    ),
  );
  const rare = terms.filter((_, i) => !common[i]);
  return rare.length > 0 ? rare : [...terms];
}
