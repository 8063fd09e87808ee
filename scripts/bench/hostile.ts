import { performance } from 'node:perf_hooks';
import { ATTACKS, type Target } from '../../test/support/attacks.ts';
import { freshDatabase, post, record, rows, serverProcess, stopProcess, summarize, timed, type Kind } from './common.ts';

/**
 * Each hostile request of the test suite (test/support/attacks.ts) against the real server process,
 * then the same normal query right after it: how long the attack took to refuse, and whether the
 * server was slow to answer a user afterwards. Also the server's resident memory at the end.
 */
export async function hostileSuite(kind: Kind) {
  console.log(`\nhostile (${kind}): each attack, then a normal query right after it, real server process`);
  const db = await freshDatabase(kind);
  const { child, port, rssMb } = await serverProcess(db.url);
  try {
    const base = `http://127.0.0.1:${port}`;
    const target = await hostileTarget(port, base);
    const normal = () => post(port, 'query($id: ID!) { node(id: $id) { ... on Guideline { name latestVersion } } }', { id: target.guidelineId });
    const baseline: number[] = [];
    for (let i = 0; i < 50; i++) await timed(baseline, normal);
    summarize('hostile', kind, 'normal query, no attack', baseline);
    for (const attack of ATTACKS) {
      const start = performance.now();
      const answer = await attack.send(target);
      const attackMs = Math.round(performance.now() - start);
      const after: number[] = [];
      await timed(after, normal);
      const [ms] = after;
      const ok = answer.codes.every((code) => attack.expect.includes(code));
      rows.push({ suite: 'hostile', db: kind, case: `after: ${attack.name}`, iterations: 1, p50: ms!, p95: ms!, p99: ms!, mean: ms! });
      console.log(`  ${attack.name.slice(0, 58).padEnd(58)} refused in ${String(attackMs).padStart(5)} ms (${answer.codes.join(', ') || 'data'}${ok ? '' : '  <-- UNEXPECTED'}); next query ${ms!.toFixed(1)} ms`);
      if (!ok) process.exitCode = 1;
    }
    await largestImport(port, target.projectId, normal, kind);
    const rss = rssMb();
    console.log(`  server RSS after the attacks: ${Math.round(rss)} MB`);
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}

/**
 * About the largest import a request body holds (1,000 contents of 20 KB with quotes, backslashes
 * and other scripts, ~23 MB of JSON), with a normal query sent every 20 ms while it runs: the
 * longest of those waits is how long the server kept everyone else waiting. On PostgreSQL its
 * batch once quoted every value a character at a time and held the event loop for 12.5 s.
 */
async function largestImport(port: number, scope: string, normal: () => Promise<unknown>, kind: Kind) {
  const tricky = `it's "quoted" \\ back\\slash $1; DROP TABLE "Entry"; -- ' || '' \t tab, 日本語, émoji 🧠 `;
  const content = tricky.repeat(Math.ceil(20_000 / tricky.length)).slice(0, 20_000);
  const entries = Array.from({ length: 1_000 }, (_, i) => ({ scope, kind: 'KNOWLEDGE', name: `largest-${i}`, content: `${i}: ${content}` }));
  const waits: number[] = [];
  let running = true;
  const probing = (async () => {
    while (running) {
      await timed(waits, normal);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const start = performance.now();
  const answer = await post(port, 'mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }', { e: entries });
  const importMs = performance.now() - start;
  running = false;
  await probing;
  const longest = Math.max(...waits);
  record('hostile', kind, 'largest import: longest wait of a query meanwhile', longest, 'ms');
  const typename = (answer.importEntries as { __typename?: string } | undefined)?.__typename;
  console.log(`  largest import (1,000 × 20 KB, ${typename}) in ${Math.round(importMs)} ms; ${waits.length} queries meanwhile, the longest waited ${Math.round(longest)} ms`);
  if (typename !== 'ImportEntriesSuccess') process.exitCode = 1;
}

async function hostileTarget(port: number, base: string): Promise<Target> {
  const project = (await post(port, 'mutation { createProject(input: { name: "hostile" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
    createProject: { project: { id: string } };
  };
  const projectId = project.createProject.project.id;
  const added = (await post(
    port,
    'mutation($s: ID!) { addGuideline(input: { scope: $s, name: "g", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }',
    { s: projectId },
  )) as { addGuideline: { guideline: { id: string } } };
  const session = (await post(port, 'mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }', {
    p: projectId,
  })) as { startSession: { session: { id: string } } };
  return { base, projectId, guidelineId: added.addGuideline.guideline.id, sessionId: session.startSession.session.id };
}
