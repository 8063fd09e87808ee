// The input rules of outcomes and their analytics, each where the API reports it (mutation run of
// 2026-11-27 on outcomes.service.ts: these kill the survivors that were input checks).
import { describe, expect, it } from 'vitest';
import { OUTCOME_LIMITS } from '../src/modules/outcomes/outcomes.service.ts';
import { LIMITS } from '../src/domain/limits.ts';
import { as, ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();

const ERRORS = `... on UserError { code message path } ... on ValidationError { issues { path message } }`;
const RECORD = `mutation ($input: RecordOutcomeInput!) { recordOutcome(input: $input) { __typename ... on RecordOutcomeSuccess { outcome { subtaskType itemKey agent durationMs tokens occurredAt } } ${ERRORS} } }`;
const RECORD_MANY = `mutation ($input: RecordOutcomesInput!) { recordOutcomes(input: $input) { __typename ${ERRORS} } }`;

let scope: string;
async function projectScope(): Promise<string> {
  scope ??= (await ok(h, null, 'mutation { createProject(input: { name: "outcome-rules" }) { ... on CreateProjectSuccess { project { id } } } }')).createProject.project.id;
  return scope;
}

async function record(fields: Record<string, unknown>, actor: string | null = 'agent:recorder'): Promise<any> {
  const input = { scope: await projectScope(), subtaskType: 'parse', success: true, durationMs: 5, ...fields };
  const answer = await as(h, null, RECORD, { input }, actor ? { 'x-engram-actor': actor } : {});
  expect(answer.errors).toBeUndefined();
  return (answer.data as any).recordOutcome;
}

/** The issues of a refused input, as [path, message] pairs. */
const issuesOf = (result: any): Array<[string, string]> => {
  expect(result.__typename).toBe('ValidationError');
  return result.issues.map((i: { path: string[]; message: string }) => [i.path.join('.'), i.message]);
};

describe('recordOutcome input rules', () => {
  it('names the field of each refused input', async () => {
    expect(issuesOf(await record({ agent: 'a'.repeat(LIMITS.agentId + 1) }))).toEqual([['input.agent', expect.stringContaining(String(LIMITS.agentId))]]);
    expect(issuesOf(await record({ errorKind: 'e'.repeat(LIMITS.name + 1), success: false }))).toEqual([['input.errorKind', expect.stringContaining(String(LIMITS.name))]]);
    expect(issuesOf(await record({ errorKind: 'timeout' }))).toEqual([['input.errorKind', 'only a failure has an error kind']]);
    expect(issuesOf(await record({ agent: null }, null))).toEqual([['input.agent', 'is required without a caller actor (send X-Engram-Actor or name the agent)']]);
  });

  it('takes an empty agent name as a name only when it is sent', async () => {
    // Sent as "", it is checked (and refused as empty); left out, the caller's actor runs it.
    expect(issuesOf(await record({ agent: '' }))[0]![0]).toBe('input.agent');
    expect((await record({})).outcome.agent).toBe('agent:recorder');
    // Named, the agent needs no caller actor.
    expect((await record({ agent: 'agent:named' }, null)).outcome.agent).toBe('agent:named');
  });

  it('leaves tokens and the time optional, and bounds the time to 2000 .. now + 5 minutes', async () => {
    const plain = await record({ subtaskType: '  parse  ', itemKey: 'item-7' });
    expect(plain.outcome).toMatchObject({ subtaskType: 'parse', itemKey: 'item-7', tokens: null, durationMs: 5 });
    expect(Math.abs(Date.parse(plain.outcome.occurredAt) - Date.now())).toBeLessThan(60_000);
    const message = 'must be a date-time from 2000 on, not more than 5 minutes in the future';
    expect(issuesOf(await record({ occurredAt: new Date(OUTCOME_LIMITS.earliest - 1).toISOString() }))).toEqual([['input.occurredAt', message]]);
    expect((await record({ occurredAt: new Date(OUTCOME_LIMITS.earliest).toISOString() })).__typename).toBe('RecordOutcomeSuccess');
    expect(issuesOf(await record({ occurredAt: new Date(Date.now() + OUTCOME_LIMITS.futureSkewMs + 60_000).toISOString() }))).toEqual([['input.occurredAt', message]]);
    expect((await record({ occurredAt: new Date(Date.now() + OUTCOME_LIMITS.futureSkewMs - 60_000).toISOString() })).__typename).toBe('RecordOutcomeSuccess');
  });

  it('refuses a task that is not of the scope, at the item that names it', async () => {
    const other = (await ok(h, null, 'mutation { createProject(input: { name: "outcome-rules-other" }) { ... on CreateProjectSuccess { project { id } } } }')).createProject.project.id;
    const elsewhere = (await ok(h, null, 'mutation ($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }', { s: other })).createTask.task.id;
    const here = (await ok(h, null, 'mutation ($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }', { s: await projectScope() })).createTask.task.id;
    const answer = await as(h, null, RECORD_MANY, {
      input: { scope: await projectScope(), outcomes: [{ subtaskType: 'a', success: true, durationMs: 1, task: here }, { subtaskType: 'a', success: true, durationMs: 1, task: elsewhere }] },
    }, { 'x-engram-actor': 'agent:recorder' });
    expect((answer.data as any).recordOutcomes).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No task of this scope (or of a scope below it) has this id', path: ['input', 'outcomes', '1', 'task'] });
  });

  it('refuses an empty batch with its bounds', async () => {
    const answer = await as(h, null, RECORD_MANY, { input: { scope: await projectScope(), outcomes: [] } }, { 'x-engram-actor': 'agent:recorder' });
    expect(issuesOf((answer.data as any).recordOutcomes)).toEqual([['input.outcomes', `must list 1 to ${OUTCOME_LIMITS.batch} outcomes (got 0)`]]);
  });
});

describe('outcomeAnalytics input rules', () => {
  const ask = async (input: Record<string, unknown>, correlation = '') =>
    as(h, null, `query ($input: OutcomeWindowInput!) { outcomeAnalytics(input: $input) { successRates(first: 1) { edges { node { runs } } } ${correlation} } }`, {
      input: { scope: await projectScope(), ...input },
    });
  const messages = (answer: any): string[] => answer.errors?.map((e: { message: string }) => e.message) ?? [];

  it('refuses a window that ends before it starts, and a subtask type too long, naming the field', async () => {
    const at = '2025-03-03T00:00:00.000Z';
    expect(messages(await ask({ since: at, until: at }))).toEqual(['input.until: must be later than since']);
    expect((await ask({ since: at, until: '2025-03-03T00:00:00.001Z' })).errors).toBeUndefined();
    expect(messages(await ask({ subtaskType: 'x'.repeat(LIMITS.name + 1) }))[0]).toMatch(/^input\.subtaskType: /);
  });

  it('bounds error correlation\'s options, naming each', async () => {
    const correlation = (args: string) => `errorCorrelation(${args}, first: 1) { edges { node { phi } } }`;
    expect(messages(await ask({}, correlation('minSharedItems: 0')))).toEqual(['minSharedItems: must be an integer between 1 and 1000000']);
    expect(messages(await ask({}, correlation('alertThreshold: 1.5')))[0]).toMatch(/^alertThreshold: /);
    expect((await ask({}, correlation('minSharedItems: 1, alertThreshold: -1'))).errors).toBeUndefined();
  });
});
