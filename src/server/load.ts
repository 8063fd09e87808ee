import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';
import { operationStarted } from '../infra/load.ts';

/**
 * Counts the queries and mutations executing (src/infra/load.ts), from the start of execution to
 * its result, whether it succeeds or throws, and the subscriptions open on `database` (an open one
 * mostly waits, so it is counted apart: it is someone an event must reach without delay).
 */
export function useExecutionCount(database: Pick<Database, 'subscriptionOpened'>): Plugin {
  return {
    onSubscribe: () => ({
      onSubscribeResult: ({ result }) => {
        if (!(Symbol.asyncIterator in result)) return undefined;
        return { onEnd: database.subscriptionOpened() };
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
}
