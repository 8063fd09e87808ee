// Identity (issue #12, first part): principals and API keys, authentication over HTTP and
// WebSocket, protected mode while no key exists, and the keys command line.
import http from 'node:http';
import net from 'node:net';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { createDatabaseUrl, DB_KIND, useHarness } from './support/harness.ts';
import { runKeysCli } from './support/server-process.ts';

const h = useHarness({ listen: true });

interface Answer {
  status: number;
  body: { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string } }[] };
}

/** A request over a real socket, from `from` (a loopback address other than 127.0.0.1 is not "this machine"). */
function call(
  query: string,
  { key, from = '127.0.0.1', variables, port = h.port, host }: { key?: string; from?: string; variables?: unknown; port?: number; host?: string } = {},
): Promise<Answer> {
  const body = JSON.stringify({ query, variables });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...(host ? { host } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw request (`head` and what follows it); resolves with what came back once the server closes the connection, or after `ms`. */
async function rawExchange(head: string, body: string, ms: number): Promise<{ received: string; closed: boolean }> {
  const socket = net.connect(h.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(`${head}\r\n\r\n${body}`);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => (clearTimeout(timer), resolve(true)));
  });
  socket.destroy();
  return { received, closed };
}

const codes = (a: Answer) => a.body.errors?.map((e) => e.extensions.code) ?? [];
const VIEWER = '{ viewer { local authentication principal { name kind admin } } }';

/** In-process calls act as a local admin: how the test sets up principals and keys. */
async function principalWithKey(name: string, admin: boolean, expiresAt?: string): Promise<{ id: string; key: string; keyId: string }> {
  const made = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation($name: String!, $admin: Boolean) { createPrincipal(input: { name: $name, kind: AGENT, admin: $admin }) {
        ... on CreatePrincipalSuccess { principal { id } } ... on UserError { code } } }`,
      variables: { name, admin },
    }),
  });
  const id = ((await made.json()) as { data: { createPrincipal: { principal: { id: string } } } }).data.createPrincipal.principal.id;
  const keyed = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation($p: ID!, $e: DateTime) { createApiKey(input: { principal: $p, name: "test", expiresAt: $e }) {
        ... on CreateApiKeySuccess { key { secret apiKey { id prefix } } } ... on UserError { code } } }`,
      variables: { p: id, e: expiresAt },
    }),
  });
  const { secret, apiKey } = ((await keyed.json()) as { data: { createApiKey: { key: { secret: string; apiKey: { id: string; prefix: string } } } } }).data
    .createApiKey.key;
  expect(secret.startsWith(apiKey.prefix)).toBe(true);
  return { id, key: secret, keyId: apiKey.id };
}

describe(`identity (${DB_KIND})`, () => {
  it('protected mode: with no key, this machine is a local admin and any other address is refused', async () => {
    const local = await call(VIEWER);
    expect(local).toEqual({ status: 200, body: { data: { viewer: { local: true, authentication: true, principal: null } } } });
    const remote = await call(VIEWER, { from: '127.0.0.2' });
    expect(remote.status).toBe(403);
    expect(codes(remote)).toEqual(['PROTECTED_MODE']);
    expect(remote.body.errors?.[0]?.message).toContain('npm run keys -- create --admin');
  });

  it('protected mode: a keyless request from this machine must be addressed to it (a DNS-rebound page is refused)', async () => {
    for (const host of [`localhost:${h.port}`, `127.0.0.1:${h.port}`, `[::1]:${h.port}`, `app.localhost:${h.port}`]) {
      expect((await call(VIEWER, { host })).status, host).toBe(200);
    }
    for (const host of [`attacker.example:${h.port}`, 'evil.test', `127.0.0.1.nip.io:${h.port}`]) {
      const rebound = await call(VIEWER, { host });
      expect([rebound.status, codes(rebound)], host).toEqual([403, ['PROTECTED_MODE']]);
    }
    // The WebSocket upgrade is checked the same way.
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${h.port}/graphql`, 'graphql-transport-ws', { headers: { host: 'attacker.example' } });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.on('close', (code) => resolve(code));
    });
    expect(refused).toBe(4403);
  });

  it('once a key exists, every network request needs a valid one (401 otherwise), from any address', async () => {
    const admin = await principalWithKey('ops', true);
    for (const from of ['127.0.0.1', '127.0.0.2']) {
      expect(codes(await call(VIEWER, { from }))).toEqual(['UNAUTHENTICATED']);
      const wrong = await call(VIEWER, { from, key: 'egk_not-a-key' });
      expect([wrong.status, codes(wrong)]).toEqual([401, ['UNAUTHENTICATED']]);
      const ok = await call(VIEWER, { from, key: admin.key });
      expect(ok).toEqual({ status: 200, body: { data: { viewer: { local: false, authentication: true, principal: { name: 'ops', kind: 'AGENT', admin: true } } } } });
    }
  });

  it('only admins manage principals and keys', async () => {
    const agent = await principalWithKey('agent-7', false);
    const refused = await call('mutation { createPrincipal(input: { name: "x", kind: USER }) { __typename ... on UserError { code } } }', { key: agent.key });
    expect(refused.body.data).toEqual({ createPrincipal: { __typename: 'PermissionDeniedError', code: 'FORBIDDEN' } });
    const listing = await call('{ principals(first: 10) { totalCount } }', { key: agent.key });
    expect(codes(listing)).toEqual(['FORBIDDEN']);
    const admin = await principalWithKey('ops-2', true);
    const listed = await call('{ principals(first: 10) { totalCount edges { node { name admin keys { prefix revokedAt } } } } }', { key: admin.key });
    const names = (listed.body.data as { principals: { edges: { node: { name: string } }[] } }).principals.edges.map((e) => e.node.name);
    expect(names).toEqual(['agent-7', 'ops', 'ops-2']);
  });

  // A caller without a key was authenticated once its body had been parsed: a body of a million
  // variable keys (16.8 MB) held the event loop 2 s before its 401.
  it("a refused caller's body is not read: 401 before its JSON is parsed, and a chunked body's connection is closed", async () => {
    const admin = await principalWithKey('body-reader', true);
    const head = (length: string, key?: string) =>
      `POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${length}${key ? `\r\nAuthorization: Bearer ${key}` : ''}`;
    const notJson = '{"query": not json';
    const status = (received: string) => /^HTTP\/1\.1 (\d+)/.exec(received)?.[1];
    const keyless = await rawExchange(head(`Content-Length: ${notJson.length}\r\nConnection: close`), notJson, 5_000);
    expect([status(keyless.received), keyless.received.includes('"UNAUTHENTICATED"')]).toEqual(['401', true]);
    // With a key the same body is read, and refused for what it is.
    const keyed = await rawExchange(head(`Content-Length: ${notJson.length}\r\nConnection: close`, admin.key), notJson, 5_000);
    expect(status(keyed.received)).toBe('400');
    // A chunked body that never ends: answered, and the connection closed rather than read on.
    const endless = await rawExchange(head('Transfer-Encoding: chunked'), `10\r\n${'{"query": "{ __t'}\r\n`, 8_000);
    expect([status(endless.received), endless.closed, /\r\nconnection: close\r\n/i.test(endless.received)]).toEqual(['401', true, true]);
  });

  it('a key for a principal that does not exist is a NotFoundError, and nothing is written', async () => {
    const admin = await principalWithKey('ops-7', true);
    const missing = encodeGlobalID('Principal', 'no-such-principal');
    const answer = await call(`mutation($p: ID!) { createApiKey(input: { principal: $p, name: "x" }) { __typename ... on UserError { code path } } }`, {
      key: admin.key,
      variables: { p: missing },
    });
    expect(answer.body.data).toEqual({ createApiKey: { __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'principal'] } });
    const listed = await call('{ principals(first: 100) { edges { node { name keys { name } } } } }', { key: admin.key });
    const keyNames = (listed.body.data as { principals: { edges: { node: { keys: { name: string }[] } }[] } }).principals.edges.flatMap((e) => e.node.keys.map((k) => k.name));
    expect(keyNames).not.toContain('x');
  });

  it('a revoked key stops working at once; an expired key at its expiry', async () => {
    const admin = await principalWithKey('ops-3', true);
    const agent = await principalWithKey('agent-8', false);
    expect((await call(VIEWER, { key: agent.key })).status).toBe(200);
    const revoked = await call(`mutation($id: ID!) { revokeApiKey(input: { id: $id }) { ... on RevokeApiKeySuccess { apiKey { revokedAt } } } }`, {
      key: admin.key,
      variables: { id: agent.keyId },
    });
    expect(revoked.status).toBe(200);
    expect(codes(await call(VIEWER, { key: agent.key }))).toEqual(['UNAUTHENTICATED']);

    const soon = await principalWithKey('agent-9', false, new Date(Date.now() + 1_500).toISOString());
    expect((await call(VIEWER, { key: soon.key })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(codes(await call(VIEWER, { key: soon.key }))).toEqual(['UNAUTHENTICATED']);
  });

  it('WebSocket connections authenticate in connection_init: a bad or missing key is closed with 4403', async () => {
    const admin = await principalWithKey('ops-4', true);
    const connect = (connectionParams: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const client = createClient({ url: `ws://127.0.0.1:${h.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
        client.subscribe(
          { query: VIEWER },
          {
            next: (r) => resolve(JSON.stringify(r.data)),
            error: (e) => resolve(`closed ${(e as { code?: number }).code}`),
            complete: () => void client.dispose(),
          },
        );
      });
    expect(await connect({ authorization: `Bearer ${admin.key}` })).toContain('"name":"ops-4"');
    expect(await connect({})).toBe('closed 4403');
    expect(await connect({ authorization: 'Bearer egk_nope' })).toBe('closed 4403');
  });

  it('revoking a key ends the open subscriptions of its sockets (4403)', async () => {
    const admin = await principalWithKey('ops-6', true);
    const agent = await principalWithKey('agent-10', false);
    const granted = await call(`mutation($p: ID!, $s: ID!) { grantRole(input: { principal: $p, scope: $s, role: READ }) { __typename } }`, {
      key: admin.key,
      variables: { p: agent.id, s: encodeGlobalID('GlobalScope', 'global') },
    });
    expect(granted.body.data).toEqual({ grantRole: { __typename: 'GrantRoleSuccess' } });
    let socketClosed!: (event: unknown) => void;
    const closed = new Promise<unknown>((resolve) => (socketClosed = resolve));
    const client = createClient({
      url: `ws://127.0.0.1:${h.port}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${agent.key}` },
      // Kept open with no subscription left, so that the server's close is what ends it.
      lazy: false,
      on: { closed: (event) => socketClosed(event) },
    });
    const ended = new Promise<unknown>((resolve) => {
      client.subscribe({ query: `subscription { entryChanged(scope: "${encodeGlobalID('GlobalScope', 'global')}") { type } }` }, { next: () => undefined, error: resolve, complete: () => resolve('complete') });
    });
    // The subscription is open once the connection is acknowledged and a probe query answers on it.
    await new Promise<void>((resolve, reject) => client.subscribe({ query: VIEWER }, { next: () => resolve(), error: reject, complete: () => undefined }));
    await call(`mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename } }`, { key: admin.key, variables: { id: agent.keyId } });
    // The subscription ends (its own recheck may end it first, with FORBIDDEN), and the socket's
    // recheck closes the socket with 4403: two timers of 2 s, in either order.
    const ending = (await ended) as { code?: number } | Array<{ extensions?: { code?: string } }>;
    if (Array.isArray(ending)) expect(ending.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    const reason = (await closed) as { code?: number; reason?: string };
    expect([reason.code, reason.reason]).toEqual([4403, 'Forbidden: the API key was revoked or has expired']);
    await client.dispose();
  });

  it('AUTH=off lets every caller in, key or not, from any address', async () => {
    await principalWithKey('ops-5', true);
    const open = createApp({ database: h.database, auth: 'off' });
    const port = await open.start(0, '127.0.0.1');
    try {
      const answer = await call(VIEWER, { from: '127.0.0.2', port });
      expect(answer).toEqual({ status: 200, body: { data: { viewer: { local: false, authentication: false, principal: null } } } });
    } finally {
      await open.stop(1_000);
    }
  });

  it('the keys command line makes the first key of a fresh server, lists and revokes it', async () => {
    const { url, drop } = await createDatabaseUrl();
    try {
      const keys = (...args: string[]) => runKeysCli(url, ...args);
      const created = await keys('create', '--name', 'bootstrap', '--admin');
      expect(created.status, created.stderr).toBe(0);
      const secret = created.stdout.trim();
      expect(secret).toMatch(/^egk_[A-Za-z0-9_-]{43}$/);
      expect(created.stderr).toContain('"bootstrap" (admin)');
      const listed = await keys('list');
      expect(listed.stdout).toContain(`${secret.slice(0, 12)}…  bootstrap (SERVICE)  default  active`);
      expect((await keys('revoke', secret.slice(0, 12))).status).toBe(0);
      expect((await keys('list')).stdout).toContain('revoked');
      expect((await keys('revoke', 'egk_nothing')).status).toBe(2);
    } finally {
      await drop();
    }
  });
});
