// Leases (issue 16): 100 agents contend for 10 resources on the real server process over HTTP.
// Each agent, with its own X-Engram-Actor, checks a resource out (no waiting) and, when granted,
// checks it in at once, then moves to the next resource. Prints checkout and check-in p50/p95
// and grants per second; a second pass checks that no two grants of one resource overlapped.
import { performance } from 'node:perf_hooks';
import { freshDatabase, opts, post, rows, serverProcess, stopProcess, summarize, type Kind } from './common.ts';

const CHECKOUT = `mutation ($input: CheckoutLeaseInput!) { checkoutLease(input: $input) { __typename ... on CheckoutLeaseSuccess { lease { fencingToken } } } }`;
const RELEASE = `mutation ($input: ReleaseLeaseInput!) { releaseLease(input: $input) { __typename } }`;

export async function leasesSuite(kind: Kind) {
  const agents = Number(opts['lease-agents']);
  const resources = Number(opts['lease-resources']);
  const rounds = Number(opts['lease-rounds']);
  console.log(`\nleases (${kind}): ${agents} agents, ${resources} resources, ${rounds} checkouts each, over HTTP, real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  try {
    const made = (await post(port, 'mutation { createProject(input: { name: "leases" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
      createProject: { project: { id: string } };
    };
    const scope = made.createProject.project.id;
    const send = async (query: string, input: Record<string, unknown>, agent: number) => {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engram-actor': `agent:${agent}` },
        body: JSON.stringify({ query, variables: { input } }),
      });
      const body = (await response.json()) as { data?: Record<string, { __typename: string; lease?: { fencingToken: number } }>; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return Object.values(body.data!)[0]!;
    };
    const checkouts: number[] = [];
    const checkins: number[] = [];
    const tokens = new Map<string, number[]>();
    let grants = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: agents }, async (_, agent) => {
        for (let round = 0; round < rounds; round++) {
          const resource = `file-${(agent + round) % resources}`;
          let start = performance.now();
          const result = await send(CHECKOUT, { scope, resource, ttlSeconds: 30 }, agent);
          checkouts.push(performance.now() - start);
          if (result.__typename !== 'CheckoutLeaseSuccess') continue;
          grants++;
          tokens.set(resource, [...(tokens.get(resource) ?? []), result.lease!.fencingToken]);
          start = performance.now();
          const released = await send(RELEASE, { scope, resource }, agent);
          checkins.push(performance.now() - start);
          if (released.__typename !== 'ReleaseLeaseSuccess') throw new Error(`release: ${released.__typename}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    summarize('leases', kind, `${agents} agents / ${resources} resources: checkout`, checkouts);
    summarize('leases', kind, `${agents} agents / ${resources} resources: check-in`, checkins);
    const perSecond = Math.round(grants / seconds);
    rows.push({ suite: 'leases', db: kind, case: `${agents} agents / ${resources} resources: grants/s`, iterations: grants, p50: perSecond, p95: perSecond, p99: perSecond, mean: perSecond });
    // Every grant of a resource got a token no other grant of it got (they never overlapped).
    const duplicated = [...tokens.values()].filter((list) => new Set(list).size !== list.length).length;
    console.log(`  ${grants} grants of ${checkouts.length} checkouts, ${perSecond} grants/s; resources with a token granted twice: ${duplicated}`);
    if (duplicated > 0) throw new Error('two grants of one resource got the same fencing token');
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}
