// A query's answer is bounded in size, whatever its cost: the cost limit counts fields, not what
// they hold, and thirty aliases of nodes(ids:) naming one entry of 100,000 characters a hundred
// times made a 300 MB answer (1 GB of RSS on the server).
import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_CHARS } from '../src/server/response-size.ts';
import { as } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addKnowledge, createProject } from './support/ops.ts';

const h = useHarness();

const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: nodes(ids: $ids) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }`).join(' ');

describe(`the size of an answer (${DB_KIND})`, () => {
  it('a query whose answer would pass the limit is refused with RESPONSE_TOO_LARGE; within it, answered whole', async () => {
    const project = await createProject(h, 'response-size');
    const id = await addKnowledge(h, project, 'big', { content: 'x'.repeat(100_000) });
    const ids = Array.from({ length: 100 }, () => id);
    // 30 × 100 × 100,000 characters: ~300 MB.
    const refused = await as(h, null, `query($ids: [ID!]!) { ${aliases(30)} }`, { ids });
    expect(refused.data).toBeUndefined();
    expect(refused.errors?.map((e) => e.extensions)).toEqual([{ code: 'RESPONSE_TOO_LARGE', limit: MAX_RESPONSE_CHARS }]);
    // 3 × 100 × 100,000: ~30 MB, within it.
    const answered = await as(h, null, `query($ids: [ID!]!) { ${aliases(3)} }`, { ids });
    expect(answered.errors).toBeUndefined();
    const data = answered.data as Record<string, Array<{ currentVersion: { content: string } }>>;
    expect(Object.values(data).flat().every((node) => node.currentVersion.content.length === 100_000)).toBe(true);
    expect(Object.values(data).flat()).toHaveLength(300);
  }, 60_000);
});
