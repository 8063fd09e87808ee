// Rules of the query's plan and paging (src/modules/search/memory-query.plan.ts and
// memory-query.service.ts) that mutation testing found unchecked: the instant a cursor carries,
// and what a page says about the rest.
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();
const DAY = 86_400_000;

const MQ = `query MutPlanQuery($i: MemoryQueryInput!, $first: Int, $after: String) { memoryQuery(input: $i, first: $first, after: $after) {
  edges { cursor score estimatedTokens breakdown { recency decay } node { id } } pageInfo { hasNextPage } meta { returnedCount hasMore truncated estimatedTokens } } }`;
type Page = {
  edges: Array<{ cursor: string; estimatedTokens: number; breakdown: { recency: number; decay: number }; node: { id: string } }>;
  meta: { returnedCount: number; hasMore: boolean; truncated: boolean; estimatedTokens: number };
};
const mq = async (i: Record<string, unknown>, first?: number, after?: string) => (await ok(h, null, MQ, { i, first, after })).memoryQuery as Page;
const cursor = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url');

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation MutPlanProject($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name }))
    .createProject.project.id;
}
async function tool(scope: string, name: string, description?: string): Promise<string> {
  return (await ok(h, null, `mutation MutPlanTool($i: AddToolInput!) { addTool(input: $i) { ... on AddToolSuccess { tool { id } } } }`, { i: { scope, name, description } }))
    .addTool.tool.id;
}

describe('the plan of a query', () => {
  it('a later page scores at the instant its cursor carries, not at the time of the request', async () => {
    const p = await project('mut-plan-instant');
    const id = await tool(p, 'fresh');
    const at = async (instant: number) => (await mq({ scope: p, inherit: false }, undefined, cursor({ a: instant, s: 1000, i: '' }))).edges;
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

  it('a budget of exactly the first results returns them all and says the page was cut short', async () => {
    const p = await project('mut-plan-budget');
    for (const [name, text] of [['one', 'a'.repeat(40)], ['two', 'b'.repeat(80)], ['three', 'c'.repeat(120)]] as const) await tool(p, name, text);
    const all = await mq({ scope: p, inherit: false });
    expect(all.meta).toMatchObject({ returnedCount: 3, truncated: false, hasMore: false });
    const [a, b, c] = all.edges.map((e) => e.estimatedTokens) as [number, number, number];
    // The budget is inclusive: results that fill it exactly are returned, the next one is not.
    expect((await mq({ scope: p, inherit: false, tokenBudget: a + b })).meta).toEqual({ returnedCount: 2, hasMore: true, truncated: true, estimatedTokens: a + b });
    expect((await mq({ scope: p, inherit: false, tokenBudget: a + b - 1 })).meta).toEqual({ returnedCount: 1, hasMore: true, truncated: true, estimatedTokens: a });
    expect((await mq({ scope: p, inherit: false, tokenBudget: a + b + c })).meta).toEqual({ returnedCount: 3, hasMore: false, truncated: false, estimatedTokens: a + b + c });
    // A page that is full before the budget is spent is not truncated, though more follow.
    expect((await mq({ scope: p, inherit: false, tokenBudget: a + b + c }, 2)).meta).toEqual({ returnedCount: 2, hasMore: true, truncated: false, estimatedTokens: a + b });
  });

  it('the cursor of each result continues right after it', async () => {
    const p = await project('mut-plan-walk');
    for (const name of ['w1', 'w2', 'w3']) await tool(p, name);
    const all = (await mq({ scope: p, inherit: false })).edges.map((e) => e.node.id);
    expect(all).toHaveLength(3);
    const first = await mq({ scope: p, inherit: false });
    for (let i = 0; i < 3; i++) {
      const next = await mq({ scope: p, inherit: false }, 1, first.edges[i]!.cursor);
      expect(next.edges.map((e) => e.node.id)).toEqual(all.slice(i + 1, i + 2));
    }
  });
});

describe('the words of a search or a task', () => {
  const CTX = `query MutPlanContext($i: ContextInput!) { context(input: $i) { tools { breakdown { text } node { id } } } }`;

  it('a task of one word raises the entries that have it', async () => {
    const p = await project('mut-plan-one-word');
    const match = await tool(p, 'match', 'walrus notes');
    await tool(p, 'other', 'penguin notes');
    const { tools } = (await ok(h, null, CTX, { i: { scope: p, task: 'walrus', kinds: ['TOOL'] } })).context;
    expect(tools.map((t: { node: { id: string } }) => t.node.id)[0]).toBe(match);
    expect(tools.map((t: { breakdown: { text: number } }) => t.breakdown.text)).toEqual([1, 0]);
  });

  it('a word is matched as written, whatever its upper case would be', async () => {
    // The upper case of "ß" is "SS": a search folded to upper case would look for "strasse".
    const p = await project('mut-plan-case');
    const street = await tool(p, 'street', 'hauptstraße');
    expect((await mq({ scope: p, inherit: false, search: 'Hauptstraße' })).edges.map((e) => e.node.id)).toEqual([street]);
  });
});
