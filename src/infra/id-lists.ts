// Lists of ids split so that no statement binds more values than the database layer takes.

import { setImmediate as eventLoopTurn } from 'node:timers/promises';

/**
 * Ids per statement. Prisma binds at most 999 values in a SQLite statement: past that it refused
 * the statement (P2029: erasing a scope of 997 entries failed, the two lists of ids that find
 * their relations making 1,994 values) or split it, and an OR of two split lists came out wrong
 * (with 500 ids a list, the relations between entries of two lists of a deletion were counted
 * twice in its receipt; prisma/prisma#23957). Two lists of 400 stay under it; a raw IN list would meet
 * SQLite's own limit (32,766) in the end.
 */
export const IDS_PER_STATEMENT = 400;

/** `items` in lists of at most `size`, in order. */
export function chunked<T>(items: readonly T[], size = IDS_PER_STATEMENT): T[][] {
  const lists: T[][] = [];
  for (let i = 0; i < items.length; i += size) lists.push(items.slice(i, i + size));
  return lists;
}

/**
 * Runs `work` on `items` a list at a time (see `chunked`), in order, the event loop turning between
 * two lists. On SQLite a transaction runs on the event loop (better-sqlite3 answers at once), first
 * statement to last, and every other request waits for it unless it is given back; the transaction
 * stays one (other writes wait for it to end, reads go to the readers: serialized-adapter.ts).
 */
export async function eachList<T>(items: readonly T[], work: (list: T[]) => Promise<void>, size = IDS_PER_STATEMENT): Promise<void> {
  await eachOf(chunked(items, size), work);
}

/** Runs `work` on each of `lists`, in order, the event loop turning between two (see eachList). */
export async function eachOf<T>(lists: readonly T[][], work: (list: T[]) => Promise<void>): Promise<void> {
  for (const [i, list] of lists.entries()) {
    if (i > 0) await eventLoopTurn();
    await work(list);
  }
}

/**
 * Characters of searchable text (entries' names and search bodies) per list of a bulk write of
 * entries on SQLite, where the full-text index takes or drops every word of a list's entries in
 * its statements, on the event loop: an import of 1,000 entries of 24 KB (random words) held it
 * ~5 s a list of 400 on a busy 2-core machine, ~50-110 ms a list of 64 KB; a session's promotion of
 * 400 such tagged entries (each one's row of the index written again: its scope is in the tag
 * tokens) 8.9 s in one. 400 entries of a few hundred characters are ~30-40 ms.
 */
export const TEXT_CHARS_PER_LIST = 64 * 1024;

/** `items` in lists of at most `size` whose `weight`s add up to at most `most` (an item heavier than that makes a list alone), in order. */
export function chunkedWithin<T>(items: readonly T[], weight: (item: T) => number, most: number, size = IDS_PER_STATEMENT): T[][] {
  const lists: T[][] = [];
  let list: T[] = [];
  let total = 0;
  for (const item of items) {
    const w = weight(item);
    if (list.length > 0 && (list.length === size || total + w > most)) {
      lists.push(list);
      list = [];
      total = 0;
    }
    list.push(item);
    total += w;
  }
  if (list.length > 0) lists.push(list);
  return lists;
}

/**
 * `work` on each of `items` (with its index), the items of a list at once as `Promise.all` would
 * run them, a list at a time with the event loop turning between two lists; the results in input
 * order. For CPU-bound work on many items before a write (secret screening), which under one
 * `Promise.all` runs in a single turn: every other request waits for all of it. A list that fails
 * fails the whole with its error, and later lists are not started.
 */
export async function mapInLists<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>, size = IDS_PER_STATEMENT): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await eventLoopTurn();
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, i) => work(item, start + i)))));
  }
  return results;
}

/**
 * The items as promises that resolve a list at a time, the event loop turning between two lists.
 * A GraphQL list of them is completed a list per turn, so what its items then look up one by one
 * in the same tick, which Prisma batches into one statement of every id (its findUnique batching
 * does not split at the database's limit of bound values: Prisma issue #23957), comes a list at a
 * time.
 */
export function inTurns<T>(items: readonly T[], size = IDS_PER_STATEMENT): Array<Promise<T>> {
  let turn: Promise<unknown> = Promise.resolve();
  return chunked(items, size).flatMap((list, i) => {
    if (i > 0) turn = turn.then(() => eventLoopTurn());
    const ready = turn;
    return list.map((item) => ready.then(() => item));
  });
}
