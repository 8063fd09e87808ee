// Two checkouts' real server processes under the concurrency suite's mix (80 % reads, 20 %
// writes), one client then sixteen, started in turn on copies of one seeded SQLite database: how
// quick reads on the main connection (463c944) were measured against the commit before. The bench
// itself runs one checkout, and this machine's speed drifts between runs by more than such a
// change moves the figures; in turn, the drift falls on both.
//
//   git worktree add ../engram-base <commit> && ln -s "$PWD/node_modules" ../engram-base/node_modules
//   (cd ../engram-base && node scripts/prisma-generate.mjs)
//   npx tsx scripts/bench/servers-in-turn.ts --base ../engram-base [--size 100000] [--rounds 2] [--seconds 10] [--warmup 30]
//
// This checkout seeds the database: the two must have the same migrations.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    size: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '30' },
  },
});
if (!values.base) throw new Error('usage: servers-in-turn.ts --base <other checkout> [--size N] [--rounds N] [--seconds S] [--clients N] [--warmup S]');
// The bench's modules parse the bench's own options when they load: they get none of these.
process.argv.splice(2);
const { overHttp, percentiles, serverProcess, stopProcess } = await import('./common.ts');
const { closedLoops } = await import('./concurrency.ts');
const { seedWorkload } = await import('./workload.ts');

const SUFFIXES = ['', '-wal', '-shm'];

console.log(`seeding ${Number(values.size).toLocaleString('en')} entries`);
const w = await seedWorkload('sqlite', Number(values.size));
const source = w.url.replace(/^file:/, '');
const copy = `${source}-in-turn.db`;
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [side, checkout] of [['base', resolve(values.base)], ['this', resolve('.')]] as const) {
      for (const suffix of SUFFIXES) if (existsSync(source + suffix)) copyFileSync(source + suffix, copy + suffix);
      const server = await serverProcess(`file:${copy}`, {}, checkout);
      try {
        const ask = overHttp(server.port);
        await closedLoops(w, ask, 1, Number(values.warmup)); // warm-up: see warmupSeconds in common.ts
        const one = await closedLoops(w, ask, 1, Number(values.seconds));
        const many = await closedLoops(w, ask, Number(values.clients), Number(values.seconds));
        const figures = (r: typeof one) => {
          const at = percentiles(r.latencies);
          return `${r.perSecond.toFixed(0)} ops/s, p50 ${at(0.5).toFixed(1)} p95 ${at(0.95).toFixed(1)} ms`;
        };
        console.log(`round ${round} ${side}: 1 client ${figures(one)}; ${values.clients} clients ${figures(many)}; ratio ${(many.perSecond / one.perSecond).toFixed(2)} ×`);
      } finally {
        await stopProcess(server.child);
      }
    }
  }
} finally {
  for (const suffix of SUFFIXES) rmSync(copy + suffix, { force: true });
  await w.drop();
}
