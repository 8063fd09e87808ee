// An entryChanged event names its entry by a global ID, which is made of the entry's kind. Every
// change carries the kind in its change-feed row: delivering (or replaying) the event reads no
// entry, so a database read failing at that moment (a PostgreSQL connection lost) cannot turn the
// event into an error without a cursor, which a subscriber resuming with `after` would never get.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject } from './support/ops.ts';
import { sseSubscribe } from './support/subscriptions.ts';

const h = useHarness();

const Cursor = graphql(`query EventKindsCursor { changeFeedCursor }`);
const Attach = graphql(`mutation EventKindsAttach($e: ID!) { attachTags(input: { entry: $e, tags: ["kinds"] }) { __typename } }`);
const Detach = graphql(`mutation EventKindsDetach($e: ID!) { detachTags(input: { entry: $e, tags: ["kinds"] }) { __typename } }`);
const Relate = graphql(`
  mutation EventKindsRelate($s: ID!, $t: ID!) {
    createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename ... on CreateRelationSuccess { relation { id } } }
  }
`);
const Unrelate = graphql(`mutation EventKindsUnrelate($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }`);
const Deactivate = graphql(`mutation EventKindsDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }`);
const Reactivate = graphql(`mutation EventKindsReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }`);
const Update = graphql(`mutation EventKindsUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: "changed" }) { __typename } }`);
const Session = graphql(`
  mutation EventKindsSession($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }
`);
const Complete = graphql(`mutation EventKindsComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }`);
const Replay = graphql(`
  subscription EventKindsReplay($scope: ID!, $after: String) {
    entryChanged(scope: $scope, includeDescendants: true, after: $after) { type entryId cursor }
  }
`);

describe('entryChanged events carry their entry kind', () => {
  it('replays every type of change without reading an entry, each ID of its kind', async () => {
    const project = await createProject(h, 'event-kinds');
    const tool = await addTool(h, project, 'kinds-tool');
    const note = await addKnowledge(h, project, 'kinds-note');
    const after = (await h.ok(Cursor, {})).changeFeedCursor;
    await h.ok(Attach, { e: tool });
    await h.ok(Detach, { e: tool });
    const relation = await h.ok(Relate, { s: tool, t: note });
    if (relation.createRelation.__typename !== 'CreateRelationSuccess') throw new Error(relation.createRelation.__typename);
    await h.ok(Unrelate, { id: relation.createRelation.relation.id });
    await h.ok(Deactivate, { id: note });
    await h.ok(Reactivate, { id: note });
    await h.ok(Update, { id: note });
    const started = await h.ok(Session, { p: project });
    if (started.startSession.__typename !== 'StartSessionSuccess') throw new Error(started.startSession.__typename);
    const session = started.startSession.session.id;
    const kept = await addGuideline(h, session, 'kinds-kept');
    await addGuideline(h, session, 'kinds-dropped');
    await h.ok(Complete, { id: session, promote: [kept] });

    h.resetStatements();
    const sub = await sseSubscribe(h.app, Replay, { scope: project, after });
    try {
      const events = (await sub.collector.until((r) => r.length >= 13)).map((r) => r.data?.entryChanged);
      // Each event as its type and the type its entry's ID names (the two entries of a relation in either order).
      const typeOf = (id: string | undefined) => Buffer.from(id ?? '', 'base64').toString().split(':')[0];
      expect(events.map((e) => `${e?.type} ${typeOf(e?.entryId)}`).sort()).toEqual(
        [
          'TAGGED Tool', 'UNTAGGED Tool', 'RELATED Tool', 'RELATED Knowledge', 'UNRELATED Tool', 'UNRELATED Knowledge',
          'DEACTIVATED Knowledge', 'REACTIVATED Knowledge', 'UPDATED Knowledge',
          'CREATED Guideline', 'CREATED Guideline', 'PROMOTED Guideline', 'DEACTIVATED Guideline',
        ].sort(),
      );
      // Prisma names the table `main`.`Entry` on SQLite, "public"."Entry" on PostgreSQL.
      expect(h.statements.filter((sql) => /FROM ([`"]\w+[`"]\.)?[`"]Entry[`"]/.test(sql))).toEqual([]);
    } finally {
      sub.close();
    }
  });
});
