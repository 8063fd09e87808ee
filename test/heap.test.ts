// What a finished request leaves in memory: nothing that grows with the number of requests. (A
// query's deadline signal, joined with the request's by AbortSignal.any, kept every query that
// finished in time alive for good: ~15 KB each, the heap grew without bound under steady load.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { as } from './support/access.ts';
import { DOCUMENT_CACHE_BYTES } from '../src/server/document-cache.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { addGuideline, createProject } from './support/ops.ts';

const h = useHarness();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  h.resetStatements(); // the harness keeps every statement sent, for the tests that count them
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

describe(`memory held after requests (${DB_KIND})`, () => {
  it('six hundred finished queries leave the heap as large as it was (within 4 MB)', async () => {
    const scope = await createProject(h, 'heap-check');
    for (let i = 0; i < 20; i++) await addGuideline(h, scope, `heap-guideline-${i}`, { content: `check the heap ${i}`, tags: ['heap'] });
    const query = 'query ($s: ID!) { memoryQuery(input: { scope: $s, tags: { include: ["heap"] } }, first: 20) { edges { score node { id name } } meta { totalCount } } }';
    const ask = async () => {
      const { data } = await as(h, null, query, { s: scope });
      expect((data as { memoryQuery: { edges: unknown[] } }).memoryQuery.edges).toHaveLength(20);
      h.resetStatements();
    };
    // Warmed up first: caches (parsed documents, prepared statements, timings) fill, and stay.
    for (let i = 0; i < 150; i++) await ask();
    const before = heapAfterCollection();
    for (let i = 0; i < 600; i++) await ask();
    const grown = heapAfterCollection() - before;
    expect(grown, `${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(4 * 1024 * 1024);
  }, 120_000);
});

describe(`parsed documents kept (${DB_KIND})`, () => {
  // Yoga keeps the last 1,024 parsed documents, keyed by their text, whatever their size: 1,100
  // distinct documents of 4,900 tokens (55 KB each) took a server from 0.3 to 2.9 GB.
  it("four hundred large distinct documents keep the heap within the parse cache's byte bound", async () => {
    const large = (i: number) => `query Large${i} { ${'__typename '.repeat(4_900)}}`;
    for (let i = 0; i < 20; i++) await as(h, null, large(i)); // the cache fills up to its bound
    const before = heapAfterCollection();
    for (let i = 20; i < 420; i++) {
      const { data, errors } = await as(h, null, large(i));
      expect(errors ?? data).toBeDefined();
    }
    const grown = heapAfterCollection() - before;
    // 400 such documents were ~1 GB; the bound is 64 MB of them.
    expect(grown, `${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(DOCUMENT_CACHE_BYTES + 32 * 1024 * 1024);
    // A document asked again is still answered from what is kept, or parsed again: the same answer.
    expect((await as(h, null, large(419))).data).toEqual((await as(h, null, large(419))).data);
  }, 120_000);
});

describe(`open subscriptions (${DB_KIND})`, () => {
  /** An SSE subscriber to a scope's entryChanged that counts its events and keeps none of them. */
  async function counter(scope: string): Promise<{ count: () => number; close: () => Promise<void> }> {
    const response = await h.app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription ($s: ID!) { entryChanged(scope: $s) { type cursor entry { id } } }', variables: { s: scope } }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let count = 0;
    void (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) count += chunk.value.split('event: next').length - 1;
    })().catch(() => undefined);
    return { count: () => count, close: () => reader.cancel() };
  }

  // Each event an open subscription delivered was kept until it closed (~500 bytes an event a
  // subscriber: a race against the revocation's pending promise, and over SSE another against the
  // server's stop), so the heap grew with every write while anyone listened.
  it('keep nothing of what they delivered: 1,500 writes to 30 SSE subscribers leave the heap within 6 MB', async () => {
    const scope = await createProject(h, 'heap-subscribers');
    const readers = await Promise.all(Array.from({ length: 30 }, () => counter(scope)));
    const write = (i: number) => as(h, null, 'mutation ($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { __typename } }', { s: scope, t: `w-${i}` });
    const delivered = async (n: number) => {
      const deadline = Date.now() + 60_000;
      while (readers.some((r) => r.count() < n)) {
        expect(Date.now() < deadline, `delivered ${readers.map((r) => r.count()).join(',')} of ${n}`).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      for (let i = 0; i < 200; i++) await write(i); // caches and buffers fill first
      await delivered(200);
      const before = heapAfterCollection();
      for (let i = 200; i < 1_700; i++) await write(i);
      await delivered(1_700);
      const grown = heapAfterCollection() - before;
      expect(grown, `${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(6 * 1024 * 1024);
    } finally {
      await Promise.all(readers.map((r) => r.close()));
    }
  }, 180_000);
});
