/**
 * Values reused for `ttlMs`, at most `maxEntries` of them: when full, the one used least recently
 * makes room (a value read or written lately stays, where clearing them all made every busy cache
 * start over each time it filled). A promise that rejects is not kept. Also a DataLoader
 * `cacheMap` (get/set/delete/clear). The instance caches of grants, scope chains and policies are
 * all this: one server sees changes made through it at once (it clears the cache) and changes made
 * through another instance within `ttlMs`.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value for `key`, loaded (and kept for `ttlMs`) when none is fresh. */
  getOrLoad(key: string, load: () => V): V {
    const fresh = this.get(key);
    if (fresh !== undefined) return fresh;
    const value = load();
    this.set(key, value);
    if (value instanceof Promise) value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    return value;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry || entry.until <= Date.now()) return undefined;
    // A Map keeps insertion order: set again, the value is now the most recently used.
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every value `test` picks. */
  deleteIf(test: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (test(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One TtlCache per owner (per database: each app, each test file has its own). */
export function ttlCachePer<O extends object, V>(ttlMs: number, maxEntries: number): (owner: O) => TtlCache<V> {
  const caches = new WeakMap<O, TtlCache<V>>();
  return (owner) => {
    let cache = caches.get(owner);
    if (!cache) caches.set(owner, (cache = new TtlCache<V>(ttlMs, maxEntries)));
    return cache;
  };
}
