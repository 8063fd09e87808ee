import type { Db, Provider, Tx } from './database.ts';
import type { EventBus, PendingEvent } from './events.ts';
import type { Prisma } from '../generated/sqlite/client.ts';
import { runBatch } from './direct-batch.ts';
import { isForeignKeyViolation, isRecordNotFound, rawErrorCode } from './prisma-errors.ts';
import { NotFoundError } from '../domain/errors.ts';
import { FEED_HEAD_SQL, recordChanges, recordChangesSql, type RecordedChanges } from './change-feed.ts';

/** What services need to write: the database (and its SQL dialect), the event bus, and write settings. */
export interface WriteDeps {
  db: Db;
  provider: Provider;
  bus: EventBus;
  settings: WriteSettings;
  /** The audit row of the mutation being resolved, for the write batch that can carry it (GraphQL requests only). */
  audit?: AuditCarrier;
  /**
   * A check run first in the write's transaction (a lease's fencing token, src/modules/leases):
   * a write it refuses writes nothing. Only writeTransaction runs it.
   */
  guard?: (tx: Tx) => Promise<void>;
}

/** What a write batch needs to carry the audit row of its mutation (MutationAudit in src/modules/audit). */
export interface AuditCarrier {
  /**
   * The INSERT of the row for a mutation that will answer `result` (the row names its ids, as it
   * would after the answer), inserted only when `onlyIf` holds at the end of the batch; null when
   * there is no row to write (none open, or one already written).
   */
  statement(result: unknown, onlyIf?: Prisma.Sql): Prisma.Sql | null;
  /** The batch that held the statement committed, and the row went in. */
  carried(): void;
}

export interface WriteSettings {
  /** Without `expectedVersion`, an update conflicts with a version another writer wrote this recently. */
  conflictWindowMs: number;
}

export const DEFAULT_WRITE_SETTINGS: WriteSettings = { conflictWindowMs: 5_000 };

export type Emit = (event: PendingEvent) => void;

const MAX_ATTEMPTS = 8;

/**
 * Runs `work` in one transaction, recording the events it emitted in the change feed as the
 * transaction's last statements, and wakes the feed's readers after the commit. Lock timeouts,
 * deadlocks and serialization failures are retried here (with the events of the failed attempt
 * discarded), so they never reach a client.
 */
export async function writeTransaction<T>(deps: WriteDeps, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  return deletedMeanwhile(() => retrying(async () => {
    const events: PendingEvent[] = [];
    let recorded: RecordedChanges | undefined;
    const result = await deps.db.$transaction(async (tx) => {
      await deps.guard?.(tx);
      const value = await work(tx, (event) => events.push(event));
      // Last: recording takes the change feed's head row, held until the commit.
      if (events.length > 0) {
        const changes = await deps.bus.changes(tx, events);
        recorded = { lastSeq: await recordChanges(tx, deps.provider, changes), changes };
      }
      return value;
    }, {
      maxWait: 15_000,
      timeout: 30_000,
    });
    if (recorded) deps.bus.committed(recorded);
    return result;
  }));
}

/**
 * A row a write checked went away before the write reached it (a concurrent delete): Prisma's
 * update or delete of it finds nothing (P2025), or a row referring to it breaks its foreign key.
 * That is what NotFoundError says, rather than an unexpected error (20 concurrent deletes of one
 * session: one succeeded, nine were INTERNAL_SERVER_ERROR, ten NotFoundError). The transaction was
 * rolled back.
 */
async function deletedMeanwhile<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isRecordNotFound(error) || isForeignKeyViolation(error)) throw new NotFoundError('What this write names was deleted meanwhile', ['input']);
    throw error;
  }
}

export interface WriteBatchOptions {
  /**
   * The batch carries the audit row of the mutation being resolved (`deps.audit`), which will
   * answer `result` when the batch commits; with `onlyIf`, only when that holds once the batch's
   * writes are done (a guarded write that may write nothing).
   */
  audit?: { result: unknown; onlyIf?: Prisma.Sql };
  /** The events are recorded only if this holds once the batch's writes are done (a guarded write that may write nothing). */
  eventsIf?: Prisma.Sql;
  /** The statements (by index) before which the event loop turns, on SQLite (BatchOptions.turnsBefore). */
  turnsBefore?: readonly number[];
}

/**
 * Runs fixed statements as one transaction (nothing is read back between them), retried like
 * `writeTransaction`, with `events` recorded in the change feed by its last statements. For
 * writes that need nothing read back. Returns each statement's row count.
 */
export async function writeBatch(
  deps: WriteDeps,
  statements: readonly Prisma.Sql[],
  events: readonly PendingEvent[],
  { audit, eventsIf, turnsBefore }: WriteBatchOptions = {},
): Promise<number[]> {
  // Fixed statements cannot run a guard first: a guarded write goes through writeTransaction.
  if (deps.guard) throw new Error('writeBatch cannot run a guarded write');
  const changes = await deps.bus.changes(deps.db, events);
  return retrying(async () => {
    const row = audit && deps.audit ? deps.audit.statement(audit.result, audit.onlyIf) : null;
    // The change rows go last: recording takes the change feed's head row, held until the commit.
    const record = recordChangesSql(deps.provider, changes, eventsIf);
    // The batch ends reading the feed's head: the last number its changes took, if it recorded them.
    const { counts: all, rows } = await runBatch(deps.db, [...statements, ...(row ? [row] : []), ...record], { turnsBefore, ...(record.length > 0 ? { read: FEED_HEAD_SQL } : {}) });
    const counts = all.slice(0, statements.length);
    if (row && all[statements.length] === 1) deps.audit!.carried();
    // The last statement inserts the last chunk of changes: no row when `eventsIf` did not hold.
    if (record.length > 0 && all.at(-1)! > 0) deps.bus.committed({ lastSeq: Number(rows[0]!.seq), changes });
    return counts;
  });
}

/**
 * Runs the writes of one key (an entry id) one at a time in this process, in arrival order.
 * Concurrent writers of one entry otherwise all read the same version, all but one lose the
 * optimistic write, and the losers queue on the entry's row lock (PostgreSQL) each holding a pooled
 * connection across several round trips: under 50 writers of one entry nearly every update took
 * both paths, and the pool starved. Queued here, each writer reads the version the previous one
 * wrote, so the one-batch optimistic write succeeds. Only an optimization: the database guards
 * still serialize writers from other processes. Hand-written because it is a few lines over a
 * promise chain per key, and the keyed-lock libraries are not among the project's dependencies.
 */
export function serializedPerKey(db: Db, key: string): <T>(work: () => Promise<T>) => Promise<T> {
  let tails = queues.get(db);
  if (!tails) queues.set(db, (tails = new Map<string, Promise<void>>()));
  const queue = tails;
  const marks = marksOf(db);
  return (work) => {
    marks.last.set(key, ++marks.seq);
    const result = (queue.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    queue.set(key, tail);
    // The last writer in line forgets the key, so the map holds only entries being written. (Not
    // forgetting only lets the map grow, which no API caller sees; forgetting too early is tested.)
    // Stryker disable next-line BlockStatement: equivalent through the API (see above)
    void tail.then(() => {
      // Stryker disable next-line ConditionalExpression: `false` only lets the map grow (see above); the mark also hides `true`, which the queue tests kill on PostgreSQL
      if (queue.get(key) === tail) {
        queue.delete(key);
        marks.forgotten = Math.max(marks.forgotten, marks.last.get(key) ?? 0);
        marks.last.delete(key);
      }
    });
    return result;
  };
}

const queues = new WeakMap<Db, Map<string, Promise<void>>>();

/** Whether a write of `key` is running or waiting in this process (serializedPerKey). */
export function isWriting(db: Db, key: string): boolean {
  return queues.get(db)?.has(key) ?? false;
}

/**
 * Writes joining the line, numbered: per key the last one's number while the key has writers, and
 * the largest number of the keys forgotten since (so a key's number never goes back).
 */
interface WriteMarks {
  seq: number;
  last: Map<string, number>;
  forgotten: number;
}
const writeMarks = new WeakMap<Db, WriteMarks>();

function marksOf(db: Db): WriteMarks {
  let marks = writeMarks.get(db);
  if (!marks) writeMarks.set(db, (marks = { seq: 0, last: new Map<string, number>(), forgotten: 0 }));
  return marks;
}

/**
 * A number that changes whenever a write of `key` joins the line in this process (and, erring on
 * the safe side, when another key's writes end): equal before and after, no write of `key` started
 * in between, so a row read then is still the latest this process wrote.
 */
export function writeMark(db: Db, key: string): number {
  const marks = marksOf(db);
  return marks.last.get(key) ?? marks.forgotten;
}

async function retrying<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      // Stryker disable next-line ArithmeticOperator: equivalent through the API, only how long a retry waits changes (no test times it)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    }
  }
}

/**
 * Errors the database asks us to retry: busy/locked SQLite, deadlocks and serialization failures.
 * Every error a driver adapter raises carries the database's own code, whether it reaches us raw
 * (direct batches) or wrapped by Prisma (P2034, P1008 and the like keep it in `meta`), so the code
 * is read there: Prisma's codes for the same failures, and their messages, are not tested again.
 * P2028 is Prisma's own: a transaction that could not start within `maxWait`.
 */
export function isRetryable(error: unknown): boolean {
  // Stryker disable next-line OptionalChaining: equivalent, what a failed query throws is never null or undefined
  if ((error as { code?: unknown } | null)?.code === 'P2028') return true;
  const raw = rawErrorCode(error);
  // No SQLite or PostgreSQL code holds one of these inside it, and the text "undefined" matches none:
  // Stryker disable next-line Regex,ConditionalExpression: equivalent (see the line above)
  return raw !== undefined && /^(SQLITE_BUSY|SQLITE_LOCKED|40001|40P01)/.test(raw);
}
