import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addKnowledge, addTool, createProject } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

// Rules of relations.service.ts that mutation testing (npm run mutate) found unchecked: which
// entries a relation's creation and deletion announce (both entry ends, a scope end is no entry),
// with which type and actor, and the argument each refusal names.

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
