// Success rates and bottlenecks: outcomes grouped by subtask type, agent or task, ranked and paged.
import type { Db, Provider } from '../../infra/database.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { dbl, percentile, windowCtes, type OutcomeWindow, type Sql } from './analytics.sql.ts';
import type { CursorPage } from '../../domain/cursors.ts';
import { page, type Keyed } from './analytics.paging.ts';

// --- success rates -------------------------------------------------------------------------

export const RATE_GROUPS = ['SUBTASK_TYPE', 'AGENT'] as const;
export type RateGroup = (typeof RATE_GROUPS)[number];
export const RATE_ORDERS = ['RUNS_DESC', 'RUNS_ASC', 'RATE_ASC', 'RATE_DESC'] as const;
export type RateOrder = (typeof RATE_ORDERS)[number];

export interface SuccessRate {
  key: string;
  runs: number;
  successes: number;
  failures: number;
  successRate: number;
  meanDurationMs: number;
  p50DurationMs: number;
  p95DurationMs: number;
  totalDurationMs: number;
  tokens: number | null;
}

/** Runs, successes, rate and durations per subtask type or agent; ties go by runs (more first), then key. */
export async function successRates(db: Db, provider: Provider, w: OutcomeWindow, by: RateGroup, orderBy: RateOrder, p: CursorPage): Promise<Array<Keyed<SuccessRate>>> {
  const group = Prisma.raw(by === 'AGENT' ? '"agent"' : '"subtaskType"');
  const rate = Prisma.sql`${dbl(Prisma.sql`SUM(CASE WHEN r."success" THEN 1 ELSE 0 END)`)} / COUNT(*)`;
  const runs = dbl(Prisma.sql`COUNT(*)`);
  const sort: Record<RateOrder, Sql[]> = {
    RUNS_DESC: [Prisma.sql`-${runs}`, rate],
    RUNS_ASC: [runs, rate],
    RATE_ASC: [rate, Prisma.sql`-${runs}`],
    RATE_DESC: [Prisma.sql`-${rate}`, Prisma.sql`-${runs}`],
  };
  const ctes = Prisma.sql`${windowCtes(provider, w)},
    ranked AS (SELECT w.${group} AS g, w."success", w."durationMs" AS d, w."tokens",
      ROW_NUMBER() OVER (PARTITION BY w.${group} ORDER BY w."durationMs") AS rn, COUNT(*) OVER (PARTITION BY w.${group}) AS n FROM w),
    rows AS (SELECT r.g AS "key", COUNT(*) AS "runs", SUM(CASE WHEN r."success" THEN 1 ELSE 0 END) AS "successes",
      SUM(CASE WHEN r."success" THEN 0 ELSE 1 END) AS "failures", ${rate} AS "successRate",
      AVG(${dbl(Prisma.sql`r.d`)}) AS "meanDurationMs", SUM(r.d) AS "totalDurationMs", SUM(r."tokens") AS "tokens",
      ${percentile(50, Prisma.sql`r.d`)} AS "p50DurationMs", ${percentile(95, Prisma.sql`r.d`)} AS "p95DurationMs",
      ${Prisma.join(sort[orderBy].map((s, i) => Prisma.sql`${s} AS ${Prisma.raw(`"k${i}"`)}`))}, r.g AS "t0"
      FROM ranked r GROUP BY r.g)`;
  return page<SuccessRate>(db, provider, ctes, { numbers: 2, texts: 1 }, p);
}

// --- bottlenecks -------------------------------------------------------------------------------

export const BOTTLENECK_GROUPS = ['TASK', 'SUBTASK_TYPE'] as const;
export type BottleneckGroup = (typeof BOTTLENECK_GROUPS)[number];
export const BOTTLENECK_ORDERS = ['TOTAL_DURATION', 'FAILURES'] as const;
export type BottleneckOrder = (typeof BOTTLENECK_ORDERS)[number];

export interface Bottleneck {
  key: string;
  runs: number;
  failures: number;
  totalDurationMs: number;
  meanDurationMs: number;
  tokens: number | null;
}

/** Tasks (outcomes naming one) or subtask types by total time spent or failures, the largest first; ties by the other measure, then key. */
export async function bottlenecks(db: Db, provider: Provider, w: OutcomeWindow, by: BottleneckGroup, orderBy: BottleneckOrder, p: CursorPage): Promise<Array<Keyed<Bottleneck>>> {
  const group = Prisma.raw(by === 'TASK' ? '"taskId"' : '"subtaskType"');
  const total = Prisma.sql`-${dbl(Prisma.sql`SUM(w."durationMs")`)}`;
  const failures = Prisma.sql`-${dbl(Prisma.sql`SUM(CASE WHEN w."success" THEN 0 ELSE 1 END)`)}`;
  const sort = orderBy === 'TOTAL_DURATION' ? [total, failures] : [failures, total];
  const ctes = Prisma.sql`${windowCtes(provider, w)},
    rows AS (SELECT w.${group} AS "key", COUNT(*) AS "runs", SUM(CASE WHEN w."success" THEN 0 ELSE 1 END) AS "failures",
      SUM(w."durationMs") AS "totalDurationMs", AVG(${dbl(Prisma.sql`w."durationMs"`)}) AS "meanDurationMs", SUM(w."tokens") AS "tokens",
      ${sort[0]!} AS "k0", ${sort[1]!} AS "k1", w.${group} AS "t0"
      FROM w WHERE w.${group} IS NOT NULL GROUP BY w.${group})`;
  return page<Bottleneck>(db, provider, ctes, { numbers: 2, texts: 1 }, p);
}
