import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { principal } from './support/access.ts';
import { addKnowledge, addTool, createProject } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

// Rules of sessions.service.ts that mutation testing (npm run mutate) found unchecked: the actor
// rules and their limits, the message and argument of each refusal, archivedAt, that ending a session
// clears its temp: keys, that discarding never promotes, the order of the keys a turn clears, and the
// PROMOTED and DEACTIVATED events a SCRATCH session's end announces.

const h = useHarness();

const Start = graphql(`
  mutation MutantSessStart($input: StartSessionInput!) {
    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }
  }
`);

const Append = graphql(`
  mutation MutantSessAppend($input: AppendSessionEventInput!) {
    appendSessionEvent(input: $input) {
      __typename
      ... on AppendSessionEventSuccess { appended { event { sequence actor } } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Pause = graphql(`
  mutation MutantSessPause($id: ID!) {
    pauseSession(input: { id: $id }) {
      __typename
      ... on PauseSessionSuccess { transition { session { archivedAt } event { actor } } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Complete = graphql(`
  mutation MutantSessComplete($input: CompleteSessionInput!) {
    completeSession(input: $input) {
      __typename
      ... on CompleteSessionSuccess { transition { session { archivedAt endedAt } event { transition { promotedEntries { name } deactivatedEntries } } } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Discard = graphql(`
  mutation MutantSessDiscard($id: ID!) {
    discardSession(input: { id: $id }) {
      __typename
      ... on DiscardSessionSuccess { transition { event { transition { promotedEntries { name } deactivatedEntries } } } }
      ... on UserError { code message path }
    }
  }
`);

const Archive = graphql(`
  mutation MutantSessArchive($id: ID!) {
    archiveSession(input: { id: $id }) {
      __typename
      ... on ArchiveSessionSuccess { transition { session { archivedAt } } }
    }
  }
`);

const EndTurn = graphql(`
  mutation MutantSessEndTurn($session: ID!) {
    endTurn(input: { session: $session }) {
      __typename
      ... on EndTurnSuccess { turn { clearedKeys } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const ListState = graphql(`
  query MutantSessListState($id: ID!) {
    node(id: $id) { ... on Session { stateEntries(includeDeleted: true, first: 50) { edges { node { key } } } } }
  }
`);

const OnEntryChanged = graphql(`
  subscription MutantSessOnEntryChanged($scope: ID!) {
    entryChanged(scope: $scope) { type actor entry { name } }
  }
`);

const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');
/** The same row's id presented as another type's (the service must check the kind itself). */
const as = (type: string, id: string) => Buffer.from(`${type}:${Buffer.from(id, 'base64').toString().split(':')[1]}`).toString('base64');
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

async function start(project: string, extra: Record<string, unknown> = {}) {
  const r = (await h.ok(Start, { input: { project, ...extra } })).startSession;
  if (r.__typename !== 'StartSessionSuccess') throw new Error(JSON.stringify(r));
  return r.session.id;
}

async function append(session: string, input: Record<string, unknown> = {}, headers?: Record<string, string>) {
  return (await h.ok(Append, { input: { session, type: 'MESSAGE', actor: 'user', ...input } as never }, headers)).appendSessionEvent;
}

async function complete(input: Record<string, unknown>) {
  return (await h.ok(Complete, { input: input as never })).completeSession;
}

describe('actors', () => {
  it('an event actor is user, system or agent:<id> of at most 200 characters', async () => {
    const s = await start(await createProject(h, 'actors'));
    const longest = `agent:${'a'.repeat(194)}`;
    expect(await append(s, { actor: longest })).toMatchObject({ appended: { event: { sequence: 2, actor: longest } } });
    expect(await append(s, { actor: `${longest}a` })).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.actor: must be user, system or agent:<id>',
      path: ['input', 'actor'],
      issues: [{ path: ['input', 'actor'], message: 'must be user, system or agent:<id>' }],
    });
  });

  it('the server records the caller as actor only when its header is a well-formed actor', async () => {
    const p = await createProject(h, 'system-actor');
    const actorOf = async (header: string) => {
      const s = await start(p);
      const r = (await h.ok(Pause, { id: s }, { 'x-engram-actor': header })).pauseSession;
      return r.__typename === 'PauseSessionSuccess' ? r.transition.event.actor : r.__typename;
    };
    const longest = `agent:${'b'.repeat(194)}`;
    expect(await actorOf('agent:pauser')).toBe('agent:pauser');
    expect(await actorOf('bogus')).toBe('system');
    // The longest header kept (the context cuts X-Engram-Actor at 200 characters).
    expect(await actorOf(longest)).toBe(longest);
  });
});

describe('appending events', () => {
  it('an unknown session, or a scope of another kind, is NOT_FOUND at input.session', async () => {
    const p = await createProject(h, 'append-missing');
    const notFound = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No session has this id', path: ['input', 'session'] };
    expect(await append(missing('Session'))).toEqual(notFound);
    expect(await append(as('Session', p))).toEqual(notFound);
  });

  it('a session that is not active says which status it needs', async () => {
    const s = await start(await createProject(h, 'append-paused'));
    await h.ok(Pause, { id: s });
    expect(await append(s)).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      currentState: 'PAUSED',
      message: 'The session is PAUSED; this needs it ACTIVE',
      path: ['input', 'session'],
    });
    expect((await h.ok(EndTurn, { session: s })).endTurn).toMatchObject({ currentState: 'PAUSED', path: ['input', 'session'] });
  });

  it('names the content and the delta when they are refused', async () => {
    const p = await createProject(h, 'append-refusals');
    const s = await start(p);
    expect(await append(s, { content: nested(40) })).toMatchObject({ message: 'input.content: must nest at most 32 levels', path: ['input', 'content'] });
    const writer = await principal(h, 'append-delta-writer', { grants: [[p, 'WRITE']] });
    expect(await append(s, { stateDelta: { 'project:x': 1 } }, { authorization: `Bearer ${writer.key}` })).toMatchObject({
      __typename: 'PermissionDeniedError',
      path: ['input', 'stateDelta'],
    });
    expect(await append(s, { stateDelta: { 'user:x': 1 } })).toMatchObject({
      message: 'input.stateDelta: user: keys need a user: give userId, or a session that records one',
      path: ['input', 'stateDelta'],
    });
  });
});

describe('transitions', () => {
  it('an unknown session, or a scope of another kind, is NOT_FOUND at input.id', async () => {
    const p = await createProject(h, 'transition-missing');
    const notFound = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No session has this id', path: ['input', 'id'] };
    expect((await h.ok(Pause, { id: missing('Session') })).pauseSession).toEqual(notFound);
    expect((await h.ok(Pause, { id: as('Session', p) })).pauseSession).toEqual(notFound);
  });

  it('a refused transition names the statuses it is allowed from', async () => {
    const s = await start(await createProject(h, 'transition-messages'));
    await complete({ id: s });
    expect(await complete({ id: s })).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      currentState: 'COMPLETED',
      message: 'Cannot complete a session that is COMPLETED (allowed from ACTIVE or PAUSED)',
      path: ['input', 'id'],
    });
  });

  it('archivedAt is set by archiving only', async () => {
    const s = await start(await createProject(h, 'archived-at'));
    expect((await h.ok(Pause, { id: s })).pauseSession).toMatchObject({ transition: { session: { archivedAt: null } } });
    const done = await complete({ id: s });
    expect(done).toMatchObject({ transition: { session: { archivedAt: null } } });
    const archived = (await h.ok(Archive, { id: s })).archiveSession;
    const at = archived.__typename === 'ArchiveSessionSuccess' ? archived.transition.session.archivedAt : null;
    expect(Date.parse(at ?? '')).toBeGreaterThanOrEqual(Date.parse(done.__typename === 'CompleteSessionSuccess' ? done.transition.session.endedAt ?? '' : ''));
  });

  it('ending a session removes its temp: and session: keys, not its user: keys', async () => {
    const s = await start(await createProject(h, 'end-clears'), { userId: 'ender' });
    await append(s, { stateDelta: { 'temp:t': 1, 'session:s': 2, 'user:u': 3 } });
    await complete({ id: s });
    const r = await h.ok(ListState, { id: s });
    expect(r.node && 'stateEntries' in r.node ? r.node.stateEntries.edges.map((e) => e.node.key) : null).toEqual(['user:u']);
  });

  it('a turn clears its temp: keys, listed by name', async () => {
    const s = await start(await createProject(h, 'turn-order'));
    await append(s, { stateDelta: { 'temp:b': 1 } });
    await append(s, { stateDelta: { 'temp:a': 1, 'temp:c': 1 } });
    expect((await h.ok(EndTurn, { session: s })).endTurn).toEqual({ __typename: 'EndTurnSuccess', turn: { clearedKeys: ['temp:a', 'temp:b', 'temp:c'] } });
  });
});

describe('promotion', () => {
  it('at most 1000 entries, each an active entry of the session, and only for a SCRATCH session', async () => {
    const p = await createProject(h, 'promote-refusals');
    const s = await start(p, { mode: 'SCRATCH' });
    const entries = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`Tool:0190a0a0-0000-7000-8000-${String(i).padStart(12, '0')}`).toString('base64'));
    expect(await complete({ id: s, promote: entries(1_001) })).toMatchObject({
      message: 'input.promote: must list at most 1000 entries',
      issues: [{ path: ['input', 'promote'], message: 'must list at most 1000 entries' }],
    });
    const unknown = await complete({ id: s, promote: entries(1_000) });
    expect(unknown).toMatchObject({ __typename: 'ValidationError', message: '1000 invalid fields' });
    expect(unknown.__typename === 'ValidationError' ? unknown.issues[999] : null).toEqual({
      path: ['input', 'promote', '999'],
      message: 'is not an active entry of this session',
    });
    const working = await start(p);
    expect(await complete({ id: working, promote: [await addTool(h, working, 'w')] })).toMatchObject({
      message: 'input.promote: only a SCRATCH session promotes entries',
      path: ['input', 'promote'],
    });
  });

  it('names every entry whose name the project already has', async () => {
    const p = await createProject(h, 'promote-taken');
    const s = await start(p, { mode: 'SCRATCH', autoPromote: true });
    for (const name of ['a', 'b', 'c']) await addTool(h, s, name);
    await addTool(h, p, 'a');
    await addTool(h, p, 'c');
    const r = await complete({ id: s });
    expect(r).toMatchObject({ __typename: 'AlreadyExistsError', path: ['input', 'promote'] });
    const message = r.__typename === 'AlreadyExistsError' ? r.message : '';
    // The project's entries come in no promised order.
    const names = (x: string, y: string) => `The project already has a tool named "${x}", a tool named "${y}"; rename or leave out before promoting`;
    expect([names('a', 'c'), names('c', 'a')]).toContain(message);
  });

  it('a name the project has for another kind of entry does not stop a promotion', async () => {
    const p = await createProject(h, 'promote-other-kind');
    const s = await start(p, { mode: 'SCRATCH', autoPromote: true });
    await addTool(h, s, 'shared');
    await addKnowledge(h, p, 'shared');
    expect(await complete({ id: s })).toMatchObject({
      __typename: 'CompleteSessionSuccess',
      transition: { event: { transition: { promotedEntries: [{ name: 'shared' }], deactivatedEntries: 0 } } },
    });
  });

  it('discarding a SCRATCH session promotes nothing, even with auto-promote', async () => {
    const p = await createProject(h, 'discard-no-promote');
    const s = await start(p, { mode: 'SCRATCH', autoPromote: true });
    await addTool(h, s, 'scratch-only');
    expect((await h.ok(Discard, { id: s })).discardSession).toEqual({
      __typename: 'DiscardSessionSuccess',
      transition: { event: { transition: { promotedEntries: [], deactivatedEntries: 1 } } },
    });
  });
});

describe('events of a SCRATCH session ending', () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('announces PROMOTED in the project and DEACTIVATED in the session, with the actor', async () => {
    const p = await createProject(h, 'promote-events');
    const s = await start(p, { mode: 'SCRATCH' });
    const keep = await addTool(h, s, 'keep');
    await addTool(h, s, 'drop');
    const inProject = await sseSubscribe(h.app, OnEntryChanged, { scope: p });
    const inSession = await sseSubscribe(h.app, OnEntryChanged, { scope: s });
    close = () => {
      inProject.close();
      inSession.close();
    };
    let probes = 0;
    await untilListening(inProject.collector, () => addTool(h, p, `probe-${probes++}`));
    await untilListening(inSession.collector, () => addTool(h, s, `probe-${probes++}`));
    const before = [inProject.collector.results.length, inSession.collector.results.length] as const;
    const r = await h.ok(Complete, { input: { id: s, promote: [keep] } }, { 'x-engram-actor': 'agent:closer' });
    expect(r.completeSession.__typename).toBe('CompleteSessionSuccess');
    await inProject.collector.until((rs) => rs.some((x) => x.data?.entryChanged.type === 'PROMOTED'));
    await inSession.collector.until((rs) => rs.filter((x) => x.data?.entryChanged.type === 'DEACTIVATED').length >= 2);
    const seen = (results: typeof inProject.collector.results, from: number) =>
      results.slice(from).map((x) => `${x.data!.entryChanged.type} ${x.data!.entryChanged.entry?.name} ${x.data!.entryChanged.actor}`).sort();
    expect(seen(inProject.collector.results, before[0])).toEqual(['PROMOTED keep agent:closer']);
    expect(seen(inSession.collector.results, before[1])).toEqual([`DEACTIVATED drop agent:closer`, `DEACTIVATED probe-${probes - 1} agent:closer`]);
  });
});
