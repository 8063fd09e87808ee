import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createEventBus, type EventBus } from '../src/infra/events.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addTool, createProject, startSession } from './support/ops.ts';
import { sseSubscribe, untilListening, wsSubscribe, type Collector } from './support/subscriptions.ts';

const h = useHarness({ listen: true });

const OnConflict = graphql(`
  subscription OnConflict($scope: ID!, $includeDescendants: Boolean) {
    conflictDetected(scope: $scope, includeDescendants: $includeDescendants) {
      type
      occurredAt
      conflict { id entry { name scope { id } } versionA { version } versionB { version conflictFlag } }
    }
  }
`);

const OnResolved = graphql(`
  subscription OnResolved($scope: ID!) {
    conflictResolved(scope: $scope) { type conflict { id resolved resolution } }
  }
`);

const OnEntry = graphql(`
  subscription OnEntry($scope: ID!, $includeDescendants: Boolean) {
    entryChanged(scope: $scope, includeDescendants: $includeDescendants) {
      type
      actor
      entry { name active latestVersion tags { name } }
      version { version }
    }
  }
`);

const OnSession = graphql(`
  subscription OnSession($session: ID, $project: ID) {
    sessionEvent(session: $session, project: $project) { sequence type actor transition { from to } session { id status } }
  }
`);

const Update = graphql(`
  mutation SubUpdate($input: UpdateToolInput!) {
    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }
  }
`);

const Resolve = graphql(`
  mutation SubResolve($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }
`);

const Tag = graphql(`
  mutation SubTag($entry: ID!) { attachTags(input: { entry: $entry, tags: ["live"] }) { __typename } }
`);

const Deactivate = graphql(`
  mutation SubDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }
`);

const AppendEvent = graphql(`
  mutation SubAppend($session: ID!, $delta: JSON) {
    appendSessionEvent(input: { session: $session, type: TOOL_CALL, actor: "agent:sub", content: { tool: "grep" }, stateDelta: $delta }) { __typename }
  }
`);

const EndSession = graphql(`
  mutation SubEnd($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

/** Makes a conflict on `tool` (through `app`, default this file's app); returns the conflict id. */
async function conflict(tool: string, via: App = h.app): Promise<string> {
  const send = async (input: Record<string, unknown>) => {
    const response = await via.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: UPDATE_QUERY, variables: { input: { id: tool, ...input } } }),
    });
    return (await response.json()) as { data: { updateTool: { update?: { conflict: { id: string } | null } } } };
  };
  await send({ description: 'a', author: 'agent:a' });
  const r = await send({ description: 'b', author: 'agent:b', expectedVersion: 1 });
  const id = r.data.updateTool.update?.conflict?.id;
  if (!id) throw new Error(`no conflict: ${JSON.stringify(r)}`);
  return id;
}
const UPDATE_QUERY = `mutation ($input: UpdateToolInput!) { updateTool(input: $input) { ... on UpdateToolSuccess { update { conflict { id } } } } }`;

const conflictNames = (c: Collector<{ conflictDetected: { conflict: { entry: { name: string } } | null } }>) =>
  c.results.map((r) => r.data?.conflictDetected.conflict?.entry.name).filter((n) => n && !n.startsWith('probe'));

describe('subscriptions over graphql-ws', () => {
  it('conflictDetected delivers exactly the conflicts of its scope, none from other scopes', async () => {
    const mine = await createProject(h, 'sub-mine');
    const other = await createProject(h, 'sub-other');
    const sub = wsSubscribe(h.port, OnConflict, { scope: mine });
    try {
      let probes = 0;
      await untilListening(sub.collector, async () => conflict(await addTool(h, mine, `probe-${probes++}`)));
      const t1 = await addTool(h, mine, 't1');
      const t2 = await addTool(h, other, 't2');
      const t3 = await addTool(h, mine, 't3');
      await conflict(t1);
      await conflict(t2);
      await conflict(t3);
      await sub.collector.until(() => conflictNames(sub.collector).length >= 2);
      // A last event in the scope proves nothing else is still on its way.
      await conflict(await addTool(h, mine, 'z-last'));
      await sub.collector.until(() => conflictNames(sub.collector).includes('z-last'));
      expect(conflictNames(sub.collector)).toEqual(['t1', 't3', 'z-last']);
      const event = sub.collector.results.at(-1)?.data?.conflictDetected;
      expect(event).toMatchObject({ type: 'DETECTED', conflict: { entry: { scope: { id: mine } }, versionA: { version: 2 }, versionB: { version: 3, conflictFlag: true } } });
    } finally {
      await sub.close();
    }
  });

  it('includeDescendants also delivers conflicts of scopes below', async () => {
    const project = await createProject(h, 'sub-tree');
    const session = await startSession(h, project);
    const sub = wsSubscribe(h.port, OnConflict, { scope: project, includeDescendants: true });
    try {
      let probes = 0;
      await untilListening(sub.collector, async () => conflict(await addTool(h, project, `probe-${probes++}`)));
      await conflict(await addTool(h, session, 'in-session'));
      await conflict(await addTool(h, project, 'in-project'));
      await sub.collector.until(() => conflictNames(sub.collector).length >= 2);
      expect(conflictNames(sub.collector)).toEqual(['in-session', 'in-project']);
    } finally {
      await sub.close();
    }
  });

  it('sends nothing for a rolled-back write', async () => {
    const project = await createProject(h, 'sub-rollback');
    const sub = wsSubscribe(h.port, OnConflict, { scope: project });
    try {
      let probes = 0;
      await untilListening(sub.collector, async () => conflict(await addTool(h, project, `probe-${probes++}`)));
      const tool = await addTool(h, project, 'rolled-back', { author: 'agent:a' });
      await h.ok(Update, { input: { id: tool, description: 'x', author: 'agent:a' } });
      // Conflicting but refused: the transaction rolls back, so no conflict exists and none is sent.
      const refused = await h.ok(Update, { input: { id: tool, description: 'y', author: 'agent:b', expectedVersion: 1, onConflict: 'REJECT' } });
      expect(refused.updateTool.__typename).toBe('WriteConflictError');
      // Failing after the conflict was detected (an impossible expectedVersion): rolled back too.
      const invalid = await h.ok(Update, { input: { id: tool, description: 'z', author: 'agent:b', expectedVersion: 99 } });
      expect(invalid.updateTool.__typename).toBe('ValidationError');
      await conflict(await addTool(h, project, 'z-sentinel'));
      await sub.collector.until(() => conflictNames(sub.collector).includes('z-sentinel'));
      expect(conflictNames(sub.collector)).toEqual(['z-sentinel']);
    } finally {
      await sub.close();
    }
  });

  it('entryChanged reports each change once, in commit order; conflictResolved follows resolutions', async () => {
    const project = await createProject(h, 'sub-entries');
    const changes = wsSubscribe(h.port, OnEntry, { scope: project }, { 'x-engram-actor': 'agent:watcher' });
    const resolved = wsSubscribe(h.port, OnResolved, { scope: project });
    try {
      let probes = 0;
      await untilListening(changes.collector, async () => addTool(h, project, `probe-${probes++}`));
      await untilListening(resolved.collector, async () => h.ok(Resolve, { id: await conflict(await addTool(h, project, `probe-r${probes++}`)) }));
      const tool = await addTool(h, project, 'watched', { author: 'agent:w' });
      await h.ok(Update, { input: { id: tool, description: 'v2', author: 'agent:w' } }, { 'x-engram-actor': 'agent:w' });
      await h.ok(Tag, { entry: tool }, { 'x-engram-actor': 'agent:w' });
      await h.ok(Deactivate, { id: tool }, { 'x-engram-actor': 'agent:w' });
      await h.ok(Deactivate, { id: tool }); // no change, no event
      const c = await conflict(await addTool(h, project, 'to-resolve'));
      await h.ok(Resolve, { id: c });
      const watched = () =>
        changes.collector.results.map((r) => r.data?.entryChanged).filter((e) => e?.entry?.name === 'watched');
      await changes.collector.until(() => watched().length >= 4);
      await resolved.collector.until((r) => r.some((e) => e.data?.conflictResolved.conflict?.id === c));
      expect(watched().map((e) => [e!.type, e!.actor, e!.version?.version ?? null])).toEqual([
        ['CREATED', 'agent:w', 1],
        ['UPDATED', 'agent:w', 2],
        ['TAGGED', 'agent:w', null],
        ['DEACTIVATED', 'agent:w', null],
      ]);
      // Payloads are read when delivered: the entry is now deactivated and tagged.
      expect(watched().at(-1)?.entry).toMatchObject({ active: false, latestVersion: 2, tags: [{ name: 'live' }] });
      expect(resolved.collector.results.at(-1)?.data?.conflictResolved).toEqual({ type: 'RESOLVED', conflict: { id: c, resolved: true, resolution: 'TOOK_INCOMING' } });
    } finally {
      await changes.close();
      await resolved.close();
    }
  });

  it('sessionEvent follows the sessions of a project', async () => {
    const project = await createProject(h, 'sub-sessions');
    const sub = wsSubscribe(h.port, OnSession, { project });
    try {
      let first = '';
      await untilListening(sub.collector, async () => {
        first = await startSession(h, project);
      });
      expect((await h.ok(AppendEvent, { session: first, delta: { 'session:step': 2 } })).appendSessionEvent.__typename).toBe('AppendSessionEventSuccess');
      await h.ok(EndSession, { id: first });
      await sub.collector.until((r) => r.some((e) => e.data?.sessionEvent.transition?.to === 'COMPLETED'));
      // untilListening may have started more than one session before the subscription listened.
      const events = sub.collector.results.map((r) => r.data?.sessionEvent).filter((e) => e?.session.id === first);
      expect(events).toEqual([
        // Each delivery reads the session as it is then.
        { sequence: 1, type: 'LIFECYCLE', actor: 'system', transition: { from: null, to: 'ACTIVE' }, session: { id: first, status: 'ACTIVE' } },
        { sequence: 2, type: 'TOOL_CALL', actor: 'agent:sub', transition: null, session: { id: first, status: expect.stringMatching(/^(ACTIVE|COMPLETED)$/) as string } },
        { sequence: 3, type: 'LIFECYCLE', actor: 'system', transition: { from: 'ACTIVE', to: 'COMPLETED' }, session: { id: first, status: 'COMPLETED' } },
      ]);
    } finally {
      await sub.close();
    }
  });

  it('refuses a subscription to an unknown or malformed scope with a typed error', async () => {
    const sub = wsSubscribe(h.port, OnConflict, { scope: Buffer.from('Project:0190a0a0-0000-7000-8000-000000000000').toString('base64') });
    try {
      await expect(sub.collector.until(() => false, 3_000)).rejects.toThrow(/NOT_FOUND/);
    } finally {
      await sub.close();
    }
  });
});

describe('subscriptions over SSE', () => {
  it('streams conflictDetected as Server-Sent Events through the same pipeline', async () => {
    const project = await createProject(h, 'sse');
    const sub = await sseSubscribe(h.app, OnConflict, { scope: project });
    try {
      expect(sub.contentType).toMatch(/text\/event-stream/);
      let probes = 0;
      await untilListening(sub.collector, async () => conflict(await addTool(h, project, `probe-${probes++}`)));
      await conflict(await addTool(h, project, 'over-sse'));
      await sub.collector.until(() => conflictNames(sub.collector).includes('over-sse'));
      expect(conflictNames(sub.collector)).toEqual(['over-sse']);
    } finally {
      sub.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisProblem = await (async () => {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    client.disconnect();
  }
})();
if (redisProblem) {
  if (process.env.ENGRAM_REQUIRE_REDIS === '1' || process.env.CI === 'true') {
    throw new Error(`Redis is required for this run but unreachable at ${redisUrl}: ${redisProblem}`);
  }
  console.warn(`[engram] Skipping the two-instance tests: Redis at ${redisUrl} is unreachable (${redisProblem}).`);
}

describe.skipIf(redisProblem !== null)(`two instances over Redis (${DB_KIND})`, () => {
  const instances: Array<{ app: App; database: Database; bus: EventBus }> = [];
  afterAll(async () => {
    for (const { app, database, bus } of instances) {
      await app.stop(1_000);
      await bus.close();
      await database.close();
    }
  });

  it('a subscriber on one instance sees a conflict caused through the other', async () => {
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase(h.url);
      const bus = createEventBus({ redisUrl });
      await bus.ready();
      instances.push({ app: createApp({ database, bus }), database, bus });
    }
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const portA = await a.app.start(0, '127.0.0.1');
    const project = await createProject(h, 'redis');
    const sub = wsSubscribe(portA, OnConflict, { scope: project });
    try {
      let probes = 0;
      await untilListening(sub.collector, async () => conflict(await addTool(h, project, `probe-${probes++}`), b.app));
      await conflict(await addTool(h, project, 'across'), b.app);
      await sub.collector.until(() => conflictNames(sub.collector).includes('across'));
      expect(conflictNames(sub.collector)).toEqual(['across']);
    } finally {
      await sub.close();
    }
  });
});
