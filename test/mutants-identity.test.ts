// Rules of keys.service.ts, grants.service.ts and server/authentication.ts that mutation testing
// (npm run mutate) found unchecked: the refusals of createPrincipal/createApiKey/revokeApiKey/
// grantRole/revokeGrant with their messages and paths, what a new key and principal hold, which
// keys authenticate (revoked, expired, not egk_, an admin only by ADMIN on the global scope), how
// the Authorization header is read, protected mode ending and coming back with usable keys, the
// statuses and headers of refusals, and how long an instance reuses what it read about keys.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { as, ok, principal } from './support/access.ts';
import { createDatabaseUrl, DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness({ listen: true });

interface Reply {
  status: number;
  wwwAuthenticate: string | undefined;
  body: { data?: any; errors?: { message: string; extensions: { code: string } }[] };
}

/** A request over a real socket from `from` (127.0.0.2 is a loopback address, but not "this machine"). */
function call(port: number, query: string, { authorization, from = '127.0.0.1', variables }: { authorization?: string; from?: string; variables?: unknown } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, wwwAuthenticate: res.headers['www-authenticate'], body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
}

/** A statement reading API keys (not the write recording a key's last use, which may land later). */
const readsKeys = (sql: string) => /^\s*SELECT/i.test(sql) && /FROM [`"]\w+[`"]\.[`"]ApiKey[`"]/.test(sql);

const VIEWER = '{ viewer { local authentication principal { name admin } } }';
const USER_ERROR = `__typename ... on UserError { code message path }`;
const ISSUES = `... on ValidationError { issues { path message } }`;
const missing = (type: string) => Buffer.from(`${type}:01900000-0000-7000-8000-000000000000`).toString('base64');

/** In-process calls to `app` (a local admin), failing on any error. */
const adminOf = (app: App) => async (query: string, variables?: Record<string, unknown>) => {
  const response = await app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const answer = (await response.json()) as { data?: any; errors?: unknown };
  if (answer.errors) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
};

interface Fresh {
  app: App;
  database: Database;
  port: number;
  statements: string[];
  admin: ReturnType<typeof adminOf>;
  close(): Promise<void>;
}

/** A server of its own on a fresh database: no key exists yet (protected mode). */
async function fresh(): Promise<Fresh> {
  const { url, drop } = await createDatabaseUrl();
  const statements: string[] = [];
  const database = await openDatabase(url, { onQuery: (sql) => statements.push(sql) });
  const app = createApp({ database, accessFlushMs: 3_600_000 });
  const port = await app.start(0, '127.0.0.1');
  return {
    app,
    database,
    port,
    statements,
    admin: adminOf(app),
    async close() {
      await app.stop(1_000);
      await database.close();
      await drop();
    },
  };
}

const CREATE_PRINCIPAL = `mutation($i: CreatePrincipalInput!) { createPrincipal(input: $i) { ${USER_ERROR} ${ISSUES} ... on CreatePrincipalSuccess { principal { name kind admin actsForOthers grants { role scope { id } } } } } }`;
const CREATE_KEY = `mutation($p: ID!, $n: String!, $e: DateTime) { createApiKey(input: { principal: $p, name: $n, expiresAt: $e }) { ${USER_ERROR} ${ISSUES}
  ... on CreateApiKeySuccess { key { secret apiKey { id name prefix expiresAt revokedAt lastUsedAt } } } } }`;
const REVOKE_KEY = `mutation($id: ID!) { revokeApiKey(input: { id: $id }) { ${USER_ERROR} ... on RevokeApiKeySuccess { apiKey { revokedAt } } } }`;

async function newPrincipal(input: Record<string, unknown>) {
  return (await ok(h, null, CREATE_PRINCIPAL, { i: input })).createPrincipal;
}
async function principalId(name: string, kind = 'AGENT'): Promise<string> {
  const made = await ok(h, null, `mutation($n: String!, $k: PrincipalKind!) { createPrincipal(input: { name: $n, kind: $k }) { ... on CreatePrincipalSuccess { principal { id } } } }`, { n: name, k: kind });
  return made.createPrincipal.principal.id;
}
async function newKey(p: string, name = 'k', expiresAt: string | null = null) {
  return (await ok(h, null, CREATE_KEY, { p, n: name, e: expiresAt })).createApiKey;
}

/** A principal's grants and keys, by name (principals are no Node: listed by an admin). */
async function named(name: string): Promise<{ grants: { id: string; role: string }[]; keys: { id: string; lastUsedAt: string | null }[] }> {
  const d = await ok(h, null, `{ principals(first: 100) { edges { node { name grants { id role } keys { id lastUsedAt } } } } }`);
  return d.principals.edges.map((e: { node: unknown }) => e.node).find((n: { name: string }) => n.name === name);
}

let globalId: string;
beforeAll(async () => {
  globalId = (await ok(h, null, `{ globalScope { id } }`)).globalScope.id;
});

describe(`principals and keys found by mutation testing (${DB_KIND})`, () => {
  it('a principal name must be given, not blank, at most 200 characters, of letters, digits and . _ : @ -', async () => {
    const refused = async (name: string) => (await newPrincipal({ name, kind: 'AGENT' })) as { message: string; path: string[] };
    expect(await refused('')).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.name: must not be blank',
      path: ['input', 'name'],
      issues: [{ path: ['input', 'name'], message: 'must not be blank' }],
    });
    expect((await refused('x'.repeat(201))).message).toBe('input.name: must be at most 200 characters (got 201)');
    for (const name of ['-first', '.first', 'with space', 'tab\tin', 'slash/in', 'ok\n']) {
      expect([name, (await refused(name)).message]).toEqual([name, 'input.name: must be letters, digits and . _ : @ - (not first)']);
    }
    const made = await newPrincipal({ name: `A9.b_c:d@e-${'f'.repeat(189)}`, kind: 'USER' });
    expect(made.__typename).toBe('CreatePrincipalSuccess');
    expect(made.principal).toEqual({ name: `A9.b_c:d@e-${'f'.repeat(189)}`, kind: 'USER', admin: false, actsForOthers: false, grants: [] });
  });

  it('only a SERVICE may act for others; every invalid field is reported at once', async () => {
    for (const kind of ['AGENT', 'USER']) {
      expect(await newPrincipal({ name: `acts-${kind}`, kind, actsForOthers: true })).toEqual({
        __typename: 'ValidationError',
        code: 'VALIDATION_FAILED',
        message: 'input.actsForOthers: only a SERVICE may act for others',
        path: ['input', 'actsForOthers'],
        issues: [{ path: ['input', 'actsForOthers'], message: 'only a SERVICE may act for others' }],
      });
    }
    expect((await newPrincipal({ name: 'acts-agent-no', kind: 'AGENT', actsForOthers: false })).__typename).toBe('CreatePrincipalSuccess');
    expect((await newPrincipal({ name: 'acts-service', kind: 'SERVICE', actsForOthers: true })).principal).toMatchObject({ kind: 'SERVICE', actsForOthers: true });
    expect((await newPrincipal({ name: 'acts-service-null', kind: 'SERVICE', actsForOthers: null })).principal).toMatchObject({ actsForOthers: false });
    const both = await newPrincipal({ name: ' bad', kind: 'AGENT', actsForOthers: true });
    expect(both).toMatchObject({ message: '2 invalid fields', path: ['input', 'name'] });
    expect(both.issues.map((i: { path: string[] }) => i.path.join('.'))).toEqual(['input.name', 'input.actsForOthers']);
  });

  it('a second principal of the same name is ALREADY_EXISTS, naming it', async () => {
    expect((await newPrincipal({ name: 'twice', kind: 'AGENT' })).__typename).toBe('CreatePrincipalSuccess');
    expect(await newPrincipal({ name: 'twice', kind: 'USER' })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'A principal named "twice" exists',
      path: ['input', 'name'],
    });
  });

  it('admin: true holds ADMIN on the global scope, and nothing else', async () => {
    expect((await newPrincipal({ name: 'is-admin', kind: 'AGENT', admin: true })).principal).toMatchObject({ admin: true, grants: [{ role: 'ADMIN', scope: { id: globalId } }] });
    for (const admin of [false, null]) {
      expect((await newPrincipal({ name: `not-admin-${admin}`, kind: 'AGENT', admin })).principal).toMatchObject({ admin: false, grants: [] });
    }
  });

  it('a key needs a name and a future expiry; its secret is egk_ and 43 characters, its prefix the first 12', async () => {
    const p = await principalId('keyed');
    expect(await newKey(p, '  ')).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.name: must not be blank',
      path: ['input', 'name'],
      issues: [{ path: ['input', 'name'], message: 'must not be blank' }],
    });
    expect((await newKey(p, 'x'.repeat(201))).message).toBe('input.name: must be at most 200 characters (got 201)');
    expect(await newKey(p, 'past', new Date(Date.now() - 60_000).toISOString())).toMatchObject({
      __typename: 'ValidationError',
      message: 'input.expiresAt: must be in the future',
      path: ['input', 'expiresAt'],
    });
    const expiresAt = new Date(Date.now() + 3_600_000);
    const made = await newKey(p, 'laptop', expiresAt.toISOString());
    expect(made.key.secret).toMatch(/^egk_[A-Za-z0-9_-]{43}$/);
    expect(made.key.apiKey).toMatchObject({ name: 'laptop', prefix: made.key.secret.slice(0, 12), expiresAt: expiresAt.toISOString(), revokedAt: null, lastUsedAt: null });
    expect((await newKey(p, 'forever')).key.apiKey.expiresAt).toBeNull();
    // Every key has its own secret.
    expect((await newKey(p, 'again')).key.secret).not.toBe(made.key.secret);
  });

  it('a key for a missing principal, and a missing key to revoke, are NOT_FOUND', async () => {
    expect(await newKey(missing('Principal'), 'x')).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No such principal', path: ['input', 'principal'] });
    expect((await ok(h, null, REVOKE_KEY, { id: missing('ApiKey') })).revokeApiKey).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No such API key',
      path: ['input', 'id'],
    });
  });

  it('revoking a key twice keeps its first revocation time', async () => {
    const made = await newKey(await principalId('revoked-twice'));
    const first = (await ok(h, null, REVOKE_KEY, { id: made.key.apiKey.id })).revokeApiKey.apiKey.revokedAt as string;
    expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
    await sleep(20);
    expect((await ok(h, null, REVOKE_KEY, { id: made.key.apiKey.id })).revokeApiKey.apiKey.revokedAt).toBe(first);
  });
});

describe(`grants found by mutation testing (${DB_KIND})`, () => {
  const GRANT = `mutation($p: ID!, $s: ID!, $r: AccessRole!) { grantRole(input: { principal: $p, scope: $s, role: $r }) { ${USER_ERROR} ... on GrantRoleSuccess { grant { id role } } } }`;

  it('granting to a missing principal is NOT_FOUND at input.principal', async () => {
    expect((await ok(h, null, GRANT, { p: missing('Principal'), s: globalId, r: 'READ' })).grantRole).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No principal has this id',
      path: ['input', 'principal'],
    });
  });

  it('a second grant on the same scope replaces the role; revoking answers the grant as it was, then NOT_FOUND', async () => {
    const p = await principalId('regranted');
    const first = (await ok(h, null, GRANT, { p, s: globalId, r: 'READ' })).grantRole.grant;
    const second = (await ok(h, null, GRANT, { p, s: globalId, r: 'WRITE' })).grantRole.grant;
    expect(second).toEqual({ id: first.id, role: 'WRITE' });
    expect((await named('regranted')).grants).toEqual([{ id: first.id, role: 'WRITE' }]);
    const REVOKE = `mutation($id: ID!) { revokeGrant(input: { id: $id }) { ${USER_ERROR} ... on RevokeGrantSuccess { grant { id role } } } }`;
    expect((await ok(h, null, REVOKE, { id: first.id })).revokeGrant).toEqual({ __typename: 'RevokeGrantSuccess', grant: { id: first.id, role: 'WRITE' } });
    expect((await ok(h, null, REVOKE, { id: first.id })).revokeGrant).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No grant has this id', path: ['input', 'id'] });
  });
});

describe(`authentication found by mutation testing (${DB_KIND})`, () => {
  it('reads "Bearer <key>" in any case, with any blanks around the key; anything else is a 401 naming the format', async () => {
    const agent = await principal(h, 'auth-header', { grants: [[globalId, 'READ']] });
    for (const authorization of [`Bearer ${agent.key}`, `bearer ${agent.key}`, `BEARER   ${agent.key}  `, `Bearer\t${agent.key}`]) {
      const reply = await call(h.port, VIEWER, { authorization });
      expect([authorization, reply.status, reply.body]).toEqual([authorization, 200, { data: { viewer: { local: false, authentication: true, principal: { name: 'auth-header', admin: false } } } }]);
    }
    for (const authorization of [`Basic ${agent.key}`, `Bearer`, `Bearer ${agent.key} extra`, `Token ${agent.key}`, `x Bearer ${agent.key}`]) {
      const reply = await call(h.port, VIEWER, { authorization });
      expect([authorization, reply.status, reply.wwwAuthenticate, reply.body.errors?.map((e) => [e.message, e.extensions.code])]).toEqual([
        authorization,
        401,
        'Bearer',
        [['The Authorization header must be "Bearer <API key>"', 'UNAUTHENTICATED']],
      ]);
    }
  });

  it('an unknown, revoked or expired key, or one without egk_, is a 401 with WWW-Authenticate: Bearer', async () => {
    const p = await principalId('auth-keys');
    const revoked = await newKey(p, 'revoked');
    await ok(h, null, REVOKE_KEY, { id: revoked.key.apiKey.id });
    const expiring = await newKey(p, 'expiring', new Date(Date.now() + 1_000).toISOString());
    const live = await newKey(p, 'live');
    await sleep(1_100);
    expect((await call(h.port, VIEWER, { authorization: `Bearer ${live.key.secret}` })).status).toBe(200);
    // The same secret without its prefix is not a key, even though its hash would be looked up otherwise.
    for (const secret of [revoked.key.secret, expiring.key.secret, 'egk_unknown', live.key.secret.slice(4), live.key.secret.toUpperCase()]) {
      const reply = await call(h.port, VIEWER, { authorization: `Bearer ${secret}` });
      expect([reply.status, reply.wwwAuthenticate, reply.body.errors?.map((e) => [e.message, e.extensions.code])]).toEqual([
        401,
        'Bearer',
        [['The API key is unknown, revoked or expired', 'UNAUTHENTICATED']],
      ]);
    }
  });

  it('a call from inside the process is a local caller, authenticated, without a principal', async () => {
    expect(await ok(h, null, VIEWER)).toEqual({ viewer: { local: true, authentication: true, principal: null } });
  });

  it('a secret without the egk_ prefix is refused without reading the database', async () => {
    h.resetStatements();
    expect((await call(h.port, VIEWER, { authorization: 'Bearer not-an-engram-key' })).status).toBe(401);
    expect(h.statements.filter(readsKeys)).toEqual([]);
  });

  it('an admin is who holds ADMIN on the global scope: not WRITE there, not ADMIN below', async () => {
    const project = (await ok(h, null, `mutation { createProject(input: { name: "auth-admin-p" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
    const writer = await principal(h, 'auth-global-writer', { grants: [[globalId, 'WRITE']] });
    const projectAdmin = await principal(h, 'auth-project-admin', { grants: [[project, 'ADMIN']] });
    const made = await principal(h, 'auth-made-admin', { grants: [[globalId, 'ADMIN']] });
    const listing = '{ principals(first: 1) { totalCount } }';
    for (const [who, admin] of [[writer, false], [projectAdmin, false], [made, true]] as const) {
      const viewer = (await ok(h, who.key, VIEWER)).viewer.principal;
      expect([who.name, viewer.admin]).toEqual([who.name, admin]);
      const listed = await as(h, who.key, listing);
      expect([who.name, listed.errors?.map((e) => e.extensions.code) ?? []]).toEqual([who.name, admin ? [] : ['FORBIDDEN']]);
    }
  });

  it('records when a key was last used, at most once a minute', async () => {
    const p = await principalId('auth-used');
    const made = await newKey(p, 'used');
    const before = Date.now();
    expect((await call(h.port, VIEWER, { authorization: `Bearer ${made.key.secret}` })).status).toBe(200);
    const lastUsed = async () => (await named('auth-used')).keys[0]!.lastUsedAt;
    let first: string | null = null;
    for (let i = 0; i < 50 && first === null; i++) {
      first = await lastUsed();
      if (first === null) await sleep(20);
    }
    expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now());
    // Past the instance's one-second cache the key is read again, but its use is not written again.
    await sleep(1_100);
    expect((await call(h.port, VIEWER, { authorization: `Bearer ${made.key.secret}` })).status).toBe(200);
    await sleep(100);
    expect(await lastUsed()).toBe(first);
  });

  it('an instance reads a key once a second; a key revoked through another instance stops within a second', async () => {
    const agent = await principal(h, 'auth-cached', { grants: [[globalId, 'READ']] });
    const second = await principal(h, 'auth-cached-2', { grants: [[globalId, 'READ']] });
    // A key with an expiry an hour away is remembered too.
    const expiring = (await newKey(await principalId('auth-cached-3'), 'hour', new Date(Date.now() + 3_600_000).toISOString())).key.secret as string;
    const keyId = (await named('auth-cached')).keys[0]!.id;
    const other = createApp({ database: h.database, accessFlushMs: 3_600_000 });
    const port = await other.start(0, '127.0.0.1');
    try {
      for (const key of [agent.key, second.key, expiring]) expect((await call(port, VIEWER, { authorization: `Bearer ${key}` })).status).toBe(200);
      h.resetStatements();
      // The keys are remembered (reading one did not push out another).
      for (const key of [agent.key, second.key, expiring]) expect((await call(port, VIEWER, { authorization: `Bearer ${key}` })).status).toBe(200);
      expect(h.statements.filter(readsKeys)).toEqual([]);
      await ok(h, null, REVOKE_KEY, { id: keyId });
      // This instance forgot it at once.
      expect((await call(h.port, VIEWER, { authorization: `Bearer ${agent.key}` })).status).toBe(401);
      await sleep(1_100);
      expect((await call(port, VIEWER, { authorization: `Bearer ${agent.key}` })).status).toBe(401);
    } finally {
      await other.stop(1_000);
    }
  });

  it('a key remembered by the instance still stops at its expiry', async () => {
    const p = await principalId('auth-expiry-cached');
    const made = await newKey(p, 'soon', new Date(Date.now() + 1_000).toISOString());
    await sleep(600);
    // Read now and remembered for a second, past the expiry.
    expect((await call(h.port, VIEWER, { authorization: `Bearer ${made.key.secret}` })).status).toBe(200);
    await sleep(550);
    expect((await call(h.port, VIEWER, { authorization: `Bearer ${made.key.secret}` })).status).toBe(401);
  });
});

describe(`protected mode found by mutation testing (${DB_KIND})`, () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  async function server() {
    const s = await fresh();
    servers.push(s);
    return s;
  }
  const principalAndKey = async (s: Pick<Fresh, 'admin'>, name: string, expiresAt: string | null = null) => {
    const made = await s.admin(`mutation($n: String!) { createPrincipal(input: { name: $n, kind: AGENT, admin: true }) { ... on CreatePrincipalSuccess { principal { id } } } }`, { n: name });
    const keyed = await s.admin(`mutation($p: ID!, $e: DateTime) { createApiKey(input: { principal: $p, name: "k", expiresAt: $e }) { ... on CreateApiKeySuccess { key { secret apiKey { id } } } } }`, {
      p: made.createPrincipal.principal.id,
      e: expiresAt,
    });
    return keyed.createApiKey.key as { secret: string; apiKey: { id: string } };
  };
  const LOCAL = { status: 200, wwwAuthenticate: undefined, body: { data: { viewer: { local: true, authentication: true, principal: null } } } };
  const KEY_REQUIRED = { status: 401, wwwAuthenticate: 'Bearer', body: { errors: [{ message: 'An API key is required (Authorization: Bearer egk_…)', extensions: { code: 'UNAUTHENTICATED' } }] } };
  const strip = (reply: Reply) => ({ ...reply, body: { ...reply.body, errors: reply.body.errors?.map((e) => ({ message: e.message, extensions: { code: e.extensions.code } })) } });

  it('refuses other addresses with 403 PROTECTED_MODE and no WWW-Authenticate; the first key ends it at once', async () => {
    const s = await server();
    expect(strip(await call(s.port, VIEWER))).toEqual({ ...LOCAL, body: { ...LOCAL.body, errors: undefined } });
    const remote = await call(s.port, VIEWER, { from: '127.0.0.2' });
    expect([remote.status, remote.wwwAuthenticate, remote.body.errors?.map((e) => [e.message, e.extensions.code])]).toEqual([
      403,
      undefined,
      [
        [
          'Engram is in protected mode: no API key exists yet, so it answers only on this machine. Create one with ' +
            '`npm run keys -- create --admin --name <name>` on the server (or set AUTH=off on a trusted network).',
          'PROTECTED_MODE',
        ],
      ],
    ]);
    await principalAndKey(s, 'first');
    // Made through this instance: no second of grace.
    expect(strip(await call(s.port, VIEWER))).toEqual(KEY_REQUIRED);
    expect(strip(await call(s.port, VIEWER, { from: '127.0.0.2' }))).toEqual(KEY_REQUIRED);
  });

  it('comes back once the only key is revoked, or has expired; a key with a future expiry ends it', async () => {
    const s = await server();
    const key = await principalAndKey(s, 'only');
    expect(strip(await call(s.port, VIEWER))).toEqual(KEY_REQUIRED);
    await s.admin(`mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename } }`, { id: key.apiKey.id });
    expect((await call(s.port, VIEWER)).status).toBe(200);
    await principalAndKey(s, 'expiring', new Date(Date.now() + 1_200).toISOString());
    expect(strip(await call(s.port, VIEWER))).toEqual(KEY_REQUIRED);
    await sleep(1_300);
    // Past the expiry and the instance's one-second memory of "a key exists".
    expect((await call(s.port, VIEWER)).body).toEqual(LOCAL.body);
  });

  it('an instance asks whether a key exists once a second; a key made through another instance counts within a second', async () => {
    const s = await server();
    expect((await call(s.port, VIEWER)).status).toBe(200);
    s.statements.splice(0);
    expect((await call(s.port, VIEWER)).status).toBe(200);
    expect(s.statements.filter(readsKeys)).toEqual([]);
    const other = createApp({ database: s.database, accessFlushMs: 3_600_000 });
    try {
      await principalAndKey({ admin: adminOf(other) }, 'made-elsewhere');
      await sleep(1_100);
      expect(strip(await call(s.port, VIEWER))).toEqual(KEY_REQUIRED);
    } finally {
      await other.stop(1_000);
    }
  });
});
