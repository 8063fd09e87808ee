import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import type { CORSOptions, Plugin } from 'graphql-yoga';

/**
 * Headers that prove a browser sent a CORS preflight first (none of them is CORS-safelisted), so a
 * request carrying one cannot be a cross-site form post. `x-graphql-yoga-csrf` is Yoga's own.
 */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'x-engram-csrf', 'x-engram-actor', 'authorization', 'apollo-require-preflight'];

/** The methods of requests a browser sends cross-site without a preflight (Fetch's CORS-safelisted methods). */
const SIMPLE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** Headers a browser on an allowed origin may send: MCP clients send `mcp-protocol-version` after initialize. */
const ALLOWED_HEADERS = ['content-type', 'accept', 'x-engram-role', 'x-request-id', 'mcp-protocol-version', ...CSRF_HEADERS];

/** Response headers a page on an allowed origin may read: the request id, and when to retry a 429. */
const EXPOSED_HEADERS = ['x-request-id', 'retry-after'];

/**
 * Yoga's CSRF prevention: a request that a page on another site could send without a preflight
 * (a GET, or a form-encoded / multipart / text POST) must carry one of CSRF_HEADERS. JSON POSTs
 * are always preflighted cross-site, so they need nothing. The plugin's 403 gets a stable code.
 */
export function useCsrfPrevention(): Plugin {
  const inner = useCSRFPrevention({ requestHeaders: CSRF_HEADERS });
  return {
    onRequestParse(payload) {
      // Only GET, HEAD and POST can be sent cross-site without a preflight. Any other method (a
      // PUT, which graphql-sse's single-connection mode sends first) goes on to Yoga's 405 "GraphQL
      // only supports GET and POST requests", which says what is wrong; the check answered 403.
      if (!SIMPLE_METHODS.has(payload.request.method)) return undefined;
      try {
        return inner.onRequestParse?.(payload);
      } catch (error) {
        if (error instanceof GraphQLError) Object.assign(error.extensions, { code: 'CSRF_HEADER_REQUIRED' });
        throw error;
      }
    },
  };
}

/**
 * CORS for the origins in `allowed` only: any other origin gets no CORS headers, so browsers keep
 * its pages from reading answers (and from sending anything that needs a preflight).
 * Same-origin pages (GraphiQL) need no CORS at all. `*` allows every origin, without credentials.
 */
export function corsFor(allowed: readonly string[]): (request: Request) => CORSOptions {
  const any = allowed.includes('*');
  return (request) => {
    const origin = request.headers.get('origin');
    if (!origin || !(any || allowed.includes(origin))) return false;
    return { origin: [origin], credentials: !any, allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, methods: ['GET', 'POST', 'OPTIONS'], maxAge: 600 };
  };
}

/**
 * `Vary: Origin` on every answer once CORS_ORIGINS is set: whether an answer carries CORS headers,
 * and which origin they name, depends on the request's Origin, so a shared cache must not hand one
 * origin's answer to another (Fetch standard, "CORS protocol and HTTP caches"). Yoga adds it only
 * when it echoes one of several origins, and not to answers without a grant.
 */
export function useVaryOrigin(allowed: readonly string[]): Plugin {
  if (allowed.length === 0) return {};
  return {
    onResponse({ response }) {
      const vary = response.headers.get('vary');
      if (!vary?.split(',').some((name) => name.trim().toLowerCase() === 'origin')) response.headers.append('vary', 'Origin');
    },
  };
}

/**
 * Whether a WebSocket upgrade may proceed: browsers send any page's WebSocket with its Origin and
 * no preflight, so a page on another site could otherwise run mutations over the socket
 * (cross-site WebSocket hijacking). Clients that are not browsers send no Origin.
 */
export function webSocketOriginAllowed(allowed: readonly string[]): (origin: string | undefined, host: string | undefined) => boolean {
  return (origin, host) => {
    if (!origin || allowed.includes('*') || allowed.includes(origin)) return true;
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  };
}
