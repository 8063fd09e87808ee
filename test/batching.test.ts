import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, fewestStatements, useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject, globalScopeId, startSession } from './support/ops.ts';

const h = useHarness();

const CreateRelation = graphql(`
  mutation BatchRelation($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }
`);

const ToolsPage = graphql(`
  query BatchTools($tag: String!) {
    tools(filter: { tag: $tag }, first: 100) {
      totalCount
      edges {
        node {
          id
          name
          scope { id name ancestors { id name } }
          tags { name category }
          currentVersion { version ... on ToolVersion { description parameters } }
          versions(first: 2) { edges { node { version } } }
          outgoingRelations { type targetEntry { id name } targetScope { id name } }
          incomingRelations { type source { id name } }
        }
      }
    }
  }
`);

const MixedNodes = graphql(`
  query BatchNodes($ids: [ID!]!) {
    nodes(ids: $ids) {
      id
      ... on Entry {
        name
        scope { id name }
        tags { name }
        currentVersion { version }
        outgoingRelations { type targetEntry { id } targetScope { id } }
      }
      ... on Guideline { priority }
    }
  }
`);

/** `n` entries over a project, a session and global; tools carry 2 tags, a relation out and in. */
async function seed(n: number, label: string) {
  const project = await createProject(h, `batch-${label}`);
  const session = await startSession(h, project, `s-${label}`);
  const scopes = [project, session, await globalScopeId(h)];
  const tools: string[] = [];
  const all: string[] = [];
  for (let i = 0; i < n; i++) {
    const scope = scopes[i % scopes.length]!;
    const tool = await addTool(h, scope, `${label}-tool-${i}`, {
      description: `tool ${i}`,
      parameters: { type: 'object' },
      tags: [label, i % 2 ? 'python' : 'sql'],
    });
    tools.push(tool);
    const other =
      i % 3 === 0
        ? await addGuideline(h, scope, `${label}-g-${i}`, { tags: ['security'] })
        : await addKnowledge(h, scope, `${label}-k-${i}`);
    all.push(tool, other);
    await h.ok(CreateRelation, { input: { source: tool, target: other, type: 'DEPENDS_ON' } });
    await h.ok(CreateRelation, { input: { source: other, target: tool, type: 'RELATED_TO' } });
    await h.ok(CreateRelation, { input: { source: tool, target: scope, type: 'APPLIES_TO' } });
  }
  return { tools, all };
}

const countStatements = <T>(run: () => Promise<T>) => fewestStatements(h, run);

describe('batching (no N+1)', () => {
  it('a page of 50 tools with scope, ancestors, tags, versions and relations costs what a page of 5 costs', async () => {
    await seed(5, 'five');
    await seed(50, 'fifty');
    const small = await countStatements(() => h.ok(ToolsPage, { tag: 'five' }));
    const large = await countStatements(() => h.ok(ToolsPage, { tag: 'fifty' }));
    expect(small.result.tools.edges).toHaveLength(5);
    expect(large.result.tools.edges).toHaveLength(50);
    const sample = large.result.tools.edges[0]!.node;
    expect(sample.tags.map((t) => t.name)).toContain('fifty');
    expect(sample.currentVersion.version).toBe(1);
    expect(sample.outgoingRelations).toHaveLength(2);
    expect(sample.incomingRelations).toHaveLength(1);
    expect(large.result.tools.edges.some((e) => e.node.scope.ancestors.length === 2)).toBe(true); // session > project > global
    console.log(`[${DB_KIND}] tools page: ${small.count} statements for 5, ${large.count} for 50`);
    expect(large.count).toBe(small.count);
  });

  it('nodes() over mixed kinds batches the same way', async () => {
    const five = await seed(5, 'nodes5');
    const fifty = await seed(25, 'nodes50'); // 25 tools + 25 others = 50 entries
    const small = await countStatements(() => h.ok(MixedNodes, { ids: five.all.slice(0, 5) }));
    const large = await countStatements(() => h.ok(MixedNodes, { ids: fifty.all }));
    expect(large.result.nodes).toHaveLength(50);
    expect(large.result.nodes.every((n) => n !== null)).toBe(true);
    console.log(`[${DB_KIND}] nodes: ${small.count} statements for 5, ${large.count} for 50`);
    expect(large.count).toBe(small.count);
  });
});
