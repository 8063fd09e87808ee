// A scratch session's entries promoted at completion, more of them than one statement may name
// (found by a scale sweep: 499 or more failed with INTERNAL_SERVER_ERROR, the check for names the
// project already has binding two values an entry). The check and the move go a list of ids at a
// time (src/infra/id-lists.ts); a name the project has is still refused, whichever list holds it.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { loopTurns } from './support/loop-turns.ts';
import { createProject } from './support/ops.ts';
import { TEXT_CHARS_PER_LIST } from '../src/infra/id-lists.ts';

const h = useHarness();
const ENTRIES = 1_000;
/** A list of the names checked (the project's entries of the same kind and name) and of the entries moved. */
const CHECKED = /SELECT .* FROM [`"\w.]*Entry[`"] WHERE .* OR /g;
const MOVED = /UPDATE [`"\w.]*Entry[`"] SET [`"]scopeId/g;
/** A chunk of the change feed's rows (1,000 at most: the promotion's 1,000 events and its LIFECYCLE event make two). */
const RECORDED = /INSERT INTO "Change"/g;

const Scratch = graphql(`
  mutation PromoteLargeSession($project: ID!) { startSession(input: { project: $project, mode: SCRATCH, autoPromote: true }) { __typename ... on StartSessionSuccess { session { id } } } }
`);
const Import = graphql(`
  mutation PromoteLargeImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
`);
const Complete = graphql(`
  mutation PromoteLargeComplete($id: ID!) { completeSession(input: { id: $id }) { __typename ... on UserError { code message } } }
`);
const CompleteNone = graphql(`
  mutation PromoteLargeCompleteNone($id: ID!) { completeSession(input: { id: $id, autoPromote: false }) { __typename } }
`);
const Count = graphql(`
  query PromoteLargeCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }
`);

async function scratchWith(project: string, names: (i: number) => string): Promise<string> {
  const made = (await h.ok(Scratch, { project })).startSession;
  if (made.__typename !== 'StartSessionSuccess') throw new Error(`startSession: ${made.__typename}`);
  const session = made.session.id;
  const entries = Array.from({ length: ENTRIES }, (_, i) => ({ kind: 'KNOWLEDGE' as const, name: names(i), content: `note ${i}`, scope: session }));
  expect((await h.ok(Import, { entries })).importEntries.__typename).toBe('ImportEntriesSuccess');
  return session;
}

describe(`completing a scratch session of ${ENTRIES} entries (${DB_KIND})`, () => {
  it('promotes them all to the project', async () => {
    const project = await createProject(h, 'promote-large');
    const session = await scratchWith(project, (i) => `n-${i}`);
    expect((await h.ok(Complete, { id: session })).completeSession.__typename).toBe('CompleteSessionSuccess');
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(ENTRIES);
  }, 60_000);

  it('gives the event loop back between its lists of 400 (names checked, entries moved) and its chunks of changes recorded', async () => {
    const project = await createProject(h, 'promote-large-turns');
    const session = await scratchWith(project, (i) => `t-${i}`);
    const turns = await loopTurns(h, () => h.ok(Complete, { id: session }));
    expect(turns.result.completeSession.__typename).toBe('CompleteSessionSuccess');
    expect([turns.total(CHECKED), turns.total(MOVED), turns.total(RECORDED)]).toEqual([3, 3, 2]);
    // The lists done each time the loop turned: some between the first and the last of each step.
    expect(turns.seen(CHECKED).filter((lists) => lists > 0 && lists < 3)).not.toEqual([]);
    expect(turns.seen(MOVED).filter((lists) => lists > 0 && lists < 3)).not.toEqual([]);
    expect(turns.seen(RECORDED)).toContain(1);
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(ENTRIES);
  }, 60_000);

  it('refuses them all when the project has the name of one in the last list, and moves none', async () => {
    const project = await createProject(h, 'promote-large-taken');
    await h.ok(Import, { entries: [{ kind: 'KNOWLEDGE', name: `m-${ENTRIES - 1}`, content: 'already here', scope: project }] });
    const session = await scratchWith(project, (i) => `m-${i}`);
    const refused = (await h.ok(Complete, { id: session })).completeSession;
    expect(refused).toMatchObject({ __typename: 'AlreadyExistsError', code: 'ALREADY_EXISTS' });
    expect('message' in refused && refused.message).toContain(`m-${ENTRIES - 1}`);
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(1);
  }, 60_000);
});

describe(`completing a scratch session of text-heavy tagged entries (${DB_KIND})`, () => {
  /** 20 tagged entries of ~20 KB: on SQLite each one's row of the full-text index is written again when it moves or is deactivated. */
  async function heavy(project: string, prefix: string): Promise<{ session: string; lists: number }> {
    const made = (await h.ok(Scratch, { project })).startSession;
    if (made.__typename !== 'StartSessionSuccess') throw new Error(`startSession: ${made.__typename}`);
    const text = 'word '.repeat(4_000);
    const entries = Array.from({ length: 20 }, (_, i) => ({ kind: 'KNOWLEDGE' as const, name: `${prefix}-${i}`, content: text, tags: ['heavy'], scope: made.session.id }));
    expect((await h.ok(Import, { entries })).importEntries.__typename).toBe('ImportEntriesSuccess');
    const perList = Math.floor(TEXT_CHARS_PER_LIST / (`${prefix}-10`.length + text.length));
    expect(perList).toBeGreaterThan(1);
    return { session: made.session.id, lists: Math.ceil(20 / perList) };
  }

  it('moves them in lists of at most TEXT_CHARS_PER_LIST of text (400 of 24 KB held the loop 8.9 s in one list)', async () => {
    const project = await createProject(h, 'promote-heavy');
    const { session, lists } = await heavy(project, 'h');
    const turns = await loopTurns(h, () => h.ok(Complete, { id: session }));
    expect(turns.result.completeSession.__typename).toBe('CompleteSessionSuccess');
    expect(turns.total(MOVED)).toBe(lists);
    if (DB_KIND === 'sqlite') expect(turns.seen(MOVED).filter((n) => n > 0 && n < lists)).not.toEqual([]);
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(20);
  }, 60_000);

  it('deactivates them in lists of at most TEXT_CHARS_PER_LIST of text', async () => {
    const project = await createProject(h, 'deactivate-heavy');
    const { session, lists } = await heavy(project, 'd');
    const DEACTIVATED = /UPDATE [`"\w.]*Entry[`"] SET [`"]active/g;
    const turns = await loopTurns(h, () => h.ok(CompleteNone, { id: session }));
    expect(turns.result.completeSession.__typename).toBe('CompleteSessionSuccess');
    expect(turns.total(DEACTIVATED)).toBe(lists);
    if (DB_KIND === 'sqlite') expect(turns.seen(DEACTIVATED).filter((n) => n > 0 && n < lists)).not.toEqual([]);
    expect((await h.ok(Count, { scope: project })).knowledge.totalCount).toBe(0);
  }, 60_000);
});
