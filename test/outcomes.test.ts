// Outcome analytics (issue 16, third part): outcomes of runs recorded one at a time or in batches,
// and success rates, durations, bottlenecks, trends and error correlation computed in SQL, with
// the same numbers on SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { HISTOGRAM_BOUNDS } from '../src/modules/outcomes/outcomes.service.ts';
import { as, ok, principal } from './support/access.ts';
import { startSession } from './support/ops.ts';
import { DB_KIND, fewestStatements, useHarness } from './support/harness.ts';

const h = useHarness();

const ERRORS = `... on UserError { code message path } ... on ValidationError { issues { path message } }`;
const RECORD = `mutation ($input: RecordOutcomeInput!) { recordOutcome(input: $input) { __typename ... on RecordOutcomeSuccess { outcome { agent success errorKind durationMs tokens task recordedBy occurredAt } } ${ERRORS} } }`;
const RECORD_MANY = `mutation ($input: RecordOutcomesInput!) { recordOutcomes(input: $input) { __typename ... on RecordOutcomesSuccess { outcomes { agent } } ${ERRORS} } }`;
const PAGE = 'pageInfo { hasNextPage endCursor }';

async function project(name: string, organization?: string): Promise<string> {
  const made = await ok(h, null, 'mutation ($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }', { n: name, o: organization });
  return made.createProject.project.id;
}
async function organization(name: string): Promise<string> {
  return (await ok(h, null, 'mutation ($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }', { n: name })).createOrganization.organization.id;
}
async function task(scope: string, title: string): Promise<string> {
  return (await ok(h, null, 'mutation ($s: ID!, $t: String!) { createTask(input: { scope: $s, title: $t }) { ... on CreateTaskSuccess { task { id } } } }', { s: scope, t: title })).createTask.task.id;
}

async function record(query: string, input: Record<string, unknown>, agent: string | null = 'agent:orchestrator'): Promise<any> {
  const answer = await as(h, null, query, { input }, agent ? { 'x-engram-actor': agent } : {});
  expect(answer.errors).toBeUndefined();
  return Object.values(answer.data!)[0];
}

async function analytics(input: Record<string, unknown>, selection: string, variables: Record<string, unknown> = {}): Promise<any> {
  const declared = Object.keys(variables).map((k) => `, $${k}: ${VARIABLE_TYPES[k]}`).join('');
  const data = await ok(h, null, `query ($input: OutcomeWindowInput!${declared}) { outcomeAnalytics(input: $input) { ${selection} } }`, { input, ...variables });
  return data.outcomeAnalytics;
}
const VARIABLE_TYPES: Record<string, string> = { first: 'Int', after: 'String', last: 'Int', before: 'String' };

// --- the fixture --------------------------------------------------------------------------------

const BASE = Date.UTC(2025, 2, 3); // a Monday
const HOUR = 3_600_000;
const AGENTS = ['agent:a', 'agent:b', 'agent:c', 'agent:d'];

interface Row {
  subtaskType: string;
  agent: string;
  itemKey: string | null;
  success: boolean;
  durationMs: number;
  tokens: number;
  at: number;
  task: 1 | 2 | null;
  inChild: boolean;
}

/**
 * 80 "solve" runs in an organization: each agent runs items 1..20, every six hours from BASE (a day
 * holds four items); a and b fail items 1-5 (the same ones), c fails 6-10, d fails 11-15; items
 * 1-10 belong to task 1, 11-20 to task 2. Plus 4 "review" runs by a in a project of the
 * organization, 8 days later.
 */
function fixture(): Row[] {
  const fails: Record<string, (i: number) => boolean> = {
    'agent:a': (i) => i <= 5,
    'agent:b': (i) => i <= 5,
    'agent:c': (i) => i >= 6 && i <= 10,
    'agent:d': (i) => i >= 11 && i <= 15,
  };
  const rows: Row[] = [];
  AGENTS.forEach((agent, k) => {
    for (let i = 1; i <= 20; i++) {
      rows.push({ subtaskType: 'solve', agent, itemKey: `item-${i}`, success: !fails[agent]!(i), durationMs: i * 50 + k, tokens: 100, at: BASE + (i - 1) * 6 * HOUR + k * 60_000, task: i <= 10 ? 1 : 2, inChild: false });
    }
  });
  [5_000, 20_000, 0, 2_000_000].forEach((durationMs, j) => {
    rows.push({ subtaskType: 'review', agent: 'agent:a', itemKey: null, success: j === 0 || j === 3, durationMs, tokens: 10, at: BASE + 8 * 24 * HOUR, task: null, inChild: true });
  });
  return rows;
}

/** The SQL's percentile (linear interpolation, the position's parts in integers), in the same double arithmetic. */
function percentile(sorted: number[], pct: number): number {
  const whole = Math.floor((pct * (sorted.length - 1)) / 100);
  const low = sorted[whole]!;
  const high = sorted[whole + 1] ?? low;
  return low + (((pct * (sorted.length - 1)) % 100) / 100) * (high - low);
}

function stats(rows: Row[]) {
  const sorted = rows.map((r) => r.durationMs).sort((a, b) => a - b);
  const successes = rows.filter((r) => r.success).length;
  return {
    runs: rows.length,
    successes,
    failures: rows.length - successes,
    successRate: successes / rows.length,
    meanDurationMs: sorted.reduce((a, b) => a + b, 0) / rows.length,
    p50DurationMs: percentile(sorted, 50),
    p95DurationMs: percentile(sorted, 95),
    totalDurationMs: sorted.reduce((a, b) => a + b, 0),
    tokens: rows.reduce((a, r) => a + r.tokens, 0),
  };
}

interface Fixture {
  scope: string;
  child: string;
  tasks: [string, string];
  rows: Row[];
}

let seeded: Promise<Fixture> | undefined;

/** Records the fixture once per file: the organization's runs in one batch, its project's one by one. */
function seed(): Promise<Fixture> {
  seeded ??= (async () => {
    const scope = await organization('outcomes-fixture');
    const inChild = await project('outcomes-fixture-child', scope);
    const tasks: [string, string] = [await task(scope, 'first half'), await task(inChild, 'second half')];
    const rows = fixture();
    const input = (r: Row) => ({
      subtaskType: r.subtaskType,
      agent: r.agent,
      itemKey: r.itemKey,
      success: r.success,
      errorKind: r.success ? null : 'wrong-answer',
      durationMs: r.durationMs,
      tokens: r.tokens,
      occurredAt: new Date(r.at).toISOString(),
      task: r.task ? tasks[r.task - 1] : null,
    });
    const batch = await record(RECORD_MANY, { scope, outcomes: rows.filter((r) => !r.inChild).map(input) });
    expect(batch.__typename).toBe('RecordOutcomesSuccess');
    for (const r of rows.filter((r) => r.inChild)) expect((await record(RECORD, { scope: inChild, ...input(r) })).__typename).toBe('RecordOutcomeSuccess');
    return { scope, child: inChild, tasks, rows };
  })();
  return seeded;
}

const RATE = 'key runs successes failures successRate meanDurationMs p50DurationMs p95DurationMs totalDurationMs tokens';

describe('recording outcomes', () => {
  it('records one outcome with defaults: the agent is the caller\'s actor, occurredAt now', async () => {
    const scope = await project('outcomes-one');
    const before = Date.now();
    const one = await record(RECORD, { scope, subtaskType: 'parse', success: false, errorKind: 'timeout', durationMs: 1_200 }, 'agent:w1');
    expect(one).toMatchObject({ __typename: 'RecordOutcomeSuccess', outcome: { agent: 'agent:w1', recordedBy: 'agent:w1', success: false, errorKind: 'timeout', durationMs: 1_200, tokens: null, task: null } });
    expect(Date.parse(one.outcome.occurredAt)).toBeGreaterThanOrEqual(before - 1);
    // Named, the agent is any label (an orchestrator records its workers' runs).
    expect((await record(RECORD, { scope, subtaskType: 'parse', success: true, durationMs: 5, agent: 'worker-7' }, 'agent:orch')).outcome).toMatchObject({ agent: 'worker-7', recordedBy: 'agent:orch' });
  });

  it('refuses bad input with typed errors, naming the field', async () => {
    const scope = await project('outcomes-invalid');
    const base = { scope, subtaskType: 'parse', success: true, durationMs: 10 };
    const refused = async (input: Record<string, unknown>, agent: string | null = 'agent:w') => {
      const answer = await record(RECORD, input, agent);
      expect(answer.__typename).toBe('ValidationError');
      return answer.issues.map((i: { path: string[] }) => i.path.join('.'));
    };
    expect(await refused({ ...base, errorKind: 'timeout' })).toEqual(['input.errorKind']);
    expect(await refused({ ...base, durationMs: 7 * 86_400_000 + 1 })).toEqual(['input.durationMs']);
    expect(await refused({ ...base, durationMs: -1 })).toEqual(['input.durationMs']);
    expect(await refused({ ...base, tokens: -5 })).toEqual(['input.tokens']);
    expect(await refused({ ...base, occurredAt: new Date(Date.now() + HOUR).toISOString() })).toEqual(['input.occurredAt']);
    expect(await refused({ ...base, subtaskType: ' ' })).toEqual(['input.subtaskType']);
    expect(await refused({ ...base, itemKey: 'x'.repeat(201) })).toEqual(['input.itemKey']);
    expect(await refused(base, null)).toEqual(['input.agent']);
    // 7 days exactly, and a clock a minute ahead, are fine.
    expect((await record(RECORD, { ...base, durationMs: 7 * 86_400_000, occurredAt: new Date(Date.now() + 60_000).toISOString() })).__typename).toBe('RecordOutcomeSuccess');
  });

  it('a task must be one of the scope or a scope below it', async () => {
    const scope = await organization('outcomes-tasks');
    const below = await task(await project('outcomes-tasks-below', scope), 'below');
    const elsewhere = await task(await project('outcomes-tasks-other'), 'elsewhere');
    const base = { scope, subtaskType: 'edit', success: true, durationMs: 10 };
    expect((await record(RECORD, { ...base, task: below })).outcome.task).toBe(below);
    expect(await record(RECORD, { ...base, task: elsewhere })).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'task'] });
  });

  it('a batch is all or nothing; an error names the bad item\'s index', async () => {
    const scope = await project('outcomes-batch');
    const other = await task(await project('outcomes-batch-other'), 'other');
    const good = (n: number) => Array.from({ length: n }, (_, i) => ({ subtaskType: 'step', agent: `agent:${i % 7}`, itemKey: `i${i}`, success: i % 3 !== 0, durationMs: i }));
    const runs = async () => (await analytics({ scope }, 'durations { runs }')).durations.runs;

    const bad = good(10);
    bad[3] = { ...bad[3]!, durationMs: -1 };
    bad[6] = { ...bad[6]!, success: true, errorKind: 'oops' } as (typeof bad)[number];
    const invalid = await record(RECORD_MANY, { scope, outcomes: bad });
    expect(invalid.__typename).toBe('ValidationError');
    expect(invalid.issues.map((i: { path: string[] }) => i.path.join('.'))).toEqual(['input.outcomes.3.durationMs', 'input.outcomes.6.errorKind']);
    const unknownTask = good(1000);
    unknownTask[998] = { ...unknownTask[998]!, task: other } as (typeof bad)[number];
    expect(await record(RECORD_MANY, { scope, outcomes: unknownTask })).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'outcomes', '998', 'task'] });
    expect(await record(RECORD_MANY, { scope, outcomes: good(1001) })).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'outcomes'] }] });
    expect(await record(RECORD_MANY, { scope, outcomes: [] })).toMatchObject({ __typename: 'ValidationError' });
    expect(await runs()).toBe(0);

    // 1000 in one transaction: one INSERT, before its transaction's COMMIT (the audit row follows
    // in its own), and no more statements than 10 take. The fewest of three runs: the scope's
    // chain and grants are cached a second, which a run can outlast on a loaded machine (it then
    // pays one more read).
    const recorded = (n: number) => async () => expect((await record(RECORD_MANY, { scope, outcomes: good(n) })).outcomes).toHaveLength(n);
    const ten = (await fewestStatements(h, recorded(10))).count;
    const thousand = (await fewestStatements(h, recorded(1000))).count;
    const at = (pattern: RegExp) => h.statements.flatMap((q, i) => (pattern.test(q) ? [i] : []));
    const [commits, inserts] = [at(/^\s*COMMIT/i), at(/INSERT INTO\s+\W*(main\W*\.)?\W*Outcome\W/i)];
    console.log(`[${DB_KIND}] batch statements: ${ten} for 10, ${thousand} for 1000`);
    expect(inserts).toHaveLength(1);
    expect(inserts[0]!).toBeLessThan(commits[0]!);
    expect(thousand).toBe(ten);
    expect(await runs()).toBe(3 * 10 + 3 * 1000);
  });

  it('READ may query but not record; WRITE records; no grant reads nothing', async () => {
    const scope = await project('outcomes-access');
    const reader = await principal(h, 'outcome-reader', { grants: [[scope, 'READ']] });
    const writer = await principal(h, 'outcome-writer', { grants: [[scope, 'WRITE']] });
    const stranger = await principal(h, 'outcome-stranger');
    const item = { subtaskType: 'x', success: true, durationMs: 1 };
    const input = { scope, ...item };
    expect((await as(h, reader.key, RECORD, { input })).data!.recordOutcome.__typename).toBe('PermissionDeniedError');
    expect((await as(h, reader.key, RECORD_MANY, { input: { scope, outcomes: [item] } })).data!.recordOutcomes.__typename).toBe('PermissionDeniedError');
    expect((await as(h, writer.key, RECORD, { input })).data!.recordOutcome).toMatchObject({ __typename: 'RecordOutcomeSuccess', outcome: { agent: 'agent:outcome-writer' } });
    const query = 'query ($i: OutcomeWindowInput!) { outcomeAnalytics(input: $i) { durations { runs } } }';
    expect((await as(h, reader.key, query, { i: { scope } })).data!.outcomeAnalytics.durations.runs).toBe(1);
    const denied = await as(h, stranger.key, query, { i: { scope } });
    expect(denied.data?.outcomeAnalytics ?? null).toBeNull();
    expect(denied.errors!.map((e) => e.extensions.code)).toEqual([expect.stringMatching(/FORBIDDEN|NOT_FOUND/)]);
    // Below a scope the caller reads (global, readable by every key) are scopes it may not read:
    // their outcomes do not count (they did, for every key).
    const other = await project('outcomes-other');
    const mine = { subtaskType: 'leak-check', success: true, durationMs: 5 };
    await record(RECORD, { scope, ...mine });
    await record(RECORD, { scope: other, ...mine });
    await record(RECORD, { scope: other, ...mine });
    const global = Buffer.from('GlobalScope:global').toString('base64');
    const below = { i: { scope: global, subtaskType: 'leak-check' } };
    expect((await as(h, reader.key, query, below)).data!.outcomeAnalytics.durations.runs).toBe(1);
    expect((await ok(h, null, query, below)).outcomeAnalytics.durations.runs).toBe(3);
    // A grant on an organization reads its projects and their sessions (two levels below it), and
    // nothing of another organization's, whichever scope the window starts from.
    const org = await organization('outcomes-org');
    const orgProject = await project('outcomes-org-project', org);
    const session = await startSession(h, orgProject);
    const elsewhere = await startSession(h, await project('outcomes-elsewhere', await organization('outcomes-org-2')));
    for (const s of [org, orgProject, session, session, elsewhere]) await record(RECORD, { scope: s, ...mine });
    const orgReader = await principal(h, 'outcome-org-reader', { grants: [[org, 'READ']] });
    expect((await as(h, orgReader.key, query, below)).data!.outcomeAnalytics.durations.runs).toBe(4);
    expect((await as(h, orgReader.key, query, { i: { scope: orgProject, subtaskType: 'leak-check' } })).data!.outcomeAnalytics.durations.runs).toBe(3);
    expect((await ok(h, null, query, below)).outcomeAnalytics.durations.runs).toBe(8);
    // Recording is audited like every mutation.
    const audit = await ok(h, null, '{ auditEvents(filter: { operation: "recordOutcome" }, first: 100) { edges { node { outcome principalName } } } }');
    expect(audit.auditEvents.edges.map((e: any) => [e.node.principalName, e.node.outcome])).toEqual(expect.arrayContaining([['outcome-reader', 'DENIED'], ['outcome-writer', 'OK']]));
  });
});

describe('an unknown scope', () => {
  it('is NOT_FOUND to an admin as to a grant holder, with or without the scopes below it', async () => {
    const scope = await project('outcomes-unknown-scope');
    const ghost = Buffer.from('Project:00000000-0000-7000-8000-000000000000').toString('base64');
    const reader = await principal(h, 'outcome-unknown-reader', { grants: [[scope, 'READ']] });
    const admin = await principal(h, 'outcome-unknown-admin', { admin: true });
    const query = 'query ($i: OutcomeWindowInput!) { outcomeAnalytics(input: $i) { successRates { edges { node { key } } } durations { runs } } }';
    for (const includeDescendants of [true, false]) {
      // The local admin (no key), an admin principal, a holder of READ elsewhere.
      for (const key of [null, admin.key, reader.key]) {
        const answer = await as(h, key, query, { i: { scope: ghost, includeDescendants } });
        expect(answer.data?.outcomeAnalytics ?? null).toBeNull();
        expect(answer.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
          { message: 'No scope has this id', extensions: { code: 'NOT_FOUND', inputPath: ['input', 'scope'] } },
        ]);
      }
    }
    // A scope that exists, without outcomes: empty figures for both.
    for (const key of [null, admin.key, reader.key]) {
      expect((await as(h, key, query, { i: { scope } })).data!.outcomeAnalytics).toEqual({ successRates: { edges: [] }, durations: { runs: 0 } });
    }
  });
});

describe('outcome analytics', () => {
  it('success rates per subtask type and per agent, with percentiles, in every order', async () => {
    const f = await seed();
    const rates = async (by: string, orderBy: string, window: Record<string, unknown> = {}) =>
      (await analytics({ scope: f.scope, ...window }, `successRates(by: ${by}, orderBy: ${orderBy}) { edges { node { ${RATE} } } }`)).successRates.edges.map((e: any) => e.node);
    const expected = (key: string, rows: Row[]) => ({ key, ...stats(rows) });
    const ofType = (t: string) => f.rows.filter((r) => r.subtaskType === t);
    const ofAgent = (a: string) => f.rows.filter((r) => r.agent === a);

    expect(await rates('SUBTASK_TYPE', 'RUNS_DESC')).toEqual([expected('solve', ofType('solve')), expected('review', ofType('review'))]);
    // Hand-checked: solve fails 20 of 80; review's durations 0, 5000, 20000, 2000000.
    expect((await rates('SUBTASK_TYPE', 'RATE_ASC'))[0]).toMatchObject({ key: 'review', runs: 4, successes: 2, successRate: 0.5, p50DurationMs: 12_500, p95DurationMs: percentile([0, 5_000, 20_000, 2_000_000], 95) });
    expect((await rates('SUBTASK_TYPE', 'RATE_DESC'))[0]).toMatchObject({ key: 'solve', runs: 80, failures: 20, successRate: 0.75, tokens: 8_000 });
    expect((await rates('AGENT', 'RATE_ASC')).map((r: any) => [r.key, r.runs, r.successes])).toEqual([
      ['agent:a', 24, 17],
      ['agent:b', 20, 15],
      ['agent:c', 20, 15],
      ['agent:d', 20, 15],
    ]);
    expect(await rates('AGENT', 'RUNS_ASC')).toEqual(['agent:b', 'agent:c', 'agent:d', 'agent:a'].map((a) => expected(a, ofAgent(a))));
    // Only the organization (its project holds the review runs), and only a window.
    expect((await rates('SUBTASK_TYPE', 'RUNS_DESC', { includeDescendants: false })).map((r: any) => r.key)).toEqual(['solve']);
    const late = await rates('SUBTASK_TYPE', 'RUNS_DESC', { since: new Date(BASE + 7 * 24 * HOUR).toISOString() });
    expect(late.map((r: any) => [r.key, r.runs])).toEqual([['review', 4]]);
    const firstDay = await rates('AGENT', 'RUNS_DESC', { until: new Date(BASE + 24 * HOUR).toISOString(), subtaskType: 'solve' });
    expect(firstDay.map((r: any) => [r.key, r.runs, r.failures])).toEqual([['agent:a', 4, 4], ['agent:b', 4, 4], ['agent:c', 4, 0], ['agent:d', 4, 0]]);
  });

  it('percentiles are those of PostgreSQL\'s percentile_cont, on both databases', async () => {
    const f = await seed();
    const d = (await analytics({ scope: f.scope, subtaskType: 'solve' }, 'durations { runs p50Ms p90Ms p95Ms p99Ms }')).durations;
    const sorted = f.rows.filter((r) => r.subtaskType === 'solve').map((r) => r.durationMs).sort((a, b) => a - b);
    expect(d).toEqual({ runs: 80, p50Ms: percentile(sorted, 50), p90Ms: percentile(sorted, 90), p95Ms: percentile(sorted, 95), p99Ms: percentile(sorted, 99) });
    // Hand-checked: position 0.5 * 79 = 39.5, halfway from the 40th duration (item 10 of agent d: 503) to the 41st (item 11 of a: 550).
    expect(d.p50Ms).toBe(526.5);
    if (DB_KIND === 'postgresql') {
      const [cont] = await h.database.prisma.$queryRaw<Array<Record<string, number>>>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY "durationMs") AS p50, percentile_cont(0.9) WITHIN GROUP (ORDER BY "durationMs") AS p90,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS p95, percentile_cont(0.99) WITHIN GROUP (ORDER BY "durationMs") AS p99
        FROM "Outcome" o JOIN "Scope" s ON s."id" = o."scopeId" WHERE o."subtaskType" = 'solve' AND s."name" = 'outcomes-fixture'`;
      for (const p of ['50', '90', '95', '99']) expect(d[`p${p}Ms`]).toBeCloseTo(cont![`p${p}`]!, 9);
    }
  });

  it('a log-scale histogram of durations, contiguous from the first bucket holding a run to the last', async () => {
    const f = await seed();
    const review = (await analytics({ scope: f.scope, subtaskType: 'review' }, 'durations { runs minMs maxMs meanMs histogram { lowerMs upperMs count } }')).durations;
    expect(review).toMatchObject({ runs: 4, minMs: 0, maxMs: 2_000_000, meanMs: 506_250 });
    expect(review.histogram).toHaveLength(21);
    expect(review.histogram[0]).toEqual({ lowerMs: 0, upperMs: 1, count: 1 });
    expect(review.histogram.filter((b: any) => b.count > 0)).toEqual([
      { lowerMs: 0, upperMs: 1, count: 1 },
      { lowerMs: 5_000, upperMs: 10_000, count: 1 },
      { lowerMs: 20_000, upperMs: 50_000, count: 1 },
      { lowerMs: 2_000_000, upperMs: 5_000_000, count: 1 },
    ]);
    const all = (await analytics({ scope: f.scope }, 'durations { runs histogram { lowerMs count } }')).durations;
    const bucketOf = (d: number) => HISTOGRAM_BOUNDS.findLastIndex((b) => d >= b);
    const counts = new Map<number, number>();
    for (const r of f.rows) counts.set(HISTOGRAM_BOUNDS[bucketOf(r.durationMs)]!, (counts.get(HISTOGRAM_BOUNDS[bucketOf(r.durationMs)]!) ?? 0) + 1);
    expect(all.runs).toBe(84);
    expect(all.histogram.filter((b: any) => b.count > 0)).toEqual([...counts].sort((a, b) => a[0] - b[0]).map(([lowerMs, count]) => ({ lowerMs, count })));
    expect((await analytics({ scope: f.scope, subtaskType: 'none' }, 'durations { runs p50Ms histogram { count } }')).durations).toEqual({ runs: 0, p50Ms: null, histogram: [] });
  });

  it('bottlenecks: tasks and subtask types by total time and by failures', async () => {
    const f = await seed();
    const ranked = async (by: string, orderBy: string) =>
      (await analytics({ scope: f.scope }, `bottlenecks(by: ${by}, orderBy: ${orderBy}) { edges { node { key task { id title } runs failures totalDurationMs meanDurationMs tokens } } }`)).bottlenecks.edges.map((e: any) => e.node);
    const [t1, t2] = f.tasks;
    expect(await ranked('TASK', 'TOTAL_DURATION')).toEqual([
      { key: t2, task: { id: t2, title: 'second half' }, runs: 40, failures: 5, totalDurationMs: 31_060, meanDurationMs: 776.5, tokens: 4_000 },
      { key: t1, task: { id: t1, title: 'first half' }, runs: 40, failures: 15, totalDurationMs: 11_060, meanDurationMs: 276.5, tokens: 4_000 },
    ]);
    expect((await ranked('TASK', 'FAILURES')).map((b: any) => [b.key, b.failures])).toEqual([[t1, 15], [t2, 5]]);
    expect((await ranked('SUBTASK_TYPE', 'TOTAL_DURATION')).map((b: any) => [b.key, b.totalDurationMs, b.task])).toEqual([['review', 2_025_000, null], ['solve', 42_120, null]]);
    expect((await ranked('SUBTASK_TYPE', 'FAILURES')).map((b: any) => [b.key, b.failures])).toEqual([['solve', 20], ['review', 2]]);
  });

  it('trends per day and week, and per hour paged without gaps or duplicates', async () => {
    const f = await seed();
    const points = async (bucket: string) =>
      (await analytics({ scope: f.scope }, `trend(bucket: ${bucket}, first: 100) { edges { node { start runs successes failures successRate meanDurationMs } } }`)).trend.edges.map((e: any) => e.node);
    const expectedPoints = (size: number, offset: number) => {
      const groups = new Map<number, Row[]>();
      for (const r of f.rows) {
        const start = Math.floor((r.at - offset) / size) * size + offset;
        groups.set(start, [...(groups.get(start) ?? []), r]);
      }
      return [...groups].sort((a, b) => a[0] - b[0]).map(([start, rows]) => {
        const s = stats(rows);
        return { start: new Date(start).toISOString(), runs: s.runs, successes: s.successes, failures: s.failures, successRate: s.successRate, meanDurationMs: s.meanDurationMs };
      });
    };
    const days = await points('DAY');
    expect(days).toEqual(expectedPoints(24 * HOUR, 0));
    expect(days.map((d: any) => [d.start.slice(0, 10), d.runs, d.failures])).toEqual([
      ['2025-03-03', 16, 8],
      ['2025-03-04', 16, 5],
      ['2025-03-05', 16, 4],
      ['2025-03-06', 16, 3],
      ['2025-03-07', 16, 0],
      ['2025-03-11', 4, 2],
    ]);
    expect((await points('WEEK')).map((w: any) => [w.start, w.runs])).toEqual([['2025-03-03T00:00:00.000Z', 80], ['2025-03-10T00:00:00.000Z', 4]]);
    const hours = expectedPoints(HOUR, 0);
    expect(hours).toHaveLength(21);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const page: any = (await analytics({ scope: f.scope }, `trend(bucket: HOUR, first: $first, after: $after) { ${PAGE} edges { node { start runs } } }`, { first: 8, after })).trend;
      seen.push(...page.edges.map((e: any) => e.node.start));
      after = page.pageInfo.endCursor;
      if (!page.pageInfo.hasNextPage) break;
    }
    expect(seen).toEqual(hours.map((p) => p.start));
  });

  it('error correlation: agents failing on the same items raise the alert, agents failing on different items do not', async () => {
    const f = await seed();
    const pairs = (await analytics({ scope: f.scope }, `errorCorrelation(alertThreshold: 0.5) { edges { node {
      agentA agentB sharedItems bothFailed expectedBothFailed failuresA failuresB failureRateA failureRateB phi alert } } }`)).errorCorrelation.edges.map((e: any) => e.node);
    expect(pairs[0]).toEqual({ agentA: 'agent:a', agentB: 'agent:b', sharedItems: 20, bothFailed: 5, expectedBothFailed: 1.25, failuresA: 5, failuresB: 5, failureRateA: 0.25, failureRateB: 0.25, phi: 1, alert: true });
    // c and d fail on different items: fewer shared failures than independence predicts.
    expect(pairs.slice(1).map((p: any) => [p.agentA, p.agentB, p.bothFailed, p.alert])).toEqual([
      ['agent:a', 'agent:c', 0, false],
      ['agent:a', 'agent:d', 0, false],
      ['agent:b', 'agent:c', 0, false],
      ['agent:b', 'agent:d', 0, false],
      ['agent:c', 'agent:d', 0, false],
    ]);
    for (const p of pairs.slice(1)) expect(p.phi).toBeCloseTo(-1 / 3, 12);
    const only = await analytics({ scope: f.scope }, 'errorCorrelation(alertsOnly: true) { edges { node { agentA agentB } } }');
    expect(only.errorCorrelation.edges.map((e: any) => e.node)).toEqual([{ agentA: 'agent:a', agentB: 'agent:b' }]);
    // Too few shared items: not listed. In a window of the first day (items 1-4), a and b failed all: phi undefined, no alert.
    expect((await analytics({ scope: f.scope }, 'errorCorrelation(minSharedItems: 21) { edges { node { agentA } } }')).errorCorrelation.edges).toEqual([]);
    const day = await analytics({ scope: f.scope, until: new Date(BASE + 24 * HOUR).toISOString() }, 'errorCorrelation(minSharedItems: 4) { edges { node { agentA agentB phi alert } } }');
    expect(day.errorCorrelation.edges.map((e: any) => e.node)).toEqual([
      { agentA: 'agent:a', agentB: 'agent:b', phi: null, alert: false },
      { agentA: 'agent:a', agentB: 'agent:c', phi: null, alert: false },
      { agentA: 'agent:a', agentB: 'agent:d', phi: null, alert: false },
      { agentA: 'agent:b', agentB: 'agent:c', phi: null, alert: false },
      { agentA: 'agent:b', agentB: 'agent:d', phi: null, alert: false },
      { agentA: 'agent:c', agentB: 'agent:d', phi: null, alert: false },
    ]);
    const bad = await as(h, null, 'query ($s: ID!) { outcomeAnalytics(input: { scope: $s }) { errorCorrelation(alertThreshold: 2) { edges { cursor } } } }', { s: f.scope });
    expect(bad.errors!.map((e) => e.extensions.code)).toEqual(['VALIDATION_FAILED']);
  });

  it('pages forwards and backwards without duplicates or gaps; a foreign cursor is a typed error', async () => {
    const f = await seed();
    const field = (args: string) => `errorCorrelation(${args}) { ${PAGE} pageInfo { hasPreviousPage startCursor } edges { node { agentA agentB } } }`;
    const all = (await analytics({ scope: f.scope }, field('first: 100'))).errorCorrelation.edges.map((e: any) => `${e.node.agentA}/${e.node.agentB}`);
    expect(all).toHaveLength(6);
    const forward: string[] = [];
    let after: string | null = null;
    let page: any;
    do {
      page = (await analytics({ scope: f.scope }, field('first: $first, after: $after'), { first: 4, after })).errorCorrelation;
      forward.push(...page.edges.map((e: any) => `${e.node.agentA}/${e.node.agentB}`));
      after = page.pageInfo.endCursor;
    } while (page.pageInfo.hasNextPage);
    expect(forward).toEqual(all);
    const last = (await analytics({ scope: f.scope }, field('last: $last, before: $before'), { last: 2, before: page.pageInfo.endCursor })).errorCorrelation;
    expect(last.edges.map((e: any) => `${e.node.agentA}/${e.node.agentB}`)).toEqual(all.slice(3, 5));
    const agents = async (after: string | null) =>
      (await analytics({ scope: f.scope }, 'successRates(by: AGENT, orderBy: RATE_DESC, first: $first, after: $after) { pageInfo { hasNextPage endCursor } edges { node { key } } }', { first: 3, after })).successRates;
    const one = await agents(null);
    const two = await agents(one.pageInfo.endCursor);
    expect([...one.edges, ...two.edges].map((e: any) => e.node.key)).toEqual(['agent:b', 'agent:c', 'agent:d', 'agent:a']);
    expect(two.pageInfo.hasNextPage).toBe(false);
    const foreign = await as(h, null, 'query ($s: ID!, $a: String) { outcomeAnalytics(input: { scope: $s }) { successRates(after: $a) { edges { cursor } } } }', { s: f.scope, a: 'bm90IGEgY3Vyc29y' });
    expect(foreign.errors!.map((e) => e.extensions.code)).toEqual(['VALIDATION_FAILED']);
    // A cursor of the right shape whose text holds a NUL (PostgreSQL cannot even compare with one) is not one either.
    for (const arg of ['after', 'before']) {
      const nul = Buffer.from(JSON.stringify([1, 2, 'agent:a\u0000'])).toString('base64url');
      const refused = await as(h, null, `query ($s: ID!, $a: String) { outcomeAnalytics(input: { scope: $s }) { successRates(${arg}: $a) { edges { cursor } } } }`, { s: f.scope, a: nul });
      expect(refused.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
        { message: `${arg}: is not a cursor of this list`, extensions: { code: 'VALIDATION_FAILED', inputPath: [arg] } },
      ]);
    }
  });

  it('first: 0 answers a cursor to go on from (from the start) where rows follow, null where none do; never ""', async () => {
    const f = await seed();
    const PAGES = 'pageInfo { hasNextPage endCursor hasPreviousPage startCursor } edges { node { key } }';
    const rates = async (scope: string, args: string, variables: Record<string, unknown>) =>
      (await analytics({ scope }, `successRates(by: AGENT, ${args}) { ${PAGES} }`, variables)).successRates;
    const keys = (page: any) => page.edges.map((e: any) => e.node.key);
    const all = keys(await rates(f.scope, 'first: $first', { first: 100 }));
    expect(all).toHaveLength(4);

    const none = await rates(f.scope, 'first: $first', { first: 0 });
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: null });
    expect(none.pageInfo.endCursor).toEqual(expect.stringMatching(/^.+$/));
    // Its end cursor is where the list starts: the next page is the first one.
    expect(keys(await rates(f.scope, 'first: $first, after: $after', { first: 100, after: none.pageInfo.endCursor }))).toEqual(all);
    expect(keys(await rates(f.scope, 'first: $first, after: $after', { first: 2, after: none.pageInfo.endCursor }))).toEqual(all.slice(0, 2));
    // Given a cursor, an empty page stays at it.
    const second = await rates(f.scope, 'first: $first', { first: 2 });
    const stay = await rates(f.scope, 'first: $first, after: $after', { first: 0, after: second.pageInfo.endCursor });
    expect(stay.pageInfo).toMatchObject({ hasNextPage: true, endCursor: second.pageInfo.endCursor });

    // Backwards the same: last: 0 answers a start cursor before which the list ends at its last row.
    const back = await rates(f.scope, 'last: $last', { last: 0 });
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, endCursor: null });
    expect(keys(await rates(f.scope, 'last: $last, before: $before', { last: 2, before: back.pageInfo.startCursor }))).toEqual(all.slice(2));

    // Nothing to page: no cursor at all, as on the API's other lists.
    const empty = await project('outcomes-first-0-empty');
    expect((await rates(empty, 'first: $first', { first: 0 })).pageInfo).toEqual({ hasNextPage: false, endCursor: null, hasPreviousPage: false, startCursor: null });
    expect((await rates(empty, 'first: $first', { first: 10 })).pageInfo).toEqual({ hasNextPage: false, endCursor: null, hasPreviousPage: false, startCursor: null });
  });

  it('each analytics answer costs the same statements for a page of 2 and a page of 6', async () => {
    const f = await seed();
    const fields = [
      'successRates(by: AGENT, first: $first) { edges { node { key p95DurationMs } } }',
      'bottlenecks(by: TASK, first: $first) { edges { node { key task { title scope { id } } } } }',
      'trend(bucket: HOUR, first: $first) { edges { node { start runs } } }',
      'errorCorrelation(first: $first) { edges { node { agentA phi } } }',
    ];
    // The window's scope is checked on its chain, which is read once a second (cached), not per page.
    const chainRead = (sql: string) => sql.includes('LEFT JOIN "Scope" s3');
    for (const selection of fields) {
      const count = async (first: number) => {
        h.resetStatements();
        await analytics({ scope: f.scope }, selection, { first });
        return h.statements.filter((sql) => !chainRead(sql)).length;
      };
      const small = await count(2);
      const large = await count(6);
      console.log(`[${DB_KIND}] ${selection.split('(')[0]}: ${small} statements for 2, ${large} for 6`);
      expect(large).toBe(small);
    }
  });
});
