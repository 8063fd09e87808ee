import { NotFoundError } from '../../domain/errors.ts';
import { Checker } from '../../domain/validate.ts';
import { LIMITS } from '../../domain/limits.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import type { Provider, Tx } from '../../infra/database.ts';
import type { Access } from '../identity/access.service.ts';
import { timestampSql } from '../../infra/sql.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { Prisma, type Outcome } from '../../generated/sqlite/client.ts';
import { assertWritableScope } from '../scopes/archived.ts';
import { scopeSubtreeWhere } from '../scopes/scope-where.ts';
import type { OutcomeWindow } from './analytics.sql.ts';
import type { CorrelationOptions } from './analytics.correlation.ts';

// The analytics queries (their SQL in analytics.*.ts) are served through this module, which keeps
// the rules: what an outcome may say, how it is recorded, which windows and options are valid.
export type { OutcomeWindow } from './analytics.sql.ts';
export type { Keyed } from './analytics.paging.ts';
export { BOTTLENECK_GROUPS, BOTTLENECK_ORDERS, RATE_GROUPS, RATE_ORDERS, bottlenecks, successRates } from './analytics.rates.ts';
export type { Bottleneck, BottleneckGroup, BottleneckOrder, RateGroup, RateOrder, SuccessRate } from './analytics.rates.ts';
export { HISTOGRAM_BOUNDS, durationDistribution, type Distribution } from './analytics.durations.ts';
export { TREND_BUCKETS, trend, type TrendBucket, type TrendPoint } from './analytics.trend.ts';
export { errorCorrelation, type CorrelationOptions, type ErrorCorrelation } from './analytics.correlation.ts';

/** Bounds of what an outcome may say. */
export const OUTCOME_LIMITS = {
  /** Outcomes one recordOutcomes call takes (one transaction). */
  batch: 1_000,
  /** A run lasts at most a week. */
  maxDurationMs: 7 * 86_400_000,
  maxTokens: 1_000_000_000,
  /** How far in the future `occurredAt` may be (clocks of agents and server disagree a little). */
  futureSkewMs: 5 * 60_000,
  /** The earliest `occurredAt` (time buckets are computed from the epoch, and older data is a mistake). */
  earliest: Date.UTC(2000, 0, 1),
} as const;

export interface OutcomeInput {
  taskId?: string | null;
  subtaskType: string;
  itemKey?: string | null;
  agent?: string | null;
  success: boolean;
  errorKind?: string | null;
  durationMs: number;
  tokens?: number | null;
  occurredAt?: Date | null;
}

/** Adds the issues of one outcome (at `path`) to `c`. */
function checkOutcome(c: Checker, o: OutcomeInput, path: string[], recorder: string | null, now: number): void {
  c.text(o.subtaskType, [...path, 'subtaskType'], LIMITS.name, true);
  c.text(o.itemKey, [...path, 'itemKey'], LIMITS.name);
  // Sent (even empty), it must be a name; null, like leaving it out, means the caller's actor.
  c.text(o.agent, [...path, 'agent'], LIMITS.agentId, o.agent != null);
  if (o.agent == null && !recorder) c.fail([...path, 'agent'], 'is required without a caller actor (send X-Engram-Actor or name the agent)');
  c.text(o.errorKind, [...path, 'errorKind'], LIMITS.name);
  if (o.success && o.errorKind != null) c.fail([...path, 'errorKind'], 'only a failure has an error kind');
  // Stryker disable next-line BooleanLiteral: equivalent, the integer check (the schema's Int refuses a fraction first)
  c.range(o.durationMs, [...path, 'durationMs'], 0, OUTCOME_LIMITS.maxDurationMs, true);
  // Stryker disable next-line BooleanLiteral: equivalent, as above
  c.range(o.tokens, [...path, 'tokens'], 0, OUTCOME_LIMITS.maxTokens, true);
  const at = o.occurredAt?.getTime();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, an undefined time fails no comparison; a time at exactly now + 5 min cannot be sent on purpose (now is the server's)
  if (at !== undefined && (Number.isNaN(at) || at > now + OUTCOME_LIMITS.futureSkewMs || at < OUTCOME_LIMITS.earliest)) {
    c.fail([...path, 'occurredAt'], 'must be a date-time from 2000 on, not more than 5 minutes in the future');
  }
}

/** Fails unless a batch holds 1 to OUTCOME_LIMITS.batch outcomes. */
export function checkBatchSize(count: number): void {
  const c = new Checker();
  if (count === 0 || count > OUTCOME_LIMITS.batch) c.fail(['input', 'outcomes'], `must list 1 to ${OUTCOME_LIMITS.batch} outcomes (got ${count})`);
  c.done();
}

/** Where the issues of one input go: `input` for recordOutcome, `input.outcomes.<i>` for a batch. */
export type ItemPath = (index: number) => string[];

/**
 * Records outcomes of one scope, all or none, in one transaction: every item is checked first
 * (issues name the item's index through `pathOf`), then every task named must be a task of the
 * scope or of a scope below it. `agent` defaults to the recorder (the caller's actor), as a
 * lease's holder does; `recordedBy` is always the recorder.
 */
export async function recordOutcomes(deps: WriteDeps, scopeId: string, outcomes: readonly OutcomeInput[], recorder: string | null, pathOf: ItemPath): Promise<Outcome[]> {
  checkBatchSize(outcomes.length);
  const c = new Checker();
  const now = Date.now();
  outcomes.forEach((o, i) => checkOutcome(c, o, pathOf(i), recorder, now));
  c.done();
  const recordedAt = new Date(now);
  const rows = outcomes.map((o): Outcome => ({
    id: uuidv7(),
    scopeId,
    taskId: o.taskId ?? null,
    subtaskType: o.subtaskType.trim(),
    itemKey: o.itemKey ?? null,
    agent: (o.agent ?? recorder)!,
    success: o.success,
    errorKind: o.errorKind ?? null,
    durationMs: o.durationMs,
    tokens: o.tokens ?? null,
    occurredAt: o.occurredAt ?? recordedAt,
    recordedAt,
    recordedBy: recorder,
  }));
  return writeTransaction(deps, async (tx) => {
    await assertWritableScope(tx, scopeId, ['input', 'scope']);
    await assertTasksIn(tx, scopeId, outcomes, pathOf);
    await insertOutcomes(tx, deps.provider, rows);
    return rows;
  });
}

/**
 * One INSERT for the whole batch (Prisma's createMany splits 1,000 rows into 14 statements on
 * SQLite): 13 parameters a row stay below both databases' limits (32,766 and 65,535).
 */
async function insertOutcomes(tx: Tx, provider: Provider, rows: Outcome[]): Promise<void> {
  const values = rows.map((r) => Prisma.sql`(${r.id}, ${r.scopeId}, ${r.taskId}, ${r.subtaskType}, ${r.itemKey}, ${r.agent}, ${r.success}, ${r.errorKind},
    ${r.durationMs}, ${r.tokens}, ${timestampSql(provider, r.occurredAt)}, ${timestampSql(provider, r.recordedAt)}, ${r.recordedBy})`);
  await tx.$executeRaw`INSERT INTO "Outcome" ("id", "scopeId", "taskId", "subtaskType", "itemKey", "agent", "success", "errorKind",
    "durationMs", "tokens", "occurredAt", "recordedAt", "recordedBy") VALUES ${Prisma.join(values)}`;
}

/** Fails (NotFound at the first item naming it) unless every task named is in the scope or below. */
async function assertTasksIn(tx: Tx, scopeId: string, outcomes: readonly OutcomeInput[], pathOf: ItemPath): Promise<void> {
  const ids = [...new Set(outcomes.map((o) => o.taskId).filter((id): id is string => id != null))];
  // Stryker disable next-line ConditionalExpression,ObjectLiteral: equivalent, no ids find nothing either way, and reading every task of the scope still misses one outside it
  if (ids.length === 0) return;
  const found = await tx.task.findMany({ where: { id: { in: ids }, scope: scopeSubtreeWhere(scopeId, true) }, select: { id: true } });
  const known = new Set(found.map((t) => t.id));
  const i = outcomes.findIndex((o) => o.taskId != null && !known.has(o.taskId));
  if (i >= 0) throw new NotFoundError('No task of this scope (or of a scope below it) has this id', [...pathOf(i), 'task']);
}

// ---------------------------------------------------------------------------------------------
// Analytics: the checks of a window and of error correlation's options.

/**
 * The window narrowed to the scopes the caller reads: with includeDescendants, a scope the caller
 * reads (global, readable by every key by default) has scopes below it that it may not (other
 * projects), whose outcomes must not count. The statement applies the caller's grants itself
 * (analytics.sql.ts), so a window of any number of scopes costs as many parameters as grants.
 */
export async function readableWindow(access: Access, w: OutcomeWindow): Promise<OutcomeWindow> {
  if (!w.includeDescendants) return w;
  const readable = await access.readableScopes();
  return readable.all ? w : { ...w, readable: { subtrees: readable.subtrees, single: readable.single } };
}

export function checkWindow(w: OutcomeWindow): void {
  const c = new Checker();
  c.text(w.subtaskType, ['input', 'subtaskType'], LIMITS.name);
  if (w.since && w.until && w.since.getTime() >= w.until.getTime()) c.fail(['input', 'until'], 'must be later than since');
  c.done();
}

export function checkCorrelationOptions(o: CorrelationOptions): void {
  const c = new Checker();
  c.range(o.minSharedItems, ['minSharedItems'], 1, 1_000_000, true);
  c.range(o.alertThreshold, ['alertThreshold'], -1, 1);
  c.done();
}
