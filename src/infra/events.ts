import { Repeater } from 'graphql-yoga';
import { DomainError } from '../domain/errors.ts';
import type { Db } from './database.ts';
import { createInProcessTransport, createRedisTransport, type EventsState, type EventTransport } from './event-transport.ts';
import { TtlCache } from './ttl-cache.ts';
import { scopeChainIds } from './scope-chain.ts';
import { log } from './log.ts';

export type { EventsState } from './event-transport.ts';

/** What changed about an entry. */
export type EntryChangeType =
  | 'CREATED'
  | 'UPDATED'
  | 'DEACTIVATED'
  | 'REACTIVATED'
  | 'TAGGED'
  | 'UNTAGGED'
  | 'RELATED'
  | 'UNRELATED'
  | 'PROMOTED'
  | 'DELETED';

/** Event payloads carry ids only (they may cross Redis); subscribers load the current rows. */
export interface EntryChangedPayload {
  type: EntryChangeType;
  entryId: string;
  /** TOOL | GUIDELINE | KNOWLEDGE, when the publisher knows it (always for DELETED). */
  kind?: string;
  scopeId: string;
  /**
   * The scope's chain (itself first, then its ancestors), read inside the write. Set for DELETED:
   * an entry erased with its scope is announced after the scope is gone, when the chain could no
   * longer be read, and routing and delivery need it.
   */
  chain?: string[];
  /** The version written, for CREATED and UPDATED. */
  versionId: string | null;
  actor: string | null;
  occurredAt: string;
}

export interface ConflictPayload {
  type: 'DETECTED' | 'RESOLVED';
  conflictId: string;
  entryId: string;
  scopeId: string;
  occurredAt: string;
}

/** An event appended to a session's log (lifecycle transitions included). */
export interface SessionPayload {
  eventId: string;
  sessionId: string;
  projectId: string;
  occurredAt: string;
}

/**
 * Topics and their routing keys. Scope events go to `direct:<scope>` and to `tree:<s>` for the
 * scope and each ancestor, so a subscriber picks one key for "this scope" or "with descendants".
 * Session events go to `session:<id>` and `project:<id>`.
 */
export type Topics = {
  entryChanged: [key: string, payload: EntryChangedPayload];
  conflict: [key: string, payload: ConflictPayload];
  sessionEvent: [key: string, payload: SessionPayload];
  purge: [key: string, payload: PurgePayload];
  lease: [key: string, payload: LeasePayload];
  vote: [key: string, payload: VotePayload];
};

/** A vote on a scope's question was cast, or decided it (routing key `direct:<scope>`). */
export interface VotePayload {
  type: 'VOTED' | 'DECIDED';
  questionId: string;
  scopeId: string;
  /** The vote cast (for DECIDED, the vote that decided the question). */
  voteId: string;
  occurredAt: string;
}

/** A lease of a scope's resource changed hands or time (routing key `direct:<scope>`). */
export interface LeasePayload {
  type: 'GRANTED' | 'RENEWED' | 'RELEASED' | 'UNLOCKED';
  scopeId: string;
  resource: string;
  /** The lease's holder, mode, token and end; null for UNLOCKED (every lease of the resource). */
  holder: string | null;
  mode: string | null;
  token: number | null;
  expiresAt: string | null;
  occurredAt: string;
}

/** A run of the scheduled retention purge (routing key `all`; admins subscribe). */
export interface PurgePayload {
  /** The receipts of what it erased. */
  receiptIds: string[];
  erasedEntries: number;
  archivedSessions: number;
  occurredAt: string;
}

export type PendingEvent =
  | { topic: 'entryChanged'; payload: Omit<EntryChangedPayload, 'occurredAt'> }
  | { topic: 'conflict'; payload: Omit<ConflictPayload, 'occurredAt'> }
  | { topic: 'sessionEvent'; payload: Omit<SessionPayload, 'occurredAt'> }
  | { topic: 'purge'; payload: Omit<PurgePayload, 'occurredAt'> }
  | { topic: 'lease'; payload: Omit<LeasePayload, 'occurredAt'> }
  | { topic: 'vote'; payload: Omit<VotePayload, 'occurredAt'> };

/**
 * Delivered to a subscription in place of an event when events may have been lost (Redis went
 * away, or an instance could not publish); it is the stream's last item.
 */
export const INTERRUPTED = Symbol('events interrupted');
export type Delivery<T extends keyof Topics> = Topics[T][1] | typeof INTERRUPTED;

/** A new subscription while events cannot cross instances (Redis is down). */
export class EventsUnavailableError extends DomainError {
  readonly code = 'EVENTS_UNAVAILABLE';
  constructor() {
    super('Events are unavailable right now (the event broker is down); writes still work. Retry the subscription later.');
  }
}

/** The end of a subscription that may have missed events. */
export class EventsInterruptedError extends DomainError {
  readonly code = 'EVENTS_INTERRUPTED';
  constructor() {
    super('Event delivery was interrupted and events may have been missed: refetch what you follow, then subscribe again.');
  }
}

/** Events a slow subscriber may have waiting before it is ended with EVENTS_INTERRUPTED. */
export const MAX_PENDING_EVENTS = 1_000;

export interface EventBus {
  /** Publishes events of a committed transaction, in order. Never throws, never waits for Redis. */
  publish(db: Db, events: readonly PendingEvent[]): Promise<void>;
  /**
   * The events of `topic` under routing `key`. Ends with INTERRUPTED when events may have been
   * missed. Throws EventsUnavailableError while events cannot be delivered.
   */
  subscribe<T extends keyof Topics>(topic: T, key: string): AsyncIterable<Delivery<T>>;
  /** `in-process` (no Redis), `up` or `down` (Redis unreachable or a loss not yet announced). */
  state(): EventsState;
  /** Resolves once the bus can deliver (Redis connections ready; at once in-process); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const directKey = (scopeId: string) => `direct:${scopeId}`;
export const treeKey = (scopeId: string) => `tree:${scopeId}`;

/** In-process events, or events across instances over Redis when `redisUrl` is set. */
export function createEventBus(options: { redisUrl?: string | null } = {}): EventBus {
  const transport = options.redisUrl ? createRedisTransport(options.redisUrl) : createInProcessTransport();
  const chainOf = scopeChains();
  const send = <T extends keyof Topics>(topic: T, key: string, payload: Topics[T][1]) => transport.publish(`${topic}:${key}`, payload);

  return {
    async publish(db, events) {
      try {
        for (const event of events) {
          const occurredAt = new Date().toISOString();
          if (event.topic === 'purge') {
            send('purge', 'all', { ...event.payload, occurredAt });
            continue;
          }
          if (event.topic === 'lease') {
            send('lease', directKey(event.payload.scopeId), { ...event.payload, occurredAt });
            continue;
          }
          if (event.topic === 'vote') {
            send('vote', directKey(event.payload.scopeId), { ...event.payload, occurredAt });
            continue;
          }
          if (event.topic === 'sessionEvent') {
            const payload = { ...event.payload, occurredAt };
            send('sessionEvent', `session:${payload.sessionId}`, payload);
            send('sessionEvent', `project:${payload.projectId}`, payload);
            continue;
          }
          const chain = (event.topic === 'entryChanged' && event.payload.chain) || (await chainOf(db, event.payload.scopeId));
          const keys = [directKey(event.payload.scopeId), ...chain.map(treeKey)];
          if (event.topic === 'entryChanged') {
            const payload = { ...event.payload, occurredAt };
            for (const key of keys) send('entryChanged', key, payload);
          } else {
            const payload = { ...event.payload, occurredAt };
            for (const key of keys) send('conflict', key, payload);
          }
        }
      } catch (error) {
        // The write has committed; a lost notification must not turn it into a failure.
        log.error({ err: error }, 'Publishing events failed');
      }
    },
    subscribe: (topic, key) => subscribe(transport, `${topic}:${key}`),
    state: () => transport.state(),
    ready: (timeoutMs = 10_000) => transport.ready(timeoutMs),
    close: () => transport.close(),
  };
}

/** A subscription's stream: the channel's payloads, ended by INTERRUPTED when some may be lost. */
function subscribe<P>(transport: EventTransport, channel: string): AsyncIterable<P | typeof INTERRUPTED> {
  if (transport.state() === 'down') throw new EventsUnavailableError();
  return new Repeater<P | typeof INTERRUPTED>((push, stop) => {
    let pending = 0;
    const end = () => {
      void push(INTERRUPTED);
      stop();
    };
    const unlisten = transport.listen(channel, (payload) => {
      // A subscriber that stopped reading would hold every event: past the bound it is ended,
      // told that it missed events (the Repeater itself throws past 1024 waiting pushes).
      if (pending >= MAX_PENDING_EVENTS) return end();
      pending++;
      void push(payload as P).then(() => pending--);
    });
    const unwatch = transport.onInterrupted(end);
    void stop.then(() => {
      unlisten();
      unwatch();
    });
  });
}

/** How long a scope's ancestor chain is reused for routing (a moved project routes anew after it). */
const CHAIN_CACHE_MS = 1_000;

/** A scope's ancestor chain, cached for CHAIN_CACHE_MS: projects can move between organizations. */
function scopeChains(): (db: Db, scopeId: string) => Promise<string[]> {
  const chains = new TtlCache<Promise<string[]>>(CHAIN_CACHE_MS, 50_000);
  return (db, scopeId) => chains.getOrLoad(scopeId, async () => (await scopeChainIds(db, scopeId)) ?? []);
}
