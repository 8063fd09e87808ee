import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';
import { held, operationStarted } from '../infra/load.ts';

/** The execution-count plugin, and how many subscriptions it has seen open and not ended. */
export interface ExecutionCount {
  plugin: Plugin;
  subscriptionsOpen(): number;
}

/**
 * Counts the queries and mutations executing (src/infra/load.ts), from the start of execution to
 * its result, whether it succeeds or throws, and the subscriptions open, which `database` is told
 * of (an open one mostly waits, so it is counted apart: it is someone an event must reach without
 * delay) and the metrics serve (engram_subscriptions_open).
 */
export function executionCount(database: Pick<Database, 'subscriptionOpened'>): ExecutionCount {
  let open = 0;
  const plugin: Plugin = {
    onSubscribe: () => ({
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
    }),
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
