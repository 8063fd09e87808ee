// Benchmarks, printed as tables and written as JSON to bench-results/.
//
//   npm run bench                                  # the default suites on SQLite and PostgreSQL
//   npm run bench -- --db sqlite --suite memory --sizes 100000 --iterations 500
//   npm run bench -- --db sqlite --suite memory --sizes 1000000     # the 1M suite (opt-in)
//
// Suites (scripts/bench/):
// - memory (issue #4's workload, issue #14's shapes): seeds N entries (--sizes, default
//   1000,10000,100000; see workload.ts), then asks every shape of shapes.ts in-process (yoga.fetch)
//   and over HTTP to the real server process (`node --import tsx src/main.ts`): get by id, list 20,
//   memoryQuery tag + word, tag only, no filter, relatedTo, require/exclude, context with a two-word
//   and a ten-word natural-language task, create, update. Also the server's start-up time and RSS,
//   the statements a create and an update send, what counting reads costs, and issue #13's aged
//   memory (decay and expiry deciding, then a purge of 10 %).
// - concurrency (issue #14): on the --concurrency-size workload (default 100,000), one client and
//   then 16 (--concurrency-clients) on a mix of 80 % reads and 20 % writes for
//   --concurrency-seconds each (default 10) against the real server; throughput and p95 ratios;
//   how late a subscription event arrives while a slow query runs.
// - crud, session: single operations on small databases, in-process.
// - contention (issue #10): 50 writers on one entry through the real server process.
// - hostile (issue #10): every request of test/support/attacks.ts, then a normal query.
// - auth (issue #12): with an API key and grant against AUTH=off, in turn.
// - latency: write-to-subscriber latency, one instance and two over Redis.
// - votes (issue 16): vote-to-decision latency (deciding vote -> DECIDED at a graphql-ws
//   subscriber; open -> DECIDED with --vote-agents agents voting at once), printed against targets.
// - outcomes (issue 16): --outcome-size outcomes (default 100,000) recorded in batches of 1,000,
//   then each outcome analytics answer (rates, durations, bottlenecks, trend, error correlation).
// - feed (issue 16): replay of a --feed-events backlog (default 100,000 entryChanged events) to a
//   graphql-ws subscriber given `after`: events/s and time to the first event, with `cursor type`
//   and with `entry { id }`, printed against targets.
// - fanout: --fanout-subscribers entryChanged subscribers (default 10,000) on one scope of the real
//   server process; --fanout-writes writes (default 10), each timed to its answer and to every
//   subscriber's event, with another client's `{ __typename }` meanwhile; memory per subscription
//   and CPU while they are idle.
// - transfer (issue #15, opt-in): export and import of --transfer-size entries (default 100,000),
//   SQLite -> PostgreSQL -> SQLite, and whether the three exports hold the same rows.
// The workload suites ask for --warmup-seconds (default 30) before they measure, in-process and
// against the server: figures of a server that has settled (see warmupSeconds in bench/common.ts).
// Environment: BENCH_POSTGRES_URL (admin connection, default postgresql://postgres@127.0.0.1:5432/postgres),
// BENCH_REDIS_URL, BENCH_KEEP=1 (keep the seeded databases and print their URLs).
//
// At the end it prints every issue #14 target the run measured, with the figure and met/MISSED.
// First: the in-process figures run as the server does, in production mode (src/infra/node-env.ts).
import '../src/infra/node-env.ts';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { authSuite } from './bench/auth.ts';
import { adminUrl, iterations, opts, reachable, rows } from './bench/common.ts';
import { contentionSuite } from './bench/contention.ts';
import { hostileSuite } from './bench/hostile.ts';
import { latencySuite } from './bench/latency.ts';
import { transferSuite } from './bench/transfer.ts';
import { workloadSuites } from './bench/memory.ts';
import { crudSuite, sessionSuite } from './bench/operations.ts';
import { leasesSuite } from './bench/leases.ts';
import { votesSuite } from './bench/votes.ts';
import { outcomesSuite } from './bench/outcomes.ts';
import { feedSuite } from './bench/feed.ts';
import { fanoutSuite } from './bench/fanout.ts';
import { printTargets } from './bench/targets.ts';
import { builtModule } from './built-server.mjs';

const postgresReachable = () =>
  reachable(async () => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    await c.connect();
    await c.end();
  });

// The server process runs as `npm start` does: its build when that is of these sources, else the
// sources through tsx, whose transpiling then lands in the start-up figure and the first requests
// (at 1M, 5.0 s to listen through tsx against 1.8-2.2 s built, 2026-12-04). So a stale build is rebuilt first.
if (builtModule('.', 'src/main.ts') === null) {
  console.log('the build is not of these sources: npm run build first, so that the server runs as npm start runs it');
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

const suites = opts.suite ?? ['memory', 'concurrency', 'contention', 'hostile', 'auth', 'latency', 'leases', 'votes', 'outcomes', 'feed', 'fanout'];
for (const kind of opts.db ?? ['sqlite', 'postgresql']) {
  if (kind !== 'sqlite' && kind !== 'postgresql') throw new Error(`--db must be sqlite or postgresql, got ${kind}`);
  if (kind === 'postgresql' && !(await postgresReachable())) {
    console.log(`\nPostgreSQL skipped: ${adminUrl} unreachable`);
    continue;
  }
  const sizes = suites.includes('memory') ? opts.sizes.split(',').map(Number) : [];
  const concurrencySize = Number(opts['concurrency-size']);
  for (const size of sizes) {
    const here = ['memory', ...(suites.includes('concurrency') && size === concurrencySize ? ['concurrency'] : [])];
    await workloadSuites(kind, size, here);
  }
  if (suites.includes('concurrency') && !sizes.includes(concurrencySize)) await workloadSuites(kind, concurrencySize, ['concurrency']);
  if (suites.includes('crud')) await crudSuite(kind);
  if (suites.includes('session')) await sessionSuite(kind);
  if (suites.includes('contention')) await contentionSuite(kind);
  if (suites.includes('hostile')) await hostileSuite(kind);
  if (suites.includes('auth')) await authSuite(kind);
  if (suites.includes('latency')) await latencySuite(kind);
  if (suites.includes('leases')) await leasesSuite(kind);
  if (suites.includes('votes')) await votesSuite(kind);
  if (suites.includes('outcomes')) await outcomesSuite(kind);
  if (suites.includes('feed')) await feedSuite(kind);
  if (suites.includes('fanout')) await fanoutSuite(kind);
}

if (suites.includes('transfer')) await transferSuite();

const { missed } = printTargets();
mkdirSync('bench-results', { recursive: true });
const file = join('bench-results', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), node: process.version, iterations, rows, targetsMissed: missed }, null, 2));
console.log(`\nwritten ${file}`);
process.exit(process.exitCode ?? 0);
