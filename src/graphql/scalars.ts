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

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (jsonDepth(value, JSON_HARD_DEPTH) > JSON_HARD_DEPTH) {
      throw new GraphQLError(`JSON must nest at most ${JSON_HARD_DEPTH} levels`, { extensions: { code: 'BAD_USER_INPUT' } });
    }
    return value as JsonInput;
  },
  parseLiteral: (ast, variables) => literal(ast, variables) as JsonInput,
});

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
