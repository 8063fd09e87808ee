import { getOperationAST, GraphQLError, OperationTypeNode, type ExecutionArgs, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Largest answer to a query, in characters of its JSON (about bytes, for ASCII text). */
export const MAX_RESPONSE_CHARS = 32 * 1024 * 1024;

/**
 * Refuses a query whose answer would pass MAX_RESPONSE_CHARS, before it is written out. The cost
 * limit counts fields, not what they hold: thirty aliases of `nodes(ids:)` naming one entry of
 * 100,000 characters a hundred times made a 300 MB answer from a 100 KB entry (1.6 s of the event
 * loop, 1 GB of RSS, kept while the client read slowly). The answer's values are shared objects
 * until JSON.stringify copies them, so measuring first costs a walk, not the copy. Mutations are
 * answered whole: their answer must say what was written. Hand-written: no Yoga or envelop plugin
 * bounds an answer's size.
 */
export function useResponseSizeLimit(max = MAX_RESPONSE_CHARS): Plugin {
  return {
    onExecute({ args: loose }) {
      // Envelop types the arguments loosely; these are graphql-js ExecutionArgs.
      const args = loose as ExecutionArgs;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== OperationTypeNode.QUERY) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const answer = result as ExecutionResult;
          if (answer.data && longerThan(answer.data, max)) setResult({ errors: [tooLarge(max, operation)] });
        },
      };
    },
  };
}

function tooLarge(max: number, operation: OperationDefinitionNode): GraphQLError {
  return new GraphQLError(`The answer would pass ${max / 1024 / 1024} MB: ask for fewer items or fields (a smaller first, fewer ids or aliases)`, {
    nodes: operation,
    extensions: { code: 'RESPONSE_TOO_LARGE', limit: max },
  });
}

/** Whether `value` written as JSON would pass `max` characters (counted roughly, from above), stopping once it does. */
function longerThan(value: unknown, max: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const element of item) stack.push(element);
    } else if (item && typeof item === 'object') {
      for (const [key, field] of Object.entries(item)) {
        size += key.length + 4;
        stack.push(field);
      }
    } else size += 24;
    if (size > max) return true;
  }
  return false;
}
