import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

// Rules of state.service.ts that mutation testing (npm run mutate) found unchecked: the limits of
// keys, patterns and deltas and the message and argument of each refusal; which owner each namespace
// needs; that a null in a delta deletes; includeDeleted; exact-name patterns; and the read, write and
// session-state checks of restoreState.

const h = useHarness();

const Start = graphql(`
  mutation MutantStateStart($input: StartSessionInput!) {
    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }
  }
`);

const Complete = graphql(`
  mutation MutantStateComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

const Pause = graphql(`
  mutation MutantStatePause($id: ID!) { pauseSession(input: { id: $id }) { __typename } }
`);

const SetState = graphql(`
  mutation MutantSetState($input: SetStateInput!) {
    setState(input: $input) {
      __typename
      ... on SetStateSuccess { state { id key version value deleted } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const DeleteState = graphql(`
  mutation MutantDeleteState($input: DeleteStateInput!) {
    deleteState(input: $input) {
      __typename
      ... on DeleteStateSuccess { state { version deleted } }
      ... on UserError { code message path }
    }
  }
`);

const RestoreState = graphql(`
  mutation MutantRestoreState($input: RestoreStateInput!) {
    restoreState(input: $input) {
      __typename
      ... on RestoreStateSuccess { state { key version value deleted } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Append = graphql(`
  mutation MutantStateAppend($input: AppendSessionEventInput!) {
    appendSessionEvent(input: $input) {
      __typename
      ... on AppendSessionEventSuccess { appended { event { sequence } } }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const Read = graphql(`
  query MutantStateRead($id: ID!, $key: String!) {
    node(id: $id) { ... on Session { state(key: $key) { namespace value } } }
  }
`);

const List = graphql(`
  query MutantStateList($id: ID!, $pattern: String, $includeDeleted: Boolean) {
    node(id: $id) { ... on Session { stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, first: 50) { edges { node { key deleted } } } } }
  }
`);

const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');
/** The same row's id presented as another type's (the service must check the kind itself). */
const as = (type: string, id: string) => Buffer.from(`${type}:${Buffer.from(id, 'base64').toString().split(':')[1]}`).toString('base64');

async function start(name: string, extra: Record<string, unknown> = {}) {
  const project = await createProject(h, name);
  const r = (await h.ok(Start, { input: { project, ...extra } })).startSession;
  if (r.__typename !== 'StartSessionSuccess') throw new Error(JSON.stringify(r));
  return { project, session: r.session.id };
}

async function set(owner: Record<string, unknown>, key: string, value: unknown, headers?: Record<string, string>) {
  return (await h.ok(SetState, { input: { owner, key, value } as never }, headers)).setState;
}

async function restore(key: string, version: number, headers?: Record<string, string>) {
  return (await h.ok(RestoreState, { input: { key, version } }, headers)).restoreState;
}

async function append(session: string, stateDelta: unknown) {
  return (await h.ok(Append, { input: { session, type: 'MESSAGE', actor: 'user', stateDelta } as never })).appendSessionEvent;
}

async function read(session: string, key: string) {
  const r = await h.gql(Read, { id: session, key });
  if (r.errors) return { error: r.errors[0]!.message };
  return r.data?.node && 'state' in r.data.node ? r.data.node.state : undefined;
}

async function list(session: string, pattern: string | null, includeDeleted?: boolean) {
  const r = await h.gql(List, { id: session, pattern, includeDeleted });
  if (r.errors) return { error: r.errors[0]!.message };
  return r.data?.node && 'stateEntries' in r.data.node ? r.data.node.stateEntries.edges.map((e) => [e.node.key, e.node.deleted]) : undefined;
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe('state keys and patterns', () => {
  it('a key is 1-200 characters, prefixed, of valid segments; each refusal says why', async () => {
    const { session } = await start('state-keys');
    const owner = { session };
    const longest = `session:${'k'.repeat(192)}`;
    expect(await set(owner, longest, 1)).toMatchObject({ __typename: 'SetStateSuccess', state: { key: longest } });
    expect(await set(owner, `${longest}k`, 1)).toMatchObject({ message: 'input.key: must be 1-200 characters', path: ['input', 'key'] });
    expect(await set(owner, '', 1)).toMatchObject({ message: 'input.key: must be 1-200 characters' });
    // "users" is no prefix: only what comes before a colon is.
    expect(await set(owner, 'users', 1)).toMatchObject({
      message: 'input.key: must start with a namespace: temp:, session:, user:, app: or project:',
    });
    expect(await set(owner, 'session:a::b', 1)).toMatchObject({
      message: 'input.key: must be colon-separated segments of letters, digits and _ . @ + -',
    });
    expect(await read(session, 'a b')).toEqual({ error: 'key: must be colon-separated segments of letters, digits and _ . @ + -' });
  });

  it('a pattern is 1-200 characters of segments and wildcards; without a wildcard it names one key', async () => {
    const { session } = await start('state-patterns');
    await append(session, { 'session:a:b': 1, 'session:a:bc': 2, 'session:a': 3 });
    expect(await list(session, 'a:b')).toEqual([['session:a:b', false]]);
    expect(await list(session, `a:${'*'.repeat(198)}`)).toEqual([['session:a:b', false], ['session:a:bc', false]]);
    expect(await list(session, `a:${'*'.repeat(199)}`)).toEqual({ error: 'pattern: must be 1-200 characters' });
    // An empty pattern is one too short, not no pattern (every key).
    expect(await list(session, '')).toEqual({ error: 'pattern: must be 1-200 characters' });
    expect(await list(session, 'a:(b)')).toEqual({
      error: 'pattern: must be colon-separated segments of letters, digits, _ . @ + - and the wildcard *',
    });
  });

  it('lists deleted keys only when asked', async () => {
    const { session } = await start('state-include-deleted');
    await append(session, { 'session:kept': 1, 'session:gone': 2 });
    await append(session, { 'session:gone': null });
    expect(await list(session, null)).toEqual([['session:kept', false]]);
    expect(await list(session, null, true)).toEqual([['session:gone', true], ['session:kept', false]]);
    expect(await read(session, 'gone')).toBeNull();
  });
});

describe('state deltas', () => {
  it('must be an object of at most 100 keys, each value valid JSON, named by key', async () => {
    const { session } = await start('state-deltas');
    expect(await append(session, [1])).toMatchObject({
      message: 'input.stateDelta: must be a JSON object of state keys',
      issues: [{ path: ['input', 'stateDelta'], message: 'must be a JSON object of state keys' }],
    });
    expect(await append(session, 'text')).toMatchObject({ message: 'input.stateDelta: must be a JSON object of state keys' });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`session:k${i}`, i]));
    expect(await append(session, keys(101))).toMatchObject({
      message: 'input.stateDelta: must write at most 100 keys',
      issues: [{ path: ['input', 'stateDelta'], message: 'must write at most 100 keys' }],
    });
    expect(await append(session, keys(100))).toMatchObject({ __typename: 'AppendSessionEventSuccess' });
    expect(await append(session, { 'session:deep': nested(40) })).toMatchObject({
      issues: [{ path: ['input', 'stateDelta', 'session:deep'], message: 'must nest at most 32 levels' }],
    });
    expect(await append(session, null)).toMatchObject({ __typename: 'AppendSessionEventSuccess' });
  });
});

describe('owners of state keys', () => {
  it('each namespace needs its owner; the refusal says which', async () => {
    const { project, session } = await start('state-owners');
    const refusal = (message: string) => ({ __typename: 'ValidationError', message: `input.owner: ${message}`, path: ['input', 'owner'] });
    expect(await set({ userId: 'u' }, 'temp:x', 1)).toMatchObject(refusal('temp: keys belong to a session: give one'));
    expect(await set({ userId: 'u' }, 'session:x', 1)).toMatchObject(refusal('session: keys belong to a session: give one'));
    expect(await set({ session }, 'user:x', 1)).toMatchObject(refusal('user: keys need a user: give userId, or a session that records one'));
    expect(await set({ session }, 'app:x', 1)).toMatchObject(refusal('app: keys need an application: give appName, or a session that records one'));
    expect(await set({ userId: 'u' }, 'project:x', 1)).toMatchObject(refusal('project: keys need a project: give one, or a session'));
    expect(await set({ project }, 'project:x', 1)).toMatchObject({ __typename: 'SetStateSuccess' });
  });

  it('an unknown session or project, or a scope of another kind, is NOT_FOUND at its argument', async () => {
    const { project, session } = await start('state-owner-kinds');
    const notFound = (what: string, arg: string) => ({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: `No ${what} has this id`, path: ['input', 'owner', arg] });
    expect(await set({ session: missing('Session') }, 'session:x', 1)).toEqual(notFound('session', 'session'));
    expect(await set({ session: as('Session', project) }, 'session:x', 1)).toEqual(notFound('session', 'session'));
    expect(await set({ project: missing('Project') }, 'project:x', 1)).toEqual(notFound('project', 'project'));
    expect(await set({ project: as('Project', session) }, 'project:x', 1)).toEqual(notFound('project', 'project'));
  });

  it('names an owner argument that is too long, and a value that is not valid JSON for state', async () => {
    const long = 'x'.repeat(201);
    expect(await set({ userId: long, appName: long }, 'user:x', 1)).toMatchObject({
      issues: [
        { path: ['input', 'owner', 'userId'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'owner', 'appName'], message: 'must be at most 200 characters (got 201)' },
      ],
    });
    expect(await set({ userId: 'u' }, 'user:deep', nested(40))).toMatchObject({
      message: 'input.value: must nest at most 32 levels',
      path: ['input', 'value'],
    });
  });

  it('a session that is not active takes no state; the error names its status and the argument', async () => {
    const { session } = await start('state-inactive', { userId: 'ivy' });
    await h.ok(Complete, { id: session });
    expect(await set({ session }, 'session:x', 1)).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      currentState: 'COMPLETED',
      message: 'Only an active session takes state writes (this one is COMPLETED)',
      path: ['input', 'owner', 'session'],
    });
  });

  it('the caller is told which keys it may not write, at input.key', async () => {
    const { project, session } = await start('state-denied');
    const writer = await principal(h, 'state-denied-writer', { grants: [[project, 'WRITE']] });
    expect(await set({ session }, 'project:x', 1, { authorization: `Bearer ${writer.key}` })).toEqual({
      __typename: 'PermissionDeniedError',
      code: 'FORBIDDEN',
      message: 'The caller may not write project: keys of this project',
      path: ['input', 'key'],
    });
  });

  it('deleting a key that does not exist (or no longer) is NOT_FOUND, naming the key', async () => {
    const { session } = await start('state-delete-missing');
    const r = await h.ok(DeleteState, { input: { owner: { session }, key: 'session:never' } });
    expect(r.deleteState).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No key session:never to delete', path: ['input', 'key'] });
  });
});

describe('restoreState', () => {
  it('checks that the caller may read the key (else it is missing) and write it', async () => {
    const { project, session } = await start('state-restore-access');
    const other = await createProject(h, 'state-restore-elsewhere');
    const written = await set({ session }, 'session:plan', 'v1');
    await set({ session }, 'session:plan', 'v2');
    const id = written.__typename === 'SetStateSuccess' ? written.state.id : '';
    const bearer = async (name: string, scope: string, role: string) => ({
      authorization: `Bearer ${(await principal(h, name, { grants: [[scope, role]] })).key}`,
    });
    const notFound = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No state key has this id', path: ['input', 'key'] };
    expect(await restore(missing('StateKey'), 1)).toEqual(notFound);
    expect(await restore(id, 1, await bearer('restore-outsider', other, 'WRITE'))).toEqual(notFound);
    expect(await restore(id, 1, await bearer('restore-reader', project, 'READ'))).toMatchObject({
      __typename: 'PermissionDeniedError',
      path: ['input', 'key'],
    });
    expect(await restore(id, 1, await bearer('restore-writer', project, 'WRITE'))).toEqual({
      __typename: 'RestoreStateSuccess',
      state: { key: 'session:plan', version: 3, value: 'v1', deleted: false },
    });
    expect(await restore(id, 7)).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'The key has no version 7',
      path: ['input', 'version'],
    });
  });

  it('temp: and session: keys are restored only while their session is active; user: keys any time', async () => {
    // Paused, not ended: ending a session removes its temp: and session: keys.
    const { session } = await start('state-restore-inactive', { userId: 'restorer' });
    const ids: Record<string, string> = {};
    for (const key of ['temp:t', 'session:s', 'user:u']) {
      const r = await set({ session }, key, 1);
      ids[key] = r.__typename === 'SetStateSuccess' ? r.state.id : '';
    }
    expect((await h.ok(Pause, { id: session })).pauseSession.__typename).toBe('PauseSessionSuccess');
    for (const key of ['temp:t', 'session:s']) {
      expect(await restore(ids[key]!, 1)).toEqual({
        __typename: 'InvalidStateError',
        code: 'INVALID_STATE',
        currentState: 'PAUSED',
        message: 'Only an active session takes state writes (this one is PAUSED)',
        path: ['input', 'key'],
      });
    }
    expect(await restore(ids['user:u']!, 1)).toMatchObject({ __typename: 'RestoreStateSuccess', state: { version: 2, value: 1 } });
  });
});
