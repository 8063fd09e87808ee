import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { Checker } from '../../domain/validate.ts';
import { LIMITS } from '../../domain/limits.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import type { Db, Provider, Tx } from '../../infra/database.ts';
import { timestampSql } from '../../infra/sql.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { Prisma, type Outcome } from '../../generated/sqlite/client.ts';
import { assertWritableScope } from '../scopes/archived.ts';
import { scopeSubtreeWhere } from '../scopes/scope-where.ts';

type Sql = Prisma.Sql;

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
  c.text(o.agent, [...path, 'agent'], LIMITS.agentId, o.agent !== undefined);
  if (o.agent == null && !recorder) c.fail([...path, 'agent'], 'is required without a caller actor (send X-Engram-Actor or name the agent)');
  c.text(o.errorKind, [...path, 'errorKind'], LIMITS.name);
  if (o.success && o.errorKind != null) c.fail([...path, 'errorKind'], 'only a failure has an error kind');
  c.range(o.durationMs, [...path, 'durationMs'], 0, OUTCOME_LIMITS.maxDurationMs, true);
  c.range(o.tokens, [...path, 'tokens'], 0, OUTCOME_LIMITS.maxTokens, true);
  const at = o.occurredAt?.getTime();
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
  if (ids.length === 0) return;
  const found = await tx.task.findMany({ where: { id: { in: ids }, scope: scopeSubtreeWhere(scopeId, true) }, select: { id: true } });
  const known = new Set(found.map((t) => t.id));
  const i = outcomes.findIndex((o) => o.taskId != null && !known.has(o.taskId));
  if (i >= 0) throw new NotFoundError('No task of this scope (or of a scope below it) has this id', [...pathOf(i), 'task']);
}

// ---------------------------------------------------------------------------------------------
// Analytics: every figure is computed by the database, one statement per answer.

/** Which outcomes an analytics answer covers. */
export interface OutcomeWindow {
  scopeId: string;
  /** Also the scopes below it (the default: a project's figures include its sessions'). */
  includeDescendants: boolean;
  since: Date | null;
  until: Date | null;
  subtaskType: string | null;
}

export function checkWindow(w: OutcomeWindow): void {
  const c = new Checker();
  c.text(w.subtaskType, ['input', 'subtaskType'], LIMITS.name);
  if (w.since && w.until && w.since.getTime() >= w.until.getTime()) c.fail(['input', 'until'], 'must be later than since');
  c.done();
}

/**
 * CTEs `sub` (the scopes covered) and `w` (their outcomes in the window). The recursive walk down
 * Scope.parentId is bounded by the tree's depth (four levels); the outcomes are then read through
 * the (scopeId, occurredAt) index, one range per scope.
 */
function windowCtes(provider: Provider, w: OutcomeWindow): Sql {
  const where = [Prisma.sql`o."scopeId" IN (SELECT "id" FROM sub)`];
  if (w.since) where.push(Prisma.sql`o."occurredAt" >= ${timestampSql(provider, w.since)}`);
  if (w.until) where.push(Prisma.sql`o."occurredAt" < ${timestampSql(provider, w.until)}`);
  if (w.subtaskType != null) where.push(Prisma.sql`o."subtaskType" = ${w.subtaskType}`);
  const below = w.includeDescendants ? Prisma.sql`UNION ALL SELECT s."id" FROM "Scope" s JOIN sub ON s."parentId" = sub."id"` : Prisma.empty;
  return Prisma.sql`WITH RECURSIVE sub("id") AS (SELECT CAST(${w.scopeId} AS TEXT) ${below}),
    w AS (SELECT o.* FROM "Outcome" o WHERE ${Prisma.join(where, ' AND ')})`;
}

/** A number as a double on both databases (PostgreSQL would otherwise compute in numeric or bigint). */
const dbl = (e: Sql): Sql => Prisma.sql`CAST(${e} AS DOUBLE PRECISION)`;

/** Text that orders byte-wise on both databases (PostgreSQL's default collation would not). */
const bytewise = (provider: Provider, e: Sql): Sql => (provider === 'postgresql' ? Prisma.sql`${e} COLLATE "C"` : e);

/**
 * Percentile `pct` (an integer percent) of `column` within the groups of a CTE that numbers its
 * rows `rn` (1..n, ascending by the column) per group of `n` rows; used inside a GROUP BY of that
 * CTE. Linear interpolation between the two nearest ranks, as PostgreSQL's percentile_cont does:
 * position pct*(n-1)/100 from the first row. The position's integer part and remainder are
 * computed in integers, so both databases interpolate with the same double arithmetic and give
 * the very same numbers (percentile_cont computes the position in floating point, which can differ
 * in the last bits).
 */
function percentile(pct: number, column: Sql): Sql {
  const whole = Prisma.sql`(${Prisma.raw(String(pct))} * (n - 1)) / 100`;
  const low = Prisma.sql`MAX(CASE WHEN rn = ${whole} + 1 THEN ${column} END)`;
  const high = Prisma.sql`MAX(CASE WHEN rn = ${whole} + 2 THEN ${column} END)`;
  const fraction = Prisma.sql`MAX(${dbl(Prisma.sql`(${Prisma.raw(String(pct))} * (n - 1)) % 100`)}) / ${dbl(Prisma.raw('100'))}`;
  return Prisma.sql`(${dbl(low)} + ${fraction} * ${dbl(Prisma.sql`COALESCE(${high}, ${low}) - ${low}`)})`;
}

// Keyset paging over computed rows: each answer orders by numeric sort columns ("k0", "k1", ...,
// ascending; a descending order is the negated value) and then by text columns, together unique.
// A cursor is those values, so a page continues after the last row seen.

export interface PageArgs {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted: boolean;
}

/** How many numeric ("k0"..) and text ("t0"..) sort columns the rows carry. */
interface Order {
  numbers: number;
  texts: number;
}

export type Keyed<T> = T & { cursor: string };

function decodeCursor(cursor: string, order: Order, path: string): Array<number | string> {
  const bad = () => new ValidationError([{ path: [path], message: 'is not a cursor of this list' }]);
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const arity = order.numbers + order.texts;
  if (!Array.isArray(values) || values.length !== arity) throw bad();
  values.forEach((v, i) => {
    const ok = i < order.numbers ? typeof v === 'number' && Number.isFinite(v) : typeof v === 'string' && v.length <= 1_000;
    if (!ok) throw bad();
  });
  return values as Array<number | string>;
}

/** `SELECT * FROM rows` (a CTE holding the sort columns k0.., t0..) for one page, with each row's cursor. */
async function page<T extends object>(db: Db, provider: Provider, ctes: Sql, order: Order, p: PageArgs): Promise<Array<Keyed<T>>> {
  const column = (prefix: string) => (_: unknown, i: number) => `"${prefix}${i}"`;
  const numeric = Array.from({ length: order.numbers }, column('k'));
  const text = Array.from({ length: order.texts }, column('t'));
  const keys = [...numeric.map((k) => Prisma.raw(k)), ...text.map((t) => bytewise(provider, Prisma.raw(t)))];
  const bound = (cursor: string, op: string, path: string) => {
    const values = decodeCursor(cursor, order, path).map((v, i) => (i < order.numbers ? dbl(Prisma.sql`${v}`) : Prisma.sql`${v}`));
    return Prisma.sql`(${Prisma.join(keys)}) ${Prisma.raw(op)} (${Prisma.join(values)})`;
  };
  const where = [Prisma.sql`1 = 1`];
  if (p.after) where.push(bound(p.after, '>', 'after'));
  if (p.before) where.push(bound(p.before, '<', 'before'));
  const direction = Prisma.raw(p.inverted ? 'DESC' : 'ASC');
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`${ctes}
    SELECT * FROM rows WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY ${Prisma.join(keys.map((k) => Prisma.sql`${k} ${direction}`))} LIMIT ${p.limit}`;
  return rows.map((row) => {
    const values = [...numeric.map((_, i) => Number(row[`k${i}`])), ...text.map((_, i) => String(row[`t${i}`]))];
    return { ...(numbers(row) as T), cursor: Buffer.from(JSON.stringify(values)).toString('base64url') };
  });
}

/** A row with PostgreSQL's bigint counts and sums (and any numeric) as JavaScript numbers. */
function numbers(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}

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
export async function successRates(db: Db, provider: Provider, w: OutcomeWindow, by: RateGroup, orderBy: RateOrder, p: PageArgs): Promise<Array<Keyed<SuccessRate>>> {
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

// --- duration distribution -------------------------------------------------------------------

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
export async function bottlenecks(db: Db, provider: Provider, w: OutcomeWindow, by: BottleneckGroup, orderBy: BottleneckOrder, p: PageArgs): Promise<Array<Keyed<Bottleneck>>> {
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

// --- trends ------------------------------------------------------------------------------------

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

/** Milliseconds since the epoch of a DateTime column, as an integer. */
function epochMs(provider: Provider, column: Sql): Sql {
  // SQLite keeps DateTime as ISO text; julianday is a double a few microseconds off, so it is rounded.
  return provider === 'postgresql'
    ? Prisma.sql`CAST(FLOOR(EXTRACT(EPOCH FROM ${column}) * 1000) AS BIGINT)`
    : Prisma.sql`CAST(ROUND((julianday(${column}) - 2440587.5) * 86400000.0) AS INTEGER)`;
}

/** Runs, success rate and mean duration per UTC hour, day or week (from Monday) that has runs, oldest first. */
export async function trend(db: Db, provider: Provider, w: OutcomeWindow, bucket: TrendBucket, p: PageArgs): Promise<Array<Keyed<TrendPoint>>> {
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

// --- error correlation -----------------------------------------------------------------------

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

export function checkCorrelationOptions(o: CorrelationOptions): void {
  const c = new Checker();
  c.range(o.minSharedItems, ['minSharedItems'], 1, 1_000_000, true);
  c.range(o.alertThreshold, ['alertThreshold'], -1, 1);
  c.done();
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
export async function errorCorrelation(db: Db, provider: Provider, w: OutcomeWindow, o: CorrelationOptions, p: PageArgs): Promise<Array<Keyed<ErrorCorrelation>>> {
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
