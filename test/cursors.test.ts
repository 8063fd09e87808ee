// Every list's `after` and `before` refuse a text that is not one of its cursors with one error,
// VALIDATION_FAILED naming the argument: the lists paged by Engram's keyset cursors and the Prisma
// connections, whose malformed cursors Pothos refused as BAD_USER_INPUT (a hostile sweep's find).
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { isNonNullType, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();
const doc = (text: string) => parse(text) as TypedDocumentNode<any, any>;

/** Root list fields with `after` that take no other required argument. */
function rootLists(): string[] {
  const query = getSchema().getQueryType()!;
  return Object.values(query.getFields())
    .filter((f) => f.args.some((a) => a.name === 'after') && f.args.every((a) => !isNonNullType(a.type)))
    .filter((f) => isObjectType(f.type) || isObjectType((f.type as { ofType?: unknown }).ofType))
    .map((f) => f.name);
}

// Not base64 of anything; base64 of a word; of a JSON list too long; of Pothos' Prisma format with a number.
const MALFORMED = ['zzz', 'a', Buffer.from('[1,2,3,4,5,6,7]').toString('base64url'), Buffer.from('GPC:N:1').toString('base64')];

describe('a cursor that is not the list’s', () => {
  it('is VALIDATION_FAILED naming the argument on every root list, Prisma connections among them', async () => {
    const lists = rootLists();
    // The walk found the Prisma connections as well as the keyset lists.
    expect(lists).toEqual(expect.arrayContaining(['auditEvents', 'tasks', 'principals', 'guidelines', 'tags']));
    for (const field of lists) {
      for (const [arg, count] of [['after', 'first'], ['before', 'last']] as const) {
        for (const cursor of MALFORMED) {
          const result = await h.gql(doc(`query ($c: String) { ${field}(${count}: 2, ${arg}: $c) { __typename } }`), { c: cursor });
          const errors = (result.errors ?? []).map((e) => ({ field, cursor, message: e.message, code: e.extensions?.code, inputPath: e.extensions?.inputPath }));
          expect(errors).toEqual([{ field, cursor, message: `${arg}: is not a cursor of this list`, code: 'VALIDATION_FAILED', inputPath: [arg] }]);
        }
      }
    }
  });

  it('is VALIDATION_FAILED in a connection nested in a Prisma query', async () => {
    const p = await createProject(h, 'cursors');
    const result = await h.gql(doc('query ($p: ID!, $c: String) { node(id: $p) { ... on Project { entries(first: 1, after: $c) { edges { cursor } } } } }'), { p, c: 'zzz' });
    expect((result.errors ?? []).map((e) => e.extensions?.code)).toEqual(['VALIDATION_FAILED']);
    expect(result.errors?.[0]?.message).toMatch(/is not a cursor of (this|its) list$/);
  });
});
