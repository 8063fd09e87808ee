// Logs: JSON lines (pino) that never carry secrets (issue #13), with a request id that the caller
// gets back in the X-Request-ID header and in masked errors (issue #15).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { openDatabase } from '../src/infra/database.ts';
import { captureLogs, flushLogs, log } from '../src/infra/log.ts';
import { createDatabaseUrl, DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness({ listen: true });
const restores: (() => void)[] = [];
afterEach(() => restores.splice(0).forEach((restore) => restore()));

/** Lines logged from now on, parsed; at `level` and above. */
function captured(level: 'debug' | 'info' = 'info'): () => Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const previous = log.level;
  log.level = level;
  const release = captureLogs((line) => void lines.push(line));
  restores.push(() => {
    release();
    log.level = previous;
  });
  return async () => {
    await flushLogs();
    return lines.map((line) => JSON.parse(line) as Record<string, any>);
  };
}

const post = (port: number, query: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

describe('the server logger', () => {
  it('writes JSON lines in order with their secrets redacted, and nothing below its level', async () => {
    const lines = captured();
    log.debug('hidden');
    log.error(`query failed: token ghp_${'a1B2c3D4e5'.repeat(3)}abcdef in args`);
    log.info({ n: 2 }, 'second');
    const written = await lines();
    expect(written.map((l) => [l.level, l.msg])).toEqual([
      [50, 'query failed: token [REDACTED:GITHUB_TOKEN] in args'],
      [30, 'second'],
    ]);
    expect(written[1]).toMatchObject({ n: 2, service: 'engram' });
    expect(typeof written[0]!.time).toBe('string');
  });

  it('logs one line per request with its id, operation and caller, and echoes the id', async () => {
    const lines = captured();
    const given = await post(h.port, 'query WhoAmI { viewer { local } }', { 'x-request-id': 'req-42.a' });
    expect(given.headers.get('x-request-id')).toBe('req-42.a');
    const made = await post(h.port, '{ globalScope { id } }');
    const madeId = made.headers.get('x-request-id');
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    // Not an id: spaces, and past 128 characters.
    expect((await post(h.port, '{ globalScope { id } }', { 'x-request-id': 'a b' })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await post(h.port, '{ globalScope { id } }', { 'x-request-id': 'x'.repeat(129) })).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const requests = (await lines()).filter((l) => l.msg === 'request');
    expect(requests[0]).toMatchObject({ requestId: 'req-42.a', operationName: 'WhoAmI', operationType: 'query', principal: 'local', method: 'POST', path: '/graphql', status: 200 });
    expect(typeof requests[0]!.durationMs).toBe('number');
    expect(requests[1]).toMatchObject({ requestId: madeId, operationType: 'query' });
  });

  it('names the operation the request picked from a document of several', async () => {
    const lines = captured();
    const response = await fetch(`http://127.0.0.1:${h.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query First { viewer { local } } mutation Second { createTag(input: { name: "log-second", category: CUSTOM }) { __typename } }', operationName: 'Second' }),
    });
    expect(response.status).toBe(200);
    const [request] = (await lines()).filter((l) => l.msg === 'request');
    expect(request).toMatchObject({ operationName: 'Second', operationType: 'mutation' });
  });

  it('cuts a long operation name at 200 characters in the log line', async () => {
    const lines = captured();
    const name = `Long${'x'.repeat(100_000)}`;
    const response = await fetch(`http://127.0.0.1:${h.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query ${name} { __typename }` }),
    });
    expect(response.status).toBe(200);
    const [request] = (await lines()).filter((l) => l.msg === 'request');
    expect(request).toMatchObject({ operationName: `${name.slice(0, 200)}…` });
  });

  // Yoga logs, at error level, every error its masking replaces: a caller's mistake answered with
  // its own code must be the error it was, not a copy (a copy logged each refusal with its stack).
  it("logs no error for a caller's own mistake, and answers it with 200 over SSE too", async () => {
    const lines = captured();
    const wrong = '{ memoryQuery(input: { scope: "!!!" }) { meta { totalCount } } }';
    const answer = (await (await post(h.port, wrong)).json()) as { errors: { extensions: { code: string } }[] };
    expect(answer.errors[0]!.extensions).toEqual({ code: 'VALIDATION_FAILED', inputPath: ['input', 'scope'] });
    const stream = await post(h.port, 'subscription { entryChanged(scope: "!!!") { cursor } }', { accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('VALIDATION_FAILED');
    expect((await lines()).filter((l) => l.level >= 50)).toEqual([]);
  });

  // A client that goes away while it sends its body is no fault of the server's: it was logged at
  // error level twice (masked as unexpected, and Yoga's own line with the stack), so anyone could
  // fill the error log with it (a hostile sweep: 9,000 lines).
  it('logs a client that hangs up mid-body at debug level, not as an error', async () => {
    const lines = captured('debug');
    for (const framing of ['content-length: 1000', 'transfer-encoding: chunked']) {
      const socket = net.connect(h.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const part = framing.startsWith('content') ? '{"query":"{ __typ' : '10\r\n{"query":"{ __typ\r\n';
      socket.write(`POST /graphql HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n${framing}\r\n\r\n${part}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const logged = await lines();
    expect(logged.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
    expect(logged.filter((l) => l.msg === 'Client hung up before its request was read').length).toBeGreaterThan(0);
  });

  // PostgreSQL's enum column would refuse the corrupt row this needs.
  it.skipIf(DB_KIND === 'postgresql')("masks and logs graphql-js's own errors of a field's answer (the server's fault), not blaming the caller", async () => {
    const project = await createProject(h, 'logger-corrupt');
    const rawId = Buffer.from(project, 'base64').toString().split(':')[1]!;
    await h.database.prisma.$executeRawUnsafe(`UPDATE "Scope" SET "kind" = 'BOGUS' WHERE "id" = ?`, rawId);
    const lines = captured();
    const response = await post(h.port, `{ scope(id: "${project}") { id } }`, { 'x-request-id': 'corrupt-1' });
    const body = (await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'corrupt-1' } });
    expect((await lines()).find((l) => l.msg === 'Unexpected error (masked)')?.err.message).toMatch(/Abstract type "Scope" must resolve to an Object type/);
  });

  it('gives a masked error the request id of the log line that tells what happened', async () => {
    const { url, drop } = await createDatabaseUrl();
    const database = await openDatabase(url);
    const app = createApp({ database });
    const port = await app.start(0, '127.0.0.1');
    try {
      // Closing and deleting the database makes every query fail inside Prisma.
      await database.close();
      await drop();
      const lines = captured();
      const response = await post(port, '{ organizations { totalCount } }', { 'x-request-id': 'broken-1' });
      const body = (await response.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'broken-1' } });
      const failure = (await lines()).find((l) => l.msg === 'Unexpected error (masked)');
      expect(failure).toMatchObject({ requestId: 'broken-1', level: 50 });
      expect(JSON.stringify(failure!.err)).toMatch(/stack/);
    } finally {
      await app.stop(1_000);
    }
  });
});
