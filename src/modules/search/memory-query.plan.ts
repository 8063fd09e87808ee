// What a memoryQuery asks, checked and resolved once: its scope chain, its tags' ids, its words,
// the instant its scores are computed at. Every stage (candidates, ranking, pruning) reads this.
import { DEFAULT_RANK_BEST_HITS_FROM } from '../../config.ts';
import type { Db, Provider } from '../../infra/database.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker, checkTagNames } from '../../domain/validate.ts';
import { ENTRY_KINDS, type EntryKind } from '../entries/entries.service.ts';
import { chainWithPolicies, type ChainPolicy } from '../lifecycle/policies.service.ts';
import type { RelationType } from '../relations/relations.service.ts';
import { dialectOf, type Dialect } from './memory-query.dialect.ts';
import { checkWordBytes, searchTerms, taskTerms, type TaskTerms } from './memory-query.terms.ts';

export interface MemoryQueryInput {
  scopeId: string;
  /** Of the scope chain, the scopes the caller may read (default: all). */
  readable?: (chain: string[]) => Promise<string[]>;
  /** Walk up the scope chain (default true). */
  inherit: boolean;
  kinds: readonly EntryKind[];
  tags: { include: readonly string[]; require: readonly string[]; exclude: readonly string[] };
  search: string | null;
  /** true: only entries matching `search` (memoryQuery); false: matching only raises the score (context). */
  searchFilters?: boolean;
  relatedTo: { entryId: string } | { scopeId: string } | null;
  relationType: RelationType | null;
  includeInactive: boolean;
  /** Also entries whose validUntil has passed (default false). */
  includeExpired: boolean;
  /** Only entries of these memory types (default: all). */
  memoryTypes: readonly string[] | null;
  /** Also return entries a nearer scope overrides (same kind and name). */
  includeOverridden: boolean;
  createdAfter: Date | null;
  createdBefore: Date | null;
  updatedAfter: Date | null;
  updatedBefore: Date | null;
  first: number;
  after: string | null;
  tokenBudget: number | null;
  compact: boolean;
  /**
   * Rank every entry of the chain that passes the filters, with no shortcut (no pruning, no
   * starting from tags, relations or text matches): the reference the shortcuts are checked
   * against, and a way to rule them out when a ranking looks wrong. Default false.
   */
  exhaustive?: boolean;
  /**
   * Searchable entries from which a `context` asked again ranks only its best text hits (as last
   * counted for a task's words; default DEFAULT_RANK_BEST_HITS_FROM). Speed only: the same answers.
   */
  bestHitsFrom?: number;
  /**
   * The caller will ask for `totalCount` (default false). Only the strategy changes: a query that
   * starts from a tag's entries then ranks them all in one statement, which counts them too,
   * rather than pruning and counting apart.
   */
  wantsTotal?: boolean;
  /**
   * The page's rows carry the entries' own columns (`MemoryHit.entry`), for a caller that selects
   * nothing else of them: no second statement for the page (default false).
   */
  withEntries?: boolean;
}

/** What a caller leaves out: everything in the chain, every kind, no filters, a default page. */
export const MEMORY_QUERY_DEFAULTS: Omit<MemoryQueryInput, 'scopeId'> = {
  inherit: true,
  kinds: ENTRY_KINDS,
  tags: { include: [], require: [], exclude: [] },
  search: null,
  searchFilters: true,
  relatedTo: null,
  relationType: null,
  includeInactive: false,
  includeExpired: false,
  memoryTypes: null,
  includeOverridden: false,
  createdAfter: null,
  createdBefore: null,
  updatedAfter: null,
  updatedBefore: null,
  first: LIMITS.page.default,
  after: null,
  tokenBudget: null,
  compact: false,
  exhaustive: false,
  bestHitsFrom: DEFAULT_RANK_BEST_HITS_FROM,
  wantsTotal: false,
  withEntries: false,
};

export interface Cursor {
  /** Time the scores were computed at (ms): recency is frozen across pages. */
  a: number;
  s: number;
  i: string;
}

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(value: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(value, 'base64url').toString()) as Cursor;
    if (typeof c.a === 'number' && typeof c.s === 'number' && typeof c.i === 'string') return c;
  } catch {
    // fall through
  }
  throw new ValidationError([{ path: ['after'], message: 'is not a cursor of this query' }]);
}

/** A tag named by the query: its id, null when no tag has that name. */
export interface NamedTag {
  name: string;
  id: string | null;
}

export interface Plan {
  input: MemoryQueryInput;
  d: Dialect;
  /** The scopes searched, nearest first: of the scope's chain (or the scope alone), those the caller reads. */
  chain: string[];
  /** Lifetimes of the chain's memory types (policies and defaults). */
  ttls: ChainPolicy[];
  halfLives: ChainPolicy[];
  cursor: Cursor | null;
  /** The instant scores are computed at (a cursor keeps the first page's). */
  asOf: number;
  /** The words the text score uses (none without `search`). */
  terms: string[];
  /**
   * Where `terms` is a guess made while a task's words are counted: its words by their counts, given
   * the counts the ranking statement found (see taskTerms).
   */
  termsCounted: TaskTerms['counted'];
  /** The text filters (memoryQuery's search) rather than only raising scores (context's task). */
  searchFilters: boolean;
  tags: { include: NamedTag[]; require: NamedTag[]; exclude: NamedTag[] };
  /** The page size plus one (whether there is more). */
  L: number;
}

/** Checks the input, then resolves the chain, the tags and the words (`terms`: a task's words as counted already). */
export async function planQuery(
  db: Db,
  provider: Provider,
  options: Pick<MemoryQueryInput, 'scopeId'> & Partial<MemoryQueryInput>,
  terms?: string[],
): Promise<Plan> {
  // Options given as `undefined` keep their default.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const input = { ...MEMORY_QUERY_DEFAULTS, ...given } as MemoryQueryInput;
  const c = new Checker();
  const include = checkTagNames(c, input.tags.include, ['input', 'tags', 'include']);
  const require = checkTagNames(c, input.tags.require, ['input', 'tags', 'require']);
  const exclude = checkTagNames(c, input.tags.exclude, ['input', 'tags', 'exclude']);
  c.text(input.search, ['input', 'search'], LIMITS.description);
  c.range(input.first, ['first'], 0, LIMITS.page.max, true);
  c.range(input.tokenBudget, ['input', 'tokenBudget'], 1, 10_000_000, true);
  if (input.kinds.length === 0) c.fail(['input', 'kinds'], 'must name at least one kind');
  c.done();
  const cursor = input.after ? decodeCursor(input.after) : null;
  const words = input.search ? searchTerms(input.search) : [];
  if (input.search !== null && words.length === 0) {
    throw new ValidationError([{ path: ['input', 'search'], message: 'must contain a word' }]);
  }
  checkWordBytes(c, words, ['input', 'search']);
  c.done();
  // Lifetimes follow the whole chain (a project's TTL covers its sessions however they are searched).
  const policies = await chainWithPolicies(db, input.scopeId);
  if (!policies) throw new NotFoundError('No scope has this id', ['input', 'scope']);
  const reach = input.inherit ? policies.chain : policies.chain.slice(0, 1);
  // Only the scopes the caller reads are searched: access is filtered inside the SQL, before paging.
  const chain = await (input.readable ?? ((ids: string[]) => Promise.resolve(ids)))(reach);
  const d = dialectOf(db, provider);
  const searchFilters = words.length > 0 && input.searchFilters !== false;
  // A filtering search keeps every word (each one lets entries in); a task drops its common words.
  const task = searchFilters || terms ? { likely: terms ?? words, counted: null } : await taskTerms(db, d, words);
  const inChain = (p: ChainPolicy) => chain.includes(p.scopeId);
  return {
    input,
    d,
    chain,
    ttls: policies.ttls.filter(inChain),
    halfLives: policies.halfLives.filter(inChain),
    cursor,
    asOf: cursor?.a ?? Date.now(),
    terms: task.likely,
    termsCounted: task.counted,
    searchFilters,
    tags: await tagIds(db, { include, require, exclude }),
    L: input.first + 1,
  };
}

/**
 * A tag's id never changes for its name: tags are created, never renamed or deleted. So the ids
 * found are kept (per database, up to TAG_IDS names) and a query naming known tags sends no
 * statement for them; a name not found is looked up again, since another writer may create it.
 */
const knownTagIds = new WeakMap<Db, Map<string, string>>();
const TAG_IDS = 10_000;

/** The ids of the tags named: those not known yet in one statement (none when all are known). */
async function tagIds(db: Db, names: Record<'include' | 'require' | 'exclude', string[]>): Promise<Plan['tags']> {
  let known = knownTagIds.get(db);
  if (!known) knownTagIds.set(db, (known = new Map<string, string>()));
  const ids = new Map<string, string>();
  const missing: string[] = [];
  for (const name of new Set([...names.include, ...names.require, ...names.exclude])) {
    const id = known.get(name);
    if (id === undefined) missing.push(name);
    else ids.set(name, id);
  }
  if (missing.length > 0) {
    const found = await db.tag.findMany({ where: { name: { in: missing } }, select: { id: true, name: true } });
    if (known.size + found.length > TAG_IDS) known.clear();
    for (const tag of found) {
      known.set(tag.name, tag.id);
      ids.set(tag.name, tag.id);
    }
  }
  const named = (list: string[]) => list.map((name) => ({ name, id: ids.get(name) ?? null }));
  return { include: named(names.include), require: named(names.require), exclude: named(names.exclude) };
}
