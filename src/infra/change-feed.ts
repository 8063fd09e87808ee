import { Prisma } from '../generated/sqlite/client.ts';
import { DomainError } from '../domain/errors.ts';
import type { Db, Provider, Tx } from './database.ts';
import { timestampSql } from './sql.ts';
import { log } from './log.ts';
import { periodic } from './periodic.ts';
import { eachList } from './id-lists.ts';

/**
 * The change feed: every event a subscription can deliver is a row of "Change", written in the
 * transaction of the write it announces (a transactional outbox). Its `seq` is gapless and follows
 * commit order, because a writer takes its numbers from the one row of "ChangeFeedHead" as its
 * last statement and holds that row until it commits (PostgreSQL's row lock; SQLite has one
 * writer at a time anyway). So a reader that has seen `n` has seen everything up to `n`, and a
 * subscriber's cursor (the last `seq` it received) says exactly what it has missed.
 *
 * Redis (or this process) only wakes instances up; each instance's FeedTailer reads the rows in
 * order and hands them to its subscribers, so an instance that missed a wake-up catches up at its
 * next read.
 */

/** One change to record: its topic, the routing keys it is delivered under, and the event. */
export interface ChangeRecord {
  topic: string;
  keys: readonly string[];
  payload: { occurredAt: string } & Record<string, unknown>;
}

/** A recorded change as read back. */
export interface FeedRow {
  seq: number;
  topic: string;
  keys: string;
  payload: string;
}

/**
 * The statements that record `changes` as the last of a write (one on PostgreSQL, two on SQLite,
 * which cannot nest an UPDATE in a WITH). With `onlyIf`, nothing is recorded unless it holds once
 * the write's other statements have run (a guarded write that may have written nothing).
 */
export function recordChangesSql(provider: Provider, changes: readonly ChangeRecord[], onlyIf?: Prisma.Sql): Prisma.Sql[] {
  const statements: Prisma.Sql[] = [];
  // Bounded statements (parameters per statement): an import may announce many thousands.
  for (let i = 0; i < changes.length; i += RECORD_CHUNK) statements.push(...recordChunkSql(provider, changes.slice(i, i + RECORD_CHUNK), onlyIf));
  return statements;
}

const RECORD_CHUNK = 1_000;

function recordChunkSql(provider: Provider, changes: readonly ChangeRecord[], onlyIf?: Prisma.Sql): Prisma.Sql[] {
  // Counts are literals: PostgreSQL would type a parameter added to a bigint as text.
  const n = Prisma.raw(String(changes.length));
  const rows = Prisma.join(
    changes.map((c, i) => Prisma.sql`(${Prisma.raw(String(i + 1))}, ${c.topic}, ${` ${c.keys.join(' ')} `}, ${JSON.stringify(c.payload)}, ${timestampSql(provider, new Date(c.payload.occurredAt))})`),
  );
  const condition = onlyIf ? Prisma.sql`AND ${onlyIf}` : Prisma.empty;
  if (provider === 'postgresql') {
    return [
      Prisma.sql`WITH head AS (UPDATE "ChangeFeedHead" SET "seq" = "seq" + ${n} WHERE "id" = 1 ${condition} RETURNING "seq"),
        v("i", "topic", "keys", "payload", "occurredAt") AS (VALUES ${rows})
        INSERT INTO "Change" ("seq", "topic", "keys", "payload", "occurredAt")
        SELECT head."seq" - ${n} + v."i", v."topic", v."keys", v."payload", v."occurredAt" FROM head, v`,
    ];
  }
  return [
    Prisma.sql`UPDATE "ChangeFeedHead" SET "seq" = "seq" + ${n} WHERE "id" = 1 ${condition}`,
    Prisma.sql`WITH v("i", "topic", "keys", "payload", "occurredAt") AS (VALUES ${rows})
      INSERT INTO "Change" ("seq", "topic", "keys", "payload", "occurredAt")
      SELECT h."seq" - ${n} + v."i", v."topic", v."keys", v."payload", v."occurredAt" FROM "ChangeFeedHead" h, v WHERE h."id" = 1 ${condition}`,
  ];
}

/** Changes a write recorded, with the sequence number of the last: its instance hands them on without reading them back. */
export interface RecordedChanges {
  lastSeq: number;
  changes: readonly ChangeRecord[];
}

/** Records `changes` inside an open transaction (as its last statements); returns the last sequence number given. */
export async function recordChanges(tx: Tx, provider: Provider, changes: readonly ChangeRecord[]): Promise<number> {
  if (provider === 'sqlite') {
    // A chunk at a time, the event loop turning between two (id-lists.ts): the 3,001 changes of a
    // promotion of 3,000 entries took ~45 ms of the loop in one go.
    await eachList(changes, async (some) => {
      for (const statement of recordChangesSql(provider, some)) await tx.$executeRaw(statement);
    }, RECORD_CHUNK);
    // The one writer's own connection, in-process: a read costs microseconds.
    return feedHead(tx);
  }
  // PostgreSQL: the numbers come back with the insert, without another round trip.
  let last = 0;
  for (const statement of recordChangesSql(provider, changes)) {
    const rows = await tx.$queryRaw<Array<{ seq: bigint | number }>>`${statement} RETURNING "seq"`;
    for (const row of rows) last = Math.max(last, Number(row.seq));
  }
  return last;
}

/** The head's row: the last sequence number given to a change. */
export const FEED_HEAD_SQL = Prisma.sql`SELECT "seq" FROM "ChangeFeedHead" WHERE "id" = 1`;

/**
 * The head as the feed tailer reads it while nobody here subscribes, on its poll (a timer, every
 * second) and on wake-ups: the same row under its own text, so that a statement log can tell this
 * background read from the statements of a request.
 */
export const FEED_POLL_SQL = Prisma.sql`SELECT "seq" AS "polled" FROM "ChangeFeedHead" WHERE "id" = 1`;

/** The last sequence number given to a change (committed); `polling` for the tailer's idle poll. */
export async function feedHead(db: Tx, polling = false): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ seq?: bigint | number; polled?: bigint | number }>>(polling ? FEED_POLL_SQL : FEED_HEAD_SQL);
  return Number(row?.seq ?? row?.polled ?? 0);
}

/** The oldest position a subscriber can resume from: one before the oldest retained change (the head when none is). */
export async function feedFloor(db: Tx): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ seq: bigint | number | null }>>`SELECT MIN("seq") AS "seq" FROM "Change"`;
  return row?.seq == null ? feedHead(db) : Number(row.seq) - 1;
}

/** Up to `limit` changes after `after`, in order; with `topic` and `key`, only those delivered under that key. */
export async function readChanges(db: Tx, after: number, limit: number, only?: { topic: string; key: string; upTo: number }): Promise<FeedRow[]> {
  const filter = only
    ? Prisma.sql`AND "seq" <= ${only.upTo} AND "topic" = ${only.topic} AND "keys" LIKE ${`% ${likeEscaped(only.key)} %`} ESCAPE '\\'`
    : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ seq: bigint | number; topic: string; keys: string; payload: string }>>`
    SELECT "seq", "topic", "keys", "payload" FROM "Change" WHERE "seq" > ${after} ${filter} ORDER BY "seq" LIMIT ${limit}`;
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Removes changes older than `before` (the feed's retention); returns how many. */
export async function pruneChanges(db: Db, provider: Provider, before: Date): Promise<number> {
  // A read first: a DELETE takes the write lock even when it matches nothing, and on SQLite a
  // write that waits for the lock holds the event loop.
  const [old] = await db.$queryRaw<unknown[]>`SELECT 1 FROM "Change" WHERE "occurredAt" < ${timestampSql(provider, before)} LIMIT 1`;
  if (!old) return 0;
  // The newest change is always kept: it is what says how far the feed has gone.
  return db.$executeRaw`DELETE FROM "Change" WHERE "occurredAt" < ${timestampSql(provider, before)}
    AND "seq" < (SELECT MAX("seq") FROM "Change")`;
}

/** A cursor the feed no longer holds (older than its retention) or never gave (another database's). */
export class CursorExpiredError extends DomainError {
  readonly code = 'CURSOR_EXPIRED';
  constructor(detail: string) {
    super(`${detail}: the changes after this cursor can no longer be replayed. Re-read the state you follow, then subscribe again without \`after\`.`, ['after']);
  }
}

/** A cursor as clients see it: the decimal sequence number (opaque to them). */
export const encodeCursor = (seq: number) => String(seq);

/** A client's cursor; null when it is not one this server gave. */
export function decodeCursor(cursor: string): number | null {
  if (!/^\d{1,15}$/.test(cursor)) return null;
  return Number(cursor);
}

export function logFeedError(error: unknown, what: string) {
  log.error({ err: error }, `Change feed: ${what} failed`);
}

/** How often changes past their retention are removed. */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_FIRST_MS = 1_000;

/** Removes changes older than `retentionMs` a second after start and every PRUNE_EVERY_MS (each instance; deleting twice is harmless). */
export function startFeedPruning(db: Db, provider: Provider, retentionMs: number, firstMs = PRUNE_FIRST_MS): { stop(): Promise<void> } {
  const prune = () =>
    pruneChanges(db, provider, new Date(Date.now() - retentionMs))
      .then(() => undefined)
      .catch((error: unknown) => logFeedError(error, 'removing old changes'));
  // Soon after start rather than during it: a restarted server prunes without waiting an interval.
  return periodic(PRUNE_EVERY_MS, prune, { firstMs });
}
