import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Db } from './database.ts';
import { scopeChainIds } from './scope-chain.ts';

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
  | 'PROMOTED';

/** Event payloads carry ids only (they may cross Redis); subscribers load the current rows. */
export interface EntryChangedPayload {
  type: EntryChangeType;
  entryId: string;
  scopeId: string;
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
};

export type PendingEvent =
  | { topic: 'entryChanged'; payload: Omit<EntryChangedPayload, 'occurredAt'> }
  | { topic: 'conflict'; payload: Omit<ConflictPayload, 'occurredAt'> }
  | { topic: 'sessionEvent'; payload: Omit<SessionPayload, 'occurredAt'> };

export interface EventBus {
  pubsub: PubSub<Topics>;
  /** Publishes events of a committed transaction, in order. Never throws. */
  publish(db: Db, events: readonly PendingEvent[]): Promise<void>;
  /** Resolves once the bus can deliver (Redis connections ready; at once in-process); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const directKey = (scopeId: string) => `direct:${scopeId}`;
export const treeKey = (scopeId: string) => `tree:${scopeId}`;

/** In-process pub/sub, or Redis (channel per topic and key) when `redisUrl` is set. */
export function createEventBus(options: { redisUrl?: string | null } = {}): EventBus {
  let clients: Redis[] = [];
  let pubsub: PubSub<Topics>;
  if (options.redisUrl) {
    const publishClient = new Redis(options.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    // The subscriber connection sends nothing but (UN)SUBSCRIBE: ioredis 5.8+ can otherwise slip
    // its handshake (CLIENT SETINFO, the INFO ready check) after a SUBSCRIBE issued while
    // connecting, and the connection then rejects it (ioredis#2037) and never delivers.
    const subscribeClient = new Redis(options.redisUrl, { lazyConnect: false, disableClientInfo: true, enableReadyCheck: false });
    for (const client of [publishClient, subscribeClient]) {
      client.on('error', (error: Error) => console.warn(`Redis: ${error.message}`));
    }
    clients = [publishClient, subscribeClient];
    pubsub = createPubSub<Topics>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  } else {
    pubsub = createPubSub<Topics>();
  }

  // Scopes never move, so a scope's ancestor chain can be cached for the life of the process.
  const chains = new Map<string, string[]>();
  async function chainOf(db: Db, scopeId: string): Promise<string[]> {
    const cached = chains.get(scopeId);
    if (cached) return cached;
    const chain = (await scopeChainIds(db, scopeId)) ?? [];
    if (chains.size > 50_000) chains.clear();
    chains.set(scopeId, chain);
    return chain;
  }

  return {
    pubsub,
    async publish(db, events) {
      try {
        for (const event of events) {
          const occurredAt = new Date().toISOString();
          if (event.topic === 'sessionEvent') {
            const payload = { ...event.payload, occurredAt };
            pubsub.publish('sessionEvent', `session:${payload.sessionId}`, payload);
            pubsub.publish('sessionEvent', `project:${payload.projectId}`, payload);
            continue;
          }
          const chain = await chainOf(db, event.payload.scopeId);
          const keys = [directKey(event.payload.scopeId), ...chain.map(treeKey)];
          if (event.topic === 'entryChanged') {
            const payload = { ...event.payload, occurredAt };
            for (const key of keys) pubsub.publish('entryChanged', key, payload);
          } else {
            const payload = { ...event.payload, occurredAt };
            for (const key of keys) pubsub.publish('conflict', key, payload);
          }
        }
      } catch (error) {
        // The write has committed; a lost notification must not turn it into a failure.
        console.error('Publishing events failed:', error);
      }
    },
    async ready(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const waits = clients
        .filter((c) => c.status !== 'ready')
        .map(
          (c) =>
            new Promise<void>((resolve, reject) => {
              c.once('ready', () => resolve());
              c.once('end', () => reject(new Error('Redis connection closed before it was ready')));
            }),
        );
      try {
        await Promise.race([
          Promise.all(waits),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`Redis was not ready after ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
