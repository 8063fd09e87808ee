import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { describe, expect, it } from 'vitest';
import { oneStartPerTurn } from '../src/server/fair-start.ts';
import { useHarness } from './support/harness.ts';
import { addGuideline, createProject } from './support/ops.ts';

const h = useHarness();

interface UpdateResult {
  updateGuideline: { __typename: string; update?: { conflicted: boolean; version: { id: string; version: number } } };
}
const Update = parse(`mutation ContentionUpdate($id: ID!, $content: String!) {
  updateGuideline(input: { id: $id, content: $content }) {
    __typename ... on UpdateGuidelineSuccess { update { conflicted version { id version } } }
  }
}`) as TypedDocumentNode<UpdateResult, { id: string; content: string }>;

interface VersionsResult {
  entry: { latestVersion: number; versions: { totalCount: number; edges: Array<{ cursor: string; node: { id: string; version: number } }> } } | null;
}
const Versions = parse(`query ContentionVersions($id: ID!, $after: String) {
  entry(id: $id) { latestVersion versions(first: 100, after: $after) { totalCount edges { cursor node { id version } } } }
}`) as TypedDocumentNode<VersionsResult, { id: string; after?: string }>;

/** Every stored version of an entry, paging through them. */
async function storedVersions(id: string): Promise<Array<{ id: string; version: number }>> {
  const all: Array<{ id: string; version: number }> = [];
  let after: string | undefined;
  for (;;) {
    const { entry } = await h.ok(Versions, { id, ...(after ? { after } : {}) });
    const edges = entry!.versions.edges;
    all.push(...edges.map((e) => e.node));
    if (edges.length < 100) return all;
    after = edges.at(-1)!.cursor;
  }
}

describe('50 writers on one entry', () => {
  it('three rounds of 50 named writers: versions gapless, every acknowledged write stored, none took the locking path', async () => {
    const p = await createProject(h, 'contention');
    const id = await addGuideline(h, p, 'hot', { content: 'v1', author: 'agent:0' });
    h.resetStatements();
    const acknowledged: Array<{ id: string; version: number }> = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => h.ok(Update, { id, content: `round ${round} writer ${i}` }, { 'x-engram-actor': `agent:${i + 1}` })),
      );
      for (const r of results) acknowledged.push(r.updateGuideline.update!.version);
    }
    const stored = await storedVersions(id);
    expect((await h.ok(Versions, { id })).entry?.latestVersion).toBe(151);
    expect(stored.map((v) => v.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 151 }, (_, i) => i + 1));
    const byId = new Map(stored.map((v) => [v.id, v.version]));
    expect(acknowledged.filter((a) => byId.get(a.id) !== a.version)).toEqual([]);
    // Writers of one entry queue in the server, so each one's single guarded batch applies: none
    // fell back to bumping the version under the entry's lock.
    expect(h.statements.filter((sql) => /"latestVersion" = "latestVersion" \+ 1/.test(sql))).toEqual([]);
  });
});

describe('oneStartPerTurn', () => {
  it('starts queued requests one per turn of the event loop, in arrival order', async () => {
    const start = oneStartPerTurn();
    const log: string[] = [];
    for (const name of ['a', 'b', 'c']) start(() => log.push(name));
    // A callback queued now runs once per turn, right after that turn's start.
    await new Promise<void>((resolve) => {
      let turn = 0;
      const mark = () => {
        log.push(`turn ${++turn}`);
        if (turn < 4) setImmediate(mark);
        else resolve();
      };
      setImmediate(mark);
    });
    expect(log).toEqual(['a', 'turn 1', 'b', 'turn 2', 'c', 'turn 3', 'turn 4']);
  });
});
