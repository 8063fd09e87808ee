// outcomeAnalytics: success rates, durations, bottlenecks, trends and error correlation of the
// outcomes of a scope, each a field computed by one statement of the service (SQL in analytics.*.ts).
import DataLoader from 'dataloader';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { SCOPE_TYPENAMES } from '../../graphql/ids.ts';
import { PAGING, cursorConnection } from '../../graphql/paging.ts';
import type { CursorPage } from '../../domain/cursors.ts';
import { can } from '../../graphql/rules.ts';
import type { Context } from '../../context.ts';
import type { Task } from '../../generated/sqlite/client.ts';
import { TaskRef } from '../tasks/tasks.schema.ts';
import { scopeOf } from './outcomes.schema.ts';
import {
  HISTOGRAM_BOUNDS,
  bottlenecks,
  checkCorrelationOptions,
  checkWindow,
  readableWindow,
  durationDistribution,
  errorCorrelation,
  successRates,
  trend,
  type Bottleneck,
  type BottleneckGroup,
  type Distribution,
  type ErrorCorrelation,
  type Keyed,
  type OutcomeWindow,
  type SuccessRate,
  type TrendPoint,
} from './outcomes.service.ts';

/** The window an analytics answer covers, with a loader for the tasks its bottlenecks name. */
interface Analytics {
  window: OutcomeWindow;
  tasks: DataLoader<string, Task | null>;
}

const OutcomeWindowInput = builder.inputType('OutcomeWindowInput', {
  description: 'Which outcomes the analytics cover.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope.' }),
    includeDescendants: t.boolean({ required: true, defaultValue: true, description: 'Also the scopes below it (default true: a project\'s figures include its sessions\').' }),
    since: t.field({ type: 'DateTime', description: 'Only runs that finished at or after this time.' }),
    until: t.field({ type: 'DateTime', description: 'Only runs that finished before this time.' }),
    subtaskType: t.string({ description: 'Only runs of this subtask type.' }),
  }),
});

const RateGroupEnum = builder.enumType('OutcomeRateGroup', {
  description: 'What success rates are computed per.',
  values: { SUBTASK_TYPE: { description: 'Per subtask type.' }, AGENT: { description: 'Per agent.' } },
});

const RateOrderEnum = builder.enumType('OutcomeRateOrder', {
  description: 'How success rates are ordered (ties: more runs first, then by key).',
  values: {
    RUNS_DESC: { description: 'Most runs first.' },
    RUNS_ASC: { description: 'Fewest runs first.' },
    RATE_ASC: { description: 'Lowest success rate first: where work fails.' },
    RATE_DESC: { description: 'Highest success rate first.' },
  },
});

const BottleneckGroupEnum = builder.enumType('OutcomeBottleneckGroup', {
  description: 'What bottlenecks are ranked per.',
  values: { TASK: { description: 'Per task (runs naming one).' }, SUBTASK_TYPE: { description: 'Per subtask type.' } },
});

const BottleneckOrderEnum = builder.enumType('OutcomeBottleneckOrder', {
  description: 'How bottlenecks are ranked, largest first (ties by the other measure, then by key).',
  values: { TOTAL_DURATION: { description: 'Total time spent.' }, FAILURES: { description: 'Failed runs.' } },
});

const TrendBucketEnum = builder.enumType('OutcomeTrendBucket', {
  description: 'The width of a trend\'s time buckets (UTC).',
  values: { HOUR: { description: 'An hour.' }, DAY: { description: 'A day.' }, WEEK: { description: 'A week, from Monday.' } },
});

const SuccessRateRef = builder.objectRef<Keyed<SuccessRate>>('OutcomeSuccessRate').implement({
  description: 'How the runs of one subtask type or agent went.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The subtask type or agent.' }),
    runs: t.exposeInt('runs', { description: 'Runs.' }),
    successes: t.exposeInt('successes', { description: 'Runs that succeeded.' }),
    failures: t.exposeInt('failures', { description: 'Runs that failed.' }),
    successRate: t.exposeFloat('successRate', { description: 'successes / runs.' }),
    meanDurationMs: t.exposeFloat('meanDurationMs', { description: 'Mean duration (ms).' }),
    p50DurationMs: t.exposeFloat('p50DurationMs', { description: 'Median duration (ms; linear interpolation, as percentile_cont).' }),
    p95DurationMs: t.exposeFloat('p95DurationMs', { description: '95th percentile of the duration (ms).' }),
    totalDurationMs: t.exposeFloat('totalDurationMs', { description: 'Time spent in all runs (ms).' }),
    tokens: t.exposeFloat('tokens', { nullable: true, description: 'Tokens used by the runs that reported them (null: none did).' }),
  }),
});

const HistogramBucketRef = builder.objectRef<Distribution['histogram'][number]>('OutcomeHistogramBucket').implement({
  description: 'Runs whose duration falls in [lowerMs, upperMs).',
  fields: (t) => ({
    lowerMs: t.exposeFloat('lowerMs', { description: 'The bucket\'s lower bound (ms, included).' }),
    upperMs: t.exposeFloat('upperMs', { nullable: true, description: 'Its upper bound (ms, excluded; null for the last bucket).' }),
    count: t.exposeInt('count', { description: 'Runs in it.' }),
  }),
});

const DistributionRef = builder.objectRef<Distribution>('OutcomeDurations').implement({
  description: 'How long runs took: percentiles (linear interpolation, as percentile_cont) and a log-scale histogram. Null figures: no runs.',
  fields: (t) => ({
    runs: t.exposeInt('runs', { description: 'Runs.' }),
    minMs: t.exposeFloat('minMs', { nullable: true, description: 'The shortest (ms).' }),
    maxMs: t.exposeFloat('maxMs', { nullable: true, description: 'The longest (ms).' }),
    meanMs: t.exposeFloat('meanMs', { nullable: true, description: 'The mean (ms).' }),
    p50Ms: t.exposeFloat('p50Ms', { nullable: true, description: 'The median (ms).' }),
    p90Ms: t.exposeFloat('p90Ms', { nullable: true, description: 'The 90th percentile (ms).' }),
    p95Ms: t.exposeFloat('p95Ms', { nullable: true, description: 'The 95th percentile (ms).' }),
    p99Ms: t.exposeFloat('p99Ms', { nullable: true, description: 'The 99th percentile (ms).' }),
    histogram: t.field({
      type: [HistogramBucketRef],
      description: `Counts per duration bucket, in 1-2-5 steps (${HISTOGRAM_BOUNDS.slice(0, 6).join(', ')}, ... ms), from the first bucket holding a run to the last.`,
      resolve: (d) => d.histogram,
    }),
  }),
});

const BottleneckRef = builder.objectRef<Keyed<Bottleneck> & { tasks: Analytics['tasks']; by: BottleneckGroup }>('OutcomeBottleneck').implement({
  description: 'Where time goes and work fails: one task or subtask type.',
  fields: (t) => ({
    key: t.string({ description: 'The subtask type, or the task\'s ID.', resolve: (b) => (b.by === 'TASK' ? encodeGlobalID('Task', b.key) : b.key) }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'The task (per TASK; null when it was deleted).',
      resolve: (b) => (b.by === 'TASK' ? b.tasks.load(b.key) : null),
    }),
    runs: t.exposeInt('runs', { description: 'Runs.' }),
    failures: t.exposeInt('failures', { description: 'Runs that failed.' }),
    totalDurationMs: t.exposeFloat('totalDurationMs', { description: 'Time spent in all runs (ms).' }),
    meanDurationMs: t.exposeFloat('meanDurationMs', { description: 'Mean duration (ms).' }),
    tokens: t.exposeFloat('tokens', { nullable: true, description: 'Tokens used (null: no run reported them).' }),
  }),
});

const TrendPointRef = builder.objectRef<Keyed<TrendPoint>>('OutcomeTrendPoint').implement({
  description: 'The runs of one time bucket.',
  fields: (t) => ({
    start: t.field({ type: 'DateTime', description: 'Where the bucket starts (UTC).', resolve: (p) => new Date(p.startMs) }),
    runs: t.exposeInt('runs', { description: 'Runs that finished in it.' }),
    successes: t.exposeInt('successes', { description: 'Runs that succeeded.' }),
    failures: t.exposeInt('failures', { description: 'Runs that failed.' }),
    successRate: t.exposeFloat('successRate', { description: 'successes / runs.' }),
    meanDurationMs: t.exposeFloat('meanDurationMs', { description: 'Mean duration (ms).' }),
  }),
});

const CorrelationRef = builder.objectRef<Keyed<ErrorCorrelation>>('AgentErrorCorrelation').implement({
  description: 'Two agents that ran the same work items: how often both failed against what independent failures would predict.',
  fields: (t) => ({
    agentA: t.exposeString('agentA', { description: 'One agent (the first by name).' }),
    agentB: t.exposeString('agentB', { description: 'The other.' }),
    sharedItems: t.exposeInt('sharedItems', { description: 'Items both ran (an agent failed an item when any of its runs on it failed).' }),
    bothFailed: t.exposeInt('bothFailed', { description: 'Shared items both failed.' }),
    expectedBothFailed: t.exposeFloat('expectedBothFailed', { description: 'What independence predicts: failuresA * failuresB / sharedItems.' }),
    failuresA: t.exposeInt('failuresA', { description: 'Shared items agentA failed.' }),
    failuresB: t.exposeInt('failuresB', { description: 'Shared items agentB failed.' }),
    failureRateA: t.float({ description: 'failuresA / sharedItems.', resolve: (c) => c.failuresA / c.sharedItems }),
    failureRateB: t.float({ description: 'failuresB / sharedItems.', resolve: (c) => c.failuresB / c.sharedItems }),
    phi: t.exposeFloat('phi', {
      nullable: true,
      description: 'Phi coefficient of the two agents\' failures on the shared items: 0 independent, 1 they fail on exactly the same items, below 0 they fail on different ones. Null when one failed all or none of them.',
    }),
    alert: t.exposeBoolean('alert', { description: 'phi reached alertThreshold: their errors are not decorrelated, so votes between them confirm less than they seem to.' }),
  }),
});

/** A connection field of OutcomeAnalytics paged by keyset over one analytics answer. */
function pageOf<T extends { cursor: string }>(args: { first?: number | null; last?: number | null; after?: string | null; before?: string | null }, load: (p: CursorPage) => Promise<T[]>) {
  return cursorConnection(args, (row: T) => row.cursor, load);
}

const AnalyticsRef = builder.objectRef<Analytics>('OutcomeAnalytics').implement({
  description: 'Analytics of the outcomes of a scope in a window, computed by the database.',
  fields: (t) => ({
    successRates: t.connection(
      {
        type: SuccessRateRef,
        description: 'Success rate, durations and tokens per subtask type or agent.',
        args: {
          by: t.arg({ type: RateGroupEnum, required: true, defaultValue: 'SUBTASK_TYPE', description: 'Per subtask type (default) or agent.' }),
          orderBy: t.arg({ type: RateOrderEnum, required: true, defaultValue: 'RUNS_DESC', description: 'The order (default: most runs first).' }),
        },
        ...PAGING,
        resolve: (a, args, ctx) => pageOf(args, (p) => successRates(ctx.db, ctx.provider, a.window, args.by, args.orderBy, p)),
      },
      { name: 'OutcomeSuccessRatesConnection', description: 'Page of success rates.' },
      { name: 'OutcomeSuccessRatesEdge', description: 'A success rate.' },
    ),
    durations: t.field({
      type: DistributionRef,
      description: 'The distribution of the runs\' durations (narrow to a subtask type with the window\'s subtaskType).',
      resolve: (a, _args, ctx) => durationDistribution(ctx.db, ctx.provider, a.window),
    }),
    bottlenecks: t.connection(
      {
        type: BottleneckRef,
        description: 'Tasks or subtask types ranked by total time spent or by failures.',
        args: {
          by: t.arg({ type: BottleneckGroupEnum, required: true, defaultValue: 'TASK', description: 'Per task (default) or subtask type.' }),
          orderBy: t.arg({ type: BottleneckOrderEnum, required: true, defaultValue: 'TOTAL_DURATION', description: 'The ranking (default: total time).' }),
        },
        ...PAGING,
        resolve: (a, args, ctx) =>
          pageOf(args, async (p) =>
            (await bottlenecks(ctx.db, ctx.provider, a.window, args.by, args.orderBy, p)).map((b) => ({ ...b, tasks: a.tasks, by: args.by })),
          ),
      },
      { name: 'OutcomeBottlenecksConnection', description: 'Page of bottlenecks.' },
      { name: 'OutcomeBottlenecksEdge', description: 'A bottleneck.' },
    ),
    trend: t.connection(
      {
        type: TrendPointRef,
        description: 'Runs, success rate and mean duration per time bucket that has runs, oldest first.',
        args: { bucket: t.arg({ type: TrendBucketEnum, required: true, defaultValue: 'DAY', description: 'The bucket width (default DAY).' }) },
        ...PAGING,
        resolve: (a, args, ctx) => pageOf(args, (p) => trend(ctx.db, ctx.provider, a.window, args.bucket, p)),
      },
      { name: 'OutcomeTrendConnection', description: 'Page of trend buckets.' },
      { name: 'OutcomeTrendEdge', description: 'A trend bucket.' },
    ),
    errorCorrelation: t.connection(
      {
        type: CorrelationRef,
        description:
          'Pairs of agents that ran the same items (itemKey), the most correlated failures first: MDAP\'s voting relies on decorrelated errors, so an alert marks a pair whose agreement is worth less.',
        args: {
          minSharedItems: t.arg.int({ required: true, defaultValue: 10, description: 'Only pairs that ran at least this many items in common (default 10).' }),
          alertThreshold: t.arg.float({ required: true, defaultValue: 0.5, description: 'Alert when phi reaches this (-1 to 1, default 0.5).' }),
          alertsOnly: t.arg.boolean({ required: true, defaultValue: false, description: 'Only pairs that raise the alert.' }),
        },
        ...PAGING,
        resolve: (a, args, ctx) => {
          const options = { minSharedItems: args.minSharedItems, alertThreshold: args.alertThreshold, alertsOnly: args.alertsOnly };
          checkCorrelationOptions(options);
          return pageOf(args, (p) => errorCorrelation(ctx.db, ctx.provider, a.window, options, p));
        },
      },
      { name: 'AgentErrorCorrelationConnection', description: 'Page of agent pairs.' },
      { name: 'AgentErrorCorrelationEdge', description: 'A pair of agents.' },
    ),
  }),
});

builder.queryField('outcomeAnalytics', (t) =>
  t.field({
    type: AnalyticsRef,
    description: 'Success rates, durations, bottlenecks, trends and error correlation of the outcomes recorded in a scope (READ on the scope).',
    args: { input: t.arg({ type: OutcomeWindowInput, required: true, description: 'The scope and window.' }) },
    authScopes: (_root, { input }) => can('READ', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    resolve: async (_root, { input }, ctx: Context) => {
      const asked: OutcomeWindow = {
        scopeId: scopeOf(input),
        includeDescendants: input.includeDescendants,
        since: input.since ?? null,
        until: input.until ?? null,
        subtaskType: input.subtaskType ?? null,
      };
      checkWindow(asked);
      const window = await readableWindow(ctx.access, asked);
      // Tasks named by a page of bottlenecks, in one statement. They are of the scope or below it
      // (recordOutcome checks), which the caller reads.
      const tasks = new DataLoader<string, Task | null>(async (ids) => {
        const found = await ctx.db.task.findMany({ where: { id: { in: [...ids] } } });
        const byId = new Map(found.map((task) => [task.id, task]));
        return ids.map((id) => byId.get(id) ?? null);
      }, { cache: false });
      return { window, tasks };
    },
  }),
);
