import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, fewestStatements, useHarness } from './support/harness.ts';
import { addGuideline, addTool, createProject } from './support/ops.ts';

const h = useHarness();

const Relate = graphql(`
  mutation MqbRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }
`);

const Page = graphql(`
  query MqbPage($scope: ID!, $first: Int) {
    memoryQuery(input: { scope: $scope, tags: { include: ["batch"] } }, first: $first) {
      edges {
        score
        node {
          id
          name
          scope { id name }
          tags { name }
          currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }
          outgoingRelations { type targetEntry { id name } targetScope { id } }
          incomingRelations { source { id } }
        }
      }
      meta { totalCount returnedCount }
      scopeChain { id }
    }
  }
`);

const NoTotal = graphql(`
  query MqbNoTotal($scope: ID!, $first: Int) {
    memoryQuery(input: { scope: $scope, tags: { include: ["batch"] } }, first: $first) { edges { node { id } } meta { returnedCount } }
  }
`);

const FragmentTotal = graphql(`
  query MqbFragmentTotal($scope: ID!, $first: Int) {
    memoryQuery(input: { scope: $scope, tags: { include: ["batch"] } }, first: $first) { edges { node { id } } ...MqbTotal }
  }
  fragment MqbTotal on MemoryQueryConnection { meta { ... on MemoryQueryMeta { totalCount } } }
`);

describe('memoryQuery batching', () => {
  it('100 results with tags, scope, current version and relations cost what 10 cost', async () => {
    const project = await createProject(h, 'mq-batching');
    let previous: string | null = null;
    for (let i = 0; i < 100; i++) {
      const id = i % 2
        ? await addTool(h, project, `tool-${i}`, { description: `tool ${i}`, tags: ['batch', 'cli'] })
        : await addGuideline(h, project, `guideline-${i}`, { tags: ['batch'] });
      if (previous) await h.ok(Relate, { input: { source: id, target: previous, type: 'RELATED_TO' } });
      previous = id;
    }
    // Ranking statements start with the scope chain, a count on tag links with a sum of per-scope
    // counts (on SQLite, of the links' counters); the rest load what the page shows.
    const ranking = (sql: string) => /^\s*(WITH chain\(|SELECT \(SELECT (COUNT|COALESCE))/.test(sql);
    // The plan's reads (the scope chain, tag ids) are kept a second, and the entries' read counts
    // are written every 2 s (access-tracker.ts), so whether they are sent during a query depends
    // on the clock: they are not counted (a flush once fell within the page of 100 under load).
    const planning = (sql: string) => /JOIN "MemoryPolicy"|FROM\s+\S*Tag[`"]\s+WHERE|UPDATE "Entry" SET "accessCount"/.test(sql);
    h.resetStatements();
    const small = await h.ok(Page, { scope: project, first: 10 });
    const smallRanking = h.statements.filter(ranking).length;
    h.resetStatements();
    const large = await h.ok(Page, { scope: project, first: 100 });
    const largeRanking = h.statements.filter(ranking).length;
    // What loading a page costs: the fewest of three runs (fewestStatements says why).
    const loading = { counted: (sql: string) => !planning(sql) && !ranking(sql) };
    const smallCount = (await fewestStatements(h, () => h.ok(Page, { scope: project, first: 10 }), loading)).count;
    const largeCount = (await fewestStatements(h, () => h.ok(Page, { scope: project, first: 100 }), loading)).count;
    expect(small.memoryQuery.meta).toMatchObject({ totalCount: 100, returnedCount: 10 });
    expect(large.memoryQuery.meta.returnedCount).toBe(100);
    for (const { node } of large.memoryQuery.edges) {
      expect(node.tags.map((t) => t.name).sort(), node.name).toEqual(node.name.startsWith('tool-') ? ['batch', 'cli'] : ['batch']);
      expect(node.currentVersion.version, node.name).toBe(1);
    }
    expect(large.memoryQuery.edges.filter((e) => e.node.outgoingRelations.length === 1)).toHaveLength(99);
    console.log(`[${DB_KIND}] memoryQuery: ${smallCount} + ${smallRanking} ranking statements for 10 results, ${largeCount} + ${largeRanking} for 100`);
    expect(largeCount).toBe(smallCount);
    // A tag query's page of 10 is pruned (a sample, then the page) and its total counted on the
    // tag's links; a page of 100 samples all 100 entries: one statement, which counts them too.
    expect([smallRanking, largeRanking]).toEqual([3, 1]);

    // Without the total (asked for directly or through a fragment), the small page is pruned; asked
    // again, from the bound the first page found: one statement ranks what can reach it.
    const smallIds = small.memoryQuery.edges.map((e) => e.node.id);
    h.resetStatements();
    const untotalled = await h.ok(NoTotal, { scope: project, first: 10 });
    expect(untotalled.memoryQuery.edges.map((e) => e.node.id)).toEqual(smallIds);
    expect(h.statements.filter(ranking)).toHaveLength(1);
    h.resetStatements();
    const fragment = await h.ok(FragmentTotal, { scope: project, first: 10 });
    expect(fragment.memoryQuery.edges.map((e) => e.node.id)).toEqual(smallIds);
    expect(fragment.memoryQuery.meta.totalCount).toBe(100);
    // The total asked through a fragment is counted too, on the tag's links, in the same statement.
    expect(h.statements.filter(ranking)).toHaveLength(1);
  });

  it('a query asked again sends the same statement texts: the instant it scores at is a parameter, so SQLite reuses the prepared ranking', async () => {
    const project = await createProject(h, 'mq-same-text');
    for (let i = 0; i < 30; i++) await addGuideline(h, project, `same-${i}`, { tags: ['batch'] });
    const ranking = (sql: string) => /^\s*WITH chain\(/.test(sql);
    const texts = async () => {
      h.resetStatements();
      await h.ok(NoTotal, { scope: project, first: 10 });
      return h.statements.filter(ranking);
    };
    // The first page learns the shape's bound (two statements); later ones start from it (one).
    expect(await texts()).toHaveLength(2);
    const first = await texts();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await texts();
    expect(first).toHaveLength(1);
    expect(again).toEqual(first);
  });
});
