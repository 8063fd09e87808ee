// The words of a search or a task, and which of a task's words say something about relevance.
import { Prisma } from '../../generated/sqlite/client.ts';
import type { Db } from '../../infra/database.ts';
import { directRead } from '../../infra/direct-batch.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { Dialect } from './memory-query.dialect.ts';

/** Words of a search, as prefix terms; punctuation and operators are not syntax here. */
export function searchTerms(search: string): string[] {
  return [...new Set(foldLatin(search).toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 16);
}

/**
 * Text with its Latin letters' diacritics dropped (é -> e, Å -> A), other scripts' kept: what both
 * databases index (SQLite's tokenizer with remove_diacritics 2, PostgreSQL's "search_text" of the
 * migration search_text_folding), so a word is searched as it was indexed. Written decomposed
 * ("e" and U+0301), "café" was two words here before.
 */
export const foldLatin = (text: string) => text.normalize('NFD').replace(/([A-Za-z])[\u0300-\u036f]+/g, '$1').normalize('NFC');

/**
 * A `context` task's words as the search they rank by (null without a word), its mistakes told as
 * the task's: a task is free text up to LIMITS.content (its words are what counts), while the
 * search it becomes is held to a search's length.
 */
export function taskSearch(task: string | null | undefined): string | null {
  const c = new Checker();
  c.text(task, ['input', 'task'], LIMITS.content);
  c.done();
  const words = task ? searchTerms(task) : [];
  const search = words.join(' ');
  if (search.length > LIMITS.description) {
    c.fail(['input', 'task'], `its first 16 different words must be at most ${LIMITS.description} characters together (got ${search.length})`);
  } else checkWordBytes(c, words, ['input', 'task']);
  c.done();
  return search === '' ? null : search;
}

/**
 * Refuses a word longer than LIMITS.searchWordBytes: PostgreSQL drops it from the query (and from
 * every document), so it matched nothing there, while SQLite matched the entries that hold it.
 */
export function checkWordBytes(c: Checker, words: readonly string[], path: string[]): void {
  const longest = Math.max(0, ...words.map((word) => Buffer.byteLength(word)));
  if (longest > LIMITS.searchWordBytes) c.fail(path, `its words must be at most ${LIMITS.searchWordBytes} bytes each (got ${longest})`);
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
 * The last counts, kept longer and by word alone: only to guess with while a word is counted again
 * (see taskTerms). By word, since the cutoff moves with every count of the memory that grew, and a
 * word's standing seldom does: a common word guessed rare costs a ranking over most of the memory.
 */
const lastTotal = ttlCachePer<Db, number>(3_600_000, 1);
const lastStanding = ttlCachePer<Db, boolean>(3_600_000, 10_000);

/** Document frequencies a ranking statement found, by word (see Dialect.termCounts). */
export type TermCounts = ReadonlyMap<string, number>;

/** A task's words for its text score: by the counts of the last minute, or guessed while they are counted. */
export interface TaskTerms {
  /** The words by the counts of the last minute, else by each word's last count or a guess. */
  likely: string[];
  /**
   * When `likely` was a guess (null when it was not): the words by their counts, given what the
   * ranking on `likely` counted (null where it counts nothing). Counting runs meanwhile.
   */
  counted: ((found: TermCounts | null) => Promise<string[]>) | null;
}

/**
 * The words of a natural-language task (`context`) that the text score uses. When a task has a
 * word that is not common (see COMMON_SHARE), its common words are left out: they barely separate
 * entries (an idf near that of a word every entry has), yet scoring them means reading the text
 * rank of most of the memory. This is the cutoff-frequency rule of full-text engines (Lucene's
 * common-terms query). A task of only common words keeps them all, and so does a memory of fewer
 * than COMMON_MIN_ENTRIES entries. A word's frequency is counted only up to the cutoff, once a
 * minute per word.
 *
 * Counting a word takes a statement before the ranking could start (on PostgreSQL at 100K entries
 * ~1.2 ms a word: each match is read from the table). So where every word was counted before but
 * not all in the last minute, the ranking starts at once on a guess, each word's last count, while
 * `counted` counts again; when the guess was wrong, the query runs again on the counted words
 * (memory-query.service.ts). A word never counted is guessed from the database's statistics of
 * the indexed words where it keeps them (PostgreSQL, once ANALYZE has sampled the table), else
 * counted first.
 */
export async function taskTerms(db: Db, dialect: Dialect, terms: readonly string[]): Promise<TaskTerms> {
  if (terms.length < 2 || (await countedLately(db, terms))) return { likely: await informativeTerms(db, dialect, terms), counted: null };
  // A word neither counted nor guessed is waited for: guessed rare, a common one would cost a
  // ranking over most of the memory, and after a start every task of a burst would pay it at once
  // (64 ten-word tasks at once on PostgreSQL, a pool of 4: all past the 15 s deadline, against
  // 1.5 s in all waiting).
  const last = lastTotal(db).get('total');
  if (last === undefined) return { likely: await informativeTerms(db, dialect, terms), counted: null };
  // A memory too small for the rule keeps every word (while it is counted again, in case it grew).
  if (last < COMMON_MIN_ENTRIES) return { likely: [...terms], counted: recount(db, dialect, terms, terms) };
  const standings = await lastOrGuessed(db, dialect, terms);
  if (standings.includes(undefined)) return { likely: await informativeTerms(db, dialect, terms), counted: null };
  const likely = keptOf(terms, standings);
  return { likely, counted: recount(db, dialect, terms, likely) };
}

/**
 * Counts a task's words again while its page is ranked on `likely`. Where the ranking statement
 * counts the words it ranks on (PostgreSQL: see Dialect.termCounts), they are not counted apart,
 * which would read each of their matches a second time (~1.5 ms a word at 100K entries); only the
 * words left out are, meanwhile.
 */
function recount(db: Db, dialect: Dialect, terms: readonly string[], likely: readonly string[]): (found: TermCounts | null) => Promise<string[]> {
  const apart = dialect.termCounts ? terms.filter((term) => !likely.includes(term)) : terms;
  const counting = standingsOf(db, dialect, apart);
  // A count that fails fails the query where it is awaited (memoryQuery), not as a rejection no one handles meanwhile.
  counting.catch(() => undefined);
  return async (found) => {
    await counting;
    // `found` is null where the ranking counts nothing (SQLite): there every word was counted apart.
    if (found) {
      const total = await memorySize(db);
      for (const term of likely) frequencyOf(db).set(standingKey(total, term), Promise.resolve((found.get(term) ?? 0) >= capOf(total)));
    }
    // Every word's standing is known now, unless the ranking counted nothing: those are counted.
    return informativeTerms(db, dialect, terms);
  };
}

/** Each word's last count, else the guess the database's word statistics give (undefined where there is neither). */
async function lastOrGuessed(db: Db, dialect: Dialect, terms: readonly string[]): Promise<Array<boolean | undefined>> {
  const standings = terms.map((term) => lastStanding(db).get(term));
  const statement = dialect.wordStatistics;
  if (!standings.includes(undefined) || !statement) return standings;
  // A guess is worth a statement once a minute, not a failed query: without it the words are counted first.
  const statistics = await statisticsOf(db).getOrLoad('words', () => wordShares(db, statement).catch(() => null));
  return statistics ? standings.map((standing, i) => standing ?? guessedCommon(statistics, terms[i]!)) : standings;
}

/** The most common indexed words (sorted) and the share of entries each is in, from the database's sample. */
interface WordShares {
  words: string[];
  shares: number[];
}

/** Per database: ANALYZE samples again only after a tenth of the table changed. */
const statisticsOf = ttlCachePer<Db, Promise<WordShares | null>>(60_000, 1);

async function wordShares(db: Db, statement: Prisma.Sql): Promise<WordShares | null> {
  const [row] = await directRead<{ words: string; shares: string }>(db, statement);
  if (!row) return null;
  const words = JSON.parse(row.words) as string[];
  const shares = JSON.parse(row.shares) as number[];
  const order = words.map((_, i) => i).sort((a, b) => (words[a]! < words[b]! ? -1 : 1));
  return { words: order.map((i) => words[i]!), shares: order.map((i) => shares[i]!) };
}

/**
 * Whether the sample says a word (a prefix) is common: the shares of the sampled words it begins,
 * added up. An entry with two of them counts twice, so the guess leans to common, the cheaper
 * mistake (a page ranked again) than a common word guessed rare (a ranking over most of the
 * memory, then again). A word the sample does not hold is guessed rare.
 */
function guessedCommon({ words, shares }: WordShares, term: string): boolean {
  let share = 0;
  for (let i = firstAtLeast(words, term); i < words.length && words[i]!.startsWith(term); i++) share += shares[i]!;
  return share >= COMMON_SHARE;
}

/** The first index of sorted `words` whose word is not below `term`. */
function firstAtLeast(words: readonly string[], term: string): number {
  let [low, high] = [0, words.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (words[mid]! < term) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether informativeTerms needs no statement: the memory and every word counted (or being counted) in the last minute. */
async function countedLately(db: Db, terms: readonly string[]): Promise<boolean> {
  const counting = totalOf(db).get('total');
  if (counting === undefined) return false;
  const total = await counting;
  return total < COMMON_MIN_ENTRIES || terms.every((term) => frequencyOf(db).get(standingKey(total, term)) !== undefined);
}

/** The words not common, or all of them when every one is. */
function keptOf(terms: readonly string[], common: ReadonlyArray<boolean | undefined>): string[] {
  const rare = terms.filter((_, i) => common[i] !== true);
  return rare.length > 0 ? rare : [...terms];
}

/** Entries a word must be in to be common, in a memory of `total` searchable entries. */
const capOf = (total: number) => Math.floor(total * COMMON_SHARE) + 1;
/** A word's standing is cached by the cutoff it was counted against. */
const standingKey = (total: number, term: string) => `${capOf(total)}:${term}`;

/** The words a task's text score uses, by their counts (see taskTerms). */
export async function informativeTerms(db: Db, dialect: Dialect, terms: readonly string[]): Promise<string[]> {
  if (terms.length < 2) return [...terms];
  const common = await standingsOf(db, dialect, terms);
  return common ? keptOf(terms, common) : [...terms];
}

/** The memory's searchable entries as a task's words were last counted against (within the hour), else undefined. */
export const lastMemorySize = (db: Db): number | undefined => lastTotal(db).get('total');

/** Searchable entries, counted once a minute. */
async function memorySize(db: Db): Promise<number> {
  // Stryker disable next-line StringLiteral: equivalent, the total's cache holds one value whatever its key
  const total = await totalOf(db).getOrLoad('total', () =>
    // Stryker disable next-line OptionalChaining: equivalent, COUNT(*) always returns one row
    db.$queryRaw<Array<{ n: number | bigint }>>`SELECT COUNT(*) AS n FROM "EntrySearch"`.then((r) => Number(r[0]?.n ?? 0)),
  );
  lastTotal(db).set('total', total);
  return total;
}

/** Whether each word is common, as counted in the last minute or now; null in a memory too small for the rule. */
async function standingsOf(db: Db, dialect: Dialect, terms: readonly string[]): Promise<boolean[] | null> {
  const total = await memorySize(db);
  if (total < COMMON_MIN_ENTRIES) return null;
  const cap = capOf(total);
  const cache = frequencyOf(db);
  const key = (term: string) => standingKey(total, term);
  // The words not counted lately are counted in one statement: a ten-word task with three new
  // words sent three statements, each a round trip on PostgreSQL and a hand-off to a reader
  // thread on SQLite.
  const uncounted = terms.filter((term) => cache.get(key(term)) === undefined);
  let counted: Promise<boolean[]> | undefined;
  const common = await Promise.all(
    terms.map((term) =>
      cache.getOrLoad(key(term), () => (counted ??= commonAmong(db, dialect, uncounted, cap)).then((c) => c[uncounted.indexOf(term)]!)),
    ),
  );
  terms.forEach((term, i) => lastStanding(db).set(term, common[i]!));
  return common;
}

/** Of `terms`, whether each is in `cap` or more searchable entries (counted no further), in one statement. */
async function commonAmong(db: Db, dialect: Dialect, terms: readonly string[], cap: number): Promise<boolean[]> {
  const counts = terms.map((term, i) => Prisma.sql`(${dialect.documentFrequency(term, cap)}) AS ${Prisma.raw(`df${i}`)}`);
  const [row] = await directRead<Record<string, number | bigint>>(db, Prisma.sql`SELECT ${Prisma.join(counts, ', ')}`);
  // Stryker disable next-line OptionalChaining: equivalent, a SELECT of scalar subqueries always returns one row
  return terms.map((_, i) => Number(row?.[`df${i}`] ?? 0) >= cap);
}
