import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type Context as SocketContext, type ServerOptions, type SubscribePayload } from 'graphql-ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Context } from '../context.ts';
import { MAX_REQUEST_BODY_BYTES } from '../domain/limits.ts';
import { webSocketOriginAllowed } from './browser-safety.ts';
import { isLoopback } from './authentication.ts';
import { CountsByKey } from '../infra/load.ts';
import { log, requestScope } from '../infra/log.ts';
import { messageQueue } from './socket-queue.ts';
import { answerAsHttp, isWebSocketUpgrade } from './other-upgrades.ts';

export interface WebSocketLimits {
  /**
   * Operations in flight on one socket: open subscriptions plus queries and mutations sent over
   * the socket that have not finished. One over it is answered with an `error` message
   * (TOO_MANY_SUBSCRIPTIONS) for that operation id; the socket stays open.
   */
  maxSubscriptionsPerSocket: number;
  /** Open graphql-ws connections of this instance; one over it is closed with TOO_MANY_CONNECTIONS_CLOSE_CODE. */
  maxConnections: number;
  /**
   * Of those, the ones whose connection_init has not been accepted yet (no key checked). One over
   * it is closed the same way. Without it, sockets that never authenticate (each let go after
   * graphql-ws's 3 s wait for connection_init) could take every place, and keep every client out.
   */
  maxPendingConnections: number;
  /**
   * Of those, the ones from one client address other than this machine's loopback. One over it is
   * closed the same way. Without it, one address could hold every waiting place, opening sockets
   * faster than graphql-ws lets them go, and keep every other client out. Loopback is left out: a
   * keyless caller there is an admin already, and a reverse proxy on this machine brings every
   * client from it.
   */
  maxPendingConnectionsPerAddress: number;
  /** Largest WebSocket message, in bytes; a larger one closes the socket with 1009 (Message Too Big). */
  maxPayloadBytes: number;
  /** Browser origins other than the server's own that may open a socket (see webSocketOriginAllowed). */
  corsOrigins: readonly string[];
  /** Checks a connection's credentials at `connection_init` (rejects: closed with 4403 Forbidden). */
  authenticate: (authorization: string | null, remoteAddress: string, host: string | null) => Promise<unknown>;
}

export const DEFAULT_WEBSOCKET_LIMITS: WebSocketLimits = {
  maxSubscriptionsPerSocket: 100,
  maxConnections: 1000,
  maxPendingConnections: 100,
  maxPendingConnectionsPerAddress: 50,
  maxPayloadBytes: MAX_REQUEST_BODY_BYTES,
  corsOrigins: [],
  authenticate: async () => undefined,
};

/**
 * Close code of a connection over `maxConnections`: 1013 "Try Again Later" (RFC 6455 registry).
 * Not 4429: graphql-ws already uses it for "too many connection_init messages", which its client
 * treats as fatal; 1013 is one its client retries with back-off, which is what a full instance wants.
 */
export const TOO_MANY_CONNECTIONS_CLOSE_CODE = 1013;

export interface WebSocketEndpoint {
  /** Ends every subscription with "going away" and stops accepting connections. */
  close(): Promise<void>;
  /** Open connections. */
  connections(): number;
}

/** graphql-ws on the GraphQL path of `server`, through the same Yoga pipeline (context, errors, plugins). */
export function attachWebSocket(
  server: Server,
  yoga: YogaServerInstance<Record<string, never>, Context>,
  limits: Partial<WebSocketLimits> = {},
): WebSocketEndpoint {
  const { maxSubscriptionsPerSocket, maxPayloadBytes, corsOrigins, authenticate, ...caps } = { ...DEFAULT_WEBSOCKET_LIMITS, ...limits };
  // noServer + our own 'upgrade' listener, so that a connection over the limit is closed before
  // graphql-ws sees it (ws's `server` option would hand every upgraded socket to graphql-ws).
  // `path` still applies: handleUpgrade answers 400 to upgrades on other paths.
  const wss = new WebSocketServer({ noServer: true, path: yoga.graphqlEndpoint, maxPayload: maxPayloadBytes });
  const admission = admitUpTo(wss, caps, webSocketOriginAllowed(corsOrigins));
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    isWebSocketUpgrade(request) ? admission.upgrade(request, socket, head) : answerAsHttp(server, request, socket, head, maxPayloadBytes);
  server.on('upgrade', upgrade);
  const wsServer = serveSockets(
    wss,
    {
      // Each operation is a request of its own for the logs (its id is in masked errors' extensions).
      execute: (args) => requestScope.run({ requestId: randomUUID() }, () => (args.rootValue as Enveloped).execute(args)),
      subscribe: (args) => requestScope.run({ requestId: randomUUID() }, () => (args.rootValue as Enveloped).subscribe(args)),
      // A bad key (or none, once keys exist) is refused before any operation: graphql-ws closes with 4403.
      onConnect: async (ctx) => {
        let authorization: string | null;
        try {
          authorization = connectionHeaders(ctx).get('authorization');
        } catch (error) {
          // graphql-ws would close a throw with 4500 and log it: it is the client's message that is bad.
          ctx.extra.socket.close(CloseCode.BadRequest, closeReason((error as Error).message));
          return false;
        }
        const check = () => authenticate(authorization, ctx.extra.request.socket.remoteAddress ?? '', ctx.extra.request.headers.host ?? null);
        const refusal = await check().then(
          () => null,
          (error: unknown) => error,
        );
        if (refusal === null) {
          if (authorization) recheckWhileOpen(ctx.extra.socket, check);
          acknowledged(ctx.extra.socket, maxPayloadBytes);
          admission.accepted(ctx.extra.socket);
          return true;
        }
        // Still 4403, with the refusal's message for a reason (graphql-ws would say only "Forbidden"):
        // a client can tell a missing key from a wrong one or protected mode (GraphiQL shows it).
        if (refusal instanceof GraphQLError) ctx.extra.socket.close(CloseCode.Forbidden, closeReason(refusal.message));
        return false;
      },
      // Yoga's internal extensions leave every error sent, in `next` (execution) and `error` (refusal) messages alike.
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(formatted) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(formatted),
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws enters the operation in ctx.subscriptions before this hook and removes it when
        // it completes (or is refused here), so the map is the socket's count of operations in flight.
        const inFlight = Object.keys(ctx.subscriptions).length;
        if (inFlight > maxSubscriptionsPerSocket) return [tooManySubscriptions(maxSubscriptionsPerSocket)];
        try {
          return await prepareOperation(yoga, ctx, payload);
        } catch (error) {
          // A throw here would make graphql-ws close the whole socket (4500), ending every other
          // operation on it; returned errors become an `error` message for this operation only.
          return [toOperationError(error, yoga.logger)];
        }
      },
    },
  );
  return {
    connections: () => wss.clients.size,
    async close() {
      server.off('upgrade', upgrade);
      await wsServer.dispose();
    },
  };
}

/** How often an open socket's API key is checked again, so that revoking or expiring it ends the socket. */
const KEY_RECHECK_MS = 2_000;

/** Closes `socket` with 4403 once `check` rejects (the key was revoked or expired); stops when it closes. */
function recheckWhileOpen(socket: WebSocket, check: () => Promise<unknown>): void {
  const timer = setInterval(() => {
    check().catch((error: unknown) => {
      // Only a refused key ends the socket; a database that cannot answer right now does not.
      if (error instanceof GraphQLError && error.extensions.code === 'UNAUTHENTICATED') {
        socket.close(4403, 'Forbidden: the API key was revoked or has expired');
      }
    });
  }, KEY_RECHECK_MS);
  timer.unref();
  socket.once('close', () => clearInterval(timer));
}

type AdmissionCaps = Pick<WebSocketLimits, 'maxConnections' | 'maxPendingConnections' | 'maxPendingConnectionsPerAddress'>;

/**
 * An 'upgrade' listener that refuses origins that may not connect (403) and hands at most
 * `maxConnections` open sockets at a time to `wss`'s 'connection' listeners, at most
 * `maxPendingConnections` of them (`maxPendingConnectionsPerAddress` from one address) not yet
 * `accepted` (their connection_init).
 */
function admitUpTo(wss: WebSocketServer, caps: AdmissionCaps, originAllowed: (origin: string | undefined, host: string | undefined) => boolean) {
  let open = 0;
  const pending = new Pending();
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!originAllowed(request.headers.origin, request.headers.host)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const address = clientOf(request.socket.remoteAddress ?? '');
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      // Refused after the upgrade rather than with an HTTP 503: a browser's WebSocket (and the
      // graphql-ws client) sees only "1006 abnormal closure" for a failed handshake, never its status.
      const refusal = refusalOf(caps, open, pending, address);
      if (refusal) {
        ws.close(TOO_MANY_CONNECTIONS_CLOSE_CODE, refusal);
        return;
      }
      open++;
      pending.add(ws, address);
      ws.once('close', () => {
        open--;
        pending.delete(ws);
      });
      wss.emit('connection', ws, request);
    });
  };
  return { upgrade, accepted: (ws: WebSocket) => pending.delete(ws) };
}

/** Why one more socket from `address` may not be admitted, or null when it may. */
function refusalOf(caps: AdmissionCaps, open: number, pending: Pending, address: string): string | null {
  if (open >= caps.maxConnections) return `Too many connections (at most ${caps.maxConnections} per instance)`;
  if (pending.size >= caps.maxPendingConnections) return `Too many connections waiting for connection_init (at most ${caps.maxPendingConnections} per instance)`;
  if (!isLoopback(address) && pending.from(address) >= caps.maxPendingConnectionsPerAddress) {
    return `Too many connections waiting for connection_init from one address (at most ${caps.maxPendingConnectionsPerAddress})`;
  }
  return null;
}

/**
 * The client a waiting socket counts against: an IPv4 address as it is (IPv4-mapped IPv6 too), an
 * IPv6 address by its /64 prefix, since one host is given a whole /64 and could otherwise connect
 * from a new address every time. Loopback stays loopback (see isLoopback).
 */
export function clientOf(address: string): string {
  const plain = address.split('%')[0]!.toLowerCase();
  if (!plain.includes(':') || isLoopback(plain)) return plain;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  // An IPv4 tail (::a.b.c.d forms) fills the last two groups, which a /64 leaves out anyway.
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const [head, tail] = plain.split('::').map(groups) as [string[], string[] | undefined];
  const elided = Math.max(0, 8 - head.length - (tail?.length ?? 0));
  const all = [...head, ...Array<string>(elided).fill('0'), ...(tail ?? [])];
  return `${all.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}

/** Sockets whose connection_init has not been accepted yet, counted per client (clientOf). */
class Pending {
  readonly #addressOf = new Map<WebSocket, string>();
  readonly #perAddress = new CountsByKey();

  get size(): number {
    return this.#addressOf.size;
  }

  from(address: string): number {
    return this.#perAddress.of(address);
  }

  add(ws: WebSocket, address: string): void {
    this.#addressOf.set(ws, address);
    this.#perAddress.add(address, 1);
  }

  /** Once per socket: when it is accepted or closes, whichever comes first. */
  delete(ws: WebSocket): void {
    const address = this.#addressOf.get(ws);
    if (address === undefined) return;
    this.#addressOf.delete(ws);
    this.#perAddress.add(address, -1);
  }
}

/**
 * The largest message a socket may send before its connection_init is accepted: a
 * connection_init holds at most 100 headers of 64 KB in all (MAX_HEADER_CHARS; twice that as
 * JSON, every character escaped). graphql-ws parses a message before it looks at it, and ws
 * buffers one of up to `maxPayloadBytes` (25 MB): a client without a key held the event loop
 * 2.5 s with a connection_init of a million keys (16.8 MB), and 1,000 sockets could have each
 * kept 25 MB waiting. Accepted sockets send messages of up to `maxPayloadBytes`.
 */
const BEFORE_ACK_MAX_BYTES = 256 * 1024;
/** RFC 6455's "Message Too Big", as ws closes a message over its limit. */
const MESSAGE_TOO_BIG = 1009;
/** Sockets whose connection_init was accepted. */
const accepted = new WeakSet<WebSocket>();

/**
 * Sets the largest message ws reads from `socket`. ws takes its limit per server (`maxPayload`),
 * but its receiver (ws 8) checks each frame against its own `_maxPayload`, which is set here per
 * socket: a message over it is refused as its frames arrive (1009), before it is buffered. Where
 * the field is not there, the size check of each message before connection_ack still refuses it.
 */
function limitMessages(socket: WebSocket, bytes: number): void {
  const receiver = (socket as WebSocket & { _receiver?: { _maxPayload?: unknown } | null })._receiver;
  if (receiver && typeof receiver._maxPayload === 'number') receiver._maxPayload = bytes;
}

/** `socket`'s connection_init was accepted: it may send messages of up to `maxPayloadBytes`. */
function acknowledged(socket: WebSocket, maxPayloadBytes: number): void {
  accepted.add(socket);
  limitMessages(socket, maxPayloadBytes);
}

/** How often an open socket is pinged; one that has not answered by the next ping is cut (graphql-ws's default). */
const KEEP_ALIVE_MS = 12_000;

type SocketExtra = { socket: WebSocket; request: IncomingMessage };

/**
 * graphql-ws's protocol on the sockets `wss` accepts: its `useServer` from graphql-ws/use/ws, but
 * with the client's mistakes told as such. That adapter prints every error of a socket, and every
 * throw of the protocol's message handler, with console.error and a stack, past the JSON logs, and
 * closes with 4500 Internal server error; the handler throws on a message of a type only a server
 * sends (`next`, `error`, `connection_ack`), which the protocol answers with 4400.
 */
function serveSockets(wss: WebSocketServer, options: ServerOptions<Record<string, unknown>, SocketExtra>) {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    limitMessages(socket, Math.min(BEFORE_ACK_MAX_BYTES, wss.options.maxPayload ?? BEFORE_ACK_MAX_BYTES));
    // ws emits an error only once it is closing the socket itself, with the code the error carries
    // (1009 a message too large, 1007 text that is not UTF-8): the client's doing, which any client,
    // with a key or not, may repeat. One line at debug says it.
    socket.on('error', (error: Error & { code?: string }) => {
      log.debug({ code: error.code, remoteAddress: request.socket.remoteAddress }, `WebSocket closed: ${error.message}`);
    });
    let pongWait: ReturnType<typeof setTimeout> | null = null;
    const pinging = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        if (pongWait) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        // A send fails only when the connection has gone (EPIPE, ECONNRESET: the client hung up while
        // its results were being written). ws closes the socket on it, which ends its operations;
        // rejected, each operation being answered logged the client's hang-up as a server error
        // with a stack (2,550 lines for 200 sockets cut with 50 queries each in flight).
        send: (data) =>
          new Promise<void>((resolve) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            corkWhileDelivering(request.socket);
            socket.send(data, (error) => {
              if (error) log.debug({ code: (error as Error & { code?: string }).code, remoteAddress: request.socket.remoteAddress }, `WebSocket send failed: ${error.message}`);
              resolve();
            });
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) => readMessages(socket, request, handle),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      if (pongWait) clearTimeout(pongWait);
      clearInterval(pinging);
      closed(code, String(reason)).catch((error: unknown) => log.error({ err: error }, "graphql-ws could not end a closed socket's operations"));
    });
  });
  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

const corked = new WeakSet<Duplex>();

/**
 * Holds a socket's writes until the promise jobs running now are done, then writes them at once.
 * An event reaches every subscription of a socket in one run of promise jobs (100 subscriptions of
 * one scope on a socket: 100 messages), and ws writes each message at once: one system call each
 * (`writev` was ~6 % of the server's CPU delivering events to 5,000 subscribers). Released on the
 * next tick, not at the end of the turn (setImmediate): a SQLite statement on the event loop, run by
 * the next callback of the same turn, would otherwise hold the messages for as long as it takes.
 */
function corkWhileDelivering(socket: Duplex): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}

/**
 * Hands `socket`'s messages to graphql-ws's `handle`, in order, through the socket's queue (a few
 * a turn: socket-queue.ts). A message before connection_ack over BEFORE_ACK_MAX_BYTES closes the
 * socket unread; a message of a type only a server sends closes it with 4400 and a debug line.
 */
function readMessages(socket: WebSocket, request: IncomingMessage, handle: (data: string) => Promise<void>): void {
  const enqueue = messageQueue(socket, (data) => {
    void handle(data).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (/^Unexpected message of type \S+ received$/.test(message)) {
        log.debug({ remoteAddress: request.socket.remoteAddress }, `WebSocket closed: ${message}`);
        socket.close(CloseCode.BadRequest, closeReason(message));
        return;
      }
      log.error({ err: error }, 'graphql-ws message handling failed');
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
  });
  socket.on('message', (data: Buffer) => {
    if (!accepted.has(socket) && data.length > BEFORE_ACK_MAX_BYTES) {
      socket.close(MESSAGE_TOO_BIG, `A message before connection_ack passes ${BEFORE_ACK_MAX_BYTES} bytes`);
      return;
    }
    enqueue(String(data));
  });
}

async function prepareOperation(
  yoga: YogaServerInstance<Record<string, never>, Context>,
  ctx: SocketContext<Record<string, unknown>, { request: IncomingMessage }>,
  payload: SubscribePayload,
) {
  // Yoga types its enveloped functions loosely; this is the shape they have.
  const enveloped = yoga.getEnveloped({ ...ctx, headers: operationHeaders(ctx, payload), params: payload }) as EnvelopedOperation;
  const { schema, execute, subscribe, contextFactory, parse, validate } = enveloped;
  let document: DocumentNode;
  try {
    document = parse(payload.query);
  } catch (error) {
    throw error instanceof GraphQLError ? withCode(error, 'GRAPHQL_PARSE_FAILED') : error;
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
  return {
    schema,
    document,
    operationName: payload.operationName,
    variableValues: payload.variables,
    contextValue: await contextFactory(),
    rootValue: { execute, subscribe },
  };
}

/**
 * The upgrade request's headers, overridden by the connection_init payload's, then by the
 * operation's `extensions.headers` (where GraphiQL puts its Headers tab).
 */
function operationHeaders(ctx: SocketContext<Record<string, unknown>, { request: IncomingMessage }>, payload: SubscribePayload): Headers {
  const headers = connectionHeaders(ctx);
  const fromOperation = (payload.extensions as { headers?: unknown } | undefined)?.headers;
  if (typeof fromOperation === 'object' && fromOperation) setStrings(headers, fromOperation, 'extensions.headers');
  return headers;
}

/** Each socket's headers as its connection_init left them, made once (operationHeaders copies them). */
const socketHeaders = new WeakMap<object, Headers>();

/**
 * The upgrade request's headers, overridden by the connection_init payload's (browsers cannot set
 * WebSocket headers). Made once a socket: made again for every operation, a payload of 200,000
 * entries took 0.35 s of the event loop each time.
 */
function connectionHeaders(ctx: SocketContext<Record<string, unknown>, { request: IncomingMessage }>): Headers {
  let made = socketHeaders.get(ctx);
  if (!made) {
    made = new Headers();
    for (const [name, value] of Object.entries(ctx.extra.request.headers)) {
      if (typeof value === 'string') made.set(name, value);
    }
    setStrings(made, ctx.connectionParams ?? {}, 'connection_init');
    socketHeaders.set(ctx, made);
  }
  return new Headers(made);
}

/** What a connection_init payload or an operation's `extensions.headers` may hold: as many headers as a request may have, about. */
const MAX_HEADER_ENTRIES = 100;
const MAX_HEADER_CHARS = 64 * 1024;

/** Refuses headers past those bounds (BAD_REQUEST; 4400 in connection_init) before any is read. */
function boundedHeaders(values: object, where: string): void {
  let entries = 0;
  let chars = 0;
  for (const key in values) {
    if (!Object.hasOwn(values, key)) continue;
    const value = (values as Record<string, unknown>)[key];
    chars += key.length + (typeof value === 'string' ? value.length : 0);
    if (++entries > MAX_HEADER_ENTRIES || chars > MAX_HEADER_CHARS) {
      throw new GraphQLError(`${where} holds more than ${MAX_HEADER_ENTRIES} headers or ${MAX_HEADER_CHARS / 1024} KB of them`, { extensions: { code: 'BAD_REQUEST' } });
    }
  }
}

/**
 * Sets each string of `values` as a header. A name or value HTTP could not carry (a space in the
 * name, a line break or a character beyond Latin-1 in the value) is refused as the client's mistake
 * (BAD_REQUEST, or 4400 in connection_init), with a reason short enough for a close frame.
 */
function setStrings(headers: Headers, values: object, where: string): void {
  boundedHeaders(values, where);
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== 'string') continue;
    try {
      headers.set(name.toLowerCase(), value);
    } catch {
      const shown = JSON.stringify(name.length > 24 ? `${name.slice(0, 24)}…` : name);
      throw new GraphQLError(`Header ${shown} in ${where} is not a valid HTTP header`, { extensions: { code: 'BAD_REQUEST' } });
    }
  }
}

/** `text` cut to what a close frame carries (123 bytes of UTF-8). */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

const tooManySubscriptions = (limit: number) =>
  new GraphQLError(`Too many operations on this socket (at most ${limit}); complete one first`, {
    extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit },
  });

/** `error` carrying `code` unless it has one already (a plugin's own code wins). */
function withCode(error: GraphQLError, code: string): GraphQLError {
  const extensions = error.extensions as Record<string, unknown>;
  // A copy: Yoga caches validation errors per document.
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...extensions, code: extensions.code ?? code },
  });
}

/**
 * `error` as sent over the socket, without Yoga's internal extensions (as Yoga leaves them out of
 * HTTP and SSE answers): `http` describes an HTTP status (200 for a result with data), `unexpected` its masking.
 */
function formatted(error: GraphQLError): GraphQLFormattedError {
  const { extensions, ...rest } = error.toJSON();
  const { http: _http, unexpected: _unexpected, ...kept } = extensions ?? {};
  return Object.keys(kept).length > 0 ? { ...rest, extensions: kept } : rest;
}

/** A client's GraphQL error passes with its code; anything else is logged and masked, as over HTTP. */
function toOperationError(error: unknown, logger: { error: (...args: unknown[]) => void }): GraphQLError {
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) {
    return withCode(error, 'BAD_REQUEST');
  }
  logger.error('graphql-ws operation failed before execution', error);
  return new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

type OperationResult = ReturnType<NonNullable<ServerOptions['execute']>>;
/** Yoga's enveloped execute/subscribe, passed to graphql-ws through the root value. */
interface Enveloped {
  execute: (args: ExecutionArgs) => OperationResult;
  subscribe: (args: ExecutionArgs) => OperationResult;
}

/** The part of Yoga's enveloped pipeline a WebSocket operation uses. */
interface EnvelopedOperation extends Enveloped {
  schema: GraphQLSchema;
  contextFactory: () => unknown;
  parse: (source: string) => DocumentNode;
  validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[];
}
