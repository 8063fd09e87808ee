// Rate limits (issue #12): each API key has a budget of
// operations and of mutation root fields per second. Over it, HTTP and SSE answer 429 with
// Retry-After and RATE_LIMITED; a graphql-ws operation gets RATE_LIMITED and the socket stays
// open. With Redis the budget is shared by every instance; while Redis is away each instance
// counts in its own memory. Every case uses a fresh key, so its one-second window starts with it.
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp, type App } from '../src/app.ts';
import { writesOf, type RateLimits } from '../src/server/rate-limit.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { principalWithKey } from './support/keys.ts';
import { eventually, redisServer } from './support/redis-server.ts';
import { startServerProcess } from './support/server-process.ts';
import { call, type Answer } from './support/socket-call.ts';

const LIMITS: RateLimits = { requestsPerSecond: 3, writesPerSecond: 4 };
const h = useHarness({ listen: true, app: { rateLimits: LIMITS } });

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const VIEWER = '{ viewer { local } }';
const REFUSED = { message: 'Rate limit exceeded: try again in 1 s', extensions: { code: 'RATE_LIMITED', retryAfter: 1 } };
const burst = (n: number, send: () => Promise<Answer>) => Promise.all(Array.from({ length: n }, send));
const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort();

let unique = 0;
const fresh = (app: App = h.app) => principalWithKey(app, `rl-${DB_KIND}-${++unique}-${Date.now()}`);
/** A mutation with `n` root fields, each creating a project. */
const createProjects = (n: number, tag: string) =>
  `mutation { ${Array.from({ length: n }, (_, i) => `p${i}: createProject(input: { name: "${tag}-${i}" }) { __typename }`).join(' ')} }`;

async function projectExists(name: string): Promise<boolean> {
  return (await h.database.prisma.scope.count({ where: { name } })) > 0;
}

describe(`rate limits (${DB_KIND})`, () => {
  it('counts mutation root fields, fragments followed and __typename free', () => {
    expect(writesOf(parse('{ a: viewer { local } b: viewer { local } }'))).toBe(0);
    expect(writesOf(parse('mutation { __typename a: createProject(input: {name: "x"}) { __typename } }'))).toBe(1);
    const spread = parse(`mutation M { ...F ... on Mutation { c: createTag(input: {name: "t"}) { __typename } } }
      fragment F on Mutation { a: createProject(input: {name: "x"}) { __typename } b: createProject(input: {name: "y"}) { __typename } }`);
    expect(writesOf(spread, 'M')).toBe(3);
  });

  it('over its budget, a key gets HTTP 429 with Retry-After and RATE_LIMITED; another key is not affected', async () => {
    const [noisy, quiet] = [await fresh(), await fresh()];
    const answers = await burst(8, () => call(h.port, VIEWER, { key: noisy.key }));
    expect(statuses(answers)).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.retryAfter).toBe('1');
      expect(refused.body).toEqual({ errors: [REFUSED] });
    }
    expect(await call(h.port, VIEWER, { key: quiet.key })).toMatchObject({ status: 200, body: { data: { viewer: { local: false } } } });
  });

  it('writes have a budget of their own: a mutation spends one per root field, and reads go on', async () => {
    const writer = await fresh();
    expect((await call(h.port, createProjects(3, `three-${unique}`), { key: writer.key })).status).toBe(200);
    // 3 + 2 > 4 writes in this second, although it is only the second request.
    const two = await call(h.port, createProjects(2, `two-${unique}`), { key: writer.key });
    expect(two).toMatchObject({ status: 429, retryAfter: '1', body: { errors: [REFUSED] } });
    expect(await projectExists(`two-${unique}-0`)).toBe(false);
    // Same key, same second: its request budget (3) still has room for a read.
    expect((await call(h.port, VIEWER, { key: writer.key })).status).toBe(200);

    const other = await fresh();
    const four = await call(h.port, createProjects(4, `four-${unique}`), { key: other.key });
    expect(four.status).toBe(200);
    expect(Object.keys(four.body.data ?? {})).toHaveLength(4);
    expect(await projectExists(`four-${unique}-3`)).toBe(true);
  });

  it('a mutation with more root fields than a second of writes is refused as TOO_MANY_WRITES (waiting would not help)', async () => {
    const { key } = await fresh();
    const five = await call(h.port, createProjects(5, `five-${unique}`), { key });
    expect(five).toMatchObject({ status: 200, retryAfter: null });
    expect(five.body.errors?.map((e) => e.extensions)).toEqual([{ code: 'TOO_MANY_WRITES', writes: 5, limit: 4 }]);
    expect(await projectExists(`five-${unique}-0`)).toBe(false);
  });

  it('SSE requests count too, and are refused with 429 and Retry-After', async () => {
    const { key } = await fresh();
    const answers = await burst(6, () => call(h.port, VIEWER, { key, accept: 'text/event-stream' }));
    expect(statuses(answers)).toEqual([200, 200, 200, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.retryAfter).toBe('1');
    expect(refused.body).toEqual({ errors: [REFUSED] });
  });

  it('in-process calls (yoga.fetch) are never limited', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => h.gql(parse(VIEWER))));
    expect(results.every((r) => !r.errors && r.data)).toBe(true);
  });

  it('callers without a key (AUTH=off, or this machine in protected mode) are not limited: limits are per key', async () => {
    const open = createApp({ database: h.database, auth: 'off', rateLimits: LIMITS });
    const port = await open.start(0, '127.0.0.1');
    cleanups.push(() => open.stop(1_000));
    const fromOne = await burst(6, () => call(port, VIEWER, { from: '127.0.0.3' }));
    expect(statuses(fromOne)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('over graphql-ws, the operation over the budget gets RATE_LIMITED and the socket stays open', async () => {
    const { key } = await fresh();
    const client = createClient({
      url: `ws://127.0.0.1:${h.port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      // One socket for the whole test (a lazy client would close it between operations).
      lazy: false,
    });
    cleanups.push(() => client.dispose());
    let opened = 0;
    let closed = false;
    client.on('connected', () => opened++);
    client.on('closed', () => (closed = true));
    const query = () => client.iterate({ query: VIEWER }).next().then((r) => r.value as Answer['body']);
    const results = await Promise.all(Array.from({ length: 5 }, query));
    expect(results.filter((r) => r.data)).toHaveLength(3);
    expect(results.filter((r) => r.errors)).toEqual([{ errors: [REFUSED] }, { errors: [REFUSED] }]);
    // After Retry-After, the same socket answers again.
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await query()).toEqual({ data: { viewer: { local: false } } });
    expect({ opened, closed }).toEqual({ opened: 1, closed: false });
  });
});

describe(`rate limits shared through Redis (${DB_KIND})`, () => {
  /** Two instances on the test database, limits in `redisUrl`. */
  async function instances(redisUrl: string) {
    const start = async () => {
      const app = createApp({ database: h.database, rateLimits: { ...LIMITS, redisUrl } });
      cleanups.push(() => app.stop(1_000));
      return app.start(0, '127.0.0.1');
    };
    return [await start(), await start()] as const;
  }

  /** Sends one read per port in turn, with a fresh key; the statuses, in order. */
  async function alternate(ports: readonly number[], n: number): Promise<number[]> {
    const { key } = await fresh();
    const seen: number[] = [];
    for (let i = 0; i < n; i++) seen.push((await call(ports[i % ports.length]!, VIEWER, { key })).status);
    return seen;
  }

  /** Waits until `redisUrl` holds counters of this app (its connection is up). */
  async function countingIn(redisUrl: string, port: number) {
    const probe = new Redis(redisUrl);
    probe.on('error', () => undefined); // the outage test kills Redis under it
    cleanups.push(() => void probe.disconnect());
    const { key } = await fresh();
    await eventually('the rate limits count in Redis', async () => {
      await call(port, VIEWER, { key });
      return (await probe.keys('engram:rl:requests:key:*')).length > 0;
    });
    await probe.flushall();
  }

  it('two instances share one budget per key', async () => {
    const redis = await redisServer((kill) => cleanups.push(kill));
    await redis.start();
    const [a, b] = await instances(redis.url);
    await countingIn(redis.url, a);
    await countingIn(redis.url, b);
    // 3 a second in all: the fourth read is refused, although each instance saw only two.
    expect(await alternate([a, b], 4)).toEqual([200, 200, 200, 429]);
  });

  it('while Redis is away, each instance counts in its own memory; once it is back, they share again', async () => {
    const redis = await redisServer((kill) => cleanups.push(kill));
    await redis.start();
    const [a, b] = await instances(redis.url);
    await countingIn(redis.url, a);
    await redis.kill();
    // Still limited, per instance: A refuses its fourth read, B has its own budget.
    const { key } = await fresh();
    const onA = [];
    for (let i = 0; i < 4; i++) onA.push((await call(a, VIEWER, { key })).status);
    expect(onA).toEqual([200, 200, 200, 429]);
    expect((await call(b, VIEWER, { key })).status).toBe(200);
    // Alternating, neither instance passes 3 on its own.
    expect(await alternate([a, b], 4)).toEqual([200, 200, 200, 200]);

    await redis.start();
    await eventually('both instances share the budget again', async () => (await alternate([a, b], 4)).at(-1) === 429);
  });
});

describe(`rate limits of the server process (${DB_KIND})`, () => {
  it('reads RATE_LIMIT_REQUESTS_PER_SECOND and RATE_LIMIT_WRITES_PER_SECOND', async () => {
    const server = await startServerProcess(h.url, { RATE_LIMIT_REQUESTS_PER_SECOND: '3', RATE_LIMIT_WRITES_PER_SECOND: '2', REDIS_URL: '' });
    const [reader, writer] = [await fresh(), await fresh()];
    const answers = await burst(8, () => call(server.port, VIEWER, { key: reader.key }));
    expect(statuses(answers)).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(answers.find((a) => a.status === 429)).toMatchObject({ retryAfter: '1', body: { errors: [REFUSED] } });
    expect((await call(server.port, createProjects(2, `proc-${unique}`), { key: writer.key })).status).toBe(200);
    expect((await call(server.port, createProjects(1, `proc-more-${unique}`), { key: writer.key })).status).toBe(429);
    await server.kill();
  });
});
