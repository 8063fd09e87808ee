import { isObjectType, type GraphQLSchema } from 'graphql';
import type { Context } from '../context.ts';
import type { StateNamespace } from '../modules/sessions/state.service.ts';
import { allows, type TargetKind } from '../modules/identity/targets.ts';

type Row = Record<string, unknown>;

/**
 * Whether a global ID's type name is an object type with IDs (Node): any other name (no type, an
 * interface, a type without IDs) is an ID no object has, so `node` answers null for it rather
 * than Pothos' own error, which had no code.
 */
export function isNodeType(schema: GraphQLSchema, typename: string): boolean {
  const type = schema.getType(typename);
  return isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node');
}
const str = (row: Row, key: string) => String(row[key]);

/** How to tell whether the caller reads a node of each type: the scope whose grants decide. */
const READ_RULES: Record<string, (ctx: Context, row: Row) => Promise<boolean>> = {
  GlobalScope: (ctx, row) => ctx.access.has('READ', str(row, 'id')),
  Organization: (ctx, row) => ctx.access.has('READ', str(row, 'id')),
  Project: (ctx, row) => ctx.access.has('READ', str(row, 'id')),
  Session: (ctx, row) => ctx.access.has('READ', str(row, 'id')),
  Tool: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  Guideline: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  Knowledge: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  Task: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  Conversation: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  SessionEvent: (ctx, row) => ctx.access.has('READ', str(row, 'sessionId')),
  ToolVersion: (ctx, row) => byTarget(ctx, 'version', row),
  GuidelineVersion: (ctx, row) => byTarget(ctx, 'version', row),
  KnowledgeVersion: (ctx, row) => byTarget(ctx, 'version', row),
  Message: (ctx, row) => byTarget(ctx, 'message', row),
  Conflict: (ctx, row) => byTarget(ctx, 'conflict', row),
  VoteQuestion: (ctx, row) => ctx.access.has('READ', str(row, 'scopeId')),
  Vote: (ctx, row) => byTarget(ctx, 'vote', row),
  // A relation shows only when both of its ends do.
  Relation: async (ctx, row) =>
    (await byTarget(ctx, 'relation', row)) &&
    (row.targetEntryId ? await byTarget(ctx, 'entry', { id: row.targetEntryId }) : ctx.access.has('READ', str(row, 'targetScopeId'))),
  StateKey: (ctx, row) => ctx.stateGuard.canRead(str(row, 'namespace') as StateNamespace, str(row, 'owner')),
  // The tag vocabulary is shared; which entries carry a tag is filtered where entries are listed.
  Tag: (ctx) => ctx.access.member(),
};

function byTarget(ctx: Context, kind: TargetKind, row: Row): Promise<boolean> {
  return allows(ctx.db, ctx.access, { role: 'READ', kind, id: str(row, 'id'), path: [], quiet: true });
}

/**
 * `node`/`nodes` answer null for what the caller may not read, exactly as for an unknown ID. A node
 * type without a rule here is never shown to a caller below "everything" (default deny).
 */
export async function readableNode(ctx: Context, typename: string, node: unknown): Promise<unknown> {
  if (node === null || node === undefined) return null;
  const rule = READ_RULES[typename];
  if (!ctx.access.everything && !(rule && (await rule(ctx, node as Row)))) return null;
  // Reading an entry by its ID counts as an access (for ranking and retention).
  if (ENTRY_TYPENAMES.has(typename)) ctx.tracker.record([str(node as Row, 'id')]);
  return node;
}

const ENTRY_TYPENAMES = new Set(['Tool', 'Guideline', 'Knowledge']);

export const NODE_TYPES_WITH_RULES = Object.keys(READ_RULES);
