import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { principal } from './support/access.ts';
import { useHarness, withSecondInstance } from './support/harness.ts';
import { addTool, createProject } from './support/ops.ts';

const h = useHarness();
/** In-process calls without a key act as the local admin (protected mode): they may write every namespace. */
const ADMIN = {};
/** A principal with WRITE on one project: it may not write app: or project: state there. */
let writers = 0;
async function writerOn(project: string): Promise<Record<string, string>> {
  const writer = await principal(h, `writer-${++writers}`, { grants: [[project, 'WRITE']] });
  return { authorization: `Bearer ${writer.key}` };
}

const Start = graphql(`
  mutation SessStart($input: StartSessionInput!) {
    startSession(input: $input) {
      __typename
      ... on StartSessionSuccess { session { id status mode userId appName eventCount turn } }
      ... on UserError { code message path }
    }
  }
`);

const Pause = graphql(`
  mutation SessPause($id: ID!) {
    pauseSession(input: { id: $id }) {
      __typename
      ... on PauseSessionSuccess { transition { session { status } event { sequence type transition { from to } } } }
      ... on InvalidStateError { code currentState message }
    }
  }
`);
const Resume = graphql(`
  mutation SessResume($id: ID!) {
    resumeSession(input: { id: $id }) {
      __typename
      ... on ResumeSessionSuccess { transition { session { status } event { sequence transition { from to } } } }
      ... on InvalidStateError { code currentState message }
    }
  }
`);
const Complete = graphql(`
  mutation SessComplete($input: CompleteSessionInput!) {
    completeSession(input: $input) {
      __typename
      ... on CompleteSessionSuccess {
        transition {
          session { status endedAt }
          event { sequence transition { from to deactivatedEntries promotedEntries { id name scope { id } latestVersion active } } }
        }
      }
      ... on InvalidStateError { code currentState message }
      ... on UserError { code message path }
    }
  }
`);
const Discard = graphql(`
  mutation SessDiscard($id: ID!) {
    discardSession(input: { id: $id }) {
      __typename
      ... on DiscardSessionSuccess { transition { session { status } event { transition { from to deactivatedEntries } } } }
      ... on InvalidStateError { code currentState }
    }
  }
`);
const Archive = graphql(`
  mutation SessArchive($id: ID!) {
    archiveSession(input: { id: $id }) {
      __typename
      ... on ArchiveSessionSuccess { transition { session { status archivedAt } event { transition { from to } } } }
      ... on InvalidStateError { code currentState }
    }
  }
`);

const Append = graphql(`
  mutation SessAppend($input: AppendSessionEventInput!) {
    appendSessionEvent(input: $input) {
      __typename
      ... on AppendSessionEventSuccess { appended { event { id sequence type actor content stateDelta } session { eventCount } } }
      ... on InvalidStateError { currentState }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const Events = graphql(`
  query SessEvents($id: ID!, $filter: SessionEventFilter, $first: Int, $after: String) {
    node(id: $id) {
      ... on Session {
        eventCount
        events(filter: $filter, first: $first, after: $after) {
          totalCount
          pageInfo { hasNextPage endCursor }
          edges { node { sequence type actor content createdAt transition { from to } } }
        }
      }
    }
  }
`);

const ReadState = graphql(`
  query SessReadState($id: ID!, $key: String!) {
    node(id: $id) {
      ... on Session {
        state(key: $key) { key namespace value entry { id key version owner } shadowed { key namespace value } }
      }
    }
  }
`);

const ListState = graphql(`
  query SessListState($id: ID!, $pattern: String, $includeDeleted: Boolean, $namespaces: [StateNamespace!], $first: Int, $after: String) {
    node(id: $id) {
      ... on Session {
        stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, namespaces: $namespaces, first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          edges { node { key namespace value deleted } }
        }
      }
    }
  }
`);

const SetState = graphql(`
  mutation SessSetState($input: SetStateInput!) {
    setState(input: $input) {
      __typename
      ... on SetStateSuccess { state { id key namespace value version deleted } }
      ... on UserError { code message path }
    }
  }
`);
const DeleteState = graphql(`
  mutation SessDeleteState($input: DeleteStateInput!) {
    deleteState(input: $input) {
      __typename
      ... on DeleteStateSuccess { state { id version deleted value } }
      ... on UserError { code message path }
    }
  }
`);
const RestoreState = graphql(`
  mutation SessRestoreState($input: RestoreStateInput!) {
    restoreState(input: $input) {
      __typename
      ... on RestoreStateSuccess { state { version value deleted } }
      ... on UserError { code message path }
    }
  }
`);
const History = graphql(`
  query SessStateHistory($id: ID!) {
    node(id: $id) {
      ... on StateKey { key history(first: 50) { edges { node { version value deleted restoredFrom event { sequence } } } } }
    }
  }
`);
const EndTurn = graphql(`
  mutation SessEndTurn($session: ID!) {
    endTurn(input: { session: $session }) {
      __typename
      ... on EndTurnSuccess { turn { clearedKeys session { turn } event { type content } } }
      ... on UserError { code message }
    }
  }
`);
const AddToolIn = graphql(`
  mutation SessAddTool($input: AddToolInput!) {
    addTool(input: $input) { __typename ... on AddToolSuccess { tool { id } } ... on InvalidStateError { currentState } ... on UserError { code } }
  }
`);
const UpdateToolIn = graphql(`
  mutation SessUpdateTool($input: UpdateToolInput!) {
    updateTool(input: $input) { __typename ... on InvalidStateError { currentState } ... on UserError { code } }
  }
`);

async function start(project: string, extra: Record<string, unknown> = {}) {
  const r = await h.ok(Start, { input: { project, ...extra } });
  if (r.startSession.__typename !== 'StartSessionSuccess') throw new Error(JSON.stringify(r.startSession));
  return r.startSession.session;
}

async function append(session: string, input: Record<string, unknown>, headers?: Record<string, string>) {
  return (await h.ok(Append, { input: { session, type: 'MESSAGE', actor: 'user', ...input } as never }, headers)).appendSessionEvent;
}

async function set(owner: Record<string, unknown>, key: string, value: unknown, headers?: Record<string, string>) {
  return (await h.ok(SetState, { input: { owner, key, value } as never }, headers)).setState;
}

async function read(session: string, key: string) {
  const r = await h.ok(ReadState, { id: session, key });
  return r.node && 'state' in r.node ? r.node.state : undefined;
}

describe('session lifecycle', () => {
  it('moves through explicit transitions, refuses invalid ones naming the status, and logs each', async () => {
    const p = await createProject(h, 'lifecycle');
    const s = await start(p);
    expect(s).toMatchObject({ status: 'ACTIVE', eventCount: 1, turn: 1 });

    expect((await h.ok(Pause, { id: s.id })).pauseSession).toMatchObject({
      transition: { session: { status: 'PAUSED' }, event: { sequence: 2, type: 'LIFECYCLE', transition: { from: 'ACTIVE', to: 'PAUSED' } } },
    });
    const twice = (await h.ok(Pause, { id: s.id })).pauseSession;
    expect(twice).toMatchObject({ __typename: 'InvalidStateError', code: 'INVALID_STATE', currentState: 'PAUSED' });
    expect(twice.__typename === 'InvalidStateError' && twice.message).toMatch(/PAUSED/);
    expect((await h.ok(Archive, { id: s.id })).archiveSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'PAUSED' });
    expect((await h.ok(Resume, { id: s.id })).resumeSession).toMatchObject({
      transition: { session: { status: 'ACTIVE' }, event: { sequence: 3, transition: { from: 'PAUSED', to: 'ACTIVE' } } },
    });
    expect((await h.ok(Resume, { id: s.id })).resumeSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ACTIVE' });
    const done = (await h.ok(Complete, { input: { id: s.id } })).completeSession;
    expect(done).toMatchObject({ transition: { session: { status: 'COMPLETED' }, event: { sequence: 4, transition: { from: 'ACTIVE', to: 'COMPLETED' } } } });
    expect((await h.ok(Resume, { id: s.id })).resumeSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'COMPLETED' });
    expect((await h.ok(Discard, { id: s.id })).discardSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'COMPLETED' });
    expect((await h.ok(Archive, { id: s.id })).archiveSession).toMatchObject({
      transition: { session: { status: 'ARCHIVED' }, event: { transition: { from: 'COMPLETED', to: 'ARCHIVED' } } },
    });
    expect((await h.ok(Archive, { id: s.id })).archiveSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED' });

    const log = await h.ok(Events, { id: s.id });
    const events = log.node && 'events' in log.node ? log.node.events.edges.map((e) => e.node) : [];
    expect(events.map((e) => [e.sequence, e.type, e.transition?.from ?? null, e.transition?.to])).toEqual([
      [1, 'LIFECYCLE', null, 'ACTIVE'],
      [2, 'LIFECYCLE', 'ACTIVE', 'PAUSED'],
      [3, 'LIFECYCLE', 'PAUSED', 'ACTIVE'],
      [4, 'LIFECYCLE', 'ACTIVE', 'COMPLETED'],
      [5, 'LIFECYCLE', 'COMPLETED', 'ARCHIVED'],
    ]);
  });

  it('a paused session can be completed or discarded without resuming it first', async () => {
    const p = await createProject(h, 'paused-ends');
    const toComplete = await start(p);
    await h.ok(Pause, { id: toComplete.id });
    expect((await h.ok(Complete, { input: { id: toComplete.id } })).completeSession).toMatchObject({
      __typename: 'CompleteSessionSuccess',
      transition: { session: { status: 'COMPLETED' }, event: { sequence: 3, transition: { from: 'PAUSED', to: 'COMPLETED' } } },
    });
    const toDiscard = await start(p);
    await h.ok(Pause, { id: toDiscard.id });
    expect((await h.ok(Discard, { id: toDiscard.id })).discardSession).toMatchObject({
      __typename: 'DiscardSessionSuccess',
      transition: { session: { status: 'DISCARDED' }, event: { transition: { from: 'PAUSED', to: 'DISCARDED', deactivatedEntries: 0 } } },
    });
    expect((await h.ok(Pause, { id: toDiscard.id })).pauseSession).toMatchObject({ __typename: 'InvalidStateError', currentState: 'DISCARDED' });
  });

  it('keeps an archived session read-only: no events, state, entries or entry changes', async () => {
    const p = await createProject(h, 'archived');
    const s = await start(p, { userId: 'ann' });
    const tool = await addTool(h, s.id, 'kept');
    await h.ok(Discard, { id: s.id });
    await h.ok(Archive, { id: s.id });
    expect(await append(s.id, { content: { text: 'late' } })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED' });
    expect(await set({ session: s.id }, 'user:x', 1)).toMatchObject({ __typename: 'InvalidStateError' });
    expect((await h.ok(AddToolIn, { input: { scope: s.id, name: 'new' } })).addTool).toMatchObject({
      __typename: 'InvalidStateError',
      currentState: 'ARCHIVED',
    });
    expect((await h.ok(UpdateToolIn, { input: { id: tool, description: 'changed' } })).updateTool).toMatchObject({
      __typename: 'InvalidStateError',
      currentState: 'ARCHIVED',
    });
    const log = await h.ok(Events, { id: s.id });
    expect(log.node && 'eventCount' in log.node && log.node.eventCount).toBe(3);
  });

  it('two sessions promoting entries of one name at once: one wins, the other is told the name is taken', async () => {
    // Two instances with their own pools: both checks pass before either moves its entry.
    await withSecondInstance(h, async (other) => {
      const p = await createProject(h, 'promotion-race');
      for (let round = 0; round < 4; round++) {
        const a = await start(p, { mode: 'SCRATCH' });
        const b = await start(p, { mode: 'SCRATCH' });
        const name = `finding-${round}`;
        const [ea, eb] = [await addTool(h, a.id, name), await addTool(h, b.id, name)];
        const complete = async (instance: Pick<typeof h, 'gql'>, id: string, entry: string) => {
          const result = await instance.gql(Complete, { input: { id, promote: [entry] } });
          return result.errors ?? result.data?.completeSession.__typename;
        };
        const outcomes = await Promise.all([complete(h, a.id, ea), complete(other, b.id, eb)]);
        expect(outcomes.sort()).toEqual(['AlreadyExistsError', 'CompleteSessionSuccess']);
      }
    });
  });

  it('a SCRATCH session promotes the picked entries with their history and deactivates the rest', async () => {
    const p = await createProject(h, 'scratch');
    const s = await start(p, { mode: 'SCRATCH' });
    const keep = await addTool(h, s.id, 'keep-me');
    const drop = await addTool(h, s.id, 'drop-me');
    await h.ok(UpdateToolIn, { input: { id: keep, description: 'v2' } });

    const wrong = (await h.ok(Complete, { input: { id: s.id, promote: [await addTool(h, p, 'outside')] } })).completeSession;
    expect(wrong).toMatchObject({ __typename: 'ValidationError', path: ['input', 'promote', '0'] });

    const r = (await h.ok(Complete, { input: { id: s.id, promote: [keep] } })).completeSession;
    expect(r).toMatchObject({
      __typename: 'CompleteSessionSuccess',
      transition: {
        session: { status: 'COMPLETED' },
        event: {
          transition: {
            from: 'ACTIVE',
            to: 'COMPLETED',
            deactivatedEntries: 1,
            promotedEntries: [{ id: keep, name: 'keep-me', scope: { id: p }, latestVersion: 2, active: true }],
          },
        },
      },
    });
    const Entry = graphql(`query SessEntry($id: ID!) { entry(id: $id) { active scope { id } versions(first: 5) { edges { node { version } } } } }`);
    expect((await h.ok(Entry, { id: keep })).entry).toMatchObject({ scope: { id: p }, versions: { edges: [{ node: { version: 2 } }, { node: { version: 1 } }] } });
    expect((await h.ok(Entry, { id: drop })).entry).toMatchObject({ active: false, scope: { id: s.id } });
  });

  it('auto-promote promotes everything; a name taken in the project refuses the completion and changes nothing', async () => {
    const p = await createProject(h, 'scratch-auto');
    const s = await start(p, { mode: 'SCRATCH', autoPromote: true });
    await addTool(h, s.id, 'one');
    await addTool(h, s.id, 'two');
    await addTool(h, p, 'two');
    const refused = (await h.ok(Complete, { input: { id: s.id } })).completeSession;
    expect(refused).toMatchObject({ __typename: 'AlreadyExistsError', path: ['input', 'promote'] });
    expect(refused.__typename === 'AlreadyExistsError' && refused.message).toMatch(/"two"/);
    const log = await h.ok(Events, { id: s.id });
    expect(log.node && 'eventCount' in log.node && log.node.eventCount).toBe(1);

    const s2 = await start(p, { mode: 'SCRATCH', autoPromote: true });
    await addTool(h, s2.id, 'three');
    await addTool(h, s2.id, 'four');
    const ok = (await h.ok(Complete, { input: { id: s2.id } })).completeSession;
    expect(ok.__typename === 'CompleteSessionSuccess' && ok.transition.event.transition?.promotedEntries.map((e) => e.name).sort()).toEqual(['four', 'three']);

    // An explicit pick wins over the session's auto-promote setting.
    const picky = await start(p, { mode: 'SCRATCH', autoPromote: true });
    const six = await addTool(h, picky.id, 'six');
    await addTool(h, picky.id, 'seven');
    const picked = (await h.ok(Complete, { input: { id: picky.id, promote: [six] } })).completeSession;
    expect(picked).toMatchObject({ transition: { event: { transition: { promotedEntries: [{ name: 'six' }], deactivatedEntries: 1 } } } });

    const s3 = await start(p, { mode: 'SCRATCH' });
    await addTool(h, s3.id, 'five');
    expect((await h.ok(Discard, { id: s3.id })).discardSession).toMatchObject({ transition: { event: { transition: { deactivatedEntries: 1 } } } });

    const working = await start(p);
    const none = (await h.ok(Complete, { input: { id: working.id, autoPromote: true } })).completeSession;
    expect(none).toMatchObject({ __typename: 'ValidationError', path: ['input', 'promote'] });
  });
});

describe('session event log', () => {
  it('appends typed events with gapless sequences and filters by type, actor and time', async () => {
    const p = await createProject(h, 'log');
    const s = await start(p);
    const first = await append(s.id, { type: 'MESSAGE', actor: 'user', content: { text: 'hi' } });
    expect(first).toMatchObject({ appended: { event: { sequence: 2, type: 'MESSAGE', actor: 'user', content: { text: 'hi' } }, session: { eventCount: 2 } } });
    await append(s.id, { type: 'TOOL_CALL', actor: 'agent:coder', content: { tool: 'read_file', inputs: { path: 'a.ts' } } });
    const mid = new Date(Date.now() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await append(s.id, { type: 'REFLECTION', actor: 'agent:coder', content: 'thinking' });
    await append(s.id, { type: 'ACTION', actor: 'system' });

    const bad = await append(s.id, { actor: 'robot', type: 'LIFECYCLE' });
    expect(bad).toMatchObject({ __typename: 'ValidationError' });
    const badActor = await append(s.id, { actor: 'robot' });
    expect(badActor).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'actor'] }] });

    const byActor = await h.ok(Events, { id: s.id, filter: { actor: 'agent:coder' } });
    const nodes = (r: typeof byActor) => (r.node && 'events' in r.node ? r.node.events.edges.map((e) => e.node) : []);
    expect(nodes(byActor).map((e) => [e.sequence, e.type])).toEqual([[3, 'TOOL_CALL'], [4, 'REFLECTION']]);
    const byType = await h.ok(Events, { id: s.id, filter: { types: ['MESSAGE', 'ACTION'] } });
    expect(nodes(byType).map((e) => e.sequence)).toEqual([2, 5]);
    const since = await h.ok(Events, { id: s.id, filter: { since: mid } });
    expect(nodes(since).map((e) => e.sequence)).toEqual([4, 5]);
    const until = await h.ok(Events, { id: s.id, filter: { until: mid, types: ['MESSAGE', 'TOOL_CALL', 'LIFECYCLE'] } });
    expect(nodes(until).map((e) => e.sequence)).toEqual([1, 2, 3]);

    const page1 = await h.ok(Events, { id: s.id, first: 2 });
    const page2 = page1.node && 'events' in page1.node
      ? await h.ok(Events, { id: s.id, first: 2, after: page1.node.events.pageInfo.endCursor })
      : page1;
    expect(page1.node && 'events' in page1.node && page1.node.events.totalCount).toBe(5);
    expect(nodes(page2).map((e) => e.sequence)).toEqual([3, 4]);
  });

  it('pages events backwards with last and before, a filter applying to every page', async () => {
    const Back = graphql(`
      query SessEventsBack($id: ID!, $filter: SessionEventFilter, $last: Int, $before: String) {
        node(id: $id) {
          ... on Session {
            events(filter: $filter, last: $last, before: $before) {
              totalCount
              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
              edges { cursor node { sequence } }
            }
          }
        }
      }
    `);
    const p = await createProject(h, 'log-backwards');
    const s = await start(p);
    for (let i = 0; i < 6; i++) await append(s.id, { type: i % 2 ? 'ACTION' : 'MESSAGE', actor: 'user' });
    const page = async (vars: { last: number; before?: string | null; filter?: { types: Array<'ACTION' | 'MESSAGE'> } }) => {
      const r = await h.ok(Back, { id: s.id, ...vars });
      if (!r.node || !('events' in r.node)) throw new Error(JSON.stringify(r));
      return { ...r.node.events, sequences: r.node.events.edges.map((e) => e.node.sequence) };
    };
    const last = await page({ last: 3 });
    expect(last).toMatchObject({ totalCount: 7, sequences: [5, 6, 7] });
    expect(last.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, startCursor: last.edges[0]!.cursor, endCursor: last.edges[2]!.cursor });
    const before = await page({ last: 3, before: last.pageInfo.startCursor });
    expect(before.sequences).toEqual([2, 3, 4]);
    expect(before.pageInfo.hasPreviousPage).toBe(true);
    const opening = await page({ last: 3, before: before.pageInfo.startCursor });
    expect(opening.sequences).toEqual([1]);
    expect(opening.pageInfo).toMatchObject({ hasPreviousPage: false, startCursor: opening.edges[0]!.cursor, endCursor: opening.edges[0]!.cursor });
    const actions = await page({ last: 2, filter: { types: ['ACTION'] } });
    expect(actions).toMatchObject({ totalCount: 3, sequences: [5, 7], pageInfo: { hasPreviousPage: true } });
    expect((await page({ last: 2, before: actions.pageInfo.startCursor, filter: { types: ['ACTION'] } })).sequences).toEqual([3]);
  });

  it('20 concurrent appenders get gapless sequences, and the state equals the deltas applied in sequence order', async () => {
    const p = await createProject(h, 'concurrent');
    const s = await start(p);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        append(s.id, {
          type: 'STATE_CHANGE',
          actor: `agent:w${i}`,
          content: { writer: i },
          stateDelta: { 'session:last': i, [`session:writer_${i}`]: true, 'session:log': `w${i}` },
        }),
      ),
    );
    const events = results.map((r) => {
      if (r.__typename !== 'AppendSessionEventSuccess') throw new Error(JSON.stringify(r));
      return r.appended.event;
    });
    expect(events.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const bySequence = [...events].sort((a, b) => a.sequence - b.sequence);
    const lastWriter = (bySequence.at(-1)!.content as { writer: number }).writer;
    expect((await read(s.id, 'last'))?.value).toBe(lastWriter);
    expect((await read(s.id, 'session:log'))?.value).toBe(`w${lastWriter}`);
    for (let i = 0; i < 20; i++) expect((await read(s.id, `writer_${i}`))?.value).toBe(true);

    // The key's history replays the deltas in sequence order, one version per event.
    const entry = (await read(s.id, 'session:last'))!.entry;
    expect(entry.version).toBe(20);
    const history = await h.ok(History, { id: entry.id });
    const versions = history.node && 'history' in history.node ? history.node.history.edges.map((e) => e.node) : [];
    const replay = [...versions].reverse();
    expect(replay.map((v) => v.event?.sequence)).toEqual(bySequence.map((e) => e.sequence));
    expect(replay.map((v) => v.value)).toEqual(bySequence.map((e) => (e.content as { writer: number }).writer));
  });

  it('refuses a delta it may not write and then writes nothing', async () => {
    const p = await createProject(h, 'delta-denied');
    const s = await start(p, { appName: 'ide' });
    const denied = await append(s.id, { stateDelta: { 'session:a': 1, 'project:b': 2 } }, await writerOn(p));
    expect(denied).toMatchObject({ __typename: 'PermissionDeniedError', code: 'FORBIDDEN' });
    const unprefixed = await append(s.id, { stateDelta: { plain: 1 } });
    expect(unprefixed).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'stateDelta', 'plain'] }] });
    const noUser = await append(s.id, { stateDelta: { 'user:x': 1 } });
    expect(noUser).toMatchObject({ __typename: 'ValidationError' });
    expect(await read(s.id, 'a')).toBeNull();
    const log = await h.ok(Events, { id: s.id });
    expect(log.node && 'eventCount' in log.node && log.node.eventCount).toBe(1);
    const allowed = await append(s.id, { stateDelta: { 'session:a': 1, 'app:b': 2 } }, ADMIN);
    expect(allowed).toMatchObject({ appended: { event: { sequence: 2, stateDelta: { 'session:a': 1, 'app:b': 2 } } } });
    expect(await read(s.id, 'b')).toMatchObject({ namespace: 'APP', value: 2 });
  });
});

describe('namespaced state', () => {
  it('resolves temp > session > user > app > project and says which namespace answered', async () => {
    const p = await createProject(h, 'precedence');
    const s = await start(p, { userId: 'alice', appName: 'ide' });
    const writer = await writerOn(p);
    expect(await set({ session: s.id }, 'project:model', 'project-default', writer)).toMatchObject({ __typename: 'PermissionDeniedError' });
    expect(await set({ session: s.id }, 'app:model', 'x', writer)).toMatchObject({ __typename: 'PermissionDeniedError' });
    expect(await set({ session: s.id }, 'project:model', 'project-default', ADMIN)).toMatchObject({ state: { namespace: 'PROJECT' } });
    expect(await set({ appName: 'ide' }, 'app:model', 'app-default', ADMIN)).toMatchObject({ state: { namespace: 'APP' } });
    expect(await set({ userId: 'alice' }, 'user:model', 'alice-choice')).toMatchObject({ state: { namespace: 'USER' } });
    await set({ session: s.id }, 'session:model', 'session-override');
    const temp = await set({ session: s.id }, 'temp:model', 'this-turn');

    const all = await read(s.id, 'model');
    expect(all).toMatchObject({ key: 'model', namespace: 'TEMP', value: 'this-turn' });
    expect(all?.shadowed.map((k) => [k.namespace, k.value])).toEqual([
      ['SESSION', 'session-override'],
      ['USER', 'alice-choice'],
      ['APP', 'app-default'],
      ['PROJECT', 'project-default'],
    ]);
    expect(await read(s.id, 'project:model')).toMatchObject({ namespace: 'PROJECT', value: 'project-default', shadowed: [] });

    // Peel the namespaces off one by one.
    const steps: Array<[string, string, string | null]> = [
      ['temp:model', 'SESSION', 'session-override'],
      ['session:model', 'USER', 'alice-choice'],
      ['user:model', 'APP', 'app-default'],
    ];
    for (const [key, namespace, value] of steps) {
      expect(await h.ok(DeleteState, { input: { owner: { session: s.id }, key } })).toMatchObject({ deleteState: { state: { deleted: true } } });
      expect(await read(s.id, 'model')).toMatchObject({ namespace, value });
    }
    await h.ok(DeleteState, { input: { owner: { session: s.id }, key: 'app:model' } }, ADMIN);
    expect(await read(s.id, 'model')).toMatchObject({ namespace: 'PROJECT', value: 'project-default' });
    await h.ok(DeleteState, { input: { owner: { project: p }, key: 'project:model' } }, ADMIN);
    expect(await read(s.id, 'model')).toBeNull();
    expect(temp.__typename).toBe('SetStateSuccess');
  });

  it('user: keys follow the user across sessions; temp: keys end with the turn, session: keys with the session', async () => {
    const p = await createProject(h, 'lifetimes');
    const s1 = await start(p, { userId: 'bob' });
    await append(s1.id, { stateDelta: { 'user:theme': 'dark', 'session:step': 1, 'temp:draft': 'x', 'temp:scratch': 'y' } });
    const turn = (await h.ok(EndTurn, { session: s1.id })).endTurn;
    expect(turn).toMatchObject({
      turn: { clearedKeys: ['temp:draft', 'temp:scratch'], session: { turn: 2 }, event: { type: 'STATE_CHANGE', content: { turnEnded: 1 } } },
    });
    expect(await read(s1.id, 'draft')).toBeNull();
    expect(await read(s1.id, 'step')).toMatchObject({ value: 1 });
    await h.ok(Complete, { input: { id: s1.id } });
    expect(await read(s1.id, 'step')).toBeNull();
    expect(await read(s1.id, 'theme')).toMatchObject({ namespace: 'USER', value: 'dark' });
    const s2 = await start(p, { userId: 'bob' });
    expect(await read(s2.id, 'theme')).toMatchObject({ namespace: 'USER', value: 'dark' });
    const other = await start(p, { userId: 'carol' });
    expect(await read(other.id, 'theme')).toBeNull();
    expect((await h.ok(EndTurn, { session: s1.id })).endTurn).toMatchObject({ __typename: 'InvalidStateError' });
  });

  it('versions every write: history, soft delete and restore', async () => {
    const p = await createProject(h, 'versions');
    const s = await start(p);
    await set({ session: s.id }, 'session:plan', { step: 1 });
    await set({ session: s.id }, 'session:plan', { step: 2 });
    const deleted = (await h.ok(DeleteState, { input: { owner: { session: s.id }, key: 'session:plan' } })).deleteState;
    expect(deleted).toMatchObject({ state: { version: 3, deleted: true, value: null } });
    expect(await read(s.id, 'plan')).toBeNull();
    const again = (await h.ok(DeleteState, { input: { owner: { session: s.id }, key: 'session:plan' } })).deleteState;
    expect(again).toMatchObject({ __typename: 'NotFoundError' });
    const id = deleted.__typename === 'DeleteStateSuccess' ? deleted.state.id : '';
    expect((await h.ok(RestoreState, { input: { key: id, version: 1 } })).restoreState).toMatchObject({
      state: { version: 4, value: { step: 1 }, deleted: false },
    });
    expect(await read(s.id, 'plan')).toMatchObject({ value: { step: 1 } });
    expect((await h.ok(RestoreState, { input: { key: id, version: 9 } })).restoreState).toMatchObject({ __typename: 'NotFoundError' });
    const history = await h.ok(History, { id });
    expect(history.node && 'history' in history.node && history.node.history.edges.map((e) => e.node)).toEqual([
      { version: 4, value: { step: 1 }, deleted: false, restoredFrom: 1, event: null },
      { version: 3, value: null, deleted: true, restoredFrom: null, event: null },
      { version: 2, value: { step: 2 }, deleted: false, restoredFrom: null, event: null },
      { version: 1, value: { step: 1 }, deleted: false, restoredFrom: null, event: null },
    ]);
    const invalid = await set({ session: s.id }, 'plan', 1);
    expect(invalid).toMatchObject({ __typename: 'ValidationError', path: ['input', 'key'] });
    const badSegment = await set({ session: s.id }, 'session:a::b', 1);
    expect(badSegment).toMatchObject({ __typename: 'ValidationError' });
  });

  it('lists keys by segment-wise wildcard, one per name, with paging', async () => {
    const p = await createProject(h, 'wildcards');
    const s = await start(p, { userId: 'dana' });
    await append(s.id, {
      stateDelta: {
        'session:agent:a:b:user_1': 1,
        'session:agent:a:user_1': 2,
        'session:agent:x:y:user_2': 3,
        'session:agent:a:b:admin': 4,
        'session:agent:a:b:userX': 5,
        'session:Agent:a:b:user_9': 6,
        'user:agent:q:r:user_3': 7,
        'user:agent:a:b:user_1': 8,
      },
    });
    const list = async (pattern: string | null, extra: Record<string, unknown> = {}) => {
      const r = await h.ok(ListState, { id: s.id, pattern, ...extra });
      return r.node && 'stateEntries' in r.node ? r.node.stateEntries : null;
    };
    const matched = await list('agent:*:*:user_*');
    // One per name: agent:a:b:user_1 comes from the session (it hides the user key); `_` is literal, case matters.
    expect(matched?.edges.map((e) => [e.node.key, e.node.value])).toEqual([
      ['session:agent:a:b:user_1', 1],
      ['user:agent:q:r:user_3', 7],
      ['session:agent:x:y:user_2', 3],
    ]);
    expect((await list('user:agent:*:*:*'))?.edges.map((e) => e.node.key)).toEqual(['user:agent:a:b:user_1', 'user:agent:q:r:user_3']);
    expect((await list('agent:*'))?.edges).toEqual([]);
    expect((await list(null, { namespaces: ['USER'] }))?.edges.map((e) => e.node.key)).toEqual(['user:agent:a:b:user_1', 'user:agent:q:r:user_3']);
    expect((await list('agent:a:*:*', { namespaces: ['USER'] }))?.edges.map((e) => e.node.key)).toEqual(['user:agent:a:b:user_1']);
    expect((await list('agent:a:*'))?.edges.map((e) => e.node.key)).toEqual(['session:agent:a:user_1']);
    const page1 = await list(null, { first: 3 });
    expect(page1?.pageInfo.hasNextPage).toBe(true);
    const page2 = await list(null, { first: 10, after: page1?.pageInfo.endCursor });
    expect([...(page1?.edges ?? []), ...(page2?.edges ?? [])].map((e) => e.node.key)).toEqual([
      'session:Agent:a:b:user_9',
      'session:agent:a:b:admin',
      'session:agent:a:b:userX',
      'session:agent:a:b:user_1',
      'session:agent:a:user_1',
      'user:agent:q:r:user_3',
      'session:agent:x:y:user_2',
    ]);
    const bad = await h.gql(ListState, { id: s.id, pattern: 'agent:(x)' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('pages state keys backwards with last and before', async () => {
    // stateEntries is paged by hand (one key per name, by name): backwards must mirror forwards.
    const Back = graphql(`
      query SessStateBack($id: ID!, $last: Int, $before: String) {
        node(id: $id) {
          ... on Session {
            stateEntries(last: $last, before: $before) {
              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
              edges { cursor node { key } }
            }
          }
        }
      }
    `);
    const p = await createProject(h, 'state-backwards');
    const s = await start(p, { userId: 'erin' });
    await append(s.id, { stateDelta: { 'session:a': 1, 'session:b': 2, 'user:c': 3, 'session:d': 4, 'session:e': 5 } });
    const page = async (vars: { last: number; before?: string | null }) => {
      const r = await h.ok(Back, { id: s.id, ...vars });
      if (!r.node || !('stateEntries' in r.node)) throw new Error(JSON.stringify(r));
      return r.node.stateEntries;
    };
    const last2 = await page({ last: 2 });
    expect(last2.edges.map((e) => e.node.key)).toEqual(['session:d', 'session:e']);
    expect(last2.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, startCursor: last2.edges[0]!.cursor, endCursor: last2.edges[1]!.cursor });
    const middle = await page({ last: 2, before: last2.pageInfo.startCursor });
    expect(middle.edges.map((e) => e.node.key)).toEqual(['session:b', 'user:c']);
    expect(middle.pageInfo.hasPreviousPage).toBe(true);
    const first = await page({ last: 2, before: middle.pageInfo.startCursor });
    expect(first.edges.map((e) => e.node.key)).toEqual(['session:a']);
    expect(first.pageInfo).toMatchObject({ hasPreviousPage: false, startCursor: first.edges[0]!.cursor });
  });

  it('stateEntries: first: 0 answers a cursor to go on from (from the start) where keys follow, null where none do; never ""', async () => {
    const Edges = graphql(`
      query SessStateEdges($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {
        node(id: $id) {
          ... on Session {
            stateEntries(first: $first, last: $last, after: $after, before: $before) {
              pageInfo { hasNextPage endCursor hasPreviousPage startCursor }
              edges { cursor node { key } }
            }
          }
        }
      }
    `);
    const p = await createProject(h, 'state-first-0');
    const s = await start(p, { userId: 'erin' });
    await append(s.id, { stateDelta: { 'session:c': 3, 'user:a': 1, 'session:b': 2 } });
    const list = async (id: string, vars: { first?: number; last?: number; after?: string | null; before?: string | null }) => {
      const r = await h.ok(Edges, { id, ...vars });
      if (!r.node || !('stateEntries' in r.node)) throw new Error(JSON.stringify(r));
      return r.node.stateEntries;
    };
    const keys = (page: Awaited<ReturnType<typeof list>>) => page.edges.map((e) => e.node.key);
    const all = await list(s.id, { first: 100 });
    expect(keys(all)).toEqual(['user:a', 'session:b', 'session:c']);

    const none = await list(s.id, { first: 0 });
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: null });
    expect(none.pageInfo.endCursor).toEqual(expect.stringMatching(/^.+$/));
    // Its end cursor is where the list starts: the next page is the first one.
    expect(keys(await list(s.id, { first: 100, after: none.pageInfo.endCursor }))).toEqual(keys(all));
    expect(keys(await list(s.id, { first: 2, after: none.pageInfo.endCursor }))).toEqual(['user:a', 'session:b']);
    // Given a cursor, an empty page stays at it.
    const stay = await list(s.id, { first: 0, after: all.edges[0]!.cursor });
    expect(stay.pageInfo).toMatchObject({ hasNextPage: true, endCursor: all.edges[0]!.cursor });

    // Backwards the same: last: 0 answers a start cursor before which the list ends at its last key.
    const back = await list(s.id, { last: 0 });
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, endCursor: null });
    expect(back.pageInfo.startCursor).toEqual(expect.stringMatching(/^.+$/));
    expect(keys(await list(s.id, { last: 2, before: back.pageInfo.startCursor }))).toEqual(['session:b', 'session:c']);

    // Nothing to page: no cursor at all, as on the API's other lists.
    const empty = await start(p, { userId: 'frank' });
    for (const first of [0, 10]) {
      expect((await list(empty.id, { first })).pageInfo).toEqual({ hasNextPage: false, endCursor: null, hasPreviousPage: false, startCursor: null });
    }
    // A text that is not one of the list's cursors (a key's name as such) is refused, as on the API's other lists.
    const bad = await h.gql(Edges, { id: s.id, after: 'a' });
    expect(bad.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }))).toEqual([{ message: 'after: is not a cursor of this list', code: 'VALIDATION_FAILED' }]);
  });
});
