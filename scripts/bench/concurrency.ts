// Issue #14's concurrency suite, against the real server process over HTTP: one client, then 16
// concurrent clients, each sending its next operation as soon as the last one answered, on a mix of
// 80 % reads (the read shapes) and 20 % writes (create, update); then an event-delay probe: how much
// later a subscription event arrives when a slow query is running on the server.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { opts, overHttp, record, summarize, timed, warmupSeconds, type Ask } from './common.ts';
import { shape, type Shape } from './shapes.ts';
import type { Workload } from './workload.ts';

const READS = ['get', 'list', 'tagWord', 'tagOnly', 'context2', 'relatedTo'].map(shape);
const WRITES = ['create', 'update'].map(shape);

/** `warm`: the server has answered the shapes for a while already (the memory suite ran first). */
export async function concurrencySuite(w: Workload, port: number, warm: boolean): Promise<void> {
  const seconds = Number(opts['concurrency-seconds']);
  const clients = Number(opts['concurrency-clients']);
  console.log(`  concurrency: 80 % reads / 20 % writes for ${seconds} s, 1 client and ${clients} clients in turn`);
  const ask = overHttp(port);
  await closedLoops(w, ask, 1, warm ? 2 : warmupSeconds); // warm-up, not recorded (see warmupSeconds)
  const { one, many } = await inTurn(w, ask, clients, seconds);
  const key = (shapeKey: string) => ({ size: w.n, shape: shapeKey, via: 'http' as const });
  const single = summarize('concurrency', w.kind, `N=${w.n} 1 client: mixed operation`, one.latencies);
  const loaded = summarize('concurrency', w.kind, `N=${w.n} ${clients} clients: mixed operation`, many.latencies);
  record('concurrency', w.kind, `N=${w.n} 1 client: throughput`, one.perSecond, 'ops/s');
  record('concurrency', w.kind, `N=${w.n} ${clients} clients: throughput`, many.perSecond, 'ops/s');
  record('concurrency', w.kind, `N=${w.n} ${clients} clients ÷ 1 client: throughput`, many.perSecond / one.perSecond, '×', key('throughputRatio'));
  record('concurrency', w.kind, `N=${w.n} ${clients} clients ÷ 1 client: p95`, loaded.p95 / single.p95, '×', key('p95Ratio'));
  await eventDelay(w, port, ask);
}

/**
 * One client, then `clients`, in PHASES turns of `seconds / PHASES` each, merged per side: the
 * machine's speed drifts within a run (six runs of one commit, one phase after the other: ratios
 * of 1.23 × to 1.70 ×), and in turn the drift falls on both sides alike.
 */
export async function inTurn(w: Workload, ask: Ask, clients: number, seconds: number) {
  const sides = { one: { latencies: [] as number[], seconds: 0 }, many: { latencies: [] as number[], seconds: 0 } };
  for (let phase = 0; phase < PHASES; phase++) {
    for (const [side, n] of [['one', 1], ['many', clients]] as const) {
      const t0 = performance.now();
      const { latencies } = await closedLoops(w, ask, n, seconds / PHASES);
      sides[side].latencies.push(...latencies);
      sides[side].seconds += (performance.now() - t0) / 1000;
    }
  }
  const merged = ({ latencies, seconds: s }: { latencies: number[]; seconds: number }) => ({ latencies, perSecond: latencies.length / s });
  return { one: merged(sides.one), many: merged(sides.many) };
}
const PHASES = 4;

/** `clients` closed loops for `seconds`: each client asks its next operation when the last answered. */
export async function closedLoops(w: Workload, ask: Ask, clients: number, seconds: number) {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  let i = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const s: Shape = i % 5 === 4 ? WRITES[i % 2]! : READS[i % READS.length]!;
      const n = i++;
      await timed(latencies, () => ask(s.query, s.variables(w, n)));
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, loop));
  return { latencies, perSecond: latencies.length / ((performance.now() - t0) / 1000) };
}

/**
 * Write-to-event time of `entryChanged` (graphql-ws) alone, and while a slow query (every entry of
 * the chain ranked, for its total) runs on the server, sent 10 ms before the write. The delay is
 * the difference of the p50s.
 */
async function eventDelay(w: Workload, port: number, ask: Ask): Promise<void> {
  const slow = `query($s: ID!) { memoryQuery(input: { scope: $s, includeOverridden: true }, first: 100) { edges { score node { id } } meta { totalCount } } }`;
  const write = shape('create');
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  let onEvent: (() => void) | null = null;
  const unsubscribe = client.subscribe(
    { query: 'subscription($s: ID!) { entryChanged(scope: $s) { type entryId } }', variables: { s: w.projectId } },
    { next: () => onEvent?.(), error: (e) => console.error('subscription error', e), complete: () => undefined },
  );
  const nextEvent = () => new Promise<void>((resolve) => (onEvent = resolve));
  const responses: { alone: number[]; during: number[] } = { alone: [], during: [] };
  const writeToEvent = async (i: number, response?: number[]) => {
    const arrived = nextEvent();
    const t0 = performance.now();
    await ask(write.query, write.variables(w, i));
    response?.push(performance.now() - t0);
    await arrived;
    return performance.now() - t0;
  };
  try {
    for (let i = 0; i < 10; i++) await Promise.race([writeToEvent(i), sleep(1_000)]); // the subscription registers asynchronously
    const alone: number[] = [];
    const during: number[] = [];
    const slowTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      alone.push(await writeToEvent(i, responses.alone));
      const running = timed(slowTimes, () => ask(slow, { s: w.sessionId }));
      await sleep(10);
      during.push(await writeToEvent(i, responses.during));
      await running;
    }
    summarize('concurrency', w.kind, `N=${w.n} the slow query (ranks the whole chain)`, slowTimes);
    // The write's own answer, to tell its time from the event's delivery.
    summarize('concurrency', w.kind, `N=${w.n} write response, alone`, responses.alone);
    summarize('concurrency', w.kind, `N=${w.n} write response, slow query running`, responses.during);
    const a = summarize('concurrency', w.kind, `N=${w.n} write-to-event, alone`, alone);
    const d = summarize('concurrency', w.kind, `N=${w.n} write-to-event, slow query running`, during);
    record('concurrency', w.kind, `N=${w.n} event delay while a slow query runs`, d.p50 - a.p50, 'ms', { size: w.n, shape: 'eventDelay', via: 'http' });
  } finally {
    unsubscribe();
    await client.dispose();
  }
}
