// An unknown scope is NOT_FOUND to every caller, to one who may do everything as well: a field
// answering from the scope id alone (a list of its rows) would otherwise answer an admin an empty
// list, where a grant holder is told the scope does not exist. Walks every query field taking a
// `scope` argument, so a field added later is covered without a line here.
import { getNamedType, getNullableType, isEnumType, isListType, isLeafType, isNonNullType, isScalarType, type GraphQLArgument, type GraphQLField } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { as, principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();
const schema = getSchema();
const ghostOf = (typename: string) => Buffer.from(`${typename}:00000000-0000-7000-8000-000000000000`).toString('base64');

/** A value for a required argument other than the scope, or undefined where none can be made up. */
function valueFor(arg: GraphQLArgument): unknown {
  const type = getNullableType(arg.type);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (!isScalarType(type)) return undefined;
  return { String: 'k', ID: ghostOf('Entry'), Int: 1, Boolean: false, DateTime: new Date().toISOString() }[type.name];
}

/** The operation asking `field` with `scope` and every other required argument; null where one cannot be made up. */
function operationFor(field: GraphQLField<unknown, unknown>): { query: string; variables: Record<string, unknown> } | null {
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  for (const arg of field.args) {
    if (arg.name !== 'scope' && !isNonNullType(arg.type)) continue;
    const value = arg.name === 'scope' ? ghostOf('Project') : valueFor(arg);
    if (value === undefined) return null;
    variables[arg.name] = value;
    declared.push(`$${arg.name}: ${String(arg.type)}`);
  }
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  const args = Object.keys(variables).map((name) => `${name}: $${name}`);
  return { query: `query (${declared.join(', ')}) { ${field.name}(${args.join(', ')})${selection} }`, variables };
}

describe('an unknown scope', () => {
  it('answers the local admin and an admin key as a grant holder (NOT_FOUND at the argument, or null), on every query field taking one', async () => {
    const reader = await principal(h, 'unknown-scope-reader', { grants: [[Buffer.from('GlobalScope:global').toString('base64'), 'READ']] });
    const admin = await principal(h, 'unknown-scope-admin', { admin: true });
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.args.some((a) => a.name === 'scope'));
    const asked: string[] = [];
    for (const field of fields) {
      const operation = operationFor(field);
      if (!operation) continue;
      asked.push(field.name);
      const answers = [];
      for (const key of [null, admin.key, reader.key]) {
        const answer = await as(h, key, operation.query, operation.variables);
        answers.push({ value: (answer.data?.[field.name] as unknown) ?? null, errors: answer.errors?.map((e) => [e.extensions.code, (e.extensions as { inputPath?: unknown }).inputPath]) ?? [] });
      }
      // NOT_FOUND at the argument, or null where the field answers so for what the caller cannot see.
      const told = { value: null, errors: answers[0]!.errors.length > 0 ? [['NOT_FOUND', ['scope']]] : [] };
      expect({ field: field.name, answers }).toEqual({ field: field.name, answers: [told, told, told] });
    }
    // The fields that answered from the scope id alone before (an admin got an empty list) are among them.
    expect(asked).toEqual(expect.arrayContaining(['voteQuestions', 'voteQuestionByKey', 'conversations', 'leases', 'flaggedAgents', 'voteAgentStats']));
  });
});
