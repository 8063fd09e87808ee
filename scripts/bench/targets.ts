// Issue #14's targets (2-core machine, through HTTP on the real server process, issue #4 workload)
// and the table that sets what `npm run bench` measured against them.
import { rows, type Kind, type Row } from './common.ts';

interface Target {
  db: Kind;
  size: number;
  shape: string;
  /** The row's figure compared: a percentile, or `value` for single figures. */
  metric: 'p50' | 'p95' | 'value';
  /** At most (`max`) or at least (`min`). */
  max?: number;
  min?: number;
  unit: string;
}

const QUERY_SHAPES = ['tagWord', 'tagOnly', 'noFilter', 'relatedTo', 'requireExclude', 'context2', 'context10'];
const K100 = 100_000;
const M1 = 1_000_000;

export const TARGETS: readonly Target[] = [
  // SQLite, 100K entries.
  ...QUERY_SHAPES.map((shape): Target => ({ db: 'sqlite', size: K100, shape, metric: 'p95', max: 12, unit: 'ms' })),
  { db: 'sqlite', size: K100, shape: 'get', metric: 'p50', max: 1, unit: 'ms' },
  { db: 'sqlite', size: K100, shape: 'list', metric: 'p95', max: 3, unit: 'ms' },
  { db: 'sqlite', size: K100, shape: 'create', metric: 'p50', max: 2, unit: 'ms' },
  { db: 'sqlite', size: K100, shape: 'update', metric: 'p50', max: 2, unit: 'ms' },
  // SQLite, 1M entries: all of the above within 25 ms at p95; seeding, memory, start-up.
  ...[...QUERY_SHAPES, 'get', 'list', 'create', 'update'].map((shape): Target => ({ db: 'sqlite', size: M1, shape, metric: 'p95', max: 25, unit: 'ms' })),
  { db: 'sqlite', size: M1, shape: 'seed', metric: 'value', max: 300, unit: 's' },
  { db: 'sqlite', size: M1, shape: 'rss', metric: 'value', max: 1024, unit: 'MB' },
  { db: 'sqlite', size: M1, shape: 'startup', metric: 'value', max: 3000, unit: 'ms' },
  // PostgreSQL, 100K entries.
  ...[...QUERY_SHAPES, 'get', 'list'].map((shape): Target => ({ db: 'postgresql', size: K100, shape, metric: 'p95', max: 25, unit: 'ms' })),
  { db: 'postgresql', size: K100, shape: 'createRoundTrips', metric: 'value', max: 1, unit: 'round trips' },
  { db: 'postgresql', size: K100, shape: 'updateRoundTrips', metric: 'value', max: 1, unit: 'round trips' },
  // Concurrency: 16 clients, 80 % reads and 20 % writes, against one client.
  ...(['sqlite', 'postgresql'] as const).flatMap((db): Target[] => [
    { db, size: K100, shape: 'throughputRatio', metric: 'value', min: 1.7, unit: '×' },
    { db, size: K100, shape: 'p95Ratio', metric: 'value', max: 4, unit: '×' },
    { db, size: K100, shape: 'eventDelay', metric: 'value', max: 5, unit: 'ms' },
  ]),
  // Change feed (issue 16, scripts/bench/feed.ts): a subscriber replaying a 100K-event backlog.
  // Lean (`cursor type`): the feed is read 500 rows a statement and each event is one GraphQL
  // execution and one WebSocket frame, with no row read: 5,000 events/s replays 100K in 20 s, and
  // is several times the rate writes can add events one at a time (a write is ≥ 1 ms), so a
  // subscriber that was away catches up. With `entry { id }` each event also reads its Entry
  // row by primary key, unbatched (events execute one by one): about 1 ms an event on 2 cores.
  ...(['sqlite', 'postgresql'] as const).flatMap((db): Target[] => [
    { db, size: K100, shape: 'feedReplayLean', metric: 'value', min: 5_000, unit: 'events/s' },
    { db, size: K100, shape: 'feedReplayEntry', metric: 'value', min: 1_000, unit: 'events/s' },
  ]),
];

/** The row a target is judged on: the HTTP figure where there are both. */
function rowFor(target: Target): Row | undefined {
  const candidates = rows.filter((r) => r.db === target.db && r.size === target.size && r.shape === target.shape);
  return candidates.find((r) => r.via === 'http') ?? candidates.find((r) => r.via === undefined);
}

/** Prints every target whose figure this run measured, with the figure and whether it is met. */
export function printTargets(): { met: number; missed: number } {
  const judged = TARGETS.flatMap((target) => {
    const row = rowFor(target);
    return row ? [{ target, row }] : [];
  });
  if (judged.length === 0) return { met: 0, missed: 0 };
  console.log('\nIssue #14 targets and the change feed targets (HTTP to the real server process where measured both ways)');
  console.log(`  ${'database'.padEnd(11)}${'size'.padStart(10)}  ${'case'.padEnd(46)}${'measured'.padStart(12)}  ${'target'.padEnd(16)}`);
  let met = 0;
  for (const { target, row } of judged) {
    const value = target.metric === 'value' ? row.p50 : row[target.metric];
    const ok = target.max !== undefined ? value <= target.max : value >= (target.min ?? -Infinity);
    if (ok) met++;
    const bound = target.max !== undefined ? `≤ ${target.max}` : `≥ ${target.min}`;
    const label = target.metric === 'value' ? row.case.replace(/^N=\d+ /, '') : `${row.case.replace(/^N=\d+ (http|in-process): /, '')} ${target.metric}`;
    console.log(`  ${target.db.padEnd(11)}${target.size.toLocaleString('en').padStart(10)}  ${label.slice(0, 45).padEnd(46)}${`${value} ${target.unit}`.padStart(12)}  ${`${bound} ${target.unit}`.padEnd(16)}${ok ? 'met' : 'MISSED'}`);
  }
  console.log(`  ${met} of ${judged.length} targets met`);
  return { met, missed: judged.length - met };
}
