// The workload suites (issue #4's memory, issue #14's targets): seed N entries once, then ask every
// shape in-process and over HTTP to the real server process, the concurrency suite against that
// server, and last the aged-memory check of issue #13 (it rewrites the rows' ages).
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app.ts';
import { openDatabase } from '../../src/infra/database.ts';
import { createEventBus } from '../../src/infra/events.ts';
import { agedMemory } from './aged.ts';
import { gid, inProcess, percentiles, iterations, overHttp, record, serverProcess, stopProcess, summarize, timed, warmupSeconds, type Ask, type Kind } from './common.ts';
import { concurrencySuite } from './concurrency.ts';
import { SHAPES, shape } from './shapes.ts';
import { levelOf, seedWorkload, typeOf, type Workload } from './workload.ts';

export async function workloadSuites(kind: Kind, n: number, suites: readonly string[]): Promise<void> {
  console.log(`\nworkload (${kind}, N = ${n.toLocaleString('en')}): seeding through the service layer`);
  const w = await seedWorkload(kind, n);
  try {
    record('memory', kind, `N=${n} seeding entries`, w.seedMs.entries / 1000, 's');
    record('memory', kind, `N=${n} seeding ${Math.round(n / 20).toLocaleString('en')} relations, one by one`, w.seedMs.relations / 1000, 's');
    record('memory', kind, `N=${n} seeding`, (w.seedMs.entries + w.seedMs.relations) / 1000, 's', { size: n, shape: 'seed' });
    if (suites.includes('memory')) await inProcessShapes(w);
    const server = await serverProcess(w.url);
    try {
      record('memory', kind, `N=${n} server start-up (spawn to listening)`, server.startMs, 'ms', { size: n, shape: 'startup' });
      if (suites.includes('memory')) {
        console.log(`  over HTTP to the real server process:`);
        await askShapes(w, overHttp(server.port), 'http');
        record('memory', kind, `N=${n} server RSS after the shapes`, server.rssMb(), 'MB', { size: n, shape: 'rss' });
      }
      if (suites.includes('concurrency')) await concurrencySuite(w, server.port, suites.includes('memory'));
    } finally {
      await stopProcess(server.child);
    }
    if (suites.includes('memory')) await aged(w);
  } finally {
    if (process.env.BENCH_KEEP === '1') console.log(`  kept ${w.url}`);
    else await w.drop();
  }
}

/**
 * Every shape, asked in turn per iteration so that drift in machine load falls on all alike, after
 * `warmupSeconds` of the same (see common.ts), whose first rounds' p50s are printed (not recorded).
 */
async function askShapes(w: Workload, ask: Ask, via: 'http' | 'in-process'): Promise<void> {
  const samples = new Map(SHAPES.map((s) => [s.key, [] as number[]]));
  const rounds = await warmUp(w, ask);
  for (let i = rounds; i < rounds + iterations; i++) {
    for (const s of SHAPES) await timed(samples.get(s.key)!, () => ask(s.query, s.variables(w, i)));
  }
  for (const s of SHAPES) summarize('memory', w.kind, `N=${w.n} ${via}: ${s.label}`, samples.get(s.key)!, { size: w.n, shape: s.key, via });
}

/** The shapes in turn for `warmupSeconds` (at least 20 rounds); returns the rounds asked. */
async function warmUp(w: Workload, ask: Ask): Promise<number> {
  const first = new Map(SHAPES.map((s) => [s.key, [] as number[]]));
  const end = performance.now() + warmupSeconds * 1000;
  let rounds = 0;
  for (; rounds < 20 || performance.now() < end; rounds++) {
    for (const s of SHAPES) await timed(rounds < 50 ? first.get(s.key)! : [], () => ask(s.query, s.variables(w, rounds)));
  }
  const p50 = (key: string) => percentiles(first.get(key)!)(0.5).toFixed(2);
  console.log(`    warm-up: ${rounds} rounds; p50 of the first ${Math.min(rounds, 50)}: ${SHAPES.map((s) => `${s.key} ${p50(s.key)}`).join(', ')} ms`);
  return rounds;
}

/** In-process: the shapes, what counting reads costs, and the statements of one create and update. */
async function inProcessShapes(w: Workload): Promise<void> {
  // Kept only while a write's statements are counted: a run's every ranking statement, kept, grew
  // the heap by tens of MB and its collections landed on the shapes measured.
  let statements: string[] | null = null;
  const database = await openDatabase(w.url, { onQuery: (sql) => statements?.push(sql) });
  // As the server does before it listens (a starting reader slows the first asks).
  await database.readersStarted();
  const bus = createEventBus();
  const app = createApp({ database, bus, graphiql: false });
  const untracked = createApp({ database, bus, graphiql: false, trackAccess: false });
  try {
    console.log(`  in-process (yoga.fetch):`);
    await askShapes(w, inProcess(app), 'in-process');
    await accessTrackingCost(w, inProcess(app), inProcess(untracked));
    await costAfterWrite(w, inProcess(app));
    const roundTrips = async (query: string, variables: Record<string, unknown>) => {
      const sent: string[] = (statements = []);
      await inProcess(app)(query, variables);
      statements = null;
      // A SQLite batch is BEGIN, its statements, COMMIT (the adapter sends BEGIN without logging
      // it); a PostgreSQL batch is logged as the one query it is sent as.
      return sent.length + sent.filter((sql) => sql === 'COMMIT').length;
    };
    for (const key of ['create', 'update'] as const) {
      const s = shape(key);
      // Counted as a writer that writes now and then sees them: with the scope chain and its
      // policies cached (kept a second) by a first write to the same scope (an update: the same
      // entry, whose row the process then keeps: src/modules/entries/known-rows.ts).
      const counted = s.variables(w, -1);
      await inProcess(app)(s.query, key === 'update' ? counted : s.variables(w, -2));
      record('memory', w.kind, `N=${w.n} ${s.label}: statements sent (round trips)`, await roundTrips(s.query, counted), 'round trips', {
        size: w.n,
        shape: `${key}RoundTrips`,
      });
    }
    // An update of an entry the process has neither read nor written, right after a write to its
    // scope: the entry's read, then the batch.
    const s = shape('update');
    const [warm, cold] = projectGuidelines(w).slice(-2);
    await inProcess(app)(s.query, { id: warm, c: w.sentence(15) });
    record('memory', w.kind, `N=${w.n} update of a guideline not read before: statements sent (round trips)`, await roundTrips(s.query, { id: cold, c: w.sentence(15) }), 'round trips', {
      size: w.n,
      shape: 'coldUpdateRoundTrips',
    });
  } finally {
    await app.stop();
    await untracked.stop();
    await database.close();
  }
}

/** The global IDs of the guidelines seeded in the project. */
function projectGuidelines(w: Workload): string[] {
  return w.ids.flatMap((id, i) => (typeOf(i) === 'Guideline' && levelOf(i) === 'project' ? [gid('Guideline', id)] : []));
}

/**
 * The same tag-only query asked two ways in turn, the order swapped every other round and the first
 * 20 rounds not kept: `askAs(mode)` asks it, after `before(mode, round)` (not timed) where given.
 */
async function tagOnlyInTurn<M extends string>(
  w: Workload,
  modes: readonly [M, M],
  askAs: (mode: M) => Ask,
  before?: (mode: M, round: number) => Promise<unknown>,
): Promise<Record<M, number[]>> {
  const s = shape('tagOnly');
  const samples = { [modes[0]]: [], [modes[1]]: [] } as unknown as Record<M, number[]>;
  for (let i = 0; i < iterations + 20; i++) {
    const vars = s.variables(w, i);
    for (const mode of i % 2 ? modes : [modes[1], modes[0]]) {
      await before?.(mode, i);
      await timed(i < 20 ? [] : samples[mode], () => askAs(mode)(s.query, vars));
    }
  }
  return samples;
}

/** The same tag-only query through an app that counts reads and one that does not, in turn. */
async function accessTrackingCost(w: Workload, tracked: Ask, untracked: Ask): Promise<void> {
  const samples = await tagOnlyInTurn(w, ['tracked', 'untracked'], (mode) => (mode === 'tracked' ? tracked : untracked));
  const on = summarize('memory', w.kind, `N=${w.n} in-process: tag only, reads counted`, samples.tracked).p50;
  const off = summarize('memory', w.kind, `N=${w.n} in-process: tag only, reads not counted`, samples.untracked).p50;
  console.log(`  access tracking adds ${(((on - off) / off) * 100).toFixed(1)} % to memoryQuery p50 (target: under 5 %)`);
}

/**
 * The same tag-only query alone and right after an update, in turn: what a commit costs the reads
 * that follow it (on SQLite each reader drops its page cache when the WAL changed, see the README).
 */
async function costAfterWrite(w: Workload, ask: Ask): Promise<void> {
  const write = shape('update');
  const samples = await tagOnlyInTurn(w, ['alone', 'afterWrite'], () => ask, (mode, i) => (mode === 'afterWrite' ? ask(write.query, write.variables(w, i)) : Promise.resolve()));
  const alone = summarize('memory', w.kind, `N=${w.n} in-process: tag only, no write before it`, samples.alone).p50;
  const after = summarize('memory', w.kind, `N=${w.n} in-process: tag only, right after an update`, samples.afterWrite).p50;
  console.log(`  a read right after a write takes ${(after / alone).toFixed(2)} × one that follows a read (p50)`);
}

async function aged(w: Workload): Promise<void> {
  const database = await openDatabase(w.url);
  await database.readersStarted();
  const app = createApp({ database, graphiql: false });
  try {
    await agedMemory(w, database, inProcess(app));
  } finally {
    await app.stop();
    await database.close();
  }
}
