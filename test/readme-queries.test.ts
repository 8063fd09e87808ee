// Every GraphQL example in the README is valid against the schema and within the default operation
// limits (issue #10: the limits must never refuse what the documentation shows).
import { readFileSync } from 'node:fs';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createComplexityRule } from '@pothos/plugin-complexity';
import { getNamedType, Kind, parse, specifiedRules, typeFromAST, validate, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { DEFAULT_LIMITS } from '../src/server/operation-limits.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);
const schema = getSchema();

/** Plausible values for an operation's variables: an ID of a project, a word, a small number. */
function variablesFor(operation: OperationDefinitionNode): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const type = getNamedType(typeFromAST(schema, definition.type));
    values[definition.variable.name.value] = { ID: encodeGlobalID('Project', 'x'), String: 'x', Int: 1, Boolean: true }[type?.name ?? ''];
  }
  return values;
}

describe('README GraphQL examples', () => {
  it('are there', () => expect(blocks.length).toBeGreaterThan(1));

  it.each(blocks.map((block, i) => [i + 1, block] as const))('block %i is valid and within the default limits', (_i, block) => {
    const document = parse(block, { maxTokens: DEFAULT_LIMITS.maxTokens });
    expect(validate(schema, document, specifiedRules)).toEqual([]);
    for (const operation of document.definitions) {
      if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
      const measured: { complexity: number; depth: number }[] = [];
      const rule = createComplexityRule({
        context: {},
        variableValues: variablesFor(operation),
        operationName: operation.name?.value,
        validate: (result) => void measured.push(result),
      });
      expect(validate(schema, document, [rule])).toEqual([]);
      expect(measured).toHaveLength(1);
      expect(measured[0]!.complexity).toBeLessThanOrEqual(DEFAULT_LIMITS.maxCost);
      expect(measured[0]!.depth).toBeLessThanOrEqual(DEFAULT_LIMITS.maxDepth);
    }
  });
});
