// Outcome analytics (issue 16): --outcome-size outcomes (default 100,000) recorded through the real
// server process in batches of 1,000 (one transaction each), then each analytics answer timed over
// HTTP: success rates per agent, the duration distribution, bottleneck tasks, a daily trend and
// the error correlation of agents (a self-join on the work items).
import { performance } from 'node:perf_hooks';
import { freshDatabase, iterations, opts, post, prng, record, serverProcess, stopProcess, summarize, timed, type Kind } from './common.ts';

const RECORD = `mutation ($input: RecordOutcomesInput!) { recordOutcomes(input: $input) { __typename ... on UserError { message } } }`;

const QUERIES: Record<string, string> = {
  'success rates per agent (page of 20)': 'successRates(by: AGENT, orderBy: RATE_ASC, first: 20) { edges { node { key runs successRate p50DurationMs p95DurationMs } } }',
  'duration distribution (p50..p99 + histogram)': 'durations { p50Ms p90Ms p95Ms p99Ms histogram { lowerMs count } }',
  'bottleneck tasks by total time (page of 20)': 'bottlenecks(by: SUBTASK_TYPE, first: 20) { edges { node { key totalDurationMs failures } } }',
  'daily trend (page of 31)': 'trend(bucket: DAY, first: 31) { edges { node { start runs successRate } } }',
  'error correlation of agents (page of 20)': 'errorCorrelation(minSharedItems: 10, first: 20) { edges { node { agentA agentB phi alert } } }',
};

export async function outcomesSuite(kind: Kind) {
  const size = Number(opts['outcome-size']);
  console.log(`\noutcomes (${kind}): ${size} outcomes (20 agents, 50 subtask types, 5 agents per item, 30 days), over HTTP, real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  try {
    const made = (await post(port, 'mutation { createProject(input: { name: "outcomes" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
      createProject: { project: { id: string } };
    };
    const scope = made.createProject.project.id;
    const rng = prng(16);
    const start = Date.now() - 30 * 86_400_000;
    const outcome = (n: number) => ({
      subtaskType: `type-${n % 50}`,
      agent: `agent:${(Math.floor(n / 5) + (n % 5) * 4) % 20}`,
      itemKey: `item-${Math.floor(n / 5)}`,
      success: rng() > 0.1,
      durationMs: Math.floor(10 * Math.exp(rng() * 9)),
      tokens: Math.floor(rng() * 4_000),
      occurredAt: new Date(start + Math.floor((n / size) * 30 * 86_400_000)).toISOString(),
    });
    const batches: number[] = [];
    const t0 = performance.now();
    for (let from = 0; from < size; from += 1_000) {
      const outcomes = Array.from({ length: Math.min(1_000, size - from) }, (_, i) => outcome(from + i));
      await timed(batches, async () => {
        const answer = (await post(port, RECORD, { input: { scope, outcomes } }, { 'x-engram-actor': 'agent:orchestrator' })) as { recordOutcomes: { __typename: string; message?: string } };
        if (answer.recordOutcomes.__typename !== 'RecordOutcomesSuccess') throw new Error(`recordOutcomes: ${answer.recordOutcomes.message}`);
      });
    }
    record('outcomes', kind, `record ${size} outcomes (batches of 1,000)`, (performance.now() - t0) / 1000, 's');
    summarize('outcomes', kind, 'recordOutcomes: one batch of 1,000', batches);
    for (const [name, selection] of Object.entries(QUERIES)) {
      const samples: number[] = [];
      const query = `query ($input: OutcomeWindowInput!) { outcomeAnalytics(input: $input) { ${selection} } }`;
      for (let i = 0; i < Math.max(5, Math.min(iterations, 20)); i++) await timed(samples, () => post(port, query, { input: { scope } }));
      summarize('outcomes', kind, `${name} at ${size}`, samples);
    }
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}
