// 50 writers on one entry: the real server process on a fresh database; each HTTP client, with its
// own X-Engram-Actor, updates the same guideline without expectedVersion (so most writes conflict
// and are kept with KEEP_BOTH), sending its next update as soon as the last one answered. Then a
// check that versions are 1..N with no hole and every acknowledged write is stored.
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/infra/database.ts';
import { freshDatabase, opts, post, rows, serverProcess, stopProcess, summarize, type Kind } from './common.ts';

export async function contentionSuite(kind: Kind) {
  const writers = Number(opts['contention-writers']);
  const writes = Number(opts['contention-writes']);
  console.log(`\ncontention (${kind}): ${writers} writers on one guideline over HTTP, ${writes} updates each, real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  const acknowledged: Array<{ id: string; version: number }> = [];
  let entryId = '';
  try {
    const project = (await post(port, 'mutation { createProject(input: { name: "contention" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
      createProject: { project: { id: string } };
    };
    const added = (await post(
      port,
      'mutation($s: ID!) { addGuideline(input: { scope: $s, name: "hot", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }',
      { s: project.createProject.project.id },
    )) as { addGuideline: { guideline: { id: string } } };
    const id = added.addGuideline.guideline.id;
    entryId = Buffer.from(id, 'base64').toString().split(':')[1]!;
    const update = `mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) {
      __typename ... on UpdateGuidelineSuccess { update { conflicted version { id version } } } ... on UserError { code message } } }`;
    const send = async (writer: number, content: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engram-actor': `agent:${writer}` },
        body: JSON.stringify({ query: update, variables: { id, c: content } }),
      });
      const body = (await response.json()) as {
        data?: { updateGuideline: { __typename: string; update?: { version: { id: string; version: number } } } };
        errors?: unknown;
      };
      const result = body.data?.updateGuideline;
      if (!result?.update) throw new Error(`update failed: ${JSON.stringify(body.errors ?? result)}`);
      const { id: versionId, version } = result.update.version;
      return { id: Buffer.from(versionId, 'base64').toString().split(':')[1]!, version };
    };
    // Warm the server (JIT, prepared statements) off the clock.
    for (let i = 0; i < 20; i++) acknowledged.push(await send(i % writers, `warm ${i}`));
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < writes; i++) {
          const start = performance.now();
          acknowledged.push(await send(writer, `writer ${writer} update ${i}`));
          latencies.push(performance.now() - start);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const row = summarize('contention', kind, `${writers} writers on one entry: update`, latencies);
    const max = Math.round(Math.max(...latencies) * 100) / 100;
    const perSecond = Math.round(latencies.length / seconds);
    rows.push({ suite: 'contention', db: kind, case: `${writers} writers on one entry: max`, iterations: latencies.length, p50: max, p95: max, p99: max, mean: max });
    rows.push({ suite: 'contention', db: kind, case: `${writers} writers on one entry: writes/s`, iterations: latencies.length, p50: perSecond, p95: perSecond, p99: perSecond, mean: perSecond });
    console.log(`  ${''.padEnd(44)} p99 ${String(row.p99).padStart(7)} ms   max ${String(max).padStart(7)} ms   ${perSecond} writes/s`);
  } finally {
    await stopProcess(child);
  }
  try {
    await checkGapless(db.url, entryId, acknowledged);
  } finally {
    await db.drop();
  }
}

/** Versions 1..N with no hole, and every version a client was told was written is stored. */
async function checkGapless(url: string, entryId: string, acknowledged: ReadonlyArray<{ id: string; version: number }>) {
  const database = await openDatabase(url);
  try {
    const stored = await database.prisma.entryVersion.findMany({ where: { entryId }, select: { id: true, version: true }, orderBy: { version: 'asc' } });
    const holes = stored.filter((v, i) => v.version !== i + 1).length;
    const byId = new Map(stored.map((v) => [v.id, v.version]));
    const missing = acknowledged.filter((a) => byId.get(a.id) !== a.version).length;
    const ok = holes === 0 && missing === 0 && stored.length === acknowledged.length + 1;
    console.log(`  versions 1..${stored.length}: ${holes} hole(s), ${missing} acknowledged write(s) missing${ok ? '' : '  <-- FAILED'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await database.close();
  }
}
