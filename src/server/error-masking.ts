import { PothosValidationError } from '@pothos/core';
import { GraphQLError, Kind } from 'graphql';
import { DomainError } from '../domain/errors.ts';
import { isRetryable } from '../infra/transaction.ts';
import { isDatabaseUnavailable } from '../infra/prisma-errors.ts';
import { log, requestScope } from '../infra/log.ts';

/**
 * Yoga's `maskError`: what a caller sees of an error. Expected failures raised outside result
 * unions (query arguments) keep their message and carry their code; everything else is logged
 * with the request id and answered as "Unexpected error." (INTERNAL_SERVER_ERROR, with that id),
 * or as DATABASE_BUSY / DATABASE_UNAVAILABLE when the database is at fault.
 */
export function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // Expected failures keep their message; DomainError.extensions supplies the code.
  if (original instanceof DomainError) return error instanceof GraphQLError ? asClientError(error) : (error as Error);
  // Pothos rejects bad paging argument combinations (e.g. `first` with `before`), and a
  // Prisma connection's cursor it cannot decode: that one as every other list's is.
  if (error instanceof GraphQLError && original instanceof PothosValidationError) {
    if (/cursor/i.test(original.message)) return asClientError(asForeignCursor(error));
    (error.extensions as Record<string, unknown>).code = 'BAD_USER_INPUT';
    return asClientError(error);
  }
  // GraphQL's own errors (syntax, validation, variable and scalar coercion) are client errors.
  // Those of argument coercion during execution (`Argument "input" has invalid value ...`, e.g.
  // a null variable where a defaulted field is non-null) come without a code: they get one.
  // graphql-js's other errors at a field (an answer the schema cannot represent: a null for a
  // non-null field, a row of no known type) are the server's, masked and logged below.
  if (error instanceof GraphQLError && (!original || original instanceof GraphQLError) && !ofAnAnswer(error)) {
    (error.extensions as Record<string, unknown>).code ??= 'BAD_USER_INPUT';
    return error;
  }
  // A client that hung up while it sent its request: no one reads the answer, and it is no
  // fault of the server's (returned as it is, Yoga does not log it either).
  if (hungUp(original ?? error)) {
    log.debug('Client hung up before its request was read');
    return error as Error;
  }
  // The caller gets the request id; the log line with that id has what happened.
  const requestId = requestScope.getStore()?.requestId;
  const path = error instanceof GraphQLError ? error.path : undefined;
  const known = databaseTrouble(original);
  if (known) log.warn({ err: original, path }, known.log);
  else log.error({ err: original ?? error, path }, 'Unexpected error (masked)');
  return new GraphQLError(known?.message ?? message, {
    nodes: error instanceof GraphQLError ? error.nodes : undefined,
    path,
    extensions: { code: known?.code ?? 'INTERNAL_SERVER_ERROR', ...(requestId ? { requestId } : {}) },
  });
}

/**
 * A client error answered with status 200 unless it says otherwise: Yoga counts an error that
 * wraps another kind of error (a DomainError) as unexpected, and answers a result without data
 * that holds one (a subscription refused at its start, over SSE) with 500. The same error object:
 * Yoga logs every error its masking replaces. (`http` stays out of the answer.)
 */
function asClientError(error: GraphQLError): GraphQLError {
  const extensions = error.extensions as { http?: { status?: number } };
  extensions.http = { ...extensions.http, status: extensions.http?.status ?? 200 };
  return error;
}

/** Node's error for a request whose client closed the connection before the body was read. */
const hungUp = (error: unknown) => error instanceof Error && error.message === 'aborted' && (error as NodeJS.ErrnoException).code === 'ECONNRESET';

/**
 * Pothos' "Invalid cursor: …" (a Prisma connection's `after` or `before` that is not base64 of its
 * format, BAD_USER_INPUT as a Pothos error) made the error the API's other lists give for a cursor
 * not theirs: VALIDATION_FAILED naming the argument, without echoing the cursor. The argument is
 * the one the field was given; a connection nested in a Prisma query fails in its parent's field,
 * whose node may name neither.
 */
function asForeignCursor(error: GraphQLError): GraphQLError {
  const field = error.nodes?.[0];
  const given = field?.kind === Kind.FIELD ? (field.arguments ?? []).map((a) => a.name.value).filter((n) => n === 'after' || n === 'before') : [];
  const name = given.length === 1 ? given[0]! : null;
  error.message = name ? `${name}: is not a cursor of this list` : 'after or before: is not a cursor of its list';
  Object.assign(error.extensions as Record<string, unknown>, { code: 'VALIDATION_FAILED', inputPath: name ? [name] : [] });
  return error;
}

/** A code-less GraphQL error that graphql-js raised completing a field's value rather than reading its arguments. */
function ofAnAnswer(error: GraphQLError): boolean {
  return error.path !== undefined && error.extensions.code === undefined && !error.message.startsWith('Argument "');
}

/**
 * Failures of the database that are nobody's mistake, told by a code of their own: trying again
 * later can succeed. DATABASE_BUSY: it still refused after the retries (SQLite's write lock held
 * for seconds by another connection, PostgreSQL deadlocks or serialization failures; the refused
 * transaction was rolled back). DATABASE_UNAVAILABLE: it could not be reached or dropped the
 * connection (a PostgreSQL server restarting, a backend terminated); a write cut off so may or may
 * not have committed, as with any lost connection, so read before writing again.
 */
function databaseTrouble(error: unknown): { code: string; message: string; log: string } | null {
  if (isRetryable(error)) return { code: 'DATABASE_BUSY', message: 'The database stayed busy through every retry: try again.', log: 'Database busy after retries' };
  if (isDatabaseUnavailable(error)) {
    return { code: 'DATABASE_UNAVAILABLE', message: 'The database could not be reached or dropped the connection: try again shortly.', log: 'Database unavailable' };
  }
  return null;
}
