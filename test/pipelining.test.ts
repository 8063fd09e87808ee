// HTTP/1.1 pipelining: a connection's requests run one at a time, and a connection that sends
// more than MAX_PIPELINED ahead of their answers is closed. One write of 100,000 `{ __typename }`
// once held every other client off for 20 s and took the server from 0.27 to 1.28 GB.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_PIPELINED } from '../src/server/fair-start.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness({ listen: true });

/** Writes `count` GET requests at once on one connection (the i-th asks `{ q<i>: __typename }`); resolves with what came back and whether the server closed it within `ms`. */
async function pipelined(count: number, ms: number): Promise<{ text: string; closed: boolean }> {
  const socket = connect(h.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const requests = Array.from({ length: count }, (_, i) => `GET /graphql?query=${encodeURIComponent(`{ q${i}: __typename }`)} HTTP/1.1\r\nHost: localhost\r\nx-engram-csrf: 1\r\n\r\n`);
  socket.write(requests.join(''));
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => (clearTimeout(timer), resolve(true)));
  });
  socket.destroy();
  return { text, closed };
}

const answered = (text: string) => [...text.matchAll(/"(q\d+)":"Query"/g)].map((m) => m[1]);

describe(`pipelined requests (${DB_KIND})`, () => {
  it(`one running and ${MAX_PIPELINED} waiting are all answered, in order, on a connection kept open`, async () => {
    const { text, closed } = await pipelined(MAX_PIPELINED + 1, 3_000);
    expect(closed).toBe(false);
    expect(answered(text)).toEqual(Array.from({ length: MAX_PIPELINED + 1 }, (_, i) => `q${i}`));
  });

  it('a connection with more waiting is closed without running them, and other clients are answered', async () => {
    const { text, closed } = await pipelined(5_000, 10_000);
    expect(closed).toBe(true);
    expect(answered(text).length).toBeLessThanOrEqual(MAX_PIPELINED + 1);
    const other = await fetch(`http://127.0.0.1:${h.port}/graphql?query=%7B__typename%7D`, { headers: { "x-engram-csrf": "1" } });
    expect(await other.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
