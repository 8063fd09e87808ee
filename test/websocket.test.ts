import type { ExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createEventBus } from '../src/infra/events.ts';
import { captureLogs, flushLogs, log } from '../src/infra/log.ts';
import { TOO_MANY_CONNECTIONS_CLOSE_CODE, clientOf } from '../src/server/websocket.ts';
import { createDatabaseUrl } from './support/harness.ts';
import { Collector, untilListening } from './support/subscriptions.ts';

// Two apps on one database and one event bus, each with small limits: `perSocket` allows 2
// operations per socket, `capped` 2 connections; both take messages of at most 20 KB and
// documents of at most 60 tokens (a Yoga plugin's limit, checked while parsing).
const MAX_OPERATIONS = 2;
const MAX_CONNECTIONS = 2;
/** `waitCapped`: 10 connections, of which 2 may wait for their connection_init. */
const MAX_PENDING = 2;
const MAX_MESSAGE_BYTES = 20_000;
const MAX_TOKENS = 60;

let database: Database;
let drop: () => Promise<void>;
let perSocket: { app: App; port: number };
let capped: { app: App; port: number };
let waitCapped: { app: App; port: number };
/** `addressCapped`: of 10 connections waiting for their connection_init, 2 from one address other than loopback; no API keys. */
let addressCapped: { app: App; port: number };
const MAX_PENDING_PER_ADDRESS = 2;

beforeAll(async () => {
  const created = await createDatabaseUrl();
  drop = created.drop;
  database = await openDatabase(created.url);
  const bus = createEventBus();
  type Caps = { maxSubscriptionsPerSocket?: number; maxConnections?: number; maxPendingConnections?: number; maxPendingConnectionsPerAddress?: number };
  const start = async (webSocket: Caps, auth: 'on' | 'off' = 'on') => {
    const app = createApp({ database, bus, webSocket, auth, maxRequestBodyBytes: MAX_MESSAGE_BYTES, limits: { maxTokens: MAX_TOKENS } });
    return { app, port: await app.start(0, '127.0.0.1') };
  };
  perSocket = await start({ maxSubscriptionsPerSocket: MAX_OPERATIONS });
  capped = await start({ maxConnections: MAX_CONNECTIONS });
  waitCapped = await start({ maxConnections: 10, maxPendingConnections: MAX_PENDING });
  addressCapped = await start({ maxConnections: 10, maxPendingConnections: 10, maxPendingConnectionsPerAddress: MAX_PENDING_PER_ADDRESS }, 'off');
});

afterAll(async () => {
  await perSocket?.app.stop(1_000);
  await capped?.app.stop(1_000);
  await waitCapped?.app.stop(1_000);
  await addressCapped?.app.stop(1_000);
  await database?.close();
  await drop?.();
});

type EntryEvent = { entryChanged: { entry: { name: string } } };
const ON_ENTRY = 'subscription ($scope: ID!) { entryChanged(scope: $scope) { entry { name } } }';

async function post(app: App, query: string, variables: Record<string, unknown>) {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const result = (await response.json()) as ExecutionResult<{ createProject?: { project?: { id: string } } }>;
  if (result.errors || !result.data) throw new Error(JSON.stringify(result));
  return result.data;
}

async function createProject(name: string): Promise<string> {
  const query = 'mutation ($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }';
  const id = (await post(perSocket.app, query, { n: name })).createProject?.project?.id;
  if (!id) throw new Error(`project ${name} was not created`);
  return id;
}
const addTool = (scope: string, name: string) =>
  post(perSocket.app, 'mutation ($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { __typename } }', { s: scope, n: name });

const client = (port: number): Client => createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });

/** One operation on `on`; its results (and its terminal error, as graphql-ws hands it over) are collected. */
function operation<R>(on: Client, query: string, variables: Record<string, unknown> = {}) {
  const collector = new Collector<R>();
  let done = false;
  const unsubscribe = on.subscribe<R>(
    { query, variables },
    { next: (r) => collector.push(r as ExecutionResult<R>), error: (e) => collector.fail(e), complete: () => (done = true) },
  );
  return { collector, unsubscribe, completed: () => done };
}

/** Waits for the one error an operation ends with. */
async function failure(collector: Collector<unknown>): Promise<unknown> {
  await expect(collector.until(() => false, 5_000)).rejects.toThrow(/subscription failed/);
  return collector.errors[0];
}

/** A subscription whose events are tool names added to a fresh project, listening already. */
async function listening(on: Client, project: string) {
  const sub = operation<EntryEvent>(on, ON_ENTRY, { scope: project });
  let probes = 0;
  await untilListening(sub.collector, () => addTool(project, `probe-${probes++}`));
  return sub;
}

const names = (c: Collector<EntryEvent>) => c.results.map((r) => r.data?.entryChanged.entry.name).filter((n) => n && !n.startsWith('probe'));

describe('graphql-ws: GraphQL errors end one operation, not the socket', () => {
  it('syntax, validation and limit errors answer an error for their id while another subscription on the socket keeps receiving events', async () => {
    const project = await createProject('ws-syntax');
    const c = client(perSocket.port);
    try {
      const live = await listening(c, project);
      const broken = operation(c, 'subscription { entryChanged(');
      expect(await failure(broken.collector)).toEqual([
        expect.objectContaining({ message: 'Syntax Error: Expected Name, found <EOF>.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } }),
      ]);
      const invalid = operation(c, 'subscription { noSuchField }');
      // Yoga's HTTP-only `http` extension is not sent over the socket.
      expect(await failure(invalid.collector)).toEqual([
        expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
      ]);
      const tooLong = operation(c, `subscription { ${'__typename '.repeat(MAX_TOKENS)}}`);
      expect(await failure(tooLong.collector)).toEqual([
        expect.objectContaining({ extensions: { code: 'TOO_MANY_TOKENS', limit: MAX_TOKENS } }),
      ]);
      await addTool(project, 'after-errors');
      await live.collector.until(() => names(live.collector).includes('after-errors'));
      expect(live.collector.errors).toEqual([]);
      live.unsubscribe();
    } finally {
      await c.dispose();
    }
  });
});

describe('graphql-ws: errors as over HTTP and SSE', () => {
  it("carry no `http` extension (Yoga's, for HTTP statuses) in `next` messages: execution errors, a subscription refused at its start, a limit", async () => {
    const c = client(perSocket.port);
    try {
      const fieldError = operation(c, '{ scope(id: "x") { id } }');
      await fieldError.collector.until((results) => results.length > 0);
      expect(fieldError.collector.results[0]).toMatchObject({
        data: { scope: null },
        errors: [{ path: ['scope'], extensions: { code: 'VALIDATION_FAILED', inputPath: ['id'] } }],
      });
      const unknownScope = operation(c, 'subscription { entryChanged(scope: "UHJvamVjdDp4") { cursor } }');
      await unknownScope.collector.until((results) => results.length > 0);
      const tooLong = operation(c, 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array<string>(2001).fill('x') });
      await tooLong.collector.until((results) => results.length > 0);
      const extensions = [fieldError, unknownScope, tooLong].map((op) => op.collector.results[0]?.errors?.map((e) => e.extensions));
      expect(extensions).toEqual([
        [{ code: 'VALIDATION_FAILED', inputPath: ['id'] }],
        [{ code: 'NOT_FOUND', inputPath: ['scope'] }],
        [{ code: 'BAD_USER_INPUT', limit: 2000 }],
      ]);
    } finally {
      await c.dispose();
    }
  });
});

describe('graphql-ws: operations per socket', () => {
  it(`refuses operation ${MAX_OPERATIONS + 1} with TOO_MANY_SUBSCRIPTIONS; completing one frees a slot`, async () => {
    const project = await createProject('ws-per-socket');
    const c = client(perSocket.port);
    try {
      const first = await listening(c, project);
      const second = await listening(c, project);
      const refused = operation(c, ON_ENTRY, { scope: project });
      expect(await failure(refused.collector)).toEqual([
        expect.objectContaining({ extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: MAX_OPERATIONS } }),
      ]);
      // The refusal ended neither the socket nor the other operations.
      await addTool(project, 'still-there');
      await second.collector.until(() => names(second.collector).includes('still-there'));
      first.unsubscribe();
      const third = await listening(c, project);
      await addTool(project, 'in-freed-slot');
      await third.collector.until(() => names(third.collector).includes('in-freed-slot'));
      // The limit is per socket: another socket has its own slots.
      const other = client(perSocket.port);
      try {
        await listening(other, project);
      } finally {
        await other.dispose();
      }
    } finally {
      await c.dispose();
    }
  });
});

describe('graphql-ws: connections per instance', () => {
  it(`closes connection ${MAX_CONNECTIONS + 1} with ${TOO_MANY_CONNECTIONS_CLOSE_CODE} and a reason; open ones keep working`, async () => {
    const project = await createProject('ws-capped');
    const open = [client(capped.port), client(capped.port)];
    try {
      const subs = await Promise.all(open.map((c) => listening(c, project)));
      const extra = client(capped.port);
      const refused = operation(extra, ON_ENTRY, { scope: project });
      expect(await failure(refused.collector)).toMatchObject({
        code: TOO_MANY_CONNECTIONS_CLOSE_CODE,
        reason: `Too many connections (at most ${MAX_CONNECTIONS} per instance)`,
      });
      await extra.dispose();
      await addTool(project, 'after-refusal');
      for (const sub of subs) await sub.collector.until(() => names(sub.collector).includes('after-refusal'));
      // A closed connection frees its place.
      await open.shift()!.dispose();
      const next = client(capped.port);
      open.push(next);
      await eventually(async () => listening(next, project));
    } finally {
      await Promise.all(open.map(async (c) => c.dispose()));
    }
  });
});

describe('graphql-ws: connections that have not sent connection_init', () => {
  /** A raw socket that sends nothing yet: open once the handshake is done. */
  async function silent(): Promise<WebSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${waitCapped.port}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return ws;
  }

  it(`at most ${MAX_PENDING} wait for it; one more is closed with ${TOO_MANY_CONNECTIONS_CLOSE_CODE}, and a socket once accepted no longer takes a waiting place`, async () => {
    const project = await createProject('ws-waiting');
    const waiting = [await silent(), await silent()];
    const clients: Client[] = [];
    try {
      const extra = client(waitCapped.port);
      clients.push(extra);
      expect(await failure(operation(extra, ON_ENTRY, { scope: project }).collector)).toMatchObject({
        code: TOO_MANY_CONNECTIONS_CLOSE_CODE,
        reason: `Too many connections waiting for connection_init (at most ${MAX_PENDING} per instance)`,
      });
      // One of them sends its connection_init: accepted, its place is free.
      const acked = new Promise<string>((resolve) => waiting[0]!.once('message', (data: Buffer) => resolve(String(data))));
      waiting[0]!.send(JSON.stringify({ type: 'connection_init' }));
      expect(JSON.parse(await acked)).toEqual({ type: 'connection_ack' });
      // Accepted sockets count only against the 10 connections: three more work while one still waits.
      for (let i = 0; i < 3; i++) {
        const next = client(waitCapped.port);
        clients.push(next);
        await eventually(async () => listening(next, project));
      }
      expect(waiting[1]!.readyState).toBe(WebSocket.OPEN);
    } finally {
      for (const ws of waiting) ws.close();
      await Promise.all(clients.map(async (c) => c.dispose()));
    }
  });
});

describe('graphql-ws: connections from one address that have not sent connection_init', () => {
  /** A raw socket from `localAddress` (any 127.x.y.z reaches the loopback listener) that sends nothing yet. */
  async function silentFrom(localAddress: string): Promise<WebSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${addressCapped.port}/graphql`, 'graphql-transport-ws', { localAddress });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return ws;
  }
  const closeOf = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  /** Sends connection_init and resolves with the server's first message (or how it closed the socket). */
  const initialized = (ws: WebSocket) =>
    new Promise<unknown>((resolve) => {
      ws.once('message', (data: Buffer) => resolve(JSON.parse(String(data))));
      ws.once('close', (code) => resolve({ closed: code }));
      ws.send(JSON.stringify({ type: 'connection_init' }));
    });

  it(`at most ${MAX_PENDING_PER_ADDRESS} from one address wait for it; one more from there is closed with ${TOO_MANY_CONNECTIONS_CLOSE_CODE}, another address still gets in`, async () => {
    const sockets = [await silentFrom('127.0.0.2'), await silentFrom('127.0.0.2')];
    try {
      const third = await silentFrom('127.0.0.2');
      sockets.push(third);
      expect(await closeOf(third)).toEqual({
        code: TOO_MANY_CONNECTIONS_CLOSE_CODE,
        reason: `Too many connections waiting for connection_init from one address (at most ${MAX_PENDING_PER_ADDRESS})`,
      });
      const elsewhere = await silentFrom('127.0.0.3');
      sockets.push(elsewhere);
      expect(await initialized(elsewhere)).toEqual({ type: 'connection_ack' });
      // An accepted socket and a closed one each free their address's place.
      expect(await initialized(sockets[0]!)).toEqual({ type: 'connection_ack' });
      const closed = closeOf(sockets[1]!);
      sockets[1]!.close();
      await closed;
      const again = [await silentFrom('127.0.0.2'), await silentFrom('127.0.0.2')];
      sockets.push(...again);
      for (const ws of again) expect(await initialized(ws)).toEqual({ type: 'connection_ack' });
    } finally {
      for (const ws of sockets) ws.close();
    }
  });

  it('loopback (a reverse proxy on this machine) is not capped per address, only by the instance-wide cap', async () => {
    const sockets = [];
    try {
      for (let i = 0; i <= MAX_PENDING_PER_ADDRESS; i++) sockets.push(await silentFrom('127.0.0.1'));
      for (const ws of sockets) expect(await initialized(ws)).toEqual({ type: 'connection_ack' });
    } finally {
      for (const ws of sockets) ws.close();
    }
  });
});

describe('graphql-ws: the client a waiting socket counts against', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::203.0.113.7', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s counts as %s (IPv6 by its /64: one host has all of it)', (address, client) => {
    expect(clientOf(address)).toBe(client);
  });
});

/** The server counts a connection closed when its close handshake ends, a moment after the client's dispose(). */
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('graphql-ws: protocol violations close the socket with the protocol codes, the server stays up', () => {
  /** A raw socket that sends `frames` (after connection_init when `init`), resolving with its close code and reason. */
  async function closeOf(frames: Array<string | Buffer>, init = true): Promise<{ code: number; reason: string }> {
    const ws = new WebSocket(`ws://127.0.0.1:${perSocket.port}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    if (init) {
      ws.send(JSON.stringify({ type: 'connection_init' }));
      await new Promise((resolve) => ws.once('message', resolve));
    }
    for (const frame of frames) ws.send(frame);
    return closed;
  }
  const subscribe = (id: string) => JSON.stringify({ id, type: 'subscribe', payload: { query: ON_ENTRY, variables: { scope: 'x' } } });

  it.each([
    ['malformed JSON', ['{not json'], true, 4400],
    ['an unknown message type', [JSON.stringify({ type: 'shout' })], true, 4400],
    ['a subscribe before connection_init', [subscribe('1')], false, 4401],
    [`a message over ${MAX_MESSAGE_BYTES} bytes`, [Buffer.alloc(MAX_MESSAGE_BYTES + 1, 'a')], true, 1009],
  ])('%s', async (_name, frames, init, code) => {
    expect((await closeOf(frames, init)).code).toBe(code);
    const project = await createProject(`ws-after-${code}-${_name.length}`);
    const c = client(perSocket.port);
    try {
      await listening(c, project);
    } finally {
      await c.dispose();
    }
  });

  it('a message over the limit and a text frame that is not UTF-8, before connection_init: one debug log line each, nothing on the console', async () => {
    const consoleCalls = (['error', 'warn', 'log'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
    const lines: string[] = [];
    const level = log.level;
    log.level = 'debug';
    const release = captureLogs((line) => void lines.push(line));
    try {
      const oversize = await closeOf([Buffer.alloc(MAX_MESSAGE_BYTES + 1, 'a')], false);
      const ws = new WebSocket(`ws://127.0.0.1:${perSocket.port}/graphql`, 'graphql-transport-ws');
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
      expect([oversize.code, await closed]).toEqual([1009, 1007]);
      await flushLogs();
      const closes = lines.map((line) => JSON.parse(line) as { level: number; msg: string; code?: string }).filter((l) => l.msg.startsWith('WebSocket closed'));
      expect(closes.map(({ level: at, code }) => ({ at, code }))).toEqual([
        { at: 20, code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' },
        { at: 20, code: 'WS_ERR_INVALID_UTF8' },
      ]);
      for (const spy of consoleCalls) expect(spy.mock.calls).toEqual([]);
    } finally {
      release();
      log.level = level;
      for (const spy of consoleCalls) spy.mockRestore();
    }
  });

  // graphql-ws threw on them ("Unexpected message of type next received"): its adapter printed the
  // stack with console.error and closed the socket with 4500 Internal server error.
  it.each([
    ['next', { id: '1', type: 'next', payload: { data: {} } }],
    ['error', { id: '1', type: 'error', payload: [{ message: 'x' }] }],
    ['connection_ack', { type: 'connection_ack' }],
  ])('a %s message, which only a server sends: closed with 4400 naming it, nothing on the console', async (type, message) => {
    const consoleCalls = (['error', 'warn', 'log'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
    try {
      expect(await closeOf([JSON.stringify(message)])).toEqual({ code: 4400, reason: `Unexpected message of type ${type} received` });
      for (const spy of consoleCalls) expect(spy.mock.calls).toEqual([]);
    } finally {
      for (const spy of consoleCalls) spy.mockRestore();
    }
    const project = await createProject(`ws-after-${type}`);
    const c = client(perSocket.port);
    try {
      await listening(c, project);
    } finally {
      await c.dispose();
    }
  });

  it.each([
    ['a header name with a space', { 'bad name': 'x' }],
    ['a line break in a value', { 'x-engram-actor': 'a\nb' }],
    ['a key beyond Latin-1', { authorization: 'Bearer \u2713' }],
    ['a lone surrogate in a key', { authorization: 'Bearer \ud800' }],
  ])('connection_init with %s: closed with 4400 and a reason naming the header', async (_name, payload) => {
    const ws = new WebSocket(`ws://127.0.0.1:${perSocket.port}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload }));
    const { code, reason } = await closed;
    expect({ code, reason }).toEqual({ code: 4400, reason: `Header ${JSON.stringify(Object.keys(payload)[0])} in connection_init is not a valid HTTP header` });
  });

  // 200,000 entries (2.8 MB) were kept for the socket's life and made into headers again for
  // every operation: 0.35 s of the event loop each, 7.5 MB a subscription held. On a server that
  // takes messages as large as requests (25 MB), as by default. (A connection_init that large is
  // now refused unread, 1009: see "messages before connection_ack" below.)
  it.each([
    ['101 entries', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x-h${i}`, 'v']))],
    ['5,000 entries', Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`h${i}`, 'v']))],
    ['one value of 65 KB', { 'x-engram-actor': 'a'.repeat(65 * 1024) }],
  ])('connection_init with %s: closed with 4400 before any is read', async (_name, payload) => {
    const app = createApp({ database, bus: createEventBus() });
    const port = await app.start(0, '127.0.0.1');
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
      const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ type: 'connection_init', payload }));
      expect(await closed).toEqual({ code: 4400, reason: 'connection_init holds more than 100 headers or 64 KB of them' });
    } finally {
      await app.stop(1_000);
    }
  });

  it('a duplicate operation id while the first is active', async () => {
    const project = await createProject('ws-duplicate');
    const ws = new WebSocket(`ws://127.0.0.1:${perSocket.port}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise((resolve) => ws.once('message', resolve));
    const first = JSON.stringify({ id: 'same', type: 'subscribe', payload: { query: ON_ENTRY, variables: { scope: project } } });
    ws.send(first);
    // The first is active once it delivers an event.
    let probes = 0;
    const delivered = new Promise((resolve) => ws.once('message', resolve));
    const probing = setInterval(() => void addTool(project, `probe-${probes++}`), 100);
    await delivered.finally(() => clearInterval(probing));
    ws.send(first);
    expect(await closed).toBe(4409);
  });
});

describe('graphql-ws: headers of an operation', () => {
  it("take an operation's extensions.headers (GraphiQL's Headers tab) over the connection's", async () => {
    const project = await createProject('ws-headers');
    const c = createClient({
      url: `ws://127.0.0.1:${perSocket.port}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { 'x-engram-actor': 'agent:connection' },
    });
    const add = (name: string, extensions?: Record<string, unknown>) =>
      new Promise<unknown>((resolve, reject) => {
        c.subscribe(
          {
            query: 'mutation ($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { ... on AddToolSuccess { tool { currentVersion { createdBy } } } } }',
            variables: { s: project, n: name },
            ...(extensions ? { extensions } : {}),
          },
          { next: (r) => resolve(r.data), error: reject, complete: () => undefined },
        );
      });
    const refused = (headers: Record<string, string>) =>
      new Promise<unknown>((resolve) => {
        c.subscribe({ query: '{ __typename }', extensions: { headers } }, { next: resolve, error: resolve, complete: () => undefined });
      });
    try {
      expect(await add('by-connection')).toEqual({ addTool: { tool: { currentVersion: { createdBy: 'agent:connection' } } } });
      expect(await add('by-operation', { headers: { 'X-Engram-Actor': 'agent:operation' } })).toEqual({
        addTool: { tool: { currentVersion: { createdBy: 'agent:operation' } } },
      });
      // A header HTTP could not carry is this operation's error; the socket and its other operations go on.
      for (const headers of [{ 'bad name': 'x' }, { authorization: 'Bearer \u2713' }] as Record<string, string>[]) {
        expect(await refused(headers)).toEqual([
          expect.objectContaining({ message: `Header ${JSON.stringify(Object.keys(headers)[0])} in extensions.headers is not a valid HTTP header`, extensions: { code: 'BAD_REQUEST' } }),
        ]);
      }
      expect(await add('after-bad-headers')).toEqual({ addTool: { tool: { currentVersion: { createdBy: 'agent:connection' } } } });
    } finally {
      await c.dispose();
    }
  });
});

// graphql-ws parses a message before it reads it, and ws buffered one of up to the body limit
// (25 MB) from anyone: a connection_init of a million keys held the event loop 2.5 s, key or not.
describe('graphql-ws: messages before connection_ack', () => {
  let wide: { app: App; port: number };
  beforeAll(async () => {
    // The default limits: messages of up to 25 MB once accepted.
    wide = { app: createApp({ database }), port: 0 };
    wide.port = await wide.app.start(0, '127.0.0.1');
  });
  afterAll(() => wide?.app.stop(1_000));

  /** A raw socket that sends `init` as its connection_init, then `after` once acknowledged; resolves with what came back and the close code, if it closed. */
  async function exchange(init: string, after?: string): Promise<{ types: string[]; closed: number | null }> {
    const ws = new WebSocket(`ws://127.0.0.1:${wide.port}/graphql`, 'graphql-transport-ws');
    const types: string[] = [];
    let closed: number | null = null;
    const done = new Promise<void>((resolve) => {
      ws.on('close', (code) => ((closed = code), resolve()));
      ws.on('message', (data: Buffer) => {
        const type = (JSON.parse(String(data)) as { type: string }).type;
        types.push(type);
        if (type === 'connection_ack' && after) ws.send(after);
        if (type === 'complete' || (type === 'connection_ack' && !after)) resolve();
      });
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(init);
    await done;
    ws.close();
    return { types, closed };
  }

  it('a connection_init over 256 KB is closed with 1009 unread; once accepted, a socket sends messages of megabytes', async () => {
    const pad = 'x'.repeat(300 * 1024);
    expect(await exchange(JSON.stringify({ type: 'connection_init', payload: { 'x-pad': pad } }))).toEqual({ types: [], closed: 1009 });
    // Within the bound: acknowledged.
    expect(await exchange(JSON.stringify({ type: 'connection_init', payload: { 'x-pad': 'x'.repeat(60 * 1024) } }))).toEqual({ types: ['connection_ack'], closed: null });
    // After the ack, a subscribe of 2 MB is read and answered.
    const big = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ __typename }', variables: { pad: 'y'.repeat(2 * 1024 * 1024) } } });
    expect(await exchange(JSON.stringify({ type: 'connection_init' }), big)).toEqual({ types: ['connection_ack', 'next', 'complete'], closed: null });
  });
});

describe('graphql-ws: one socket flooding operations', () => {
  const PAIRS = 20_000;

  it(`does not hold the server: another client is answered while ${PAIRS} subscribe/complete pairs on one socket are still being worked through; the ping after them is answered`, async () => {
    const app = createApp({ database });
    const port = await app.start(0, '127.0.0.1');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    try {
      await new Promise((resolve) => ws.once('open', resolve));
      const types: string[] = [];
      ws.on('message', (data: Buffer) => types.push((JSON.parse(String(data)) as { type: string }).type));
      ws.send(JSON.stringify({ type: 'connection_init' }));
      await vi.waitFor(() => expect(types).toContain('connection_ack'));
      for (let i = 0; i < PAIRS; i++) {
        ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: '{ __typename }' } }));
        ws.send(JSON.stringify({ id: String(i), type: 'complete' }));
      }
      ws.send(JSON.stringify({ type: 'ping' }));
      // The server has begun on the flood (an operation of it answered) when the other client asks.
      await vi.waitFor(() => expect(types).toContain('next'), { timeout: 10_000 });
      const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
      // The ping sent after the flood is answered only once every message before it was handled.
      expect(types).not.toContain('pong');
      await vi.waitFor(() => expect(types).toContain('pong'), { timeout: 60_000, interval: 50 });
    } finally {
      ws.close();
      await app.stop(1_000);
    }
  });
});

describe('graphql-ws: a client that hangs up while its results are being written', () => {
  it('is one debug line per failed write, never an error: 10 sockets cut with 50 large results each in flight', async () => {
    const app = createApp({ database });
    const port = await app.start(0, '127.0.0.1');
    const lines: string[] = [];
    const level = log.level;
    log.level = 'debug';
    const release = captureLogs((line) => void lines.push(line));
    const large = '{ __schema { types { name description fields { name description } } } }';
    try {
      const hangUp = async () => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
        await new Promise((resolve) => ws.once('open', resolve));
        ws.send(JSON.stringify({ type: 'connection_init' }));
        await new Promise((resolve) => ws.once('message', resolve));
        for (let i = 0; i < 50; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: large } }));
        await new Promise((resolve) => ws.once('message', resolve));
        // A reset, not a close handshake: the server's next writes fail (EPIPE or ECONNRESET).
        (ws as unknown as { _socket: Socket })._socket.resetAndDestroy();
      };
      await vi.waitFor(
        async () => {
          await Promise.all(Array.from({ length: 10 }, hangUp));
          await flushLogs();
          // Some write failed because the client was gone (whatever it was logged as).
          expect(lines.some((line) => /EPIPE|ECONNRESET/.test(line))).toBe(true);
        },
        { timeout: 30_000, interval: 0 },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await flushLogs();
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(logged.filter(({ level: at }) => at >= 40).map(({ msg }) => msg)).toEqual([]);
      expect(logged.filter(({ msg }) => /EPIPE|ECONNRESET/.test(msg)).every(({ msg }) => msg.startsWith('WebSocket send failed'))).toBe(true);
    } finally {
      release();
      log.level = level;
      await app.stop(1_000);
    }
  });
});

describe('upgrades to other protocols', () => {
  /** Sends each of `parts` on one connection, 50 ms apart; resolves with what came back once `until` holds of it. */
  async function exchangeRaw(port: number, parts: string[], until: (text: string) => boolean): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    try {
      for (const part of parts) {
        socket.write(part);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await vi.waitFor(() => expect(until(text)).toBe(true), { timeout: 10_000 });
      return text;
    } finally {
      socket.destroy();
    }
  }
  const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n';

  it('h2c (curl --http2 on http://) is answered as the HTTP/1.1 request it also is, body and the next request on the connection included', async () => {
    // The body arrives after the head was handed over (a second write), as a large one would.
    const body = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(15_000) } });
    const post = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const get = 'GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
    const text = await exchangeRaw(perSocket.port, [post + body.slice(0, 5_000), body.slice(5_000) + get], (t) => (t.match(/HTTP\/1\.1 200/g) ?? []).length === 2);
    expect(text).toContain('{"data":{"__typename":"Query"}}');
    expect(text).not.toMatch(/HTTP\/1\.1 (101|400|405)/);
    const health = await exchangeRaw(perSocket.port, [`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}\r\n`], (t) => t.includes('"status"'));
    expect(health).toMatch(/^HTTP\/1\.1 200/);
  });

  /** `text` as one chunk of a chunked body. */
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

  it('an h2c request with a chunked body is answered too, and the connection read on', async () => {
    // Node 26 reads the body of an upgrade request itself (de-chunked): it is handed on framed anew.
    const body = JSON.stringify({ query: '{ __typename }', variables: { pad: 'y'.repeat(9_000) } });
    const post = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const get = 'GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
    const parts = [post + chunk(body.slice(0, 4_000)), chunk(body.slice(4_000)) + '0\r\n\r\n' + get];
    const text = await exchangeRaw(perSocket.port, parts, (t) => (t.match(/HTTP\/1\.1 200/g) ?? []).length === 2);
    expect(text).toContain('{"data":{"__typename":"Query"}}');
    expect(text).not.toMatch(/HTTP\/1\.1 [45]/);
  });

  it('an h2c request whose body is over the limit is refused with 413 and its connection closed', async () => {
    const post = `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const parts = [post + chunk('{"query":"{ __typename }","pad":"'), chunk('z'.repeat(MAX_MESSAGE_BYTES)), chunk('z'.repeat(1_000))];
    const text = await exchangeRaw(perSocket.port, parts, (t) => t.includes('REQUEST_ENTITY_TOO_LARGE'));
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).not.toContain('__typename');
  });

  it('one connection asking for h2c again and again keeps what it holds: no listener added per request', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const again = Array.from({ length: 15 }, () => `GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\n${h2c}\r\n`);
      const text = await exchangeRaw(perSocket.port, again, (t) => (t.match(/HTTP\/1\.1 200/g) ?? []).length === 15);
      expect(text).not.toContain('HTTP/1.1 4');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
