// Prometheus metrics at /metrics on the listening server: what they count, that a caller cannot
// grow them with names of its choosing, and who may read them.
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { eventually } from './support/redis-server.ts';

const h = useHarness({ listen: true });

async function metrics(headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(`http://127.0.0.1:${h.port}/metrics`, { headers });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

/** The value of a series (`name{labels}` as printed), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const post = (query: string, operationName?: string) =>
  fetch(`http://127.0.0.1:${h.port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName }) });

describe('/metrics', () => {
  it('counts requests, latency, errors and open subscriptions, without names a caller chose', async () => {
    await post('query Chosen_By_Caller_8271 { globalScope { id } }', 'Chosen_By_Caller_8271');
    await post('{ noSuchField }');
    const { status, text, type } = await metrics();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(text).toMatch(/^graphql_yoga_http_duration_bucket\{[^}]*operationType="query"/m);
    expect(text).toMatch(/^graphql_envelop_phase_execute_count/m);
    expect(text).toMatch(/^graphql_envelop_error_result\{[^}]*phase="validate"/m);
    expect(text).toMatch(/^engram_process_cpu_user_seconds_total /m);
    expect(text).not.toContain('Chosen_By_Caller_8271');
    expect(text).not.toMatch(/url="/);
    expect(value(text, 'engram_subscriptions_open')).toBe(0);
    if (DB_KIND === 'postgresql') expect(value(text, 'engram_database_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(value(text, 'engram_events_broker_up')).toBe(1);

    const client = createClient({ url: `ws://127.0.0.1:${h.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const unsubscribe = client.subscribe({ query: 'subscription { memoryPurged { erasedEntries } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    try {
      await eventually('the subscription is counted', async () => value((await metrics()).text, 'engram_subscriptions_open') === 1, 10_000);
      expect(value((await metrics()).text, 'engram_websocket_connections')).toBe(1);
    } finally {
      unsubscribe();
      await client.dispose();
    }
    await eventually('the subscription has ended', async () => value((await metrics()).text, 'engram_subscriptions_open') === 0, 10_000);
  });

  // Last: once a key exists, callers without one are refused.
  it('answers admins only once keys exist', async () => {
    const admin = await principal(h, 'metrics-admin', { admin: true });
    const agent = await principal(h, 'metrics-agent');
    expect((await metrics()).status).toBe(401);
    expect((await metrics({ authorization: 'Bearer egk_nope' })).status).toBe(401);
    expect((await metrics({ authorization: `Bearer ${agent.key}` })).status).toBe(403);
    const allowed = await metrics({ authorization: `Bearer ${admin.key}` });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('engram_subscriptions_open');
  });
});
