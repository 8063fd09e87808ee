// Rules of audit.service.ts that mutation testing (npm run mutate) found unchecked: an event keeps
// each target id once and at most 100 of them; the target filter matches whole ids only; `since`
// includes its instant and `until` excludes it; failed authentications are written at once, then
// counted per window, a quiet window closes (the next failure is written at once again), and what
// is still counted is written when the server stops.
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { call } from './support/socket-call.ts';

const h = useHarness();
let n = 0;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

type Event = { createdAt: string; operation: string; targetIds: string[]; outcome: string; detail: Record<string, unknown> | null; clientAddress: string | null };
const EVENTS = `query($f: AuditEventFilter) { auditEvents(filter: $f, first: 100) { edges { node { createdAt operation targetIds outcome detail clientAddress } } } }`;
async function events(filter: Record<string, unknown>): Promise<Event[]> {
  return ((await m(EVENTS, { f: filter })).auditEvents.edges as { node: Event }[]).map((e) => e.node);
}

async function project(): Promise<string> {
  return (await m(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `maudit-${++n}` })).createProject.project.id;
}
async function task(scope: string, dependsOn: string[] = []): Promise<string> {
  return (await m(`mutation($s: ID!, $t: String!, $d: [ID!]) { createTask(input: { scope: $s, title: $t, dependsOn: $d }) { ... on CreateTaskSuccess { task { id } } } }`, {
    s: scope,
    t: `task-${++n}`,
    d: dependsOn,
  })).createTask.task.id;
}

describe(`audit events (${DB_KIND})`, () => {
  it('names each target once, and at most 100 of them', async () => {
    const p = await project();
    const t = await task(p);
    await m(`mutation($id: ID!) { updateTask(input: { id: $id, title: "renamed" }) { __typename } }`, { id: t });
    const [renamed] = await events({ operation: 'updateTask', target: t });
    expect(renamed!.targetIds).toEqual([dbId(t)]);
    const deps: string[] = [];
    for (let i = 0; i < 99; i++) deps.push(await task(p));
    const big = await task(p, deps);
    const [created] = await events({ operation: 'createTask', target: deps[98] });
    // The 99 dependencies and the scope, in the input's order; the new task (the 101st) is left out.
    expect(created!.targetIds).toEqual([...deps.map(dbId), dbId(p)]);
    expect(await events({ operation: 'createTask', target: big })).toEqual([]);
    // The operation alone filters too (a hundred createTask events came after).
    expect((await events({ operation: 'updateTask', since: renamed!.createdAt })).map((e) => [e.operation, e.targetIds])).toEqual([['updateTask', [dbId(t)]]]);
  });

  it('a target matches whole ids only; since includes its instant, until excludes it', async () => {
    const p = await project();
    const [made] = await events({ operation: 'createProject', target: p });
    expect(made!.targetIds).toEqual([dbId(p)]);
    expect(await events({ target: dbId(p).slice(0, 20) })).toEqual([]);
    expect(await events({ target: dbId(p).slice(4) })).toEqual([]);
    const at = made!.createdAt;
    expect((await events({ operation: 'createProject', target: p, since: at })).length).toBe(1);
    expect((await events({ operation: 'createProject', target: p, until: at })).length).toBe(0);
    expect((await events({ operation: 'createProject', target: p, until: new Date(Date.parse(at) + 1).toISOString() })).length).toBe(1);
    expect((await events({ operation: 'createProject', target: p, since: new Date(Date.parse(at) + 1).toISOString() })).length).toBe(0);
  });
});

describe(`failed authentications (${DB_KIND})`, () => {
  const REASON = 'The API key is unknown, revoked or expired';
  const failuresSince = async (since: string) =>
    (await events({ category: 'AUTHENTICATION', operation: 'authenticate', since })).reverse().map((e) => [e.outcome, e.detail, e.clientAddress]);
  const row = (count: number) => ['DENIED', { code: 'UNAUTHENTICATED', reason: REASON, count }, null];
  const fail = async (app: ReturnType<typeof createApp>, times: number) => {
    for (let i = 0; i < times; i++) {
      const response = await app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer egk_not-a-key' },
        body: JSON.stringify({ query: '{ viewer { local } }' }),
      });
      expect(response.status).toBe(401);
    }
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('the first is written at once, the rest of its window when it closes; a quiet window closes for good', async () => {
    const since = new Date().toISOString();
    const app = createApp({ database: h.database });
    try {
      await fail(app, 3);
      await sleep(100);
      expect(await failuresSince(since)).toEqual([row(1)]);
      await sleep(1_200);
      expect(await failuresSince(since)).toEqual([row(1), row(2)]);
      // The next window saw nothing: it writes nothing and closes, so a new failure is written at once.
      await sleep(1_200);
      await fail(app, 1);
      await sleep(100);
      expect(await failuresSince(since)).toEqual([row(1), row(2), row(1)]);
    } finally {
      await app.stop();
    }
  });

  it('each client address has its own window', async () => {
    const since = new Date().toISOString();
    const app = createApp({ database: h.database });
    const port = await app.start(0, '127.0.0.1');
    try {
      for (const from of ['127.0.0.21', '127.0.0.22']) expect((await call(port, '{ viewer { local } }', { key: 'egk_not-a-key', from })).status).toBe(401);
      await sleep(100);
      const rows = (await events({ category: 'AUTHENTICATION', since })).map((e) => [e.detail?.count, e.clientAddress?.replace(/^::ffff:/, '')]);
      expect(rows.sort()).toEqual([
        [1, '127.0.0.21'],
        [1, '127.0.0.22'],
      ]);
    } finally {
      await app.stop();
    }
  });

  it('what is still counted is written when the server stops', async () => {
    const since = new Date().toISOString();
    const app = createApp({ database: h.database });
    await fail(app, 3);
    await app.stop();
    expect(await failuresSince(since)).toEqual([row(1), row(2)]);
    const other = createApp({ database: h.database });
    await fail(other, 1);
    await other.stop();
    expect(await failuresSince(since)).toEqual([row(1), row(2), row(1)]);
  });
});
