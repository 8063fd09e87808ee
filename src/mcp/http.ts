import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { httpCaller, type Caller } from '../server/authentication.ts';
import { readUpTo } from '../server/body-limit.ts';

export const MCP_PATH = '/mcp';

/** Request headers a tool call passes on to its GraphQL operation. */
const FORWARDED = ['authorization', 'x-engram-actor', 'x-request-id'];

export interface McpHttpOptions {
  /** Yoga's in-process fetch (this plugin is part of Yoga, so it is called only once a call arrives). */
  fetch: (url: string, init: RequestInit, serverContext: { req?: IncomingMessage }) => Promise<Response>;
  /** The server's authentication, run before anything else of MCP. */
  authenticate: (authorization: string | null, address: string | undefined, host: string | null) => Promise<Caller>;
  /** Browser origins allowed to call (CORS_ORIGINS); other requests with an Origin are refused. */
  corsOrigins: readonly string[];
  maxRequestBodyBytes: number;
}

/**
 * The MCP SDK (with zod) and the tools, loaded by the first call: ~120-150 ms of a server's
 * start-up (measured: their imports after the rest of the server's) that a server nobody calls
 * over MCP need not pay.
 */
const loadModules = () => Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('./server.ts')]);
let mcpModules: ReturnType<typeof loadModules> | undefined;
const loadMcp = () => (mcpModules ??= loadModules());

/**
 * MCP's Streamable HTTP transport at /mcp, stateless: each POST carries one exchange, answered as
 * JSON, so any instance can answer any call and nothing is kept between them. Tool calls run as
 * GraphQL operations through `yoga.fetch` with the caller's credentials and address.
 */
export function useMcp(options: McpHttpOptions): Plugin {
  return {
    onRequest({ request, url, endResponse, serverContext }) {
      if (url.pathname !== MCP_PATH) return undefined;
      return answer(request, serverContext, options).then(endResponse);
    },
  };
}

async function answer(request: Request, serverContext: unknown, options: McpHttpOptions): Promise<Response> {
  // The MCP specification asks servers to check Origin (DNS rebinding): agent runtimes send none.
  const origin = request.headers.get('origin');
  if (origin && !options.corsOrigins.includes('*') && !options.corsOrigins.includes(origin)) {
    return refusal(403, 'FORBIDDEN', `Origin ${origin} may not call ${MCP_PATH} (see CORS_ORIGINS)`);
  }
  const authenticated = await httpCaller(options.authenticate, request, serverContext);
  if ('refused' in authenticated) {
    const { status, code, message, headers } = authenticated.refused;
    return refusal(status, code, message, headers);
  }
  // Stateless: no stream for the server to push on (GET) and no session to end (DELETE). The SDK
  // would answer a GET with an event stream that ends at once, which clients reconnect to in a loop.
  if (request.method !== 'POST') return refusal(405, 'METHOD_NOT_ALLOWED', `${MCP_PATH} takes POST only (a stateless server: no stream, no session)`, { allow: 'POST' });
  const req = (serverContext as { req?: IncomingMessage }).req;
  const [{ WebStandardStreamableHTTPServerTransport }, { connectChecked, createMcpServer, executeThrough }] = await loadMcp();
  // Operations run as the caller of `request`: its credentials and actor, its address for limits.
  const execute = executeThrough((url, init) => options.fetch(url, init, req ? { req } : {}), forwardedHeaders(request));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodyBytes,
  });
  const read = await readMessages(request, options.maxRequestBodyBytes);
  if (read instanceof Response) return read;
  const server = createMcpServer(execute);
  await connectChecked(server, transport);
  try {
    const response = await transport.handleRequest(read.request, read.parsed === undefined ? undefined : { parsedBody: read.parsed });
    return Array.isArray(read.parsed) ? await asBatchAnswer(response) : response;
  } finally {
    void server.close();
  }
}

/** A JSON-RPC error of the transport's kind (no id: it answers no one request). */
const rpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });

/**
 * The POST's body, read here within `max` bytes so that a batch is checked before any of it runs:
 * requests of one batch with the same id are refused (-32600), as the SDK ran them all and kept one
 * answer per id, so a caller could not tell that the others ran. Returns the request to hand on
 * (its body read again from the bytes) and the parsed messages (undefined when they are not JSON:
 * the transport answers that itself), or the refusal.
 */
async function readMessages(request: Request, max: number): Promise<{ request: Request; parsed: unknown } | Response> {
  // Declared too long: the transport refuses it from the header, unread.
  if (!request.body || Number(request.headers.get('content-length')) > max) return { request, parsed: undefined };
  const chunks = await readUpTo(request.body.getReader(), max);
  if (!chunks) return rpcError(413, -32000, `Payload Too Large: Request body must not exceed ${max} bytes`);
  const bytes = Buffer.concat(chunks);
  const again = new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { request: again, parsed: undefined };
  }
  if (Array.isArray(parsed) && transportTakes(request)) {
    const ids = parsed.flatMap((m: unknown) => (isRequest(m) ? [JSON.stringify(m.id)] : []));
    if (new Set(ids).size < ids.length) return rpcError(400, -32600, 'Invalid Request: the requests of a batch must have different ids');
  }
  return { request: again, parsed };
}

/**
 * Whether the transport goes on to run a POST with these headers: it refuses first (406, 415) one
 * that does not accept both JSON and an event stream, or whose body is not JSON, and those answers
 * say what the caller must change; a batch's ids are checked only for a POST it would run.
 */
function transportTakes(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return accept.includes('application/json') && accept.includes('text/event-stream') && type === 'application/json';
}

const isRequest = (m: unknown): m is { id: unknown } => typeof m === 'object' && m !== null && 'method' in m && 'id' in m;

/**
 * A batch's answers as an array (JSON-RPC 2.0), also when only one of its messages is answered (a
 * request and a notification): the SDK answered that one alone. Refusals of the whole batch stay
 * one object, as JSON-RPC has them.
 */
async function asBatchAnswer(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('application/json')) return response;
  const body: unknown = await response.json();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(Array.isArray(body) ? body : [body]), { status: response.status, headers });
}

/** The headers of `request` that a tool call passes on to its GraphQL operation. */
function forwardedHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value) headers[name] = value;
  }
  return headers;
}

/** A JSON-RPC error answer (MCP clients read these), with the same code as GraphQL's. */
function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code: -32001, message, data: { code } } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
