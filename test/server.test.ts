// End-to-end tests of the real server process (src/main.ts compiled, as test/support/compiled.ts says) on the database of
// the running project (ENGRAM_TEST_DB): start-up on a database that does not exist yet / is empty,
// restart without re-migrating, GraphiQL, graceful SIGTERM. The 503 health check runs in-process.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { openDatabase } from '../src/infra/database.ts';
import { createDatabaseUrl } from './support/harness.ts';
import { compiled } from './support/server-process.ts';

const DB_KIND = (process.env.ENGRAM_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgresql';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** Number of committed migrations: what a fresh start must report as applied. */
const MIGRATION_COUNT = readdirSync(join(ROOT, 'prisma', DB_KIND, 'migrations'), { withFileTypes: true }).filter((e) =>
  e.isDirectory(),
).length;
/** Upper bounds for waits (failure guards, not measurements). */
const START_DEADLINE_MS = 20_000;
const EXIT_DEADLINE_MS = 4_000;

// ---------------------------------------------------------------------------------------------
// Databases

const tempDirs: string[] = [];
const pgDatabases: string[] = [];

/** A database that does not exist yet (SQLite, in a nested directory) or is empty (PostgreSQL). */
async function freshDatabase(): Promise<{ url: string; file?: string }> {
  if (DB_KIND === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'engram-server-'));
    tempDirs.push(dir);
    const file = join(dir, 'nested', 'dir', 'engram.db');
    return { url: `file:${file}`, file };
  }
  const name = `engram_server_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    pgDatabases.push(name);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString() };
}

const drops: (() => Promise<void>)[] = [];

/** A migrated copy of the run's template database (cheaper than migrating a fresh one). */
async function migratedDatabaseUrl(): Promise<string> {
  const created = await createDatabaseUrl();
  drops.push(created.drop);
  return created.url;
}

async function countTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** Tables of a database the test run migrated itself (a copy of its template). */
async function tablesOfMigratedDatabase(): Promise<number> {
  const { url, drop } = await createDatabaseUrl();
  try {
    return await countTables(url);
  } finally {
    await drop();
  }
}

// ---------------------------------------------------------------------------------------------
// Server processes

interface Server {
  child: ChildProcess;
  port: number;
  /** The message of the "Engram listening on …" log line. */
  line: string;
  base: string;
  output(): string;
  /** Resolves once stdout+stderr match `pattern`. */
  waitForOutput(pattern: RegExp, deadlineMs?: number): Promise<void>;
  /** Resolves with the exit status (rejects after the deadline). */
  exited(deadlineMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();

function withDeadline<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms: ${what()}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function startServer(databaseUrl: string, withEnv: NodeJS.ProcessEnv = {}): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    // Far above EXIT_DEADLINE_MS: a prompt exit must not come from the grace timer.
    SHUTDOWN_GRACE_MS: '30000',
    ...withEnv,
  };
  delete env.GRAPHIQL;
  for (const [name, value] of Object.entries(withEnv)) if (value === undefined) delete env[name];
  const child = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolveExit({ code, signal });
      for (const listener of listeners) listener();
    });
  });
  let exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exit.then((status) => (exitStatus = status));

  const waitForOutput = (pattern: RegExp, deadlineMs = START_DEADLINE_MS) =>
    withDeadline(
      new Promise<void>((resolveWait, rejectWait) => {
        const check = () => {
          if (pattern.test(output)) {
            listeners.delete(check);
            resolveWait();
          } else if (exitStatus) {
            listeners.delete(check);
            rejectWait(new Error(`Server exited (${JSON.stringify(exitStatus)}) before printing ${pattern}:\n${output}`));
          }
        };
        listeners.add(check);
        void exit.then(check);
        check();
      }),
      deadlineMs,
      () => `waiting for ${pattern} in:\n${output}`,
    );

  await waitForOutput(/Engram listening on .*\n/);
  // Output that is not a terminal is JSON lines.
  const started = output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; level?: number; port?: number; service?: string })
    .find((l) => l.msg?.startsWith('Engram listening on'));
  expect(started, output).toMatchObject({ level: 30, service: 'engram' });
  const line = started!.msg!;
  const port = Number(/http:\/\/[^/:]+:(\d+)\/graphql/.exec(line)?.[1]);
  expect(port, line).toBeGreaterThan(0);
  return {
    child,
    port,
    line,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    waitForOutput,
    exited: (deadlineMs = EXIT_DEADLINE_MS) => withDeadline(exit, deadlineMs, () => `waiting for the server to exit:\n${output}`),
  };
}

afterEach(async () => {
  // Whatever a test left running dies here, even when the test failed.
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGKILL');
        }),
    ),
  );
  children.clear();
});

afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  if (pgDatabases.length) {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      for (const name of pgDatabases.splice(0)) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
});

// ---------------------------------------------------------------------------------------------
// HTTP helpers

async function gql(server: Server, query: string): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> {
  const response = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body;
}

/** A /health response in one comparable value (a failure shows all of it). */
async function health(response: Response): Promise<{ status: number; json: boolean; body: unknown }> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: response.status, json: /application\/json/.test(response.headers.get('content-type') ?? ''), body };
}

/** Resolves with the connection error code, or null if a new TCP connection was accepted. */
function tryConnect(port: number): Promise<string | null> {
  return new Promise((done) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(null);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/**
 * Retries new connections until one is refused (resolves 'ECONNREFUSED'; times out otherwise). A
 * connection racing the close of the listening socket may be accepted or reset: those are retried.
 */
function connectUntilRefused(port: number): Promise<string> {
  let stop = false;
  const attempt = async (): Promise<string> => {
    for (;;) {
      const error = await tryConnect(port);
      if (error === 'ECONNREFUSED' || stop) return error ?? 'accepted';
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return withDeadline(attempt(), EXIT_DEADLINE_MS, () => `port ${port} still accepts connections`).finally(() => {
    stop = true;
  });
}

interface InFlight {
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
}

/**
 * Starts a POST /graphql whose headers the server has parsed (it answered `100 Continue`, i.e. its
 * request handler is running) but whose body is still being sent: a request deterministically in
 * flight, completed by `finish()`.
 */
async function startInFlightRequest(port: number, agent: http.Agent, query: string): Promise<InFlight> {
  const body = JSON.stringify({ query });
  const half = Math.floor(body.length / 2);
  let sendRest: () => void = () => undefined;
  let continued: Promise<void> | undefined;
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolveResponse, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    sendRest = () => request.end(body.slice(half));
    continued = new Promise<void>((resolveContinue) =>
      request.once('continue', () => {
        request.write(body.slice(0, half));
        resolveContinue();
      }),
    );
  });
  await withDeadline(Promise.race([continued!, response.then(() => undefined)]), START_DEADLINE_MS, () => 'waiting for 100 Continue');
  return { finish: () => sendRest(), response };
}

// ---------------------------------------------------------------------------------------------

describe(`server process (${DB_KIND})`, () => {
  it('creates and migrates a new database on first start and serves health, GraphQL and GraphiQL', async () => {
    const db = await freshDatabase();
    if (db.file) expect(existsSync(dirname(db.file))).toBe(false);
    else expect(await countTables(db.url)).toBe(0);

    const server = await startServer(db.url);
    expect(server.line).toContain(`(${DB_KIND}: `);
    expect(server.line).toContain(`${MIGRATION_COUNT} migration(s) applied`);
    expect(server.line).toMatch(/ready in \d+ ms\)$/);
    if (db.file) expect(existsSync(db.file)).toBe(true);
    else expect(await countTables(db.url)).toBe(await tablesOfMigratedDatabase());

    expect(await health(await fetch(`${server.base}/health`))).toEqual({
      status: 200,
      json: true,
      body: { status: 'ok', database: 'up', events: 'in-process', provider: DB_KIND },
    });

    expect((await gql(server, '{ globalScope { name } }')).data).toEqual({ globalScope: { name: 'global' } });
    expect((await gql(server, '{ tags(predefined: true) { totalCount } }')).data).toEqual({ tags: { totalCount: 29 } });

    const graphiql = await fetch(`${server.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    expect(graphiql.headers.get('content-type')).toContain('text/html');
    expect(await graphiql.text()).toMatch(/graphiql/i);
  });

  it('restarts on the same database without migrating again and keeps the data', async () => {
    const db = await freshDatabase();
    const first = await startServer(db.url);
    expect(first.line).toContain(`${MIGRATION_COUNT} migration(s) applied`);
    expect((await gql(first, '{ organizations { totalCount } }')).data).toEqual({ organizations: { totalCount: 0 } });
    expect((await gql(first, 'mutation { createOrganization(input: {name: "x"}) { __typename } }')).data).toEqual({
      createOrganization: { __typename: 'CreateOrganizationSuccess' },
    });
    first.child.kill('SIGTERM');
    expect(await first.exited()).toEqual({ code: 0, signal: null });

    const second = await startServer(db.url);
    expect(second.line).toContain('; 0 migration(s) applied;');
    // The tests run it as NODE_ENV=test, which it keeps.
    expect(second.line).toContain('; NODE_ENV=test;');
    expect((await gql(second, '{ organizations { totalCount } }')).data).toEqual({ organizations: { totalCount: 1 } });
  });

  it('runs as in production when started without NODE_ENV, and says so', async () => {
    const server = await startServer(await migratedDatabaseUrl(), { NODE_ENV: undefined });
    expect(server.line).toContain('; NODE_ENV=production;');
    server.child.kill('SIGTERM');
    expect((await server.exited()).code).toBe(0);
  });

  it('on SIGTERM finishes the request in flight, refuses new connections and exits with 0', async () => {
    const server = await startServer(await migratedDatabaseUrl());
    const agent = new http.Agent({ keepAlive: false });
    try {
      const inFlight = await startInFlightRequest(server.port, agent, '{ globalScope { name } }');
      server.child.kill('SIGTERM');
      await server.waitForOutput(/SIGTERM: finishing open requests/, EXIT_DEADLINE_MS);
      // The line is printed just before the listening socket closes, so retry until refused. The
      // process cannot exit meanwhile (its request in flight is incomplete): a refusal means the
      // live server stopped listening.
      expect(await connectUntilRefused(server.port)).toBe('ECONNREFUSED');

      inFlight.finish();
      const response = await inFlight.response;
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ data: { globalScope: { name: 'global' } } });
      expect(await server.exited()).toEqual({ code: 0, signal: null });
      expect(server.output()).not.toMatch(/error/i);
    } finally {
      agent.destroy();
    }
  });

  it('on SIGTERM does not wait for the keep-alive connection of a finished request', async () => {
    // HTTP/1.1 clients (fetch, browsers, proxies) keep connections open after a response. Once the
    // request in flight is answered, its idle connection must not hold the process until the
    // keep-alive timeout (5 s) or the grace period (30 s here).
    const server = await startServer(await migratedDatabaseUrl());
    const agent = new http.Agent({ keepAlive: true });
    try {
      const inFlight = await startInFlightRequest(server.port, agent, '{ globalScope { name } }');
      server.child.kill('SIGTERM');
      await server.waitForOutput(/SIGTERM: finishing open requests/, EXIT_DEADLINE_MS);
      inFlight.finish();
      const response = await inFlight.response;
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ data: { globalScope: { name: 'global' } } });
      expect(await server.exited()).toEqual({ code: 0, signal: null });
    } finally {
      agent.destroy();
    }
  });
  it('on SIGTERM completes open SSE subscriptions at once instead of waiting out the grace period', async () => {
    const server = await startServer(await migratedDatabaseUrl());
    const scope = ((await gql(server, '{ globalScope { id } }')).data?.globalScope as { id: string }).id;
    const response = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription ($s: ID!) { entryChanged(scope: $s) { cursor } }', variables: { s: scope } }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    // Yoga opens the stream with a comment once the subscription has started.
    let stream = (await reader.read()).value ?? '';
    expect(stream).toMatch(/^:/);
    server.child.kill('SIGTERM');
    const read = async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) stream += chunk.value;
    };
    // The grace period is 30 s: a prompt end and exit come from the stream completing.
    await withDeadline(read(), EXIT_DEADLINE_MS, () => `waiting for the SSE stream to end: ${JSON.stringify(stream)}\n${server.output()}`);
    expect(stream).toMatch(/event: complete\ndata:\n\n$/);
    expect(await server.exited()).toEqual({ code: 0, signal: null });
  });

  it('on SIGTERM answers a checkout waiting for a held lease at once (LeaseHeldError) instead of cutting it when the grace period ends', async () => {
    const server = await startServer(await migratedDatabaseUrl());
    const scope = ((await gql(server, '{ globalScope { id } }')).data?.globalScope as { id: string }).id;
    const checkout = async (actor: string, waitSeconds: number) => {
      const response = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-engram-actor': actor },
        body: JSON.stringify({
          query: 'mutation ($input: CheckoutLeaseInput!) { checkoutLease(input: $input) { __typename ... on LeaseHeldError { holders { holder } } } }',
          variables: { input: { scope, resource: 'deploy', mode: 'EXCLUSIVE', ttlSeconds: 300, waitSeconds } },
        }),
      });
      return ((await response.json()) as { data: { checkoutLease: unknown } }).data.checkoutLease;
    };
    expect(await checkout('agent:a', 0)).toEqual({ __typename: 'CheckoutLeaseSuccess' });
    const waiting = checkout('agent:b', 25);
    // Requests start in the order they arrive: once a later one is answered, the checkout is in the server.
    await gql(server, '{ globalScope { id } }');
    server.child.kill('SIGTERM');
    // The wait (25 s) and the grace period (30 s) are far longer: a prompt answer comes from the stop.
    const answered = await withDeadline(waiting, EXIT_DEADLINE_MS, () => `waiting for the checkout's answer\n${server.output()}`);
    expect(answered).toEqual({ __typename: 'LeaseHeldError', holders: [{ holder: 'agent:a' }] });
    expect(await server.exited()).toEqual({ code: 0, signal: null });
  });
});

describe(`health check (${DB_KIND}, in-process)`, () => {
  it('answers 503 with database "down" when the database is unreachable', async () => {
    const db = await freshDatabase();
    const database = await openDatabase(db.url);
    // Not migrated (nothing here reads a table): the change feed's first prune, due a second after
    // the app is made, would fail on the missing table and log it if the test ran that long.
    const app = createApp({ database, changePruneFirstMs: 600_000 });
    try {
      expect(await health(await app.yoga.fetch('http://engram.test/health'))).toEqual({
        status: 200,
        json: true,
        body: { status: 'ok', database: 'up', events: 'in-process', provider: DB_KIND },
      });

      // A closed database answers no more queries (the SQLite client would otherwise reopen).
      await database.close();
      expect(await health(await app.yoga.fetch('http://engram.test/health'))).toEqual({
        status: 503,
        json: true,
        body: { status: 'degraded', database: 'down', events: 'in-process', provider: DB_KIND },
      });
    } finally {
      await app.stop();
    }
  });
});

describe(`request body limit (${DB_KIND}, in-process)`, () => {
  it('refuses bodies over the limit with 413, by Content-Length or by counting a chunked body', async () => {
    const db = await freshDatabase();
    const database = await openDatabase(db.url);
    const app = createApp({ database, maxRequestBodyBytes: 1_000, changePruneFirstMs: 600_000 });
    try {
      const post = (body: BodyInit, headers: Record<string, string> = {}) =>
        app.yoga.fetch('http://engram.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
          ...(typeof body === 'string' ? {} : { duplex: 'half' }),
        } as RequestInit);
      const code = async (r: Response) => ((await r.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code;
      const small = JSON.stringify({ query: '{ __typename }' });
      const large = JSON.stringify({ query: `{ __typename }${' '.repeat(2_000)}` });
      const chunked = (text: string) =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 300) controller.enqueue(bytes.slice(i, i + 300));
            controller.close();
          },
        });

      const ok = await post(small, { 'content-length': String(small.length) });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ data: { __typename: 'Query' } });

      const refused = await post(large, { 'content-length': String(large.length) });
      expect(refused.status).toBe(413);
      expect(await code(refused)).toBe('REQUEST_ENTITY_TOO_LARGE');

      const invalid = await post(small, { 'content-length': '12, 12' });
      expect(invalid.status).toBe(400);

      const chunkedOk = await post(chunked(small));
      expect(await chunkedOk.json()).toEqual({ data: { __typename: 'Query' } });
      const chunkedLarge = await post(chunked(large));
      expect(chunkedLarge.status).toBe(413);
      expect(await code(chunkedLarge)).toBe('REQUEST_ENTITY_TOO_LARGE');
    } finally {
      await app.stop();
      await database.close();
    }
  });
});
