import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationStarted } from '../infra/load.ts';

/**
 * Counts the queries and mutations executing (src/infra/load.ts), from the start of execution to
 * its result, whether it succeeds or throws. Subscriptions are not counted: an open one mostly
 * waits.
 */
export function useExecutionCount(): Plugin {
  return {
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
