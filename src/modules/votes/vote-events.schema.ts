import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../context.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { decodeId, SCOPE_TYPENAMES } from '../../graphql/ids.ts';
import { MEMBER } from '../../graphql/rules.ts';
import type { VotePayload } from '../../infra/events.ts';
import { AFTER_DESCRIPTION, CURSOR_DESCRIPTION, delivered, scopeTopicEvents } from '../events/subscription-guard.ts';
import { VoteQuestionRef, VoteRef } from './votes.schema.ts';

const VoteEventTypeEnum = builder.enumType('VoteEventType', {
  description: 'What happened on a vote question.',
  values: {
    VOTED: { description: 'A vote was cast (counted or discarded).' },
    DECIDED: { description: 'A vote decided the question (announced once, after its VOTED).' },
  },
});

const VoteEventRef = builder.objectRef<VotePayload>('VoteEvent').implement({
  description: 'A vote was cast on a question of the scope, or decided it; the question and vote are read as they are at delivery.',
  fields: (t) => ({
    type: t.field({ type: VoteEventTypeEnum, description: 'What happened.', resolve: (e) => e.type }),
    questionId: t.id({ description: 'Global ID of the VoteQuestion.', resolve: (e) => encodeGlobalID('VoteQuestion', e.questionId) }),
    question: t.field({ type: VoteQuestionRef, nullable: true, description: 'The question now (null once deleted).', resolve: (e, _a, ctx) => ctx.db.voteQuestion.findUnique({ where: { id: e.questionId } }) }),
    voteId: t.id({ description: 'Global ID of the Vote cast (for DECIDED, the deciding vote).', resolve: (e) => encodeGlobalID('Vote', e.voteId) }),
    vote: t.field({ type: VoteRef, nullable: true, description: 'That vote (null once deleted).', resolve: (e, _a, ctx) => ctx.db.vote.findUnique({ where: { id: e.voteId } }) }),
    occurredAt: t.field({ type: 'DateTime', description: 'When it was committed.', resolve: (e) => e.occurredAt }),
    cursor: t.exposeString('cursor', { description: CURSOR_DESCRIPTION }),
  }),
});

/** Whether the vote question `id` is of scope `scopeId`. */
const questionOf = async (ctx: Context, id: string, scopeId: string) => (await ctx.db.voteQuestion.findUnique({ where: { id }, select: { scopeId: true } }))?.scopeId === scopeId;

builder.subscriptionField('voteChanged', (t) =>
  t.field({
    type: VoteEventRef,
    description: 'Votes cast on the questions of a scope (of one question, when named) and their decisions, each once it has committed.',
    args: {
      scope: t.arg.id({ required: true, description: 'The scope to watch.' }),
      question: t.arg.id({ description: 'Only this question, one of the scope (another scope\'s is NOT_FOUND).' }),
      decisionsOnly: t.arg.boolean({ required: true, defaultValue: false, description: 'Only DECIDED events (default false).' }),
      after: t.arg.string({ description: AFTER_DESCRIPTION }),
    },
    authScopes: MEMBER,
    subscribe: async (_root, a, ctx) => {
      const questionId = a.question != null ? decodeId(String(a.question), ['VoteQuestion'], ['question']) : null;
      const events = await scopeTopicEvents(ctx, 'vote', a.scope, a.after, (e) => (questionId === null || e.questionId === questionId) && (!a.decisionsOnly || e.type === 'DECIDED'));
      // Checked once the scope is known readable (before, the answer would tell a stranger which
      // scope a question is of): a question of another scope would never have an event here.
      if (questionId !== null && !(await questionOf(ctx, questionId, decodeId(String(a.scope), SCOPE_TYPENAMES, ['scope'])))) {
        await events[Symbol.asyncIterator]().return?.();
        throw new NotFoundError('No question of this scope has this id', ['question']);
      }
      return events;
    },
    resolve: (event) => delivered(event),
  }),
);
