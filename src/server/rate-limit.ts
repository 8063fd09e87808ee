import { getOperationAST, GraphQLError, Kind, OperationTypeNode, type DocumentNode, type ExecutionArgs, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Context } from '../context.ts';
import { log } from '../infra/log.ts';

/** Per-caller budgets, per second. A caller is an API key, or a client address without one. */
export interface RateLimits {
  /** GraphQL operations per second (HTTP requests, SSE streams, graphql-ws operations); 0 = unlimited. */
  requestsPerSecond: number;
  /** Mutation root fields per second (a mutation with five fields spends five); 0 = unlimited. */
  writesPerSecond: number;
  /** Redis shared by every instance, so the budgets are per caller and not per instance; null = this process only. */
  redisUrl?: string | null;
}

/** What `useRateLimits` asks: how long a caller must wait (seconds), or null when it may go on. */
export interface RateLimiter {
  /** The writes budget (0: none); a mutation with more root fields could never be admitted. */
  readonly writesPerSecond: number;
  admit(caller: string, writes: number): Promise<number | null>;
  close(): Promise<void>;
}

/**
 * Fixed one-second windows from rate-limiter-flexible: in Redis when configured (atomic INCR +
 * expiry in one Lua script, shared by every instance), in memory otherwise. Redis is an
 * accelerator of fairness, never a dependency: while it is unreachable each instance counts in its
 * own memory (the library's insurance limiter), so an outage loosens the limits by the number of
 * instances instead of refusing or stalling requests. Commands are never queued for a Redis that is
 * down (no offline queue, no retries), so a request never waits on it.
 */
export function createRateLimiter(limits: RateLimits): RateLimiter {
  const limited = limits.requestsPerSecond > 0 || limits.writesPerSecond > 0;
  const redis = limits.redisUrl && limited ? connect(limits.redisUrl) : null;
  const bucket = (name: string, points: number): RateLimiterAbstract | null => {
    if (points === 0) return null;
    const memory = new RateLimiterMemory({ keyPrefix: `engram:rl:${name}`, points, duration: 1 });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `engram:rl:${name}`,
      points,
      duration: 1,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };
  const requests = bucket('requests', limits.requestsPerSecond);
  const writes = bucket('writes', limits.writesPerSecond);
  return {
    writesPerSecond: limits.writesPerSecond,
    async admit(caller, writeCount) {
      const waits = await Promise.all([spend(requests, caller, 1), writeCount > 0 ? spend(writes, caller, writeCount) : null]);
      const longest = Math.max(...waits.map((ms) => ms ?? 0));
      return longest > 0 ? Math.max(1, Math.ceil(longest / 1000)) : null;
    },
    async close() {
      if (redis) await (redis.status === 'ready' ? redis.quit().then(() => undefined, () => redis.disconnect()) : redis.disconnect());
    },
  };
}

/** Milliseconds until `points` more would fit in `caller`'s window, or null when they were spent. */
async function spend(limiter: RateLimiterAbstract | null, caller: string, points: number): Promise<number | null> {
  if (!limiter) return null;
  try {
    await limiter.consume(caller, points);
    return null;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return Math.max(1, refusal.msBeforeNext);
    // Both stores failed (cannot happen with the memory insurance): let the request through.
    log.warn({ err: refusal }, 'Rate limit unavailable');
    return null;
  }
}

function connect(url: string): Redis {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  // One line per outage, not one per reconnection attempt.
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn(`Redis rate limits: ${error.message}; counting in this instance's memory until it is back`);
  });
  client.on('ready', () => {
    if (down) log.warn('Redis rate limits: connected again');
    down = false;
  });
  return client;
}

/**
 * Whom an operation is counted against: its API key. Callers without one are trusted the way the
 * server already trusts them (this machine in protected mode, a trusted network with AUTH=off,
 * code in the process) and are not limited: a local load test or benchmark must not meet 429s.
 */
function callerOf(ctx: Context): string | null {
  return ctx.caller.keyId ? `key:${ctx.caller.keyId}` : null;
}

/** Root fields of the operation when it is a mutation (fragments followed, `__typename` free), else 0. */
export function writesOf(document: DocumentNode, operationName?: string | null): number {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== OperationTypeNode.MUTATION) return 0;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  // Validation has run (no fragment cycles), so this recursion ends; a mutation's root fields are few.
  const count = (set: SelectionSetNode): number =>
    set.selections.reduce((sum, selection) => {
      if (selection.kind === Kind.FIELD) return sum + (selection.name.value === '__typename' ? 0 : 1);
      if (selection.kind === Kind.INLINE_FRAGMENT) return sum + count(selection.selectionSet);
      const fragment = fragments.get(selection.name.value);
      return sum + (fragment ? count(fragment.selectionSet) : 0);
    }, 0);
  return count(operation.selectionSet);
}

/**
 * Refuses an operation over its caller's budget with RATE_LIMITED and `retryAfter` (seconds), and
 * a mutation with more root fields than a whole second's write budget with TOO_MANY_WRITES.
 * Over HTTP and SSE the answer is a 429 with `Retry-After`; over graphql-ws (no HTTP request in the
 * context) that operation alone gets the error and the socket stays open. Checked when the
 * operation is about to run, where the caller (the context) and the parsed document are known.
 */
export function useRateLimits(limiter: RateLimiter): Plugin {
  const refusal = async (args: ExecutionArgs) => {
    const ctx = args.contextValue as Context & { request?: Request };
    const caller = callerOf(ctx);
    if (!caller) return null;
    const writes = writesOf(args.document, args.operationName);
    if (limiter.writesPerSecond > 0 && writes > limiter.writesPerSecond) {
      // Waiting would not help: this is the caller's to split, as for the other operation limits.
      const message = `The mutation has ${writes} root fields; at most ${limiter.writesPerSecond} writes a second are allowed: split it`;
      return { errors: [new GraphQLError(message, { extensions: { code: 'TOO_MANY_WRITES', writes, limit: limiter.writesPerSecond } })] };
    }
    const retryAfter = await limiter.admit(caller, writes);
    if (retryAfter === null) return null;
    const http = ctx.request ? { http: { status: 429, headers: { 'Retry-After': String(retryAfter) } } } : {};
    const error = new GraphQLError(`Rate limit exceeded: try again in ${retryAfter} s`, {
      extensions: { code: 'RATE_LIMITED', retryAfter, ...http },
    });
    return { errors: [error] };
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refused = await refusal(args);
      if (refused) setResultAndStopExecution(refused);
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refused = await refusal(args);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}
