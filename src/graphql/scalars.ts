import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { instantProblem, jsonDepth } from '../domain/validate.ts';
import { builder, type JsonInput } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO-8601 string with time zone (e.g. 2026-11-21T12:00:00.000Z).',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parseDate(ast.value);
  },
});

function parseDate(value: unknown): Date {
  const problem = instantProblem(value);
  if (problem) throw new GraphQLError(`DateTime ${problem}`);
  return new Date(value as string);
}

/**
 * Deeper than this, a JSON input is refused as it is read (BAD_USER_INPUT), before anything walks
 * it recursively; inputs that keep JSON check the tighter LIMITS.jsonDepth with a ValidationError.
 */
export const JSON_HARD_DEPTH = 256;

/**
 * More values than this in one JSON input (objects, arrays, and what they hold) is refused as it is
 * read (BAD_USER_INPUT). Each takes at least two characters of JSON, so such an input is over twice
 * the most any input keeps (LIMITS.jsonBytes, checked with a ValidationError once every walk
 * is done): a list of 2,000,000 numbers (4 MB) took 3.1 s of the event loop to refuse there, an
 * object of 1,000,000 keys 16.7 s.
 */
export const JSON_HARD_VALUES = 65_536;

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (moreValuesThan(value, JSON_HARD_VALUES)) {
      throw new GraphQLError(`JSON must hold at most ${JSON_HARD_VALUES} values`, { extensions: { code: 'BAD_USER_INPUT', limit: JSON_HARD_VALUES } });
    }
    if (jsonDepth(value, JSON_HARD_DEPTH) > JSON_HARD_DEPTH) {
      throw new GraphQLError(`JSON must nest at most ${JSON_HARD_DEPTH} levels`, { extensions: { code: 'BAD_USER_INPUT' } });
    }
    return storable(value) as JsonInput;
  },
  parseLiteral: (ast, variables) => storable(literal(ast, variables)) as JsonInput,
});

/** Whether `value` holds more than `limit` values, counted until it does (the walk stops there). */
function moreValuesThan(value: unknown, limit: number): boolean {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return true;
    if (node === null || typeof node !== 'object') continue;
    // for...in rather than Object.values: no array of a million children made before the count stops.
    for (const key in node) {
      if (Object.hasOwn(node, key)) stack.push((node as Record<string, unknown>)[key]);
      if (stack.length > limit) return true;
    }
  }
  return false;
}

/**
 * The value, unless it holds what would not be stored as sent: a number JSON cannot write back
 * (1e400 parses as Infinity, which was stored as null: a state value of 1e400 read back as null,
 * found by a sweep), or an object key `__proto__`, which JSON.parse keeps as a key but Prisma's
 * serializer assigns as the object's prototype: the key was silently dropped (found by a sweep).
 * Called after the depth check, so the walk is bounded.
 */
function storable(value: unknown): unknown {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'number' && !Number.isFinite(node)) {
      throw new GraphQLError('JSON numbers must be finite (at most ~1.8e308)', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node) && Object.hasOwn(node, '__proto__')) {
      throw new GraphQLError('JSON object keys cannot be "__proto__"', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    // One at a time: spreading an array of 200,000 numbers into push() would overflow the stack.
    for (const child of Object.values(node as Record<string, unknown>)) stack.push(child);
  }
  return value;
}

function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literal(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      throw new GraphQLError('Not a JSON value');
  }
}
