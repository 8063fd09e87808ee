import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';
import type { Context } from '../context.ts';
import { DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY } from '../domain/limits.ts';
import { CountsByKey, held, operationStarted } from '../infra/load.ts';

/** The refusal of a subscription past a cap: it ends at once, the others go on. */
function tooManySubscriptions(limit: number, holder: 'instance' | 'key'): GraphQLError {
  const where = holder === 'instance' ? 'on this instance' : 'for this API key on this instance';
  return new GraphQLError(`Too many subscriptions are open ${where} (at most ${limit}); try again later`, {
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit },
  });
}

/** The caps of executionCount. */
export interface SubscriptionCaps {
  /** Subscriptions open on the instance (default DEFAULT_MAX_SUBSCRIPTIONS). */
  instance?: number | undefined;
  /** Of those, the ones one API key holds (default DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY). */
  perKey?: number | undefined;
}

/** Subscriptions held per API key (see executionCount for when a place is taken and given back). */
function keyPlaces(max: number) {
  const counts = new CountsByKey();
  return {
    /** A place for `key`, or null when it holds `max` already. */
    take: (key: string): (() => void) | null => (counts.of(key) >= max ? null : held((delta) => counts.add(key, delta))),
  };
}

/** The execution-count plugin, and how many subscriptions it has seen open and not ended. */
export interface ExecutionCount {
  plugin: Plugin;
  subscriptionsOpen(): number;
}

/**
 * Counts the queries and mutations executing (src/infra/load.ts), from the start of execution to
 * its result, whether it succeeds or throws, and the subscriptions open, which `database` is told
 * of (an open one mostly waits, so it is counted apart: it is someone an event must reach without
 * delay) and the metrics serve (engram_subscriptions_open, which counts those starting too). A
 * subscription past the instance's cap, or its API key's, is refused (TOO_MANY_SUBSCRIPTIONS).
 */
export function executionCount(database: Pick<Database, 'subscriptionOpened'>, caps: SubscriptionCaps = {}): ExecutionCount {
  const maxOpen = caps.instance ?? DEFAULT_MAX_SUBSCRIPTIONS;
  const maxPerKey = caps.perKey ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY;
  const keys = keyPlaces(maxPerKey);
  let open = 0;
  const plugin: Plugin = {
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      // One instance's subscriptions over every transport (see DEFAULT_MAX_SUBSCRIPTIONS).
      if (open >= maxOpen) {
        setResultAndStopExecution({ errors: [tooManySubscriptions(maxOpen, 'instance')] });
        return undefined;
      }
      // Callers without a key are trusted, as by the rate limits (see DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY).
      const key = (args.contextValue as Partial<Pick<Context, 'caller'>>).caller?.keyId;
      const keyPlace = key === undefined ? () => undefined : keys.take(key);
      if (!keyPlace) {
        setResultAndStopExecution({ errors: [tooManySubscriptions(maxPerKey, 'key')] });
        return undefined;
      }
      // Places are taken when a subscription is asked for, not when it starts: those asked for at
      // once (many sockets, each with its operations) would otherwise all pass the checks above
      // while their access checks run. Given back when the answer is not a stream, or it ends.
      const instancePlace = held((delta) => (open += delta));
      const release = () => {
        instancePlace();
        keyPlace();
      };
      return {
        onSubscribeResult: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) {
            release();
            return undefined;
          }
          const databases = database.subscriptionOpened();
          return {
            onEnd: () => {
              release();
              databases();
            },
          };
        },
      };
    },
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(async (args) => {
        const ended = operationStarted();
        try {
          // Yoga types the execute function's result as any.
          return (await executeFn(args)) as ExecutionResult | AsyncIterable<ExecutionResult>;
        } finally {
          ended();
        }
      });
    },
  };
  return { plugin, subscriptionsOpen: () => open };
}
