// Two checkouts' real server processes started in turn on copies of one seeded SQLite database:
// under the concurrency suite's mix (80 % reads, 20 % writes), one client then sixteen (how quick
// reads on the main connection, 463c944, were measured against the commit before), or with
// `--mode shapes` the bench's shapes asked in turn over HTTP, p50 / p95 per shape and side (how
// 5cb608f, reads of up to 100 ms on the main connection, was measured at 1M). The bench itself
// runs one checkout, and this machine's speed drifts between runs by more than such a change moves
// the figures; in turn, the drift falls on both.
//
//   git worktree add ../engram-base <commit> && ln -s "$PWD/node_modules" ../engram-base/node_modules
//   (cd ../engram-base && node scripts/prisma-generate.mjs && node scripts/build-native.mjs)
//   npx tsx scripts/bench/servers-in-turn.ts --base ../engram-base [--size 100000] [--rounds 2] [--seconds 10] [--warmup 30]
//   npx tsx scripts/bench/servers-in-turn.ts --base ../engram-base --mode shapes --size 1000000 --db <file> [--iterations 50]
//
// This checkout seeds the database (the two must have the same migrations), or `--db` names one
// that seedWorkload seeded with `--size` entries (kept with BENCH_KEEP=1), which stays as it is.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Ask } from './common.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    size: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '30' },
    mode: { type: 'string', default: 'mix' },
    db: { type: 'string' },
    iterations: { type: 'string', default: '50' },
  },
});
if (!values.base || !['mix', 'shapes'].includes(values.mode) || (values.db && values.size === undefined)) {
  throw new Error('usage: servers-in-turn.ts --base <other checkout> [--mode mix|shapes] [--size N [--db <file seeded with N>]] [--rounds N] [--seconds S] [--clients N] [--warmup S] [--iterations N]');
}
// The bench's modules parse the bench's own options when they load: they get none of these.
process.argv.splice(2);
const { overHttp, percentiles, serverProcess, stopProcess } = await import('./common.ts');
const { closedLoops } = await import('./concurrency.ts');
const { SHAPES } = await import('./shapes.ts');
const { seedWorkload, workloadOfFile } = await import('./workload.ts');

const SUFFIXES = ['', '-wal', '-shm'];
const size = Number(values.size ?? 100_000);
if (!values.db) console.log(`seeding ${size.toLocaleString('en')} entries`);
const w = values.db ? workloadOfFile(values.db.replace(/^file:/, ''), size) : await seedWorkload('sqlite', size);
const source = w.url.replace(/^file:/, '');
const copy = `${source}-in-turn.db`;
/** `--mode shapes`: each side's samples by shape. */
const samples = new Map(['base', 'this'].map((side) => [side, new Map(SHAPES.map((shape) => [shape.key, [] as number[]]))]));
let asked = 0;

/** The concurrency mix: one client, then `--clients`, after a warm-up of one. */
async function mix(ask: Ask, round: number, side: string): Promise<void> {
  await closedLoops(w, ask, 1, Number(values.warmup)); // warm-up: see warmupSeconds in common.ts
  const one = await closedLoops(w, ask, 1, Number(values.seconds));
  const many = await closedLoops(w, ask, Number(values.clients), Number(values.seconds));
  const figures = (r: typeof one) => {
    const at = percentiles(r.latencies);
    return `${r.perSecond.toFixed(0)} ops/s, p50 ${at(0.5).toFixed(1)} p95 ${at(0.95).toFixed(1)} ms`;
  };
  console.log(`round ${round} ${side}: 1 client ${figures(one)}; ${values.clients} clients ${figures(many)}; ratio ${(many.perSecond / one.perSecond).toFixed(2)} ×`);
}

/** The bench's shapes in turn: `--warmup` seconds unrecorded, then `--iterations` rounds recorded. */
async function shapes(ask: Ask, side: string): Promise<void> {
  const end = performance.now() + Number(values.warmup) * 1000;
  while (performance.now() < end) for (const shape of SHAPES) await ask(shape.query, shape.variables(w, asked++));
  for (let i = 0; i < Number(values.iterations); i++) {
    for (const shape of SHAPES) {
      const started = performance.now();
      await ask(shape.query, shape.variables(w, asked++));
      samples.get(side)!.get(shape.key)!.push(performance.now() - started);
    }
  }
}

try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [side, checkout] of [['base', resolve(values.base)], ['this', resolve('.')]] as const) {
      // A copy's own log and index from an earlier round must go: SQLite would apply that log to this copy.
      for (const suffix of SUFFIXES) {
        if (existsSync(source + suffix)) copyFileSync(source + suffix, copy + suffix);
        else rmSync(copy + suffix, { force: true });
      }
      const server = await serverProcess(`file:${copy}`, {}, checkout);
      try {
        const ask = overHttp(server.port);
        if (values.mode === 'shapes') await shapes(ask, side);
        else await mix(ask, round, side);
      } finally {
        await stopProcess(server.child);
      }
    }
  }
  if (values.mode === 'shapes') {
    console.log(`${'shape'.padEnd(16)}${'base p50 / p95'.padStart(18)}${'this p50 / p95'.padStart(18)}  (ms over HTTP, ${Number(values.rounds) * Number(values.iterations)} each)`);
    for (const shape of SHAPES) {
      const [base, mine] = ['base', 'this'].map((side) => percentiles(samples.get(side)!.get(shape.key)!));
      const cell = (at: (q: number) => number) => `${at(0.5).toFixed(1)} / ${at(0.95).toFixed(1)}`.padStart(18);
      console.log(`${shape.key.padEnd(16)}${cell(base!)}${cell(mine!)}`);
    }
  }
} finally {
  for (const suffix of SUFFIXES) rmSync(copy + suffix, { force: true });
  if (!values.db) await w.drop();
}
