import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject, startSession } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

// Rules of entries.service.ts that mutation testing (npm run mutate) found unchecked: which fields
// each kind takes and the message and argument of each refusal (single adds, bulk imports and
// updates), the defaults and trimming of new entries, what an update does to category and priority,
// the messages of refused conflicting writes, and the events of (de)activation.

const h = useHarness();

const Import = graphql(`
  mutation MutantImport($input: ImportEntriesInput!) {
    importEntries(input: $input) {
      __typename
      ... on ImportEntriesSuccess {
        imported {
          count
          entries {
            name
            category
            createdBy
            latestVersion
            currentVersion { version createdBy ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { confidence } }
            ... on Guideline { priority }
          }
        }
      }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const AddTool = graphql(`
  mutation MutantEntryAddTool($input: AddToolInput!) {
    addTool(input: $input) {
      __typename
      ... on AddToolSuccess { tool { id name category createdBy active } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const AddKnowledge = graphql(`
  mutation MutantEntryAddKnowledge($input: AddKnowledgeInput!) {
    addKnowledge(input: $input) {
      __typename
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const UpdateTool = graphql(`
  mutation MutantEntryUpdateTool($input: UpdateToolInput!) {
    updateTool(input: $input) {
      __typename
      ... on UpdateToolSuccess { update { version { version conflictFlag changeReason } entry { category } conflict { resolved } } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on WriteConflictError { currentVersion }
      ... on UserError { code message path }
    }
  }
`);

const UpdateGuideline = graphql(`
  mutation MutantEntryUpdateGuideline($input: UpdateGuidelineInput!) {
    updateGuideline(input: $input) {
      __typename
      ... on UpdateGuidelineSuccess { update { entry { category ... on Guideline { priority } } } }
      ... on UserError { code message path }
    }
  }
`);

const Deactivate = graphql(`
  mutation MutantEntryDeactivate($id: ID!) {
    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on InvalidStateError { currentState } ... on UserError { code message path } }
  }
`);

const Reactivate = graphql(`
  mutation MutantEntryReactivate($id: ID!) {
    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }
  }
`);

const OnEntryChanged = graphql(`
  subscription MutantEntryOnChanged($scope: ID!) {
    entryChanged(scope: $scope) { type actor entry { name } }
  }
`);

const CompleteSession = graphql(`
  mutation MutantEntryComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

const ArchiveSession = graphql(`
  mutation MutantEntryArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }
`);

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');
/** The same row's id presented as another type's (the service must check the kind itself). */
const as = (type: string, id: string) => Buffer.from(`${type}:${Buffer.from(id, 'base64').toString().split(':')[1]}`).toString('base64');

async function importEntries(entries: Record<string, unknown>[], extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  return (await h.ok(Import, { input: { entries, ...extra } as never }, headers)).importEntries;
}

async function addToolRaw(input: Record<string, unknown>, headers?: Record<string, string>) {
  return (await h.ok(AddTool, { input: input as never }, headers)).addTool;
}

async function updateTool(input: Record<string, unknown>) {
  return (await h.ok(UpdateTool, { input: input as never })).updateTool;
}

async function archivedSession(name: string) {
  const p = await createProject(h, name);
  const s = await startSession(h, p);
  const tool = await addTool(h, s, 'in-session');
  await h.ok(CompleteSession, { id: s });
  await h.ok(ArchiveSession, { id: s });
  return { s, tool };
}

describe('fields of each kind', () => {
  it('refuses a field the kind does not have, naming the kind', async () => {
    const p = await createProject(h, 'entry-kind-fields');
    expect(
      await importEntries([
        { kind: 'TOOL', scope: p, name: 't', content: 'x', rationale: 'r' },
        { kind: 'GUIDELINE', scope: p, name: 'g', content: 'c', description: 'd' },
        { kind: 'KNOWLEDGE', scope: p, name: 'k', content: 'c', parameters: {}, constraints: 'x' },
      ]),
    ).toMatchObject({
      issues: [
        { path: ['input', 'entries', '0', 'content'], message: 'is not a field of a tool' },
        { path: ['input', 'entries', '0', 'rationale'], message: 'is not a field of a tool' },
        { path: ['input', 'entries', '1', 'description'], message: 'is not a field of a guideline' },
        { path: ['input', 'entries', '2', 'parameters'], message: 'is not a field of a knowledge entry' },
        { path: ['input', 'entries', '2', 'constraints'], message: 'is not a field of a knowledge entry' },
      ],
    });
  });

  it('guidelines and knowledge need content; every text has its limit', async () => {
    const p = await createProject(h, 'entry-limits');
    const long = (n: number) => 'x'.repeat(n);
    expect(
      await importEntries([
        { kind: 'GUIDELINE', scope: p, name: 'g', rationale: long(100_001) },
        { kind: 'KNOWLEDGE', scope: p, name: ' ', content: 'c', source: long(2_001), confidence: -0.1 },
        { kind: 'TOOL', scope: p, name: 't', description: long(100_001), constraints: long(100_001), examples: nested(40) },
        { kind: 'TOOL', scope: p, name: 'u', category: long(65), priority: 5 },
        { kind: 'GUIDELINE', scope: p, name: 'h', content: 'c', priority: 101 },
      ]),
    ).toMatchObject({
      issues: [
        { path: ['input', 'entries', '0', 'content'], message: 'is required' },
        { path: ['input', 'entries', '0', 'rationale'], message: 'must be at most 100000 characters (got 100001)' },
        { path: ['input', 'entries', '1', 'title'], message: 'must not be blank' },
        { path: ['input', 'entries', '1', 'source'], message: 'must be at most 2000 characters (got 2001)' },
        { path: ['input', 'entries', '1', 'confidence'], message: 'must be a number between 0 and 1' },
        { path: ['input', 'entries', '2', 'description'], message: 'must be at most 100000 characters (got 100001)' },
        { path: ['input', 'entries', '2', 'constraints'], message: 'must be at most 100000 characters (got 100001)' },
        { path: ['input', 'entries', '2', 'examples'], message: 'must nest at most 32 levels' },
        { path: ['input', 'entries', '3', 'category'], message: 'must be at most 64 characters (got 65)' },
        { path: ['input', 'entries', '3', 'priority'], message: 'only guidelines have a priority' },
        { path: ['input', 'entries', '4', 'priority'], message: 'must be an integer between 0 and 100' },
      ],
    });
  });

  it('a single add names each invalid argument', async () => {
    const p = await createProject(h, 'entry-author');
    expect(await addToolRaw({ scope: p, name: ' ', category: 'c'.repeat(65), tags: ['ok', '-bad'], author: 'a'.repeat(201) })).toMatchObject({
      issues: [
        { path: ['input', 'name'], message: 'must not be blank' },
        { path: ['input', 'category'], message: 'must be at most 64 characters (got 65)' },
        { path: ['input', 'author'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'tags', '1'] },
      ],
    });
    const g = await h.gql(
      graphql(`mutation MutantEntryAddGuideline($input: AddGuidelineInput!) { addGuideline(input: $input) { __typename ... on ValidationError { issues { path message } } } }`),
      { input: { scope: p, name: 'g', content: 'c', priority: -1 } },
    );
    expect(g.data?.addGuideline).toEqual({ __typename: 'ValidationError', issues: [{ path: ['input', 'priority'], message: 'must be an integer between 0 and 100' }] });
  });
});

describe('adding entries', () => {
  it('stores the trimmed name, category and author; guidelines default to priority 50, others have none', async () => {
    const p = await createProject(h, 'entry-defaults');
    const r = await importEntries(
      [
        { kind: 'TOOL', scope: p, name: ' spaced ', category: 'cli', description: 'd' },
        { kind: 'GUIDELINE', scope: p, name: 'g', content: 'c' },
        { kind: 'KNOWLEDGE', scope: p, name: 'k', content: 'c' },
      ],
      { author: 'agent:importer' },
    );
    expect(r).toMatchObject({
      imported: {
        count: 3,
        entries: [
          { name: 'spaced', category: 'cli', createdBy: 'agent:importer', latestVersion: 1, currentVersion: { version: 1, createdBy: 'agent:importer', description: 'd' } },
          { name: 'g', category: null, priority: 50, currentVersion: { version: 1, content: 'c' } },
          { name: 'k', currentVersion: { version: 1, confidence: 1 } },
        ],
      },
    });
    expect(await addToolRaw({ scope: p, name: ' one ', category: 'c' }, { 'x-engram-actor': 'agent:adder' })).toMatchObject({
      tool: { name: 'one', category: 'c', createdBy: 'agent:adder', active: true },
    });
    // Priority null is no priority, for any kind.
    expect(await importEntries([{ kind: 'TOOL', scope: p, name: 'no-priority', priority: null }])).toMatchObject({ imported: { count: 1 } });
  });

  it('a taken name says which kind has it; a missing or archived scope is named', async () => {
    const p = await createProject(h, 'entry-taken');
    await addTool(h, p, 'tool-name');
    await addKnowledge(h, p, 'fact');
    expect(await addToolRaw({ scope: p, name: 'tool-name' })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'This scope already has a tool named "tool-name"',
      path: ['input', 'name'],
    });
    expect((await h.ok(AddKnowledge, { input: { scope: p, title: ' fact ', content: 'c' } })).addKnowledge).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'This scope already has a knowledge entry titled "fact"',
      path: ['input', 'title'],
    });
    expect(await addToolRaw({ scope: missing('Project'), name: 'x' })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No scope has this id',
      path: ['input', 'scope'],
    });
    const { s } = await archivedSession('entry-archived-add');
    expect(await addToolRaw({ scope: s, name: 'late' })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'scope'] });
  });

  it('an import fails whole on a taken name or a missing or archived scope', async () => {
    const p = await createProject(h, 'entry-import-fails');
    await addTool(h, p, 'taken');
    expect(await importEntries([{ kind: 'TOOL', scope: p, name: 'new' }, { kind: 'TOOL', scope: p, name: 'taken' }])).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'An entry of this input already exists in its scope',
      path: ['input'],
    });
    expect(await importEntries([{ kind: 'TOOL', scope: p, name: 'new' }, { kind: 'TOOL', scope: missing('Project'), name: 'x' }])).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No scope has this id',
      path: ['input', 'entries', '1', 'scope'],
    });
    const { s } = await archivedSession('entry-archived-import');
    expect(await importEntries([{ kind: 'TOOL', scope: s, name: 'late' }])).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED' });
    expect(await importEntries([{ kind: 'TOOL', scope: p, name: 'new' }])).toMatchObject({ imported: { count: 1 } });
  });

  it('imports more entries than one statement takes, each at its own version 1', async () => {
    const p = await createProject(h, 'entry-import-batches');
    const entries = Array.from({ length: 401 }, (_, i) => ({ kind: 'TOOL', scope: p, name: `t${i}`, description: `d${i}` }));
    const r = await importEntries(entries);
    expect(r.__typename).toBe('ImportEntriesSuccess');
    const imported = r.__typename === 'ImportEntriesSuccess' ? r.imported : null;
    expect(imported?.count).toBe(401);
    expect(imported?.entries.map((e) => [e.name, e.currentVersion?.version, e.currentVersion && 'description' in e.currentVersion ? e.currentVersion.description : null])).toEqual(
      entries.map((e) => [e.name, 1, e.description]),
    );
  });
});

describe('updating entries', () => {
  it('names each invalid argument', async () => {
    const p = await createProject(h, 'entry-update-refusals');
    const id = await addTool(h, p, 't');
    expect(await updateTool({ id, description: 'd', changeReason: 'r'.repeat(1_001), author: 'a'.repeat(201), expectedVersion: 0 })).toMatchObject({
      issues: [
        { path: ['input', 'changeReason'], message: 'must be at most 1000 characters (got 1001)' },
        { path: ['input', 'author'], message: 'must be at most 200 characters (got 201)' },
        { path: ['input', 'expectedVersion'], message: 'must be an integer between 1 and 2147483647' },
      ],
    });
    expect(await updateTool({ id, description: 'd', expectedVersion: 2 })).toMatchObject({
      message: 'input.expectedVersion: must be an existing version (the entry is at version 1)',
    });
    // An update that gives nothing to change is refused, not written as a copy of the current version.
    expect(await updateTool({ id, changeReason: 'touch', expectedVersion: 1 })).toMatchObject({
      issues: [{ path: ['input'], message: 'names nothing to change: give a field of the entry or of its version' }],
    });
    // A null (clearing a field) is a change.
    expect(await updateTool({ id, category: null, expectedVersion: 1 })).toMatchObject({ update: { version: { version: 2, conflictFlag: false } } });
    expect(await updateTool({ id, expectedVersion: 2, description: 'ok' })).toMatchObject({ update: { version: { version: 3, conflictFlag: false } } });
  });

  it('an unknown entry, or one of another kind, is NOT_FOUND; one in an archived session INVALID_STATE', async () => {
    const p = await createProject(h, 'entry-update-missing');
    const g = await addGuideline(h, p, 'g');
    const notFound = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No tool has this id', path: ['input', 'id'] };
    expect(await updateTool({ id: missing('Tool'), description: 'x' })).toEqual(notFound);
    expect(await updateTool({ id: as('Tool', g), description: 'x' })).toEqual(notFound);
    const { tool } = await archivedSession('entry-archived-update');
    expect(await updateTool({ id: tool, description: 'x' })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'id'] });
  });

  it('category: given replaces, null clears, absent keeps; priority: given replaces, null keeps', async () => {
    const p = await createProject(h, 'entry-update-category');
    const id = await addGuideline(h, p, 'g', { category: 'c1', priority: 10 });
    const update = async (input: Record<string, unknown>) => (await h.ok(UpdateGuideline, { input: { id, ...input } as never })).updateGuideline;
    expect(await update({ content: 'v2' })).toMatchObject({ update: { entry: { category: 'c1', priority: 10 } } });
    expect(await update({ category: 'c2', priority: 20 })).toMatchObject({ update: { entry: { category: 'c2', priority: 20 } } });
    expect(await update({ category: null, priority: null })).toMatchObject({ update: { entry: { category: null, priority: 20 } } });
  });

  it('REJECT says why the write conflicted', async () => {
    const p = await createProject(h, 'entry-reject');
    const id = await addTool(h, p, 't', { author: 'agent:a' });
    await updateTool({ id, description: 'A', author: 'agent:a' });
    expect(await updateTool({ id, description: 'B', expectedVersion: 1, onConflict: 'REJECT' })).toEqual({
      __typename: 'WriteConflictError',
      code: 'WRITE_CONFLICT',
      currentVersion: 2,
      message: 'The entry is at version 2, past the expected version 1',
      path: ['input', 'expectedVersion'],
    });
    const inWindow = await updateTool({ id, description: 'B', author: 'agent:b', onConflict: 'REJECT' });
    expect(inWindow).toMatchObject({ __typename: 'WriteConflictError', currentVersion: 2, path: ['input', 'id'] });
    const message = inWindow.__typename === 'WriteConflictError' ? inWindow.message : '';
    expect(message).toMatch(/^Version 2 was written by another writer \d+ ms ago$/);
    // Within the 5 s window of the harness.
    expect(Number(/(\d+) ms/.exec(message)?.[1])).toBeLessThan(5_000);
  });

  it('anonymous writes never conflict by the window', async () => {
    const p = await createProject(h, 'entry-anonymous');
    const id = await addTool(h, p, 't', { author: 'agent:a' });
    expect(await updateTool({ id, description: 'anonymous' })).toMatchObject({ update: { version: { version: 2, conflictFlag: false } } });
    expect(await updateTool({ id, description: 'named', author: 'agent:b' })).toMatchObject({ update: { version: { version: 3, conflictFlag: false } } });
    expect(await updateTool({ id, description: 'other', author: 'agent:c', changeReason: 'why' })).toMatchObject({
      update: { version: { version: 4, conflictFlag: true, changeReason: 'why' }, conflict: { resolved: false } },
    });
  });
});

describe('activation', () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('announces DEACTIVATED and REACTIVATED with the actor, once per change', async () => {
    const p = await createProject(h, 'entry-activation');
    const id = await addTool(h, p, 'switch');
    const sub = await sseSubscribe(h.app, OnEntryChanged, { scope: p });
    close = () => sub.close();
    let probes = 0;
    await untilListening(sub.collector, () => addTool(h, p, `probe-${probes++}`));
    const before = sub.collector.results.length;
    const actor = { 'x-engram-actor': 'agent:switcher' };
    expect((await h.ok(Deactivate, { id }, actor)).deactivateEntry).toEqual({ __typename: 'DeactivateEntrySuccess', entry: { active: false } });
    await h.ok(Deactivate, { id }, actor);
    expect((await h.ok(Reactivate, { id }, actor)).reactivateEntry).toEqual({ __typename: 'ReactivateEntrySuccess', entry: { active: true } });
    await addTool(h, p, 'barrier');
    await sub.collector.until((r) => r.some((x) => x.data?.entryChanged.entry?.name === 'barrier'));
    expect(sub.collector.results.slice(before).map((r) => `${r.data!.entryChanged.type} ${r.data!.entryChanged.entry?.name} ${r.data!.entryChanged.actor}`)).toEqual([
      'DEACTIVATED switch agent:switcher',
      'REACTIVATED switch agent:switcher',
      'CREATED barrier null',
    ]);
  });

  it('an entry of an archived session cannot be deactivated', async () => {
    const { tool } = await archivedSession('entry-archived-deactivate');
    expect((await h.ok(Deactivate, { id: tool })).deactivateEntry).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'id'] });
    expect((await h.ok(Deactivate, { id: missing('Tool') })).deactivateEntry).toMatchObject({ code: 'NOT_FOUND', message: 'No entry has this id', path: ['input', 'id'] });
  });
});
