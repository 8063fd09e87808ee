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
    api = await SwaggerParser.validate(file, { resolve: { external: false } });
  } catch (error) {
    throw new OpenApiError(`${file} is not a valid OpenAPI document: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!('openapi' in api) || !String(api.openapi).startsWith('3.')) throw new OpenApiError(`${file} is not OpenAPI 3 (Swagger 2 documents are not read)`);
  // With external references off, swagger-parser leaves them in place rather than refusing them.
  const outside = externalReference(api);
  if (outside) throw new OpenApiError(`${file} refers to ${outside}: only references inside the document are followed (inline it first)`);
  return api as OpenAPIV3.Document;
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
