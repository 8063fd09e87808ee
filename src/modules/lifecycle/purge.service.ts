import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { InvalidStateError, NotFoundError } from '../../domain/errors.ts';
import type { DeletionReceipt } from '../../generated/sqlite/client.ts';
import type { WriteDeps } from '../../infra/transaction.ts';
import type { PendingEvent } from '../../infra/events.ts';
import { eraseBatch } from '../deletion/deletion.service.ts';
import { MEMORY_TYPES } from '../entries/memory-types.ts';
import { transitionSession } from '../sessions/sessions.service.ts';
import { DEFAULT_LIFETIMES, lifetimesIn } from './policies.service.ts';

/** Completed and discarded sessions are archived this long after they ended (seed 002 §8). */
export const ARCHIVE_AFTER_DAYS = 30;
/** Entries erased per transaction (and receipt). */
const BATCH = 500;
const DAY_MS = 86_400_000;

export interface PurgeResult {
  /** One per transaction of erased entries (none when nothing was due). */
  receipts: DeletionReceipt[];
  /** Sessions archived (or, in a dry run, that would be). */
  archivedSessionIds: string[];
}

/**
 * Applies the retention policies as of `now`: erases the entries whose memory type's retention
 * (the nearest policy of their scope's chain, else the default) has passed since their last
 * change, in batches, each with a receipt; and archives sessions that ended ARCHIVE_AFTER_DAYS
 * ago. A dry run erases and archives nothing and answers with what would go.
 */
export async function purge(deps: WriteDeps, options: PurgeOptions): Promise<PurgeResult> {
  const due = await dueEntries(deps, options.now);
  const receipts: DeletionReceipt[] = [];
  const announceErased = options.announce ? erasedAnnouncement : undefined;
  for (let i = 0; i < due.length; i += BATCH) {
    // On SQLite every statement runs on the event loop (better-sqlite3 is synchronous), and nothing
    // in a transaction, nor between two, gives it back: a purge held it from its first batch to its
    // last (2.7-3.1 s for 10,000 entries of 100K; the whole 25-78 s of 100,000 of 1M), no request,
    // timer or subscription answered meanwhile. Before each batch the loop turns, so it is held a
    // batch at a time. (PostgreSQL's I/O turns it anyway: a write between two batches was
    // possible there already; an entry erased meanwhile is simply not in the later receipt.)
    await eventLoopTurn();
    const ids = due.slice(i, i + BATCH);
    const request = { dryRun: options.dryRun, principal: options.principal, actor: 'system' };
    receipts.push(await eraseBatch(deps, 'purge', request, ids, { retention: true, asOf: options.now.toISOString() }, announceErased));
  }
  const ended = await deps.db.scope.findMany({
    where: { kind: 'SESSION', status: { in: ['COMPLETED', 'DISCARDED'] }, endedAt: { lte: new Date(options.now.getTime() - ARCHIVE_AFTER_DAYS * DAY_MS) } },
    select: { id: true },
    // In the order they were made (ids are UUIDv7): the run answers and announces them so, whatever
    // order the database would read them in.
    orderBy: { id: 'asc' },
  });
  if (options.dryRun) return { receipts, archivedSessionIds: ended.map((s) => s.id) };
  const archived: string[] = [];
  for (const s of ended) if (await archiveIfStillEnded(deps, s.id, options.announce === true)) archived.push(s.id);
  return { receipts, archivedSessionIds: archived };
}

export interface PurgeOptions {
  now: Date;
  dryRun: boolean;
  principal: { id: string; name: string } | null;
  /**
   * Announce each step on `memoryPurged` (the scheduled purge): every batch of erased entries and
   * every archived session is recorded in the change feed by its own transaction, so a run that
   * stops half way (a crash, a restart) has announced exactly what it committed.
   */
  announce?: boolean;
}

function erasedAnnouncement(receipt: DeletionReceipt): PendingEvent {
  const erasedEntries = (JSON.parse(receipt.counts) as { Entry?: number }).Entry ?? 0;
  return { topic: 'purge', payload: { receiptIds: [receipt.id], erasedEntries, archivedSessions: 0 } };
}

const ARCHIVED_ANNOUNCEMENT: PendingEvent = { topic: 'purge', payload: { receiptIds: [], erasedEntries: 0, archivedSessions: 1 } };

/**
 * Archives an ended session, unless it changed since it was listed: another purge (a second
 * instance's job, a concurrent purgeMemory) or a person archived, restored or deleted it. That is
 * not a failure of this run, which goes on with the next session.
 */
async function archiveIfStillEnded(deps: WriteDeps, sessionId: string, announce: boolean): Promise<boolean> {
  try {
    await transitionSession(deps, 'archive', { sessionId, actor: 'system', alsoEmit: announce ? [ARCHIVED_ANNOUNCEMENT] : [] });
    return true;
  } catch (error) {
    if (error instanceof InvalidStateError || error instanceof NotFoundError) return false;
    throw error;
  }
}

/** Ids of the entries whose retention has passed as of `now`. */
async function dueEntries(deps: WriteDeps, now: Date): Promise<string[]> {
  // The shortest retention anywhere bounds the candidates of each type; each is then judged by its own scope's.
  const policies = await deps.db.memoryPolicy.findMany({ where: { retentionDays: { not: null } }, select: { memoryType: true, retentionDays: true } });
  const due: string[] = [];
  for (const memoryType of MEMORY_TYPES) {
    const days = [DEFAULT_LIFETIMES[memoryType].retentionDays, ...policies.filter((p) => p.memoryType === memoryType).map((p) => p.retentionDays)].filter(
      (d): d is number => d !== null,
    );
    if (days.length === 0) continue;
    const candidates = await deps.db.entry.findMany({
      where: { memoryType, updatedAt: { lte: new Date(now.getTime() - Math.min(...days) * DAY_MS) } },
      select: { id: true, scopeId: true, updatedAt: true },
      orderBy: { id: 'asc' },
    });
    for (const entry of candidates) {
      const retention = (await lifetimesIn(deps.db, entry.scopeId))[memoryType].retentionDays;
      if (retention !== null && entry.updatedAt.getTime() + retention * DAY_MS <= now.getTime()) due.push(entry.id);
    }
  }
  return due;
}
