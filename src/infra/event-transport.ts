import { randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Redis } from 'ioredis';
import { log } from './log.ts';

/** `in-process`: no Redis configured; `up`/`down`: whether events cross instances right now. */
export type EventsState = 'in-process' | 'up' | 'down';

/**
 * Moves event payloads between publishers and listeners, within this process or across
 * instances. Channels are `<topic>:<routing key>`, as graphql-yoga's createPubSub names them, so
 * instances running the previous bus (@graphql-yoga/redis-event-target) interoperate.
 */
export interface EventTransport {
  /** Sends `payload` to the listeners of `channel` on every instance. Never throws, never rejects. */
  publish(channel: string, payload: unknown): void;
  /** Calls `listener` with each payload sent to `channel`; returns the function that stops it. */
  listen(channel: string, listener: (payload: unknown) => void): () => void;
  /** Calls `listener` whenever listeners may have missed events; returns the function that stops it. */
  onInterrupted(listener: () => void): () => void;
  state(): EventsState;
  /** Resolves once `state()` is not `down`; rejects after `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Listeners by channel. */
class Listeners {
  private readonly byChannel = new Map<string, Set<(payload: unknown) => void>>();

  /** Adds `listener`; true when it is the channel's first. */
  add(channel: string, listener: (payload: unknown) => void): boolean {
    const set = this.byChannel.get(channel);
    if (set) set.add(listener);
    else this.byChannel.set(channel, new Set([listener]));
    return !set;
  }

  /** Removes `listener`; true when the channel had it and has no other left. */
  remove(channel: string, listener: (payload: unknown) => void): boolean {
    const set = this.byChannel.get(channel);
    if (!set?.delete(listener) || set.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  emit(channel: string, payload: unknown): void {
    for (const listener of this.byChannel.get(channel) ?? []) listener(payload);
  }

  clear(): void {
    this.byChannel.clear();
  }
}

/** Listeners of one process; nothing is ever lost, so nothing is ever interrupted. */
export function createInProcessTransport(): EventTransport {
  const listeners = new Listeners();
  return {
    publish: (channel, payload) => listeners.emit(channel, payload),
    listen(channel, listener) {
      listeners.add(channel, listener);
      return () => void listeners.remove(channel, listener);
    },
    onInterrupted: () => () => undefined,
    state: () => 'in-process',
    ready: async () => undefined,
    close: async () => listeners.clear(),
  };
}

/**
 * Instances announce on this channel that events they published may not have reached Redis, so
 * that every other instance ends the subscriptions that may have missed them.
 */
const LOST_CHANNEL = 'engram:events-lost';
const NOTICE_RETRY_MS = 1_000;

/**
 * Events across instances over Redis PUBLISH/SUBSCRIBE.
 *
 * Hand-written rather than @graphql-yoga/redis-event-target: that target drops the promises of
 * its PUBLISH, SUBSCRIBE and UNSUBSCRIBE commands, so while Redis is down each one ends as an
 * unhandled rejection (ioredis' MaxRetriesPerRequestError) and Node exits with code 1; it also
 * cannot tell its listeners that deliveries were cut.
 *
 * Contract: nothing waits for Redis or queues for it. Commands are refused at once while a
 * connection is down (no offline queue) and fail instead of being resent after a reconnection
 * (maxRetriesPerRequest 0), so memory stays bounded and a write never waits on Redis. Listeners
 * are interrupted (`onInterrupted`) when
 * - this instance's subscriber connection closes (whatever was published meanwhile is gone);
 * - a publish of this instance fails (its event reached no instance); once Redis answers again the
 *   instance announces the loss on LOST_CHANNEL;
 * - another instance announces such a loss.
 * `state()` is `up` only when both connections work, the subscriber listens to LOST_CHANNEL (so no
 * announcement can be missed) and no loss of this instance is left to announce.
 */
export function createRedisTransport(url: string): EventTransport {
  const instance = randomUUID();
  const publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  // The subscriber connection sends nothing but (UN)SUBSCRIBE: ioredis 5.8+ can otherwise slip
  // its handshake (CLIENT SETINFO, the INFO ready check) after a SUBSCRIBE issued while
  // connecting, and the connection then rejects it (ioredis#2037) and never delivers. No automatic
  // resubscription: every listener is interrupted when the connection closes, so a new connection
  // starts with none.
  const subscriber = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResubscribe: false,
    disableClientInfo: true,
    enableReadyCheck: false,
  });
  const listeners = new Listeners();
  const interruptions = new Set<() => void>();
  const changes = new EventEmitter();
  let listening = false; // the subscriber listens to LOST_CHANNEL on its current connection
  let lostGeneration = 0; // bumped by each failed publish
  let announcedGeneration = 0;
  let noticeRetry: NodeJS.Timeout | undefined;
  let closing = false;

  const state = (): EventsState =>
    listening && publisher.status === 'ready' && lostGeneration === announcedGeneration ? 'up' : 'down';
  const changed = () => changes.emit('change');
  const interrupt = () => {
    for (const listener of [...interruptions]) listener();
  };

  /** Tells the other instances that events of this one were lost; retried until Redis takes it. */
  function announceLoss() {
    const generation = lostGeneration;
    if (generation === announcedGeneration || publisher.status !== 'ready' || closing) return;
    publisher.publish(LOST_CHANNEL, JSON.stringify({ instance })).then(
      () => {
        announcedGeneration = Math.max(announcedGeneration, generation);
        changed();
      },
      () => {
        clearTimeout(noticeRetry);
        noticeRetry = setTimeout(announceLoss, NOTICE_RETRY_MS).unref();
      },
    );
  }

  function publishFailed(error: Error) {
    if (lostGeneration === announcedGeneration) log.warn(`Redis: an event could not be published (${error.message}); subscriptions are ended`);
    lostGeneration++;
    interrupt();
    changed();
  }

  subscriber.on('ready', () => {
    subscriber.subscribe(LOST_CHANNEL).then(
      () => {
        listening = true;
        changed();
      },
      () => undefined, // the connection closed again; the next 'ready' retries
    );
  });
  subscriber.on('close', () => {
    const wasListening = listening;
    listening = false;
    // The new connection will carry no subscriptions: forget the channels, end their listeners.
    listeners.clear();
    interrupt();
    // Stryker disable next-line ConditionalExpression: equivalent, a change only wakes ready() waiters to look at state() again, and a connection lost makes it no readier
    if (wasListening) changed();
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== LOST_CHANNEL) return listeners.emit(channel, parse(message));
    if ((parse(message) as { instance?: string } | null)?.instance !== instance) interrupt();
  });
  publisher.on('ready', () => {
    changed();
    announceLoss();
  });
  // Stryker disable next-line StringLiteral: equivalent, as for `if (wasListening)` above: losing the publisher makes the bus no readier
  publisher.on('close', changed);
  logOutages(publisher, 'publisher', () => closing);
  logOutages(subscriber, 'subscriber', () => closing);

  return {
    publish(channel, payload) {
      announceLoss();
      // Stryker disable next-line StringLiteral: equivalent, no event has an undefined payload (and parse() reads any text that is not JSON as null)
      publisher.publish(channel, payload === undefined ? '' : JSON.stringify(payload)).catch(publishFailed);
    },
    listen(channel, listener) {
      if (listeners.add(channel, listener)) subscriber.subscribe(channel).catch(() => undefined); // a closing connection interrupts
      return () => {
        if (listeners.remove(channel, listener)) subscriber.unsubscribe(channel).catch(() => undefined); // nothing to undo on a closed connection
      };
    },
    onInterrupted(listener) {
      interruptions.add(listener);
      // Stryker disable next-line ArrowFunction: equivalent, an ended subscription's listener left in the set only pushes into its stopped Repeater, which drops it (memory only)
      return () => void interruptions.delete(listener);
    },
    state,
    async ready(timeoutMs) {
      const signal = AbortSignal.timeout(timeoutMs);
      while (state() !== 'up') {
        await once(changes, 'change', { signal }).catch(() => {
          throw new Error(`Redis was not ready after ${timeoutMs} ms`);
        });
      }
    },
    async close() {
      closing = true;
      clearTimeout(noticeRetry);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent, disconnect() ends the stream as gracefully as QUIT (a PUBLISH in flight still gets its reply, checked by hand); QUIT on a connection not ready is refused at once and falls back to disconnect()
      const quit = async (c: Redis) => (c.status === 'ready' ? void (await c.quit().catch(() => c.disconnect())) : c.disconnect());
      await Promise.all([quit(publisher), quit(subscriber)]);
    },
  };
}

/** One line when a connection is lost and one when it is back, not one per reconnection attempt. */
function logOutages(client: Redis, role: string, closing: () => boolean) {
  let down = false;
  client.on('error', (error: Error) => {
    if (!down && !closing()) log.warn(`Redis ${role}: ${error.message}`);
  });
  client.on('close', () => {
    if (down || closing()) return;
    down = true;
    log.warn(`Redis ${role}: connection lost, retrying (writes go on; subscriptions are ended, new ones refused until Redis is back)`);
  });
  client.on('ready', () => {
    if (down) log.warn(`Redis ${role}: connected again`);
    down = false;
  });
}

/** A payload as the publisher sent it; null for what no instance of Engram sent (never throws). */
function parse(message: string): unknown {
  try {
    // Stryker disable next-line StringLiteral: equivalent, JSON.parse('') throws, and the catch answers null too
    return message === '' ? null : JSON.parse(message);
  } catch {
    return null;
  }
}
