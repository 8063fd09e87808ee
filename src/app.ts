import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { boundedParserCache } from './server/document-cache.ts';
import { createContext, type Context } from './context.ts';
import type { Database } from './infra/database.ts';
import type { Telemetry } from './infra/telemetry.ts';
import { createEventBus, type EventBus } from './infra/events.ts';
import { requestStarted } from './infra/load.ts';
import { startFeedPruning } from './infra/change-feed.ts';
import { DEFAULT_WRITE_SETTINGS, type WriteSettings } from './infra/transaction.ts';
import { useRequestBodyLimit } from './server/body-limit.ts';
import { MAX_REQUEST_BODY_BYTES } from './domain/limits.ts';
import { useStrictRequestParams } from './server/request-params.ts';
import { corsFor, useCsrfPrevention, useVaryOrigin } from './server/browser-safety.ts';
import { onePerConnection, oneStartPerTurn } from './server/fair-start.ts';
import { useDashboard } from './server/dashboard.ts';
import { graphiqlOptions, useGraphiQLDelivery } from './server/graphiql.ts';
import { Authenticator, authenticationFirst, type AuthMode } from './server/authentication.ts';
import { maskError } from './server/error-masking.ts';
import { useHealth } from './server/health.ts';
import { useMetrics } from './server/metrics.ts';
import { executionCount } from './server/load.ts';
import { useOperationLog, yogaLogger } from './server/logger.ts';
import { log, requestIdFrom, requestScope, type RequestScope } from './infra/log.ts';
import { useOperationLimits } from './server/limits.ts';
import { DEFAULT_LIMITS, type OperationLimits } from './server/operation-limits.ts';
import { createRateLimiter, useRateLimits, type RateLimits } from './server/rate-limit.ts';
import { attachWebSocket, type WebSocketEndpoint, type WebSocketLimits } from './server/websocket.ts';
import { eventStreams } from './server/event-streams.ts';
import { closeStalledConnections, type StalledOutputLimits } from './server/stalled-output.ts';
import { getSchema } from './graphql/schema.ts';
import { eventResultSharing } from './graphql/shared-events.ts';
import { useMcp } from './mcp/http.ts';
import { AuthenticationFailures } from './modules/audit/audit.service.ts';
import { AccessTracker } from './modules/entries/access-tracker.ts';
import { startPurgeJob, type PurgeSchedule } from './modules/lifecycle/purge-job.ts';
import { DEFAULT_ACCESS_SETTINGS, GrantCache, type AccessSettings } from './modules/identity/access.service.ts';

export interface AppOptions {
  database: Database;
  /** Default: in-process pub/sub. */
  bus?: EventBus;
  /** Default: DEFAULT_WRITE_SETTINGS. */
  settings?: WriteSettings;
  graphiql?: boolean;
  /** Largest request body accepted, in bytes (default MAX_REQUEST_BODY_BYTES); also the largest WebSocket message. */
  maxRequestBodyBytes?: number;
  /** graphql-ws limits (default DEFAULT_WEBSOCKET_LIMITS). */
  webSocket?: Partial<Pick<WebSocketLimits, 'maxSubscriptionsPerSocket' | 'maxConnections' | 'maxPendingConnections' | 'maxPendingConnectionsPerAddress'>>;
  /** Subscriptions open at once, over WebSockets and SSE (default DEFAULT_MAX_SUBSCRIPTIONS). */
  maxSubscriptions?: number;
  /** Of those, the ones one API key may hold open (default DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY). */
  maxSubscriptionsPerKey?: number;
  /** Bounds on one operation (default DEFAULT_LIMITS). */
  limits?: Partial<OperationLimits>;
  /** Browser origins other than the server's own that may call the API (CORS); `*` for any. */
  corsOrigins?: readonly string[];
  /** API-key authentication (default `on`; see Authenticator). */
  auth?: AuthMode;
  /** Per-caller budgets (default: none; in-process calls are never limited). */
  rateLimits?: RateLimits;
  /** How often counted entry reads are written (default ACCESS_FLUSH_MS). */
  accessFlushMs?: number;
  /** Count entry reads (default true; the bench turns it off to measure its cost). */
  trackAccess?: boolean;
  /** The retention purge on a schedule (default: not scheduled; `purgeMemory` still runs it). */
  purge?: PurgeSchedule;
  /** PostgreSQL: vacuum Engram's tables every this many ms while the server's autovacuum is off (default: not scheduled; see table-upkeep.ts). */
  upkeepIntervalMs?: number;
  /** How long the change feed keeps changes for subscribers to resume from (default 168 hours). */
  changeRetentionHours?: number;
  /** When the first prune of the change feed runs after start (default 1 s; later ones every 10 minutes). */
  changePruneFirstMs?: number;
  /** What grants imply (default DEFAULT_ACCESS_SETTINGS). */
  access?: AccessSettings;
  /** memoryQuery and context rank every candidate, no shortcut (default false; see MemoryQueryInput.exhaustive). */
  exhaustiveRanking?: boolean;
  /** Searchable entries from which a context ranks only its best text hits (default DEFAULT_RANK_BEST_HITS_FROM; see MemoryQueryInput.bestHitsFrom). */
  rankBestHitsFrom?: number;
  /** OpenTelemetry: the plugin that makes a span per GraphQL operation (src/infra/telemetry.ts); default none. */
  tracing?: Telemetry['plugin'];
  /** Node's limits on receiving a request (default HTTP_TIMEOUTS). */
  httpTimeouts?: Partial<typeof HTTP_TIMEOUTS>;
  /** When a connection whose client stops reading is closed (default DEFAULT_STALLED_OUTPUT_LIMITS). */
  stalledOutput?: Partial<StalledOutputLimits>;
}

/**
 * How long Node lets a client take to send a request's headers (then 408) and the whole request,
 * and how often it looks. Node's defaults (60 s, 300 s, every 30 s) held a connection that sent
 * its headers a byte a second for 68 s, and a body a byte a second for 308 s. 120 s still takes a
 * 25 MB body over a 2 Mbit/s link. Answers are not counted: a subscription's stream stays open.
 */
export const HTTP_TIMEOUTS = { headersTimeout: 20_000, requestTimeout: 120_000, connectionsCheckingInterval: 2_000 };

/** What Yoga hands the context factory: Node's request over HTTP, graphql-ws' context over WebSocket. */
interface InitialContext {
  request?: Request;
  headers?: Headers;
  req?: IncomingMessage;
  extra?: { request?: IncomingMessage };
}

export interface App {
  yoga: YogaServerInstance<Record<string, never>, Context>;
  /** Listens on `port` (0 = ephemeral); resolves with the bound port. */
  start(port: number, host?: string): Promise<number>;
  /** Stops accepting, lets open requests finish (up to `graceMs`), closes sockets (and the rate limits' Redis connection). */
  stop(graceMs?: number): Promise<void>;
}

/** What start() and stop() change, and what requests read of it. */
interface Running {
  stopping: boolean;
  /** Aborted by stop(): requests that wait answer then (Context.stopping). */
  stopSignal: AbortController;
  server?: Server;
  sockets?: WebSocketEndpoint;
  stopSweep?: () => void;
}

export function createApp(options: AppOptions): App {
  const running: Running = { stopping: false, stopSignal: new AbortController() };
  const parts = appParts(options, running);
  const yoga = createEngramYoga(options, parts, running);
  return {
    yoga,
    start: (port, host) => startServing(options, yoga, parts, running, port, host),
    stop: (graceMs = 10_000) => stopServing(running, parts, graceMs),
  };
}

/** The services behind the HTTP server, and `release`: what stop() lets go of besides sockets. */
function appParts(options: AppOptions, running: Running) {
  const { database, bus = createEventBus(), settings = DEFAULT_WRITE_SETTINGS, maxRequestBodyBytes = MAX_REQUEST_BODY_BYTES, corsOrigins = [], auth = 'on' } = options;
  const deps = { db: database.prisma, provider: database.provider, bus, settings, access: options.access ?? DEFAULT_ACCESS_SETTINGS };
  const detachBus = bus.attach(database.prisma);
  const feedPruning = startFeedPruning(database.prisma, database.provider, (options.changeRetentionHours ?? 168) * 3_600_000, options.changePruneFirstMs);
  const authenticator = new Authenticator(database.prisma, auth);
  const rateLimiter = options.rateLimits ? createRateLimiter(options.rateLimits) : null;
  const authFailures = new AuthenticationFailures(database.prisma);
  const authenticate = auditedAuthentication(authenticator, authFailures);
  const tracker = new AccessTracker(database.prisma, options.accessFlushMs, options.trackAccess ?? true);
  const purgeJob = options.purge ? startPurgeJob(deps, options.purge) : null;
  const upkeep = options.upkeepIntervalMs ? database.startUpkeep(options.upkeepIntervalMs) : null;
  /** The rate limits' Redis connection, failed authentications still counted, the scheduled jobs. */
  const release = async () => {
    detachBus();
    await Promise.all([rateLimiter?.close(), authFailures.close(), tracker.stop(), purgeJob?.stop(), upkeep?.stop(), feedPruning.stop()]);
  };
  return {
    deps,
    maxRequestBodyBytes,
    corsOrigins,
    authenticator,
    authenticate,
    rateLimiter,
    tracker,
    release,
    early: authenticationFirst(authenticate, maxRequestBodyBytes),
    grantCache: new GrantCache(database.prisma),
    // Operations and subscriptions, for where SQLite reads run and for the metrics.
    counting: executionCount(database, { instance: options.maxSubscriptions, perKey: options.maxSubscriptionsPerKey }),
    streams: eventStreams(() => running.stopping),
    sharing: eventResultSharing(),
  };
}
type AppParts = ReturnType<typeof appParts>;

function createEngramYoga(options: AppOptions, parts: AppParts, running: Running): YogaServerInstance<Record<string, never>, Context> {
  // Typed: the MCP plugin reads `yoga` itself.
  const yoga: YogaServerInstance<Record<string, never>, Context> = createYoga<Record<string, never>, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    // Yoga's built-in health check answers any URL ending in its endpoint (default "/health") with
    // an empty 200 before user plugins run: move it off /health so the database-aware one below answers.
    healthCheckEndpoint: '/live',
    ...graphiqlOptions(options.graphiql ?? true),
    landingPage: false,
    cors: corsFor(parts.corsOrigins),
    // No file uploads: multipart bodies would only be a way around CSRF checks.
    multipart: false,
    // Replaced by useRequestBodyLimit (same limit, without a stream per request).
    maxRequestBodySize: false,
    // Bounded by the memory its documents take, not only by their count (document-cache.ts).
    parserAndValidationCache: boundedParserCache(),
    // JSON lines with the request id, scanned for secrets before they are written (src/infra/log.ts).
    logging: yogaLogger(),
    context: contextFactory(options, parts, running),
    // Expected failures keep their message and code; everything else is masked (src/server/error-masking.ts).
    maskedErrors: { maskError },
    plugins: pluginsOf(options, parts, running, () => yoga),
  });
  return yoga;
}

/** HTTP and SSE requests carry a Fetch Request; WebSocket operations pass their headers. */
function contextFactory(options: AppOptions, parts: AppParts, running: Running) {
  const { deps, authenticator, authenticate, early, grantCache, tracker } = parts;
  return async (initial: InitialContext) => {
    const headers = initial.headers ?? initial.request?.headers ?? new Headers();
    // Node's request over HTTP, the upgrade request over WebSocket; none for yoga.fetch in-process.
    const upgradeOrRequest = initial.req ?? initial.extra?.request;
    const socket = upgradeOrRequest?.socket;
    const address = socket ? (socket.remoteAddress ?? '') : undefined;
    const authorization = headers.get('authorization');
    const host = upgradeOrRequest?.headers.host ?? headers.get('host');
    const caller = early.callerOf(initial.request) ?? (await authenticate(authorization, address, host));
    const stillAuthenticated = () => authenticator.authenticate(authorization, address, host).catch(() => null);
    return createContext(
      { ...deps, authenticator, grantCache, tracker, exhaustiveRanking: options.exhaustiveRanking ?? false, rankBestHitsFrom: options.rankBestHitsFrom, stopping: running.stopSignal.signal },
      headers,
      caller,
      address ?? null,
      stillAuthenticated,
    );
  };
}

/** Yoga's plugins, in the order they see a request. */
function pluginsOf(options: AppOptions, parts: AppParts, running: Running, yoga: () => YogaServerInstance<Record<string, never>, Context>) {
  const { database } = options;
  const { deps, maxRequestBodyBytes, corsOrigins, authenticate, counting, streams, sharing, early, rateLimiter } = parts;
  return [
    useOperationLog(),
    counting.plugin,
    streams.plugin,
    ...useMetrics({ database, bus: deps.bus, authenticate, webSocketConnections: () => running.sockets?.connections() ?? 0, subscriptionsOpen: counting.subscriptionsOpen, eventsDelivered: sharing.delivered }),
    ...(options.tracing ? [options.tracing] : []),
    early.plugin,
    useStrictRequestParams(),
    useRequestBodyLimit(maxRequestBodyBytes),
    useCsrfPrevention(),
    useVaryOrigin(corsOrigins),
    ...(rateLimiter ? [useRateLimits(rateLimiter)] : []),
    ...useOperationLimits({ ...DEFAULT_LIMITS, ...options.limits }),
    sharing.plugin,
    useHealth(database, deps.bus),
    useGraphiQLDelivery(),
    useDashboard(),
    useMcp({
      // The Node adapter's server context ({ req, res }) is not in Yoga's declared one: the context factory reads `req` (InitialContext).
      fetch: async (url, init, serverContext) => yoga().fetch(url, init, serverContext as Partial<Record<string, never>>),
      authenticate,
      corsOrigins,
      maxRequestBodyBytes,
    }),
  ];
}

function startServing(options: AppOptions, yoga: YogaServerInstance<Record<string, never>, Context>, parts: AppParts, running: Running, port: number, host?: string): Promise<number> {
  running.stopping = false;
  if (running.stopSignal.signal.aborted) running.stopSignal = new AbortController();
  // Other upgrades (h2c) are answered as plain requests by answerAsHttp on every Node. Not with
  // Node 24.9's `shouldUpgradeCallback`: on Node 24.21 it answered the request but then read nothing
  // more of its connection (the next request on it went unanswered).
  const s = createServer({ ...HTTP_TIMEOUTS, ...options.httpTimeouts });
  s.on('request', requestListener(s, yoga, () => running.stopping));
  running.server = s;
  s.on('clientError', answerUnparsable);
  running.stopSweep = closeStalledConnections(s, options.stalledOutput);
  running.sockets = attachWebSocket(s, yoga, {
    ...options.webSocket,
    maxPayloadBytes: parts.maxRequestBodyBytes,
    corsOrigins: parts.corsOrigins,
    authenticate: parts.authenticate,
  });
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => resolve((s.address() as AddressInfo).port));
  });
}

async function stopServing(running: Running, parts: AppParts, graceMs: number): Promise<void> {
  running.stopSignal.abort();
  const s = running.server;
  if (!s) return parts.release();
  running.server = undefined;
  running.stopping = true;
  running.stopSweep?.();
  // Subscriptions end with "going away" so clients reconnect elsewhere; SSE ones complete, or
  // their responses, which never finish on their own, would hold the server for the grace period.
  await running.sockets?.close();
  running.sockets = undefined;
  parts.streams.completeAll();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => s.closeAllConnections(), graceMs);
    timer.unref();
    s.close(() => {
      clearTimeout(timer);
      resolve();
    });
    s.closeIdleConnections();
  });
  await parts.release();
}

/**
 * Node's request listener for `server`: each request gets its id and its log line, and starts in
 * its own turn of the event loop (one per turn, so new connections are accepted between them).
 */
function requestListener(server: Server, yoga: YogaServerInstance<Record<string, never>, Context>, stopping: () => boolean) {
  const startInTurn = onePerConnection(oneStartPerTurn());
  return (req: IncomingMessage, res: ServerResponse) => {
    // While stopping, a finished response must not leave a keep-alive connection holding the
    // server open until the keep-alive timeout or the grace period.
    res.once('finish', () => {
      if (stopping()) setImmediate(() => server.closeIdleConnections());
    });
    if (stopping()) res.shouldKeepAlive = false;
    // Counted from its arrival (see src/infra/load.ts), so a request waiting its turn counts too.
    if (!header(req, 'accept')?.includes('text/event-stream')) res.once('close', requestStarted());
    const scope = { requestId: requestIdFrom(header(req, 'x-request-id')) };
    res.setHeader('x-request-id', scope.requestId);
    logWhenAnswered(req, res, scope);
    // In its own scope: a request waiting behind another of its connection starts from that one's end.
    startInTurn(req, res, () => requestScope.run(scope, () => yoga.handle(req, res)));
  };
}

/**
 * A request Node cannot parse (headers over its 16 KiB, a malformed request line) is answered
 * with its status and a JSON error with a code; Node's own answer is a status line alone.
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: not while a response on this connection is being written (pipelined
  // requests); `_httpMessage` is that response, Node's field (20 to 24).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'REQUEST_TIMEOUT'] : [400, 'BAD_REQUEST'];
  const body = JSON.stringify({ errors: [{ message: `${STATUS_CODES[status]}: the request could not be read`, extensions: { code } }] });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** One line per HTTP request once answered: what, who, how it ended, how long it took (health checks at debug). */
function logWhenAnswered(req: IncomingMessage, res: ServerResponse, scope: RequestScope): void {
  const started = performance.now();
  res.once('finish', () => {
    const path = (req.url ?? '/').split('?')[0];
    const line = { ...scope, method: req.method, path, status: res.statusCode, durationMs: Math.round((performance.now() - started) * 10) / 10 };
    if (path === '/health' || path === '/live') log.debug(line, 'request');
    else log.info(line, 'request');
  });
}

/** `authenticator.authenticate`, recording its refusals (not a database that cannot answer) in the audit log. */
function auditedAuthentication(authenticator: Authenticator, failures: AuthenticationFailures) {
  return (authorization: string | null | undefined, address: string | undefined, host: string | null) =>
    authenticator.authenticate(authorization, address, host).catch((error: unknown) => {
      const code = error instanceof GraphQLError ? error.extensions.code : undefined;
      if (code === 'UNAUTHENTICATED' || code === 'PROTECTED_MODE') {
        failures.note({ clientAddress: address ?? null, code, reason: (error as GraphQLError).message });
      }
      throw error;
    });
}
