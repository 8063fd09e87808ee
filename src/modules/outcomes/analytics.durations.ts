// The distribution of run durations: percentiles and a log-scale histogram.
import type { Db, Provider } from '../../infra/database.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { dbl, percentile, windowCtes, type OutcomeWindow } from './analytics.sql.ts';
import { numbers } from './analytics.paging.ts';

/**
 * Lower bounds of the histogram's buckets, in ms: a log scale in 1-2-5 steps (three buckets a
 * decade, from 1 ms to 500,000 s), plus [0, 1) for instant runs. Durations span six orders of
 * magnitude (a cached lookup to an hour-long build), which equal-width buckets cannot show.
 */
export const HISTOGRAM_BOUNDS: readonly number[] = [0, ...Array.from({ length: 27 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3))];

export interface Distribution {
  runs: number;
  minMs: number | null;
  maxMs: number | null;
  meanMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** The buckets from the first to the last that holds a run, empty ones between included. */
  histogram: Array<{ lowerMs: number; upperMs: number | null; count: number }>;
}

/** Percentiles and a log-scale histogram of the durations in the window: two statements. */
export async function durationDistribution(db: Db, provider: Provider, w: OutcomeWindow): Promise<Distribution> {
  const ctes = windowCtes(provider, w);
  const bucket = Prisma.raw(`CASE ${HISTOGRAM_BOUNDS.slice(1).map((b, i) => `WHEN w."durationMs" < ${b} THEN ${i}`).join(' ')} ELSE ${HISTOGRAM_BOUNDS.length - 1} END`);
  const [summaryRows, bucketRows] = await Promise.all([
    db.$queryRaw<Array<Record<string, unknown>>>`${ctes},
      ranked AS (SELECT w."durationMs" AS d, ROW_NUMBER() OVER (ORDER BY w."durationMs") AS rn, COUNT(*) OVER () AS n FROM w)
      SELECT COUNT(*) AS "runs", MIN(d) AS "minMs", MAX(d) AS "maxMs", AVG(${dbl(Prisma.sql`d`)}) AS "meanMs",
        ${percentile(50, Prisma.sql`d`)} AS "p50Ms", ${percentile(90, Prisma.sql`d`)} AS "p90Ms",
        ${percentile(95, Prisma.sql`d`)} AS "p95Ms", ${percentile(99, Prisma.sql`d`)} AS "p99Ms"
      FROM ranked`,
    db.$queryRaw<Array<{ bucket: number | bigint; count: number | bigint }>>`${ctes}
      SELECT ${bucket} AS "bucket", COUNT(*) AS "count" FROM w GROUP BY ${bucket} ORDER BY 1`,
  ]);
  const counts = new Map(bucketRows.map((r) => [Number(r.bucket), Number(r.count)]));
  const used = [...counts.keys()];
  const histogram = used.length === 0 ? [] : Array.from({ length: Math.max(...used) - Math.min(...used) + 1 }, (_, j) => {
    const i = Math.min(...used) + j;
    return { lowerMs: HISTOGRAM_BOUNDS[i]!, upperMs: HISTOGRAM_BOUNDS[i + 1] ?? null, count: counts.get(i) ?? 0 };
  });
  return { ...(numbers(summaryRows[0]!) as Omit<Distribution, 'histogram'>), histogram };
}
