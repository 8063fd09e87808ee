import { randomUUID } from 'node:crypto';
import { DomainError } from '../domain/errors.ts';
import type { Db, Tx } from './database.ts';
import type { ChangeRecord, RecordedChanges } from './change-feed.ts';
import { createInProcessTransport, createRedisTransport, type EventsState } from './event-transport.ts';
import { FeedTailer, type StreamEnd } from './feed-tailer.ts';
import { TtlCache } from './ttl-cache.ts';
import { scopeChainIds } from './scope-chain.ts';

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

/** Event payloads carry ids only (they are stored in the change feed); subscribers load the current rows. */
export interface EntryChangedPayload {
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
  type: EntryChangeType;
  entryId: string;
  /** TOOL | GUIDELINE | KNOWLEDGE (always since 2026-12-01; change-feed rows written before may lack it, but for DELETED). */
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
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
  type: 'DETECTED' | 'RESOLVED';
  conflictId: string;
  entryId: string;
  scopeId: string;
  occurredAt: string;
}

/** An event appended to a session's log (lifecycle transitions included). */
export interface SessionPayload {
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
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
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
  type: 'VOTED' | 'DECIDED';
  questionId: string;
  scopeId: string;
  /** The vote cast (for DECIDED, the vote that decided the question). */
  voteId: string;
  occurredAt: string;
}

/** A lease of a scope's resource changed hands or time (routing key `direct:<scope>`). */
export interface LeasePayload {
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
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

/** A step of the scheduled retention purge: a batch erased or a session archived (routing key `all`; admins subscribe). */
export interface PurgePayload {
  /** The event's position in the change feed (resume a subscription after it with `after`). */
  cursor: string;
  /** The receipts of what it erased. */
  receiptIds: string[];
  erasedEntries: number;
  archivedSessions: number;
  occurredAt: string;
}

export type PendingEvent =
  // The kind always: delivery makes the entry's global ID of it, and a read at delivery could fail
  // (a database connection lost) and lose the event (its ID is non-null). Feed rows written before
  // may lack it: those are read (EntryChangedEvent.entryId).
  | { topic: 'entryChanged'; payload: Omit<EntryChangedPayload, 'occurredAt' | 'cursor' | 'kind'> & { kind: string } }
  | { topic: 'conflict'; payload: Omit<ConflictPayload, 'occurredAt' | 'cursor'> }
  | { topic: 'sessionEvent'; payload: Omit<SessionPayload, 'occurredAt' | 'cursor'> }
  | { topic: 'purge'; payload: Omit<PurgePayload, 'occurredAt' | 'cursor'> }
  | { topic: 'lease'; payload: Omit<LeasePayload, 'occurredAt' | 'cursor'> }
  | { topic: 'vote'; payload: Omit<VotePayload, 'occurredAt' | 'cursor'> };

export { EXPIRED, UNAVAILABLE, type StreamEnd } from './feed-tailer.ts';

/** What a subscription receives: an event with its change-feed cursor, or the end of the stream. */
export type Delivery<T extends keyof Topics> = Topics[T][1] | StreamEnd;

/** A subscription whose changes cannot be read right now (the database is unreachable). */
export class EventsUnavailableError extends DomainError {
  readonly code = 'EVENTS_UNAVAILABLE';
  constructor() {
    super('Events cannot be read right now (the database is unreachable). Subscribe again with `after` set to the last cursor you received.');
  }
}

/** Redis channel that wakes every instance to read new changes (carries nothing). */
const WAKE_CHANNEL = 'engram:changes';
/** How often an instance reads the feed without a wake-up: a missed Redis message costs at most this. */
const POLL_MS = 1_000;
/** The same while Redis is down (no wake-ups cross instances). */
const POLL_MS_OUTAGE = 200;

export interface EventBus {
  /** The database the feed is read from (createApp attaches its own); returns what detaches it (the app stopped). */
  attach(db: Db): () => void;
  /**
   * The change rows of a write's events, to record in its transaction (routing keys are resolved
   * here, with the write's own connection).
   */
  changes(db: Tx, events: readonly PendingEvent[]): Promise<ChangeRecord[]>;
  /**
   * A transaction that recorded changes committed: this instance hands them on (without reading
   * them back when they follow what it delivered last) and wakes the others. Never throws.
   */
  committed(recorded: RecordedChanges): void;
  /**
   * The events of `topic` under routing `key`, after the change-feed cursor `after` (from now
   * without one), each with its cursor. Ends with EXPIRED when `after` cannot be resumed from.
   */
  subscribe<T extends keyof Topics>(topic: T, key: string, after?: string | null): AsyncIterable<Delivery<T>>;
  /** `in-process` (no Redis), `up` or `down` (Redis unreachable: instances poll the feed). */
  state(): EventsState;
  /** Resolves once Redis connections are ready (at once in-process); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const directKey = (scopeId: string) => `direct:${scopeId}`;
export const treeKey = (scopeId: string) => `tree:${scopeId}`;

/**
 * The event bus over the change feed (src/infra/change-feed.ts): events are recorded by the write
 * that causes them and read back by every instance; Redis, when `redisUrl` is set, only wakes the
 * other instances up sooner than their poll.
 */
export function createEventBus(options: { redisUrl?: string | null } = {}): EventBus {
  const transport = options.redisUrl ? createRedisTransport(options.redisUrl) : createInProcessTransport();
  const chainOf = scopeChains();
  const tailer = new FeedTailer(() => (transport.state() === 'down' ? POLL_MS_OUTAGE : POLL_MS));
  /** Names this instance's wake-ups, which come back to it through Redis (and the in-process transport). */
  const instance = randomUUID();
  // Woken by other instances. The wake channel is listened to once Redis is up, and again after
  // every lost connection (which forgets its channels); polls cover the time in between.
  let waking: (() => void) | null = null;
  let relisten = true;
  const listenForWakeUps = () => {
    if (!relisten || transport.state() === 'down') return;
    relisten = false;
    waking?.();
    waking = transport.listen(WAKE_CHANNEL, (payload) => {
      // Its own commits this instance has handed on already (or read, when they did not follow).
      if ((payload as { from?: string } | null)?.from !== instance) tailer.wake();
    });
    tailer.wake();
  };
  listenForWakeUps();
  transport.onInterrupted(() => {
    relisten = true;
    tailer.wake();
  });
  const poll = setInterval(listenForWakeUps, POLL_MS_OUTAGE).unref();

  const bus: EventBus = {
    attach(db) {
      tailer.attach(db);
      return () => tailer.attach(null);
    },
    async changes(db, events) {
      const at = new Date().toISOString();
      // One event at a time: `db` may be a transaction, whose connection takes one query at a time
      // (pg 8 queues a second one with a deprecation warning; pg 9 refuses it). A scope's chain is
      // read once for all its events anyway (chainOf caches it).
      const changes: ChangeRecord[] = [];
      for (const event of events) changes.push({ topic: event.topic, keys: await routingKeys(db, event, chainOf), payload: { ...event.payload, occurredAt: at } });
      return changes;
    },
    committed(recorded) {
      tailer.committed(recorded);
      transport.publish(WAKE_CHANNEL, { from: instance });
    },
    subscribe: <T extends keyof Topics>(topic: T, key: string, after?: string | null) => tailer.subscribe<Topics[T][1]>(topic, key, after),
    state: () => transport.state(),
    async ready(timeoutMs = 10_000) {
      await transport.ready(timeoutMs);
      listenForWakeUps();
    },
    async close() {
      clearInterval(poll);
      tailer.close();
      await transport.close();
    },
  };
  return bus;
}

/** Where an event is delivered: scope events under their scope and (tree) every ancestor. */
async function routingKeys(db: Tx, event: PendingEvent, chainOf: (db: Tx, scopeId: string) => Promise<string[]>): Promise<string[]> {
  switch (event.topic) {
    case 'purge':
      return ['all'];
    case 'lease':
    case 'vote':
      return [directKey(event.payload.scopeId)];
    case 'sessionEvent':
      return [`session:${event.payload.sessionId}`, `project:${event.payload.projectId}`];
    default: {
      const chain = (event.topic === 'entryChanged' && event.payload.chain) || (await chainOf(db, event.payload.scopeId));
      return [directKey(event.payload.scopeId), ...chain.map(treeKey)];
    }
  }
}

/** How long a scope's ancestor chain is reused for routing (a moved project routes anew after it). */
const CHAIN_CACHE_MS = 1_000;

/** A scope's ancestor chain, cached for CHAIN_CACHE_MS: projects can move between organizations. */
function scopeChains(): (db: Tx, scopeId: string) => Promise<string[]> {
  const chains = new TtlCache<Promise<string[]>>(CHAIN_CACHE_MS, 50_000);
  return (db, scopeId) => chains.getOrLoad(scopeId, async () => (await scopeChainIds(db, scopeId)) ?? []);
}
