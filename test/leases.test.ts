// Leases (issue 16, first part): check out, renew, release and force-unlock named resources of a
// scope, with fencing tokens; 100 agents contending for 10 resources never hold one together.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness, withSecondInstance } from './support/harness.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();

const LEASE = `lease { holder mode fencingToken resource acquiredAt expiresAt renewedAt scope { id } }`;
const ERRORS = `... on UserError { code message }`;
const STATE = `... on InvalidStateError { currentState }`;
const CHECKOUT = `mutation ($input: CheckoutLeaseInput!) { checkoutLease(input: $input) { __typename ... on CheckoutLeaseSuccess { ${LEASE} } ${ERRORS} ${STATE}
  ... on LeaseHeldError { holders { holder mode } } } }`;
const RENEW = `mutation ($input: RenewLeaseInput!) { renewLease(input: $input) { __typename ... on RenewLeaseSuccess { ${LEASE} } ${ERRORS} ${STATE} } }`;
const RELEASE = `mutation ($input: ReleaseLeaseInput!) { releaseLease(input: $input) { __typename ... on ReleaseLeaseSuccess { ${LEASE} } ${ERRORS} ${STATE} } }`;
const UNLOCK = `mutation ($input: ForceUnlockInput!) { forceUnlock(input: $input) { __typename ... on ForceUnlockSuccess { ended } ${ERRORS} } }`;

async function project(name: string): Promise<string> {
  return (await ok(h, null, 'mutation ($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', { n: name })).createProject.project.id;
}

/** A lease call as `agent` (its X-Engram-Actor), in-process. */
async function call(query: string, field: string, input: Record<string, unknown>, agent: string | null): Promise<any> {
  const answer = await as(h, null, query, { input }, agent ? { 'x-engram-actor': agent } : {});
  expect(answer.errors).toBeUndefined();
  return answer.data![field];
}

const FENCED_SET = `mutation ($input: SetStateInput!) { setState(input: $input) { __typename ... on InvalidStateError { currentState } } }`;

/** A call as `agent` through `app` (one of two instances in the contention tests); the answer's JSON. */
async function send(app: App, query: string, input: Record<string, unknown>, agent: string): Promise<any> {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-actor': agent },
    body: JSON.stringify({ query, variables: { input } }),
  });
  return response.json();
}

describe('leases', () => {
  it('exclusive and shared checkouts, with a fencing token that grows with every grant', async () => {
    const scope = await project('leases-modes');
    const file = (mode?: string) => ({ scope, resource: 'src/app.ts', ttlSeconds: 60, ...(mode ? { mode } : {}) });
    const a = await call(CHECKOUT, 'checkoutLease', file(), 'agent:a');
    expect(a).toMatchObject({ __typename: 'CheckoutLeaseSuccess', lease: { holder: 'agent:a', mode: 'EXCLUSIVE', fencingToken: 1, resource: 'src/app.ts' } });
    expect(await call(CHECKOUT, 'checkoutLease', file(), 'agent:b')).toMatchObject({ __typename: 'LeaseHeldError', code: 'LEASE_HELD', holders: [{ holder: 'agent:a', mode: 'EXCLUSIVE' }] });
    expect(await call(CHECKOUT, 'checkoutLease', file('SHARED'), 'agent:b')).toMatchObject({ __typename: 'LeaseHeldError' });

    // The released lease's row is gone; its scope is still told.
    expect(await call(RELEASE, 'releaseLease', { scope, resource: 'src/app.ts' }, 'agent:a')).toMatchObject({ __typename: 'ReleaseLeaseSuccess', lease: { fencingToken: 1, scope: { id: scope } } });
    expect((await call(CHECKOUT, 'checkoutLease', file('SHARED'), 'agent:b')).lease).toMatchObject({ mode: 'SHARED', fencingToken: 2 });
    expect((await call(CHECKOUT, 'checkoutLease', file('SHARED'), 'agent:c')).lease).toMatchObject({ mode: 'SHARED', fencingToken: 3 });
    const blocked = await call(CHECKOUT, 'checkoutLease', file(), 'agent:d');
    expect(blocked.holders.map((x: { holder: string }) => x.holder).sort()).toEqual(['agent:b', 'agent:c']);

    const listed = await ok(h, null, 'query ($s: ID!) { leases(scope: $s, resource: "src/app.ts") { totalCount edges { node { holder mode fencingToken } } } }', { s: scope });
    expect(listed.leases.totalCount).toBe(2);
    expect(listed.leases.edges.map((e: { node: { holder: string } }) => e.node.holder).sort()).toEqual(['agent:b', 'agent:c']);
    // Releasing a lease one does not hold, or a token that is not one's own, is NotFound.
    expect(await call(RELEASE, 'releaseLease', { scope, resource: 'src/app.ts' }, 'agent:d')).toMatchObject({ __typename: 'NotFoundError' });
    expect(await call(RELEASE, 'releaseLease', { scope, resource: 'src/app.ts', fencingToken: 2 }, 'agent:c')).toMatchObject({ __typename: 'NotFoundError' });
  });

  it("expires by itself: another agent takes it over with a newer token, and the old holder's renewal is refused", async () => {
    const scope = await project('leases-expiry');
    const lease = { scope, resource: 'task-7' };
    const first = (await call(CHECKOUT, 'checkoutLease', { ...lease, ttlSeconds: 1 }, 'agent:zombie')).lease;
    const renewed = (await call(RENEW, 'renewLease', { ...lease, ttlSeconds: 1, fencingToken: first.fencingToken }, 'agent:zombie')).lease;
    expect(renewed.fencingToken).toBe(first.fencingToken);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThanOrEqual(Date.parse(first.expiresAt));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await call(RENEW, 'renewLease', { ...lease, ttlSeconds: 30 }, 'agent:zombie')).toMatchObject({ __typename: 'InvalidStateError', currentState: 'EXPIRED' });
    const taken = (await call(CHECKOUT, 'checkoutLease', { ...lease, ttlSeconds: 30 }, 'agent:live')).lease;
    expect(taken.fencingToken).toBe(first.fencingToken + 1);
    expect(await call(RENEW, 'renewLease', { ...lease, ttlSeconds: 30 }, 'agent:zombie')).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('a checkout may wait, bounded, for the holder to release', async () => {
    const scope = await project('leases-wait');
    const lease = { scope, resource: 'deploy', ttlSeconds: 60 };
    await call(CHECKOUT, 'checkoutLease', lease, 'agent:a');
    const waiting = call(CHECKOUT, 'checkoutLease', { ...lease, waitSeconds: 10 }, 'agent:b');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const beforeRelease = Date.now();
    expect((await call(RELEASE, 'releaseLease', { scope, resource: 'deploy' }, 'agent:a')).__typename).toBe('ReleaseLeaseSuccess');
    const granted = await waiting;
    expect(granted).toMatchObject({ __typename: 'CheckoutLeaseSuccess', lease: { holder: 'agent:b', fencingToken: 2 } });
    // Granted once a's lease was released, not before.
    expect(Date.parse(granted.lease.acquiredAt)).toBeGreaterThanOrEqual(beforeRelease);

    // The release wakes the waiter (its leaseChanged event): a newcomer 200 ms later finds the
    // lease taken. (Waiters also re-read every second, which alone would let the newcomer in.)
    const next = { scope, resource: 'deploy-2', ttlSeconds: 60 };
    await call(CHECKOUT, 'checkoutLease', next, 'agent:a');
    const waiter = call(CHECKOUT, 'checkoutLease', { ...next, waitSeconds: 10 }, 'agent:w');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await call(RELEASE, 'releaseLease', { scope, resource: 'deploy-2' }, 'agent:a');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await call(CHECKOUT, 'checkoutLease', next, 'agent:newcomer')).toMatchObject({ __typename: 'LeaseHeldError', holders: [{ holder: 'agent:w' }] });
    expect((await waiter).lease.holder).toBe('agent:w');

    // Still held when the wait is over: LeaseHeldError, after the wait and not before.
    const started = Date.now();
    expect(await call(CHECKOUT, 'checkoutLease', { ...lease, waitSeconds: 1 }, 'agent:c')).toMatchObject({ __typename: 'LeaseHeldError', holders: [{ holder: 'agent:b' }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(await call(CHECKOUT, 'checkoutLease', { ...lease, waitSeconds: 31 }, 'agent:c')).toMatchObject({ __typename: 'ValidationError' });
  });

  it('leaseChanged tells subscribers of every grant, renewal, release and unlock of the resource', async () => {
    const scope = await project('leases-events');
    const watch = await sseSubscribe(h.app, parse('subscription ($s: ID!) { leaseChanged(scope: $s, resource: "db") { type resource holder mode fencingToken } }') as TypedDocumentNode<any, any>, { s: scope });
    try {
      // Probes until the subscription listens: grants on the resource, released again at once.
      await untilListening(watch.collector, async () => {
        await call(CHECKOUT, 'checkoutLease', { scope, resource: 'db', ttlSeconds: 60 }, 'agent:probe');
        await call(RELEASE, 'releaseLease', { scope, resource: 'db' }, 'agent:probe');
      });
      await watch.collector.until((r) => r.at(-1)?.data?.leaseChanged.type === 'RELEASED');
      const seen = watch.collector.results.length;
      await call(CHECKOUT, 'checkoutLease', { scope, resource: 'other', ttlSeconds: 60 }, 'agent:a');
      const granted = (await call(CHECKOUT, 'checkoutLease', { scope, resource: 'db', ttlSeconds: 60 }, 'agent:a')).lease;
      await call(RENEW, 'renewLease', { scope, resource: 'db', ttlSeconds: 120 }, 'agent:a');
      await call(RELEASE, 'releaseLease', { scope, resource: 'db' }, 'agent:a');
      await call(CHECKOUT, 'checkoutLease', { scope, resource: 'db', ttlSeconds: 60, mode: 'SHARED' }, 'agent:b');
      await call(UNLOCK, 'forceUnlock', { scope, resource: 'db' }, null);
      const events = (await watch.collector.until((r) => r.length >= seen + 5)).slice(seen).map((r) => r.data!.leaseChanged);
      // Nothing about the other resource; in commit order.
      expect(events).toEqual([
        { type: 'GRANTED', resource: 'db', holder: 'agent:a', mode: 'EXCLUSIVE', fencingToken: granted.fencingToken },
        { type: 'RENEWED', resource: 'db', holder: 'agent:a', mode: 'EXCLUSIVE', fencingToken: granted.fencingToken },
        { type: 'RELEASED', resource: 'db', holder: 'agent:a', mode: 'EXCLUSIVE', fencingToken: granted.fencingToken },
        { type: 'GRANTED', resource: 'db', holder: 'agent:b', mode: 'SHARED', fencingToken: granted.fencingToken + 1 },
        { type: 'UNLOCKED', resource: 'db', holder: null, mode: null, fencingToken: null },
      ]);
    } finally {
      watch.close();
    }
  });

  it('fencing: a write under a lease goes through while the lease is live, and is refused (nothing written) once it is not', async () => {
    const scope = await project('leases-fencing');
    const session = (await ok(h, null, 'mutation ($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }', { p: scope })).startSession.session.id;
    const guideline = (await ok(h, null, 'mutation ($s: ID!) { addGuideline(input: { scope: $s, name: "style", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }', { s: scope }))
      .addGuideline.guideline.id;
    const UPDATE = `mutation ($input: UpdateGuidelineInput!) { updateGuideline(input: $input) { __typename ... on UserError { code message } ${STATE} } }`;
    const SET = `mutation ($input: SetStateInput!) { setState(input: $input) { __typename ... on UserError { code } ${STATE} } }`;
    const APPEND = `mutation ($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename ... on UserError { code } ${STATE} } }`;
    const writes = (fencing: Record<string, unknown>, agent: string, n: number) =>
      Promise.all([
        call(UPDATE, 'updateGuideline', { id: guideline, content: `v by ${agent} ${n}`, fencing }, agent),
        call(SET, 'setState', { owner: { session }, key: 'session:step', value: n, fencing }, agent),
        call(APPEND, 'appendSessionEvent', { session, type: 'ACTION', actor: agent, content: { n }, fencing }, agent),
      ]);

    // Three seconds: the six writes below must land while the lease lives, also on a loaded machine (one second was seen to run out).
    const first = (await call(CHECKOUT, 'checkoutLease', { scope, resource: 'style', ttlSeconds: 3 }, 'agent:slow')).lease;
    const fenceA = { scope, resource: 'style', token: first.fencingToken };
    expect((await writes(fenceA, 'agent:slow', 1)).map((r) => r.__typename)).toEqual(['UpdateGuidelineSuccess', 'SetStateSuccess', 'AppendSessionEventSuccess']);
    // Another agent may not write under slow's token.
    expect((await writes(fenceA, 'agent:other', 2)).map((r) => r.currentState)).toEqual(Array(3).fill('STALE_FENCING_TOKEN'));

    // slow pauses past its lease; fast takes the resource over.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(first.expiresAt) - Date.now()) + 100));
    const second = (await call(CHECKOUT, 'checkoutLease', { scope, resource: 'style', ttlSeconds: 60 }, 'agent:fast')).lease;
    const stale = await writes(fenceA, 'agent:slow', 3);
    expect(stale.map((r) => [r.__typename, r.currentState])).toEqual(Array(3).fill(['InvalidStateError', 'STALE_FENCING_TOKEN']));
    expect((await writes({ scope, resource: 'style', token: second.fencingToken }, 'agent:fast', 4)).map((r) => r.__typename)).toEqual([
      'UpdateGuidelineSuccess',
      'SetStateSuccess',
      'AppendSessionEventSuccess',
    ]);

    // The stale writes left nothing: two versions after v1, the state and the log as fast left them.
    const after = await ok(h, null, `query ($g: ID!, $s: ID!) { entry(id: $g) { latestVersion currentVersion { ... on GuidelineVersion { content } } }
      scope(id: $s) { ... on Session { state(key: "session:step") { value } events(filter: { types: [ACTION] }) { edges { node { content } } } } } }`, { g: guideline, s: session });
    expect(after.entry).toEqual({ latestVersion: 3, currentVersion: { content: 'v by agent:fast 4' } });
    expect(after.scope.state.value).toBe(4);
    expect(after.scope.events.edges.map((e: { node: { content: unknown } }) => e.node.content)).toEqual([{ n: 1 }, { n: 4 }]);
  });

  it('refuses a checkout without a holder or with a time to live out of bounds; admins force-unlock', async () => {
    const scope = await project('leases-admin');
    expect(await call(CHECKOUT, 'checkoutLease', { scope, resource: 'x', ttlSeconds: 10 }, null)).toMatchObject({ __typename: 'ValidationError' });
    expect(await call(CHECKOUT, 'checkoutLease', { scope, resource: 'x', ttlSeconds: 0 }, 'agent:a')).toMatchObject({ __typename: 'ValidationError' });
    expect(await call(CHECKOUT, 'checkoutLease', { scope, resource: '', ttlSeconds: 10 }, 'agent:a')).toMatchObject({ __typename: 'ValidationError' });

    const writer = await principal(h, 'lease-writer', { grants: [[scope, 'WRITE']] });
    const mine = await as(h, writer.key, CHECKOUT, { input: { scope, resource: 'x', ttlSeconds: 60 } });
    expect(mine.data!.checkoutLease).toMatchObject({ lease: { holder: 'agent:lease-writer', fencingToken: 1 } });
    // Only an admin of the scope may end another's lease.
    expect((await as(h, writer.key, UNLOCK, { input: { scope, resource: 'x' } })).data!.forceUnlock).toMatchObject({ __typename: 'PermissionDeniedError' });
    expect(await call(UNLOCK, 'forceUnlock', { scope, resource: 'x' }, null)).toEqual({ __typename: 'ForceUnlockSuccess', ended: 1 });
    expect((await call(CHECKOUT, 'checkoutLease', { scope, resource: 'x', ttlSeconds: 60 }, 'agent:b')).lease.fencingToken).toBe(2);
  });

  it('a scope id nothing has is NOT_FOUND to an admin as to a grant holder, whatever is selected', async () => {
    const scope = await project('leases-unknown-scope');
    const ghost = Buffer.from('Project:00000000-0000-7000-8000-000000000000').toString('base64');
    const reader = await principal(h, 'lease-unknown-reader', { grants: [[scope, 'READ']] });
    const admin = await principal(h, 'lease-unknown-admin', { admin: true });
    for (const selection of ['totalCount', 'edges { node { resource } }', 'pageInfo { hasNextPage }']) {
      const list = `query ($s: ID!) { leases(scope: $s, resource: "x") { ${selection} } }`;
      // The local admin (no key), an admin principal, a holder of READ elsewhere.
      for (const key of [null, admin.key, reader.key]) {
        const answer = await as(h, key, list, { s: ghost });
        expect(answer.data?.leases ?? null).toBeNull();
        expect(answer.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
          { message: 'No scope has this id', extensions: { code: 'NOT_FOUND', inputPath: ['scope'] } },
        ]);
      }
    }
    // A scope that exists lists its live leases (none here) to both.
    for (const key of [null, admin.key, reader.key]) {
      expect((await as(h, key, 'query ($s: ID!) { leases(scope: $s) { totalCount edges { cursor } } }', { s: scope })).data!.leases).toEqual({ totalCount: 0, edges: [] });
    }
  });

  it('100 agents contending for 10 resources (on two instances with PostgreSQL): never two exclusive holders, tokens always newer, every stale write refused', async () => {
    const scope = await project('leases-contention');
    const holders = new Map<string, string>();
    const lastToken = new Map<string, number>();
    const violations: string[] = [];
    let grants = 0;
    let liveWrites = 0;
    const agent = async (n: number, other: App) => {
      const app = n % 2 ? other : h.app;
      for (let attempt = 0; attempt < 4; attempt++) {
        const resource = `file-${(n + attempt) % 10}`;
        const answer = await send(app, CHECKOUT, { scope, resource, ttlSeconds: 60 }, `agent:${n}`);
        if (answer.errors) violations.push(JSON.stringify(answer.errors));
        const result = answer.data?.checkoutLease;
        if (result?.__typename !== 'CheckoutLeaseSuccess') continue;
        grants++;
        if (holders.has(resource)) violations.push(`${resource}: agent:${n} granted while ${holders.get(resource)} holds it`);
        if (result.lease.fencingToken <= (lastToken.get(resource) ?? 0)) violations.push(`${resource}: token ${result.lease.fencingToken} not newer`);
        holders.set(resource, `agent:${n}`);
        lastToken.set(resource, result.lease.fencingToken);
        // A write under the live lease goes through; the same write once the lease is released is stale.
        const fencing = { scope, resource, token: result.lease.fencingToken };
        const write = (value: string) => send(app, FENCED_SET, { owner: { project: scope }, key: `project:${resource}`, value, fencing }, `agent:${n}`);
        const live = await write(`agent:${n}`);
        if (live.data?.setState.__typename !== 'SetStateSuccess') violations.push(`live write refused: ${JSON.stringify(live)}`);
        else liveWrites++;
        await new Promise((resolve) => setImmediate(resolve));
        holders.delete(resource);
        const released = await send(app, RELEASE, { scope, resource }, `agent:${n}`);
        if (released.data?.releaseLease.__typename !== 'ReleaseLeaseSuccess') violations.push(JSON.stringify(released));
        const stale = await write(`stale agent:${n}`);
        if (stale.data?.setState.currentState !== 'STALE_FENCING_TOKEN') violations.push(`stale write not refused: ${JSON.stringify(stale)}`);
      }
    };
    const contend = async (other: App) => void (await Promise.all(Array.from({ length: 100 }, (_, n) => agent(n, other))));
    // An embedded SQLite database has one server; PostgreSQL is shared by several.
    if (DB_KIND === 'postgresql') await withSecondInstance(h, (other) => contend(other.app));
    else await contend(h.app);
    expect(violations).toEqual([]);
    expect(grants).toBeGreaterThanOrEqual(10);
    expect(liveWrites).toBe(grants);
    // No stale write ever landed: every version of the resources' state keys is a live holder's.
    const owner = Buffer.from(scope, 'base64').toString().split(':')[1]!;
    const versions = await h.database.prisma.stateVersion.findMany({ where: { key: { owner } }, select: { value: true } });
    expect(versions.length).toBe(liveWrites);
    for (const { value } of versions) expect(JSON.parse(value!)).toMatch(/^agent:\d+$/);
    expect(await ok(h, null, 'query ($s: ID!) { leases(scope: $s) { totalCount edges { node { holder } } } }', { s: scope })).toEqual({ leases: { totalCount: 0, edges: [] } });
  });

  it('zombies under contention (on two instances with PostgreSQL): holders that pause past a 1 s lease while others wait for it are refused, and the state keeps only live holders\' writes, tokens in order', async () => {
    const scope = await project('leases-zombies');
    const violations: string[] = [];
    let zombies = 0;
    let live = 0;
    const agent = async (n: number, other: App) => {
      const app = n % 2 ? other : h.app;
      for (let round = 0; round < 2; round++) {
        const resource = `file-${(n + round) % 5}`;
        const answer = await send(app, CHECKOUT, { scope, resource, ttlSeconds: 1, waitSeconds: 10 }, `agent:${n}`);
        const result = answer.data?.checkoutLease;
        if (result?.__typename !== 'CheckoutLeaseSuccess') {
          if (result?.__typename !== 'LeaseHeldError') violations.push(JSON.stringify(answer));
          continue;
        }
        const { fencingToken: token, expiresAt } = result.lease as { fencingToken: number; expiresAt: string };
        const ends = Date.parse(expiresAt);
        const write = (value: string) => send(app, FENCED_SET, { owner: { project: scope }, key: `project:${resource}`, value, fencing: { scope, resource, token } }, `agent:${n}`);
        // A third of the agents pause (a GC pause, a lost network) past their lease, then write.
        if (n % 3 === 0) {
          await new Promise((resolve) => setTimeout(resolve, ends - Date.now() + 150));
          const stale = await write(`zombie:${token}`);
          zombies++;
          if (stale.data?.setState.currentState !== 'STALE_FENCING_TOKEN') violations.push(`zombie write not refused: ${JSON.stringify(stale)}`);
          continue;
        }
        const written = await write(`live:${token}`);
        // Under load a holder may itself run past its second; then it must be refused too.
        if (written.data?.setState.__typename === 'SetStateSuccess') live++;
        else if (Date.now() < ends || written.data?.setState.currentState !== 'STALE_FENCING_TOKEN') violations.push(`live write refused: ${JSON.stringify(written)}`);
        await send(app, RELEASE, { scope, resource, fencingToken: token }, `agent:${n}`);
      }
    };
    const contend = async (other: App) => void (await Promise.all(Array.from({ length: 30 }, (_, n) => agent(n, other))));
    if (DB_KIND === 'postgresql') await withSecondInstance(h, (other) => contend(other.app));
    else await contend(h.app);
    expect(violations).toEqual([]);
    expect(zombies).toBeGreaterThanOrEqual(5);
    expect(live).toBeGreaterThanOrEqual(10);
    // In each resource's history, only live holders' writes, and their tokens never go back.
    const owner = Buffer.from(scope, 'base64').toString().split(':')[1]!;
    const versions = await h.database.prisma.stateVersion.findMany({ where: { key: { owner } }, select: { value: true, keyId: true }, orderBy: { version: 'asc' } });
    expect(versions.length).toBe(live);
    const byKey = new Map<string, number[]>();
    for (const v of versions) {
      const value = JSON.parse(v.value!) as string;
      expect(value).toMatch(/^live:\d+$/);
      byKey.set(v.keyId, [...(byKey.get(v.keyId) ?? []), Number(value.slice(5))]);
    }
    for (const tokens of byKey.values()) expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
  }, 60_000);
});
