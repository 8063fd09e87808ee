import type { WriteDeps } from '../../infra/transaction.ts';
import { purge, type PurgeResult } from './purge.service.ts';
import { log } from '../../infra/log.ts';
import { periodic } from '../../infra/periodic.ts';

export interface PurgeSchedule {
  /** Time between runs. */
  intervalMs: number;
  /** The clock the purge judges ages by (tests set one). */
  now?: () => Date;
}

/** Any 64-bit number naming the purge among PostgreSQL advisory locks. */
export const PURGE_LOCK = 4_242_017_013;

/**
 * The retention purge on a schedule inside the server. On PostgreSQL one instance at a time runs
 * it: each run holds a transaction-level advisory lock, and an instance that cannot take it skips
 * the run. (SQLite is one server's file.) Each step that erased or archived something is announced
 * on `memoryPurged` by its own transaction (purge's `announce`).
 */
export function startPurgeJob(deps: WriteDeps, schedule: PurgeSchedule): { stop(): Promise<void> } {
  const now = schedule.now ?? (() => new Date());
  const run = async () => {
    try {
      await exclusively(deps, () => purge(deps, { now: now(), dryRun: false, principal: null, announce: true }));
    } catch (error) {
      log.error({ err: error }, 'The retention purge failed (it runs again at the next interval)');
    }
  };
  return periodic(schedule.intervalMs, run);
}

/** Runs `work` unless another instance is (PostgreSQL); null when it was skipped. */
async function exclusively(deps: WriteDeps, work: () => Promise<PurgeResult>): Promise<PurgeResult | null> {
  if (deps.provider !== 'postgresql') return work();
  return deps.db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(CAST(${PURGE_LOCK} AS BIGINT)) AS locked`;
      return row?.locked ? work() : null;
    },
    { maxWait: 10_000, timeout: 30 * 60_000 },
  );
}
