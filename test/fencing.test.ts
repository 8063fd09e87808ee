// Fenced writes (issue 16): every mutation whose input takes `fencing` writes under a live lease,
// and refuses a stale token (InvalidStateError STALE_FENCING_TOKEN) without writing anything. The
// list of fenced mutations is read from the schema, so a new one without a case here fails.
import { getNamedType, isInputObjectType, isUnionType, type GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { as, ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();
const schema = getSchema();

/** Mutation fields whose `input` type has a `fencing` field. */
function fencedMutations(): GraphQLField<unknown, unknown>[] {
  return Object.values(schema.getMutationType()!.getFields()).filter((field) => {
    const input = field.args.find((arg) => arg.name === 'input');
    const type = input && getNamedType(input.type);
    return isInputObjectType(type) && 'fencing' in type.getFields();
  });
}

type Fencing = { scope: string; resource: string; token: number };

interface Case {
  /** The input of the write, made with `fencing`; `n` tells the live write (1) from the stale one (2). */
  input(fencing: Fencing, n: 1 | 2): Record<string, unknown>;
  /** What the stale write would have changed, read before and after it. */
  state(): Promise<unknown>;
}

let scope: string;
const read = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

async function mutate(field: string, input: Record<string, unknown>, selection = ''): Promise<any> {
  const type = getNamedType(schema.getMutationType()!.getFields()[field]!.args[0]!.type).name;
  const doc = `mutation ($input: ${type}!) { ${field}(input: $input) { __typename ${selection} } }`;
  return (await read(doc, { input }))[field];
}

async function entry(kind: 'Tool' | 'Guideline' | 'Knowledge', name: string, tags: string[] = []): Promise<string> {
  const fields = kind === 'Tool' ? { name, description: 'v1' } : kind === 'Guideline' ? { name, content: 'v1' } : { title: name, content: 'v1' };
  const added = await mutate(`add${kind}`, { scope, ...fields, tags }, `... on Add${kind}Success { ${kind.toLowerCase()} { id } }`);
  return added[kind.toLowerCase()].id as string;
}

async function task(title: string): Promise<string> {
  return (await mutate('createTask', { scope, title }, '... on CreateTaskSuccess { task { id } }')).task.id as string;
}

/** An open conflict on a fresh guideline: a write based on version 1 once version 2 exists. */
async function conflict(name: string): Promise<string> {
  const id = await entry('Guideline', name);
  await mutate('updateGuideline', { id, content: 'v2' });
  const update = await mutate('updateGuideline', { id, content: 'v3', expectedVersion: 1 }, '... on UpdateGuidelineSuccess { update { conflict { id } } }');
  return update.update.conflict.id as string;
}

const ENTRY_STATE = `query ($id: ID!) { entry(id: $id) { latestVersion updatedAt tags { name } outgoingRelations { type }
  currentVersion { ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { content } } } }`;
const entryState = (id: string) => () => read(ENTRY_STATE, { id });
const byName = (kind: string, name: string) => () => read('query ($s: ID!, $k: EntryKind!, $n: String!) { entryByName(scope: $s, kind: $k, name: $n) { id } }', { s: scope, k: kind, n: name });
const tagNamed = (name: string) => async () => {
  const tags = await read('query { tags(first: 100, predefined: false) { edges { node { name } } } }');
  return tags.tags.edges.some((e: { node: { name: string } }) => e.node.name === name);
};
const both = (...reads: Array<() => Promise<unknown>>) => () => Promise.all(reads.map((r) => r()));

/** One case per fenced mutation, made on a fresh project. */
async function cases(): Promise<Record<string, Case>> {
  const session = (await mutate('startSession', { project: scope }, '... on StartSessionSuccess { session { id } }')).session.id as string;
  const [tool, guideline, knowledge, source, target, tagged] = await Promise.all([
    entry('Tool', 'fenced-tool'),
    entry('Guideline', 'fenced-guideline'),
    entry('Knowledge', 'fenced-knowledge'),
    entry('Knowledge', 'relation-source'),
    entry('Knowledge', 'relation-target'),
    entry('Knowledge', 'tagged', ['keep-1', 'keep-2']),
  ]);
  const [task1, task2] = [await task('live'), await task('stale')];
  const conflicts = [await conflict('conflicted-1'), await conflict('conflicted-2')];
  const taskState = () => read('query ($a: ID!, $b: ID!) { a: node(id: $a) { ... on Task { title status } } b: node(id: $b) { ... on Task { title status } } }', { a: task1, b: task2 });
  const add = (kind: string, fields: (n: number) => Record<string, unknown>): Case => ({
    input: (fencing, n) => ({ scope, ...fields(n), tags: [`added-${kind.toLowerCase()}-${n}`], fencing }),
    state: both(byName(kind, `new-${kind.toLowerCase()}-2`), tagNamed(`added-${kind.toLowerCase()}-2`)),
  });
  return {
    addTool: add('TOOL', (n) => ({ name: `new-tool-${n}`, description: 'd' })),
    addGuideline: add('GUIDELINE', (n) => ({ name: `new-guideline-${n}`, content: 'c' })),
    addKnowledge: add('KNOWLEDGE', (n) => ({ title: `new-knowledge-${n}`, content: 'c' })),
    updateTool: { input: (fencing, n) => ({ id: tool, description: `v${n + 1}`, fencing }), state: entryState(tool) },
    updateGuideline: { input: (fencing, n) => ({ id: guideline, content: `v${n + 1}`, fencing }), state: entryState(guideline) },
    updateKnowledge: { input: (fencing, n) => ({ id: knowledge, content: `v${n + 1}`, fencing }), state: entryState(knowledge) },
    setState: {
      input: (fencing, n) => ({ owner: { session }, key: 'session:step', value: n, fencing }),
      state: () => read('query ($s: ID!) { scope(id: $s) { ... on Session { state(key: "session:step") { value } } } }', { s: session }),
    },
    appendSessionEvent: {
      input: (fencing, n) => ({ session, type: 'ACTION', actor: 'agent:slow', content: { n }, fencing }),
      state: () => read('query ($s: ID!) { scope(id: $s) { ... on Session { events { edges { node { content } } } } } }', { s: session }),
    },
    createTask: {
      input: (fencing, n) => ({ scope, title: `created-${n}`, fencing }),
      state: () => read('query ($s: ID!) { tasks(filter: { scope: $s }) { totalCount } }', { s: scope }),
    },
    updateTask: { input: (fencing, n) => ({ id: n === 1 ? task1 : task2, title: `done-${n}`, status: 'DONE', fencing }), state: taskState },
    createRelation: {
      input: (fencing, n) => ({ source, target, type: n === 1 ? 'RELATED_TO' : 'DEPENDS_ON', fencing }),
      state: entryState(source),
    },
    attachTags: { input: (fencing, n) => ({ entry: tagged, tags: [`attached-${n}`], fencing }), state: both(entryState(tagged), tagNamed('attached-2')) },
    detachTags: { input: (fencing, n) => ({ entry: tagged, tags: [`keep-${n}`], fencing }), state: entryState(tagged) },
    resolveConflict: {
      input: (fencing, n) => ({ id: conflicts[n - 1], strategy: 'TAKE_INCOMING', fencing }),
      state: () => read('query ($c: ID!) { conflict(id: $c) { resolved resolutionVersion { id } entry { latestVersion } } }', { c: conflicts[1] }),
    },
  };
}

async function checkout(agent: string, ttlSeconds: number): Promise<number> {
  const answer = await as(h, null, 'mutation ($i: CheckoutLeaseInput!) { checkoutLease(input: $i) { ... on CheckoutLeaseSuccess { lease { fencingToken } } } }',
    { i: { scope, resource: 'work', ttlSeconds } }, { 'x-engram-actor': agent });
  return answer.data!.checkoutLease.lease.fencingToken as number;
}

/** A fenced write as `agent`, with the stale-token answer's state selected. */
async function write(field: string, input: Record<string, unknown>, agent: string): Promise<{ __typename: string; code?: string; currentState?: string }> {
  const type = getNamedType(schema.getMutationType()!.getFields()[field]!.args[0]!.type).name;
  const doc = `mutation ($input: ${type}!) { ${field}(input: $input) { __typename ... on UserError { code message } ... on InvalidStateError { currentState } } }`;
  const answer = await as(h, null, doc, { input }, { 'x-engram-actor': agent });
  expect(answer.errors, field).toBeUndefined();
  return answer.data![field];
}

describe('fenced writes', () => {
  it('every mutation that takes fencing writes under a live lease and refuses a stale token, writing nothing', async () => {
    scope = (await read('mutation { createProject(input: { name: "fencing" }) { ... on CreateProjectSuccess { project { id } } } }')).createProject.project.id;
    const fenced = fencedMutations();
    // A stale token answers InvalidStateError, so every fenced mutation's union must offer it.
    for (const field of fenced) {
      const union = getNamedType(field.type);
      expect(isUnionType(union) && union.getTypes().map((t) => t.name), field.name).toContain('InvalidStateError');
    }
    const all = await cases();
    expect(Object.keys(all).sort()).toEqual(fenced.map((f) => f.name).sort());

    const token = await checkout('agent:slow', 60);
    const fence = { scope, resource: 'work', token };
    for (const [field, c] of Object.entries(all)) {
      expect(await write(field, c.input(fence, 1), 'agent:slow'), field).toMatchObject({ __typename: `${field[0]!.toUpperCase()}${field.slice(1)}Success` });
    }

    // slow's lease runs out (a pause past its time to live) and fast takes the resource over.
    await as(h, null, 'mutation ($i: RenewLeaseInput!) { renewLease(input: $i) { __typename } }', { i: { scope, resource: 'work', ttlSeconds: 1 } }, { 'x-engram-actor': 'agent:slow' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await checkout('agent:fast', 60)).toBe(token + 1);

    for (const [field, c] of Object.entries(all)) {
      const before = await c.state();
      expect(await write(field, c.input(fence, 2), 'agent:slow'), field).toMatchObject({
        __typename: 'InvalidStateError',
        code: 'INVALID_STATE',
        currentState: 'STALE_FENCING_TOKEN',
      });
      expect(await c.state(), field).toEqual(before);
    }
  });
});
