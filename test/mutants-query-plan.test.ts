// Rules of the query's plan and paging (src/modules/search/memory-query.plan.ts and
// memory-query.service.ts) that mutation testing found unchecked: the instant a cursor carries,
// and what a page says about the rest.
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();
const DAY = 86_400_000;

const MQ = `query MutPlanQuery($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) {
  edges { score breakdown { recency decay } node { id } } pageInfo { hasNextPage } meta { returnedCount hasMore truncated } } }`;
const cursor = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url');

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation MutPlanProject($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name }))
    .createProject.project.id;
}
async function tool(scope: string, name: string): Promise<string> {
  return (await ok(h, null, `mutation MutPlanTool($i: AddToolInput!) { addTool(input: $i) { ... on AddToolSuccess { tool { id } } } }`, { i: { scope, name } })).addTool.tool.id;
}

describe('the plan of a query', () => {
  it('a later page scores at the instant its cursor carries, not at the time of the request', async () => {
    const p = await project('mut-plan-instant');
    const id = await tool(p, 'fresh');
    const at = async (instant: number) =>
      (await ok(h, null, MQ, { i: { scope: p, inherit: false }, after: cursor({ a: instant, s: 1000, i: '' }) })).memoryQuery.edges as Array<{
        breakdown: { recency: number; decay: number };
        node: { id: string };
      }>;
    // Changed just now: scored now, recency is 0.5 (weight 0.5, age 0).
    const now = await at(Date.now());
    expect(now.map((e) => e.node.id)).toEqual([id]);
    expect(now[0]!.breakdown.recency).toBeCloseTo(0.5, 4);
    // Scored 30 days later (the first page's instant), its age is 30 days: recency 0.5 / (1 + 30 / 30).
    const later = await at(Date.now() + 30 * DAY);
    expect(later.map((e) => e.node.id)).toEqual([id]);
    expect(later[0]!.breakdown.recency).toBeCloseTo(0.25, 4);
    expect(later[0]!.breakdown.decay).toBeLessThan(1);
  });
});
