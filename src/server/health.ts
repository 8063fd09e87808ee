import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';
import type { EventBus } from '../infra/events.ts';

/**
 * `GET /health`: the database (503 when it does not answer: nothing works without it) and the
 * event broker (`events`: `in-process`, `up` or `down`). Events down is `degraded` with 200:
 * reads and writes still work, only subscriptions are refused, so a load balancer must not take
 * the instance out.
 */
export function useHealth(database: Database, bus: EventBus): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== '/health') return undefined;
      return database.ping().then((ok) => {
        const events = bus.state();
        const body = { status: ok && events !== 'down' ? 'ok' : 'degraded', database: ok ? 'up' : 'down', events, provider: database.provider };
        endResponse(
          new fetchAPI.Response(JSON.stringify(body), { status: ok ? 200 : 503, headers: { 'content-type': 'application/json' } }),
        );
      });
    },
  };
}
