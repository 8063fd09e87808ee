// GraphiQL's fetcher, bundled by scripts/build-ui.mjs into dist/ui/graphiql.js, which
// src/server/graphiql.ts inlines into the GraphiQL page (no outside request).
//
// Why not Yoga's own fetcher: it opens graphql-ws with an empty connection_init payload and sends
// the Headers tab only in each operation's `extensions.headers`, but Engram authenticates a socket
// at connection_init (a missing key, once keys exist, is 4403). So every subscription of a GraphiQL
// user with a key in the Headers tab was refused before its headers were read, and graphql-ws
// retried 4403 in silence: the result pane stayed empty.
import { Kind, OperationTypeNode, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import { createClient, type FormattedExecutionResult, type SubscribePayload } from 'graphql-ws';

/** What GraphiQL passes a fetcher: the operation, and the Headers tab (parsed) with the document. */
interface FetcherParams {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}
interface FetcherOptions {
  headers?: Record<string, unknown>;
  documentAST?: DocumentNode | null;
}

type Result = FormattedExecutionResult<unknown, unknown>;

/**
 * GraphiQL's fetcher for `endpoint`: queries and mutations over HTTP with the Headers tab as request
 * headers; each subscription on a graphql-ws socket of its own whose connection_init payload is the
 * Headers tab of that run, so a key put there (or changed) is the one the socket is authenticated with.
 */
export function createFetcher(endpoint: string) {
  const socketUrl = new URL(endpoint, location.href);
  socketUrl.protocol = socketUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  return (params: FetcherParams, options: FetcherOptions = {}): Promise<Result> | AsyncGenerator<Result> => {
    const headers = options.headers ?? {};
    if (isSubscription(options.documentAST, params.operationName)) return subscribe(socketUrl.toString(), params, headers);
    return overHttp(endpoint, params, headers);
  };
}

async function overHttp(endpoint: string, params: FetcherParams, headers: Record<string, unknown>): Promise<Result> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json', ...stringsOf(headers) },
    body: JSON.stringify(params),
  });
  return (await response.json()) as Result;
}

/**
 * The subscription's results; a refusal is the last one, as GraphQL errors, so that GraphiQL shows
 * it in the result pane. GraphiQL stops a run with the iterator's return(), which unsubscribes.
 */
async function* subscribe(url: string, params: FetcherParams, headers: Record<string, unknown>): AsyncGenerator<Result> {
  const client = createClient({
    url,
    // Engram reads `authorization` (and `x-engram-actor`) from here: see README, API keys.
    connectionParams: stringsOf(headers),
    // graphql-ws retries 4403 Forbidden by default, with back-off (half a minute in all): a key
    // that is missing or wrong will not become right by waiting, so say so at once. Other closes
    // (a restarting server, 1013 Try Again Later) are still retried.
    shouldRetry: (closed) => !isCloseEvent(closed) || closed.code !== 4403,
  });
  try {
    yield* client.iterate(payloadOf(params));
  } catch (error) {
    yield { errors: errorsOf(error) };
  } finally {
    await client.dispose();
  }
}

function payloadOf({ query, operationName, variables }: FetcherParams): SubscribePayload {
  return { query, operationName: operationName ?? null, variables: variables ?? null };
}

/** Whether the operation GraphiQL runs (the named one, else the only one) is a subscription. */
function isSubscription(document: DocumentNode | null | undefined, operationName: string | null | undefined): boolean {
  const operations = document?.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition] : [])) ?? [];
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  return operation?.operation === OperationTypeNode.SUBSCRIPTION;
}

/** The Headers tab's string values: HTTP headers and Engram's connection_init take nothing else. */
function stringsOf(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function isCloseEvent(value: unknown): value is CloseEvent {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value;
}

/**
 * A failed subscription as GraphQL errors: the server's own (an `error` message: a validation
 * error, a limit), or the socket's close (Engram gives the reason: "The API key is unknown,
 * revoked or expired", "An API key is required ...").
 */
function errorsOf(error: unknown): GraphQLFormattedError[] {
  if (Array.isArray(error)) return error as GraphQLFormattedError[];
  if (isCloseEvent(error)) {
    return [{ message: error.reason || `The WebSocket closed (${error.code})`, extensions: { closeCode: error.code } }];
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
}
