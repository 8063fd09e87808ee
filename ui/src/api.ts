import { createClient, type Client } from 'graphql-ws';
import { FeedCursor } from './documents';
import type { TypedDocumentString } from './gql/graphql';

/**
 * The dashboard's way to Engram: queries and mutations over HTTP, subscriptions over graphql-ws,
 * both on /graphql of the server that served the page, with the API key the person gave (kept in
 * this browser's localStorage). The server applies the same access rules as for any client.
 */
const KEY = 'engram.apiKey';
const endpoint = new URL('/graphql', location.href);

export function apiKey(): string | null {
  return localStorage.getItem(KEY);
}

export function setApiKey(key: string | null): void {
  if (key) localStorage.setItem(KEY, key);
  else localStorage.removeItem(KEY);
  // The socket authenticated with the old key: open a new one on next use.
  void socket?.dispose();
  socket = undefined;
}

/** Without a key the server trusts local callers only; writes are then authored by `user`. */
function headers(): Record<string, string> {
  const key = apiKey();
  return key ? { authorization: `Bearer ${key}` } : { 'x-engram-actor': 'user' };
}

/** A GraphQL error or a refused request, with the code the server gave (UNAUTHENTICATED, ...). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function request<T, V>(document: TypedDocumentString<T, V>, variables: V): Promise<T> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers() },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
  } catch {
    throw new ApiError('Engram does not answer (is the server running?)', 'NETWORK');
  }
  const answer = (await response.json().catch(() => ({}))) as Answer<T>;
  const [error] = answer.errors ?? [];
  if (error) throw new ApiError(error.message, error.extensions?.code ?? `HTTP_${response.status}`);
  if (!answer.data) throw new ApiError(`Engram answered ${response.status} without data`, `HTTP_${response.status}`);
  return answer.data;
}

export type LinkState = 'connecting' | 'live' | 'reconnecting';
const linkListeners = new Set<(state: LinkState) => void>();
const reconnectListeners = new Set<() => void>();
let socket: Client | undefined;
let everConnected = false;

export function onLinkState(listener: (state: LinkState) => void): () => void {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
}

/**
 * Called when a view must read again what it shows: a subscription's cursor was older than the
 * server's change feed keeps (CURSOR_EXPIRED), so the events missed meanwhile cannot be replayed.
 * (After an ordinary reconnection nothing is reloaded: each subscription resumes after the last
 * event it received, and the server replays what it missed.)
 */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

function theSocket(): Client {
  if (socket) return socket;
  const url = new URL(endpoint);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const announce = (state: LinkState) => linkListeners.forEach((listener) => listener(state));
  socket = createClient({
    url: url.toString(),
    connectionParams: headers,
    // Keep trying while the server is away; graphql-ws's default gives up on refusals (4401, 4403).
    retryAttempts: Number.MAX_SAFE_INTEGER,
    on: {
      connecting: () => announce(everConnected ? 'reconnecting' : 'connecting'),
      connected: () => {
        announce('live');
        everConnected = true;
      },
      closed: () => announce('reconnecting'),
    },
  });
  return socket;
}

/**
 * Follows a subscription until the returned function is called. Errors go to `onError`.
 *
 * The subscription starts at the change feed's position read just before, so what commits while
 * the server registers it still arrives (by replay), and resumes where it left off: each event's
 * `cursor` becomes the `after` of the request, which graphql-ws sends again when it reconnects, so
 * the server replays what was missed. When the server no longer holds that cursor, views reload
 * and the subscription starts afresh.
 */
export function subscribe<T, V>(
  document: TypedDocumentString<T, V>,
  variables: V,
  onData: (data: T) => void,
  onError: (error: ApiError) => void,
): () => void {
  let stopped = false;
  let stop: () => void = () => undefined;
  const start = async () => {
    let after: string | null = null;
    try {
      after = (await request(FeedCursor, {})).changeFeedCursor;
    } catch {
      // Offline for now: events from the moment the socket connects; graphql-ws keeps retrying.
    }
    if (stopped) return;
    const payload = { query: document.toString(), variables: { ...(variables as Record<string, unknown>), after } };
    stop = theSocket().subscribe<T>(payload, {
      next: (answer) => {
        const [error] = answer.errors ?? [];
        if (error?.extensions?.code === 'CURSOR_EXPIRED') {
          reconnectListeners.forEach((listener) => listener());
          stop();
          void start();
        } else if (error) onError(new ApiError(error.message, (error.extensions?.code as string | undefined) ?? 'ERROR'));
        else if (answer.data) {
          payload.variables.after = cursorOf(answer.data) ?? payload.variables.after;
          onData(answer.data);
        }
      },
      error: (error) => onError(new ApiError(error instanceof Error ? error.message : 'The live connection failed', 'NETWORK')),
      complete: () => undefined,
    });
  };
  void start();
  return () => {
    stopped = true;
    stop();
  };
}

/** The change-feed cursor of a subscription event (its one root field's `cursor`). */
function cursorOf(data: unknown): string | null {
  const [event] = Object.values(data as Record<string, { cursor?: unknown } | null>);
  return typeof event?.cursor === 'string' ? event.cursor : null;
}
