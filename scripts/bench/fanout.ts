// Fan-out: one write delivered to many subscribers of one scope. --fanout-subscribers
// subscriptions (default 10,000, MAX_SUBSCRIPTIONS' default) to entryChanged of one project, 100 a
// socket, on the real server process; then --fanout-writes updates of one knowledge entry, each
// timed to its answer and to the moment every subscriber had its event, while a separate process
// asks `{ __typename }` over HTTP every 5 ms (how long the server keeps its other callers waiting).
// Also the server's resident memory per subscription and its CPU while they are open and idle.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { freshDatabase, opts, post, record, serverProcess, stopProcess, summarize, type Kind } from './common.ts';

const PER_SOCKET = 100;
const SELECTION = 'type cursor entry { id name ... on Knowledge { currentVersion { version content } tags { name } } }';
/** The pinger: a process of its own, so that the subscribers' messages do not delay its clock. */
const PINGER = `
const url = process.argv[1]; const samples = []; let stop = false;
process.on('message', () => { stop = true; });
(async () => {
  while (!stop) {
    const t = performance.now();
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }).then((r) => r.text());
    samples.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
  process.send(samples, () => process.exit(0));
})();`;

export async function fanoutSuite(kind: Kind) {
  const subscribers = Number(opts['fanout-subscribers']);
  const writes = Number(opts['fanout-writes']);
  console.log(`\nfanout (${kind}): ${subscribers} entryChanged subscribers on one scope (graphql-ws, ${PER_SOCKET} a socket), real server process`);
  const db = await freshDatabase(kind);
  const server = await serverProcess(db.url, { MAX_SUBSCRIPTIONS: String(subscribers), WS_MAX_CONNECTIONS: String(Math.ceil(subscribers / PER_SOCKET) + 10) });
  const clients: Client[] = [];
  try {
    const { scope, entry } = await knowledge(server.port);
    const rssBefore = server.rssMb();
    let received = 0;
    let wake = () => undefined as void;
    for (let i = 0; i < subscribers; i++) {
      if (i % PER_SOCKET === 0) clients.push(createClient({ url: `ws://127.0.0.1:${server.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false }));
      clients.at(-1)!.subscribe(
        { query: `subscription ($s: ID!) { entryChanged(scope: $s) { ${SELECTION} } }`, variables: { s: scope } },
        { next: (r) => { if (r.errors) throw new Error(JSON.stringify(r.errors)); received++; wake(); }, error: (e) => { throw e instanceof Error ? e : new Error(JSON.stringify(e)); }, complete: () => undefined },
      );
    }
    // Registered once a write reaches every one of them.
    for (let settled = false; !settled; ) {
      const before = received;
      await update(server.port, entry, 'probe');
      settled = await until(() => received - before >= subscribers, 10_000, (w) => (wake = w));
    }
    record('fanout', kind, `resident memory per subscription`, ((server.rssMb() - rssBefore) * 1024) / subscribers, 'KB', { size: subscribers, shape: 'fanoutMemory' });
    const cpu = await idleCpu(server.child.pid!, 10_000);
    record('fanout', kind, `CPU while they are open and idle`, cpu * 100, '% of a core', { size: subscribers, shape: 'fanoutIdleCpu' });
    const pinger = spawn(process.execPath, ['-e', PINGER, `http://127.0.0.1:${server.port}/graphql`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const answers: number[] = [];
    const deliveries: number[] = [];
    for (let w = 0; w < writes; w++) {
      const before = received;
      const t0 = performance.now();
      await update(server.port, entry, `v${w}`);
      answers.push(performance.now() - t0);
      if (!(await until(() => received - before >= subscribers, 60_000, (fn) => (wake = fn)))) throw new Error(`write ${w} did not reach every subscriber in 60 s`);
      deliveries.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const pings = await new Promise<number[]>((resolve) => {
      pinger.once('message', (m) => resolve(m as number[]));
      pinger.send('stop');
    });
    summarize('fanout', kind, `write answered`, answers, { size: subscribers, shape: 'fanoutAnswer' });
    summarize('fanout', kind, `write delivered to every subscriber`, deliveries, { size: subscribers, shape: 'fanoutDelivered' });
    summarize('fanout', kind, `{ __typename } from another client meanwhile`, pings, { size: subscribers, shape: 'fanoutOthers' });
  } finally {
    for (const client of clients) void client.dispose();
    await stopProcess(server.child);
    await db.drop();
  }
}

async function knowledge(port: number): Promise<{ scope: string; entry: string }> {
  const made = (await post(port, 'mutation { createProject(input: { name: "fanout" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
    createProject: { project: { id: string } };
  };
  const scope = made.createProject.project.id;
  const added = (await post(port, 'mutation ($s: ID!) { addKnowledge(input: { scope: $s, title: "fact", content: "v", tags: ["a", "b"] }) { ... on AddKnowledgeSuccess { knowledge { id } } } }', { s: scope })) as {
    addKnowledge: { knowledge: { id: string } };
  };
  return { scope, entry: added.addKnowledge.knowledge.id };
}

const update = (port: number, id: string, content: string) =>
  post(port, 'mutation ($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }', { id, c: content });

/** Resolves true once `done` holds (checked on each wake-up), false after `timeoutMs`. */
function until(done: () => boolean, timeoutMs: number, onWake: (wake: () => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      resolve(true);
    };
    onWake(check);
    check();
  });
}

/** The share of a core process `pid` used over `ms` (Linux: utime + stime of /proc/<pid>/stat). */
async function idleCpu(pid: number, ms: number): Promise<number> {
  const ticks = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 13).reduce((sum, t) => sum + Number(t), 0);
  const t0 = ticks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (ticks() - t0) / 100 / (ms / 1000);
}
