import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isInputObjectType, isInterfaceType, isObjectType, printSchema } from 'graphql';
import { sortedSchema } from '../src/graphql/schema.ts';
import { DB_KIND } from './support/harness.ts';

describe('schema.graphql', () => {
  it('is the printed, sorted schema of the code (run `npm run schema:print` when this fails)', () => {
    const committed = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(`${printSchema(sortedSchema())}\n`);
  });

  it.skipIf(DB_KIND !== 'sqlite')('describes every public type, field, argument and input field', () => {
    const missing: string[] = [];
    for (const type of Object.values(sortedSchema().getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
