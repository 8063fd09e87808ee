// A JSON number too large for a double (1e400 parses as Infinity) is refused, not stored: JSON
// cannot write Infinity back, and a state value of 1e400 read back as null (found by a sweep). So
// is an object key "__proto__", which the database layer dropped from the stored value.
import { describe, expect, it } from 'vitest';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();

/** Posts a body as written (JSON.stringify would turn 1e400 into null before the server saw it). */
async function raw(body: string): Promise<{ data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return (await response.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

const SET = 'mutation($p: ID!, $v: JSON!) { setState(input: { owner: { project: $p }, key: "project:big", value: $v }) { __typename ... on SetStateSuccess { state { value } } } }';

describe(`JSON numbers beyond a double (${DB_KIND})`, () => {
  it('are refused in variables and in literals, nested or not', async () => {
    const p = await createProject(h, 'json-finite');
    for (const v of ['1e400', '[1, -1e400]', '{ "a": { "b": 1e999 } }']) {
      const answer = await raw(`{ "query": ${JSON.stringify(SET)}, "variables": { "p": ${JSON.stringify(p)}, "v": ${v} } }`);
      expect(answer.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    }
    const literal = await raw(JSON.stringify({ query: `mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:big", value: [1e400] }) { __typename } }`, variables: { p } }));
    expect(literal.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    // The largest double is a number like any other.
    const fine = await raw(`{ "query": ${JSON.stringify(SET)}, "variables": { "p": ${JSON.stringify(p)}, "v": 1.7e308 } }`);
    expect(fine).toEqual({ data: { setState: { __typename: 'SetStateSuccess', state: { value: 1.7e308 } } } });
  });

  it('refuses an object key "__proto__" anywhere in a value, and stores other keys of Object.prototype as sent', async () => {
    const CREATE = 'mutation($m: JSON) { createProject(input: { name: "json-proto", metadata: $m }) { __typename ... on CreateProjectSuccess { project { id metadata } } } }';
    for (const m of ['{ "__proto__": { "a": 1 }, "b": 2 }', '{ "list": [{ "x": { "__proto__": null } }] }']) {
      const answer = await raw(`{ "query": ${JSON.stringify(CREATE)}, "variables": { "m": ${m} } }`);
      expect(answer.errors?.map((e) => [e.extensions?.code, e.message.endsWith('JSON object keys cannot be "__proto__"')])).toEqual([['BAD_USER_INPUT', true]]);
    }
    const literal = await raw(JSON.stringify({ query: 'mutation { createProject(input: { name: "json-proto", metadata: { __proto__: 1 } }) { __typename } }' }));
    expect(literal.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    // Nothing was created: the name is still free.
    const kept = { constructor: 1, prototype: { toString: 'x' }, hasOwnProperty: [] };
    const created = (await raw(JSON.stringify({ query: CREATE, variables: { m: kept } }))) as { data: { createProject: { project: { id: string; metadata: unknown } } } };
    expect(created.data.createProject.project.metadata).toEqual(kept);
    const read = await raw(JSON.stringify({ query: 'query($id: ID!) { node(id: $id) { ... on Project { metadata } } }', variables: { id: created.data.createProject.project.id } }));
    expect(read).toEqual({ data: { node: { metadata: kept } } });
  });

  it('refuses a value of more than 65,536 values as it is read; one just over the byte limit gets the ValidationError naming it', async () => {
    const p = await createProject(h, 'json-values');
    // A list of 2,000,000 numbers (4 MB) was walked four times before the 64 KB check: 3.1 s.
    for (const v of [new Array(2_000_000).fill(0), Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, i])), [new Array(40_000).fill(0), new Array(40_000).fill(0)]]) {
      const answer = await raw(JSON.stringify({ query: SET, variables: { p, v } }));
      expect(answer.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([[expect.stringContaining('JSON must hold at most 65536 values'), 'BAD_USER_INPUT']]);
    }
    const over = await raw(JSON.stringify({ query: SET.replace('state { value }', 'state { value } } ... on ValidationError { message path'), variables: { p, v: new Array(40_000).fill(0) } }));
    const refused = (over.data as { setState: { __typename: string; message: string } }).setState;
    expect(refused.__typename).toBe('ValidationError');
    expect(refused.message).toMatch(/at most 65536 bytes of JSON/);
  });
});
