// An event delivered to many subscriptions of one socket leaves in one write, not one system call
// per message (ws writes each message at once). Against the real server process, whose write
// system calls Linux counts (a client cannot tell: the kernel joins what arrives while it reads).
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { expect, it } from 'vitest';
import { useServerProcess } from './support/server-per-file.ts';

const running = useServerProcess();

async function post<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${running.server.base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data: T; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** A graphql-ws socket with `subscriptions` subscriptions to the scope's entryChanged. */
async function socketWith(subscriptions: number, scope: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${running.server.port}/graphql`, 'graphql-transport-ws');
  const messages: Array<{ type: string; id?: string }> = [];
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString('utf8')) as { type: string }));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await until(() => messages.some((m) => m.type === 'connection_ack'));
  const query = 'subscription ($s: ID!) { entryChanged(scope: $s) { type cursor entry { id name } } }';
  for (let i = 0; i < subscriptions; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query, variables: { s: scope } } }));
  return { ws, messages };
}

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it('an event for 50 subscriptions of one socket reaches it in a few writes, not one per subscription', async () => {
  const made = await post<{ createProject: { project: { id: string } } }>('mutation { createProject(input: { name: "writes" }) { ... on CreateProjectSuccess { project { id } } } }');
  const scope = made.createProject.project.id;
  const other = (await post<{ createProject: { project: { id: string } } }>('mutation { createProject(input: { name: "other" }) { ... on CreateProjectSuccess { project { id } } } }')).createProject.project.id;
  const addedIn = async (title: string) =>
    (
      await post<{ addKnowledge: { knowledge: { id: string } } }>(
        'mutation ($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "v" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }',
        { s: title === 'unfollowed' ? other : scope, t: title },
      )
    ).addKnowledge.knowledge.id;
  const added = await addedIn('fact');
  const update = (id: string, content: string) => post('mutation ($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }', { id, c: content });
  const socket = await socketWith(50, scope);
  try {
    // Subscribed once a write reaches all of them (a subscription starts asynchronously).
    for (let round = 0; ; round++) {
      socket.messages.splice(0);
      await update(added, `probe ${round}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (socket.messages.filter((m) => m.type === 'next').length >= 50) break;
      if (round === 30) throw new Error(`not subscribed: ${JSON.stringify(socket.messages.slice(0, 3))}`);
    }
    // The server's write system calls (Linux counts them per process in /proc/<pid>/io) for an
    // update whose event reaches the 50, less those of an update nobody follows (its HTTP answer,
    // its log line, SQLite's writes), the fewest of three each.
    const writes = () => Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${running.server.child.pid}/io`, 'utf8'))?.[1]);
    const unfollowed = await addedIn('unfollowed');
    const calls = async (write: () => Promise<unknown>, delivered: () => Promise<void>) => {
      const counts: number[] = [];
      for (let round = 0; round < 3; round++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        socket.messages.splice(0);
        const before = writes();
        await write();
        await delivered();
        counts.push(writes() - before);
      }
      return Math.min(...counts);
    };
    let n = 0;
    const followed = await calls(() => update(added, `counted ${n++}`), () => until(() => socket.messages.filter((m) => m.type === 'next').length >= 50));
    const alone = await calls(() => update(unfollowed, `alone ${n++}`), () => new Promise((resolve) => setTimeout(resolve, 50)));
    // A write per message was ~50 more; held to the end of the turn, the 50 (~10 KB) leave in one,
    // or a few where the reads they wait for end in different turns.
    expect(followed - alone, `write calls: ${followed} for the followed update, ${alone} for the other`).toBeLessThanOrEqual(8);
  } finally {
    socket.ws.close();
  }
});
