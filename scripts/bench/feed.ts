// Change feed (issue 16): how fast a subscriber that was away catches up. --feed-events entries
// (default 100,000) are imported into one project of a fresh database through the real server
// process (importEntries, 1,000 a call: one entryChanged CREATED each), then a graphql-ws client
// subscribes to entryChanged with `after: "0"` (the feed began empty, so that is just before the
// first imported entry) and the clock runs until the last of them arrived. Printed: events/s and
// the time to the first event, once with a lean selection (`cursor type`: the payload only) and
// once with `entry { id }` (one Entry row read per event; its first 20,000 events). Targets in
// targets.ts. Write-to-subscriber latency is the `latency` suite's.
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { freshDatabase, opts, post, record, serverProcess, stopProcess, type Kind } from './common.ts';

const IMPORT = `mutation ($input: ImportEntriesInput!) { importEntries(input: $input) { __typename ... on ImportEntriesSuccess { imported { count } } } }`;
/**
 * `sample`: events timed of the backlog. Reading the entry costs about ten times the lean
 * selection (each event is its own execution, so its read is not batched with the others'), and
 * 20,000 events time it as well as 100,000 within the suite's 3 minutes.
 */
const SELECTIONS = [
  { label: 'cursor type', shape: 'feedReplayLean', fields: 'cursor type', sample: Infinity },
  { label: 'entry { id }', shape: 'feedReplayEntry', fields: 'cursor type entry { id }', sample: 20_000 },
];
const BATCH = 1_000;
/** A replay that has not finished by then has failed (or is far below any target). */
const REPLAY_TIMEOUT_MS = 120_000;

export async function feedSuite(kind: Kind) {
  const events = Number(opts['feed-events']);
  console.log(`\nfeed (${kind}): replay of a ${events}-event backlog over graphql-ws from the real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  try {
    const made = (await post(port, 'mutation { createProject(input: { name: "feed" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
      createProject: { project: { id: string } };
    };
    const scope = made.createProject.project.id;
    const t0 = performance.now();
    await seed(port, scope, events);
    record('feed', kind, `seed ${events} entries (importEntries of ${BATCH})`, (performance.now() - t0) / 1000, 's');
    for (const { label, shape, fields, sample } of SELECTIONS) {
      const query = `subscription ($s: ID!, $after: String) { entryChanged(scope: $s, after: $after) { ${fields} } }`;
      const timed = Math.min(events, sample);
      const name = `replay${timed < events ? ` (first ${timed})` : ''}, ${label}`;
      const r = await replay(port, query, scope, timed);
      record('feed', kind, `${name}: events/s`, timed / (r.totalMs / 1000), 'events/s', { size: events, shape });
      record('feed', kind, `${name}: first event`, r.firstMs, 'ms');
      record('feed', kind, `${name}: all`, r.totalMs / 1000, 's');
    }
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}

/** Imports `count` knowledge entries into `scope`, BATCH a call (one transaction and BATCH events each). */
async function seed(port: number, scope: string, count: number) {
  for (let from = 0; from < count; from += BATCH) {
    const entries = Array.from({ length: Math.min(BATCH, count - from) }, (_, i) => ({
      kind: 'KNOWLEDGE',
      scope,
      name: `fact ${from + i}`,
      content: `Fact number ${from + i} of the change feed bench.`,
    }));
    const answer = (await post(port, IMPORT, { input: { entries } })) as { importEntries: { __typename: string; imported?: { count: number } } };
    if (answer.importEntries.imported?.count !== entries.length) throw new Error(`importEntries: ${JSON.stringify(answer.importEntries)}`);
  }
}

interface Replayed {
  firstMs: number;
  totalMs: number;
}

/**
 * Subscribes from the start of the feed and waits for its first `count` events, checking that they arrive
 * in order (cursors rising) and all CREATED. The clock includes the WebSocket's connection.
 */
async function replay(port: number, query: string, scope: string, count: number): Promise<Replayed> {
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  let unsubscribe = () => {};
  try {
    return await new Promise<Replayed>((resolve, reject) => {
      let received = 0;
      let last = 0;
      let firstMs = 0;
      const timer = setTimeout(() => reject(new Error(`replay: ${received} of ${count} events after ${REPLAY_TIMEOUT_MS} ms`)), REPLAY_TIMEOUT_MS);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
      };
      const t0 = performance.now();
      unsubscribe = client.subscribe<{ entryChanged: { cursor: string; type: string } }>(
        { query, variables: { s: scope, after: '0' } },
        {
          next: (result) => {
            const event = result.data?.entryChanged;
            if (!event) return fail(new Error(`subscription result without data: ${JSON.stringify(result)}`));
            const cursor = Number(event.cursor);
            if (cursor <= last || event.type !== 'CREATED') return fail(new Error(`out of order or unexpected: ${JSON.stringify(event)} after ${last}`));
            last = cursor;
            if (++received === 1) firstMs = performance.now() - t0;
            if (received === count) {
              clearTimeout(timer);
              resolve({ firstMs, totalMs: performance.now() - t0 });
            }
          },
          error: fail,
          complete: () => fail(new Error(`subscription completed after ${received} of ${count} events`)),
        },
      );
    });
  } finally {
    unsubscribe();
    await client.dispose();
  }
}
