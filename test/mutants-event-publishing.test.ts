// The publishing half of the event bus (src/infra/events.ts, `publish`): each event of a committed
// write is routed to its scope and to every ancestor's tree, and to its session and project.
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { addKnowledge, createProject, startSession } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

type Changed = { entryChanged: { type: string; entryId: string } };
const WATCH = parse(`subscription PubWatch($s: ID!, $d: Boolean) { entryChanged(scope: $s, includeDescendants: $d) { type entryId } }`) as TypedDocumentNode<
  Changed,
  { s: string; d?: boolean }
>;

/** A subscription to the entries of `scope` (and below it), listening once it returns. */
async function watchTree(scope: string) {
  const sub = await sseSubscribe(h.app, WATCH, { s: scope, d: true });
  cleanups.push(() => sub.close());
  let probes = 0;
  await untilListening(sub.collector, () => addKnowledge(h, scope, `probe-${probes++}`));
  return sub;
}

/** Scope chains are cached for a second when routing: past it, the chain is read anew. */
const pastChainCache = () => new Promise((resolve) => setTimeout(resolve, 1_100));

// The scheduled purge publishes its run (topic `purge`) to every `memoryPurged` subscriber, under
// the one key `all`, with its counts.
describe('a purge run', () => {
  type Purged = { memoryPurged: { erasedEntries: number; archivedSessions: number; receipts: { operation: string }[] } };
  const PURGED = parse(`subscription PubPurged { memoryPurged { erasedEntries archivedSessions receipts { operation } } }`) as TypedDocumentNode<
    Purged,
    Record<string, never>
  >;

  it('that archived a session reaches memoryPurged subscribers with its counts', async () => {
    const p = await createProject(h, 'pub-purge');
    const s = await startSession(h, p);
    const d = await ok(h, null, `mutation($id: ID!) { discardSession(input: { id: $id }) { __typename } }`, { id: s });
    expect(d.discardSession).toEqual({ __typename: 'DiscardSessionSuccess' });
    const scheduled = createApp({ accessFlushMs: 3_600_000, database: h.database, purge: { intervalMs: 30 } });
    const sub = await sseSubscribe(scheduled, PURGED, {});
    try {
      // Ended long enough ago to be archived only once the subscription listens (a run every 30 ms).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const id = Buffer.from(s, 'base64').toString().split(':').slice(1).join(':');
      await h.database.prisma.scope.update({ where: { id }, data: { endedAt: new Date(Date.now() - 31 * 86_400_000) } });
      await sub.collector.until((r) => r.length >= 1);
      expect(sub.collector.results.map((r) => r.data?.memoryPurged)).toEqual([{ erasedEntries: 0, archivedSessions: 1, receipts: [] }]);
    } finally {
      sub.close();
      await scheduled.stop(1_000);
    }
  });
});

// A bug found while testing the publishing half (issue #11), now fixed: an entry erased with its
// session (deleteSession, deleteScopeTree) is announced as DELETED under the session's id, which no
// longer exists once the event is published. Its chain is now read inside the erasing transaction
// and carried by the event, for routing and for the subscriber's access check.
describe('events of a scope that no longer exists', () => {
  it('deleting a session announces its entries as DELETED to the trees above it', async () => {
    const p = await createProject(h, 'pub-deleted-session');
    const s = await startSession(h, p);
    const k = await addKnowledge(h, s, 'erased-with-its-session');
    await pastChainCache();
    const tree = await watchTree(p);
    const before = tree.collector.results.length;
    const d = await ok(h, null, `mutation($id: ID!) { deleteSession(input: { id: $id }) { __typename } }`, { id: s });
    expect(d.deleteSession).toEqual({ __typename: 'DeleteSessionSuccess' });
    await tree.collector.until((r) => r.slice(before).some((e) => e.data?.entryChanged.type === 'DELETED'), 2_000);
    expect(tree.collector.results.slice(before).map((r) => r.data?.entryChanged)).toEqual([{ type: 'DELETED', entryId: k }]);
  });
});
