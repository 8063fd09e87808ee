import DataLoader from 'dataloader';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { InvalidStateError, NAMING_ERRORS, ValidationError, WRITE_ERRORS } from '../../graphql/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { PAGING, namedConnection } from '../../graphql/paging.ts';
import { can } from '../../graphql/rules.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { Context } from '../../context.ts';
import type { FlaggedAgent, VoteQuestion } from '../../generated/sqlite/client.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { scopeById } from '../scopes/scopes.service.ts';
import { screenSecrets, screenText } from '../redaction/redaction.service.ts';
import { scopeOfTarget } from '../identity/targets.ts';
import {
  VOTE_ANSWER_MAX,
  VOTE_K,
  VOTE_PATTERN_MAX,
  agentStats,
  castVote,
  closeQuestion,
  firstVotes,
  flagAgent,
  flaggedAgents,
  openQuestion,
  unflagAgent,
  type AgentStats,
  type DiscardReason,
  type VoteNormalization,
  type VoteStatus,
} from './votes.service.ts';

const NormalizationEnum = builder.enumType('VoteNormalization', {
  description: 'How answers are normalized before they are compared (two answers are one when their normalized forms are equal).',
  values: {
    EXACT: { description: 'As sent, character for character.' },
    TRIM: { description: 'Without leading and trailing whitespace (the default).' },
    CASE_INSENSITIVE: { description: 'Without leading and trailing whitespace, in lower case.' },
    JSON: { description: 'Parsed as JSON and re-serialized compactly with object keys sorted and numbers as they print (`1.0` is `1`): `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are one answer. Text that is not JSON, or holds a number a double cannot carry exactly (`1e400`, `12345678901234567891`), is discarded as MALFORMED.' },
  },
});

const StatusEnum = builder.enumType('VoteQuestionStatus', {
  description: 'Where a vote question stands.',
  values: {
    OPEN: { description: 'Taking votes.' },
    DECIDED: { description: 'An answer led every other by k; later votes are kept as LATE and not counted.' },
    CLOSED: { description: 'Closed without a decision; later votes are kept as LATE.' },
  },
});

const DiscardReasonEnum = builder.enumType('VoteDiscardReason', {
  description: 'Why a vote was discarded (red-flagged): kept, never counted. When several rules apply, the first in this list is given.',
  values: {
    LATE: { description: 'Cast after the question was decided or closed.' },
    UNRELIABLE_AGENT: { description: 'The voter is flagged unreliable in the question\'s scope or an enclosing one.' },
    TOO_LONG: { description: 'The answer (as sent) is longer than the question\'s maxAnswerLength.' },
    MALFORMED: { description: 'The answer does not match the question\'s answerPattern, or is not JSON (or holds a number a double cannot carry exactly) under JSON normalization.' },
  },
});

export const VoteQuestionRef = builder.prismaNode('VoteQuestion', {
  description: 'A question agents vote on (a subtask\'s answer), decided first-to-ahead-by-k: the first answer whose count of counted votes leads every other answer\'s by k wins.',
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    scope: t.relation('scope', { type: ScopeRef, description: 'The scope it belongs to.' }),
    key: t.exposeString('key', { description: 'The subtask it decides: a task id or any key, unique in the scope.' }),
    taskId: t.id({ nullable: true, description: 'Global ID of the Task it decides, when it names one.', resolve: (q) => (q.taskId ? encodeGlobalID('Task', q.taskId) : null) }),
    prompt: t.exposeString('prompt', { nullable: true, description: 'What is asked.' }),
    k: t.exposeInt('k', { description: 'The lead over every other answer that wins.' }),
    normalization: t.field({ type: NormalizationEnum, description: 'How answers are compared.', resolve: (q) => q.normalization as VoteNormalization }),
    maxAnswerLength: t.exposeInt('maxAnswerLength', { nullable: true, description: 'A longer answer is discarded as TOO_LONG (null: no limit).' }),
    answerPattern: t.exposeString('answerPattern', { nullable: true, description: 'An answer that does not match this whole is discarded as MALFORMED (null: any answer).' }),
    status: t.field({ type: StatusEnum, description: 'Where it stands.', resolve: (q) => q.status as VoteStatus }),
    decidedAnswer: t.exposeString('decidedAnswer', { nullable: true, description: 'The winning answer, normalized (null until DECIDED).' }),
    decidingVoteId: t.id({ nullable: true, description: 'Global ID of the Vote that decided it.', resolve: (q) => (q.decidedVoteId ? encodeGlobalID('Vote', q.decidedVoteId) : null) }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', nullable: true, description: 'When it was decided.' }),
    decidedMargin: t.exposeInt('decidedMargin', { nullable: true, description: "The winner's lead over the runner-up when it was decided (k)." }),
    countedVotes: t.exposeInt('countedVotes', { description: 'Votes counted so far (once DECIDED, the votes it took).' }),
    discardedVotes: t.exposeInt('discardedVotes', { description: 'Votes discarded so far, LATE ones included.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was opened.' }),
    createdBy: t.exposeString('createdBy', { nullable: true, description: 'Who opened it.' }),
    tally: t.relation('tallies', {
      description: 'Counted votes per answer, the leader first (ties by answer).',
      args: { first: t.arg.int({ required: true, defaultValue: 10, description: `How many answers (1 to ${LIMITS.page.max}, default 10).` }) },
      query: (args) => ({ orderBy: [{ votes: 'desc' }, { normalized: 'asc' }], take: tallySize(args.first) }),
    }),
    votes: t.relatedConnection(
      'votes',
      {
        cursor: 'id',
        ...PAGING,
        description: 'Its votes, oldest first, discarded ones with their reason.',
        args: { discarded: t.arg.boolean({ description: 'Only discarded (true) or only counted (false) votes.' }) },
        totalCount: true,
        query: (args) => ({ where: args.discarded == null ? {} : { discardReason: args.discarded ? { not: null } : null }, orderBy: { id: 'asc' } }),
      },
      { name: 'VoteQuestionVotesConnection', description: 'Page of votes.' },
      { name: 'VoteQuestionVotesEdge', description: 'A vote.' },
    ),
    stats: t.field({ type: QuestionStatsRef, description: 'How the decision went: votes needed, margin, time to decision.', resolve: (q) => q }),
  }),
});

builder.prismaObject('VoteTally', {
  description: 'The counted votes of one answer.',
  fields: (t) => ({
    answer: t.exposeString('normalized', { description: 'The answer, normalized.' }),
    votes: t.exposeInt('votes', { description: 'Its counted votes.' }),
  }),
});

export const VoteRef = builder.prismaNode('Vote', {
  description: "One agent's answer to a vote question. A discarded (red-flagged) vote is kept with its reason and not counted.",
  id: { field: 'id' },
  nullable: true,
  fields: (t) => ({
    question: t.relation('question', { type: VoteQuestionRef, description: 'The question.' }),
    voter: t.exposeString('voter', { description: 'Who voted (the actor of the cast).' }),
    answer: t.exposeString('answer', { description: 'The answer as sent.' }),
    normalized: t.exposeString('normalized', { description: "The answer as compared (the question's normalization)." }),
    confidence: t.exposeFloat('confidence', { nullable: true, description: "The voter's confidence, 0 to 1." }),
    counted: t.boolean({ description: 'True unless discarded.', resolve: (v) => v.discardReason === null }),
    discardReason: t.field({ type: DiscardReasonEnum, nullable: true, description: 'Why it was discarded (null: counted).', resolve: (v) => v.discardReason as DiscardReason | null }),
    decisive: t.boolean({
      description: 'True for the vote that decided its question.',
      select: { question: { select: { decidedVoteId: true } } },
      resolve: (v) => v.question.decidedVoteId === v.id,
    }),
    castAt: t.expose('castAt', { type: 'DateTime', description: 'When it was cast.' }),
  }),
});

/** When each question got its first vote: one grouped read per batch, per request. */
const firstVoteLoaders = new WeakMap<object, DataLoader<string, Date | null>>();
function firstVoteAt(ctx: Context, id: string): Promise<Date | null> {
  let loader = firstVoteLoaders.get(ctx.access);
  if (!loader) firstVoteLoaders.set(ctx.access, (loader = new DataLoader((ids) => firstVotes(ctx.db, ids), { cache: false, maxBatchSize: 500 })));
  return loader.load(id);
}

const since = (from: Date | null, to: Date | null) => (from && to ? to.getTime() - from.getTime() : null);

const QuestionStatsRef = builder.objectRef<VoteQuestion>('VoteQuestionStats').implement({
  description: 'How a question was decided. The decision figures are null until it is DECIDED.',
  fields: (t) => ({
    votesNeeded: t.int({ nullable: true, description: 'Counted votes it took to decide.', resolve: (q) => (q.status === 'DECIDED' ? q.countedVotes : null) }),
    margin: t.int({ nullable: true, description: "The winner's lead over the runner-up at the decision.", resolve: (q) => q.decidedMargin }),
    discardedVotes: t.exposeInt('discardedVotes', { description: 'Votes discarded (LATE ones included).' }),
    firstVoteAt: t.field({ type: 'DateTime', nullable: true, description: 'When the first vote was cast (null without votes).', resolve: (q, _a, ctx) => firstVoteAt(ctx, q.id) }),
    timeToDecisionMs: t.float({ nullable: true, description: 'Milliseconds from opening to the decision.', resolve: (q) => since(q.createdAt, q.decidedAt) }),
    timeFromFirstVoteMs: t.float({
      nullable: true,
      description: 'Milliseconds from the first vote to the decision.',
      resolve: async (q, _a, ctx) => (q.decidedAt ? since(await firstVoteAt(ctx, q.id), q.decidedAt) : null),
    }),
  }),
});

const FlaggedAgentRef = builder.prismaObject('FlaggedAgent', {
  description: 'An agent flagged unreliable in a scope: its votes there and below are discarded (UNRELIABLE_AGENT).',
  fields: (t) => ({
    // By its id rather than through the flag's row: an unflagged agent's row is gone.
    scope: t.field({ type: ScopeRef, description: 'Where it is flagged (and below).', resolve: (f, _args, ctx) => scopeById(ctx.db, f.scopeId, ['scope']) }),
    agent: t.exposeString('agent', { description: 'The agent (its actor name, e.g. agent:7).' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why.' }),
    flaggedBy: t.exposeString('flaggedBy', { nullable: true, description: 'Who flagged it.' }),
    flaggedAt: t.expose('flaggedAt', { type: 'DateTime', description: 'When.' }),
  }),
});

const AgentStatsRef = builder.objectRef<AgentStats>('VoteAgentStats').implement({
  description: "An agent's votes on the questions of a scope, and how often it agreed with the decisions.",
  fields: (t) => ({
    agent: t.exposeString('agent', { description: 'The agent.' }),
    votes: t.exposeInt('votes', { description: 'Its votes.' }),
    counted: t.exposeInt('counted', { description: 'Of those, counted.' }),
    discarded: t.exposeInt('discarded', { description: 'Of those, discarded (red-flagged or LATE).' }),
    onDecided: t.exposeInt('onDecided', { description: 'Its votes on DECIDED questions (discarded ones included).' }),
    agreed: t.exposeInt('agreed', { description: 'Of those, the ones whose normalized answer is the decided answer.' }),
    agreementRate: t.float({ nullable: true, description: 'agreed / onDecided (null when it voted on no decided question).', resolve: (s) => (s.onDecided ? s.agreed / s.onDecided : null) }),
  }),
});

const OpenVoteQuestionInput = builder.inputType('OpenVoteQuestionInput', {
  description: 'A new vote question.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it belongs to.' }),
    key: t.string({ required: true, description: `The subtask it decides: a task id or any key, unique in the scope (1 to ${LIMITS.name} characters).` }),
    task: t.id({ description: 'The Task it decides (of the scope or an enclosing one).' }),
    prompt: t.string({ description: `What is asked (at most ${LIMITS.description} characters).` }),
    k: t.int({ required: true, description: `The lead over every other answer that wins (${VOTE_K.min} to ${VOTE_K.max}).` }),
    normalization: t.field({ type: NormalizationEnum, required: true, defaultValue: 'TRIM', description: 'How answers are compared (default TRIM).' }),
    maxAnswerLength: t.int({ description: `Red flag: an answer longer than this (1 to ${VOTE_ANSWER_MAX} characters) is discarded as TOO_LONG.` }),
    answerPattern: t.string({
      description: `Red flag: an answer that does not match this regular expression as a whole (trimmed, except under EXACT) is discarded as MALFORMED. At most ${VOTE_PATTERN_MAX} characters, no flags; it runs in linear time, so backreferences, lookarounds and counted repetition above 16 are refused.`,
    }),
  }),
});

const QuestionInput = builder.inputType('CloseVoteQuestionInput', {
  description: 'Which question.',
  fields: (t) => ({ question: t.id({ required: true, description: 'The VoteQuestion.' }) }),
});

const CastVoteInput = builder.inputType('CastVoteInput', {
  description: "The caller's vote.",
  fields: (t) => ({
    question: t.id({ required: true, description: 'The VoteQuestion.' }),
    answer: t.string({ required: true, description: `The answer (1 to ${VOTE_ANSWER_MAX} characters).` }),
    confidence: t.float({ description: 'How sure the voter is, 0 to 1.' }),
  }),
});

const FlagAgentInput = builder.inputType('FlagAgentInput', {
  description: 'An agent to flag unreliable in a scope.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope (its descendants too).' }),
    agent: t.string({ required: true, description: 'The agent: its actor name, as votes record it (e.g. agent:7).' }),
    reason: t.string({ description: 'Why.' }),
  }),
});

const UnflagAgentInput = builder.inputType('UnflagAgentInput', {
  description: 'A flag to lift.',
  fields: (t) => ({
    scope: t.id({ required: true, description: 'The scope it was flagged in.' }),
    agent: t.string({ required: true, description: 'The agent.' }),
  }),
});

/** A tally's length: like a page, one out of bounds is refused, not cut. */
function tallySize(first: number | null | undefined): number {
  const size = first ?? 10;
  if (size < 1 || size > LIMITS.page.max) throw new ValidationError([{ path: ['first'], message: `must be between 1 and ${LIMITS.page.max}` }]);
  return size;
}

const scopeOf = (id: string | number, path: string[]) => decodeId(String(id), SCOPE_TYPENAMES, path);
const questionOf = (id: string | number, path: string[]) => decodeId(String(id), ['VoteQuestion'], path);

builder.mutationFields((t) => ({
  openVoteQuestion: t.field({
    type: VoteQuestionRef,
    description: 'Opens a question for agents to vote on, decided first-to-ahead-by-k.',
    args: { input: t.arg({ type: OpenVoteQuestionInput, required: true, description: 'The question.' }) },
    authScopes: (_root, { input }) => ({
      $all: {
        ...can('WRITE', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
        canEach: input.task != null ? [can('READ', 'task', input.task, ['Task'], ['input', 'task']).can] : [],
      },
    }),
    errors: { types: [...NAMING_ERRORS, InvalidStateError], dataField: { name: 'question', description: 'The new question.' } },
    resolve: async (_root, { input }, ctx) => {
      const scopeId = scopeOf(input.scope, ['input', 'scope']);
      const [prompt] = await screenSecrets(ctx.db, scopeId, [{ path: ['input', 'prompt'], value: input.prompt ?? null }]);
      return openQuestion(ctx, {
        scopeId,
        key: input.key,
        taskId: input.task != null ? decodeId(String(input.task), ['Task'], ['input', 'task']) : null,
        prompt: prompt as string | null,
        k: input.k,
        normalization: input.normalization,
        maxAnswerLength: input.maxAnswerLength ?? null,
        answerPattern: input.answerPattern ?? null,
        author: ctx.actor,
      });
    },
  }),
  closeVoteQuestion: t.field({
    type: VoteQuestionRef,
    description: 'Closes an OPEN question without a decision (InvalidStateError otherwise); later votes are kept as LATE.',
    args: { input: t.arg({ type: QuestionInput, required: true, description: 'Which question.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'voteQuestion', input.question, ['VoteQuestion'], ['input', 'question'], { label: 'vote question' }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'question', description: 'The question, CLOSED.' } },
    resolve: (_root, { input }, ctx) => closeQuestion(ctx, questionOf(input.question, ['input', 'question'])),
  }),
  castVote: t.field({
    type: VoteRef,
    description:
      "Casts the caller's vote (its actor is the voter). The vote is kept even when a red-flag rule discards it (see VoteDiscardReason); a counted vote that gives its answer a lead of k over every other decides the question, once.",
    args: { input: t.arg({ type: CastVoteInput, required: true, description: 'The vote.' }) },
    authScopes: (_root, { input }) => can('WRITE', 'voteQuestion', input.question, ['VoteQuestion'], ['input', 'question'], { label: 'vote question' }),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'vote', description: 'The vote, with its question as the vote left it.' } },
    resolve: async (_root, { input }, ctx) => {
      const questionId = questionOf(input.question, ['input', 'question']);
      const scopeId = (await scopeOfTarget(ctx.db, ctx.access, 'voteQuestion', questionId)) ?? null;
      const [answer] = await screenSecrets(ctx.db, scopeId, [{ path: ['input', 'answer'], value: input.answer }]);
      return castVote(ctx, { questionId, voter: ctx.actor, answer: answer as string, confidence: input.confidence ?? null });
    },
  }),
  flagAgent: t.field({
    type: FlaggedAgentRef,
    description: "Flags an agent unreliable in a scope and below (ADMIN on the scope): its later votes there are discarded as UNRELIABLE_AGENT (votes already cast stay as they were).",
    args: { input: t.arg({ type: FlagAgentInput, required: true, description: 'Who and where.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...WRITE_ERRORS, InvalidStateError], dataField: { name: 'flag', description: 'The flag.' } },
    resolve: async (_root, { input }, ctx) => {
      const scopeId = scopeOf(input.scope, ['input', 'scope']);
      const reason = await screenText(ctx.db, scopeId, ['input', 'reason'], input.reason ?? null);
      return flagAgent(ctx, { scopeId, agent: input.agent, reason, by: ctx.actor });
    },
  }),
  unflagAgent: t.field({
    type: FlaggedAgentRef,
    description: "Lifts an agent's flag in a scope (ADMIN on the scope); a flag on an enclosing scope stays.",
    args: { input: t.arg({ type: UnflagAgentInput, required: true, description: 'Who and where.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...WRITE_ERRORS], dataField: { name: 'flag', description: 'The flag lifted.' } },
    resolve: (_root, { input }, ctx) => unflagAgent(ctx, scopeOf(input.scope, ['input', 'scope']), input.agent),
  }),
}));

builder.queryFields((t) => ({
  voteQuestion: t.prismaField({
    type: VoteQuestionRef,
    nullable: true,
    description: 'A vote question; null when there is none or the caller may not read its scope.',
    args: { id: t.arg.id({ required: true, description: 'Global ID of the question.' }) },
    authScopes: (_root, args) => can('READ', 'voteQuestion', args.id, ['VoteQuestion'], ['id'], { quiet: true }),
    unauthorizedResolver: () => null,
    resolve: (query, _root, args, ctx) => ctx.db.voteQuestion.findUnique({ ...query, where: { id: questionOf(args.id, ['id']) } }),
  }),
  voteQuestionByKey: t.prismaField({
    type: VoteQuestionRef,
    nullable: true,
    description: 'The vote question of a key in a scope; null when there is none.',
    args: {
      scope: t.arg.id({ required: true, description: 'The scope.' }),
      key: t.arg.string({ required: true, description: 'Its key.' }),
    },
    authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope']),
    resolve: (query, _root, args, ctx) => ctx.db.voteQuestion.findUnique({ ...query, where: { scopeId_key: { scopeId: scopeOf(args.scope, ['scope']), key: args.key } } }),
  }),
  voteQuestions: t.prismaConnection(
    {
      type: VoteQuestionRef,
      cursor: 'id',
      ...PAGING,
      description: 'The vote questions of a scope, newest first.',
      args: {
        scope: t.arg.id({ required: true, description: 'The scope.' }),
        status: t.arg({ type: StatusEnum, description: 'Only questions in this status.' }),
      },
      authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope']),
      totalCount: (_parent, args, ctx) => ctx.db.voteQuestion.count({ where: questionsWhere(args) }),
      resolve: (query, _root, args, ctx) => ctx.db.voteQuestion.findMany({ ...query, where: questionsWhere(args), orderBy: { id: 'desc' } }),
    },
    { description: 'Page of vote questions.' },
    { description: 'A vote question.' },
  ),
  // A list cut at 1,000 agents said nothing of the rest: a page, as every other list of rows, with
  // the agent's name as its cursor's value (the rows' key is the scope and the agent).
  flaggedAgents: t.connection(
    {
      type: FlaggedAgentRef,
      description: 'The agents flagged unreliable in a scope itself (flags of enclosing scopes apply too, and are listed there), by agent.',
      args: { scope: t.arg.id({ required: true, description: 'The scope.' }) },
      ...PAGING,
      authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope']),
      resolve: (_root, args, ctx) =>
        namedConnection(args, (f: FlaggedAgent) => f.agent, (page) => flaggedAgents(ctx.db, scopeOf(args.scope, ['scope']), page)),
    },
    { name: 'FlaggedAgentsConnection', description: 'Page of flagged agents.' },
    { name: 'FlaggedAgentsEdge', description: 'A flagged agent.' },
  ),
  voteAgentStats: t.connection(
    {
      type: AgentStatsRef,
      description: "Per agent that voted on the scope's questions: its votes, counted and discarded, and its agreement with the decided answers; by agent name.",
      args: { scope: t.arg.id({ required: true, description: 'The scope.' }) },
      ...PAGING,
      authScopes: (_root, args) => can('READ', 'scope', args.scope, SCOPE_TYPENAMES, ['scope']),
      resolve: (_root, args, ctx) => namedConnection(args, (s: AgentStats) => s.agent, (page) => agentStats(ctx.db, ctx.provider, scopeOf(args.scope, ['scope']), page)),
    },
    { name: 'VoteAgentStatsConnection', description: 'Page of agent stats.' },
    { name: 'VoteAgentStatsEdge', description: "An agent's stats." },
  ),
}));

function questionsWhere(args: { scope: string | number; status?: string | null }) {
  return { scopeId: scopeOf(args.scope, ['scope']), ...(args.status ? { status: args.status } : {}) };
}
