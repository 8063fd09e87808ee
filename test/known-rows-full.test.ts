// The rows an update may decide on (src/modules/entries/known-rows.ts) are bounded: when the
// cache is full, the row used least recently makes room (src/infra/ttl-cache.ts), so a row this
// process wrote lately survives a burst of reads of other entries. A file of its own: it counts
// every row its database's cache holds.
import { describe, expect, it } from 'vitest';
import { KNOWN_ROWS } from '../src/modules/entries/known-rows.ts';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addGuideline, createProject } from './support/ops.ts';

const h = useHarness();

const UPDATE = `mutation($id: ID!, $content: String) {
  updateGuideline(input: { id: $id, content: $content }) { __typename }
}`;
/** Read with its current version: the read keeps the row (entries.service.ts). */
const READ = `query($id: ID!) { entry(id: $id) { id currentVersion { id version } } }`;
const IMPORT = `mutation($e: [ImportEntryInput!]!) {
  importEntries(input: { entries: $e }) { ... on ImportEntriesSuccess { imported { entries { id } } } }
}`;
/** The statement that reads an entry with its current version. */
const ENTRY_READ = /FROM "Entry" e LEFT JOIN "EntryVersion" v ON v\."id" = e\."currentVersionId"/;

/** Whether an update of the entry read it first (it was not kept). */
async function updateReads(id: string, content: string): Promise<boolean> {
  h.resetStatements();
  const result = (await ok(h, null, UPDATE, { id, content })) as { updateGuideline: { __typename: string } };
  expect(result.updateGuideline.__typename).toBe('UpdateGuidelineSuccess');
  return h.statements.some((sql) => ENTRY_READ.test(sql));
}

describe(`the rows kept for updates, when full (${DB_KIND})`, () => {
  it('make room by dropping the row used least recently, not every row', async () => {
    const project = await createProject(h, 'known-rows-full');
    const mine = await addGuideline(h, project, 'written-lately');
    expect(await updateReads(mine, 'kept')).toBe(true);
    const imported = (await ok(h, null, IMPORT, {
      e: Array.from({ length: KNOWN_ROWS }, (_, i) => ({ scope: project, kind: 'GUIDELINE', name: `other-${i}`, content: `other ${i}` })),
    })) as { importEntries: { imported: { entries: Array<{ id: string }> } } };
    const others = imported.importEntries.imported.entries.map((e) => e.id);
    expect(others).toHaveLength(KNOWN_ROWS);

    // One row short of full: ours and all but two of the others.
    for (const id of others.slice(0, -2)) await ok(h, null, READ, { id });
    expect(await updateReads(mine, 'written again')).toBe(false);
    // Two more: the cache is full at the first, the second takes the place of the oldest other.
    for (const id of others.slice(-2)) await ok(h, null, READ, { id });

    expect(await updateReads(mine, 'still kept')).toBe(false);
    expect(await updateReads(others[1]!, 'kept too')).toBe(false);
    expect(await updateReads(others[0]!, 'made room')).toBe(true);
  });
});
