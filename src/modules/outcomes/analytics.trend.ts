// Runs, success rate and mean duration per time bucket.
import type { Db, Provider } from '../../infra/database.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { dbl, epochMs, windowCtes, type OutcomeWindow } from './analytics.sql.ts';
import type { CursorPage } from '../../domain/cursors.ts';
import { page, type Keyed } from './analytics.paging.ts';

export const TREND_BUCKETS = { HOUR: 3_600_000, DAY: 86_400_000, WEEK: 7 * 86_400_000 } as const;
export type TrendBucket = keyof typeof TREND_BUCKETS;
/** Weeks start on Monday (UTC); the epoch was a Thursday, so Monday 1970-01-05 is four days in. */
const WEEK_OFFSET_MS = 4 * 86_400_000;

export interface TrendPoint {
  startMs: number;
  runs: number;
  successes: number;
  failures: number;
  successRate: number;
  meanDurationMs: number;
}

/** Runs, success rate and mean duration per UTC hour, day or week (from Monday) that has runs, oldest first. */
export async function trend(db: Db, provider: Provider, w: OutcomeWindow, bucket: TrendBucket, p: CursorPage): Promise<Array<Keyed<TrendPoint>>> {
  const size = TREND_BUCKETS[bucket];
  const offset = bucket === 'WEEK' ? WEEK_OFFSET_MS : 0;
  // occurredAt is from 2000 on, so the integer division truncates towards the bucket's start.
  const start = Prisma.raw(`((b.ms - ${offset}) / ${size}) * ${size} + ${offset}`);
  const ctes = Prisma.sql`${windowCtes(provider, w)},
    b AS (SELECT ${epochMs(provider, Prisma.sql`w."occurredAt"`)} AS ms, w."success", w."durationMs" FROM w),
    rows AS (SELECT ${start} AS "startMs", COUNT(*) AS "runs", SUM(CASE WHEN b."success" THEN 1 ELSE 0 END) AS "successes",
      SUM(CASE WHEN b."success" THEN 0 ELSE 1 END) AS "failures",
      ${dbl(Prisma.sql`SUM(CASE WHEN b."success" THEN 1 ELSE 0 END)`)} / COUNT(*) AS "successRate",
      AVG(${dbl(Prisma.sql`b."durationMs"`)}) AS "meanDurationMs", ${dbl(start)} AS "k0"
      FROM b GROUP BY ${start})`;
  return page<TrendPoint>(db, provider, ctes, { numbers: 1, texts: 0 }, p);
}
