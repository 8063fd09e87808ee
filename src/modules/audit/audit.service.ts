import { uuidv7 } from '../../domain/uuid.ts';
import type { Db } from '../../infra/database.ts';
import type { AuditCarrier } from '../../infra/transaction.ts';
import { runBatch } from '../../infra/direct-batch.ts';
import { Prisma, type AuditEvent } from '../../generated/sqlite/client.ts';
import { log } from '../../infra/log.ts';

export const AUDIT_CATEGORIES = ['AUTHENTICATION', 'IDENTITY', 'WRITE'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];
export const AUDIT_OUTCOMES = ['OK', 'DENIED', 'FAILED'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Ids kept per event: a bulk write names its first ones (an import of 10,000 entries is one event). */
export const MAX_TARGET_IDS = 100;

export interface AuditRecord {
  category: AuditCategory;
  /** A mutation field name (`addTool`), or `authenticate`. */
  operation: string;
  principal?: { id: string; name: string } | null;
  onBehalfOf?: string | null;
  /** Database ids of what the operation touched. */
  targetIds?: readonly string[];
  outcome: AuditOutcome;
  /** More about it (an error code, a key's prefix); never a secret. */
  detail?: Record<string, unknown> | null;
  clientAddress?: string | null;
}

/**
 * Appends one event. The log is append-only: nothing in Engram updates or deletes its rows, and
 * they hold ids and names as text (no foreign keys), so they outlive what they name.
 */
export async function recordAudit(db: Db, record: AuditRecord): Promise<void> {
  // One INSERT straight to the driver adapter (runBatch): through Prisma's client it took longer
  // than the write it records (a create went from 0.7 to 1.2 ms at p50 on SQLite). Its commit does
  // not wait for a second disk flush on PostgreSQL (`durable: false`): that wait made a create
  // ~11 ms slower (PostgreSQL 15, fdatasync). Only a crash of the database server within a few
  // hundred milliseconds could lose the row, as a crash of Engram between the write and this
  // insert always could. (The writes that can, carry their row in their own batch: MutationAudit.)
  await runBatch(db, [Prisma.sql`INSERT INTO "AuditEvent" (${AUDIT_COLUMNS}) VALUES (${auditValues(uuidv7(), Prisma.sql`${new Date()}`, record)})`], {
    durable: false,
  });
}

const AUDIT_COLUMNS = Prisma.raw(
  '"id", "createdAt", "category", "operation", "principalId", "principalName", "onBehalfOf", "targetIds", "outcome", "detail", "clientAddress"',
);

function auditValues(id: string, createdAt: Prisma.Sql, record: AuditRecord): Prisma.Sql {
  const targetIds = JSON.stringify([...new Set(record.targetIds ?? [])].slice(0, MAX_TARGET_IDS));
  const detail = record.detail ? JSON.stringify(record.detail) : null;
  return Prisma.sql`${id}, ${createdAt}, ${record.category}, ${record.operation}, ${record.principal?.id ?? null}, ${record.principal?.name ?? null},
    ${record.onBehalfOf ?? null}, ${targetIds}, ${record.outcome}, ${detail}, ${record.clientAddress ?? null}`;
}

/**
 * The audit row of the mutation being resolved, for the one write batch that can carry it
 * (`writeBatch`'s `audit` option): the row then commits with the write, all or nothing, and costs
 * no round trip of its own (a create on PostgreSQL is one query). src/graphql/audit.ts opens it
 * around each Mutation field and writes the row itself when no batch carried it (a failure, or a
 * write that is no single batch). Mutation fields run one at a time, so one per request suffices.
 */
export class MutationAudit implements AuditCarrier {
  private row: { id: string; of: (result: unknown) => AuditRecord } | null = null;
  // Stryker disable next-line BooleanLiteral: equivalent, begin() sets it before any batch can ask
  private written = false;

  /** A Mutation field starts; `of` makes its OK row from the field's answer. */
  begin(of: (result: unknown) => AuditRecord): void {
    this.row = { id: uuidv7(), of };
    this.written = false;
  }

  /** The field is resolved: whether a batch carried its row. */
  end(): boolean {
    const written = this.written;
    this.row = null;
    return written;
  }

  statement(result: unknown, onlyIf?: Prisma.Sql): Prisma.Sql | null {
    // Only Mutation fields write, so a row is open whenever a batch asks, and no mutation has two
    // batches that carry it; the test is for callers outside GraphQL to come (CLI, MCP).
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent through today's API (see above)
    if (!this.row || this.written) return null;
    const values = auditValues(this.row.id, Prisma.sql`${new Date()}`, this.row.of(result));
    return Prisma.sql`INSERT INTO "AuditEvent" (${AUDIT_COLUMNS}) SELECT ${values}${onlyIf ? Prisma.sql` WHERE ${onlyIf}` : Prisma.empty}`;
  }

  carried(): void {
    this.written = true;
  }
}

export interface AuditFilter {
  principalId?: string | null;
  operation?: string | null;
  category?: AuditCategory | null;
  /** A database id among the event's targets. */
  targetId?: string | null;
  since?: Date | null;
  until?: Date | null;
}

/** The conditions on the event itself (all but the target). */
function eventWhere(filter: AuditFilter): Prisma.AuditEventWhereInput {
  return {
    ...(filter.principalId ? { principalId: filter.principalId } : {}),
    ...(filter.operation ? { operation: filter.operation } : {}),
    ...(filter.category ? { category: filter.category } : {}),
  };
}

const within = (filter: AuditFilter) =>
  filter.since || filter.until ? { createdAt: { ...(filter.since ? { gte: filter.since } : {}), ...(filter.until ? { lt: filter.until } : {}) } } : {};

/**
 * A target's events are read from its AuditTarget rows (their index serves them newest first, and
 * holds exactly this id: a LIKE on targetIds took `%` and `_` as wildcards and read every event).
 * Asked as a condition on the events instead, SQLite read every event newest first and probed its
 * targets (58 ms for a target of one event among 200,000, against 14 ms for the LIKE).
 */
function targetWhere(targetId: string, filter: AuditFilter): Prisma.AuditTargetWhereInput {
  const event = eventWhere(filter);
  return { targetId, ...within(filter), ...(Object.keys(event).length ? { event } : {}) };
}

/** Without a target: every condition on the events themselves. */
const eventsWhere = (filter: AuditFilter): Prisma.AuditEventWhereInput => ({ ...eventWhere(filter), ...within(filter) });

/** Events matching `filter`, newest first; `query` is the connection's paging (its cursor an event id). */
export async function listAuditEvents(db: Db, query: Pick<Prisma.AuditEventFindManyArgs, 'take' | 'skip' | 'cursor'>, filter: AuditFilter): Promise<AuditEvent[]> {
  const { targetId } = filter;
  if (!targetId) return db.auditEvent.findMany({ ...query, where: eventsWhere(filter), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  const eventId = query.cursor?.id;
  const rows = await db.auditTarget.findMany({
    take: query.take,
    skip: query.skip,
    ...(eventId ? { cursor: { targetId_eventId: { targetId, eventId } } } : {}),
    where: targetWhere(targetId, filter),
    // The same order as the events' (eventId is the event's id).
    orderBy: [{ createdAt: 'desc' }, { eventId: 'desc' }],
    select: { event: true },
  });
  return rows.map((row) => row.event);
}

export function countAuditEvents(db: Db, filter: AuditFilter): Promise<number> {
  const { targetId } = filter;
  return targetId ? db.auditTarget.count({ where: targetWhere(targetId, filter) }) : db.auditEvent.count({ where: eventsWhere(filter) });
}

export interface AuthenticationFailure {
  clientAddress: string | null;
  /** The refusal's code (UNAUTHENTICATED, PROTECTED_MODE). */
  code: string;
  /** Why, as the caller was told. */
  reason: string;
}

/**
 * Records failed authentications without letting a flood of bad keys become a flood of writes: per
 * client address and reason, the first failure is written at once, and those that follow within
 * WINDOW_MS are counted and written as one row (`detail.count`) when the window closes, which opens
 * the next. So a steady stream costs at most one row per address and reason per second, and a
 * single failure is visible at once. Past MAX_OPEN addresses with open windows, failures are
 * counted per reason only (address null), which bounds memory too.
 */
export class AuthenticationFailures {
  static readonly WINDOW_MS = 1_000;
  static readonly MAX_OPEN = 10_000;
  private readonly open = new Map<string, { failure: AuthenticationFailure; count: number; timer: NodeJS.Timeout }>();
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly db: Db) {}

  note(failure: AuthenticationFailure): void {
    let key = `${failure.clientAddress ?? ''}\n${failure.reason}`;
    if (!this.open.has(key) && this.open.size >= AuthenticationFailures.MAX_OPEN) {
      failure = { ...failure, clientAddress: null };
      key = `\n${failure.reason}`;
    }
    const window = this.open.get(key);
    if (window) {
      window.count++;
      return;
    }
    this.write(failure, 1);
    this.openWindow(key, failure);
  }

  /** Writes what is still counted and waits for every write (at shutdown). */
  async close(): Promise<void> {
    for (const { failure, count, timer } of this.open.values()) {
      clearTimeout(timer);
      if (count > 0) this.write(failure, count);
    }
    this.open.clear();
    await Promise.all([...this.writing]);
  }

  private openWindow(key: string, failure: AuthenticationFailure): void {
    const timer = setTimeout(() => {
      const window = this.open.get(key);
      this.open.delete(key);
      if (window && window.count > 0) {
        this.write(failure, window.count);
        this.openWindow(key, failure);
      }
    }, AuthenticationFailures.WINDOW_MS);
    timer.unref();
    this.open.set(key, { failure, count: 0, timer });
  }

  private write(failure: AuthenticationFailure, count: number): void {
    const written = recordAudit(this.db, {
      category: 'AUTHENTICATION',
      operation: 'authenticate',
      outcome: 'DENIED',
      detail: { code: failure.code, reason: failure.reason, count },
      clientAddress: failure.clientAddress,
    })
      .catch((error: unknown) => log.warn({ err: error }, 'Recording a failed authentication failed'))
      .finally(() => this.writing.delete(written));
    this.writing.add(written);
  }
}
