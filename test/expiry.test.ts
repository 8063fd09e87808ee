// Expiry (issue #13): knowledge past its validUntil leaves memoryQuery and context unless asked
// for, and says so when read directly.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
const PAST = '2020-01-01T00:00:00.000Z';
const FUTURE = '2100-01-01T00:00:00.000Z';

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
async function knowledge(scope: string, title: string, validUntil: string | null): Promise<string> {
  const d = await ok(h, null, `mutation($s: ID!, $t: String!, $v: DateTime) { addKnowledge(input: { scope: $s, title: $t, content: "fact about zebras", validUntil: $v }) {
    ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, v: validUntil });
  return d.addKnowledge.knowledge.id;
}
const QUERY = `query($s: ID!, $x: Boolean, $f: Int, $a: String) { memoryQuery(input: { scope: $s, inherit: false, includeExpired: $x }, first: $f, after: $a) {
  pageInfo { hasNextPage endCursor } edges { cursor node { id expired } } } }`;
const ids = (d: Record<string, any>) => d.memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id).sort();

describe(`expiry (${DB_KIND})`, () => {
  it('expired knowledge is left out of memoryQuery and context unless asked for, and marked expired when read', async () => {
    const p = await project('expiry');
    const old = await knowledge(p, 'old', PAST);
    const fresh = await knowledge(p, 'fresh', FUTURE);
    const forever = await knowledge(p, 'forever', null);
    expect(ids(await ok(h, null, QUERY, { s: p }))).toEqual([fresh, forever].sort());
    const all = await ok(h, null, QUERY, { s: p, x: true });
    expect(ids(all)).toEqual([old, fresh, forever].sort());
    expect(all.memoryQuery.edges.find((e: { node: { id: string } }) => e.node.id === old).node.expired).toBe(true);
    const context = `query($s: ID!, $x: Boolean) { context(input: { scope: $s, task: "zebras", includeExpired: $x }) { knowledge { node { id } } } }`;
    expect((await ok(h, null, context, { s: p })).context.knowledge.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([fresh, forever].sort());
    expect((await ok(h, null, context, { s: p, x: true })).context.knowledge).toHaveLength(3);
    expect((await ok(h, null, `query($id: ID!) { entry(id: $id) { expired } }`, { id: old })).entry.expired).toBe(true);
    // A text search filters the same way.
    const search = `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false, search: "zebras" }) { edges { node { id } } } }`;
    expect(ids(await ok(h, null, search, { s: p }))).toEqual([fresh, forever].sort());
  });

  it('the current version decides: an update clears or sets the expiry, a rollback brings it back; imports too', async () => {
    const p = await project('expiry-versions');
    const k = await knowledge(p, 'changing', PAST);
    const update = `mutation($id: ID!, $v: DateTime) { updateKnowledge(input: { id: $id, validUntil: $v }) { __typename } }`;
    await ok(h, null, update, { id: k, v: null });
    expect(ids(await ok(h, null, QUERY, { s: p }))).toEqual([k]);
    await ok(h, null, update, { id: k, v: PAST });
    expect(ids(await ok(h, null, QUERY, { s: p }))).toEqual([]);
    await ok(h, null, `mutation($id: ID!) { rollbackEntry(input: { id: $id, version: 2 }) { __typename } }`, { id: k });
    expect(ids(await ok(h, null, QUERY, { s: p }))).toEqual([k]);
    const imported = await ok(
      h,
      null,
      `mutation($s: ID!, $p: DateTime, $f: DateTime) { importEntries(input: { entries: [
        { kind: KNOWLEDGE, scope: $s, name: "imp-old", content: "c", validUntil: $p },
        { kind: KNOWLEDGE, scope: $s, name: "imp-new", content: "c", validUntil: $f }] }) { ... on ImportEntriesSuccess { imported { entries { id expired } } } } }`,
      { s: p, p: PAST, f: FUTURE },
    );
    const [impOld, impNew] = imported.importEntries.imported.entries;
    expect([impOld.expired, impNew.expired]).toEqual([true, false]);
    expect(ids(await ok(h, null, QUERY, { s: p }))).toEqual([k, impNew.id].sort());
  });

  it('pages of a larger memory stay full and consistent when many entries are expired', async () => {
    const p = await project('expiry-pages');
    const live: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = await knowledge(p, `k${i}`, i % 2 ? PAST : null);
      if (i % 2 === 0) live.push(id);
    }
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const d = await ok(h, null, QUERY, { s: p, f: 7, a: after });
      seen.push(...d.memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!d.memoryQuery.pageInfo.hasNextPage) break;
      expect(d.memoryQuery.edges).toHaveLength(7);
      after = d.memoryQuery.pageInfo.endCursor;
    }
    expect(seen.sort()).toEqual(live.sort());
  });

  it('a DateTime is an ISO-8601 instant with a time zone, between the years 1 and 9999', async () => {
    const p = await project('instants');
    const add = parse(`mutation($s: ID!, $v: DateTime) { addKnowledge(input: { scope: $s, title: "t", content: "c", validUntil: $v }) { __typename } }`);
    const refusals: [string, string][] = [
      ['garbage', 'must be an ISO-8601 string with a time zone'],
      ['2100-01-01T00:00:00', 'must be an ISO-8601 string with a time zone'],
      ['2100-01-01', 'must be an ISO-8601 string with a time zone'],
      ['2100-13-45T00:00:00Z', 'is not a valid instant'],
      // Days a month does not have: Date takes them as days of the next month (2100 is no leap year).
      ['2100-02-29T00:00:00Z', 'is not a valid instant'],
      ['2100-04-31T12:00:00Z', 'is not a valid instant'],
      ['2024-02-30T00:00:00+01:00', 'is not a valid instant'],
      ['0000-01-01T00:00:00Z', 'must be between 0001-01-01 and 9999-12-31 (UTC)'],
      ['9999-12-31T23:00:00-02:00', 'must be between 0001-01-01 and 9999-12-31 (UTC)'],
    ];
    for (const [value, why] of refusals) {
      const { errors } = await h.gql(add, { s: p, v: value });
      expect(errors?.[0]?.message, value).toContain(`DateTime ${why}`);
      expect(errors?.[0]?.extensions?.code, value).toBe('BAD_USER_INPUT');
    }
    const kept = await ok(h, null, `mutation($s: ID!, $v: DateTime) { addKnowledge(input: { scope: $s, title: "t", content: "c", validUntil: $v }) {
      ... on AddKnowledgeSuccess { knowledge { currentVersion { ... on KnowledgeVersion { validUntil } } } } } }`, { s: p, v: '2100-01-01T02:30:00+02:30' });
    expect(kept.addKnowledge.knowledge.currentVersion.validUntil).toBe('2100-01-01T00:00:00.000Z');
    await ok(h, null, `mutation($s: ID!, $v: DateTime) { addKnowledge(input: { scope: $s, title: "leap", content: "c", validUntil: $v }) { __typename } }`, { s: p, v: '2400-02-29T00:00:00Z' });
    const count = `query($s: ID!) { memoryQuery(input: { scope: $s, inherit: false, includeExpired: true }) { meta { totalCount } } }`;
    expect((await ok(h, null, count, { s: p })).memoryQuery.meta.totalCount).toBe(2);
  });
});
