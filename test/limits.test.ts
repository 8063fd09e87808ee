// Operation limits (issue #10): the cost model multiplies what a list selects by its page size,
// depth follows fragments, and each limit refuses with its code and numbers, exactly at its edge.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DEFAULT_LIMITS } from '../src/server/operation-limits.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { MAX_DOCUMENT_CHARS } from '../src/server/limits.ts';

// Small limits, so that each edge is easy to state.
const LIMITS = { maxCost: 41, maxDepth: 6, maxAliases: 3, maxTokens: 200, maxDirectives: 2, maxNesting: 12 };
const h = useHarness({ app: { limits: LIMITS } });

interface Answer {
  data?: unknown;
  errors?: { message: string; extensions: Record<string, unknown> }[];
}

async function run(query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Answer;
}

const refusal = (answer: Answer) => answer.errors?.map((e) => e.extensions);

// projects (1) + page x (edges (1) + node (1) + id (1) + name (1)) = 1 + 4 x page
const projectsPage = (paging: string) => `{ projects${paging} { edges { node { id name } } } }`;

describe(`operation limits (${DB_KIND})`, () => {
  it('a connection costs its page size times what it selects: first: 10 fits a limit of 41, first: 11 does not', async () => {
    expect((await run(projectsPage('(first: 10)'))).errors).toBeUndefined();
    expect(refusal(await run(projectsPage('(first: 11)')))).toEqual([{ code: 'QUERY_TOO_COSTLY', cost: 45, limit: 41 }]);
  });

  it('counts the page from variables, `last`, and the default page size (20)', async () => {
    const byVariable = 'query($n: Int) { projects(first: $n) { edges { node { id name } } } }';
    expect((await run(byVariable, { n: 10 })).errors).toBeUndefined();
    expect(refusal(await run(byVariable, { n: 11 }))).toEqual([{ code: 'QUERY_TOO_COSTLY', cost: 45, limit: 41 }]);
    expect(refusal(await run(projectsPage('(last: 12)')))).toEqual([{ code: 'QUERY_TOO_COSTLY', cost: 49, limit: 41 }]);
    expect(refusal(await run(projectsPage('')))).toEqual([{ code: 'QUERY_TOO_COSTLY', cost: 81, limit: 41 }]);
  });

  it('multiplies nested lists, and counts a fragment as often as it is spread', async () => {
    // tags (1) + 10 x (name (1)) = 11, per project
    const nested = `{ projects(first: 2) { edges { node { tags: ancestors { id } } } } }`;
    // projects 1 + 2 x (edges 1 + node 1 + ancestors (1 + 10 x 1)) = 1 + 2 x 13 = 27
    expect((await run(nested)).errors).toBeUndefined();
    const spread = `{ ...P ...Q } fragment P on Query { projects(first: 2) { edges { node { ancestors { id } } } } } fragment Q on Query { ...P }`;
    expect(refusal(await run(spread))).toEqual([{ code: 'QUERY_TOO_COSTLY', cost: 54, limit: 41 }]);
  });

  it('refuses depth beyond the limit, fragments followed', async () => {
    // projects > edges > node > parent > ... : fragments count with what they select.
    const deep = (tail: string) => `{ projects(first: 1) { edges { node { ...F } } } } fragment F on Project { parent { ...G } } fragment G on Scope { ${tail} }`;
    expect((await run(deep('id'))).errors).toBeUndefined(); // depth 5
    expect((await run(deep('... on Organization { parent { id } }'))).errors).toBeUndefined(); // depth 6
    expect(refusal(await run(deep('... on Organization { parent { ancestors { id } } }')))).toEqual([{ code: 'QUERY_TOO_DEEP', depth: 7, limit: 6 }]);
  });

  it('refuses aliases, tokens, directives and nesting beyond their limits', async () => {
    expect((await run('{ a: __schema { queryType { name } } b: projects(first: 1) { totalCount } c: projects(first: 1) { totalCount } }')).errors).toBeUndefined();
    const fourAliases = '{ a: projects(first: 1) { totalCount } b: projects(first: 1) { totalCount } c: projects(first: 1) { totalCount } d: projects(first: 1) { totalCount } }';
    expect(refusal(await run(fourAliases))).toEqual([{ code: 'TOO_MANY_ALIASES', limit: 3 }]);
    expect(refusal(await run(`{ ${'__typename '.repeat(200)}}`))).toEqual([{ code: 'TOO_MANY_TOKENS', limit: 200 }]);
    expect((await run('{ __typename @include(if: true) @skip(if: false) }')).errors).toBeUndefined();
    expect(refusal(await run('{ __typename @include(if: true) @skip(if: false) @include(if: true) }'))).toEqual([{ code: 'TOO_MANY_DIRECTIVES', limit: 2 }]);
    const nested = (n: number) => `{ nodes(ids: ${'['.repeat(n)}${']'.repeat(n)}) { id } }`;
    expect((refusal(await run(nested(10))) ?? []).map((e) => e.code)).not.toContain('TOO_DEEPLY_NESTED');
    expect(refusal(await run(nested(11)))).toEqual([{ code: 'TOO_DEEPLY_NESTED', limit: 12 }]);
  });

  it('answers variables that do not fit their types with at most 51 errors, and a list past 2,000 items with one', async () => {
    // Each error of 2,000 empty outcomes was made (6,000 of them, 1.2 s) before any was answered.
    const outcomes = 'mutation($o: [OutcomeItemInput!]!) { recordOutcomes(input: { scope: "x", outcomes: $o }) { __typename } }';
    const many = await run(outcomes, { o: Array.from({ length: 2_000 }, () => ({})) });
    expect(many.errors).toHaveLength(51);
    expect(new Set(refusal(many)!.map((e) => e.code))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(many.errors!.at(-1)!.message).toMatch(/error limit reached/);
    expect(refusal(await run(outcomes, { o: Array.from({ length: 2_001 }, () => ({})) }))).toEqual([{ code: 'BAD_USER_INPUT', limit: 2_000 }]);
    const kinds = 'query($k: [EntryKind!]) { memoryQuery(input: { scope: "x", kinds: $k }) { meta { totalCount } } }';
    expect(refusal(await run(kinds, { k: ['TOOL', 'TOOL', 'TOOL', 'TOOL'] }))).toEqual([{ code: 'BAD_USER_INPUT', limit: 3 }]);
  });

  it('answers unknown fields of an input variable with one error that names a few, and a value refused whole with its quote cut', async () => {
    // graphql-js quoted the whole object once per unknown field: 50,000 keys (0.5 MB) came back as 27 MB.
    const create = 'mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { __typename } }';
    const input: Record<string, unknown> = { name: 'org' };
    for (let i = 0; i < 50_000; i++) input[`k${i}`] = 1;
    const answer = await run(create, { i: input });
    expect(answer.errors).toEqual([
      expect.objectContaining({ message: 'Variable "$i" has fields CreateOrganizationInput does not define: "k0", "k1", "k2" and 49997 more', extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
    // Nested: the path to the object says where.
    const nested = await run('mutation($o: [OutcomeItemInput!]!) { recordOutcomes(input: { scope: "x", outcomes: $o }) { __typename } }', { o: [{ success: true, typo: 1 }] });
    expect(nested.errors?.map((e) => e.message)).toEqual(['Variable "$o.0" has fields OutcomeItemInput does not define: "typo"']);
    // A value of the wrong type is quoted by graphql-js; past 1,000 characters the quote is cut.
    const long = await run(create, { i: 'x'.repeat(1_000_000) });
    expect(long.errors).toHaveLength(1);
    expect(long.errors![0]!.message).toMatch(/^Variable "\$i" got invalid value "x{299}… \(cut\); Expected type "CreateOrganizationInput" to be an object\.$/);
    expect(JSON.stringify(long).length).toBeLessThan(2_000);
  });

  it(`refuses a document over ${MAX_DOCUMENT_CHARS} characters before it is read, whatever its tokens: a block string of a million line breaks`, async () => {
    const lines = `{ __type(name: """${'\n'.repeat(MAX_DOCUMENT_CHARS)}""") { name } }`;
    expect(refusal(await run(lines))).toEqual([{ code: 'DOCUMENT_TOO_LARGE', limit: MAX_DOCUMENT_CHARS }]);
    // Just within it: read, and answered.
    const within = `{ __type(name: """${'\n'.repeat(MAX_DOCUMENT_CHARS - 40)}""") { name } }`;
    expect(await run(within)).toEqual({ data: { __type: null } });
  });

  it('applies the same limits to subscriptions (SSE here; graphql-ws shares the pipeline)', async () => {
    const created = (await run('mutation { createProject(input: { name: "subs" }) { ... on CreateProjectSuccess { project { id } } } }')) as {
      data: { createProject: { project: { id: string } } };
    };
    const scope = created.data.createProject.project.id;
    const response = await h.app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: `subscription { entryChanged(scope: "${scope}") { entry { ... on Guideline { versions(first: 20) { edges { node { id } } } } } } }` }),
      // A subscription let through would stream until this aborts it (and the test fails).
      signal: AbortSignal.timeout(5_000),
    });
    // entryChanged 1 + entry (1 + versions (1 + 20 x 3)) = 63
    const text = await response.text();
    expect(text).toContain('"cost":63');
    expect(text).toContain('QUERY_TOO_COSTLY');
  });
});

describe(`request bodies (${DB_KIND})`, () => {
  const form = (body: string) =>
    h.app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-engram-csrf': '1' }, body });

  it('a form-encoded body is read for its GraphQL parameters; one of more than a hundred is refused before they are made', async () => {
    const read = await form(`query=${encodeURIComponent('query ($n: Int) { projects(first: $n) { totalCount } }')}&variables=${encodeURIComponent('{"n":1}')}&x=1`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as Answer).errors).toBeUndefined();
    // Two million empty parameters (4 MB): refused, as a bad request, not read into pairs.
    const refused = await form(`query=${encodeURIComponent('{ __typename }')}&${'a&'.repeat(2_000_000)}`);
    expect(refused.status).toBe(400);
    expect(refusal((await refused.json()) as Answer)).toEqual([{ code: 'BAD_REQUEST' }]);
  });
});

describe('limit settings', () => {
  it('come from the environment, within ranges', () => {
    const config = loadConfig({ MAX_QUERY_COST: '1000', MAX_QUERY_DEPTH: '9', OPERATION_TIMEOUT_MS: '2500', CORS_ORIGINS: 'https://a.example, http://localhost:5173' });
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxCost: 1000, maxDepth: 9, operationTimeoutMs: 2500 });
    expect(config.corsOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(loadConfig({}).limits).toEqual(DEFAULT_LIMITS);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(() => loadConfig({ MAX_QUERY_COST: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_NESTING: '5000' })).toThrow(/MAX_NESTING must be an integer between 1 and 1000/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(/CORS_ORIGINS/);
  });
});
