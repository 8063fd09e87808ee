import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { createApp } from '../src/app.ts';
import { openDatabase } from '../src/infra/database.ts';
import { createDatabaseUrl, useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject, startSession } from './support/ops.ts';

const h = useHarness({ listen: true });

const Node = graphql(`
  query NodeLookup($id: ID!) {
    node(id: $id) {
      __typename
      id
      ... on Scope { scopeName: name }
      ... on Entry { name currentVersion { id __typename } }
      ... on Tag { name }
    }
  }
`);

const Nodes = graphql(`
  query NodesLookup($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }
`);

const TagIds = graphql(`query TagIds { tags(first: 1) { edges { node { id name } } } }`);

const Organizations = graphql(`
  query OrgPages($first: Int, $after: String) {
    organizations(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { name } } }
  }
`);

const CreateOrganization = graphql(`
  mutation ApiCreateOrganization($name: String!) { createOrganization(input: { name: $name }) { __typename } }
`);

describe('Relay nodes and paging', () => {
  it('refetches every node type by global ID, and only as its own type', async () => {
    const p = await createProject(h, 'nodes');
    const s = await startSession(h, p);
    const t = await addTool(h, p, 'n-tool');
    const g = await addGuideline(h, p, 'n-guideline');
    const k = await addKnowledge(h, s, 'n-knowledge');
    const tag = (await h.ok(TagIds)).tags.edges[0]!.node;
    for (const [id, typename] of [[p, 'Project'], [s, 'Session'], [t, 'Tool'], [g, 'Guideline'], [k, 'Knowledge'], [tag.id, 'Tag']] as const) {
      const r = await h.ok(Node, { id });
      expect(r.node).toMatchObject({ __typename: typename, id });
    }
    const tool = await h.ok(Node, { id: t });
    const versionId = tool.node && 'currentVersion' in tool.node ? tool.node.currentVersion.id : '';
    expect((await h.ok(Node, { id: versionId })).node).toMatchObject({ __typename: 'ToolVersion', id: versionId });
    // A project's raw id dressed up as an Organization or a Tool's as a Guideline is not found.
    const rawProject = Buffer.from(p, 'base64').toString().split(':')[1];
    const rawTool = Buffer.from(t, 'base64').toString().split(':')[1];
    expect((await h.ok(Node, { id: Buffer.from(`Organization:${rawProject}`).toString('base64') })).node).toBeNull();
    expect((await h.ok(Node, { id: Buffer.from(`Guideline:${rawTool}`).toString('base64') })).node).toBeNull();
    const many = await h.ok(Nodes, { ids: [t, p, Buffer.from(`Tool:${rawProject}`).toString('base64')] });
    expect(many.nodes.map((n) => n?.__typename ?? null)).toEqual(['Tool', 'Project', null]);
  });

  it('pages with cursors and a total count', async () => {
    // Other tests of this file may have made organizations: counted before, the total is exact.
    const before = (await h.ok(Organizations, { first: 1 })).organizations.totalCount;
    for (const name of ['page-a', 'page-b', 'page-c']) await h.ok(CreateOrganization, { name });
    const first = await h.ok(Organizations, { first: 2 });
    const total = first.organizations.totalCount;
    expect(total).toBe(before + 3);
    expect(first.organizations.edges).toHaveLength(2);
    expect(first.organizations.pageInfo.hasNextPage).toBe(true);
    const seen = first.organizations.edges.map((e) => e.node.name);
    let after = first.organizations.pageInfo.endCursor;
    for (;;) {
      const next = await h.ok(Organizations, { first: 2, after });
      seen.push(...next.organizations.edges.map((e) => e.node.name));
      if (!next.organizations.pageInfo.hasNextPage) break;
      after = next.organizations.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen.slice(-3)).toEqual(['page-a', 'page-b', 'page-c']); // oldest first: the new ones last
    const tooBig = await h.gql(Organizations, { first: 101 });
    expect(tooBig.errors?.[0]).toMatchObject({ message: 'first: must be at most 100', extensions: { code: 'VALIDATION_FAILED' } });
    const negative = await h.gql(Organizations, { first: -1 });
    expect(negative.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('errors', () => {
  it('masks unexpected failures', async () => {
    const { url, drop } = await createDatabaseUrl();
    const database = await openDatabase(url);
    const app = createApp({ database });
    // Closing and deleting the database makes every query fail inside Prisma.
    await database.close();
    await drop();
    {
      const response = await app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ organizations { totalCount } }' }),
      });
      const body = (await response.json()) as { errors: Array<{ message: string; extensions?: { code?: string } }> };
      expect(body.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify(body)).not.toMatch(/prisma|sqlite|postgres/i);
    }
    // Its scheduled jobs (the change feed's pruning) would otherwise run on the closed database.
    await app.stop();
  });

  it('reports syntax and validation errors as GraphQL errors', async () => {
    const response = await h.app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ organizations { nope } }' }),
    });
    const body = (await response.json()) as { errors: Array<{ message: string; extensions?: { code?: string } }> };
    expect(body.errors[0]?.message).toMatch(/nope/);
    expect(body.errors[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  // GraphQL over HTTP: a response without `data` is 4xx/5xx for application/graphql-response+json;
  // application/json keeps 200, as Yoga answers validation errors. Engram refuses these before
  // execution (its limits), where they once answered 200 and lost graphql-js' locations.
  it.each([
    ['a missing required variable', 'query($id: ID!) { node(id: $id) { id } }', {}, 'BAD_USER_INPUT', true],
    ['null for a non-null variable', 'query($id: ID!) { node(id: $id) { id } }', { id: null }, 'BAD_USER_INPUT', true],
    ['a variable of the wrong type', 'query($n: Int!) { projects(first: $n) { totalCount } }', { n: 'x' }, 'BAD_USER_INPUT', true],
    ['a list variable over 2,000 items', 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array<string>(2001).fill('x') }, 'BAD_USER_INPUT', true],
    ['a malformed global ID literal', '{ node(id: "zz") { id } }', {}, 'BAD_USER_INPUT', true],
    ['a malformed global ID variable', 'query($id: ID!) { node(id: $id) { id } }', { id: 'zz' }, 'BAD_USER_INPUT', true],
    ['a query over the cost limit', '{ projects(first: 100) { edges { node { entries(first: 100) { edges { node { versions(first: 100) { totalCount } } } } } } } }', {}, 'QUERY_TOO_COSTLY', false],
  ])('answers %s without data: 400 for application/graphql-response+json, 200 for application/json', async (_what, query, variables, code, located) => {
    for (const [accept, status] of [['application/graphql-response+json', 400], ['application/json', 200]] as const) {
      const response = await fetch(`http://127.0.0.1:${h.port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: unknown; errors: Array<{ locations?: unknown[]; extensions: Record<string, unknown> }> };
      expect({ accept, status: response.status }).toEqual({ accept, status });
      expect(body).not.toHaveProperty('data');
      expect(body.errors[0]?.extensions.code).toBe(code);
      // Yoga's `http` extension sets the status and stays out of the answer.
      expect(body.errors[0]?.extensions).not.toHaveProperty('http');
      if (located) expect(body.errors[0]?.locations).toEqual([{ line: 1, column: expect.any(Number) as number }]);
    }
  });

  it('locates a malformed global ID at its field, also inside a fragment', async () => {
    const query = '{ globalScope { id }\n  ...F }\nfragment F on Query { nodes(ids: ["zz"]) { id } }';
    const body = (await (await h.app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json()) as {
      errors: Array<{ message: string; locations?: unknown[] }>;
    };
    expect(body.errors).toEqual([{ message: 'Invalid global ID: zz', locations: [{ line: 3, column: 23 }], extensions: { code: 'BAD_USER_INPUT' } }]);
  });
});
