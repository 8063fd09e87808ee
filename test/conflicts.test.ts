import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject, startSession } from './support/ops.ts';

const h = useHarness();

const UpdateTool = graphql(`
  mutation ConflictUpdateTool($input: UpdateToolInput!) {
    updateTool(input: $input) {
      __typename
      ... on UpdateToolSuccess {
        update {
          conflicted
          version { id version conflictFlag }
          conflictWith { id version }
          conflict { id versionA { version } versionB { version } }
        }
      }
      ... on WriteConflictError { code currentVersion currentVersionId path }
      ... on UserError { code message }
    }
  }
`);

const UpdateGuideline = graphql(`
  mutation ConflictUpdateGuideline($input: UpdateGuidelineInput!) {
    updateGuideline(input: $input) {
      __typename
      ... on UpdateGuidelineSuccess { update { conflicted conflict { id } } }
      ... on UserError { code }
    }
  }
`);

const EntryState = graphql(`
  query ConflictEntryState($id: ID!) {
    entry(id: $id) {
      latestVersion
      hasUnresolvedConflicts
      unresolvedConflictCount
      currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }
      versions(first: 100) { totalCount edges { node { version conflictFlag } } }
      conflicts { id resolved }
    }
  }
`);

const Conflicts = graphql(`
  query ConflictList($filter: ConflictFilter) {
    conflicts(filter: $filter, first: 100) {
      totalCount
      edges { node { id resolved entry { name } versionA { version } versionB { version } } }
    }
  }
`);

const ConflictDetail = graphql(`
  query ConflictDetail($id: ID!) {
    conflict(id: $id) {
      id
      resolved
      resolution
      note
      resolvedBy
      resolvedAt
      entry { id }
      versionA { version ... on ToolVersion { description } }
      versionB { version conflictFlag ... on ToolVersion { description } }
      resolutionVersion { version ... on ToolVersion { description } }
    }
  }
`);

const Resolve = graphql(`
  mutation Resolve($input: ResolveConflictInput!) {
    resolveConflict(input: $input) {
      __typename
      ... on ResolveConflictSuccess {
        resolution { conflict { resolved resolution note resolvedBy } version { version ... on ToolVersion { description constraints } } }
      }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const ToolsWithWarnings = graphql(`
  query ToolsWithWarnings($scope: ID!) {
    tools(filter: { scope: $scope }) { edges { node { name } } warnings { code message entry { name } } }
    scope(id: $scope) { entries { warnings { code entry { name } } } }
  }
`);

async function conflictOn(toolId: string) {
  await h.ok(UpdateTool, { input: { id: toolId, description: 'mine', expectedVersion: 1, author: 'agent:a' } });
  const r = await h.ok(UpdateTool, { input: { id: toolId, description: 'theirs', expectedVersion: 1, author: 'agent:b' } });
  if (r.updateTool.__typename !== 'UpdateToolSuccess' || !r.updateTool.update.conflict) throw new Error(JSON.stringify(r));
  return r.updateTool.update.conflict.id;
}

/**
 * The queries sent to pg clients while `work` runs, and those sent to a client still busy with an
 * earlier one (what pg 8.19+ deprecates). Counted on pg's Client, which every connection of the pool is.
 */
async function overlappingQueries(work: () => Promise<unknown>): Promise<{ queries: number; sentToBusyClient: string[] }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const busy = new WeakMap<object, number>();
  const seen = { queries: 0, sentToBusyClient: [] as string[] };
  prototype.query = function (this: object, ...args: unknown[]) {
    const running = busy.get(this) ?? 0;
    seen.queries++;
    if (running > 0) seen.sentToBusyClient.push(String((args[0] as { text?: string }).text ?? args[0]).slice(0, 120));
    busy.set(this, running + 1);
    const done = () => busy.set(this, (busy.get(this) ?? 1) - 1);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return seen;
}

/** The first event of a subscription replayed from the start of the change feed, over SSE in-process. */
async function firstReplayed(document: string, variables: Record<string, unknown>): Promise<{ data?: unknown; errors?: unknown[] }> {
  const controller = new AbortController();
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: document, variables }),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const event = /event: next\ndata: (.+)\n/.exec(text);
    if (event) {
      controller.abort();
      return JSON.parse(event[1]!) as { data?: unknown; errors?: unknown[] };
    }
  }
  throw new Error(`no event: ${text}`);
}

describe('conflict detection', () => {
  it("a replayed conflictDetected of an entry deleted since has conflict null (it was an unexpected error)", async () => {
    const p = await createProject(h, 'replay-deleted');
    const id = await addTool(h, p, 'gone', { description: 'base', author: 'agent:a' });
    await conflictOn(id);
    const removed = await h.app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }', variables: { id } }),
    });
    expect(((await removed.json()) as { data: { deleteEntry: { __typename: string } } }).data.deleteEntry.__typename).toBe('DeleteEntrySuccess');
    const replayed = await firstReplayed('subscription($s: ID!) { conflictDetected(scope: $s, after: "0") { type conflict { id } } }', { s: p });
    expect(replayed).toEqual({ data: { conflictDetected: { type: 'DETECTED', conflict: null } } });
  });

  it('a write based on an old version is kept, flagged, and linked to the version it raced', async () => {
    const p = await createProject(h, 'detect');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    const first = await h.ok(UpdateTool, { input: { id, description: 'A', expectedVersion: 1, author: 'agent:a' } });
    expect(first.updateTool).toMatchObject({ update: { conflicted: false, conflict: null, version: { version: 2 } } });
    const second = await h.ok(UpdateTool, { input: { id, description: 'B', expectedVersion: 1, author: 'agent:b' } });
    expect(second.updateTool).toMatchObject({
      update: { conflicted: true, version: { version: 3, conflictFlag: true }, conflictWith: { version: 2 }, conflict: { versionA: { version: 2 }, versionB: { version: 3 } } },
    });
    const state = await h.ok(EntryState, { id });
    expect(state.entry).toMatchObject({ latestVersion: 3, hasUnresolvedConflicts: true, unresolvedConflictCount: 1 });
    expect(state.entry?.versions.edges.map((e) => [e.node.version, e.node.conflictFlag])).toEqual([[3, true], [2, false], [1, false]]);
  });

  it('without expectedVersion, another writer within the window conflicts; the same writer does not', async () => {
    const p = await createProject(h, 'window');
    const id = await addGuideline(h, p, 'g', { author: 'agent:a' });
    const same = await h.ok(UpdateGuideline, { input: { id, content: 'v2', author: 'agent:a' } });
    expect(same.updateGuideline).toMatchObject({ update: { conflicted: false } });
    const other = await h.ok(UpdateGuideline, { input: { id, content: 'v3', author: 'agent:b' } });
    expect(other.updateGuideline).toMatchObject({ update: { conflicted: true } });
  });

  it('onConflict: REJECT returns a typed error with the current version and writes nothing', async () => {
    const p = await createProject(h, 'reject');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    await h.ok(UpdateTool, { input: { id, description: 'A', author: 'agent:a' } });
    const rejected = await h.ok(UpdateTool, {
      input: { id, description: 'B', expectedVersion: 1, author: 'agent:b', onConflict: 'REJECT' },
    });
    expect(rejected.updateTool).toMatchObject({ __typename: 'WriteConflictError', code: 'WRITE_CONFLICT', currentVersion: 2, path: ['input', 'expectedVersion'] });
    const state = await h.ok(EntryState, { id });
    expect(state.entry).toMatchObject({ latestVersion: 2, hasUnresolvedConflicts: false, currentVersion: { description: 'A' } });
    if (rejected.updateTool.__typename === 'WriteConflictError') {
      const node = await h.ok(graphql(`query RejectedCurrent($id: ID!) { node(id: $id) { ... on EntryVersion { version } } }`), {
        id: rejected.updateTool.currentVersionId,
      });
      expect(node.node).toEqual({ version: 2 });
    }
    // With a current expectedVersion, REJECT writes normally.
    const ok = await h.ok(UpdateTool, { input: { id, description: 'C', expectedVersion: 2, author: 'agent:b', onConflict: 'REJECT' } });
    expect(ok.updateTool).toMatchObject({ update: { conflicted: false, version: { version: 3 } } });
  });

  it('50 concurrent updates: versions 1..51 gapless, none lost, each conflict recorded once, no lock error', async () => {
    const p = await createProject(h, 'stampede');
    const id = await addTool(h, p, 'hot', { description: 'v1', author: 'agent:0' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.gql(UpdateTool, { input: { id, description: `from ${i + 1}`, expectedVersion: 1, author: `agent:${i + 1}` } }),
      ),
    );
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    const written = results.map((r) => (r.data?.updateTool.__typename === 'UpdateToolSuccess' ? r.data.updateTool.update : null));
    expect(written.every((u) => u !== null)).toBe(true);
    expect(written.map((u) => u!.version.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    const state = await h.ok(EntryState, { id });
    expect(state.entry?.latestVersion).toBe(51);
    expect(state.entry?.versions.totalCount).toBe(51);
    const descriptions = new Set(
      (await h.ok(Conflicts, { filter: { scope: p } })).conflicts.edges.map((e) => e.node.versionB.version),
    );
    // Every write after the first was based on version 1 and conflicted with the version before it.
    expect(state.entry?.unresolvedConflictCount).toBe(49);
    expect(descriptions.size).toBe(49);
    const conflicts = await h.ok(Conflicts, { filter: { scope: p } });
    for (const { node } of conflicts.conflicts.edges) expect(node.versionB.version).toBe(node.versionA.version + 1);
  });
});

describe('listing conflicts', () => {
  it('filters by scope (with descendants), resolution state and kind; lists warn', async () => {
    const p = await createProject(h, 'listing');
    const s = await startSession(h, p);
    const inProject = await addTool(h, p, 'p-tool', { description: 'x', author: 'agent:a' });
    const inSession = await addTool(h, s, 's-tool', { description: 'x', author: 'agent:a' });
    await addKnowledge(h, p, 'calm');
    const c1 = await conflictOn(inProject);
    await conflictOn(inSession);
    expect((await h.ok(Conflicts, { filter: { scope: p } })).conflicts.totalCount).toBe(1);
    expect((await h.ok(Conflicts, { filter: { scope: p, includeDescendants: true } })).conflicts.totalCount).toBe(2);
    expect((await h.ok(Conflicts, { filter: { scope: p, includeDescendants: true, kind: 'GUIDELINE' } })).conflicts.totalCount).toBe(0);
    const warned = await h.ok(ToolsWithWarnings, { scope: p });
    expect(warned.tools.warnings).toEqual([{ code: 'UNRESOLVED_CONFLICTS', message: '"p-tool" has 1 unresolved conflict(s)', entry: { name: 'p-tool' } }]);
    expect(warned.scope?.entries.warnings.map((w) => w.entry.name)).toEqual(['p-tool']);
    await h.ok(Resolve, { input: { id: c1, strategy: 'TAKE_INCOMING' } });
    expect((await h.ok(Conflicts, { filter: { scope: p, includeDescendants: true, resolved: false } })).conflicts.totalCount).toBe(1);
    expect((await h.ok(Conflicts, { filter: { scope: p, resolved: true } })).conflicts.totalCount).toBe(1);
    expect((await h.ok(ToolsWithWarnings, { scope: p })).tools.warnings).toEqual([]);
  });
});

describe('resolving conflicts', () => {
  it('KEEP_CURRENT appends a version with the content that was current; nothing is deleted', async () => {
    const p = await createProject(h, 'keep');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    const conflict = await conflictOn(id); // v2 "mine", v3 "theirs" (flagged)
    const detail = await h.ok(ConflictDetail, { id: conflict });
    expect(detail.conflict).toMatchObject({
      resolved: false,
      versionA: { version: 2, description: 'mine' },
      versionB: { version: 3, description: 'theirs', conflictFlag: true },
      resolutionVersion: null,
    });
    const r = await h.ok(Resolve, { input: { id: conflict, strategy: 'KEEP_CURRENT', note: 'mine is right', resolvedBy: 'human:1' } });
    expect(r.resolveConflict).toMatchObject({
      resolution: { conflict: { resolved: true, resolution: 'KEPT_CURRENT', note: 'mine is right', resolvedBy: 'human:1' }, version: { version: 4, description: 'mine' } },
    });
    const state = await h.ok(EntryState, { id });
    expect(state.entry).toMatchObject({ latestVersion: 4, hasUnresolvedConflicts: false, currentVersion: { description: 'mine' } });
    expect(state.entry?.versions.totalCount).toBe(4);
    expect((await h.ok(ConflictDetail, { id: conflict })).conflict?.resolutionVersion).toEqual({ version: 4, description: 'mine' });
  });

  // Prisma reads an `include`'s relations side by side; in a transaction they would share its one
  // pg client, whose queue of waiting queries pg 9 removes (src/infra/pg-transactions.ts).
  it.runIf(DB_KIND === 'postgresql')('a resolution (a transaction that reads relations) sends pg one query at a time', async () => {
    const p = await createProject(h, 'one-at-a-time');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    const conflict = await conflictOn(id);
    const overlaps = await overlappingQueries(() => h.ok(Resolve, { input: { id: conflict, strategy: 'KEEP_CURRENT' } }));
    expect(overlaps.queries).toBeGreaterThan(3);
    expect(overlaps.sentToBusyClient).toEqual([]);
  });

  it('TAKE_INCOMING when the incoming version is current writes nothing new', async () => {
    const p = await createProject(h, 'take');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    const conflict = await conflictOn(id);
    const r = await h.ok(Resolve, { input: { id: conflict, strategy: 'TAKE_INCOMING' } }, { 'x-engram-actor': 'human:2' });
    expect(r.resolveConflict).toMatchObject({ resolution: { conflict: { resolution: 'TOOK_INCOMING', resolvedBy: 'human:2' }, version: null } });
    expect((await h.ok(EntryState, { id })).entry).toMatchObject({ latestVersion: 3, currentVersion: { description: 'theirs' } });
  });

  it('MERGE writes the merged content; fields left out come from the incoming version', async () => {
    const p = await createProject(h, 'merge');
    const id = await addTool(h, p, 't', { description: 'base', constraints: 'c0', author: 'agent:a' });
    const conflict = await conflictOn(id);
    const missing = await h.ok(Resolve, { input: { id: conflict, strategy: 'MERGE' } });
    expect(missing.resolveConflict).toMatchObject({ __typename: 'ValidationError', path: ['input', 'merged'] });
    const wrongField = await h.ok(Resolve, { input: { id: conflict, strategy: 'MERGE', merged: { content: 'not for tools' } } });
    expect(wrongField.resolveConflict).toMatchObject({ __typename: 'ValidationError', path: ['input', 'merged', 'content'] });
    const r = await h.ok(Resolve, { input: { id: conflict, strategy: 'MERGE', merged: { description: 'mine + theirs' } } });
    expect(r.resolveConflict).toMatchObject({
      resolution: { conflict: { resolution: 'MERGED' }, version: { version: 4, description: 'mine + theirs', constraints: 'c0' } },
    });
  });

  it('resolving twice is a typed error, even concurrently', async () => {
    const p = await createProject(h, 'twice');
    const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
    const conflict = await conflictOn(id);
    const both = await Promise.all([
      h.ok(Resolve, { input: { id: conflict, strategy: 'KEEP_CURRENT' } }),
      h.ok(Resolve, { input: { id: conflict, strategy: 'TAKE_INCOMING' } }),
    ]);
    const kinds = both.map((r) => r.resolveConflict.__typename).sort();
    expect(kinds).toEqual(['InvalidStateError', 'ResolveConflictSuccess']);
    const again = await h.ok(Resolve, { input: { id: conflict, strategy: 'KEEP_CURRENT' } });
    expect(again.resolveConflict).toMatchObject({ __typename: 'InvalidStateError', code: 'INVALID_STATE', currentState: 'RESOLVED' });
    const unknown = Buffer.from('Conflict:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    expect((await h.ok(Resolve, { input: { id: unknown, strategy: 'KEEP_CURRENT' } })).resolveConflict).toMatchObject({ __typename: 'NotFoundError' });
  });
});

describe('the conflict window', () => {
  // A window short enough to wait out; the file's other tests run with the default 5 s.
  const WINDOW_MS = 100;
  const w = useHarness({ settings: { conflictWindowMs: WINDOW_MS } });

  it('an update by another writer after the conflict window has passed does not conflict', async () => {
    const p = await createProject(w, 'window-passed');
    const id = await addTool(w, p, 't', { description: 'base', author: 'agent:a' });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 2));
    const later = await w.ok(UpdateTool, { input: { id, description: 'later', author: 'agent:b', onConflict: 'REJECT' } });
    expect(later.updateTool).toMatchObject({ __typename: 'UpdateToolSuccess', update: { conflicted: false, conflict: null, version: { version: 2, conflictFlag: false } } });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 2));
    const back = await w.ok(UpdateTool, { input: { id, description: 'back', author: 'agent:a' } });
    expect(back.updateTool).toMatchObject({ update: { conflicted: false, version: { version: 3, conflictFlag: false } } });
    const state = await w.ok(EntryState, { id });
    expect(state.entry).toMatchObject({ latestVersion: 3, hasUnresolvedConflicts: false, unresolvedConflictCount: 0, conflicts: [] });
  });
});
