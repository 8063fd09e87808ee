// An import of the most entries a call takes (1,000) writes them in parts of 400 in one
// transaction (BULK_BATCH, entries.service.ts). On SQLite the transaction gives the event loop back
// between its parts, so other requests are answered meanwhile; it stays all or nothing.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { loopTurns } from './support/loop-turns.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();
const ENTRIES = 1_000;
/** The statement that starts each part (PostgreSQL's batch is one text holding all of them). */
const PART = /INSERT INTO "Entry" /g;

const Import = graphql(`
  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {
    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }
  }
`);
const Count = graphql(`
  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }
`);

/** 1,000 knowledge entries named in the order they are written (by name): n-0000 first, n-0999 last. */
const entries = (scope: string) =>
  Array.from({ length: ENTRIES }, (_, i) => ({ kind: 'KNOWLEDGE' as const, scope, name: `n-${String(i).padStart(4, '0')}`, content: `fact ${i}`, tags: ['bulk', `t${i % 20}`] }));

/**
 * SQLite: the timer saw the import between two of its parts (after the first, a turn may go
 * straight to the next part without the timers' phase, as in test/deletion-large.test.ts).
 * PostgreSQL: all parts went in one round trip, the loop free while it ran.
 */
function expectTurnsBetweenParts(seen: number[]): void {
  if (DB_KIND === 'sqlite') expect(seen.filter((parts) => parts > 0 && parts < 3)).not.toEqual([]);
  else expect(seen).toContain(3);
}

describe(`importing ${ENTRIES} entries (${DB_KIND})`, () => {
  it('gives the event loop back between its parts of 400', async () => {
    const project = await createProject(h, 'import-turns');
    const turns = await loopTurns(h, () => h.ok(Import, { entries: entries(project) }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'ImportEntriesSuccess', imported: { count: ENTRIES } });
    expect(turns.total(PART)).toBe(3);
    expectTurnsBetweenParts(turns.seen(PART));
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(ENTRIES);
  }, 60_000);

  it('writes nothing when its last part fails, after the loop turned', async () => {
    const project = await createProject(h, 'import-turns-taken');
    const last = entries(project).at(-1)!;
    expect((await h.ok(Import, { entries: [last] })).importEntries.__typename).toBe('ImportEntriesSuccess');
    const turns = await loopTurns(h, () => h.ok(Import, { entries: entries(project) }));
    expect(turns.result.importEntries).toMatchObject({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS' });
    expect(turns.total(PART)).toBe(3);
    expectTurnsBetweenParts(turns.seen(PART));
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(1);
  }, 60_000);
});
