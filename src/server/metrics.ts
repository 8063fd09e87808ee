import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Database } from '../infra/database.ts';
import type { EventBus } from '../infra/events.ts';
import { httpCaller, type Caller } from './authentication.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsSources {
  database: Database;
  bus: EventBus;
  /** Open WebSocket connections (0 before the server listens). */
  webSocketConnections: () => number;
  /** Open subscriptions, WebSocket and SSE (counted by src/server/load.ts). */
  subscriptionsOpen: () => number;
  /** Events delivered to subscriptions, executed for their subscriber or shared (src/graphql/shared-events.ts). */
  eventsDelivered: () => { own: number; shared: number };
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
  engramGauges(registry, sources);
  return [
    usePrometheus({
      registry,
      endpoint: false,
      labels: { operationName: false, url: false, path: false },
      metrics: {
        graphql_yoga_http_duration: true,
        graphql_envelop_request: true,
        graphql_envelop_request_duration: true,
        graphql_envelop_error_result: true,
        graphql_envelop_phase_execute: true,
        graphql_envelop_phase_subscribe: true,
        graphql_envelop_phase_context: true,
        graphql_envelop_schema_change: true,
        // Left out for what they cost each request (server CPU per `{ __typename }` over HTTP,
        // measured): the deprecated-field counter walks every document with a TypeInfo, and the
        // schema deprecates nothing; the request summary keeps quantiles (a digest update per
        // request) that the request histogram already answers; parse and validate are cached per
        // document by Yoga, so their histograms would time cache lookups.
        graphql_envelop_deprecated_field: false,
        graphql_envelop_request_time_summary: false,
        graphql_envelop_phase_parse: false,
        graphql_envelop_phase_validate: false,
      },
    }),
    {
      onRequest({ request, url, endResponse, serverContext }) {
        if (url.pathname !== METRICS_PATH) return undefined;
        return answer(request, serverContext, registry, sources).then(endResponse);
      },
    },
  ];
}

function engramGauges(registry: Registry, sources: MetricsSources): void {
  const registers = [registry];
  new Gauge({ name: 'engram_subscriptions_open', help: 'GraphQL subscriptions open, or starting, over WebSocket and SSE', registers, collect() { this.set(sources.subscriptionsOpen()); } });
  new Counter({
    name: 'engram_subscription_events_total',
    help: "Events delivered to subscriptions: executed for their subscriber (own), or given the result of another subscriber's same operation, variables and caller (shared)",
    labelNames: ['execution'],
    registers,
    collect() {
      const { own, shared } = sources.eventsDelivered();
      this.reset();
      this.inc({ execution: 'own' }, own);
      this.inc({ execution: 'shared' }, shared);
    },
  });
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
  new Counter({
    name: 'engram_sqlite_reads_total',
    help: 'SQLite: reads outside transactions, by the connection that ran them (main, or a reader thread)',
    labelNames: ['connection'],
    registers,
    collect() {
      const reads = sources.database.readStats();
      if (!reads) return;
      this.reset();
      this.inc({ connection: 'main' }, reads.main);
      this.inc({ connection: 'reader' }, reads.reader);
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
