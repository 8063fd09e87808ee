import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';
import { DEFAULT_MAX_SUBSCRIPTIONS } from '../domain/limits.ts';
import { held, operationStarted } from '../infra/load.ts';

/** The refusal of a subscription past the instance's cap: it ends at once, the others go on. */
function tooManySubscriptions(limit: number): GraphQLError {
  return new GraphQLError(`Too many subscriptions are open on this instance (at most ${limit}); try again later`, {
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit },
  });
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
 * delay) and the metrics serve (engram_subscriptions_open). A subscription past `maxOpen` open
 * ones is refused (TOO_MANY_SUBSCRIPTIONS).
 */
export function executionCount(database: Pick<Database, 'subscriptionOpened'>, maxOpen = DEFAULT_MAX_SUBSCRIPTIONS): ExecutionCount {
  let open = 0;
  const plugin: Plugin = {
    onSubscribe: ({ setResultAndStopExecution }) => {
      // One instance's subscriptions over every transport (see DEFAULT_MAX_SUBSCRIPTIONS).
      if (open >= maxOpen) {
        setResultAndStopExecution({ errors: [tooManySubscriptions(maxOpen)] });
        return undefined;
      }
      return {
        onSubscribeResult: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) return undefined;
          const ours = held((delta) => (open += delta));
          const databases = database.subscriptionOpened();
          return {
            onEnd: () => {
              ours();
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
