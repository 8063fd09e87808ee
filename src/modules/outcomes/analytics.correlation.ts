// Error correlation between agents that ran the same work items (phi coefficient).
import type { Db, Provider } from '../../infra/database.ts';
import { Prisma } from '../../generated/sqlite/client.ts';
import { bytewise, dbl, windowCtes, type OutcomeWindow } from './analytics.sql.ts';
import type { CursorPage } from '../../domain/cursors.ts';
import { page, type Keyed } from './analytics.paging.ts';

export interface ErrorCorrelation {
  agentA: string;
  agentB: string;
  sharedItems: number;
  bothFailed: number;
  failuresA: number;
  failuresB: number;
  /** What independent agents would be expected to fail together: failuresA * failuresB / sharedItems. */
  expectedBothFailed: number;
  phi: number | null;
  /** phi reached the alert threshold. */
  alert: boolean;
}

export interface CorrelationOptions {
  minSharedItems: number;
  alertThreshold: number;
  alertsOnly: boolean;
}

/**
 * Pairs of agents that ran the same work items (same scope and itemKey), with how often both
 * failed against what independent failures predict, the most correlated first (undefined phi
 * last). An agent failed an item when any of its runs on it in the window failed.
 *
 * The measure is the phi coefficient of the two agents' fail/pass on their shared items,
 *   (n * both - fA * fB) / sqrt(fA * (n - fA) * fB * (n - fB)),
 * rather than the ratio observed/expected: phi is bounded (-1..1), 0 under independence and 1 when
 * the two fail on exactly the same items, whatever the failure rates; the ratio is unbounded and
 * explodes for rare failures (one shared failure with 1% rates gives 100). MDAP's voting needs
 * errors that are not shared, so a phi well above 0 is what to alert on. Phi is undefined (null)
 * when one agent failed all or none of the shared items. Pairs with fewer than `minSharedItems`
 * items in common are not listed: they carry too little evidence to rank (phi is 1 for two agents
 * whose one shared item both failed), so `alert` (phi >= alertThreshold) is only raised on evidence.
 */
export async function errorCorrelation(db: Db, provider: Provider, w: OutcomeWindow, o: CorrelationOptions, p: CursorPage): Promise<Array<Keyed<ErrorCorrelation>>> {
  const n = dbl(Prisma.sql`COUNT(*)`);
  const threshold = dbl(Prisma.sql`${o.alertThreshold}`);
  const fa = dbl(Prisma.sql`SUM(a.failed)`);
  const fb = dbl(Prisma.sql`SUM(b.failed)`);
  const both = dbl(Prisma.sql`SUM(a.failed * b.failed)`);
  const phi = Prisma.sql`CASE WHEN SUM(a.failed) = 0 OR SUM(b.failed) = 0 OR SUM(a.failed) = COUNT(*) OR SUM(b.failed) = COUNT(*) THEN NULL
    ELSE (${n} * ${both} - ${fa} * ${fb}) / SQRT(${fa} * (${n} - ${fa}) * ${fb} * (${n} - ${fb})) END`;
  const ctes = Prisma.sql`${windowCtes(provider, w)},
    ai AS (SELECT w."scopeId" AS s, w."itemKey" AS item, w."agent" AS agent, MAX(CASE WHEN w."success" THEN 0 ELSE 1 END) AS failed
      FROM w WHERE w."itemKey" IS NOT NULL GROUP BY w."scopeId", w."itemKey", w."agent"),
    pairs AS (SELECT a.agent AS "agentA", b.agent AS "agentB", COUNT(*) AS "sharedItems", SUM(a.failed * b.failed) AS "bothFailed",
      SUM(a.failed) AS "failuresA", SUM(b.failed) AS "failuresB", ${fa} * ${fb} / ${n} AS "expectedBothFailed", ${phi} AS "phi"
      FROM ai a JOIN ai b ON b.s = a.s AND b.item = a.item AND ${bytewise(provider, Prisma.sql`a.agent`)} < ${bytewise(provider, Prisma.sql`b.agent`)}
      GROUP BY a.agent, b.agent HAVING COUNT(*) >= ${o.minSharedItems}),
    rows AS (SELECT pairs.*, CASE WHEN pairs."phi" >= ${threshold} THEN 1 ELSE 0 END AS "alert", COALESCE(-pairs."phi", ${dbl(Prisma.raw('2'))}) AS "k0", -${dbl(Prisma.sql`pairs."sharedItems"`)} AS "k1",
      pairs."agentA" AS "t0", pairs."agentB" AS "t1" FROM pairs
      ${o.alertsOnly ? Prisma.sql`WHERE pairs."phi" >= ${threshold}` : Prisma.empty})`;
  const rows = await page<ErrorCorrelation>(db, provider, ctes, { numbers: 2, texts: 2 }, p);
  return rows.map((row) => ({ ...row, alert: Number(row.alert) === 1 }));
}
