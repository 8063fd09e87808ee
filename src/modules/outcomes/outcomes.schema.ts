// Outcomes recorded by agents: the Outcome type and the recordOutcome(s) mutations. The analytics
// over them (outcomeAnalytics) are declared in analytics.schema.ts.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { InvalidStateError, NotFoundError, PermissionDeniedError, ValidationError } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { can } from '../../graphql/rules.ts';
import { LIMITS } from '../../domain/limits.ts';
import { OUTCOME_LIMITS, checkBatchSize, recordOutcomes, type OutcomeInput } from './outcomes.service.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import type { Context } from '../../context.ts';

const OutcomeRef = builder.prismaObject('Outcome', {
  description: 'The outcome of one run of a task or subtask by an agent: success or failure, how long it took, what it cost.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The outcome\'s id.' }),
    scope: t.relation('scope', { description: 'The scope it was recorded in.' }),
    task: t.string({
      nullable: true,
      description: 'The id of the task it ran (a Task ID; the task may have been deleted since).',
      resolve: (o) => (o.taskId ? encodeGlobalID('Task', o.taskId) : null),
    }),
    subtaskType: t.exposeString('subtaskType', { description: 'The kind of subtask (what success rates are grouped by).' }),
    itemKey: t.exposeString('itemKey', { nullable: true, description: 'The work item it ran on (error correlation compares agents on the same items).' }),
    agent: t.exposeString('agent', { description: 'The agent that ran it.' }),
    success: t.exposeBoolean('success', { description: 'Whether the run succeeded.' }),
    errorKind: t.exposeString('errorKind', { nullable: true, description: 'The kind of error of a failure.' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the run took, in milliseconds.' }),
    tokens: t.exposeInt('tokens', { nullable: true, description: 'Tokens the run used.' }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the run finished.' }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', description: 'When it was recorded.' }),
    recordedBy: t.exposeString('recordedBy', { nullable: true, description: 'Who recorded it (the caller\'s actor).' }),
  }),
});

type PothosInput = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];
const MAX_DAYS = OUTCOME_LIMITS.maxDurationMs / 86_400_000;

const outcomeFields = (t: PothosInput) => ({
  task: t.id({ description: 'The task it ran: a task of the scope or of a scope below it.' }),
  subtaskType: t.string({ required: true, description: `The kind of subtask (1 to ${LIMITS.name} characters), e.g. "parse", "vote", "edit-file".` }),
  itemKey: t.string({ description: `The work item it ran on (at most ${LIMITS.name} characters): error correlation compares agents that ran the same items.` }),
  agent: t.string({ description: `The agent that ran it (at most ${LIMITS.agentId} characters; default: the caller's actor).` }),
  success: t.boolean({ required: true, description: 'Whether the run succeeded.' }),
  errorKind: t.string({ description: `The kind of error (failures only; at most ${LIMITS.name} characters).` }),
  durationMs: t.int({ required: true, description: `How long it took, in milliseconds (0 to ${OUTCOME_LIMITS.maxDurationMs}: ${MAX_DAYS} days).` }),
  tokens: t.int({ description: `Tokens it used (0 to ${OUTCOME_LIMITS.maxTokens}).` }),
  occurredAt: t.field({ type: 'DateTime', description: 'When it finished (default now; from 2000 on, at most 5 minutes ahead of the server\'s clock).' }),
});

const OutcomeItemInput = builder.inputType('OutcomeItemInput', {
  description: 'One outcome of a batch.',
  fields: (t) => outcomeFields(t),
});

const RecordOutcomeInput = builder.inputType('RecordOutcomeInput', {
  description: 'An outcome to record in a scope.',
  fields: (t) => ({ scope: t.id({ required: true, description: 'The scope it belongs to.' }), ...outcomeFields(t) }),
});

const RecordOutcomesInput = builder.inputType('RecordOutcomesInput', {
  description: 'Outcomes to record in a scope, all or none.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope they belong to.' }),
    outcomes: t.field({ type: [OutcomeItemInput], required: true, description: `The outcomes (1 to ${OUTCOME_LIMITS.batch}).` }),
  }),
});

type ItemArg = { task?: string | number | null } & Omit<OutcomeInput, 'taskId'>;

const itemOf = (o: ItemArg, path: string[]): OutcomeInput => ({
  ...o,
  taskId: o.task != null ? decodeId(String(o.task), ['Task'], [...path, 'task']) : null,
});

/**
 * The outcomes' keys screened for secrets as names (refused, not redacted: analytics group by
 * them), each distinct value once: a batch repeats its subtask types, agents and error kinds.
 */
async function screenKeys(ctx: Context, scopeId: string, items: readonly OutcomeInput[], pathOf: (i: number) => string[]): Promise<void> {
  const first = new Map<string, string[]>();
  items.forEach((item, i) => {
    for (const key of ['subtaskType', 'itemKey', 'agent', 'errorKind'] as const) {
      const value = item[key];
      if (typeof value === 'string' && !first.has(value)) first.set(value, [...pathOf(i), key]);
    }
  });
  await screenSecrets(ctx.db, scopeId, [...first].map(([value, path]) => ({ path, value, isName: true })));
}

/** The scope an input names, decoded (issues at input.scope). */
export const scopeOf = (input: { scope: string | number }) => decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
const RECORD_ERRORS = [NotFoundError, ValidationError, PermissionDeniedError, InvalidStateError] as const;

builder.mutationFields((t) => ({
  recordOutcome: t.field({
    type: OutcomeRef,
    description: 'Records the outcome of a run (WRITE on the scope). The agent defaults to the caller\'s actor.',
    args: { input: t.arg({ type: RecordOutcomeInput, required: true, description: 'The outcome.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...RECORD_ERRORS], dataField: { name: 'outcome', description: 'The outcome recorded.' } },
    resolve: async (_root, { input }, ctx) => {
      const { scope: _scope, ...item } = input;
      const items = [itemOf(item, ['input'])];
      await screenKeys(ctx, scopeOf(input), items, () => ['input']);
      const [outcome] = await recordOutcomes(ctx, scopeOf(input), items, ctx.actor, () => ['input']);
      return outcome!;
    },
  }),
  recordOutcomes: t.field({
    type: [OutcomeRef],
    description: `Records up to ${OUTCOME_LIMITS.batch} outcomes in one transaction (WRITE on the scope): all or none; an error's path names the bad item's index (input.outcomes.<i>).`,
    args: { input: t.arg({ type: RecordOutcomesInput, required: true, description: 'The outcomes.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...RECORD_ERRORS], dataField: { name: 'outcomes', description: 'The outcomes recorded, in the order sent.' } },
    resolve: async (_root, { input }, ctx) => {
      const path = (i: number) => ['input', 'outcomes', String(i)];
      // A batch too large is refused before any item is decoded.
      checkBatchSize(input.outcomes.length);
      const items = input.outcomes.map((o, i) => itemOf(o, path(i)));
      await screenKeys(ctx, scopeOf(input), items, path);
      return recordOutcomes(ctx, scopeOf(input), items, ctx.actor, path);
    },
  }),
}));
