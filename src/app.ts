import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PothosValidationError } from '@pothos/core';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { ServerOptions } from 'graphql-ws';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { createContext, type Context } from './context.ts';
import { DomainError } from './domain/errors.ts';
import type { Database } from './infra/database.ts';
import { createEventBus, type EventBus } from './infra/events.ts';
import { DEFAULT_WRITE_SETTINGS, type WriteSettings } from './infra/transaction.ts';
import { MAX_REQUEST_BODY_BYTES, useRequestBodyLimit } from './graphql/body-limit.ts';
import { getSchema } from './graphql/schema.ts';

export interface AppOptions {
  database: Database;
  /** Default: in-process pub/sub. */
  bus?: EventBus;
  /** Default: DEFAULT_WRITE_SETTINGS. */
  settings?: WriteSettings;
  graphiql?: boolean;
  /** Largest request body accepted, in bytes (default MAX_REQUEST_BODY_BYTES). */
  maxRequestBodyBytes?: number;
}

export interface App {
  yoga: YogaServerInstance<Record<string, never>, Context>;
  /** Listens on `port` (0 = ephemeral); resolves with the bound port. */
  start(port: number, host?: string): Promise<number>;
  /** Stops accepting, lets open requests finish (up to `graceMs`), closes sockets. */
  stop(graceMs?: number): Promise<void>;
}

export function createApp({ database, bus = createEventBus(), settings = DEFAULT_WRITE_SETTINGS, graphiql = true, maxRequestBodyBytes = MAX_REQUEST_BODY_BYTES }: AppOptions): App {
  const deps = { db: database.prisma, provider: database.provider, bus, settings };
  const yoga = createYoga<Record<string, never>, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    // Yoga's built-in health check answers any URL ending in its endpoint (default "/health") with
    // an empty 200 before user plugins run: move it off /health so the database-aware one below answers.
    healthCheckEndpoint: '/live',
    graphiql: graphiql ? { title: 'Engram', subscriptionsProtocol: 'WS' } : false,
    landingPage: false,
    // Replaced by useRequestBodyLimit (same limit, without a stream per request).
    maxRequestBodySize: false,
    logging: process.env.NODE_ENV === 'test' ? 'error' : 'info',
    // HTTP and SSE requests carry a Fetch Request; WebSocket operations pass their headers.
    context: (initial: { request?: Request; headers?: Headers }) =>
      createContext(deps, initial.headers ?? initial.request?.headers ?? new Headers()),
    maskedErrors: {
      // Expected failures raised outside result unions (query arguments) keep their message
      // and carry their code; everything else is masked as "Unexpected error.".
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        // Expected failures keep their message; DomainError.extensions supplies the code.
        if (original instanceof DomainError) return error as Error;
        // Pothos rejects bad paging argument combinations (e.g. `first` with `before`).
        if (error instanceof GraphQLError && original instanceof PothosValidationError) {
          (error.extensions as Record<string, unknown>).code = 'BAD_USER_INPUT';
          return error;
        }
        // GraphQL's own errors (syntax, validation, variable and scalar coercion) are client errors.
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) return error;
        return new GraphQLError(message, {
          nodes: error instanceof GraphQLError ? error.nodes : undefined,
          path: error instanceof GraphQLError ? error.path : undefined,
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
      },
    },
    plugins: [
      useRequestBodyLimit(maxRequestBodyBytes),
      {
        onRequest({ request, url, endResponse, fetchAPI }) {
          if (request.method === 'GET' && url.pathname === '/health') {
            return database.ping().then((ok) => {
              endResponse(
                new fetchAPI.Response(JSON.stringify({ status: ok ? 'ok' : 'degraded', database: ok ? 'up' : 'down', provider: database.provider }), {
                  status: ok ? 200 : 503,
                  headers: { 'content-type': 'application/json' },
                }),
              );
            });
          }
          return undefined;
        },
      },
    ],
  });

  let server: Server | undefined;
  let sockets: { wss: WebSocketServer; dispose: () => void | Promise<void> } | undefined;
  let stopping = false;
  return {
    yoga,
    start(port, host) {
      stopping = false;
      server = createServer((req: IncomingMessage, res: ServerResponse) => {
        // While stopping, a finished response must not leave a keep-alive connection holding the
        // server open until the keep-alive timeout or the grace period.
        res.once('finish', () => {
          if (stopping) setImmediate(() => s.closeIdleConnections());
        });
        if (stopping) res.shouldKeepAlive = false;
        void yoga.handle(req, res);
      });
      const s = server;
      // graphql-ws on the same path, through the same Yoga pipeline (context, errors, plugins).
      const wss = new WebSocketServer({ server: s, path: yoga.graphqlEndpoint });
      const wsServer = useServer<Record<string, unknown>, { request: IncomingMessage }>(
        {
          execute: (args) => (args.rootValue as Enveloped).execute(args),
          subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
          onSubscribe: async (ctx, _id, payload) => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(ctx.extra.request.headers)) {
              if (typeof value === 'string') headers.set(name, value);
            }
            // connection_init payload may carry headers too (browsers cannot set WebSocket headers).
            for (const [name, value] of Object.entries(ctx.connectionParams ?? {})) {
              if (typeof value === 'string') headers.set(name.toLowerCase(), value);
            }
            // Yoga types its enveloped functions loosely; this is the shape they have.
            const enveloped = yoga.getEnveloped({ ...ctx, headers, params: payload }) as EnvelopedOperation;
            const { schema, execute, subscribe, contextFactory, parse, validate } = enveloped;
            const document = parse(payload.query);
            const errors = validate(schema, document);
            if (errors.length > 0) return errors;
            return {
              schema,
              document,
              operationName: payload.operationName,
              variableValues: payload.variables,
              contextValue: await contextFactory(),
              rootValue: { execute, subscribe },
            };
          },
        },
        wss,
      );
      sockets = { wss, dispose: () => wsServer.dispose() };
      return new Promise((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => resolve((s.address() as AddressInfo).port));
      });
    },
    async stop(graceMs = 10_000) {
      const s = server;
      if (!s) return;
      server = undefined;
      stopping = true;
      // Subscriptions end with "going away" so clients reconnect elsewhere.
      await sockets?.dispose();
      sockets?.wss.close();
      sockets = undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => s.closeAllConnections(), graceMs);
        timer.unref();
        s.close(() => {
          clearTimeout(timer);
          resolve();
        });
        s.closeIdleConnections();
      });
    },
  };
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
