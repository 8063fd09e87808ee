// `engram import-openapi`: an OpenAPI 3 document's operations as tools of a scope, through the
// GraphQL API in-process (the same validation, secret screening, events and audit as any client).
import { isDeepStrictEqual } from 'node:util';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createApp } from '../app.ts';
import { SCOPE_TYPENAME } from '../modules/scopes/scopes.schema.ts';
import type { ScopeKind } from '../modules/scopes/scopes.service.ts';
import type { Database } from '../infra/database.ts';
import { executeThrough } from '../mcp/server.ts';
import { OpenApiError, readOpenApi, toolsOf, type ToolDefinition } from '../modules/transfer/openapi.ts';
import { EXIT, UsageError } from './exit.ts';
import { scopeIdOf } from './transfer.ts';

type Outcome = 'created' | 'updated' | 'unchanged' | 'refused';

const FIND = `query ($scope: ID!, $name: String!) { entryByName(scope: $scope, kind: TOOL, name: $name) {
  id category currentVersion { ... on ToolVersion { description parameters constraints } } tags { name } } }`;
const ADD = `mutation ($input: AddToolInput!) { addTool(input: $input) { __typename ... on UserError { code message } } }`;
const UPDATE = `mutation ($input: UpdateToolInput!) { updateTool(input: $input) { __typename ... on UserError { code message } } }`;
const TAG = `mutation ($input: TagsOfEntryInput!) { attachTags(input: $input) { __typename ... on UserError { code message } } }`;

interface Found {
  id: string;
  category: string | null;
  currentVersion: { description: string | null; parameters: unknown; constraints: string | null };
  tags: { name: string }[];
}

/** The tools of the document at `file`; a document that cannot be read or is not OpenAPI 3 is a usage mistake (exit 2). */
export async function readTools(file: string): Promise<ToolDefinition[]> {
  try {
    return toolsOf(await readOpenApi(file));
  } catch (error) {
    if (error instanceof OpenApiError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Each operation becomes a tool named by its operationId (category `api`): added when the scope has
 * no tool of that name, a new version when its description, parameters or constraints changed, left
 * alone otherwise; so importing a document again changes nothing.
 */
export async function importOpenApiCommand(database: Database, tools: readonly ToolDefinition[], options: { scope: string; json?: boolean }): Promise<number> {
  const app = createApp({ database, graphiql: false });
  const execute = executeThrough((url, init) => app.yoga.fetch(url, init), { 'x-engram-actor': 'system' });
  // The scope as the API takes it: a GraphQL ID of its kind's type, whatever form was given.
  const scopeId = scopeIdOf(options.scope);
  const found = await database.prisma.scope.findUnique({ where: { id: scopeId }, select: { kind: true } });
  if (!found) throw new UsageError(`No scope has the id ${scopeId}`);
  const scope = encodeGlobalID(SCOPE_TYPENAME[found.kind as ScopeKind], scopeId);
  const report: Record<Outcome, string[]> = { created: [], updated: [], unchanged: [], refused: [] };
  try {
    for (const tool of tools) {
      const [outcome, detail] = await upsert(execute, scope, tool);
      report[outcome].push(detail ? `${tool.name}: ${detail}` : tool.name);
    }
  } finally {
    await app.stop(1_000);
  }
  if (options.json) console.log(JSON.stringify(report));
  else {
    console.log(`${tools.length} operations: ${report.created.length} created, ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.refused.length} refused`);
    for (const line of report.refused) console.log(`refused ${line}`);
  }
  return report.refused.length ? EXIT.failed : EXIT.ok;
}

type Execute = ReturnType<typeof executeThrough>;

async function upsert(execute: Execute, scope: string, tool: ToolDefinition): Promise<[Outcome, string?]> {
  const found = await call<{ entryByName: Found | null }>(execute, FIND, { scope, name: tool.name });
  if ('error' in found) return ['refused', found.error];
  const existing = found.data.entryByName;
  const version = { description: tool.description, parameters: tool.parameters, constraints: tool.constraints };
  if (!existing) {
    const added = await mutate(execute, ADD, 'addTool', { ...version, scope, name: tool.name, category: 'api', tags: tool.tags });
    return added ? ['refused', added] : ['created'];
  }
  const missingTags = tool.tags.filter((t) => !existing.tags.some((have) => have.name === t));
  if (missingTags.length) {
    const tagged = await mutate(execute, TAG, 'attachTags', { entry: existing.id, tags: missingTags });
    if (tagged) return ['refused', tagged];
  }
  const current = existing.currentVersion;
  const same = current.description === version.description && current.constraints === version.constraints && isDeepStrictEqual(current.parameters, version.parameters);
  if (same) return [missingTags.length ? 'updated' : 'unchanged'];
  const updated = await mutate(execute, UPDATE, 'updateTool', { ...version, id: existing.id, changeReason: 'Re-imported from OpenAPI' });
  return updated ? ['refused', updated] : ['updated'];
}

/** A query's data, or its first error as text. */
async function call<T>(execute: Execute, document: string, variables: Record<string, unknown>): Promise<{ data: T } | { error: string }> {
  const answer = await execute(document, variables);
  const [error] = answer.errors ?? [];
  const code = typeof error?.extensions?.code === 'string' ? error.extensions.code : 'ERROR';
  return error ? { error: `${code} ${error.message}` } : { data: answer.data as T };
}

/** Runs a mutation; null when it succeeded, else why it was refused. */
async function mutate(execute: Execute, document: string, field: string, input: Record<string, unknown>): Promise<string | null> {
  const answer = await call<Record<string, { __typename: string; code?: string; message?: string }>>(execute, document, { input });
  if ('error' in answer) return answer.error;
  const result = answer.data[field]!;
  return result.__typename.endsWith('Success') ? null : `${result.code} ${result.message}`;
}
