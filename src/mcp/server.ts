import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { parse, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import * as z from 'zod';
import { JSON_HARD_DEPTH } from '../graphql/scalars.ts';
import { LIMITS } from '../domain/limits.ts';
import { getSchema } from '../graphql/schema.ts';
import { inputSchemaOf } from './input-schema.ts';
import { shapeOf, simplify, type Shape } from './result-shape.ts';
import { TOOLS, type ToolSpec } from './tools.ts';

/** Runs a GraphQL operation as the MCP caller (through Yoga, so with its credentials and limits). */
export type Execute = (document: string, variables: Record<string, unknown>) => Promise<ExecutionResult>;

/** An Execute that POSTs each operation with `headers` (the caller's credentials) to Yoga's in-process `fetch`. */
export function executeThrough(fetch: (url: string, init: RequestInit) => Promise<Response> | Response, headers: Record<string, string>): Execute {
  const sent = { 'content-type': 'application/json', accept: 'application/json', ...headers };
  return async (document, variables) => {
    const response = await fetch('http://engram.internal/graphql', { method: 'POST', headers: sent, body: JSON.stringify({ query: document, variables }) });
    return (await response.json()) as ExecutionResult;
  };
}

const VERSION = '0.1.0';

const INSTRUCTIONS =
  'Engram is a memory for agents, organized in scopes: global > organization > project > session. ' +
  'Before a piece of work, call `context` with the scope and the task; write back what you learn with add*/update* tools; ' +
  'keep a run in a session (startSession, appendSessionEvent, setState, endSession). `listScopes` gives scope ids.';

interface Listed {
  tools: Tool[];
  specs: Map<string, { spec: ToolSpec; tool: Tool; flattened: boolean; shape: Shape }>;
}

let listed: Listed | undefined;

/** The tools with their input schemas, built once from the GraphQL schema (a tool that does not validate is a bug). */
function listedTools(schema: GraphQLSchema = getSchema()): Listed {
  if (listed) return listed;
  const tools: Tool[] = [];
  const specs: Listed['specs'] = new Map();
  for (const spec of TOOLS) {
    const document = parse(spec.document);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`MCP tool ${spec.name}: ${errors.map((e) => e.message).join('; ')}`);
    const { schema: inputSchema, flattened } = inputSchemaOf(schema, spec.document);
    for (const [name, description] of Object.entries(spec.inputs ?? {})) {
      const property = inputSchema.properties?.[name];
      if (!property) throw new Error(`MCP tool ${spec.name} has no input ${name}`);
      property.description = description;
    }
    const tool: Tool = {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { title: spec.title, readOnlyHint: spec.readOnly ?? false, openWorldHint: false },
    };
    tools.push(tool);
    specs.set(spec.name, { spec, tool, flattened, shape: shapeOf(schema, document) });
  }
  return (listed = { tools, specs });
}

/**
 * An MCP server whose tools run as GraphQL operations through `execute`. The low-level `Server`
 * rather than `McpServer`: `McpServer.registerTool` takes zod shapes, and these tools' input
 * schemas are JSON Schema read from the GraphQL schema (one description of every input).
 */
export function createMcpServer(execute: Execute): Server {
  const server = new Server({ name: 'engram', title: 'Engram', version: VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools().tools }));
  // The SDK's Server checks a tools/call against CallToolRequestSchema itself (Invalid params);
  // registered with that schema, the protocol layer would parse it first and answer a malformed
  // call as an internal error (-32603).
  server.setRequestHandler(TOOLS_CALL, async (call) => {
    const request = CallToolRequestSchema.parse(call);
    const found = listedTools().specs.get(request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(request.params.name.slice(0, 100))}${request.params.name.length > 100 ? ' (cut)' : ''}`);
    const args = request.params.arguments ?? {};
    const refused = unknownArguments(request.params.name, found.tool, args) ?? belowMinimum(found.tool, args) ?? unsendable(args);
    if (refused) return failure({ code: 'BAD_USER_INPUT', message: refused });
    return toolResult(await execute(found.spec.document, found.flattened ? { input: args } : args), found.shape);
  });
  return server;
}

const TOOLS_CALL = z.object({ method: z.literal('tools/call') }).loose();

/**
 * Connects `server` to `transport`, answering a malformed `initialize` or `tools/call` (a
 * `protocolVersion` or a tool name that is not a string, arguments that are not an object) as
 * invalid params (-32602) in one line per issue. The SDK's Server checks both against its schemas
 * before any handler of ours and answers with zod's whole multi-line dump of the issues (for
 * `initialize`, as an internal error, -32603); unlike a handler, that check cannot be replaced
 * without re-implementing the SDK's own. A well-formed request goes on to it untouched.
 */
export async function connectChecked(server: Server, transport: Transport): Promise<void> {
  await server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refused = tooManyArguments(message) ?? malformedRequest(message) ?? protoArgument(message);
    if (refused) void transport.send(refused);
    else deliver?.(message, extra);
  };
}

const CHECKED: Record<string, z.ZodType> = { initialize: InitializeRequestSchema, 'tools/call': CallToolRequestSchema };

/** More arguments than any tool takes (the widest takes 20-odd): refused before they are read. */
export const MAX_TOOL_ARGUMENTS = 64;

/**
 * A tool call with more than MAX_TOOL_ARGUMENTS arguments, refused as soon as the transport has
 * read it: the SDK's schemas and this server's checks read the arguments four times over before
 * the unknown ones were refused (100,000 keys, 1.1 MB: 1.36 s of the event loop; 1,000,000: 8.7 s).
 * The transport's own reading of the message is left, once.
 */
function tooManyArguments(message: object): ToolRefusal | null {
  const call = toolCall(message);
  if (!call) return null;
  let count = 0;
  for (const key in call.args) if (Object.hasOwn(call.args, key) && ++count > MAX_TOOL_ARGUMENTS) break;
  return count > MAX_TOOL_ARGUMENTS ? refusedCall(call, `takes at most ${MAX_TOOL_ARGUMENTS} arguments`) : null;
}

type ToolRefusal = { jsonrpc: '2.0'; id: string | number; result: CallToolResult };
type ToolCall = { id: string | number; name: unknown; args: Record<string, unknown> };

/** A tools/call request with an id and an object of arguments, as the transport read it, or null. */
function toolCall(message: object): ToolCall | null {
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number') || !isObject(params?.arguments)) return null;
  return { id, name: params.name, args: params.arguments };
}

/** The tool's failure (BAD_USER_INPUT) answering `call`: "<tool> <why>". */
function refusedCall(call: ToolCall, why: string): ToolRefusal {
  return { jsonrpc: '2.0', id: call.id, result: failure({ code: 'BAD_USER_INPUT', message: `${String(call.name).slice(0, 100)} ${why}` }) };
}

/**
 * A tool call with an argument named `__proto__`, refused as any argument a tool does not take.
 * The SDK's schema copies the arguments key by key, which makes that key the copy's prototype:
 * the handler then saw no unknown argument, and read the inherited values as if they were sent.
 */
function protoArgument(message: object): ToolRefusal | null {
  const call = toolCall(message);
  return call && Object.hasOwn(call.args, '__proto__') ? refusedCall(call, 'has no argument "__proto__"') : null;
}

/** The error answer to `message` when it is a request of CHECKED that its schema refuses, else null. */
function malformedRequest(message: object): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } | null {
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string' || !Object.hasOwn(CHECKED, method) || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const checked = CHECKED[method]!.safeParse(message);
  if (checked.success) return null;
  const issues = checked.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`);
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid ${method} request: ${issues.join('; ')}` } };
}

/**
 * Arguments `tool`'s input schema does not have (it says additionalProperties: false), as a
 * refusal, or null. GraphQL refuses an unknown field of an `input` object, but a tool built from
 * several variables would drop an unknown one unseen: a typo (`projectId`) would list everything.
 */
function unknownArguments(name: string, tool: Tool, args: Record<string, unknown>): string | null {
  const known = tool.inputSchema.properties ?? {};
  const unknown = Object.keys(args).filter((key) => !Object.hasOwn(known, key));
  if (!unknown.length) return null;
  const named = unknown.slice(0, 5).map((key) => JSON.stringify(key.slice(0, 100)));
  return `${name} has no argument ${named.join(', ')}${unknown.length > 5 ? ', …' : ''} (it takes ${Object.keys(known).join(', ')})`;
}

/** The first top-level argument below its property's `minimum` (a page size: see inputSchemaOf), or null. */
function belowMinimum(tool: Tool, args: Record<string, unknown>): string | null {
  for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
    const { minimum } = property as { minimum?: number };
    const value = Object.hasOwn(args, key) ? args[key] : undefined;
    if (minimum !== undefined && typeof value === 'number' && value < minimum) return `${key} must be at least ${minimum} (got ${value})`;
  }
  return null;
}

/** Input objects a tool's arguments may nest around a JSON value (which GraphQL bounds itself). */
const INPUT_NESTING = 16;

/**
 * Why `args` cannot become GraphQL variables as they are, or null. JSON text parses numbers too
 * large for a double as ±Infinity, which JSON.stringify would send as null (read as "not given",
 * the write going ahead with a default); and JSON.stringify recurses, so arguments nested
 * thousands deep would overflow the stack before GraphQL's own depth check could answer.
 */
function unsendable(args: Record<string, unknown>): string | null {
  // A value's path is built only for the one refused: built for every value, a list of 5,000,000
  // numbers took 14 s of the event loop (a hostile sweep); primitives are checked where they lie.
  const stack: Array<{ value: object; depth: number; at: PathStep | null }> = [{ value: args, depth: 0, at: null }];
  while (stack.length > 0) {
    const { value, depth, at } = stack.pop()!;
    if (depth > JSON_HARD_DEPTH + INPUT_NESTING) return `arguments nest deeper than ${JSON_HARD_DEPTH + INPUT_NESTING} levels`;
    const array = Array.isArray(value);
    if (array && value.length > MOST_ITEMS) return `${at ? pathOf(at) : 'arguments'} lists ${value.length} items: no argument takes more than ${MOST_ITEMS}`;
    for (const [key, inner] of array ? value.entries() : Object.entries(value)) {
      if (typeof inner === 'number' && !Number.isFinite(inner)) return `${pathOf({ parent: at, key, array })}: ${inner} is not a number JSON can carry (too large for a double)`;
      if (inner !== null && typeof inner === 'object') stack.push({ value: inner as object, depth: depth + 1, at: { parent: at, key, array } });
    }
  }
  return null;
}

/**
 * More items than any list an argument takes (LIMITS.listItems) or a JSON value can hold within
 * LIMITS.jsonBytes (two bytes an item at least): refused before the arguments are written out as
 * GraphQL variables and parsed again (a list of 5,000,000 cost ~0.5 s more that way).
 */
const MOST_ITEMS = Math.max(LIMITS.listItems, Math.ceil(LIMITS.jsonBytes / 2));

/** A step of a value's path in the arguments: its key (an index in an array) under its parent's. */
interface PathStep {
  parent: PathStep | null;
  key: string | number;
  array: boolean;
}

function pathOf(step: PathStep): string {
  const steps: PathStep[] = [];
  for (let s: PathStep | null = step; s; s = s.parent) steps.unshift(s);
  return steps.reduce((path, s) => (s.array ? `${path}[${s.key}]` : `${path}.${s.key}`), 'arguments');
}

/**
 * A GraphQL result as a tool result, shortened as `shape` (the operation's selection) says: errors
 * (top-level, or a result union's error type) become tool errors with their code.
 */
export function toolResult(result: ExecutionResult, shape: Shape): CallToolResult {
  if (result.errors?.length) {
    const first = result.errors[0]!;
    const code = typeof first.extensions?.code === 'string' ? first.extensions.code : 'INTERNAL_SERVER_ERROR';
    return failure({ code, message: result.errors.map((e) => shortened(e.message)).join('\n') });
  }
  const data = (result.data ?? {}) as Record<string, unknown>;
  const keys = Object.keys(data);
  const value = keys.length === 1 ? data[keys[0]!] : data;
  if (isObject(value) && typeof value.code === 'string' && typeof value.message === 'string' && typeof value.__typename === 'string') {
    const { __typename: _type, ...error } = value;
    return failure(error as { code: string; message: string });
  }
  const reshaped = simplify(data, shape) as Record<string, unknown>;
  const simplified = keys.length === 1 ? reshaped[keys[0]!] : reshaped;
  return {
    content: [{ type: 'text', text: JSON.stringify(simplified) }],
    ...(isObject(simplified) ? { structuredContent: simplified } : {}),
  };
}

/**
 * GraphQL's coercion errors quote the whole value they refused (`Variable "$input" got invalid
 * value { …all of it… }; Field "x" …`): a model needs the head and the reason at the end.
 */
function shortened(message: string): string {
  return message.length <= 600 ? message : `${message.slice(0, 200)} … ${message.slice(-350)}`;
}

function failure(error: { code: string; message: string } & Record<string, unknown>): CallToolResult {
  const details = Object.keys(error).length > 2 ? `\n${JSON.stringify(error)}` : '';
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}${details}` }], structuredContent: { error } };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
