// Every operation shape issue #14 sets a target for, as the operation and a generator of its
// variables over a seeded workload (random per call, deterministic per run).
import { TAGS, typeOf, type Workload } from './workload.ts';
import { gid } from './common.ts';

export interface Shape {
  /** Stable key (targets refer to it). */
  key: string;
  label: string;
  write: boolean;
  query: string;
  variables(w: Workload, i: number): Record<string, unknown>;
}

const RANKED = 'edges { score node { id name } } meta { totalCount estimatedTokens }';
const memoryQuery = (input: string, vars: string) => `query(${vars}) { memoryQuery(input: { scope: $s, ${input} }, first: 20) { ${RANKED} } }`;
const CONTEXT = 'query($s: ID!, $task: String!) { context(input: { scope: $s, task: $task }) { tokensUsed guidelines { score node { id name } } tools { score node { id name } } knowledge { score node { id name } } } }';

/** A ten-word natural-language task: three topic words among common words that match most entries. */
function naturalTask(w: Workload): string {
  return ['how', 'should', 'the', 'agent', 'use', w.pick(w.vocabulary), 'when', 'the', w.pick(w.vocabulary), w.pick(w.vocabulary)].join(' ');
}

export const SHAPES: readonly Shape[] = [
  {
    // No target: what every request costs before it reads anything (HTTP, Yoga, the plugins, the
    // context), the floor under the others, e.g. of get by id's p50.
    key: 'floor',
    label: '{ __typename } (the floor)',
    write: false,
    query: '{ __typename }',
    variables: () => ({}),
  },
  {
    key: 'get',
    label: 'get by id',
    write: false,
    query: 'query($id: ID!) { entry(id: $id) { id name currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { content } } tags { name } } }',
    variables: (w) => {
      const i = w.index();
      return { id: gid(typeOf(i), w.ids[i]!) };
    },
  },
  {
    key: 'list',
    label: 'list 20 guidelines',
    write: false,
    query: 'query($s: ID!) { guidelines(filter: { scope: $s }, first: 20) { edges { node { id name priority tags { name } } } } }',
    variables: (w) => ({ s: w.projectId }),
  },
  {
    key: 'tagWord',
    label: 'memoryQuery tag + word',
    write: false,
    query: memoryQuery('tags: { include: [$t] }, search: $w', '$s: ID!, $t: String!, $w: String!'),
    variables: (w) => ({ s: w.sessionId, t: w.pick(TAGS), w: w.pick(w.vocabulary) }),
  },
  {
    key: 'tagOnly',
    label: 'memoryQuery tag only',
    write: false,
    query: memoryQuery('tags: { include: [$t] }', '$s: ID!, $t: String!'),
    variables: (w) => ({ s: w.sessionId, t: w.pick(TAGS) }),
  },
  {
    key: 'noFilter',
    label: 'memoryQuery no filter',
    write: false,
    query: `query($s: ID!) { memoryQuery(input: { scope: $s }, first: 20) { edges { score node { id name } } meta { estimatedTokens } } }`,
    variables: (w) => ({ s: w.sessionId }),
  },
  {
    key: 'relatedTo',
    label: 'memoryQuery relatedTo',
    write: false,
    query: memoryQuery('relatedTo: $r', '$s: ID!, $r: ID!'),
    variables: (w) => ({ s: w.sessionId, r: w.pick(w.related) }),
  },
  {
    key: 'requireExclude',
    label: 'memoryQuery require/exclude',
    write: false,
    query: memoryQuery('tags: { require: [$a, $b], exclude: [$c] }', '$s: ID!, $a: String!, $b: String!, $c: String!'),
    variables: (w) => {
      const [a, b, c] = [w.pick(TAGS), w.pick(TAGS), w.pick(TAGS)];
      return { s: w.sessionId, a, b, c };
    },
  },
  {
    key: 'context2',
    label: 'context, two-word task',
    write: false,
    query: CONTEXT,
    variables: (w) => ({ s: w.sessionId, task: `${w.pick(w.vocabulary)} ${w.pick(w.vocabulary)}` }),
  },
  {
    key: 'context10',
    label: 'context, ten-word natural-language task',
    write: false,
    query: CONTEXT,
    variables: (w) => ({ s: w.sessionId, task: naturalTask(w) }),
  },
  {
    key: 'create',
    label: 'create knowledge',
    write: true,
    query: 'mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: ["database"] }) { __typename } }',
    variables: (w, i) => ({ s: w.projectId, t: `bench-k-${process.pid}-${Date.now()}-${i}`, c: w.sentence(15) }),
  },
  {
    key: 'update',
    label: 'update guideline',
    write: true,
    query: 'mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }',
    variables: (w) => ({ id: w.pick(w.guidelineIds), c: w.sentence(15) }),
  },
];

export const shape = (key: string): Shape => {
  const found = SHAPES.find((s) => s.key === key);
  if (!found) throw new Error(`no shape ${key}`);
  return found;
};
