/**
 * Reads shared by every subscriber an event is delivered to. A live event is one payload object
 * handed to each subscriber of its topic and key (feed-tailer.ts dispatch), and each subscriber
 * resolves it in its own context; without this, each read the rows again. At 1,000 subscribers on
 * one scope, their `entry { currentVersion }` reads were 1,000 findUnique calls in one tick, which
 * Prisma batches into one statement over SQLite's bound-parameter limit: every subscriber got an
 * INTERNAL_SERVER_ERROR (P2029). Keyed by the selection (Pothos' `query`): subscribers asking for
 * the same fields share one read; the access rules of what they read below it still run per
 * subscriber, on the shared rows (resolvers never change a row). An entry row's tags are read the
 * same way, keyed by the row (`sharedRead(entry, 'tags', null, …)`): an event's shared row gets its
 * tags read once for all its subscribers, where each subscriber's loader read them again; rows of
 * an ordinary request are its own, so nothing changes there.
 */
const reads = new WeakMap<object, Map<string, Promise<unknown>>>();

export function sharedRead<T>(owner: object, what: string, query: unknown, load: () => Promise<T>): Promise<T> {
  let byKey = reads.get(owner);
  if (!byKey) reads.set(owner, (byKey = new Map<string, Promise<unknown>>()));
  const key = `${what} ${JSON.stringify(query)}`;
  let read = byKey.get(key) as Promise<T> | undefined;
  if (!read) {
    read = load();
    byKey.set(key, read);
    // A failed read is not kept: the next subscriber tries again.
    read.catch(() => byKey.get(key) === read && byKey.delete(key));
  }
  return read;
}
