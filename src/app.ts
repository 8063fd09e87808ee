import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { createContext, type Context } from './context.ts';
import { DomainError } from './domain/errors.ts';
import type { Database } from './infra/database.ts';
import { getSchema } from './graphql/schema.ts';

export interface AppOptions {
  database: Database;
  graphiql?: boolean;
  /** Mask unexpected errors (always in production; tests may see them). */
  maskErrors?: boolean;
}

export interface App {
  yoga: YogaServerInstance<Record<string, never>, Context>;
  /** Listens on `port` (0 = ephemeral); resolves with the bound port. */
  start(port: number, host?: string): Promise<number>;
  /** Stops accepting, lets open requests finish (up to `graceMs`), closes sockets. */
  stop(graceMs?: number): Promise<void>;
}

export function createApp({ database, graphiql = true }: AppOptions): App {
  const yoga = createYoga<Record<string, never>, Context>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    // Yoga's built-in health check answers any URL ending in its endpoint (default "/health") with
    // an empty 200 before user plugins run: move it off /health so the database-aware one below answers.
    healthCheckEndpoint: '/live',
    graphiql: graphiql ? { title: 'Engram' } : false,
    landingPage: false,
    logging: process.env.NODE_ENV === 'test' ? 'error' : 'info',
    context: ({ request }) => createContext(database.prisma, request),
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
