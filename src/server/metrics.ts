import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Database } from '../infra/database.ts';
import type { EventBus } from '../infra/events.ts';
import { httpCaller, type Caller } from './authentication.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsSources {
  database: Database;
  bus: EventBus;
  /** Open WebSocket connections (0 before the server listens). */
  webSocketConnections: () => number;
  authenticate: (authorization: string | null, address: string | undefined, host: string | null) => Promise<Caller>;
}

/**
 * Prometheus metrics at /metrics: Yoga's and envelop's (requests, phases, errors, HTTP latency
 * histograms), Node's, and Engram's own (open subscriptions, WebSocket connections, the database
 * pool, the event broker). Labels a caller chooses (operation names, URLs, error paths) are left
 * out: each new value would be a new series kept in memory for good. /metrics answers whoever
 * may administer the server (an admin key, this machine in protected mode, or anyone with AUTH=off).
 */
export function useMetrics(sources: MetricsSources): Plugin[] {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'engram_' });
  let subscriptions = 0;
  engramGauges(registry, sources, () => subscriptions);
  return [
    usePrometheus({
      registry,
      endpoint: false,
      labels: { operationName: false, url: false, path: false },
      metrics: { graphql_yoga_http_duration: true },
    }),
    {
      onSubscribe: () => ({
        onSubscribeResult: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) return undefined;
          subscriptions++;
          return { onEnd: () => void subscriptions-- };
        },
      }),
      onRequest({ request, url, endResponse, serverContext }) {
        if (url.pathname !== METRICS_PATH) return undefined;
        return answer(request, serverContext, registry, sources).then(endResponse);
      },
    },
  ];
}

function engramGauges(registry: Registry, sources: MetricsSources, subscriptions: () => number): void {
  const registers = [registry];
  new Gauge({ name: 'engram_subscriptions_open', help: 'GraphQL subscriptions open (WebSocket and SSE)', registers, collect() { this.set(subscriptions()); } });
  new Gauge({ name: 'engram_websocket_connections', help: 'Open graphql-ws connections', registers, collect() { this.set(sources.webSocketConnections()); } });
  new Gauge({ name: 'engram_events_broker_up', help: '1 while events reach other instances (or run in-process), 0 while Redis is down', registers, collect() { this.set(sources.bus.state() === 'down' ? 0 : 1); } });
  new Gauge({
    name: 'engram_database_pool_connections',
    help: 'PostgreSQL pool: connections open (total), idle, and queries waiting for one',
    labelNames: ['state'],
    registers,
    collect() {
      const stats = sources.database.poolStats();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });
}

async function answer(request: Request, serverContext: unknown, registry: Registry, sources: MetricsSources): Promise<Response> {
  const authenticated = await httpCaller(sources.authenticate, request, serverContext);
  if ('refused' in authenticated) {
    const { status, message } = authenticated.refused;
    return new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain' } });
  }
  const { caller } = authenticated;
  if (!(caller.local || caller.unchecked || caller.principal?.admin)) {
    return new Response('Metrics are for admins: send an admin API key\n', { status: 403, headers: { 'content-type': 'text/plain' } });
  }
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
}
