import type { IncomingMessage, Server } from 'node:http';
import type { DocumentNode, ExecutionArgs, GraphQLError, GraphQLSchema } from 'graphql';
import type { ServerOptions } from 'graphql-ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Context } from '../context.ts';

export interface WebSocketEndpoint {
  /** Ends every subscription with "going away" and stops accepting connections. */
  close(): Promise<void>;
}

/** graphql-ws on the GraphQL path of `server`, through the same Yoga pipeline (context, errors, plugins). */
export function attachWebSocket(server: Server, yoga: YogaServerInstance<Record<string, never>, Context>): WebSocketEndpoint {
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
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
  return {
    async close() {
      await wsServer.dispose();
      wss.close();
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
