import { Repeater } from 'graphql-yoga';
import type { Db } from './database.ts';
import { decodeCursor, encodeCursor, feedFloor, feedHead, logFeedError, readChanges, type FeedRow, type RecordedChanges } from './change-feed.ts';

/** The end of a subscription whose cursor the feed cannot resume from (CURSOR_EXPIRED). */
export const EXPIRED = Symbol('cursor expired');
/** The end of a subscription whose changes could not be read (the database went away). */
export const UNAVAILABLE = Symbol('feed unavailable');
export type StreamEnd = typeof EXPIRED | typeof UNAVAILABLE;

/** Changes read per statement, by the tailer and by a subscriber catching up. */
const PAGE = 500;
/**
 * Changes a subscriber may have waiting in memory. Past it, it stops taking live changes and
 * reads what it missed from the feed instead (so a slow reader costs a bounded buffer, not an
 * error).
 */
export const MAX_BUFFERED = 1_000;

/**
 * Subscribers handed one change per turn of the event loop; the rest of them get it in the turns
 * after, in order, so requests are served in between. Each handing-on starts that subscriber's
 * delivery (its resolvers, the message, the send) in the same turn: at 10,000 subscribers on one
 * scope, one write held the loop 2-4 s (every other request waited; the write's own answer too),
 * and with all of them in flight at once, most of the time went to the garbage collector.
 */
export const LISTENERS_PER_TURN = 100;

interface Item {
  seq: number;
  payload: Record<string, unknown>;
}
type Listener = (item: Item) => void;
/** A change still being handed on: its subscribers from `next` on have not had it yet. */
interface Handing {
  item: Item;
  listeners: Listener[];
  next: number;
}
type Push = (value: unknown) => Promise<unknown>;
/** A subscription's stream: whether it was stopped, and how to wake it while it waits for changes. */
interface Following {
  stopped: boolean;
  wakeUp: (() => void) | null;
}

/**
 * One instance's reader of the change feed: it reads the changes after the last it saw, in order,
 * and hands each to the subscribers of its routing keys. A wake-up (a local commit, a Redis
 * message, the poll timer) starts a read; reads never overlap, and a wake-up during a read makes
 * it read again.
 */
export class FeedTailer {
  private db: Db | null = null;
  private readonly channels = new Map<string, Set<Listener>>();
  private listenerCount = 0;
  /** The last seq handed to subscribers (every change up to it has been). -1 until started. */
  position = -1;
  private starting: Promise<void> | null = null;
  private reading = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Changes still being handed on, in order (see LISTENERS_PER_TURN). */
  private handing: Handing[] = [];
  private handedOn: Array<() => void> = [];

  constructor(private readonly pollMs: () => number) {}

  /** The database to read; null stops reading (its app stopped and may close it). */
  attach(db: Db | null): void {
    this.db = db;
  }

  database(): Db {
    if (!this.db) throw new Error('The event bus has no database: createApp attaches it');
    return this.db;
  }

  /** Reads the head once, then keeps reading on wake-ups and on a timer. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.position = await feedHead(this.database());
      this.schedule();
      // Commits while the head was read woke nothing yet.
      this.wake();
    })().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private schedule() {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, this.pollMs()).unref();
  }

  wake(): void {
    if (this.position < 0 || this.closed || !this.db) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.drain()
      .catch((error: unknown) => logFeedError(error, 'reading new changes'))
      .finally(() => (this.reading = false));
  }

  /**
   * A commit of this instance: its changes are handed on at once when they follow the position
   * directly (the usual case: nothing else committed in between), which saves reading them back
   * (a statement, and on a loaded PostgreSQL a wait for CPU); otherwise the feed is read.
   */
  committed({ lastSeq, changes }: RecordedChanges): void {
    const first = lastSeq - changes.length + 1;
    // While changes are still being handed on, the feed is read once they are: that bounds what
    // waits here to a page of changes, however fast writes come.
    if (this.position !== first - 1 || this.closed || !this.db || this.handing.length > 0) {
      this.wake();
      return;
    }
    changes.forEach((c, i) => this.dispatch({ seq: first + i, topic: c.topic, keys: ` ${c.keys.join(' ')} `, payload: JSON.stringify(c.payload) }));
  }

  private async drain() {
    do {
      this.again = false;
      // Nobody listens: skip ahead to the head without reading the rows. Only if still nobody
      // listens once it is read: a subscriber that came meanwhile must get every change after the
      // position it saw.
      if (this.listenerCount === 0) {
        const head = await feedHead(this.database(), true);
        if (this.listenerCount === 0) this.position = Math.max(this.position, head);
      }
      while (this.listenerCount > 0) {
        await this.allHandedOn();
        const rows = await readChanges(this.database(), this.position, PAGE);
        for (const row of rows) this.dispatch(row);
        if (rows.length < PAGE) break;
      }
    } while (this.again && !this.closed);
  }

  private dispatch(row: FeedRow) {
    // Handed on already (a commit of this instance, while a read that also found it was under way).
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent through the API: each subscriber also skips what it had (seq <= its cursor); this saves the work and keeps the position from going back
    if (row.seq <= this.position) return;
    const listeners = row.keys
      .trim()
      .split(' ')
      .flatMap((key) => [...(this.channels.get(`${row.topic}:${key}`) ?? [])]);
    // Parsed only when someone here listens: every instance reads every change.
    if (listeners.length > 0) {
      this.handing.push({ item: { seq: row.seq, payload: payloadOf(row) }, listeners, next: 0 });
      if (this.handing.length === 1) this.handOn();
    }
    this.position = row.seq;
  }

  /** Hands changes on to LISTENERS_PER_TURN subscribers, and the rest in the next turn. */
  private handOn = () => {
    let budget = LISTENERS_PER_TURN;
    while (this.handing.length > 0 && budget > 0) {
      const head = this.handing[0]!;
      const end = Math.min(head.listeners.length, head.next + budget);
      budget -= end - head.next;
      for (; head.next < end; head.next++) head.listeners[head.next]!(head.item);
      if (head.next === head.listeners.length) this.handing.shift();
    }
    if (this.handing.length > 0) setImmediate(this.handOn);
    else for (const resolve of this.handedOn.splice(0)) resolve();
  };

  private allHandedOn(): Promise<void> {
    return this.handing.length === 0 ? Promise.resolve() : new Promise((resolve) => this.handedOn.push(resolve));
  }

  private listen(channel: string, listener: Listener): () => void {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(listener);
    this.listenerCount++;
    return () => {
      if (!set.delete(listener)) return;
      this.listenerCount--;
      if (set.size === 0) this.channels.delete(channel);
    };
  }

  /**
   * The changes of `topic` under `key` after cursor `after` (from now without one), then live
   * ones, each once and in order. Ends with EXPIRED when `after` cannot be resumed from.
   */
  subscribe<P>(topic: string, key: string, after: string | null | undefined): AsyncIterable<P | StreamEnd> {
    return new Repeater<P | StreamEnd>(async (push, stop) => {
      const state: Following = { stopped: false, wakeUp: null };
      void stop.then(() => {
        state.stopped = true;
        state.wakeUp?.();
      });
      try {
        await this.start();
        let cursor = after == null ? null : decodeCursor(after);
        if (after != null && (cursor === null || cursor > (await feedHead(this.database())))) {
          await push(EXPIRED);
          return stop();
        }
        while (!state.stopped) {
          const next = await this.follow(topic, key, cursor, push as Push, state);
          if (next === EXPIRED) {
            await push(EXPIRED);
            return stop();
          }
          cursor = next;
        }
      } catch (error) {
        logFeedError(error, 'a subscription');
        await push(UNAVAILABLE);
        stop();
      }
    });
  }

  /**
   * Delivers from `cursor` on: first what the feed holds up to the tailer's position, read from
   * the database, then live changes from the buffer. Returns the cursor reached when the buffer
   * overflowed (the caller starts over from it), or once the subscription stopped.
   */
  private async follow(
    topic: string,
    key: string,
    from: number | null,
    push: Push,
    state: Following,
  ): Promise<number | typeof EXPIRED> {
    const buffer: Item[] = [];
    let overflowed = false;
    // Listening starts before the position is read: every change after it arrives in the buffer,
    // and every change up to it is in the database, so there is no gap and no duplicate at the seam.
    const unlisten = this.listen(`${topic}:${key}`, (item) => {
      if (buffer.length >= MAX_BUFFERED) overflowed = true;
      else buffer.push(item);
      state.wakeUp?.();
    });
    try {
      const upTo = this.position;
      let cursor = from ?? upTo;
      if (cursor < upTo) {
        const reached = await this.replay(topic, key, cursor, upTo, push, state);
        if (reached === EXPIRED) return EXPIRED;
        cursor = reached;
      }
      while (!state.stopped && !overflowed) {
        const item = buffer.shift();
        if (!item) {
          await new Promise<void>((resolve) => (state.wakeUp = resolve));
          state.wakeUp = null;
          continue;
        }
        if (item.seq <= cursor) continue;
        await push(item.payload);
        cursor = item.seq;
      }
      return cursor;
    } finally {
      unlisten();
    }
  }

  /**
   * Delivers the changes of `topic` under `key` in (`cursor`, `upTo`] from the database; returns
   * `upTo`, or EXPIRED when the feed no longer holds all of them (pruned before or during the
   * replay: a subscriber that fell behind further than the retention).
   */
  private async replay(topic: string, key: string, cursor: number, upTo: number, push: Push, state: Following): Promise<number | typeof EXPIRED> {
    while (!state.stopped) {
      const rows = await readChanges(this.database(), cursor, PAGE, { topic, key, upTo });
      // Read after the rows: pruning removes the oldest changes first, so a floor at or below the
      // cursor now means every change after it was still there when the page was read.
      if ((await feedFloor(this.database())) > cursor) return EXPIRED;
      for (const row of rows) {
        await push(payloadOf(row));
        cursor = row.seq;
      }
      if (rows.length < PAGE) return upTo;
    }
    return cursor;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.channels.clear();
    this.handing = [];
    for (const resolve of this.handedOn.splice(0)) resolve();
  }
}

function payloadOf(row: FeedRow): Record<string, unknown> {
  return { ...(JSON.parse(row.payload) as Record<string, unknown>), cursor: encodeCursor(row.seq) };
}
