// Rules of memoryQuery and context that mutation testing (npm run mutate) of src/modules/search
// found unchecked: the searchable text of each kind (what a result's token estimate counts), the
// token estimate itself, the defaults of a query, paging at its edges, links to a conversation
// and their refusals, relatedTo an entry the caller may not read, and the exact scores.
import { describe, expect, it } from 'vitest';
import { as, ok, principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();

const MQ = `query($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) {
  edges { cursor score estimatedTokens breakdown { relation tags scope text priority recency decay } node { id name } }
  pageInfo { hasNextPage endCursor }
  meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }
  scopeChain { id } } }`;
const CTX = `query($i: ContextInput!) { context(input: $i) {
  guidelines { score estimatedTokens node { id name } } tools { score estimatedTokens node { id name } } knowledge { score estimatedTokens node { id name } }
  scopeChain { id } tokensUsed tokenBudget truncated } }`;

async function org(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: name }))
    .createOrganization.organization.id;
}
async function project(name: string, o: string | null = null): Promise<string> {
  return (await ok(h, null, `mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name, o }))
    .createProject.project.id;
}
async function session(p: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
}
async function tool(scope: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const d = await ok(h, null, `mutation($i: AddToolInput!) { addTool(input: $i) { __typename ... on AddToolSuccess { tool { id } } ... on UserError { message } } }`, {
    i: { scope, name, ...extra },
  });
  if (!d.addTool.tool) throw new Error(JSON.stringify(d));
  return d.addTool.tool.id;
}
async function guideline(scope: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const d = await ok(h, null, `mutation($i: AddGuidelineInput!) { addGuideline(input: $i) { __typename ... on AddGuidelineSuccess { guideline { id } } ... on UserError { message } } }`, {
    i: { scope, name, content: 'c', ...extra },
  });
  if (!d.addGuideline.guideline) throw new Error(JSON.stringify(d));
  return d.addGuideline.guideline.id;
}
async function knowledge(scope: string, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const d = await ok(h, null, `mutation($i: AddKnowledgeInput!) { addKnowledge(input: $i) { __typename ... on AddKnowledgeSuccess { knowledge { id } } ... on UserError { message } } }`, {
    i: { scope, title, content: 'c', ...extra },
  });
  if (!d.addKnowledge.knowledge) throw new Error(JSON.stringify(d));
  return d.addKnowledge.knowledge.id;
}
const mq = async (i: Record<string, unknown>, first?: number, after?: string | null) => (await ok(h, null, MQ, { i, first, after })).memoryQuery;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const tokensById = (r: { edges: { estimatedTokens: number; node: { id: string } }[] }) => Object.fromEntries(r.edges.map((e) => [e.node.id, e.estimatedTokens]));

describe('the searchable text and the token estimate', () => {
  it('counts description, content, rationale, constraints and examples, objects as JSON and strings as they are, blanks between, empty parts left out', async () => {
    const p = await project('mut-search-tokens');
    // Lengths chosen so that one character more (or a part fewer) changes the estimate.
    const ids = {
      // body "abc de {"a":1}": 14 characters; 24 + ceil((3 + 14) / 4) = 29.
      full: await tool(p, 'abc', { description: 'abc', constraints: 'de', examples: { a: 1 } }),
      // body "ab" (the empty description is no part, so no blank before it): 24 + ceil((2 + 2) / 4) = 25.
      empty: await tool(p, 'ef', { description: '', constraints: 'ab' }),
      // a number is no searchable text: body "q", 24 + ceil((3 + 1) / 4) = 25 ("q 12345" would be 27).
      number: await tool(p, 'hij', { description: 'q', examples: 12345 }),
      // null examples are none: body "xy", 24 + ceil((2 + 2) / 4) = 25 ("xy null" would be 27).
      none: await tool(p, 'nu', { description: 'xy', examples: null }),
      // an array is JSON: body "[1,2]", 24 + ceil((1 + 5) / 4) = 26.
      array: await tool(p, 'k', { examples: [1, 2] }),
      // no text at all: 24 + ceil(2 / 4) = 25.
      bare: await tool(p, 'lm'),
      // string examples as they are: body "xy r stuvw", 24 + ceil((1 + 10) / 4) = 27 (without them 26, quoted 28).
      rule: await guideline(p, 'g', { content: 'xy', rationale: 'r', examples: 'stuvw' }),
      // body "hello": 24 + ceil((2 + 5) / 4) = 26.
      fact: await knowledge(p, 'kn', { content: 'hello' }),
    };
    const all = await mq({ scope: p, inherit: false }, 50);
    expect(tokensById(all)).toEqual({
      [ids.full]: 29,
      [ids.empty]: 25,
      [ids.number]: 25,
      [ids.none]: 25,
      [ids.array]: 26,
      [ids.bare]: 25,
      [ids.rule]: 27,
      [ids.fact]: 26,
    });
    expect(all.meta.estimatedTokens).toBe(29 + 25 + 25 + 25 + 26 + 25 + 27 + 26);
    // Compact: 12 + ceil(name / 4).
    const compact = await mq({ scope: p, inherit: false, compact: true }, 50);
    expect(Object.values(tokensById(compact))).toEqual(Array(8).fill(13));

    // An update rewrites the text: the old words are gone, the new ones found, the estimate follows.
    await ok(h, null, `mutation($id: ID!) { updateTool(input: { id: $id, description: "wombat", constraints: "" }) { __typename } }`, { id: ids.full });
    const after = await mq({ scope: p, inherit: false }, 50);
    // body "wombat {"a":1}": 14 characters again, but found by its new word only.
    expect(tokensById(after)[ids.full]).toBe(29);
    expect((await mq({ scope: p, search: 'wombat' })).edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids.full]);
    expect((await mq({ scope: p, search: 'abc' })).edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids.full]); // its name
    expect((await mq({ scope: p, search: 'de' })).edges).toEqual([]);
  });
});

describe('memoryQuery and context through the schema', () => {
  const importKnowledge = (scope: string, names: string[]) =>
    ok(h, null, `mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`, {
      e: names.map((name) => ({ scope, kind: 'KNOWLEDGE', name, content: 'c' })),
    });

  it('defaults to a page of 20 without a budget; an empty page has no end cursor; context takes up to 100 within 4000 tokens', async () => {
    const p = await project('mut-search-defaults');
    await importKnowledge(p, Array.from({ length: 21 }, (_, i) => `d${i}`));
    const r = await mq({ scope: p, inherit: false });
    // Each result: 24 + ceil((name + "c") / 4) = 25 tokens.
    expect(r.meta).toEqual({ totalCount: 21, returnedCount: 20, truncated: false, hasMore: true, estimatedTokens: 500, tokenBudget: null });
    expect(r.pageInfo).toEqual({ hasNextPage: true, endCursor: r.edges[19].cursor });
    const empty = await mq({ scope: p, inherit: false, search: 'nothingmatcheshere' });
    expect(empty.meta).toEqual({ totalCount: 0, returnedCount: 0, truncated: false, hasMore: false, estimatedTokens: 0, tokenBudget: null });
    expect(empty.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    expect(empty.edges).toEqual([]);

    // A task without words ranks everything, as no task does.
    for (const task of [undefined, '!!! ???']) {
      const c = (await ok(h, null, CTX, { i: { scope: p, task } })).context;
      expect(c.knowledge).toHaveLength(21);
      expect([c.guidelines, c.tools]).toEqual([[], []]);
      expect({ tokensUsed: c.tokensUsed, tokenBudget: c.tokenBudget, truncated: c.truncated }).toEqual({ tokensUsed: 525, tokenBudget: 4000, truncated: false });
      expect(c.scopeChain).toEqual([{ id: p }, { id: (await ok(h, null, `{ globalScope { id } }`)).globalScope.id }]);
    }
    const tight = (await ok(h, null, CTX, { i: { scope: p, tokenBudget: 60 } })).context;
    expect({ n: tight.knowledge.length, tokensUsed: tight.tokensUsed, tokenBudget: tight.tokenBudget, truncated: tight.truncated }).toEqual({ n: 2, tokensUsed: 50, tokenBudget: 60, truncated: true });
  });

  it('costs 25, plus what it selects times its page size, 20 without first, toward the query cost limit', async () => {
    const { createApp } = await import('../src/app.ts');
    const { DEFAULT_LIMITS } = await import('../src/server/operation-limits.ts');
    const strict = createApp({ database: h.database, limits: { ...DEFAULT_LIMITS, maxCost: 1 } });
    try {
      const p = await project('mut-search-cost');
      const cost = async (first: number | null) => {
        const response = await strict.yoga.fetch('http://engram.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `query($s: ID!, $f: Int) { memoryQuery(input: { scope: $s }, first: $f) { pageInfo { hasNextPage } } }`, variables: { s: p, f: first } }),
        });
        const body = (await response.json()) as { errors: { extensions: { code: string; cost: number } }[] };
        expect(body.errors[0]!.extensions.code).toBe('QUERY_TOO_COSTLY');
        return body.errors[0]!.extensions.cost;
      };
      const [none, twenty, five] = [await cost(null), await cost(20), await cost(5)];
      // pageInfo { hasNextPage } costs 2 per result of the page.
      expect([none, twenty, five, await cost(0)]).toEqual([25 + 2 * 20, 25 + 2 * 20, 25 + 2 * 5, 25]);
    } finally {
      await strict.stop(1_000);
    }
  });

  it('links results to a conversation or one of its messages, and refuses what cannot be linked', async () => {
    const p = await project('mut-search-links');
    const a = await tool(p, 'linked-a', { description: 'zebra' });
    const conv = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s, title: "t" }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: p }))
      .startConversation.conversation.id;
    const message = (await ok(h, null, `mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "hi" }) { ... on AddMessageSuccess { added { id } } } }`, { c: conv }))
      .addMessage.added.id;
    const links = async () =>
      (await ok(h, null, `query($c: ID!) { node(id: $c) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score source } } } } } }`, { c: conv }))
        .node.context.edges.map((e: { node: unknown }) => e.node);
    const refused = async (query: string, i: Record<string, unknown>, key: string | null = null) => {
      const r = await as(h, key, query, { i });
      return { data: r.data, errors: r.errors?.map((e) => ({ message: e.message, extensions: e.extensions })) };
    };
    const MQ_IDS = `query($i: MemoryQueryInput!) { memoryQuery(input: $i) { edges { score node { id } } } }`;
    const CTX_IDS = `query($i: ContextInput!) { context(input: $i) { tools { score node { id } } } }`;

    expect(await refused(MQ_IDS, { scope: p, message })).toEqual({
      data: null,
      errors: [{ message: 'input.message: needs `conversation`', extensions: { code: 'VALIDATION_FAILED', inputPath: ['input', 'message'] } }],
    });
    expect(await refused(CTX_IDS, { scope: p, message })).toEqual({
      data: null,
      errors: [{ message: 'input.message: needs `conversation`', extensions: { code: 'VALIDATION_FAILED', inputPath: ['input', 'message'] } }],
    });
    expect(await refused(MQ_IDS, { scope: p, conversation: p })).toEqual({
      data: null,
      errors: [{ message: 'input.conversation: must be the ID of a Conversation', extensions: { code: 'VALIDATION_FAILED', inputPath: ['input', 'conversation'] } }],
    });
    expect(await refused(MQ_IDS, { scope: p, conversation: conv, message: conv })).toEqual({
      data: null,
      errors: [{ message: 'input.message: must be the ID of a Message', extensions: { code: 'VALIDATION_FAILED', inputPath: ['input', 'message'] } }],
    });
    const reader = await principal(h, 'mut-search-reader', { grants: [[p, 'READ']] });
    expect(await refused(MQ_IDS, { scope: p, conversation: conv }, reader.key)).toEqual({
      data: null,
      errors: [{ message: 'Linking entries to this conversation needs WRITE on its scope', extensions: { code: 'FORBIDDEN', inputPath: ['input', 'conversation'] } }],
    });
    expect(await links()).toEqual([]);

    // context links what it returned, to the conversation, then to a message.
    const viaContext = (await ok(h, null, CTX_IDS, { i: { scope: p, task: 'zebra', conversation: conv } })).context.tools;
    expect(viaContext.map((e: { node: { id: string } }) => e.node.id)).toEqual([a]);
    expect(await links()).toEqual([{ entry: { id: a }, message: null, score: viaContext[0].score, source: 'QUERY' }]);
    const toMessage = (await ok(h, null, CTX_IDS, { i: { scope: p, task: 'zebra', conversation: conv, message } })).context.tools;
    expect((await links()).filter((l: { message: unknown }) => l.message !== null)).toEqual([{ entry: { id: a }, message: { id: message }, score: toMessage[0].score, source: 'QUERY' }]);
  });

  it('relatedTo an entry or scope the caller may not read finds nothing, as an unknown one', async () => {
    const p = await project('mut-search-rel-p');
    const q = await project('mut-search-rel-q');
    const mine = await tool(p, 'mine');
    const theirs = await tool(q, 'theirs');
    const relate = (source: string, target: string, type: string) =>
      ok(h, null, `mutation($i: CreateRelationInput!) { createRelation(input: $i) { __typename } }`, { i: { source, target, type } });
    await relate(mine, theirs, 'RELATED_TO');
    await relate(mine, q, 'APPLIES_TO');
    const pOnly = await principal(h, 'mut-search-rel-p-only', { grants: [[p, 'READ']] });
    const both = await principal(h, 'mut-search-rel-both', { grants: [[p, 'READ'], [q, 'READ']] });
    const found = async (key: string, relatedTo: string) =>
      (await as(h, key, `query($i: MemoryQueryInput!) { memoryQuery(input: $i) { edges { node { id } } } }`, { i: { scope: p, relatedTo } })).data?.memoryQuery.edges.map(
        (e: { node: { id: string } }) => e.node.id,
      );
    expect(await found(both.key, theirs)).toEqual([mine]);
    expect(await found(both.key, q)).toEqual([mine]);
    expect(await found(pOnly.key, theirs)).toEqual([]);
    expect(await found(pOnly.key, q)).toEqual([]);
  });
});

describe('memoryQuery input and scores', () => {
  const MQ_IDS = `query($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) { edges { node { id } } meta { returnedCount hasMore } } }`;
  const refusal = async (i: Record<string, unknown>, first?: number, after?: string) => {
    const r = await as(h, null, MQ_IDS, { i, first, after });
    expect(r.data ?? null).toBeNull();
    return r.errors?.map((e) => ({ message: e.message, ...e.extensions }));
  };
  const cursor = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url');

  it('refuses each bad input at its path, with its message', async () => {
    const p = await project('mut-search-refusals');
    const TAG = 'must be 1-64 characters: letters, digits and . _ : + # / - (not first)';
    expect(await refusal({ scope: p, tags: { include: ['!bad'] } })).toEqual([{ message: `input.tags.include.0: ${TAG}`, code: 'VALIDATION_FAILED', inputPath: ['input', 'tags', 'include', '0'] }]);
    expect(await refusal({ scope: p, tags: { require: ['fine', '!bad'] } })).toEqual([{ message: `input.tags.require.1: ${TAG}`, code: 'VALIDATION_FAILED', inputPath: ['input', 'tags', 'require', '1'] }]);
    expect(await refusal({ scope: p, tags: { exclude: ['!bad'] } })).toEqual([{ message: `input.tags.exclude.0: ${TAG}`, code: 'VALIDATION_FAILED', inputPath: ['input', 'tags', 'exclude', '0'] }]);
    expect(await refusal({ scope: p, search: 'x'.repeat(4001) })).toEqual([
      { message: 'input.search: must be at most 4000 characters (got 4001)', code: 'VALIDATION_FAILED', inputPath: ['input', 'search'] },
    ]);
    expect(await refusal({ scope: p, search: '!!! ...' })).toEqual([{ message: 'input.search: must contain a word', code: 'VALIDATION_FAILED', inputPath: ['input', 'search'] }]);
    for (const first of [-1, 101]) {
      expect(await refusal({ scope: p }, first)).toEqual([{ message: 'first: must be an integer between 0 and 100', code: 'VALIDATION_FAILED', inputPath: ['first'] }]);
    }
    expect(await refusal({ scope: p, tokenBudget: 0 })).toEqual([
      { message: 'input.tokenBudget: must be an integer between 1 and 10000000', code: 'VALIDATION_FAILED', inputPath: ['input', 'tokenBudget'] },
    ]);
    expect(await refusal({ scope: p, kinds: [] })).toEqual([{ message: 'input.kinds: must name at least one kind', code: 'VALIDATION_FAILED', inputPath: ['input', 'kinds'] }]);
    for (const after of ['nope', cursor({ a: 1, s: 'x', i: 'y' }), cursor({ a: 1, s: 2 }), cursor({ a: '1', s: 2, i: 'y' })]) {
      expect(await refusal({ scope: p }, undefined, after)).toEqual([{ message: 'after: is not a cursor of this query', code: 'VALIDATION_FAILED', inputPath: ['after'] }]);
    }
    // The bounds themselves are accepted.
    await tool(p, 'only');
    expect((await ok(h, null, MQ_IDS, { i: { scope: p, inherit: false, tokenBudget: 1 }, first: 0 })).memoryQuery.meta).toEqual({ returnedCount: 0, hasMore: true });
    expect((await ok(h, null, MQ_IDS, { i: { scope: p, inherit: false, tokenBudget: 10_000_000 }, first: 100 })).memoryQuery.meta).toEqual({ returnedCount: 1, hasMore: false });
    // A cursor of the right shape continues after its (score, id).
    expect((await ok(h, null, MQ_IDS, { i: { scope: p, inherit: false }, after: cursor({ a: Date.now(), s: 1000, i: '' }) })).memoryQuery.meta).toEqual({ returnedCount: 1, hasMore: false });
    expect((await ok(h, null, MQ_IDS, { i: { scope: p, inherit: false }, after: cursor({ a: Date.now(), s: -1000, i: '' }) })).memoryQuery.meta).toEqual({ returnedCount: 0, hasMore: false });
  });

  it('searches words: case-insensitive, digits are words, at most 16 words', async () => {
    const p = await project('mut-search-words');
    const zebra = await tool(p, 'striped', { description: 'zebra release 42' });
    const search = async (s: string) => (await ok(h, null, MQ_IDS, { i: { scope: p, search: s } })).memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(await search('ZEBRA zebra')).toEqual([zebra]);
    expect(await search('42')).toEqual([zebra]);
    const nonsense = Array.from({ length: 16 }, (_, i) => `qq${i}x`).join(' ');
    expect(await search(`${nonsense} zebra`)).toEqual([]);
    expect(await search(`zebra ${nonsense}`)).toEqual([zebra]);
  });

  it('scores each part exactly: scope by depth, guideline priority, tags shared, text relative to the best, relation to the chain', async () => {
    const o = await org('mut-search-score-org');
    const p = await project('mut-search-score', o);
    const s = await session(p);
    // Chain: session, project, organization, global (L = 4): proximity 1, 3/4, 1/2, 1/4.
    const inSession = await knowledge(s, 'in-session', { content: 'aardvark aardvark aardvark', tags: ['red', 'blue'] });
    const inProject = await guideline(p, 'in-project', { content: 'aardvark', priority: 80, tags: ['red'] });
    const inOrg = await tool(o, 'in-org', { description: 'plain' });
    const related = await guideline(o, 'related', { content: 'plain' }); // priority 50 by default
    await ok(h, null, `mutation($i: CreateRelationInput!) { createRelation(input: $i) { __typename } }`, { i: { source: related, target: p, type: 'APPLIES_TO' } });
    const breakdowns = (r: { edges: { score: number; breakdown: Record<string, number>; node: { id: string } }[] }) =>
      Object.fromEntries(r.edges.map((e) => [e.node.id, e.breakdown]));
    const fresh = (b: Record<string, number>) => {
      // Changed a moment ago: recency 0.5 * 1 / (1 + age / 30 days), decay min(1, boost) = 1.
      expect(b.recency).toBeCloseTo(0.5, 5);
      expect(b.recency).toBeLessThanOrEqual(0.5);
      expect(b.decay).toBe(1);
      return Object.fromEntries(Object.entries({ ...b, recency: 0.5 }).map(([k, v]) => [k, Math.round(v * 1e9) / 1e9]));
    };
    const all = await mq({ scope: s }, 50);
    expect(all.scopeChain.length).toBe(4);
    const b = breakdowns(all);
    expect(fresh(b[inSession]!)).toEqual({ relation: 0, tags: 0, scope: 2, text: 0, priority: 0, recency: 0.5, decay: 1 });
    expect(fresh(b[inProject]!)).toEqual({ relation: 0, tags: 0, scope: 1.5, text: 0, priority: 1.2, recency: 0.5, decay: 1 });
    expect(fresh(b[inOrg]!)).toEqual({ relation: 0, tags: 0, scope: 1, text: 0, priority: 0, recency: 0.5, decay: 1 });
    expect(fresh(b[related]!)).toEqual({ relation: 5, tags: 0, scope: 1, text: 0, priority: 0.75, recency: 0.5, decay: 1 });
    for (const e of all.edges) {
      const x = e.breakdown;
      expect(e.score).toBeCloseTo(x.relation + x.tags + x.scope + x.text + x.priority + x.recency + x.decay, 9);
    }
    expect(all.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([related, inProject, inSession, inOrg]);

    // Share of two `include` tags: 1 of 2 or both; one `include` tag: 1.
    const twoTags = await mq({ scope: s, tags: { include: ['red', 'blue'] } }, 50);
    // Listed once each, though the session's entry carries both tags.
    expect(twoTags.edges).toHaveLength(2);
    expect(twoTags.meta.totalCount).toBe(2);
    const two = breakdowns(twoTags);
    expect(Object.keys(two).sort()).toEqual([inSession, inProject].sort());
    expect([two[inSession]!.tags, two[inProject]!.tags]).toEqual([3, 1.5]);
    const one = breakdowns(await mq({ scope: s, tags: { include: ['RED'] } }, 50));
    expect([one[inSession]!.tags, one[inProject]!.tags]).toEqual([3, 3]);
    // Text: the best match 1, the other relative to it.
    const text = breakdowns(await mq({ scope: s, search: 'aardvark' }, 50));
    expect(Object.keys(text).sort()).toEqual([inSession, inProject].sort());
    expect(text[inSession]!.text).toBe(1);
    expect(text[inProject]!.text).toBeGreaterThan(0);
    expect(text[inProject]!.text).toBeLessThan(1);
    // relatedTo a scope: the relation counts 5 for those found.
    const rel = breakdowns(await mq({ scope: s, relatedTo: p }, 50));
    expect(Object.keys(rel)).toEqual([related]);
    expect(rel[related]!.relation).toBe(5);
    // Without inheriting, the session alone: proximity 1 of 1.
    const own = breakdowns(await mq({ scope: s, inherit: false }, 50));
    expect(Object.keys(own)).toEqual([inSession]);
    expect(own[inSession]!.scope).toBe(2);
  });
});

describe('scopes of a query', () => {
  it('an unknown scope is not found; an entry of a project overrides one of the same kind and name in the global scope', async () => {
    const unknown = Buffer.from('Project:01900000-0000-7000-8000-000000000000').toString('base64');
    const r = await as(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s }) { edges { node { id } } } }`, { s: unknown });
    expect(r.errors?.map((e) => ({ message: e.message, ...e.extensions }))).toEqual([{ message: 'No scope has this id', code: 'NOT_FOUND', inputPath: ['input', 'scope'] }]);

    // Chain of two (project, global): the override check applies there too.
    const p = await project('mut-search-override');
    const g = (await ok(h, null, `{ globalScope { id } }`)).globalScope.id;
    const globalOne = await tool(g, 'mut-search-dup');
    try {
      const own = await tool(p, 'mut-search-dup');
      const ids = (await mq({ scope: p }, 50)).edges.map((e: { node: { id: string } }) => e.node.id);
      expect(ids).toEqual([own]);
      const both = (await mq({ scope: p, includeOverridden: true }, 50)).edges.map((e: { node: { id: string } }) => e.node.id);
      expect(both).toEqual([own, globalOne]);
    } finally {
      await ok(h, null, `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: globalOne });
    }
  });
});

describe('what memoryQuery and context pass on', () => {
  const NAMES = `query($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 50) { edges { node { name } } meta { tokenBudget } } }`;
  const names = async (i: Record<string, unknown>) => (await ok(h, null, NAMES, { i })).memoryQuery.edges.map((e: { node: { name: string } }) => e.node.name).sort();
  const CTX_NAMES = `query($i: ContextInput!) { context(input: $i) {
    guidelines { breakdown { text } node { name } } tools { breakdown { text } node { name } } knowledge { breakdown { text } node { name } } } }`;
  const byKind = async (i: Record<string, unknown>) => {
    const c = (await ok(h, null, CTX_NAMES, { i })).context;
    const list = (l: { breakdown: { text: number }; node: { name: string } }[]) => l.map((e) => `${e.node.name}:${e.breakdown.text > 0 ? 'match' : '-'}`).sort();
    return { guidelines: list(c.guidelines), tools: list(c.tools), knowledge: list(c.knowledge) };
  };

  it('every filter given is applied, and the defaults leave out inactive and expired entries', async () => {
    const p = await project('mut-search-flags');
    const tick = () => new Promise((resolve) => setTimeout(resolve, 15));
    await knowledge(p, 'old', { memoryType: 'EPISODIC' });
    await tool(p, 'linked');
    await tick();
    const mid = new Date().toISOString();
    await tick();
    const inactive = await guideline(p, 'inactive');
    await ok(h, null, `mutation($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`, { id: inactive });
    const expired = await knowledge(p, 'expired');
    await h.database.prisma.entry.update({ where: { id: dbId(expired) }, data: { validUntil: new Date(Date.now() - 60_000) } });
    const rel = await tool(p, 'relating');
    const linked = (await mq({ scope: p, inherit: false, search: 'linked' })).edges[0].node.id;
    await ok(h, null, `mutation($i: CreateRelationInput!) { createRelation(input: $i) { __typename } }`, { i: { source: rel, target: linked, type: 'DEPENDS_ON' } });
    const base = { scope: p, inherit: false };

    expect(await names(base)).toEqual(['linked', 'old', 'relating']);
    expect(await names({ ...base, includeInactive: true })).toEqual(['inactive', 'linked', 'old', 'relating']);
    expect(await names({ ...base, includeExpired: true })).toEqual(['expired', 'linked', 'old', 'relating']);
    expect(await names({ ...base, memoryTypes: ['EPISODIC'] })).toEqual(['old']);
    expect(await names({ ...base, createdAfter: mid })).toEqual(['relating']);
    expect(await names({ ...base, createdBefore: mid })).toEqual(['linked', 'old']);
    expect(await names({ ...base, updatedAfter: mid })).toEqual(['relating']);
    expect(await names({ ...base, updatedBefore: mid })).toEqual(['linked', 'old']);
    expect(await names({ ...base, relatedTo: linked, relationType: 'DEPENDS_ON' })).toEqual(['relating']);
    expect(await names({ ...base, relatedTo: linked, relationType: 'RELATED_TO' })).toEqual([]);
    expect((await ok(h, null, NAMES, { i: { ...base, tokenBudget: 500 } })).memoryQuery.meta.tokenBudget).toBe(500);
    // A budget of 30 tokens holds one result (each is 25 or more).
    expect((await names({ ...base, tokenBudget: 30 })).length).toBe(1);

    // context: kinds, expiry and memory types, each as given; the default leaves expired entries out.
    expect(await byKind({ scope: p })).toEqual({ guidelines: [], tools: ['linked:-', 'relating:-'], knowledge: ['old:-'] });
    expect(await byKind({ scope: p, kinds: ['TOOL'] })).toEqual({ guidelines: [], tools: ['linked:-', 'relating:-'], knowledge: [] });
    expect(await byKind({ scope: p, includeExpired: true })).toEqual({ guidelines: [], tools: ['linked:-', 'relating:-'], knowledge: ['expired:-', 'old:-'] });
    expect(await byKind({ scope: p, memoryTypes: ['EPISODIC'] })).toEqual({ guidelines: [], tools: [], knowledge: ['old:-'] });
  });

  it('context groups by kind and ranks words of the task higher without leaving anything out', async () => {
    const p = await project('mut-search-context-kinds');
    await guideline(p, 'rule', { content: 'always lint' });
    await tool(p, 'linter', { description: 'runs checks' });
    await tool(p, 'other', { description: 'formats code' });
    await knowledge(p, 'fact', { content: 'deploys on friday' });
    expect(await byKind({ scope: p })).toEqual({ guidelines: ['rule:-'], tools: ['linter:-', 'other:-'], knowledge: ['fact:-'] });
    // Each word of the task counts: "lint" (a prefix) and "friday".
    expect(await byKind({ scope: p, task: 'lint, friday?' })).toEqual({ guidelines: ['rule:match'], tools: ['linter:match', 'other:-'], knowledge: ['fact:match'] });
  });

  it('refuses a scope, conversation or relatedTo of the wrong kind or unknown, at its path', async () => {
    const p = await project('mut-search-paths');
    const t = await tool(p, 'path-tool');
    const missingConversation = Buffer.from('Conversation:01900000-0000-7000-8000-000000000000').toString('base64');
    const errors = async (query: string, i: Record<string, unknown>, key: string | null = null) =>
      (await as(h, key, query, { i })).errors?.map((e) => ({ message: e.message, ...e.extensions }));
    const MQ_IDS = `query($i: MemoryQueryInput!) { memoryQuery(input: $i) { edges { node { id } } } }`;
    const CTX_IDS = `query($i: ContextInput!) { context(input: $i) { tools { node { id } } } }`;
    const SCOPE = 'input.scope: must be the ID of a GlobalScope or Organization or Project or Session';
    expect(await errors(MQ_IDS, { scope: t })).toEqual([{ message: SCOPE, code: 'VALIDATION_FAILED', inputPath: ['input', 'scope'] }]);
    expect(await errors(CTX_IDS, { scope: t })).toEqual([{ message: SCOPE, code: 'VALIDATION_FAILED', inputPath: ['input', 'scope'] }]);
    const outsider = await principal(h, 'mut-search-outsider', { grants: [[await project('mut-search-elsewhere'), 'READ']] });
    for (const query of [MQ_IDS, CTX_IDS]) {
      expect(await errors(query, { scope: p }, outsider.key)).toEqual([{ message: 'No scope has this id', code: 'NOT_FOUND', inputPath: ['input', 'scope'] }]);
    }
    // A reader of the scope is let through (both need READ, no more).
    const reader = await principal(h, 'mut-search-path-reader', { grants: [[p, 'READ']] });
    for (const query of [MQ_IDS, CTX_IDS]) expect(await errors(query, { scope: p }, reader.key)).toBeUndefined();
    expect(await errors(MQ_IDS, { scope: p, conversation: missingConversation })).toEqual([
      { message: 'No conversation has this id', code: 'NOT_FOUND', inputPath: ['input', 'conversation'] },
    ]);
    expect(await errors(MQ_IDS, { scope: p, relatedTo: missingConversation })).toEqual([
      {
        message: 'input.relatedTo: must be the ID of a Tool or Guideline or Knowledge or GlobalScope or Organization or Project or Session',
        code: 'VALIDATION_FAILED',
        inputPath: ['input', 'relatedTo'],
      },
    ]);
  });

  it('a first page over aged memory holds an old, long-lived entry that is neither recent nor sampled', async () => {
    // Pruning assumes of an entry it does not rank at most the decay bound of its age: four recent
    // but fast-decaying memories are sampled, an older procedure with a long half-life is not, and
    // it still tops the page (recency 0.125 + decay 0.39 at 90 days, against 0.21 + 0.1 at 40).
    const p = await project('mut-search-aged');
    const HOUR = 3_600_000;
    const aged = async (title: string, memoryType: string, hours: number) => {
      const id = await knowledge(p, title, { memoryType, importance: 0.5 });
      await h.database.prisma.entry.update({ where: { id: dbId(id) }, data: { updatedAt: new Date(Date.now() - hours * HOUR) } });
      return id;
    };
    const procedure = await aged('procedure', 'PROCEDURAL', 90 * 24);
    for (let i = 0; i < 4; i++) await aged(`episode-${i}`, 'EPISODIC', 40 * 24 - i);
    const first = (await mq({ scope: p, inherit: false }, 1)).edges.map((e: { node: { id: string } }) => e.node.id);
    expect(first).toEqual([procedure]);
    const full = (await mq({ scope: p, inherit: false, includeOverridden: true, tags: {} }, 5)).edges.map((e: { node: { id: string } }) => e.node.id);
    expect(full[0]).toBe(procedure);
  });
});
