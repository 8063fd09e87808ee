// Rules of src/server/limits.ts, src/graphql/complexity.ts and src/graphql/input-guard.ts that
// mutation testing (npm run mutate) found unchecked: the exact messages of each refusal, the cost
// of `nodes(ids:)` and of plain lists, which operation of a document is measured, nesting counted
// as depth (not as the number of brackets), the timeout of queries (never of mutations), and the
// NUL guard on every kind of field (result union, plain query field, subscription) with the path
// of the value it refused.
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { as } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { sseSubscribe } from './support/subscriptions.ts';
import { parse } from 'graphql';

// Small limits, so that each edge is easy to state (as in limits.test.ts).
const LIMITS = { maxCost: 41, maxDepth: 6, maxAliases: 3, maxTokens: 200, maxDirectives: 2, maxNesting: 12 };
const h = useHarness({ app: { limits: LIMITS } });

interface Answer {
  data?: any;
  errors?: { message: string; path?: string[]; extensions: Record<string, any> }[];
}

async function run(query: string, variables?: Record<string, unknown>, operationName?: string): Promise<Answer> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables, operationName }),
  });
  return (await response.json()) as Answer;
}

const refusals = (answer: Answer) => answer.errors?.map((e): Record<string, any> => ({ message: e.message, ...e.extensions }));

async function send(app: ReturnType<typeof createApp>, query: string) {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as unknown;
}

async function project(name: string): Promise<string> {
  const made = await run(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name });
  return made.data.createProject.project.id;
}

describe(`operation limits found by mutation testing (${DB_KIND})`, () => {
  it('an app made with limits enforces each of them (the plugins are built with the app, here inside the test)', async () => {
    const app = createApp({ database: h.database, limits: LIMITS, accessFlushMs: 3_600_000 });
    try {
      const codes = async (query: string) => ((await send(app, query)) as Answer).errors?.map((e) => [e.extensions.code, e.extensions.limit]);
      expect(await codes('{ __typename }')).toBeUndefined();
      expect(await codes(`{ ${'__typename '.repeat(200)}}`)).toEqual([['TOO_MANY_TOKENS', 200]]);
      expect(await codes('{ a: projects(first: 1) { totalCount } b: projects(first: 1) { totalCount } c: projects(first: 1) { totalCount } d: projects(first: 1) { totalCount } }')).toEqual([
        ['TOO_MANY_ALIASES', 3],
      ]);
      expect(await codes('{ __typename @include(if: true) @skip(if: false) @include(if: true) }')).toEqual([['TOO_MANY_DIRECTIVES', 2]]);
      expect(await codes(`{ nodes(ids: ${'['.repeat(11)}${']'.repeat(11)}) { id } }`)).toEqual([['TOO_DEEPLY_NESTED', 12]]);
      expect(await codes('{ projects(first: 11) { edges { node { id name } } } }')).toEqual([['QUERY_TOO_COSTLY', 41]]);
      expect(await codes(`{ projects(first: 1) { edges { node { parent { ... on Organization { parent { ancestors { id } } } } } } } }`)).toEqual([['QUERY_TOO_DEEP', 6]]);
    } finally {
      await app.stop(1_000);
    }
  });

  it('says what a refused query costs and how deep it is, in words', async () => {
    expect(refusals(await run('{ projects(first: 11) { edges { node { id name } } } }'))).toEqual([
      {
        message: 'Query costs 45; at most 41 is allowed (lists multiply the cost of what they select by their page size)',
        code: 'QUERY_TOO_COSTLY',
        cost: 45,
        limit: 41,
      },
    ]);
    const deep = `{ projects(first: 1) { edges { node { parent { ... on Organization { parent { ancestors { id } } } } } } } }`;
    expect(refusals(await run(deep))).toEqual([{ message: 'Query is 7 levels deep; at most 6 are allowed', code: 'QUERY_TOO_DEEP', depth: 7, limit: 6 }]);
    const nested = `{ nodes(ids: ${'['.repeat(11)}${']'.repeat(11)}) { id } }`;
    expect(refusals(await run(nested))).toEqual([{ message: 'Document nests deeper than 12 levels', code: 'TOO_DEEPLY_NESTED', limit: 12 }]);
  });

  it('a document too deep and too costly at once is refused for its depth only', async () => {
    // depth 7 and cost 1 + 40 x (...) > 41
    const both = `{ projects(first: 40) { edges { node { parent { ... on Organization { parent { ancestors { id } } } } } } } }`;
    expect(refusals(await run(both))?.map((r) => r.code)).toEqual(['QUERY_TOO_DEEP']);
  });

  it('nesting is depth, not the number of brackets: many shallow operations pass', async () => {
    // 13 operations of one brace each: 13 opening brackets, never deeper than 1.
    const names = Array.from({ length: 13 }, (_, i) => `Q${i}`);
    const document = names.map((name) => `query ${name} { __typename }`).join(' ');
    expect(await run(document, undefined, 'Q0')).toEqual({ data: { __typename: 'Query' } });
  });

  it('only the operation that runs is measured, with its variables', async () => {
    const document = `query Cheap { __typename } query Costly($n: Int) { projects(first: $n) { edges { node { id name } } } }`;
    expect(await run(document, { n: 11 }, 'Cheap')).toEqual({ data: { __typename: 'Query' } });
    expect(refusals(await run(document, { n: 11 }, 'Costly'))?.map((r) => [r.code, r.cost])).toEqual([['QUERY_TOO_COSTLY', 45]]);
    expect((await run(document, { n: 10 }, 'Costly')).errors).toBeUndefined();
    // Without variables, the default page (20) counts: 1 + 4 x 20.
    expect(refusals(await run(document, undefined, 'Costly'))?.map((r) => [r.code, r.cost])).toEqual([['QUERY_TOO_COSTLY', 81]]);
  });

  it('nodes(ids:) costs the number of ids times what it selects; a plain list ten times', async () => {
    const id = await project('lim-nodes');
    // nodes 1 + ids x 3 fields: 13 ids cost 40 and fit; 14 ids cost 43.
    const nodes = (n: number) => run(`query($ids: [ID!]!) { nodes(ids: $ids) { id __typename ... on Project { name } } }`, { ids: Array.from({ length: n }, () => id) });
    expect((await nodes(13)).errors).toBeUndefined();
    expect(refusals(await nodes(14))?.map((r) => [r.code, r.cost])).toEqual([['QUERY_TOO_COSTLY', 43]]);
    // ancestors is a plain list: scope 1 + ancestors (1 + 10 x 3) = 32 fits; a fourth field costs 42.
    const scope = (fields: string) => run(`query($id: ID!) { scope(id: $id) { ancestors { ${fields} } } }`, { id });
    expect((await scope('id name createdAt')).errors).toBeUndefined();
    expect(refusals(await scope('id name createdAt __typename'))?.map((r) => [r.code, r.cost])).toEqual([['QUERY_TOO_COSTLY', 42]]);
  });

  it('an argument that cannot be read while measuring is BAD_USER_INPUT, with the reason', async () => {
    const answer = await run('{ node(id: "not-a-global-id") { id } }');
    expect(answer.errors?.map((e) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
    expect(answer.errors?.[0]?.message).toMatch(/not-a-global-id/);
  });

  it('a lexical error is the parser’s to report, not the nesting check’s', async () => {
    const answer = await run('{ __typename "unterminated');
    expect(answer.errors?.map((e) => e.message)).toEqual(['Syntax Error: Unterminated string.']);
  });

  // On SQLite a query never yields to the event loop (better-sqlite3 answers synchronously), so no
  // timer can fire while it runs: the deadline is observable on PostgreSQL only.
  it.skipIf(DB_KIND === 'sqlite')('a query that runs past its time is stopped with OPERATION_TIMEOUT', async () => {
    const slow = createApp({ database: h.database, limits: { operationTimeoutMs: 1 } });
    try {
      // Several round trips to the database, one after the other: far more than a millisecond.
      const query = `{ projects(first: 5) { edges { node { id ancestors { id } sessions(first: 5) { totalCount } } } } }`;
      for (let i = 0; i < 3; i++) {
        expect(await send(slow, query)).toEqual({ errors: [{ message: 'Operation took longer than 1 ms and was stopped', extensions: { code: 'OPERATION_TIMEOUT', limit: 1 } }] });
      }
    } finally {
      await slow.stop(1_000);
    }
  });

  it('a mutation is never cut off, however long it takes', async () => {
    const slow = createApp({ database: h.database, limits: { operationTimeoutMs: 1 } });
    try {
      const written = await send(
        slow,
        `mutation { a: createProject(input: { name: "lim-slow-a" }) { __typename } b: createProject(input: { name: "lim-slow-b" }) { __typename } }`,
      );
      expect(written).toEqual({ data: { a: { __typename: 'CreateProjectSuccess' }, b: { __typename: 'CreateProjectSuccess' } } });
    } finally {
      await slow.stop(1_000);
    }
  });
});

describe(`the NUL guard found by mutation testing (${DB_KIND})`, () => {
  const USER_ERROR = `__typename ... on UserError { code message path } ... on ValidationError { issues { path message } }`;
  const NUL_TEXT = 'must not contain NUL characters (U+0000)';
  const NUL_KEY = 'must not have keys containing NUL characters (U+0000)';

  it('a field with a result union answers a ValidationError naming the argument', async () => {
    const answer = await as(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ${USER_ERROR} } }`, { n: 'a\u0000b' });
    expect(answer.data!.createProject).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: `input.name: ${NUL_TEXT}`,
      path: ['input', 'name'],
      issues: [{ path: ['input', 'name'], message: NUL_TEXT }],
    });
  });

  it('names the list element and the object holding a key with NUL', async () => {
    const scope = await project('lim-nul');
    const tagged = await as(h, null, `mutation($s: ID!, $t: [String!]) { addKnowledge(input: { scope: $s, title: "t", content: "c", tags: $t }) { ${USER_ERROR} } }`, {
      s: scope,
      t: ['fine', 'b\u0000d'],
    });
    expect(tagged.data!.addKnowledge).toMatchObject({ __typename: 'ValidationError', message: `input.tags.1: ${NUL_TEXT}`, path: ['input', 'tags', '1'] });
    const keyed = await as(h, null, `mutation($m: JSON) { createProject(input: { name: "lim-key", metadata: $m }) { ${USER_ERROR} } }`, {
      m: { fine: { 'a\u0000': 1 } },
    });
    expect(keyed.data!.createProject).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: `input.metadata.fine: ${NUL_KEY}`,
      path: ['input', 'metadata', 'fine'],
      issues: [{ path: ['input', 'metadata', 'fine'], message: NUL_KEY }],
    });
    // A null argument holds no text (and is no object to walk).
    const nulls = await as(h, null, `mutation($o: ID, $m: JSON) { createProject(input: { name: "lim-null", organization: $o, metadata: $m }) { __typename } }`, { o: null, m: null });
    expect(nulls).toMatchObject({ data: { createProject: { __typename: 'CreateProjectSuccess' } } });
    expect(nulls.errors).toBeUndefined();
    // Without NUL the same inputs are written.
    const clean = await as(h, null, `mutation($m: JSON) { createProject(input: { name: "lim-key", metadata: $m }) { __typename } }`, { m: { fine: { a: 1 } } });
    expect(clean.data!.createProject).toEqual({ __typename: 'CreateProjectSuccess' });
  });

  it('a query field without a result union fails with VALIDATION_FAILED', async () => {
    const scope = await project('lim-query');
    const answer = await as(h, null, `query($s: ID!, $n: String!) { entryByName(scope: $s, kind: KNOWLEDGE, name: $n) { id } }`, { s: scope, n: 'x\u0000' });
    expect(answer.data).toEqual({ entryByName: null });
    expect(answer.errors?.map((e) => [e.message, e.extensions.code, e.path])).toEqual([[`name: ${NUL_TEXT}`, 'VALIDATION_FAILED', ['entryByName']]]);
  });

  it("a NUL in a nested field's argument is refused at the root field, literal or variable, through fragments too", async () => {
    // Pothos' Prisma plugin reads a session's `events(filter:)` into the query of `node`, before the
    // nested field's guard: on PostgreSQL the text's refusal was an INTERNAL_SERVER_ERROR.
    const scope = await project('lim-nested');
    const started = await as(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p: scope });
    const session = (started.data as { startSession: { session: { id: string } } }).startSession.session.id;
    const asked = [
      [`query($id: ID!, $v: String) { node(id: $id) { ... on Session { events(filter: { actor: $v }) { totalCount } } } }`, { id: session, v: 'a\u0000b' }],
      [`query($id: ID!) { node(id: $id) { ...S } } fragment S on Session { events(filter: { actor: "a\\u0000b" }) { totalCount } }`, { id: session }],
    ] as const;
    for (const [query, variables] of asked) {
      const answer = await as(h, null, query, variables);
      expect(answer.errors?.map((e) => [e.message, e.extensions.code, e.path])).toEqual([[`events.filter.actor: ${NUL_TEXT}`, 'VALIDATION_FAILED', ['node']]]);
    }
    // Without NUL the same query answers.
    const clean = await as(h, null, asked[0][0], { id: session, v: 'ab' });
    expect(clean.errors).toBeUndefined();
  });

  it('a subscription is refused before it starts', async () => {
    const sub = await sseSubscribe(h.app, parse(`subscription($s: ID!) { entryChanged(scope: $s) { type } }`), { s: 'x\u0000' });
    try {
      const [first] = await sub.collector.until((r) => r.length > 0);
      expect(first!.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([[`scope: ${NUL_TEXT}`, 'VALIDATION_FAILED']]);
    } finally {
      sub.close();
    }
  });
});
