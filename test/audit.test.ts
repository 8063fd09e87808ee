// The audit log (issue #12): every mutation root field, failed authentications (coalesced) and
// key changes from the command line are appended; admins read it through `auditEvents`, filtered
// and paged newest first; nothing in the API updates or deletes it, and it outlives what it names.
// Calls go over real sockets with API keys, so principals and client addresses are real.
import { decodeGlobalID } from '@pothos/plugin-relay';
import { beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { captureLogs, flushLogs } from '../src/infra/log.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { principalWithKey } from './support/keys.ts';
import { eventually } from './support/redis-server.ts';
import { runKeysCli } from './support/server-process.ts';
import { call, type CallOptions } from './support/socket-call.ts';

const h = useHarness({ listen: true });

interface AuditEvent {
  id: string;
  createdAt: string;
  category: string;
  operation: string;
  principal: string | null;
  principalName: string | null;
  onBehalfOf: string | null;
  targetIds: string[];
  outcome: string;
  detail: Record<string, unknown> | null;
  clientAddress: string | null;
}
interface Page {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null; startCursor: string | null };
  edges: { node: AuditEvent }[];
}

const FIELDS = 'id createdAt category operation principal principalName onBehalfOf targetIds outcome detail clientAddress';
const AUDIT = `query($filter: AuditEventFilter, $first: Int, $after: String, $last: Int, $before: String) {
  auditEvents(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    totalCount pageInfo { hasNextPage hasPreviousPage endCursor startCursor } edges { node { ${FIELDS} } }
  } }`;

let admin: Awaited<ReturnType<typeof principalWithKey>>;
let agent: Awaited<ReturnType<typeof principalWithKey>>;
beforeAll(async () => {
  admin = await principalWithKey(h.app, `audit-admin-${DB_KIND}`, true);
  agent = await principalWithKey(h.app, `audit-agent-${DB_KIND}`, false);
});

/** The audit log as the admin sees it over the network. */
async function audit(variables: Record<string, unknown> = {}): Promise<Page> {
  const answer = await call(h.port, AUDIT, { key: admin.key, variables });
  if (answer.status !== 200 || answer.body.errors) throw new Error(JSON.stringify(answer));
  return answer.body.data!.auditEvents as Page;
}
const events = async (filter: Record<string, unknown>) => (await audit({ filter, first: 100 })).edges.map((e) => e.node);

/** A mutation over the network; its data (GraphQL errors fail the test). */
async function mutate(query: string, options: CallOptions): Promise<Record<string, Record<string, unknown>>> {
  const answer = await call(h.port, query, options);
  if (answer.status !== 200 || answer.body.errors) throw new Error(JSON.stringify(answer));
  return answer.body.data as Record<string, Record<string, unknown>>;
}

const dbId = (globalId: string) => decodeGlobalID(globalId).id;
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;
let unique = 0;
const name = (what: string) => `${what}-${DB_KIND}-${++unique}`;

async function createProject(projectName: string, key: string): Promise<string> {
  const data = await mutate(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, {
    key,
    variables: { n: projectName },
  });
  return (data.createProject!.project as { id: string }).id;
}

async function addTool(scope: string, toolName: string, key: string): Promise<string> {
  const data = await mutate(`mutation($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n }) { ... on AddToolSuccess { tool { id } } } }`, {
    key,
    variables: { s: scope, n: toolName },
  });
  return (data.addTool!.tool as { id: string }).id;
}

describe(`audit log (${DB_KIND})`, () => {
  it('records a write: principal, address, operation, the ids of its arguments and result, outcome', async () => {
    const project = await createProject(name('audited'), agent.key);
    const tool = await addTool(project, 'hammer', agent.key);
    const [event] = await events({ principal: agent.id, operation: 'addTool', target: tool });
    expect(event).toMatchObject({
      category: 'WRITE',
      operation: 'addTool',
      principal: agent.id,
      principalName: agent.name,
      onBehalfOf: null,
      targetIds: [dbId(project), dbId(tool)],
      outcome: 'OK',
      detail: null,
    });
    expect(event!.clientAddress).toMatch(LOOPBACK);
  });

  it('records each root field of a mutation; a failed one is FAILED with its code', async () => {
    const twice = name('twice');
    const data = await mutate(
      `mutation($n: String!) {
        first: createProject(input: { name: $n }) { __typename }
        second: createProject(input: { name: $n }) { __typename ... on UserError { code } } }`,
      { key: agent.key, variables: { n: twice } },
    );
    expect(data.second).toEqual({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS' });
    const since = new Date(Date.now() - 60_000).toISOString();
    const recent = (await events({ principal: agent.id, operation: 'createProject', since })).slice(0, 2);
    expect(recent.map((e) => [e.outcome, e.detail])).toEqual([
      ['FAILED', { code: 'ALREADY_EXISTS' }],
      ['OK', null],
    ]);
  });

  it('records whom a service acted for, named in the X-Engram-Actor header or in an input', async () => {
    const relay = await principalWithKey(h.app, name('relay'), false);
    await h.database.prisma.principal.update({ where: { id: dbId(relay.id) }, data: { kind: 'SERVICE', actsForOthers: true } });
    const project = await createProject(name('relayed'), agent.key);
    const byHeader = await mutate(`mutation($s: ID!) { addTool(input: { scope: $s, name: "by-header" }) { __typename } }`, {
      key: relay.key,
      variables: { s: project },
      headers: { 'x-engram-actor': `agent:${agent.name}` },
    });
    const byInput = await mutate(`mutation($s: ID!, $a: String!) { addTool(input: { scope: $s, name: "by-input", author: $a }) { __typename } }`, {
      key: relay.key,
      variables: { s: project, a: `agent:${agent.name}` },
    });
    expect([byHeader.addTool, byInput.addTool]).toEqual([{ __typename: 'AddToolSuccess' }, { __typename: 'AddToolSuccess' }]);
    const rows = await events({ principal: relay.id, operation: 'addTool' });
    expect(rows.map((e) => [e.principalName, e.onBehalfOf, e.outcome])).toEqual([
      [relay.name, agent.name, 'OK'],
      [relay.name, agent.name, 'OK'],
    ]);
  });

  it('records a write whose ID argument decodes to text with a NUL (which PostgreSQL cannot store) without that target', async () => {
    const lines: string[] = [];
    const release = captureLogs((line) => void lines.push(line));
    try {
      const nul = Buffer.from('Tool:ab\u0000cd').toString('base64');
      const data = await mutate(`mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { key: agent.key, variables: { id: nul } });
      expect(data.deactivateEntry!.__typename).toBe('ValidationError');
      await flushLogs();
      const since = new Date(Date.now() - 60_000).toISOString();
      const [event] = await events({ principal: agent.id, operation: 'deactivateEntry', since });
      expect(event).toMatchObject({ outcome: 'FAILED', targetIds: [] });
      expect(lines.filter((line) => line.includes('Recording an audit event'))).toEqual([]);
    } finally {
      release();
    }
  });

  it('records a write the grants refuse as DENIED', async () => {
    const reader = await principalWithKey(h.app, name('reader'), false, 'READ');
    const refused = await mutate(`mutation { createProject(input: { name: "${name('nope')}" }) { __typename } }`, { key: reader.key });
    expect(refused.createProject).toEqual({ __typename: 'PermissionDeniedError' });
    expect((await events({ principal: reader.id })).map((e) => [e.category, e.operation, e.outcome, e.detail])).toEqual([
      ['WRITE', 'createProject', 'DENIED', { code: 'FORBIDDEN' }],
    ]);
    // Its grant, given in-process by the local admin of the test: an IDENTITY event with no principal.
    const [granted] = await events({ operation: 'grantRole', target: reader.id });
    expect(granted).toMatchObject({ category: 'IDENTITY', outcome: 'OK', principal: null, clientAddress: null });
  });

  it('records identity changes: DENIED for a non-admin, OK with the key prefix for an admin, never a secret', async () => {
    const refused = await mutate(`mutation { createPrincipal(input: { name: "${name('sneaky')}", kind: AGENT }) { __typename } }`, { key: agent.key });
    expect(refused.createPrincipal).toEqual({ __typename: 'PermissionDeniedError' });
    const [denied] = await events({ principal: agent.id, category: 'IDENTITY' });
    expect(denied).toMatchObject({ operation: 'createPrincipal', outcome: 'DENIED', detail: { code: 'FORBIDDEN' }, principalName: agent.name });

    const made = await mutate(
      `mutation($p: ID!) { createApiKey(input: { principal: $p, name: "rotated" }) { ... on CreateApiKeySuccess { key { secret apiKey { id prefix } } } } }`,
      { key: admin.key, variables: { p: agent.id } },
    );
    const { secret, apiKey } = made.createApiKey!.key as { secret: string; apiKey: { id: string; prefix: string } };
    await mutate(`mutation($id: ID!) { revokeApiKey(input: { id: $id }) { ... on RevokeApiKeySuccess { apiKey { revokedAt } } } }`, { key: admin.key, variables: { id: apiKey.id } });
    const changes = await events({ target: apiKey.id });
    expect(changes.map((e) => [e.operation, e.category, e.outcome, e.principal, e.detail])).toEqual([
      ['revokeApiKey', 'IDENTITY', 'OK', admin.id, { prefix: apiKey.prefix }],
      ['createApiKey', 'IDENTITY', 'OK', admin.id, { prefix: apiKey.prefix }],
    ]);
    expect(changes[1]!.targetIds).toEqual([dbId(agent.id), dbId(apiKey.id)]);
    const everything = await h.database.prisma.auditEvent.findMany();
    expect(JSON.stringify(everything)).not.toContain(secret.slice(12));
  });

  it('records failed authentications with address and reason, a flood coalesced into a row per second', async () => {
    const from = '127.0.0.6';
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(h.port, '{ viewer { local } }', { key: 'egk_not-a-key', from })));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    const mine = async () => (await events({ category: 'AUTHENTICATION', operation: 'authenticate' })).filter((e) => e.clientAddress?.endsWith(from));
    const counted = async () => (await mine()).reduce((sum, e) => sum + (e.detail!.count as number), 0);
    await eventually('every failure is counted', async () => (await counted()) === 30, 5_000);
    const rows = await mine();
    // The first at once, the rest when its window closed (a third if the burst crossed a second).
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeLessThanOrEqual(3);
    for (const row of rows) {
      expect(row).toMatchObject({ outcome: 'DENIED', principal: null, targetIds: [] });
      expect(row.detail).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'The API key is unknown, revoked or expired' });
    }

    // A missing key, from another address: its own row, written at once.
    expect((await call(h.port, '{ viewer { local } }', { from: '127.0.0.7' })).status).toBe(401);
    await eventually('the missing key is recorded', async () =>
      (await events({ operation: 'authenticate' })).some(
        (e) => e.clientAddress?.endsWith('127.0.0.7') && e.detail?.reason === 'An API key is required (Authorization: Bearer egk_…)' && e.detail.count === 1,
      ),
    );
  });

  it('filters by principal, operation, category, target and time, and pages newest first with totalCount', async () => {
    const other = await principalWithKey(h.app, name('pager'));
    const since = new Date().toISOString();
    const projects = [];
    for (const n of ['a', 'b', 'c']) projects.push(await createProject(name(`page-${n}`), other.key));
    const filter = { principal: other.id, operation: 'createProject', since };

    const first = await audit({ filter, first: 2 });
    expect(first.totalCount).toBe(3);
    expect(first.edges.map((e) => e.node.targetIds)).toEqual([[dbId(projects[2]!)], [dbId(projects[1]!)]]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = await audit({ filter, first: 2, after: first.pageInfo.endCursor });
    expect(rest.edges.map((e) => e.node.targetIds)).toEqual([[dbId(projects[0]!)]]);
    const oldest = await audit({ filter, last: 1 });
    expect(oldest.edges.map((e) => e.node.targetIds)).toEqual([[dbId(projects[0]!)]]);

    // A target by global ID or by database id; a category; a time window.
    for (const target of [projects[1]!, dbId(projects[1]!)]) {
      expect((await events({ target })).map((e) => [e.operation, e.principal])).toEqual([['createProject', other.id]]);
    }
    expect((await events({ principal: other.id, category: 'IDENTITY' })).length).toBe(0);
    expect((await events({ principal: other.id, until: since })).length).toBe(0);
    expect((await events({ principal: other.id, since: new Date(Date.now() + 60_000).toISOString() })).length).toBe(0);
  });

  it('finds a target by exactly its id: `%` and `_` are no wildcards, and case counts', async () => {
    // A write naming a scope nobody has: refused, its audit row keeps the id it was given.
    const probe = `%_Probe-${DB_KIND}-${++unique}`;
    const answer = await call(h.port, `mutation($s: ID!) { addTool(input: { scope: $s, name: "x" }) { ... on UserError { code } } }`, {
      key: agent.key,
      variables: { s: Buffer.from(`Project:${probe}`).toString('base64') },
    });
    expect(answer.body.data).toEqual({ addTool: { code: 'NOT_FOUND' } });
    expect((await events({ target: probe })).map((e) => [e.operation, e.targetIds])).toEqual([['addTool', [probe]]]);
    // Each of these matched it (or every event with a target) as a LIKE pattern.
    for (const near of ['%', '_', '%%', probe.toLowerCase(), `_${probe.slice(1)}`, `%${probe.slice(4)}`]) {
      expect({ near, found: (await audit({ filter: { target: near }, first: 5 })).totalCount }).toEqual({ near, found: 0 });
    }
  });

  it("pages a target's events newest first, forwards and backwards, with the other filters", async () => {
    const project = await createProject(name('target-pages'), agent.key);
    const tools = [];
    for (const n of ['a', 'b', 'c']) tools.push(await addTool(project, `tool-${n}`, agent.key));
    const filter = { target: project };
    const operations = (page: Page) => page.edges.map((e) => [e.node.operation, e.node.targetIds.at(-1)]);
    const first = await audit({ filter, first: 2 });
    expect({ total: first.totalCount, page: operations(first), more: first.pageInfo.hasNextPage }).toEqual({
      total: 4,
      page: [['addTool', dbId(tools[2]!)], ['addTool', dbId(tools[1]!)]],
      more: true,
    });
    const rest = await audit({ filter, first: 5, after: first.pageInfo.endCursor });
    expect({ page: operations(rest), more: rest.pageInfo.hasNextPage }).toEqual({ page: [['addTool', dbId(tools[0]!)], ['createProject', dbId(project)]], more: false });
    const oldest = await audit({ filter, last: 1 });
    expect(operations(oldest)).toEqual([['createProject', dbId(project)]]);
    const before = await audit({ filter, last: 2, before: oldest.pageInfo.startCursor });
    expect(operations(before)).toEqual([['addTool', dbId(tools[1]!)], ['addTool', dbId(tools[0]!)]]);
    // With the event's own conditions: an operation, a principal, a time window.
    expect((await audit({ filter: { ...filter, operation: 'createProject' }, first: 5 })).totalCount).toBe(1);
    expect((await audit({ filter: { ...filter, principal: admin.id }, first: 5 })).totalCount).toBe(0);
    expect((await audit({ filter: { ...filter, since: new Date(Date.now() + 60_000).toISOString() }, first: 5 })).totalCount).toBe(0);
  });

  it('is for admins only', async () => {
    const answer = await call(h.port, AUDIT, { key: agent.key, variables: { first: 1 } });
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const count = await call(h.port, '{ auditEvents { totalCount } }', { key: agent.key });
    expect(count.body.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });

  it('is append-only: no mutation touches it, and it outlives what it names', async () => {
    const mutations = Object.keys(getSchema().getMutationType()!.getFields());
    expect(mutations.filter((m) => /audit/i.test(m))).toEqual([]);

    const project = await createProject(name('gone'), agent.key);
    const [a, b] = [await addTool(project, 'a', agent.key), await addTool(project, 'b', agent.key)];
    const created = await mutate(
      `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: DEPENDS_ON }) { ... on CreateRelationSuccess { relation { id } } } }`,
      { key: agent.key, variables: { s: a, t: b } },
    );
    const relation = (created.createRelation!.relation as { id: string }).id;
    await mutate(`mutation($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }`, { key: agent.key, variables: { id: relation } });
    expect(await h.database.prisma.relation.count({ where: { id: dbId(relation) } })).toBe(0);
    expect((await events({ target: relation })).map((e) => [e.operation, e.outcome])).toEqual([
      ['deleteRelation', 'OK'],
      ['createRelation', 'OK'],
    ]);
  });

  it('records keys made and revoked with the command line', async () => {
    const keys = (...args: string[]) => runKeysCli(h.url, ...args);
    const principalName = name('cli');
    const created = await keys('create', '--name', principalName);
    expect(created.status, created.stderr).toBe(0);
    const prefix = created.stdout.trim().slice(0, 12);
    expect((await keys('revoke', prefix)).status).toBe(0);
    const rows = (await events({ category: 'IDENTITY', since: new Date(Date.now() - 120_000).toISOString() })).filter((e) => e.detail?.via === 'cli');
    expect(rows.map((e) => [e.operation, e.outcome, e.principal, e.clientAddress, e.detail?.prefix ?? null])).toEqual([
      ['revokeApiKey', 'OK', null, null, prefix],
      ['createApiKey', 'OK', null, null, prefix],
      ['createPrincipal', 'OK', null, null, null],
    ]);
  });
});
