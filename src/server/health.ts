import type { Plugin } from 'graphql-yoga';
import type { Database } from '../infra/database.ts';

/** `GET /health`: whether the database answers (503 when it does not). */
export function useHealth(database: Database): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== '/health') return undefined;
      return database.ping().then((ok) => {
        endResponse(
          new fetchAPI.Response(JSON.stringify({ status: ok ? 'ok' : 'degraded', database: ok ? 'up' : 'down', provider: database.provider }), {
            status: ok ? 200 : 503,
            headers: { 'content-type': 'application/json' },
          }),
        );
      });
    },
  };
}
