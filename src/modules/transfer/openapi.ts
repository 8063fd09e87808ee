import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI, OpenAPIV3 } from 'openapi-types';
import { LIMITS } from '../../domain/limits.ts';
import { normalizeTagName } from '../../domain/validate.ts';

/** A tool read from one operation of an OpenAPI document. */
export interface ToolDefinition {
  name: string;
  description: string | null;
  /** JSON Schema of the call: one property per parameter, and `body` for a JSON request body. */
  parameters: Record<string, unknown>;
  /** How to call it: method, URL, authentication, deprecation. */
  constraints: string;
  tags: string[];
}

/** The document is not OpenAPI 3, or does not validate: the caller's file is wrong. */
export class OpenApiError extends Error {}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const TAG = /^[a-z0-9][a-z0-9._:+#/-]*$/;

/**
 * Reads an OpenAPI 3 document (JSON or YAML) with swagger-parser: validated, its `$ref`s inlined.
 * Only references inside the file are followed: an external one (another file, a URL) is refused,
 * so importing a document never reads the disk or the network beyond it.
 */
export async function readOpenApi(file: string): Promise<OpenAPIV3.Document> {
  let api: OpenAPI.Document;
  try {
    checkInlinedSize(file, await SwaggerParser.parse(file));
    api = await SwaggerParser.validate(file, { resolve: { external: false } });
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    throw new OpenApiError(`${file} is not a valid OpenAPI document: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!('openapi' in api) || !String(api.openapi).startsWith('3.')) throw new OpenApiError(`${file} is not OpenAPI 3 (Swagger 2 documents are not read)`);
  // With external references off, swagger-parser leaves them in place rather than refusing them.
  const outside = externalReference(api);
  if (outside) throw new OpenApiError(`${file} refers to ${outside}: only references inside the document are followed (inline it first)`);
  return api as OpenAPIV3.Document;
}

/**
 * The most a document may come to with its `$ref`s inlined. Validating walks the document so: a
 * schema referred to twice by the next one, and that by the next, doubles at each level (60 levels
 * in 3 KB: 2^60 copies; at 20 levels validation alone took 3 s, and it doubled with each level).
 * Measured: 26 MB inlined validated in 0.8 s.
 */
export const MAX_INLINED_BYTES = 16 * 1024 * 1024;

/** Refuses a document (parsed, its references not followed yet) that would be over MAX_INLINED_BYTES inlined. */
function checkInlinedSize(file: string, document: object): void {
  const size = inlinedSize(document);
  if (size > MAX_INLINED_BYTES) {
    const said = size > 1e15 ? 'more than 10^15 bytes' : `~${Math.round(size / 1024 / 1024)} MiB`;
    throw new OpenApiError(`${file} is too large with its $refs inlined: ${said} of JSON, over the ${MAX_INLINED_BYTES / 1024 / 1024} MiB read (schemas that refer to others many times over)`);
  }
}

/**
 * About how many bytes of JSON `document` comes to with every local `$ref` inlined, without
 * inlining anything: each reference's target is measured once (and each object once, as YAML
 * aliases share them), so a document that would inline to 2^60 copies is measured in linear time.
 * A reference to a schema being measured (a cycle) counts as itself: acyclic() cuts it so.
 */
export function inlinedSize(document: object): number {
  const byRef = new Map<string, number>();
  const byObject = new WeakMap<object, number>();
  const measuring = new Set<unknown>();
  const sizeOf = (node: unknown): number => {
    if (!node || typeof node !== 'object') return JSON.stringify(node)?.length ?? 0;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) return memoised(byRef, ref, () => sizeOf(pointed(document, ref)), ref.length);
    return memoised(byObject, node, () => (Array.isArray(node) ? node.reduce<number>((sum, item) => sum + 1 + sizeOf(item), 2) : Object.entries(node).reduce((sum, [key, value]) => sum + key.length + 4 + sizeOf(value), 2)), 0);
  };
  const memoised = <K>(memo: { get(key: K): number | undefined; set(key: K, size: number): unknown }, key: K, measure: () => number, whenCyclic: number): number => {
    const known = memo.get(key);
    if (known !== undefined) return known;
    if (measuring.has(key)) return whenCyclic;
    measuring.add(key);
    const size = measure();
    measuring.delete(key);
    memo.set(key, size);
    return size;
  };
  return sizeOf(document);
}

/** The node a local JSON pointer (`#/components/schemas/Pet`) names; undefined when there is none (validation says so). */
function pointed(document: object, ref: string): unknown {
  const steps = ref.slice(1).split('/').slice(1).map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = document;
  for (const step of steps) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined;
  return node;
}

/** The first `$ref` left in the dereferenced document that points outside it, if any. */
function externalReference(node: unknown, seen = new Set<object>()): string | undefined {
  if (!node || typeof node !== 'object' || seen.has(node)) return undefined;
  seen.add(node);
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) return ref;
  for (const value of Object.values(node)) {
    const found = externalReference(value, seen);
    if (found) return found;
  }
  return undefined;
}

/** One tool per operation, in the document's order of paths and methods. */
export function toolsOf(api: OpenAPIV3.Document): ToolDefinition[] {
  const server = api.servers?.[0]?.url ?? '';
  const tools: ToolDefinition[] = [];
  for (const [path, item] of Object.entries(api.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) tools.push(toolOf(api, server, path, method, item, operation));
    }
  }
  return tools;
}

function toolOf(api: OpenAPIV3.Document, server: string, path: string, method: string, item: OpenAPIV3.PathItemObject, op: OpenAPIV3.OperationObject): ToolDefinition {
  const name = (op.operationId ?? `${method}_${path}`).replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, LIMITS.name);
  const text = [op.summary, op.description].filter(Boolean).join('\n\n');
  const security = (op.security ?? api.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const constraints = [
    `HTTP ${method.toUpperCase()} ${server}${path}`,
    ...(security.length ? [`Authentication: ${[...new Set(security)].join(' or ')}`] : []),
    ...(op.deprecated ? ['Deprecated by the API.'] : []),
  ].join('\n');
  return {
    name,
    description: text ? text.slice(0, LIMITS.description) : null,
    parameters: parametersOf(item, op),
    constraints,
    tags: (op.tags ?? []).map(normalizeTagName).filter((tag) => TAG.test(tag) && tag.length <= LIMITS.tagName).slice(0, LIMITS.tagsPerEntry),
  };
}

/** Path-level parameters, overridden by the operation's of the same name and place, then the body. */
function parametersOf(item: OpenAPIV3.PathItemObject, op: OpenAPIV3.OperationObject): Record<string, unknown> {
  const byKey = new Map<string, OpenAPIV3.ParameterObject>();
  // Dereferenced: no ReferenceObject is left (a self-referring schema keeps its $ref inside a schema only).
  for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3.ParameterObject[]) byKey.set(`${p.in}:${p.name}`, p);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of byKey.values()) {
    const where = `(${p.in}) `;
    properties[p.name] = { ...acyclic(p.schema ?? {}), description: `${where}${p.description ?? ''}`.trim() };
    if (p.required) required.push(p.name);
  }
  const body = (op.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.content?.['application/json']?.schema;
  if (body) {
    properties.body = { ...acyclic(body), description: `(body, JSON) ${(op.requestBody as OpenAPIV3.RequestBodyObject).description ?? ''}`.trim() };
    if ((op.requestBody as OpenAPIV3.RequestBodyObject).required) required.push('body');
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * A copy of a dereferenced schema without its cycles (a Pet whose `parent` is a Pet): where a
 * schema would contain itself, the copy says so instead, since a tool's parameters are stored as
 * JSON and no longer have the document's `components` to refer to. Copies stop after `budget`
 * objects: a document that shares schemas many times over would otherwise copy without end (what
 * is cut is then over the 64 KiB a tool's parameters may hold, and the tool is refused).
 */
function acyclic(schema: object, ancestors: object[] = [], budget = { left: 10_000 }): Record<string, unknown> {
  if (ancestors.includes(schema)) return { description: 'The enclosing schema again (recursive).' };
  if (--budget.left < 0 || ancestors.length >= LIMITS.jsonDepth) return { description: 'Cut: the schema is too large.' };
  const inside = [...ancestors, schema];
  const copy = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(copy) : value && typeof value === 'object' ? acyclic(value, inside, budget) : value;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, copy(value)]));
}
