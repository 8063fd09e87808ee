// A client that stops reading is let go: its answer waits in the server's memory only as long as
// the stall window allows, and never past the backlog bound. One that reads, however slowly, gets
// its answer whole. Over real sockets to a real server.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App, type HTTP_TIMEOUTS } from '../src/app.ts';
import type { StalledOutputLimits } from '../src/server/stalled-output.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';
import { subscriptionsOpen } from './support/subscriptions.ts';

const h = useHarness();
const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.stop(100))));

async function serve(stalledOutput: Partial<StalledOutputLimits>, httpTimeouts?: Partial<typeof HTTP_TIMEOUTS>): Promise<number> {
  const app = createApp({ database: h.database, auth: 'off', stalledOutput: { sweepMs: 100, ...stalledOutput }, ...(httpTimeouts ? { httpTimeouts } : {}) });
  apps.push(app);
  return app.start(0, '127.0.0.1');
}

/** A query whose answer is ~10 MB: one entry of 100,000 characters named 100 times. */
async function largeAnswer(): Promise<string> {
  const project = await createProject(h, `stalled-${Math.random()}`);
  const id = await addKnowledge(h, project, 'big', { content: 'x'.repeat(100_000) });
  return JSON.stringify({
    query: 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } } }',
    variables: { ids: Array.from({ length: 100 }, () => id) },
  });
}

/** Sends the request and never reads the answer. */
async function nonReader(port: number, body: string, accept = 'application/json'): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  const head = `POST /graphql HTTP/1.1\r\nHost: engram.test\r\nContent-Type: application/json\r\nAccept: ${accept}\r\nContent-Length: ${Buffer.byteLength(body)}`;
  socket.write(`${head}\r\n\r\n${body}`);
  return socket;
}

/**
 * What a non-reader gets of its answer when it reads again after `pausedMs`: until the server
 * closes the connection, or `ms` more pass. (A paused socket does not see its peer close it.)
 */
async function readAfter(socket: Socket, pausedMs: number, ms = 8_000): Promise<{ bytes: number; closed: boolean }> {
  await new Promise((resolve) => setTimeout(resolve, pausedMs));
  return new Promise((resolve) => {
    let bytes = 0;
    const timer = setTimeout(() => resolve({ bytes, closed: false }), ms);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ bytes, closed: true });
    });
    socket.resume();
  });
}

/** Reads the answer with a pause of 50 ms after each chunk. Resolves with its length and the declared one. */
function slowRead(port: number, body: string): Promise<{ received: number; declared: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        res.pause();
        setTimeout(() => res.resume(), 50);
      });
      res.on('end', () => resolve({ received, declared: Number(res.headers['content-length']) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe(`clients that stop reading (${DB_KIND})`, () => {
  it('a connection whose client takes nothing of its answer for the stall window is closed; a slow reader gets its answer whole', async () => {
    const body = await largeAnswer();
    const port = await serve({ stallMs: 1_500, minProgressBytes: 16 * 1024 });
    const stalled = await nonReader(port, body);
    const slow = slowRead(port, body);
    // Without the sweep the non-reader holds its ~10 MB for as long as it keeps the connection,
    // and gets all of it once it reads.
    const cut = await readAfter(stalled, 4_000);
    expect(cut.closed).toBe(true);
    expect(cut.bytes).toBeLessThan(10_000_000);
    const { received, declared } = await slow;
    expect(declared).toBeGreaterThan(10_000_000);
    expect(received).toBe(declared);
  }, 60_000);

  it('a connection with more output waiting than the backlog bound is closed without waiting for the stall window', async () => {
    const body = await largeAnswer();
    const port = await serve({ stallMs: 600_000, maxBacklogBytes: 1024 * 1024 });
    const stalled = await nonReader(port, body);
    const cut = await readAfter(stalled, 1_000);
    expect(cut.closed).toBe(true);
    expect(cut.bytes).toBeLessThan(10_000_000);
    // An answer that fits the bound is not cut: the server goes on answering on other connections.
    const small = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    expect(await small.json()).toEqual({ data: { __typename: 'Query' } });
  }, 60_000);

  it('an SSE subscriber that stops reading is let go, and its subscription with it', async () => {
    const project = await createProject(h, 'stalled-subscriber');
    const port = await serve({ stallMs: 1_500, minProgressBytes: 16 * 1024 });
    const query = 'subscription ($s: ID!) { entryChanged(scope: $s) { entry { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } } } }';
    const subscriber = await nonReader(port, JSON.stringify({ query, variables: { s: project } }), 'text/event-stream');
    await expect.poll(() => subscriptionsOpen(port)).toBe(1);
    // 100 events of ~100 KB: more than the sockets' buffers hold, so output waits for the subscriber.
    for (let i = 0; i < 100; i++) await addKnowledge(h, project, `event-${i}`, { content: `${i} ${'y'.repeat(99_990)}` });
    const cut = await readAfter(subscriber, 4_000);
    expect(cut.closed).toBe(true);
    expect(cut.bytes).toBeLessThan(100 * 100_000);
    await expect.poll(() => subscriptionsOpen(port)).toBe(0);
  }, 60_000);

  // Node's defaults held a connection sending its headers a byte a second for 68 s, a body for 308 s.
  it('a client that sends its headers or its body a little at a time is cut off at the request timeouts', async () => {
    const port = await serve({}, { headersTimeout: 1_000, requestTimeout: 2_000, connectionsCheckingInterval: 200 });
    const dribble = async (head: string, unit: string): Promise<{ received: string; closedAfterMs: number | null }> => {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      const started = Date.now();
      socket.write(head);
      const timer = setInterval(() => socket.writable && socket.write(unit), 200);
      const closedAfterMs = await new Promise<number | null>((resolve) => {
        const limit = setTimeout(() => resolve(null), 8_000);
        socket.once('close', () => (clearTimeout(limit), resolve(Date.now() - started)));
      });
      clearInterval(timer);
      socket.destroy();
      return { received, closedAfterMs };
    };
    const headers = await dribble('GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: localhost\r\n', 'x-slow: 1\r\n');
    expect(headers.received).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.closedAfterMs).not.toBeNull();
    const body = await dribble('POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', ' ');
    expect(body.received).toMatch(/^HTTP\/1\.1 408/);
    expect(body.closedAfterMs).not.toBeNull();
  }, 60_000);
});
