// `engram query`, `context`, `resolve` and `tail`: a client of a running server (ENGRAM_URL,
// default http://localhost:4000; ENGRAM_API_KEY), through the same GraphQL API as any client.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { EXIT, Failure, UsageError } from './exit.ts';

export interface ClientOptions {
  url: string;
  key?: string;
  json: boolean;
}

function headersOf(options: ClientOptions): Record<string, string> {
  return { 'content-type': 'application/json', ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) };
}

interface EntryNode {
  kind: string;
  name: string;
  scope?: { name: string | null };
  currentVersion?: { description?: string | null; content?: string | null };
}
interface Edge {
  score: number;
  node: EntryNode;
}
interface ContextData {
  tokenBudget: number;
  tokensUsed: number;
  truncated: boolean;
  tools: Edge[];
  guidelines: Edge[];
  knowledge: Edge[];
}
interface Resolved {
  code?: string;
  message?: string;
  resolution?: { conflict: { id: string; resolution: string }; version: { version: number } | null };
}
/** An event of `tail`: the fields its subscriptions select. */
interface TailEvent {
  type?: string;
  occurredAt?: string;
  createdAt?: string;
  actor?: string | null;
  sequence?: number;
  entry?: { kind: string; name: string } | null;
  version?: { version: number } | null;
  conflict?: { id: string; entry: { kind: string; name: string } };
  session?: { id: string; name: string | null };
}

/**
 * The options, checked before anything is sent: a URL that is not http(s), or a key with
 * characters no key has (a header cannot carry a line break or a non-ASCII character).
 */
function checked(options: ClientOptions): void {
  let url: URL | null = null;
  try {
    url = new URL(options.url);
  } catch {
    // Told below.
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new UsageError(`--url (or ENGRAM_URL) must be an http:// or https:// address, got ${JSON.stringify(options.url)}`);
  if (options.key !== undefined && !/^[\x21-\x7e]+$/.test(options.key)) throw new UsageError('--key (or ENGRAM_API_KEY) is not a valid API key: a key is printable ASCII without spaces');
}

type GraphQLBody<T> = { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };

/** An operation's data; a GraphQL error ends the command with its code. */
async function ask<T>(options: ClientOptions, query: string, variables: Record<string, unknown>): Promise<T> {
  checked(options);
  let response: Response;
  try {
    response = await fetch(`${options.url}/graphql`, { method: 'POST', headers: headersOf(options), body: JSON.stringify({ query, variables }) });
  } catch (error) {
    throw new Failure(`Engram at ${options.url} did not answer (${causeOf(error)}); set ENGRAM_URL or --url`);
  }
  const body = await graphqlBody<T>(options, response);
  const first = body.errors?.[0];
  if (first) throw new UsageError(`${first.extensions?.code ?? 'ERROR'}: ${first.message}`);
  return body.data!;
}

/** The answer as GraphQL's JSON, or a failure that says the address is not an Engram server. */
async function graphqlBody<T>(options: ClientOptions, response: Response): Promise<GraphQLBody<T>> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as GraphQLBody<T>;
    if (body && typeof body === 'object' && ('data' in body || 'errors' in body)) return body;
  } catch {
    // Told below.
  }
  const type = response.headers.get('content-type') ?? 'no content type';
  throw new Failure(`${options.url}/graphql answered HTTP ${response.status} (${type}), not GraphQL: is --url (or ENGRAM_URL) an Engram server?`);
}

/** Why fetch failed: its cause (ECONNREFUSED, ENOTFOUND), not its own "fetch failed". */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

const ENTRY = `id kind name scope { name } currentVersion { ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { content } }`;

/** The first line of an entry's text, cut to `width`. */
function gist(entry: EntryNode, width = 60): string {
  const text = (entry.currentVersion?.content ?? entry.currentVersion?.description ?? '').split('\n')[0]!;
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

export async function queryCommand(options: ClientOptions, scope: string, words: string[], filters: { kind?: string[]; tag?: string[]; first: number }): Promise<number> {
  const input = { scope, ...(words.length ? { search: words.join(' ') } : {}), ...(filters.kind ? { kinds: filters.kind.map((k) => k.toUpperCase()) } : {}), ...(filters.tag ? { tags: { require: filters.tag } } : {}) };
  const data = await ask<{ memoryQuery: { edges: Edge[] } }>(options, `query($input: MemoryQueryInput!, $first: Int) { memoryQuery(input: $input, first: $first) { edges { score node { ${ENTRY} } } } }`, { input, first: filters.first });
  const edges = data.memoryQuery.edges;
  if (options.json) for (const edge of edges) console.log(JSON.stringify({ score: edge.score, ...edge.node }));
  else if (!edges.length) console.log('(nothing matches)');
  else table([['score', 'kind', 'name', 'scope', 'text'], ...edges.map((e) => [e.score.toFixed(3), e.node.kind, e.node.name, e.node.scope?.name ?? '', gist(e.node)])]);
  return EXIT.ok;
}

export async function contextCommand(options: ClientOptions, scope: string, task: string, budget?: number): Promise<number> {
  const data = await ask<{ context: ContextData }>(
    options,
    `query($input: ContextInput!) { context(input: $input) { tokenBudget tokensUsed truncated
      tools { score node { ${ENTRY} } } guidelines { score node { ${ENTRY} ... on Guideline { priority } } } knowledge { score node { ${ENTRY} } } } }`,
    { input: { scope, task, ...(budget !== undefined ? { tokenBudget: budget } : {}) } },
  );
  const context = data.context;
  if (options.json) {
    console.log(JSON.stringify(context));
    return EXIT.ok;
  }
  console.log(`${context.tokensUsed} of ${context.tokenBudget} tokens${context.truncated ? ' (truncated)' : ''}`);
  for (const section of ['guidelines', 'tools', 'knowledge'] as const) {
    const edges = context[section];
    if (!edges.length) continue;
    console.log(`\n${section}`);
    for (const e of edges) console.log(`  ${e.score.toFixed(3)}  ${e.node.name}: ${gist(e.node, 80)}`);
  }
  return EXIT.ok;
}

export async function resolveCommand(options: ClientOptions, conflict: string, strategy: 'KEEP_CURRENT' | 'TAKE_INCOMING', note?: string): Promise<number> {
  const data = await ask<{ resolveConflict: Resolved }>(
    options,
    `mutation($input: ResolveConflictInput!) { resolveConflict(input: $input) { __typename
      ... on ResolveConflictSuccess { resolution { conflict { id resolution } version { version } } } ... on UserError { code message } } }`,
    { input: { id: conflict, strategy, ...(note ? { note } : {}) } },
  );
  const { code, message, resolution } = data.resolveConflict;
  if (code || !resolution) throw new UsageError(`${code ?? 'ERROR'}: ${message ?? 'not resolved'}`);
  if (options.json) console.log(JSON.stringify(resolution));
  else console.log(`Resolved ${conflict}: ${resolution.conflict.resolution}${resolution.version ? `, now version ${resolution.version.version}` : ''}`);
  return EXIT.ok;
}

const TAILS = {
  entries: `subscription($scope: ID!) { entryChanged(scope: $scope, includeDescendants: true) { type occurredAt actor entry { kind name } version { version } } }`,
  conflicts: `subscription($scope: ID!) { conflictDetected(scope: $scope, includeDescendants: true) { type occurredAt conflict { id entry { kind name } } } }`,
  sessions: `subscription($scope: ID!) { sessionEvent(project: $scope) { sequence type actor createdAt session { id name } } }`,
} as const;

/** A session's own events are asked by `session`, a project's by `project`. */
const isSession = (scope: string) => Buffer.from(scope, 'base64').toString('utf8').startsWith('Session:');

/** Follows a scope's changes until interrupted (or the server ends the subscriptions). */
export async function tailCommand(options: ClientOptions, scope: string, streams: (keyof typeof TAILS)[]): Promise<number> {
  checked(options);
  const ws = createClient({ url: `${options.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: options.key ? { authorization: `Bearer ${options.key}` } : {}, retryAttempts: 0 });
  process.once('SIGINT', () => void Promise.resolve(ws.dispose()).then(() => process.exit(EXIT.ok)));
  const follow = async (stream: keyof typeof TAILS) => {
    const query = stream === 'sessions' && isSession(scope) ? TAILS.sessions.replace('project: $scope', 'session: $scope') : TAILS[stream];
    for await (const result of ws.iterate({ query, variables: { scope } })) {
      const [error] = result.errors ?? [];
      if (error) throw new UsageError(`${typeof error.extensions?.code === 'string' ? error.extensions.code : 'ERROR'}: ${error.message}`);
      const event = Object.values(result.data ?? {})[0] as TailEvent;
      console.log(options.json ? JSON.stringify({ stream, ...event }) : line(stream, event));
    }
  };
  // Said once the server has accepted the connection (and the key), not before it is known to be there.
  ws.on('connected', () => console.error(`following ${streams.join(', ')} of ${scope} (Ctrl-C to stop)`));
  try {
    await Promise.all(streams.map(follow));
  } catch (error) {
    throw socketError(options, error);
  } finally {
    await ws.dispose();
  }
  return EXIT.ok;
}

/**
 * graphql-ws rejects with the socket's own event, not an Error: an ErrorEvent when the server
 * cannot be reached, a CloseEvent when it closed the connection (4403: the key was refused).
 */
function socketError(options: ClientOptions, error: unknown): unknown {
  if (error instanceof Error) return error;
  const event = error as { type?: string; code?: number; reason?: string; message?: string; error?: unknown };
  if (event.type === 'error') {
    // The event's error (an Error with a code such as ECONNREFUSED), else its message.
    const why = event.error !== undefined ? causeOf({ cause: event.error }) : (event.message ?? 'no reason given');
    return new Failure(`Engram at ${options.url} did not answer (${why}); set ENGRAM_URL or --url`);
  }
  if (event.code === 4401 || event.code === 4403) return new UsageError(`UNAUTHENTICATED: ${event.reason || 'the server refused the API key'} (--key or ENGRAM_API_KEY)`);
  if (typeof event.code === 'number') return new Failure(`Engram at ${options.url} closed the connection (${event.code}${event.reason ? `: ${event.reason}` : ''})`);
  return new Failure(`Engram at ${options.url}: the subscription ended unexpectedly`);
}

function line(stream: keyof typeof TAILS, e: TailEvent): string {
  const by = e.actor ? ` by ${e.actor}` : '';
  if (stream === 'entries') return `${e.occurredAt}  entry    ${e.type} ${e.entry?.kind ?? ''} ${e.entry?.name ?? '(gone)'}${e.version ? ` v${e.version.version}` : ''}${by}`;
  if (stream === 'conflicts') return `${e.occurredAt}  conflict ${e.type} ${e.conflict?.id ?? ''} on ${e.conflict?.entry.kind ?? ''} ${e.conflict?.entry.name ?? ''}`;
  return `${e.createdAt}  session  ${e.session?.name ?? e.session?.id ?? ''} #${e.sequence} ${e.type}${by}`;
}
