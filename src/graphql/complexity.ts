import { getNullableType, isListType, type GraphQLField } from 'graphql';
import type { FieldComplexityValue } from '@pothos/plugin-complexity';
import { LIMITS } from '../domain/limits.ts';

/** What a plain list (no paging arguments) is assumed to hold: tags, ancestors, scope chains. */
export const LIST_MULTIPLIER = 10;

/**
 * The cost model of every field (Pothos' complexity plugin): a field costs 1, and a field that
 * returns many things multiplies the cost of what it selects by how many it may return: a
 * connection by its `first`/`last` (the default page when neither is given), `nodes(ids:)` by
 * the number of ids, any other list by LIST_MULTIPLIER. A connection's `edges` is the page the
 * connection already counted, so it multiplies by 1. Fields that run a ranking (memoryQuery,
 * context) say their own cost where they are defined.
 */
export function fieldComplexity(args: Record<string, unknown>, _ctx: object, field: GraphQLField<unknown, never, Record<string, unknown>>): FieldComplexityValue {
  if (field.args.some((arg) => arg.name === 'first')) {
    const page = numberArg(args.first) ?? numberArg(args.last) ?? LIMITS.page.default;
    return { field: 1, multiplier: page };
  }
  if (Array.isArray(args.ids)) return { field: 1, multiplier: args.ids.length };
  if (isListType(getNullableType(field.type))) {
    return { field: 1, multiplier: field.name === 'edges' ? 1 : LIST_MULTIPLIER };
  }
  return 1;
}

function numberArg(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : null;
}
