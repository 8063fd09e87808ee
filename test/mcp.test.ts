// MCP over Streamable HTTP (/mcp on the real listening server), driven by the official SDK client:
// the tools list, each family of tools end to end, errors with GraphQL's codes, and access
// control identical to GraphQL's.
import { MAX_TOOL_ARGUMENTS } from '../src/mcp/server.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { as, codes, ok, principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { createProject, globalScopeId, startSession } from './support/ops.ts';

const h = useHarness({ listen: true });
const clients: Client[] = [];
afterAll(async () => void (await Promise.all(clients.map((c) => c.close()))));

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${h.port}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A tool's result: its structured content, failing the test on a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  const text = (result.content[0] as { text: string }).text;
  return JSON.parse(text);
}

/** A tool error's code (the test fails when the call succeeds). */
async function failing(client: Client, name: string, args: Record<string, unknown>): Promise<{ code: string; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  const error = (result.structuredContent as { error: { code: string } }).error;
  return { code: error.code, text: (result.content[0] as { text: string }).text };
}

describe('MCP tools list', () => {
  it('lists every tool with a typed, described input schema read from the GraphQL schema', async () => {
    const { tools } = await (await connect()).listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['context', 'memoryQuery', 'addGuideline', 'updateKnowledge', 'entryHistory', 'resolveConflict', 'startSession', 'setState', 'getState', 'endSession', 'createTask', 'listTasks', 'recordOutcome', 'outcomeSuccessRates', 'openVoteQuestion', 'castVote', 'voteStatus', 'checkoutLease', 'listLeases', 'renewLease', 'releaseLease']) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(10);
      for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${property}`).toBeTruthy();
      }
    }
    // A single `input` argument is exposed as the input's own fields.
    const add = tools.find((t) => t.name === 'addGuideline')!;
    expect(add.inputSchema.required).toEqual(expect.arrayContaining(['scope', 'name', 'content']));
    expect((add.inputSchema.properties as Record<string, { type: string }>).priority?.type).toBe('integer');
    expect(tools.find((t) => t.name === 'getEntry')!.annotations?.readOnlyHint).toBe(true);
    // Given a conversation, both link the entries they return to it.
    expect(tools.filter((t) => ['context', 'memoryQuery'].includes(t.name)).map((t) => t.annotations?.readOnlyHint)).toEqual([false, false]);
    expect(add.annotations?.readOnlyHint).toBe(false);
  });
});

describe('MCP entries and context', () => {
  it('adds, reads, updates, searches and pages entries; context ranks what was added', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-entries');
    const added = await call(client, 'addGuideline', { scope: project, name: 'tabs', content: 'Indent Python with four spaces', priority: 80 });
    const id = added.guideline.id as string;
    expect(added.guideline).toMatchObject({ kind: 'GUIDELINE', name: 'tabs', priority: 80, currentVersion: { version: 1, content: 'Indent Python with four spaces' } });
    await call(client, 'addKnowledge', { scope: project, title: 'runtime', content: 'The service runs Python 3.12' });

    const context = await call(client, 'context', { scope: project, task: 'indent python code', tokenBudget: 2000 });
    expect(context.guidelines.map((g: { id: string }) => g.id)).toContain(id);
    expect(context.guidelines[0].score).toBeGreaterThan(0);
    expect(context.tokensUsed).toBeGreaterThan(0);

    const updated = await call(client, 'updateGuideline', { id, content: 'Indent Python with four spaces, never tabs', expectedVersion: 1 });
    expect(updated.update).toMatchObject({ conflicted: false, entry: { currentVersion: { version: 2 } } });
    const history = await call(client, 'entryHistory', { id });
    expect(history.versions.items.map((v: { version: number }) => v.version).sort()).toEqual([1, 2]);
    expect((await call(client, 'getEntry', { id })).currentVersion.content).toMatch(/never tabs/);
    expect((await call(client, 'getEntryByName', { scope: project, kind: 'GUIDELINE', name: 'tabs' })).id).toBe(id);

    const page1 = await call(client, 'memoryQuery', { input: { scope: project, search: 'python' }, first: 1 });
    expect(page1.items).toHaveLength(1);
    expect(page1.next).toBeTruthy();
    const page2 = await call(client, 'memoryQuery', { input: { scope: project, search: 'python' }, first: 1, after: page1.next });
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
  });

  it('returns expected failures as tool errors with the GraphQL codes', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-errors');
    await call(client, 'addTool', { scope: project, name: 'grep', description: 'search text' });
    expect((await failing(client, 'addTool', { scope: project, name: 'grep', description: 'again' })).code).toBe('ALREADY_EXISTS');
    const invalid = await failing(client, 'addGuideline', { scope: project, name: '', content: 'x' });
    expect(invalid.code).toBe('VALIDATION_FAILED');
    // Arguments of the wrong type are refused by GraphQL's own coercion.
    expect((await failing(client, 'addGuideline', { scope: project, name: 'n', content: 'x', priority: 'high' })).code).toBe('BAD_USER_INPUT');
    expect((await failing(client, 'updateGuideline', { id: 'R3VpZGVsaW5lOm5vcGU=', content: 'x' })).code).toBe('NOT_FOUND');
    await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it('takes pages of at least one item: `first: 0` would answer `next: null` (the last page) while items follow', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-first-zero');
    const { tools } = await client.listTools();
    const paged = tools.filter((tool) => tool.inputSchema.properties?.first);
    expect(paged.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memoryQuery', 'listTags', 'listLeases', 'listSessions', 'listScopes']));
    for (const tool of paged) expect({ tool: tool.name, minimum: (tool.inputSchema.properties!.first as { minimum?: number }).minimum }).toEqual({ tool: tool.name, minimum: 1 });
    for (const first of [0, -3]) {
      expect(await failing(client, 'listLeases', { scope: project, first })).toEqual({ code: 'BAD_USER_INPUT', text: `BAD_USER_INPUT: first must be at least 1 (got ${first})` });
    }
    expect((await failing(client, 'memoryQuery', { input: { scope: project }, first: 0 })).code).toBe('BAD_USER_INPUT');
    expect((await call(client, 'listLeases', { scope: project, first: 1 })).next).toBeNull();
  });

  it('refuses unknown arguments of every tool as BAD_USER_INPUT, whatever its variables', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-unknown-arguments');
    const refused = await failing(client, 'listSessions', { projectId: project });
    expect(refused).toEqual({ code: 'BAD_USER_INPUT', text: 'BAD_USER_INPUT: listSessions has no argument "projectId" (it takes project, status, first, after)' });
    expect((await failing(client, 'listTasks', { filters: { scope: project } })).code).toBe('BAD_USER_INPUT');
    expect((await failing(client, 'getEntry', { id: 'R3VpZGVsaW5lOm5vcGU=', constructor: 1 })).text).toContain('"constructor"');
    expect((await failing(client, 'listScopes', { organisation: project })).code).toBe('BAD_USER_INPUT');
    expect((await failing(client, 'createTask', { scopeId: project, title: 't' })).code).toBe('BAD_USER_INPUT');
    expect((await call(client, 'listSessions', { project })).items).toEqual([]);
  });

  it('refuses arguments GraphQL could not receive as they are, and malformed calls as invalid params', async () => {
    const project = await createProject(h, 'mcp-hostile');
    // Raw JSON text: a client library would not send these.
    const rpc = async (params: string) => {
      const response = await fetch(`http://127.0.0.1:${h.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call"${params}}`,
      });
      return (await response.json()) as { result?: CallToolResult; error?: { code: number; message: string } };
    };
    const toolError = (answer: { result?: CallToolResult }) => (answer.result?.isError ? (answer.result.content[0] as { text: string }).text : null);
    // Too large for a double: JSON.parse reads Infinity, which would have been sent as null (the default).
    const huge = await rpc(`,"params":{"name":"addKnowledge","arguments":{"scope":"${project}","title":"huge","content":"x","confidence":1e400}}`);
    expect(toolError(huge)).toBe('BAD_USER_INPUT: arguments.confidence: Infinity is not a number JSON can carry (too large for a double)');
    const inList = await rpc(`,"params":{"name":"memoryQuery","arguments":{"input":{"scope":"${project}","tags":{"include":["a",{"b":[1,-1e400]}]}}}}`);
    expect(toolError(inList)).toBe('BAD_USER_INPUT: arguments.input.tags.include[1].b[1]: -Infinity is not a number JSON can carry (too large for a double)');
    // Named __proto__: the SDK's copy of the arguments made it their prototype (no unknown argument seen).
    const proto = await rpc(`,"params":{"name":"listLeases","arguments":{"scope":"${project}","__proto__":{"first":-3}}}`);
    expect(toolError(proto)).toBe('BAD_USER_INPUT: listLeases has no argument "__proto__"');
    // More arguments than any tool takes: refused before the SDK's schemas read them (100,000 took 1.36 s).
    const many = await rpc(`,"params":{"name":"listScopes","arguments":{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(',')}}}`);
    expect(toolError(many)).toBe(`BAD_USER_INPUT: listScopes takes at most ${MAX_TOOL_ARGUMENTS} arguments`);
    const widest = Math.max(...(await (await connect()).listTools()).tools.map((tool) => Object.keys(tool.inputSchema.properties ?? {}).length));
    expect(widest).toBeLessThan(MAX_TOOL_ARGUMENTS);
    // Longer than any argument takes or a JSON value holds: refused before GraphQL reads it again.
    const long = await rpc(`,"params":{"name":"memoryQuery","arguments":{"input":{"scope":"${project}","tags":{"include":[${Array(40_000).fill(1).join(',')}]}}}}`);
    expect(toolError(long)).toBe('BAD_USER_INPUT: arguments.input.tags.include lists 40000 items: no argument takes more than 32768');
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const nested = await rpc(`,"params":{"name":"setState","arguments":{"key":"k","value":${deep}}}`);
    expect(toolError(nested)).toBe('BAD_USER_INPUT: arguments nest deeper than 272 levels');
    expect((await call(await connect(), 'memoryQuery', { input: { scope: project } })).items).toEqual([]);
    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(`http://127.0.0.1:${h.port}/mcp`, { method, headers: { accept: 'text/event-stream, application/json' } });
      expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'POST']);
    }
    for (const params of [',"params":{"name":"listScopes","arguments":[1,2]}', ',"params":{"name":5}', '', ',"params":{"name":"listScopes","arguments":null}']) {
      expect((await rpc(params)).error?.code, params).toBe(-32602);
    }
    // A malformed initialize: invalid params with what is wrong (the SDK's protocol layer answered
    // it as an internal error, -32603, with zod's dump); a well-formed one still initializes.
    const initialize = async (params: string) => {
      const response = await fetch(`http://127.0.0.1:${h.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc":"2.0","id":7,"method":"initialize","params":${params}}`,
      });
      return (await response.json()) as { id: number; result?: { serverInfo: { name: string } }; error?: { code: number; message: string } };
    };
    const malformed = await initialize('{"protocolVersion":5,"capabilities":"x","clientInfo":{"name":"c","version":"1"}}');
    expect(malformed.id).toBe(7);
    expect(malformed.error?.code).toBe(-32602);
    expect(malformed.error?.message).toMatch(/^Invalid initialize request: params\.protocolVersion: .*; params\.capabilities: /);
    expect((await initialize('{}')).error?.code).toBe(-32602);
    const wellFormed = await initialize('{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}');
    expect(wellFormed.result?.serverInfo.name).toBe('engram');
  });

  it('refuses a batch whose requests share an id before any runs; answers a batch with an array, one answer or many', async () => {
    const project = await createProject(h, 'mcp-batches');
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`http://127.0.0.1:${h.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const add = (id: number, title: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'addKnowledge', arguments: { scope: project, title, content: 'x' } } });
    const titles = async () => (await call(await connect(), 'memoryQuery', { input: { scope: project } })).items.map((i: { name: string }) => i.name).sort();

    // Two answers with one id could not be told apart: neither runs.
    expect(await post([add(7, 'first'), add(7, 'second')])).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the requests of a batch must have different ids' } },
    });
    expect(await titles()).toEqual([]);
    // Headers the transport refuses are what the caller must change first (and nothing runs either).
    const twice = [add(8, 'third'), add(8, 'fourth')];
    expect((await post(twice, { accept: 'application/json' })).status).toBe(406);
    expect((await post(twice, { 'content-type': 'text/plain' })).status).toBe(415);
    expect(await titles()).toEqual([]);

    const both = await post([add(1, 'one'), add(2, 'two')]);
    expect([both.status, (both.body as { id: number }[]).map((a) => a.id).sort()]).toEqual([200, [1, 2]]);
    // A request and a notification: one answer, still in an array.
    const single = await post([add(3, 'three'), { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect([single.status, Array.isArray(single.body), (single.body as { id: number }[])[0]?.id]).toEqual([200, true, 3]);
    // Not a batch: one object, as before.
    const plain = await post(add(4, 'four'));
    expect([plain.status, Array.isArray(plain.body), (plain.body as { id: number }).id]).toEqual([200, false, 4]);
    expect(await titles()).toEqual(['four', 'one', 'three', 'two']);
  });

  it('returns stored JSON values as they are: only the connections of a result are shortened', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-json-values');
    // Keys the shortener rewrites in a result's structure, inside stored values.
    const value = { node: { id: 7, cursor: 'c' }, cursor: 'abc', edges: [{ node: { x: 1 } }], pageInfo: { hasNextPage: true, endCursor: 'e' }, __typename: 'T' };
    const added = await call(client, 'addTool', { scope: project, name: 'paged-api', description: 'pages', parameters: value, examples: [value] });
    expect(added.tool.currentVersion).toMatchObject({ parameters: value, examples: [value] });
    expect((await call(client, 'getEntry', { id: added.tool.id })).currentVersion.parameters).toEqual(value);
    const found = await call(client, 'memoryQuery', { input: { scope: project, search: 'pages' } });
    expect(found.items.map((item: { currentVersion: { parameters: unknown } }) => item.currentVersion.parameters)).toEqual([value]);
    const session = (await call(client, 'startSession', { project })).session.id;
    expect((await call(client, 'setState', { key: 'session:page', owner: { session }, value })).state.value).toEqual(value);
    expect((await call(client, 'getState', { session, key: 'session:page' })).state.value).toEqual(value);
  });

  it('records a conflict, lists it and resolves it', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-conflicts');
    const id = (await call(client, 'addKnowledge', { scope: project, title: 'port', content: 'The API listens on 8080' })).knowledge.id;
    await call(client, 'updateKnowledge', { id, content: 'The API listens on 9090', expectedVersion: 1 });
    const stale = await call(client, 'updateKnowledge', { id, content: 'The API listens on 7070', expectedVersion: 1 });
    expect(stale.update.conflicted).toBe(true);
    const listed = await call(client, 'listConflicts', { filter: { scope: project, resolved: false } });
    expect(listed.totalCount).toBe(1);
    const conflict = listed.items[0];
    expect([conflict.versionA.content, conflict.versionB.content].sort()).toEqual(['The API listens on 7070', 'The API listens on 9090']);
    const resolved = await call(client, 'resolveConflict', { id: conflict.id, strategy: 'KEEP_CURRENT' });
    expect(resolved.resolution.conflict).toMatchObject({ resolved: true, resolution: 'KEPT_CURRENT' });
    expect((await call(client, 'listConflicts', { filter: { scope: project, resolved: false } })).totalCount).toBe(0);
  });

  it('tags and relates entries', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-tags');
    const a = (await call(client, 'addKnowledge', { scope: project, title: 'a', content: 'first fact' })).knowledge.id;
    const b = (await call(client, 'addKnowledge', { scope: project, title: 'b', content: 'second fact' })).knowledge.id;
    await call(client, 'createTag', { name: 'mcp-made', category: 'CUSTOM' });
    expect((await call(client, 'attachTags', { entry: a, tags: ['mcp-made'] })).entry.tags).toEqual([{ name: 'mcp-made' }]);
    const tags = await call(client, 'listTags', { category: 'CUSTOM', first: 100 });
    expect(tags.items.map((t: { name: string }) => t.name)).toContain('mcp-made');
    const tagged = await call(client, 'memoryQuery', { input: { scope: project, tags: { require: ['mcp-made'] } } });
    expect(tagged.items.map((e: { id: string }) => e.id)).toEqual([a]);
    expect((await call(client, 'detachTags', { entry: a, tags: ['mcp-made'] })).entry.tags).toEqual([]);
    const relation = (await call(client, 'createRelation', { source: a, target: b, type: 'RELATED_TO' })).relation;
    expect(relation).toMatchObject({ type: 'RELATED_TO', source: { id: a }, targetEntry: { id: b } });
    expect((await call(client, 'deleteRelation', { id: relation.id })).deleted.id).toBe(relation.id);
  });
});

describe('MCP sessions, state and tasks', () => {
  it('runs a session: start, events with state, state get/set, end', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-sessions');
    const scopes = await call(client, 'listScopes', { first: 100 });
    expect(scopes.projects.items.map((p: { id: string }) => p.id)).toContain(project);
    expect(scopes.globalScope.id).toBe(await globalScopeId(h));

    const session = (await call(client, 'startSession', { project, name: 'run-1', agentId: 'agent-7' })).session;
    const appended = await call(client, 'appendSessionEvent', { session: session.id, actor: 'agent:7', type: 'ACTION', content: { did: 'x' }, stateDelta: { 'session:step': 3 } });
    expect(appended.appended.event.sequence).toBeGreaterThan(0);
    expect((await call(client, 'getState', { session: session.id, key: 'step' })).state).toMatchObject({ namespace: 'SESSION', value: 3 });
    await call(client, 'setState', { key: 'session:step', value: 4, owner: { session: session.id } });
    expect((await call(client, 'getState', { session: session.id, key: 'session:step' })).state.value).toBe(4);
    expect((await call(client, 'endSession', { id: session.id })).transition.session.status).toBe('COMPLETED');
    const listed = await call(client, 'listSessions', { project });
    expect(listed.items).toEqual([expect.objectContaining({ id: session.id, status: 'COMPLETED', agentId: 'agent-7' })]);
  });

  it('lists every organization, a page at a time', async () => {
    const client = await connect();
    const made: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await ok(h, null, `mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: `mcp-orgs-${n}` });
      made.push(created.createOrganization.organization.id as string);
    }
    const seen: string[] = [];
    let page = (await call(client, 'listScopes', { first: 2 })).organizations;
    for (;;) {
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((o: { id: string }) => o.id));
      if (!page.next) break;
      page = (await call(client, 'listScopes', { first: 2, organizationsAfter: page.next })).organizations;
    }
    expect(seen).toEqual(expect.arrayContaining(made));
    expect(seen).toHaveLength(page.totalCount);
  });

  it('creates, updates and lists tasks', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-tasks');
    const first = (await call(client, 'createTask', { scope: project, title: 'write parser' })).task;
    const second = (await call(client, 'createTask', { scope: project, title: 'test parser', dependsOn: [first.id] })).task;
    expect(second).toMatchObject({ blocked: true, dependsOn: [{ id: first.id }] });
    expect((await call(client, 'updateTask', { id: first.id, status: 'DONE', assignee: 'agent-1' })).task).toMatchObject({ status: 'DONE', assignee: 'agent-1' });
    const open = await call(client, 'listTasks', { filter: { scope: project, statuses: ['OPEN'] } });
    expect(open.items.map((t: { id: string }) => t.id)).toEqual([second.id]);
    expect(open.items[0].blocked).toBe(false);
  });

  it('records outcomes and reads success rates', async () => {
    const client = await connect();
    const project = await createProject(h, 'mcp-outcomes');
    for (const [agent, success] of [['agent-1', true], ['agent-1', false], ['agent-2', true]] as const) {
      const recorded = await call(client, 'recordOutcome', { scope: project, subtaskType: 'parse', agent, success, durationMs: 100 });
      expect(recorded.outcome).toMatchObject({ agent, success, durationMs: 100 });
    }
    const rates = await call(client, 'outcomeSuccessRates', { input: { scope: project }, by: 'AGENT', orderBy: 'RATE_ASC' });
    expect(rates.successRates.items.map((r: { key: string; successRate: number }) => [r.key, r.successRate])).toEqual([['agent-1', 0.5], ['agent-2', 1]]);
  });

  it('opens a question, casts votes as the caller and reads the decision', async () => {
    const project = await createProject(h, 'mcp-votes');
    const opened = await call(await connect(), 'openVoteQuestion', { scope: project, key: 'pick', k: 2 });
    expect(opened.question).toMatchObject({ key: 'pick', status: 'OPEN', k: 2, countedVotes: 0 });
    const question = opened.question.id as string;
    expect((await failing(await connect(), 'openVoteQuestion', { scope: project, key: 'pick', k: 2 })).code).toBe('ALREADY_EXISTS');
    const first = (await call(await connect({ 'x-engram-actor': 'agent:1' }), 'castVote', { question, answer: 'blue' })).vote;
    expect(first).toMatchObject({ counted: true, decisive: false, question: { status: 'OPEN', countedVotes: 1 } });
    const second = (await call(await connect({ 'x-engram-actor': 'agent:2' }), 'castVote', { question, answer: ' blue ', confidence: 0.7 })).vote;
    expect(second).toMatchObject({ counted: true, decisive: true, question: { status: 'DECIDED', decidedAnswer: 'blue' } });
    const status = await call(await connect(), 'voteStatus', { id: question });
    expect(status).toMatchObject({ status: 'DECIDED', decidedAnswer: 'blue', countedVotes: 2, tally: [{ answer: 'blue', votes: 2 }] });
  });

  it('checks out, renews and releases a lease as the caller; another agent meets LeaseHeldError meanwhile', async () => {
    const scope = await createProject(h, 'mcp-leases');
    const one = await connect({ 'x-engram-actor': 'agent:1' });
    const two = await connect({ 'x-engram-actor': 'agent:2' });
    const lease = { scope, resource: 'src/app.ts', ttlSeconds: 60 };
    expect(await call(one, 'checkoutLease', lease)).toMatchObject({ lease: { holder: 'agent:1', mode: 'EXCLUSIVE', fencingToken: 1 } });
    const held = await failing(two, 'checkoutLease', lease);
    expect(held.code).toBe('LEASE_HELD');
    expect(held.text).toContain('agent:1');
    expect(await call(two, 'listLeases', { scope })).toMatchObject({ totalCount: 1, next: null, items: [{ resource: 'src/app.ts', holder: 'agent:1', mode: 'EXCLUSIVE', fencingToken: 1 }] });
    expect(await call(two, 'listLeases', { scope, resource: 'other.ts' })).toEqual({ totalCount: 0, next: null, items: [] });
    expect(await call(one, 'renewLease', { ...lease, ttlSeconds: 120 })).toMatchObject({ lease: { fencingToken: 1 } });
    expect(await call(one, 'releaseLease', { scope, resource: 'src/app.ts' })).toMatchObject({ lease: { holder: 'agent:1' } });
    expect(await call(two, 'checkoutLease', lease)).toMatchObject({ lease: { holder: 'agent:2', fencingToken: 2 } });
  });
});

// Last: once a key exists, callers without one are refused.
describe('MCP access', () => {
  it('applies the same access rules and codes as GraphQL for the same key', async () => {
    const mine = await createProject(h, 'mcp-access-mine');
    const theirs = await createProject(h, 'mcp-access-theirs');
    await startSession(h, theirs);
    const reader = await principal(h, 'mcp-reader', { grants: [[mine, 'READ']] });
    const client = await connect({ authorization: `Bearer ${reader.key}` });

    const denied = await failing(client, 'addGuideline', { scope: mine, name: 'x', content: 'y' });
    const viaGraphql = await as(h, reader.key, `mutation { addGuideline(input: { scope: "${mine}", name: "x", content: "y" }) { ... on UserError { code } } }`);
    expect(denied.code).toBe(viaGraphql.data!.addGuideline.code);
    expect(denied.code).toBe('FORBIDDEN');

    const other = await client.callTool({ name: 'context', arguments: { scope: theirs, task: 'anything' } });
    const otherViaGraphql = await as(h, reader.key, `{ context(input: { scope: "${theirs}", task: "anything" }) { tokensUsed } }`);
    expect(codes(otherViaGraphql)).toHaveLength(1);
    expect((other.structuredContent as { error: { code: string } }).error.code).toBe(codes(otherViaGraphql)[0]);
    const listed = await call(client, 'listScopes', {});
    expect(listed.projects.items.map((p: { id: string }) => p.id)).toEqual([mine]);
  });

  it('refuses a caller without a key once keys exist, and browsers from other origins', async () => {
    await principal(h, 'mcp-someone');
    await expect(connect()).rejects.toThrow(/401|API key is required/);
    await expect(connect({ authorization: 'Bearer egk_wrong' })).rejects.toThrow(/401|unknown, revoked or expired/);
    const admin = await principal(h, 'mcp-admin', { admin: true });
    await expect(connect({ authorization: `Bearer ${admin.key}`, origin: 'https://evil.example' })).rejects.toThrow(/403|Origin/);
    const client = await connect({ authorization: `Bearer ${admin.key}` });
    expect((await client.listTools()).tools.length).toBeGreaterThan(20);
  });
});
