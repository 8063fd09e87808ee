// Hostile requests found when Engram was attacked (issue #10), as data: the hostile test sends each
// to the real server process and checks the answer; `npm run bench -- --suite hostile` times a
// normal query right after each one.
import net from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Target {
  base: string;
  /** A project, a guideline in it with a few versions, and a session of the project. */
  projectId: string;
  guidelineId: string;
  sessionId: string;
}

export interface Answer {
  status: number;
  /** Error codes of the answer (`extensions.code`, or `code` of a result union member). */
  codes: string[];
  body: string;
}

export interface Attack {
  name: string;
  /** Codes that are a right answer; the attack succeeded if any other code (or none) comes back. */
  expect: string[];
  /** Data without errors is a right answer too (e.g. a cursor that points nowhere). */
  orData?: boolean;
  /** The HTTP status the answer must have, where it matters (a stream refused at its start). */
  status?: number;
  /** The most bytes the answer may take, where the attack is sent back to its sender otherwise. */
  answerAtMost?: number;
  send(target: Target): Promise<Answer>;
}

const json = { 'content-type': 'application/json' };

export async function post(base: string, body: string | Blob, headers: Record<string, string> = json): Promise<Answer> {
  const response = await fetch(`${base}/graphql`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, codes: codesOf(text), body: text };
}

/** Every `extensions.code` and result-union `code` in a GraphQL answer. */
export function codesOf(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[]; data?: unknown };
    const codes = (parsed.errors ?? []).map((e) => e.extensions?.code ?? '(no code)');
    JSON.stringify(parsed.data ?? null, (key, value: unknown) => {
      if (key === 'code' && typeof value === 'string') codes.push(value);
      return value;
    });
    return codes;
  } catch {
    return ['(not JSON)'];
  }
}

const ask = (query: string, variables?: unknown) => (target: Target) => post(target.base, JSON.stringify({ query, variables }));
const withTarget = (build: (t: Target) => string, variables?: (t: Target) => unknown) => (target: Target) =>
  post(target.base, JSON.stringify({ query: build(target), variables: variables?.(target) }));

const versionsBomb = (levels: number) =>
  '{ versions(first: 100) { edges { node { entry { ... on Guideline '.repeat(levels) + '{ id }' + ' } } } } }'.repeat(levels);

function fragmentFanOut(levels: number): string {
  let doc = 'query { ...F0 }\n';
  for (let i = 0; i < levels; i++) doc += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return doc + `fragment F${levels} on Query { projects(first: 1) { totalCount } }`;
}

const aliases = (n: number, field: (i: number) => string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ')} }`;

/** Metadata nested `depth` levels, written as text (JSON.stringify itself overflows on it). */
const deepJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

const nulBase64 = (typename: string) => Buffer.from(`${typename}:x\u0000y`).toString('base64');
const globalId = (typename: string, id: string) => Buffer.from(`${typename}:${id}`).toString('base64');

/** `parallel` copies of one operation at once, as one answer: every code any of them got. */
async function atOnce(base: string, parallel: number, query: string, variables: unknown): Promise<Answer> {
  const answers = await Promise.all(Array.from({ length: parallel }, () => post(base, JSON.stringify({ query, variables }))));
  return { status: Math.max(...answers.map((a) => a.status)), codes: answers.flatMap((a) => a.codes), body: answers.map((a) => a.body).join('\n') };
}

/** A new session of the target's project (its global ID). */
async function newSession(t: Target): Promise<string> {
  const made = await post(t.base, JSON.stringify({ query: 'mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }', variables: { p: t.projectId } }));
  return (JSON.parse(made.body) as { data: { startSession: { session: { id: string } } } }).data.startSession.session.id;
}

/** A GET of `/graphql` with these URL parameters (and the header that lets a GET through). */
async function getWith(base: string, params: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${base}/graphql?${new URLSearchParams(params)}`, { headers: { 'x-engram-csrf': '1' } });
  const text = await response.text();
  return { status: response.status, codes: codesOf(text), body: text };
}

/** A subscription over SSE: the answer's status and the codes in its first event. */
async function overSse(base: string, query: string): Promise<Answer> {
  const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { ...json, accept: 'text/event-stream' }, body: JSON.stringify({ query }) });
  const text = await response.text();
  const first = /^data: (.+)$/m.exec(text)?.[1] ?? '';
  return { status: response.status, codes: codesOf(first), body: text };
}

export const ATTACKS: Attack[] = [
  {
    name: 'versions(first: 100) nested three deep on one entry',
    expect: ['QUERY_TOO_COSTLY'],
    send: withTarget(() => `query($id: ID!) { node(id: $id) { ... on Guideline ${versionsBomb(3)} } }`, (t) => ({ id: t.guidelineId })),
  },
  { name: 'fragment fan-out 2^16', expect: ['QUERY_TOO_COSTLY'], send: ask(fragmentFanOut(16)) },
  { name: 'fragment fan-out 2^200', expect: ['QUERY_TOO_COSTLY'], send: ask(fragmentFanOut(200)) },
  {
    name: '10,000 aliases of memoryQuery',
    expect: ['TOO_MANY_TOKENS', 'TOO_MANY_ALIASES', 'DOCUMENT_TOO_LARGE'],
    send: withTarget((t) => aliases(10_000, () => `memoryQuery(input: { scope: "${t.projectId}" }) { meta { totalCount } }`)),
  },
  {
    name: '100 aliases of memoryQuery',
    expect: ['TOO_MANY_ALIASES'],
    send: withTarget((t) => aliases(100, () => `memoryQuery(input: { scope: "${t.projectId}" }) { meta { totalCount } }`)),
  },
  {
    name: 'depth 50 through versions and entry',
    expect: ['QUERY_TOO_DEEP'],
    send: withTarget(
      () => `query($id: ID!) { node(id: $id) { ... on Guideline ${'{ versions(first: 1) { edges { node { entry { ... on Guideline '.repeat(10)}{ id }${' } } } } }'.repeat(10)} } }`,
      (t) => ({ id: t.guidelineId }),
    ),
  },
  {
    name: 'depth 40 through parent',
    expect: ['QUERY_TOO_DEEP'],
    send: withTarget((t) => `{ node(id: "${t.sessionId}") { ... on Session ${'{ parent { ... on Project '.repeat(40)}{ id }${' } }'.repeat(40)} } }`),
  },
  {
    name: 'depth 200 through parent',
    expect: ['TOO_DEEPLY_NESTED'],
    send: withTarget((t) => `{ node(id: "${t.sessionId}") { ... on Session ${'{ parent { ... on Project '.repeat(200)}{ id }${' } }'.repeat(200)} } }`),
  },
  { name: 'selection nested 5,000 deep (the parser)', expect: ['TOO_DEEPLY_NESTED'], send: ask(`${'{ a '.repeat(5_000)}${'}'.repeat(5_000)}`) },
  { name: 'list literal nested 100,000 deep', expect: ['TOO_DEEPLY_NESTED'], send: ask(`{ nodes(ids: ${'['.repeat(100_000)}${']'.repeat(100_000)}) { id } }`) },
  { name: '1,000 directives', expect: ['TOO_MANY_TOKENS'], send: ask(`{ __typename ${'@include(if: true) '.repeat(1_000)} }`) },
  { name: '200 directives', expect: ['TOO_MANY_DIRECTIVES'], send: ask(`{ __typename ${'@include(if: true) '.repeat(200)} }`) },
  {
    name: 'metadata JSON nested 20,000 deep',
    expect: ['BAD_USER_INPUT'],
    send: (t) =>
      post(
        t.base,
        `{"query":"mutation($m: JSON) { createProject(input: { name: \\"deep\\", metadata: $m }) { __typename ... on UserError { code } } }","variables":{"m":${deepJson(20_000)}}}`,
      ),
  },
  {
    name: 'metadata JSON nested 40 deep',
    expect: ['VALIDATION_FAILED'],
    send: (t) =>
      post(
        t.base,
        `{"query":"mutation($m: JSON) { createProject(input: { name: \\"deep40\\", metadata: $m }) { __typename ... on UserError { code } } }","variables":{"m":${deepJson(40)}}}`,
      ),
  },
  { name: 'request extensions nested 50,000 deep', expect: [], send: (t) => post(t.base, `{"query":"{ __typename }","extensions":${deepJson(50_000)}}`) },
  {
    name: 'NUL in a name',
    expect: ['VALIDATION_FAILED'],
    send: ask('mutation($n: String!) { createProject(input: { name: $n }) { __typename ... on UserError { code } } }', { n: 'a\u0000b' }),
  },
  {
    name: 'NUL in content',
    expect: ['VALIDATION_FAILED'],
    send: withTarget(
      () => 'mutation($s: ID!, $c: String!) { addGuideline(input: { scope: $s, name: "nul", content: $c }) { __typename ... on UserError { code } } }',
      (t) => ({ s: t.projectId, c: 'x\u0000y' }),
    ),
  },
  {
    name: 'NUL in an actor',
    expect: ['VALIDATION_FAILED'],
    send: withTarget(
      () => 'mutation($s: ID!) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:\\u0000" }) { __typename ... on UserError { code } } }',
      (t) => ({ s: t.sessionId }),
    ),
  },
  {
    name: 'NUL in a JSON key',
    expect: ['VALIDATION_FAILED'],
    send: ask('mutation($m: JSON) { createProject(input: { name: "k", metadata: $m }) { __typename ... on UserError { code } } }', { m: { 'a\u0000': 1 } }),
  },
  { name: 'NUL inside a decoded ID', expect: ['BAD_USER_INPUT'], send: ask(`{ node(id: "${nulBase64('Project')}") { id } }`) },
  {
    name: 'NUL inside a decoded ID argument',
    expect: ['VALIDATION_FAILED'],
    send: ask(`{ memoryQuery(input: { scope: "${nulBase64('Project')}" }) { meta { totalCount } } }`),
  },
  { name: 'NUL inside a decoded cursor', expect: ['BAD_USER_INPUT', 'VALIDATION_FAILED'], orData: true, send: ask(`{ projects(first: 1, after: "${Buffer.from('GPC:S:x\u0000').toString('base64')}") { totalCount } }`) },
  {
    name: 'cross-site form post of a mutation',
    expect: ['CSRF_HEADER_REQUIRED'],
    send: (t) =>
      post(t.base, `query=${encodeURIComponent('mutation { createProject(input: { name: "csrf" }) { __typename } }')}`, {
        'content-type': 'application/x-www-form-urlencoded',
      }),
  },
  // Found by a sweep of every argument and input field (2026-11-29).
  {
    name: 'explicit null for a field with a default (a lease mode)',
    expect: ['GRAPHQL_VALIDATION_FAILED'],
    send: withTarget((t) => `mutation { checkoutLease(input: { scope: "${t.projectId}", resource: "r", ttlSeconds: 60, mode: null }) { __typename } }`),
  },
  {
    name: 'null variable for a field with a default',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(() => 'mutation($s: ID!, $m: LeaseMode) { checkoutLease(input: { scope: $s, resource: "r", ttlSeconds: 60, mode: $m }) { __typename } }', (t) => ({ s: t.projectId, m: null })),
  },
  {
    name: 'explicit null for an argument with a default (an analytics bucket)',
    expect: ['GRAPHQL_VALIDATION_FAILED'],
    send: withTarget((t) => `{ outcomeAnalytics(input: { scope: "${t.projectId}" }) { trend(bucket: null) { edges { cursor } } } }`),
  },
  { name: 'GET with variables that are not JSON', expect: ['BAD_REQUEST'], status: 400, send: (t) => getWith(t.base, { query: '{ __typename }', variables: 'notjson' }) },
  { name: 'GET with extensions that are not JSON', expect: ['BAD_REQUEST'], status: 400, send: (t) => getWith(t.base, { query: '{ __typename }', extensions: '{' }) },
  {
    name: 'form post with variables that are not JSON',
    expect: ['BAD_REQUEST'],
    status: 400,
    send: (t) => post(t.base, `query=${encodeURIComponent('{ __typename }')}&variables=%7Bbad`, { 'content-type': 'application/x-www-form-urlencoded', 'x-engram-csrf': '1' }),
  },
  // Found by a second sweep, on PostgreSQL with API keys (2026-11-29).
  {
    name: 'half a surrogate pair inside JSON',
    expect: ['VALIDATION_FAILED'],
    send: ask('mutation($m: JSON) { createProject(input: { name: "surrogate", metadata: $m }) { __typename ... on UserError { code } } }', { m: { a: 'x\ud800' } }),
  },
  {
    name: 'half a surrogate pair in a name',
    expect: ['VALIDATION_FAILED'],
    send: ask('mutation($n: String!) { createProject(input: { name: $n }) { __typename ... on UserError { code } } }', { n: 'x\udc00' }),
  },
  { name: 'the year 0000 as a literal', expect: ['GRAPHQL_VALIDATION_FAILED'], send: ask('{ tasks(filter: { dueAfter: "0000-01-01T00:00:00Z" }) { totalCount } }') },
  {
    name: 'the year 0000 in a variable',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(() => 'mutation($s: ID!, $v: DateTime) { addKnowledge(input: { scope: $s, title: "y0", content: "c", validUntil: $v }) { __typename ... on UserError { code } } }', (t) => ({ s: t.projectId, v: '0000-01-01T00:00:00Z' })),
  },
  {
    name: 'ten deletes of one session at once',
    expect: ['NOT_FOUND'],
    orData: true,
    send: async (t) => atOnce(t.base, 10, 'mutation($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on UserError { code } } }', { id: await newSession(t) }),
  },
  {
    name: 'a request line of 60 KB',
    expect: ['REQUEST_HEADER_FIELDS_TOO_LARGE'],
    status: 431,
    send: (t) => getWith(t.base, { query: '{ __typename }', pad: 'x'.repeat(60_000) }),
  },
  {
    // Yoga's answer quoted the whole body back (its parser's message, as extensions.originalError).
    name: 'a body of 1 MB that is not JSON',
    expect: ['BAD_REQUEST'],
    status: 400,
    answerAtMost: 200,
    send: (t) => post(t.base, `{${'x'.repeat(1_000_000)}`),
  },
  {
    // It was cut to its first 200 characters unsaid, where an input's author of 201 is refused.
    name: 'an X-Engram-Actor of 201 characters',
    expect: ['BAD_REQUEST'],
    status: 400,
    send: (t) => post(t.base, JSON.stringify({ query: '{ __typename }' }), { ...json, 'x-engram-actor': `agent:${'a'.repeat(195)}` }),
  },
  {
    name: 'a body sent gzip-compressed',
    expect: ['UNSUPPORTED_MEDIA_TYPE'],
    status: 415,
    send: (t) => post(t.base, new Blob([gzipSync('{"query":"{ __typename }"}')]), { ...json, 'content-encoding': 'gzip' }),
  },
  {
    name: 'a body of a type nothing reads',
    expect: ['UNSUPPORTED_MEDIA_TYPE'],
    status: 415,
    send: (t) => post(t.base, '{ __typename }', { 'content-type': 'text/plain', 'x-engram-csrf': '1' }),
  },
  {
    name: 'memory policy of a scope that does not exist',
    expect: ['NOT_FOUND'],
    send: ask(`mutation { setMemoryPolicy(input: { scope: "${globalId('Project', 'none')}", memoryType: EPISODIC, ttlHours: 1 }) { __typename ... on UserError { code } } }`),
  },
  {
    name: 'secret policy of a scope that does not exist',
    expect: ['NOT_FOUND'],
    send: ask(`mutation { setSecretPolicy(input: { scope: "${globalId('Project', 'none')}", policy: REFUSE }) { __typename ... on UserError { code } } }`),
  },
  { name: 'node of a type that does not exist', expect: [], send: ask(`{ node(id: "${globalId('X', '1')}") { id } }`) },
  { name: 'node of an interface', expect: [], send: ask(`{ node(id: "${globalId('Entry', '1')}") { id } }`) },
  { name: 'nodes with an ID of no type among real ones', expect: [], send: withTarget((t) => `{ nodes(ids: ["${globalId('__proto__', '1')}", "${t.projectId}"]) { id } }`) },
  { name: 'subscription over SSE refused at its start', expect: ['VALIDATION_FAILED'], status: 200, send: (t) => overSse(t.base, 'subscription { entryChanged(scope: "!!!") { cursor } }') },
  // Found by a third sweep (2026-12-01): Yoga's 406 left the subscription open for good (test/subscriptions-left.test.ts).
  {
    name: 'subscription over HTTP asked for as JSON',
    expect: ['NOT_ACCEPTABLE'],
    status: 406,
    send: (t) => post(t.base, JSON.stringify({ query: `subscription { entryChanged(scope: "${t.projectId}") { cursor } }` }), { ...json, accept: 'application/json' }),
  },
  { name: 'forgetting the user with a blank id', expect: ['VALIDATION_FAILED'], send: ask('mutation { forgetUser(input: { userId: "" }) { __typename ... on UserError { code } } }') },
  {
    name: 'an author that is a kind with no name',
    expect: ['VALIDATION_FAILED'],
    send: withTarget((t) => `mutation { addTool(input: { scope: "${t.projectId}", name: "blank-author", description: "d", author: "user:" }) { __typename ... on UserError { code } } }`),
  },
  { name: 'an X-Engram-Actor that is a kind with no name', expect: ['BAD_REQUEST'], status: 400, send: (t) => post(t.base, JSON.stringify({ query: '{ __typename }' }), { ...json, 'x-engram-actor': 'user:' }) },
  { name: '30 MB body with a Content-Length', expect: ['REQUEST_ENTITY_TOO_LARGE'], send: (t) => post(t.base, JSON.stringify({ query: `{ __typename }`, pad: 'x'.repeat(30_000_000) })) },
  // Lists longer than any argument takes are refused before GraphQL coerces their items (each
  // invalid ID or enum value was an error of its own, and 200,000 IDs held the event loop 16 s).
  {
    name: '200,000 task dependencies that are not IDs',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(
      () => 'mutation($s: ID!, $d: [ID!]) { createTask(input: { scope: $s, title: "t", dependsOn: $d }) { __typename ... on UserError { code } } }',
      (t) => ({ s: t.projectId, d: Array.from({ length: 200_000 }, (_, i) => `a${i}`) }),
    ),
  },
  {
    name: '40,000 empty outcomes',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(
      () => 'mutation($o: [OutcomeItemInput!]!, $s: ID!) { recordOutcomes(input: { scope: $s, outcomes: $o }) { __typename } }',
      (t) => ({ s: t.projectId, o: Array.from({ length: 40_000 }, () => ({})) }),
    ),
  },
  {
    name: '100,000 invalid kinds for context',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(
      () => 'query($s: ID!, $k: [EntryKind!]) { context(input: { scope: $s, task: "x", kinds: $k }) { tokensUsed } }',
      (t) => ({ s: t.projectId, k: Array.from({ length: 100_000 }, () => 'a') }),
    ),
  },
  { name: '998 task statuses (one repeated)', expect: ['BAD_USER_INPUT'], send: ask('query($k: [TaskStatus!]) { tasks(first: 1, filter: { statuses: $k }) { totalCount } }', { k: Array.from({ length: 998 }, () => 'OPEN') }) },
  {
    name: '10,000 kinds for memoryQuery (one repeated)',
    expect: ['BAD_USER_INPUT'],
    send: withTarget(
      () => 'query($s: ID!, $k: [EntryKind!]) { memoryQuery(first: 1, input: { scope: $s, kinds: $k }) { meta { totalCount } } }',
      (t) => ({ s: t.projectId, k: Array.from({ length: 10_000 }, () => 'TOOL') }),
    ),
  },
  // SQLite refuses LIKE patterns of 50,000 bytes or more.
  { name: 'an audit target of 60,000 characters', expect: ['VALIDATION_FAILED'], send: ask('query($t: ID) { auditEvents(first: 1, filter: { target: $t }) { totalCount } }', { t: 'x'.repeat(60_000) }) },
  {
    name: 'an erasure text of 60,000 characters',
    expect: ['VALIDATION_FAILED'],
    send: withTarget(
      () => 'mutation($i: EraseMemoryInput!) { eraseMemory(input: $i) { __typename ... on UserError { code } } }',
      (t) => ({ i: { scope: t.projectId, dryRun: true, text: 'x'.repeat(60_000) } }),
    ),
  },
  // Pothos hands a Prisma cursor's value to Prisma as it finds it; every Prisma list pages by a string id.
  { name: 'a list cursor holding a number', expect: ['VALIDATION_FAILED'], send: ask(`{ tags(first: 2, after: "${Buffer.from('GPC:N:1').toString('base64')}") { totalCount } }`) },
  { name: 'a list cursor holding a date', expect: ['VALIDATION_FAILED'], send: ask(`{ projects(first: 2, before: "${Buffer.from('GPC:D:0').toString('base64')}") { totalCount } }`) },
  {
    name: 'a nested list cursor holding JSON 5,000 deep',
    expect: ['VALIDATION_FAILED'],
    send: withTarget((t) => `{ node(id: "${t.guidelineId}") { ... on Guideline { versions(first: 1, after: "${Buffer.from(`GPC:J:${'['.repeat(5_000)}${']'.repeat(5_000)}`).toString('base64')}") { totalCount } } } }`),
  },
  // Pothos checks a global ID with a regular expression that overflows the stack on megabytes.
  { name: 'node of a 6 MB ID', expect: ['BAD_USER_INPUT'], send: ask('query($id: ID!) { node(id: $id) { id } }', { id: 'a'.repeat(6 * 1024 * 1024) }) },
  { name: '30 MB chunked body, then a request on the same connection', expect: ['REQUEST_ENTITY_TOO_LARGE'], send: (t) => chunkedTooLarge(t.base) },
];

/**
 * Sends a chunked body over the limit on a raw keep-alive connection, reads the 413, then tries a
 * second request: the server must have closed the connection (a client then opens a new one)
 * rather than read the rest of the body as the next request.
 */
async function chunkedTooLarge(base: string): Promise<Answer> {
  const { port } = new URL(base);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  socket.on('error', () => undefined);
  socket.write(`POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
  const chunk = 'x'.repeat(1 << 20);
  for (let i = 0; i < 30 && !socket.destroyed && !received.includes('\r\n\r\n'); i++) {
    socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await new Promise((r) => setTimeout(r, 5));
  }
  // Kept alive: the server still holds the connection open 10 s on.
  let keptOpen = false;
  const deadline = setTimeout(() => {
    keptOpen = true;
    socket.destroy();
  }, 10_000);
  await closed;
  clearTimeout(deadline);
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1] ?? 0);
  // The 413 says `connection: close`; on a loaded machine it was seen without the header while
  // the server closed the connection all the same, which is what matters here.
  const closesConnection = /\r\nconnection: close\r\n/i.test(received) || !keptOpen;
  const codes = [...received.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]!);
  if (!closesConnection) codes.push('(kept alive)');
  else if (received === '') codes.push('(closed unanswered)');
  return { status, codes, body: received.slice(0, 500) };
}
