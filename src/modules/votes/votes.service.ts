import { AlreadyExistsError, InvalidStateError, NotFoundError } from '../../domain/errors.ts';
import { Checker } from '../../domain/validate.ts';
import { LIMITS } from '../../domain/limits.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { Prisma, type FlaggedAgent, type Vote, type VoteQuestion } from '../../generated/sqlite/client.ts';
import type { Db, Provider, Tx } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { scopeChainIds } from '../../infra/scope-chain.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import type { CursorPage } from '../../domain/cursors.ts';
import { archivedError, assertWritableScope } from '../scopes/archived.ts';
import { VOTE_ANSWER_MAX, VOTE_PATTERN_MAX, linearPattern, matchable, normalizeAnswer, answerSubject, type VoteNormalization } from './answers.ts';

export { VOTE_ANSWER_MAX, VOTE_NORMALIZATIONS, VOTE_PATTERN_MAX, type VoteNormalization } from './answers.ts';

/** Bounds of a question's k (the lead that wins). */
export const VOTE_K = { min: 1, max: 100 } as const;
export const VOTE_STATUSES = ['OPEN', 'DECIDED', 'CLOSED'] as const;
export type VoteStatus = (typeof VOTE_STATUSES)[number];
export const DISCARD_REASONS = ['TOO_LONG', 'MALFORMED', 'UNRELIABLE_AGENT', 'LATE'] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

export interface OpenQuestionInput {
  scopeId: string;
  key: string;
  taskId: string | null;
  prompt: string | null;
  k: number;
  normalization: VoteNormalization;
  maxAnswerLength: number | null;
  answerPattern: string | null;
  author: string | null;
}

function checkQuestion(input: OpenQuestionInput): void {
  const c = new Checker();
  c.text(input.key, ['input', 'key'], LIMITS.name, true);
  c.text(input.prompt, ['input', 'prompt'], LIMITS.description);
  c.range(input.k, ['input', 'k'], VOTE_K.min, VOTE_K.max, true);
  c.range(input.maxAnswerLength, ['input', 'maxAnswerLength'], 1, VOTE_ANSWER_MAX, true);
  if (input.answerPattern != null) {
    c.text(input.answerPattern, ['input', 'answerPattern'], VOTE_PATTERN_MAX, true);
    const compiled = input.answerPattern.length <= VOTE_PATTERN_MAX ? linearPattern(input.answerPattern) : null;
    if (compiled instanceof Error) c.fail(['input', 'answerPattern'], compiled.message);
  }
  c.done();
}

/** Opens a question in a scope; its key is unique there. A task it names must be of the scope or an enclosing one. */
export async function openQuestion(deps: WriteDeps, input: OpenQuestionInput): Promise<VoteQuestion> {
  checkQuestion(input);
  const taken = () => new AlreadyExistsError(`A vote question with key "${input.key}" exists in this scope`, ['input', 'key']);
  try {
    return await writeTransaction(deps, async (tx) => {
      await assertWritableScope(tx, input.scopeId, ['input', 'scope']);
      if (input.taskId !== null) await assertTaskInChain(tx, input.scopeId, input.taskId);
      if (await tx.voteQuestion.findUnique({ where: { scopeId_key: { scopeId: input.scopeId, key: input.key } }, select: { id: true } })) throw taken();
      const { scopeId, key, taskId, prompt, k, normalization, maxAnswerLength, answerPattern, author } = input;
      return tx.voteQuestion.create({ data: { id: uuidv7(), scopeId, key, taskId, prompt, k, normalization, maxAnswerLength, answerPattern, createdBy: author } });
    });
  } catch (error) {
    // Two openings of one key at once: the second meets the unique index.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

async function assertTaskInChain(tx: Tx, scopeId: string, taskId: string): Promise<void> {
  const task = await tx.task.findUnique({ where: { id: taskId }, select: { scopeId: true } });
  const chain = task ? await scopeChainIds(tx, scopeId) : null;
  if (!task || !chain?.includes(task.scopeId)) throw new NotFoundError('No task of this scope or an enclosing one has this id', ['input', 'task']);
}

/**
 * Takes the question's row lock for the rest of the transaction (a no-op UPDATE: PostgreSQL locks
 * the row, SQLite has a single writer anyway), then reads it: every cast and close of one
 * question runs one after the other, so tallies and the decision are read as the last one left them.
 */
async function lockedQuestion(tx: Tx, id: string, path: string[]): Promise<VoteQuestion & { scope: { status: string | null } }> {
  const locked = await tx.$executeRaw`UPDATE "VoteQuestion" SET "countedVotes" = "countedVotes" WHERE "id" = ${id}`;
  const question = locked > 0 ? await tx.voteQuestion.findUnique({ where: { id }, include: { scope: { select: { status: true } } } }) : null;
  if (!question) throw new NotFoundError('No vote question has this id', path);
  if (question.scope.status === 'ARCHIVED') throw archivedError(path);
  return question;
}

/** Stops an open question without a decision; later votes are kept as LATE. */
export async function closeQuestion(deps: WriteDeps, id: string): Promise<VoteQuestion> {
  return writeTransaction(deps, async (tx) => {
    const question = await lockedQuestion(tx, id, ['input', 'question']);
    if (question.status !== 'OPEN') throw new InvalidStateError(`The question is ${question.status}: only an OPEN question can be closed`, question.status, ['input', 'question']);
    return tx.voteQuestion.update({ where: { id }, data: { status: 'CLOSED' } });
  });
}

export interface CastInput {
  questionId: string;
  /** The caller's actor: who votes. */
  voter: string | null;
  answer: string;
  confidence: number | null;
}

function checkCast(input: CastInput): string {
  const c = new Checker();
  if (!input.voter) c.fail(['input'], 'a vote needs a voter: send X-Engram-Actor (agent:<id>) or use the key of an agent');
  c.text(input.answer, ['input', 'answer'], VOTE_ANSWER_MAX, true);
  c.range(input.confidence, ['input', 'confidence'], LIMITS.confidence.min, LIMITS.confidence.max);
  c.done();
  return input.voter!;
}

/**
 * Casts the caller's vote. The vote is always kept; a red-flagged one (LATE, UNRELIABLE_AGENT,
 * TOO_LONG, MALFORMED: the first rule that applies) is not counted. A counted vote adds to its
 * answer's tally, and when that answer then leads every other by k the question is DECIDED by
 * this vote. Only the answer just voted for can newly reach a lead of k (the others' counts did
 * not move, and none led by k before, or the question would be decided), so one comparison with
 * the runner-up decides. Casts of one question are serialized on its row (lockedQuestion), so the
 * decision happens once, at the vote that first makes the lead k.
 */
export async function castVote(deps: WriteDeps, input: CastInput): Promise<Vote> {
  const voter = checkCast(input);
  return writeTransaction(deps, async (tx, emit) => {
    const question = await lockedQuestion(tx, input.questionId, ['input', 'question']);
    const normalized = normalizeAnswer(question.normalization as VoteNormalization, input.answer);
    const reason = await discardReason(tx, question, voter, input.answer, normalized);
    const vote = await tx.vote.create({
      data: { id: uuidv7(), questionId: question.id, voter, answer: input.answer, normalized: normalized ?? input.answer.trim(), confidence: input.confidence, discardReason: reason },
    });
    const announce = (type: 'VOTED' | 'DECIDED') => emit({ topic: 'vote', payload: { type, questionId: question.id, scopeId: question.scopeId, voteId: vote.id } });
    if (reason !== null) {
      await tx.voteQuestion.update({ where: { id: question.id }, data: { discardedVotes: { increment: 1 } } });
      announce('VOTED');
      return vote;
    }
    await countVote(tx, question, vote, announce);
    return vote;
  });
}

/** The rule that discards a vote, or null when it counts. */
async function discardReason(tx: Tx, question: VoteQuestion, voter: string, answer: string, normalized: string | null): Promise<DiscardReason | null> {
  if (question.status !== 'OPEN') return 'LATE';
  if (await isFlagged(tx, question.scopeId, voter)) return 'UNRELIABLE_AGENT';
  const subject = answerSubject(question.normalization as VoteNormalization, answer);
  if (question.maxAnswerLength !== null && subject.length > question.maxAnswerLength) return 'TOO_LONG';
  if (normalized === null) return 'MALFORMED';
  if (question.answerPattern !== null) {
    if (!matchable(question.answerPattern, subject)) return 'TOO_LONG';
    const pattern = linearPattern(question.answerPattern);
    if (pattern instanceof Error || !pattern.test(subject)) return 'MALFORMED';
  }
  return null;
}

/** Whether the agent is flagged unreliable in the scope or an enclosing one. */
async function isFlagged(db: Db | Tx, scopeId: string, agent: string): Promise<boolean> {
  const chain = (await scopeChainIds(db, scopeId)) ?? [scopeId];
  return (await db.flaggedAgent.findFirst({ where: { agent, scopeId: { in: chain } }, select: { agent: true } })) !== null;
}

/** Adds a counted vote to its answer's tally and decides the question when the answer now leads by k. */
async function countVote(tx: Tx, question: VoteQuestion, vote: Vote, announce: (type: 'VOTED' | 'DECIDED') => void): Promise<void> {
  const [tally] = await tx.$queryRaw<{ votes: number }[]>`INSERT INTO "VoteTally" ("questionId", "normalized", "votes") VALUES (${question.id}, ${vote.normalized}, 1)
    ON CONFLICT ("questionId", "normalized") DO UPDATE SET "votes" = "VoteTally"."votes" + 1 RETURNING "votes"`;
  const [runnerUp] = await tx.$queryRaw<{ votes: number }[]>`SELECT "votes" FROM "VoteTally"
    WHERE "questionId" = ${question.id} AND "normalized" <> ${vote.normalized} ORDER BY "votes" DESC LIMIT 1`;
  const margin = Number(tally!.votes) - Number(runnerUp?.votes ?? 0);
  const countedVotes = question.countedVotes + 1;
  announce('VOTED');
  if (margin < question.k) {
    await tx.voteQuestion.update({ where: { id: question.id }, data: { countedVotes } });
    return;
  }
  // Guarded by the status as well as by the row lock: a question is decided once.
  const decided = await tx.voteQuestion.updateMany({
    where: { id: question.id, status: 'OPEN' },
    data: { countedVotes, status: 'DECIDED', decidedAnswer: vote.normalized, decidedVoteId: vote.id, decidedAt: new Date(), decidedMargin: margin },
  });
  if (decided.count !== 1) throw new InvalidStateError('The question was decided by another vote', 'DECIDED', ['input', 'question']);
  announce('DECIDED');
}

export interface FlagInput {
  scopeId: string;
  agent: string;
  reason: string | null;
  by: string | null;
}

/** Flags an agent unreliable in a scope and below: its later votes there are discarded (UNRELIABLE_AGENT). Flagging again updates the reason. */
export async function flagAgent(deps: WriteDeps, input: FlagInput): Promise<FlaggedAgent> {
  const c = new Checker();
  c.text(input.agent, ['input', 'agent'], LIMITS.agentId, true);
  c.text(input.reason, ['input', 'reason'], LIMITS.changeReason);
  c.done();
  return writeTransaction(deps, async (tx) => {
    await assertWritableScope(tx, input.scopeId, ['input', 'scope']);
    const { scopeId, agent, reason, by } = input;
    return tx.flaggedAgent.upsert({
      where: { scopeId_agent: { scopeId, agent } },
      create: { scopeId, agent, reason, flaggedBy: by },
      update: { reason, flaggedBy: by, flaggedAt: new Date() },
    });
  });
}

/** Lifts a flag of this scope (one set on an enclosing scope stays). */
export async function unflagAgent(deps: WriteDeps, scopeId: string, agent: string): Promise<FlaggedAgent> {
  return writeTransaction(deps, async (tx) => {
    const flag = await tx.flaggedAgent.findUnique({ where: { scopeId_agent: { scopeId, agent } } });
    if (!flag) throw new NotFoundError(`${agent} is not flagged in this scope`, ['input', 'agent']);
    await tx.flaggedAgent.delete({ where: { scopeId_agent: { scopeId, agent } } });
    return flag;
  });
}

export interface AgentStats {
  agent: string;
  votes: number;
  counted: number;
  discarded: number;
  /** Its votes on questions that are DECIDED (discarded and LATE ones included). */
  onDecided: number;
  /** Of those, the ones whose normalized answer is the decision. */
  agreed: number;
}

/** A page of the agents flagged in the scope itself, by agent. */
export function flaggedAgents(db: Db, scopeId: string, page: CursorPage): Promise<FlaggedAgent[]> {
  const { after, before, limit, inverted } = page;
  return db.flaggedAgent.findMany({
    where: { scopeId, agent: { ...(after != null ? { gt: after } : {}), ...(before != null ? { lt: before } : {}) } },
    orderBy: { agent: inverted ? 'desc' : 'asc' },
    take: limit,
  });
}

/**
 * Per agent of the scope's questions: votes, counted, discarded, and agreement with the decided
 * answers. One grouped statement per page, agents in byte order (the page's cursor).
 */
export async function agentStats(db: Db, provider: Provider, scopeId: string, page: CursorPage): Promise<AgentStats[]> {
  const voter = provider === 'postgresql' ? Prisma.sql`v."voter" COLLATE "C"` : Prisma.sql`v."voter"`;
  const conditions = [Prisma.sql`q."scopeId" = ${scopeId}`];
  if (page.after != null) conditions.push(Prisma.sql`${voter} > ${page.after}`);
  if (page.before != null) conditions.push(Prisma.sql`${voter} < ${page.before}`);
  const rows = await db.$queryRaw<Record<keyof AgentStats, string | number | bigint>[]>`
    SELECT v."voter" AS "agent", COUNT(*) AS "votes",
      SUM(CASE WHEN v."discardReason" IS NULL THEN 1 ELSE 0 END) AS "counted",
      SUM(CASE WHEN q."status" = 'DECIDED' THEN 1 ELSE 0 END) AS "onDecided",
      SUM(CASE WHEN q."status" = 'DECIDED' AND v."normalized" = q."decidedAnswer" THEN 1 ELSE 0 END) AS "agreed"
    FROM "Vote" v JOIN "VoteQuestion" q ON q."id" = v."questionId"
    WHERE ${Prisma.join(conditions, ' AND ')}
    GROUP BY v."voter" ORDER BY ${voter} ${page.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`} LIMIT ${page.limit}`;
  return rows.map((r) => {
    const votes = Number(r.votes);
    const counted = Number(r.counted);
    return { agent: String(r.agent), votes, counted, discarded: votes - counted, onDecided: Number(r.onDecided), agreed: Number(r.agreed) };
  });
}

/** When each question got its first vote (null without votes), in one grouped read. */
export async function firstVotes(db: Db, questionIds: readonly string[]): Promise<(Date | null)[]> {
  const rows = await db.vote.groupBy({ by: ['questionId'], where: { questionId: { in: [...questionIds] } }, _min: { castAt: true } });
  const byId = new Map(rows.map((r) => [r.questionId, r._min.castAt]));
  return questionIds.map((id) => byId.get(id) ?? null);
}
