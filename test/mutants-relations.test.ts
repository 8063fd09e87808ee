import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addKnowledge, addTool, createProject, startSession } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

// Rules of relations.service.ts that mutation testing (npm run mutate) found unchecked: which
// entries a relation's creation and deletion announce (both entry ends, a scope end is no entry),
// with which type and actor, the argument and message of each refusal, and entries of archived
// sessions.

const h = useHarness();

const Relate = graphql(`
  mutation MutantRelate($input: CreateRelationInput!) {
    createRelation(input: $input) {
      __typename
      ... on CreateRelationSuccess { relation { id } }
      ... on UserError { code path }
    }
  }
`);

const Unrelate = graphql(`
  mutation MutantUnrelate($id: ID!) {
    deleteRelation(input: { id: $id }) { __typename ... on UserError { code path } }
  }
`);

const OnEntryChanged = graphql(`
  subscription MutantOnRelationChange($scope: ID!) {
    entryChanged(scope: $scope) { type actor entry { name } }
  }
`);

const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');

async function relate(input: Record<string, unknown>, actor = 'agent:rel') {
  const r = (await h.ok(Relate, { input: input as never }, { 'x-engram-actor': actor })).createRelation;
  return r;
}

describe('relation events', () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('RELATED and UNRELATED reach both entry ends, with the actor; a scope end is not an entry', async () => {
    const p = await createProject(h, 'relation-events');
    const source = await addTool(h, p, 'source');
    const target = await addKnowledge(h, p, 'target');
    const bystander = await addTool(h, p, 'bystander');
    const sub = await sseSubscribe(h.app, OnEntryChanged, { scope: p });
    close = () => sub.close();
    let probes = 0;
    await untilListening(sub.collector, () => addTool(h, p, `probe-${probes++}`));
    const before = sub.collector.results.length;

    const toEntry = await relate({ source, target, type: 'RELATED_TO' });
    const toScope = await relate({ source: bystander, target: p, type: 'APPLIES_TO' });
    const id = toEntry.__typename === 'CreateRelationSuccess' ? toEntry.relation.id : '';
    expect(toScope.__typename).toBe('CreateRelationSuccess');
    expect((await h.ok(Unrelate, { id }, { 'x-engram-actor': 'agent:unrel' })).deleteRelation.__typename).toBe('DeleteRelationSuccess');
    await addTool(h, p, 'barrier');
    await sub.collector.until((r) => r.some((x) => x.data?.entryChanged.entry?.name === 'barrier'));

    const events = sub.collector.results
      .slice(before)
      .map((r) => r.data!.entryChanged)
      .filter((e) => e.entry?.name !== 'barrier')
      .map((e) => `${e.type} ${e.entry?.name} ${e.actor}`);
    expect(events.sort()).toEqual(
      [
        'RELATED source agent:rel',
        'RELATED target agent:rel',
        'RELATED bystander agent:rel',
        'UNRELATED source agent:unrel',
        'UNRELATED target agent:unrel',
      ].sort(),
    );
  });
});

describe('relation refusals', () => {
  it('name the argument at fault', async () => {
    const p = await createProject(h, 'relation-paths');
    const a = await addTool(h, p, 'a');
    const b = await addTool(h, p, 'b');
    expect(await relate({ source: missing('Tool'), target: b, type: 'RELATED_TO' })).toMatchObject({
      __typename: 'NotFoundError',
      path: ['input', 'source'],
    });
    expect(await relate({ source: a, target: b, type: 'RELATED_TO', author: 'x'.repeat(201) })).toMatchObject({
      __typename: 'ValidationError',
      path: ['input', 'author'],
    });
    await relate({ source: a, target: b, type: 'RELATED_TO' });
    expect(await relate({ source: a, target: b, type: 'RELATED_TO' })).toMatchObject({ __typename: 'AlreadyExistsError', path: ['input', 'target'] });
    expect((await h.ok(Unrelate, { id: missing('Relation') })).deleteRelation).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'id'] });
  });
});

const RelateWhy = graphql(`
  mutation MutantRelateWhy($input: CreateRelationInput!) {
    createRelation(input: $input) {
      __typename
      ... on CreateRelationSuccess { relation { id } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const UnrelateWhy = graphql(`
  mutation MutantUnrelateWhy($id: ID!) {
    deleteRelation(input: { id: $id }) { __typename ... on InvalidStateError { currentState } ... on UserError { code message path } }
  }
`);

const EndSession = graphql(`
  mutation MutantRelationEndSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

const ArchiveSession = graphql(`
  mutation MutantRelationArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }
`);

async function relateWhy(input: Record<string, unknown>) {
  return (await h.ok(RelateWhy, { input: input as never })).createRelation;
}

describe('relation refusal messages', () => {
  it('say what is missing, taken or wrong', async () => {
    const p = await createProject(h, 'relation-messages');
    const a = await addTool(h, p, 'a');
    const b = await addTool(h, p, 'b');
    expect(await relateWhy({ source: a, target: a, type: 'RELATED_TO' })).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.target: an entry cannot be related to itself',
      path: ['input', 'target'],
    });
    const notFound = (what: string, arg: string) => ({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: `No ${what} has this id`, path: ['input', arg] });
    expect(await relateWhy({ source: missing('Tool'), target: b, type: 'RELATED_TO' })).toEqual(notFound('entry', 'source'));
    expect(await relateWhy({ source: a, target: missing('Tool'), type: 'RELATED_TO' })).toEqual(notFound('entry', 'target'));
    expect(await relateWhy({ source: a, target: missing('Project'), type: 'APPLIES_TO' })).toEqual(notFound('scope', 'target'));
    await relateWhy({ source: a, target: b, type: 'DEPENDS_ON' });
    expect(await relateWhy({ source: a, target: b, type: 'DEPENDS_ON' })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'This DEPENDS_ON relation already exists',
      path: ['input', 'target'],
    });
    expect((await h.ok(UnrelateWhy, { id: missing('Relation') })).deleteRelation).toEqual(notFound('relation', 'id'));
  });

  it('an entry of an archived session takes no relation and keeps the ones it has', async () => {
    const p = await createProject(h, 'relation-archived');
    const s = await startSession(h, p);
    const inSession = await addTool(h, s, 'in-session');
    const outside = await addTool(h, p, 'outside');
    const kept = await relateWhy({ source: inSession, target: outside, type: 'RELATED_TO' });
    const keptId = kept.__typename === 'CreateRelationSuccess' ? kept.relation.id : '';
    await h.ok(EndSession, { id: s });
    await h.ok(ArchiveSession, { id: s });
    expect(await relateWhy({ source: inSession, target: outside, type: 'DEPENDS_ON' })).toMatchObject({
      __typename: 'InvalidStateError',
      currentState: 'ARCHIVED',
      path: ['input', 'source'],
    });
    expect((await h.ok(UnrelateWhy, { id: keptId })).deleteRelation).toMatchObject({
      __typename: 'InvalidStateError',
      currentState: 'ARCHIVED',
      path: ['input', 'id'],
    });
  });
});
