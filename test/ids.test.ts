// The ids the server makes (UUIDv7, src/domain/uuid.ts), seen through the API: unique, of
// version 7 and the RFC 9562 variant, and increasing in the order they were made, across more ids
// than one refill of the random pool serves.
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();

const Import = graphql(`
  mutation IdsImport($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } }
  }
`);

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const uuidOf = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');

const ids: string[] = [];

beforeAll(async () => {
  const project = await createProject(h, 'ids');
  for (let batch = 0; batch < 2; batch++) {
    const entries = Array.from({ length: 1000 }, (_, i) => ({ scope: project, kind: 'KNOWLEDGE' as const, name: `id-${batch}-${i}`, content: `note ${i}` }));
    const result = (await h.ok(Import, { entries })).importEntries;
    if (result.__typename !== 'ImportEntriesSuccess') throw new Error(result.__typename);
    ids.push(...result.imported.entries.map((e) => uuidOf(e.id)));
  }
});

describe('ids the server makes', () => {
  it('are UUIDv7s of the RFC 9562 variant', () => {
    expect(ids).toHaveLength(2000);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('are all different, including their random parts', () => {
    expect(new Set(ids).size).toBe(ids.length);
    // The last 62 bits are random: a pool handing out the same bytes twice would repeat them.
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it('increase in the order they were made', () => {
    expect([...ids].sort()).toEqual(ids);
  });
});
