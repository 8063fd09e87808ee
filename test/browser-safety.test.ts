// Cross-site requests (issue #10): CSRF prevention for requests a page on another site could send
// without a preflight, CORS only for allowed origins, and WebSocket upgrades checked by origin.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useHarness, DB_KIND } from './support/harness.ts';

const ALLOWED = 'https://app.example.com';
const EVIL = 'https://evil.example';

const h = useHarness({ listen: true, app: { corsOrigins: [ALLOWED] } });

const createProject = (name: string) => `mutation { createProject(input: { name: "${name}" }) { __typename } }`;

async function projectNames(): Promise<string[]> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ projects(first: 100) { edges { node { name } } } }' }),
  });
  const { data } = (await response.json()) as { data: { projects: { edges: { node: { name: string } }[] } } };
  return data.projects.edges.map((e) => e.node.name);
}

function send(init: RequestInit & { headers?: Record<string, string> }, query = '') {
  return h.app.yoga.fetch(`http://engram.test/graphql${query}`, init);
}

describe(`cross-site requests (${DB_KIND})`, () => {
  it.each([
    ['a form-urlencoded POST', 'application/x-www-form-urlencoded', (q: string) => `query=${encodeURIComponent(q)}`],
    ['a text/plain POST', 'text/plain', (q: string) => JSON.stringify({ query: q })],
    ['a multipart POST', 'multipart/form-data; boundary=x', (q: string) => `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: q })}\r\n--x--\r\n`],
  ])('refuses %s running a mutation (403 CSRF_HEADER_REQUIRED) and writes nothing', async (_what, contentType, body) => {
    const response = await send({ method: 'POST', headers: { 'content-type': contentType, origin: EVIL }, body: body(createProject('csrf')) });
    expect(response.status).toBe(403);
    const { errors } = (await response.json()) as { errors: { extensions: { code: string } }[] };
    expect(errors.map((e) => e.extensions.code)).toEqual(['CSRF_HEADER_REQUIRED']);
    expect(await projectNames()).not.toContain('csrf');
  });

  it('refuses a GET without a preflight-forcing header, and answers one with it', async () => {
    const query = `?query=${encodeURIComponent('{ __typename }')}`;
    expect((await send({ method: 'GET', headers: { accept: 'application/json' } }, query)).status).toBe(403);
    const allowed = await send({ method: 'GET', headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } }, query);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it.each(['PUT', 'DELETE'])('answers a %s, which browsers preflight cross-site, with 405 saying GET and POST, not the CSRF refusal', async (method) => {
    const response = await send({ method });
    expect(response.status).toBe(405);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.message).toMatch(/GET and POST/);
    expect(body.errors[0]?.extensions.code).not.toBe('CSRF_HEADER_REQUIRED');
  });

  it('runs a JSON POST (browsers preflight it cross-site)', async () => {
    const response = await send({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: createProject('json') }) });
    expect(response.status).toBe(200);
    expect(await projectNames()).toContain('json');
  });

  it('answers a preflight from another origin without any CORS grant', async () => {
    const response = await send({
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-engram-role' },
    });
    for (const header of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods']) {
      expect(response.headers.get(header), header).toBeNull();
    }
    const post = await send({ method: 'POST', headers: { 'content-type': 'application/json', origin: EVIL }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('grants CORS to an origin in CORS_ORIGINS only', async () => {
    const response = await send({
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-engram-actor' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-engram-actor');
    const post = await send({ method: 'POST', headers: { 'content-type': 'application/json', origin: ALLOWED }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(post.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('lets an allowed origin send MCP headers and read the request id and Retry-After; every answer varies by Origin', async () => {
    const base = `http://127.0.0.1:${h.port}`;
    const preflight = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' },
    });
    const allowedHeaders = preflight.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowedHeaders).toContain('mcp-protocol-version');
    expect(new Set(allowedHeaders).size).toBe(allowedHeaders.length);
    const post = (origin?: string) =>
      fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) }, body: JSON.stringify({ query: '{ __typename }' }) });
    const allowed = await post(ALLOWED);
    expect(allowed.headers.get('access-control-expose-headers')).toBe('x-request-id, retry-after');
    // A shared cache must not hand one origin's answer (with or without a grant) to another.
    for (const response of [preflight, allowed, await post(EVIL), await post()]) expect(response.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it.each([
    ['another site', EVIL, false],
    ['an allowed origin', ALLOWED, true],
    ['the server itself', 'SELF', true],
    ['a client that is not a browser (no Origin)', undefined, true],
  ])('lets a WebSocket from %s connect: %s', async (_what, origin, allowed) => {
    const self = `http://127.0.0.1:${h.port}`;
    const headers = origin ? { origin: origin === 'SELF' ? self : origin } : {};
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/graphql`, 'graphql-transport-ws', { headers });
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      ws.once('error', (error) => resolve(`error ${error.message}`));
    });
    ws.terminate();
    expect(outcome).toBe(allowed ? 'open' : 'HTTP 403');
  });
});
