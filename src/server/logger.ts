import { format } from 'node:util';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';
import { log, requestScope } from '../infra/log.ts';

/** Yoga's logger: its lines go through the process's logger (JSON, request id, secrets scanned). */
export function yogaLogger() {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => log[level](format(...args));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The longest operation name a log line carries whole. */
const MAX_LOGGED_NAME = 200;

/** Notes the operation and the caller in the request's scope, for its log line and every line logged meanwhile. */
export function useOperationLog(): Plugin<Context> {
  const note = (args: { operationName?: string | null; document: DocumentNode; contextValue: Context }) => {
    const scope = requestScope.getStore();
    if (!scope) return;
    // The operation `operationName` picks (a document may hold several), as execution does.
    const operation = getOperationAST(args.document, args.operationName);
    const name = args.operationName ?? operation?.name?.value;
    // A name is one token whatever its length (one of 10 MB was written into each request's line).
    scope.operationName = name && name.length > MAX_LOGGED_NAME ? `${name.slice(0, MAX_LOGGED_NAME)}…` : name;
    scope.operationType = operation?.operation;
    scope.principal = args.contextValue.caller.principal?.name ?? (args.contextValue.caller.local ? 'local' : undefined);
  };
  return {
    onExecute: ({ args }) => note(args),
    onSubscribe: ({ args }) => note(args),
  };
}
