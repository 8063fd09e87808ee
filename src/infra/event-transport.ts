import { EventEmitter, once } from 'node:events';
import { Redis } from 'ioredis';
import { log } from './log.ts';

/** `in-process`: no Redis configured; `up`/`down`: whether events cross instances right now. */
export type EventsState = 'in-process' | 'up' | 'down';

/**
 * Moves messages between publishers and listeners, within this process or across instances: the
 * event bus sends wake-ups through it (the events themselves are in the change feed).
 */
export interface EventTransport {
  /** Sends `payload` to the listeners of `channel` on every instance. Never throws, never rejects. */
  publish(channel: string, payload: unknown): void;
  /** Calls `listener` with each payload sent to `channel`; returns the function that stops it. */
  listen(channel: string, listener: (payload: unknown) => void): () => void;
  /** Calls `listener` whenever channels were dropped (the connection closed); returns the function that stops it. */
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

/** Listeners of one process: nothing is ever lost, so nothing is ever interrupted. */
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
 * Wake-ups across instances over Redis PUBLISH/SUBSCRIBE. What they announce is in the change feed
 * (src/infra/change-feed.ts), which every instance also polls: a message lost to an outage delays
 * an event by one poll and loses nothing, so nothing here retries or announces losses.
 *
 * Hand-written rather than @graphql-yoga/redis-event-target: that target drops the promises of
 * its PUBLISH, SUBSCRIBE and UNSUBSCRIBE commands, so while Redis is down each one ends as an
 * unhandled rejection (ioredis' MaxRetriesPerRequestError) and Node exits with code 1.
 *
 * Contract: nothing waits for Redis or queues for it. Commands are refused at once while a
 * connection is down (no offline queue) and are not resent after a reconnection
 * (maxRetriesPerRequest 0), so memory stays bounded and a write never waits on Redis. When the
 * subscriber connection closes, its channels are forgotten and `onInterrupted` listeners are told,
 * so they can listen again once `state()` is `up` (both connections ready).
 */
export function createRedisTransport(url: string): EventTransport {
  const publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  // The subscriber connection sends nothing but (UN)SUBSCRIBE: ioredis 5.8+ can otherwise slip
  // its handshake (CLIENT SETINFO, the INFO ready check) after a SUBSCRIBE issued while
  // connecting, and the connection then rejects it (ioredis#2037) and never delivers. No automatic
  // resubscription: listeners are told when the connection closes and listen again.
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
  let failedPublishes = 0;
  let closing = false;

  const state = (): EventsState => (subscriber.status === 'ready' && publisher.status === 'ready' ? 'up' : 'down');
  const changed = () => changes.emit('change');

  subscriber.on('ready', changed);
  subscriber.on('close', () => {
    // The new connection will carry no subscriptions: forget the channels, tell their listeners.
    listeners.clear();
    for (const listener of [...interruptions]) listener();
    changed();
  });
  subscriber.on('message', (channel: string, message: string) => listeners.emit(channel, parse(message)));
  publisher.on('ready', () => {
    failedPublishes = 0;
    changed();
  });
  // Stryker disable next-line StringLiteral: equivalent: losing the publisher makes the bus no readier
  publisher.on('close', changed);
  logOutages(publisher, 'publisher', () => closing);
  logOutages(subscriber, 'subscriber', () => closing);

  return {
    publish(channel, payload) {
      // Stryker disable next-line StringLiteral: equivalent, no event has an undefined payload (and parse() reads any text that is not JSON as null)
      publisher.publish(channel, payload === undefined ? '' : JSON.stringify(payload)).catch((error: Error) => {
        if (failedPublishes++ === 0 && !closing) log.warn(`Redis: a wake-up could not be published (${error.message}); instances poll the change feed meanwhile`);
      });
    },
    listen(channel, listener) {
      if (listeners.add(channel, listener)) subscriber.subscribe(channel).catch(() => undefined); // a closing connection interrupts
      return () => {
        if (listeners.remove(channel, listener)) subscriber.unsubscribe(channel).catch(() => undefined); // nothing to undo on a closed connection
      };
    },
    onInterrupted(listener) {
      interruptions.add(listener);
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
    log.warn(`Redis ${role}: connection lost, retrying (writes and subscriptions go on; instances poll the change feed until Redis is back)`);
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
