// Voting (issue 16, MDAP): first-to-ahead-by-k decisions, red-flagged votes kept and counted,
// answer normalization, stats, the voteChanged subscription, and 50 concurrent votes (on two
// instances with PostgreSQL) deciding a question exactly once.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { App } from '../src/app.ts';
import { VOTE_MATCH_BUDGET } from '../src/modules/votes/answers.ts';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness, withSecondInstance } from './support/harness.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();

const ERRORS = `... on UserError { code message path } ... on InvalidStateError { currentState }`;
const QUESTION = `id key status k normalization decidedAnswer decidingVoteId decidedMargin countedVotes discardedVotes createdAt decidedAt`;
const OPEN = `mutation ($input: OpenVoteQuestionInput!) { openVoteQuestion(input: $input) { __typename ... on OpenVoteQuestionSuccess { question { ${QUESTION} } } ${ERRORS} } }`;
const CLOSE = `mutation ($input: CloseVoteQuestionInput!) { closeVoteQuestion(input: $input) { __typename ... on CloseVoteQuestionSuccess { question { status } } ${ERRORS} } }`;
const CAST = `mutation ($input: CastVoteInput!) { castVote(input: $input) { __typename ${ERRORS}
  ... on CastVoteSuccess { vote { id voter answer normalized counted discardReason decisive confidence castAt question { ${QUESTION} } } } } }`;
const FLAG = `mutation ($input: FlagAgentInput!) { flagAgent(input: $input) { __typename ... on FlagAgentSuccess { flag { agent reason } } ${ERRORS} } }`;
const UNFLAG = `mutation ($input: UnflagAgentInput!) { unflagAgent(input: $input) { __typename ... on UnflagAgentSuccess { flag { agent scope { id } } } ... on UserError { code message } } }`;
const READ = `query ($id: ID!) { voteQuestion(id: $id) { ${QUESTION} tally { answer votes }
  votes(first: 100) { totalCount edges { node { voter normalized discardReason decisive castAt } } }
  stats { votesNeeded margin discardedVotes firstVoteAt timeToDecisionMs timeFromFirstVoteMs } } }`;

async function project(name: string, organization?: string): Promise<string> {
  const made = await ok(h, null, 'mutation ($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }', {
    n: name,
    o: organization ?? null,
  });
  return made.createProject.project.id;
}

/** A mutation as `agent` (its X-Engram-Actor), in-process, through `app` (the harness's by default). */
async function call(query: string, field: string, input: Record<string, unknown>, agent: string | null = null, app?: App): Promise<any> {
  const answer = app
    ? ((await (await app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(agent ? { 'x-engram-actor': agent } : {}) },
        body: JSON.stringify({ query, variables: { input } }),
      })).json()) as { data?: Record<string, any>; errors?: unknown })
    : await as(h, null, query, { input }, agent ? { 'x-engram-actor': agent } : {});
  expect(answer.errors).toBeUndefined();
  return answer.data![field];
}

async function open(input: Record<string, unknown>): Promise<any> {
  const result = await call(OPEN, 'openVoteQuestion', input);
  expect(result.__typename).toBe('OpenVoteQuestionSuccess');
  return result.question;
}

const vote = (question: string, answer: string, agent: string, app?: App) => call(CAST, 'castVote', { question, answer }, agent, app);
const read = async (id: string) => (await ok(h, null, READ, { id })).voteQuestion;

describe('votes', () => {
  it('first-to-ahead-by-k: with k=2, A B A A decides A at the 4th vote and not before; later votes are kept as LATE', async () => {
    const scope = await project('votes-k2');
    const q = await open({ scope, key: 'subtask-1', k: 2 });
    expect(q).toMatchObject({ status: 'OPEN', k: 2, normalization: 'TRIM', countedVotes: 0, decidedAnswer: null });
    const steps = [];
    for (const [answer, agent] of [['A', 'agent:1'], ['B', 'agent:2'], ['A ', 'agent:3'], [' A', 'agent:4']] as const) steps.push((await vote(q.id, answer, agent)).vote);
    expect(steps.map((v) => v.question.status)).toEqual(['OPEN', 'OPEN', 'OPEN', 'DECIDED']);
    expect(steps.map((v) => v.decisive)).toEqual([false, false, false, true]);
    expect(steps[3].question).toMatchObject({ decidedAnswer: 'A', decidingVoteId: steps[3].id, decidedMargin: 2, countedVotes: 4, discardedVotes: 0 });

    const late = (await vote(q.id, 'B', 'agent:5')).vote;
    expect(late).toMatchObject({ counted: false, discardReason: 'LATE', decisive: false, question: { status: 'DECIDED', countedVotes: 4, discardedVotes: 1, decidedAnswer: 'A' } });
    const after = await read(q.id);
    expect(after.tally).toEqual([{ answer: 'A', votes: 3 }, { answer: 'B', votes: 1 }]);
    const tooMany = await as(h, null, 'query ($id: ID!) { voteQuestion(id: $id) { tally(first: 101) { votes } } }', { id: q.id });
    expect(tooMany.errors?.map((e) => e.extensions.code)).toEqual(['VALIDATION_FAILED']);
    expect(after.votes.totalCount).toBe(5);
    expect(after.votes.edges.map((e: any) => [e.node.voter, e.node.discardReason, e.node.decisive])).toEqual([
      ['agent:1', null, false],
      ['agent:2', null, false],
      ['agent:3', null, false],
      ['agent:4', null, true],
      ['agent:5', 'LATE', false],
    ]);

    const byKey = await ok(h, null, 'query ($s: ID!) { voteQuestionByKey(scope: $s, key: "subtask-1") { id status } missing: voteQuestionByKey(scope: $s, key: "nope") { id } }', { s: scope });
    expect(byKey).toEqual({ voteQuestionByKey: { id: q.id, status: 'DECIDED' }, missing: null });

    // k=1: the first counted vote decides.
    const quick = await open({ scope, key: 'subtask-2', k: 1 });
    expect((await vote(quick.id, 'yes', 'agent:1')).vote.question).toMatchObject({ status: 'DECIDED', decidedAnswer: 'yes', decidedMargin: 1, countedVotes: 1 });
  });

  it('red flags: too long, malformed, from an agent flagged in an enclosing scope; discarded votes are kept, counted apart and never tallied', async () => {
    const org = (await ok(h, null, 'mutation { createOrganization(input: { name: "votes-flags" }) { ... on CreateOrganizationSuccess { organization { id } } } }')).createOrganization.organization.id;
    const scope = await project('votes-flags', org);
    const q = await open({ scope, key: 'format', k: 2, maxAnswerLength: 6, answerPattern: '[a-z]+(,[a-z]+)*' });
    expect((await call(FLAG, 'flagAgent', { scope: org, agent: 'agent:liar', reason: 'hallucinates' })).flag).toEqual({ agent: 'agent:liar', reason: 'hallucinates' });
    expect((await ok(h, null, 'query ($s: ID!) { flaggedAgents(scope: $s) { edges { node { agent reason } } } }', { s: org })).flaggedAgents).toEqual({
      edges: [{ node: { agent: 'agent:liar', reason: 'hallucinates' } }],
    });

    const reasons = [];
    for (const [answer, agent] of [['abcdefg', 'agent:1'], ['ABC', 'agent:2'], ['a,,b', 'agent:3'], ['abc', 'agent:liar'], ['  abc \n', 'agent:4']] as const) {
      reasons.push((await vote(q.id, answer, agent)).vote.discardReason);
    }
    expect(reasons).toEqual(['TOO_LONG', 'MALFORMED', 'MALFORMED', 'UNRELIABLE_AGENT', null]);
    const state = await read(q.id);
    expect(state).toMatchObject({ status: 'OPEN', countedVotes: 1, discardedVotes: 4, tally: [{ answer: 'abc', votes: 1 }] });
    const discarded = await ok(h, null, 'query ($id: ID!) { voteQuestion(id: $id) { votes(discarded: true) { totalCount } } }', { id: q.id });
    expect(discarded.voteQuestion.votes.totalCount).toBe(4);

    // Lifted in the scope it was set in, the flag no longer discards; lifting one that is not there is NotFound.
    expect(await call(UNFLAG, 'unflagAgent', { scope, agent: 'agent:liar' })).toMatchObject({ __typename: 'NotFoundError' });
    // The flag's row is gone; its scope is still told.
    expect(await call(UNFLAG, 'unflagAgent', { scope: org, agent: 'agent:liar' })).toMatchObject({ __typename: 'UnflagAgentSuccess', flag: { agent: 'agent:liar', scope: { id: org } } });
    expect((await vote(q.id, 'abc', 'agent:liar')).vote.question).toMatchObject({ status: 'DECIDED', countedVotes: 2, discardedVotes: 4 });

    // A pattern that backtracks exponentially elsewhere runs in linear time here: answered at once.
    const hostile = await open({ scope, key: 'hostile', k: 1, answerPattern: '(a+)+b', normalization: 'EXACT' });
    expect((await vote(hostile.id, `${'a'.repeat(9_999)}c`, 'agent:1')).vote.discardReason).toBe('MALFORMED');
    expect((await vote(hostile.id, 'aab', 'agent:1')).vote.question.status).toBe('DECIDED');

    // A long pattern is matched against short answers only: its length times the answer's is
    // bounded (125 capture groups against 10,000 characters took a second of the event loop).
    const long = '(.*)'.repeat(125);
    const costly = await open({ scope, key: 'costly', k: 2, answerPattern: long, normalization: 'EXACT' });
    expect(long.length * 10_000).toBeGreaterThan(VOTE_MATCH_BUDGET);
    expect((await vote(costly.id, 'a'.repeat(10_000), 'agent:1')).vote.discardReason).toBe('TOO_LONG');
    expect((await vote(costly.id, 'a'.repeat(VOTE_MATCH_BUDGET / long.length), 'agent:2')).vote.discardReason).toBeNull();
  });

  it('normalization: JSON sorts keys, CASE_INSENSITIVE folds case, EXACT keeps whitespace; text that is not JSON is MALFORMED', async () => {
    const scope = await project('votes-normalize');
    const json = await open({ scope, key: 'json', k: 2, normalization: 'JSON' });
    expect((await vote(json.id, '{"a":1,"b":2}', 'agent:1')).vote.normalized).toBe('{"a":1,"b":2}');
    expect((await vote(json.id, '{bad', 'agent:2')).vote).toMatchObject({ discardReason: 'MALFORMED', counted: false });
    const second = (await vote(json.id, '{ "b": 2, "a": 1 }', 'agent:3')).vote;
    expect(second).toMatchObject({ normalized: '{"a":1,"b":2}', decisive: true, question: { status: 'DECIDED', decidedAnswer: '{"a":1,"b":2}', countedVotes: 2 } });

    // A number is compared as the number it is (1.0 is 1, 1e2 is 100); one a double cannot carry
    // would be another answer's (1e400 printed as null, ...891 as ...000): MALFORMED.
    const numbers = await open({ scope, key: 'numbers', k: 3, normalization: 'JSON' });
    const normalized = async (answer: string, agent: string) => (await vote(numbers.id, answer, agent)).vote;
    expect(await normalized('[1.0, 1e2, 0.1]', 'agent:1')).toMatchObject({ normalized: '[1,100,0.1]', counted: true });
    expect(await normalized('1e400', 'agent:2')).toMatchObject({ discardReason: 'MALFORMED', counted: false });
    expect(await normalized('12345678901234567891', 'agent:3')).toMatchObject({ discardReason: 'MALFORMED', counted: false });
    expect(await normalized('{"n": "12345678901234567891"}', 'agent:4')).toMatchObject({ normalized: '{"n":"12345678901234567891"}', counted: true });

    const folded = await open({ scope, key: 'case', k: 2, normalization: 'CASE_INSENSITIVE' });
    await vote(folded.id, 'Yes', 'agent:1');
    expect((await vote(folded.id, ' YES\n', 'agent:2')).vote.question).toMatchObject({ status: 'DECIDED', decidedAnswer: 'yes' });

    const exact = await open({ scope, key: 'exact', k: 2, normalization: 'EXACT' });
    await vote(exact.id, 'x', 'agent:1');
    expect((await vote(exact.id, 'x ', 'agent:2')).vote.question).toMatchObject({ status: 'OPEN', countedVotes: 2 });
    expect((await read(exact.id)).tally).toEqual([{ answer: 'x', votes: 1 }, { answer: 'x ', votes: 1 }]);
  });

  it('closing stops voting without a decision; later votes are LATE; a closed question cannot be closed again', async () => {
    const scope = await project('votes-close');
    const q = await open({ scope, key: 'q', k: 3 });
    await vote(q.id, 'A', 'agent:1');
    expect(await call(CLOSE, 'closeVoteQuestion', { question: q.id })).toEqual({ __typename: 'CloseVoteQuestionSuccess', question: { status: 'CLOSED' } });
    expect((await vote(q.id, 'A', 'agent:2')).vote).toMatchObject({ discardReason: 'LATE', question: { status: 'CLOSED', countedVotes: 1, discardedVotes: 1, decidedAnswer: null } });
    expect(await call(CLOSE, 'closeVoteQuestion', { question: q.id })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'CLOSED' });
  });

  it('refuses bad input with typed errors', async () => {
    const scope = await project('votes-validation');
    const other = await project('votes-validation-other');
    const task = (await ok(h, null, 'mutation ($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }', { s: other })).createTask.task.id;
    const mine = (await ok(h, null, 'mutation ($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }', { s: scope })).createTask.task.id;
    const failing = async (input: Record<string, unknown>) => {
      const result = await call(OPEN, 'openVoteQuestion', { scope, key: 'k', k: 2, ...input });
      return [result.__typename, result.path?.join('.')];
    };
    expect(await failing({ k: 0 })).toEqual(['ValidationError', 'input.k']);
    expect(await failing({ k: 101 })).toEqual(['ValidationError', 'input.k']);
    expect(await failing({ key: ' ' })).toEqual(['ValidationError', 'input.key']);
    expect(await failing({ maxAnswerLength: 0 })).toEqual(['ValidationError', 'input.maxAnswerLength']);
    expect(await failing({ answerPattern: '(a)\\1' })).toEqual(['ValidationError', 'input.answerPattern']);
    expect(await failing({ answerPattern: '(?=a)a' })).toEqual(['ValidationError', 'input.answerPattern']);
    expect(await failing({ answerPattern: 'a{1,100}' })).toEqual(['ValidationError', 'input.answerPattern']);
    expect(await failing({ answerPattern: 'a'.repeat(501) })).toEqual(['ValidationError', 'input.answerPattern']);
    expect(await failing({ answerPattern: '(' })).toEqual(['ValidationError', 'input.answerPattern']);
    // Not a pattern alone, though wrapped as a whole-answer match it would compile (and check only the ends).
    expect(await failing({ answerPattern: 'yes)|(?:no' })).toEqual(['ValidationError', 'input.answerPattern']);
    expect(await failing({ task })).toEqual(['NotFoundError', 'input.task']);

    const q = await open({ scope, key: 'k', k: 2, task: mine, answerPattern: '[0-9]{1,3}' });
    expect(await failing({})).toEqual(['AlreadyExistsError', 'input.key']);
    const cast = async (input: Record<string, unknown>, agent: string | null = 'agent:1') => {
      const result = await call(CAST, 'castVote', { question: q.id, answer: '1', ...input }, agent);
      return [result.__typename, result.path?.join('.')];
    };
    expect(await cast({ answer: '' })).toEqual(['ValidationError', 'input.answer']);
    expect(await cast({ answer: 'x'.repeat(10_001) })).toEqual(['ValidationError', 'input.answer']);
    expect(await cast({ confidence: 1.5 })).toEqual(['ValidationError', 'input.confidence']);
    expect(await cast({}, null)).toEqual(['ValidationError', 'input']);
    expect(await cast({ question: task })).toEqual(['ValidationError', 'input.question']);
    expect((await call(CAST, 'castVote', { question: q.id, answer: '42', confidence: 0.9 }, 'agent:1')).vote).toMatchObject({ confidence: 0.9, counted: true });
    expect((await call(CAST, 'castVote', { question: q.id, answer: '1234' }, 'agent:1')).vote.discardReason).toBe('MALFORMED');
  });

  it('access: READ reads but cannot open or cast, WRITE casts as its own agent, only ADMIN flags; others see nothing', async () => {
    const scope = await project('votes-access');
    const q = await open({ scope, key: 'q', k: 2 });
    const reader = await principal(h, 'vote-reader', { grants: [[scope, 'READ']] });
    const writer = await principal(h, 'vote-writer', { grants: [[scope, 'WRITE']] });
    const stranger = await principal(h, 'vote-stranger');
    const castAs = async (key: string) => (await as(h, key, CAST, { input: { question: q.id, answer: 'A' } })).data!.castVote;

    expect(await castAs(reader.key)).toMatchObject({ __typename: 'PermissionDeniedError' });
    expect((await as(h, reader.key, OPEN, { input: { scope, key: 'r', k: 1 } })).data!.openVoteQuestion.__typename).toBe('PermissionDeniedError');
    expect(await castAs(stranger.key)).toMatchObject({ __typename: 'NotFoundError' });
    expect(await castAs(writer.key)).toMatchObject({ __typename: 'CastVoteSuccess', vote: { voter: 'agent:vote-writer', counted: true } });
    expect((await as(h, writer.key, FLAG, { input: { scope, agent: 'agent:x' } })).data!.flagAgent.__typename).toBe('PermissionDeniedError');

    expect((await ok(h, reader.key, 'query ($id: ID!) { voteQuestion(id: $id) { countedVotes } }', { id: q.id })).voteQuestion).toEqual({ countedVotes: 1 });
    expect((await ok(h, reader.key, 'query ($id: ID!) { node(id: $id) { ... on VoteQuestion { key } } }', { id: q.id })).node).toEqual({ key: 'q' });
    expect(await ok(h, stranger.key, 'query ($id: ID!) { voteQuestion(id: $id) { key } }', { id: q.id })).toEqual({ voteQuestion: null });
    const stats = await as(h, stranger.key, 'query ($s: ID!) { voteAgentStats(scope: $s) { edges { node { agent } } } }', { s: scope });
    expect(stats.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('flaggedAgents and voteAgentStats: a scope id nothing has is NOT_FOUND to an admin as to a grant holder, whatever is selected', async () => {
    const scope = await project('votes-unknown-scope');
    const ghost = Buffer.from('Project:00000000-0000-7000-8000-000000000000').toString('base64');
    const reader = await principal(h, 'votes-unknown-reader', { grants: [[scope, 'READ']] });
    const admin = await principal(h, 'votes-unknown-admin', { admin: true });
    for (const field of ['flaggedAgents', 'voteAgentStats']) {
      for (const selection of ['edges { node { agent } }', 'pageInfo { hasNextPage endCursor }']) {
        // The local admin (no key), an admin principal, a holder of READ elsewhere; with first: 0 too.
        for (const key of [null, admin.key, reader.key]) {
          for (const first of [null, 0]) {
            const answer = await as(h, key, `query ($s: ID!, $first: Int) { ${field}(scope: $s, first: $first) { ${selection} } }`, { s: ghost, first });
            expect(answer.data?.[field] ?? null).toBeNull();
            expect(answer.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
              { message: 'No scope has this id', extensions: { code: 'NOT_FOUND', inputPath: ['scope'] } },
            ]);
          }
        }
      }
      // A scope that exists lists its rows (none here) to both.
      for (const key of [null, admin.key, reader.key]) {
        expect((await as(h, key, `query ($s: ID!) { ${field}(scope: $s) { edges { cursor } } }`, { s: scope })).data![field]).toEqual({ edges: [] });
      }
    }
  });

  it('stats: votes needed, margin and time to decision per question; agreement per agent, paged, in one statement per page', async () => {
    const scope = await project('votes-stats');
    const q1 = await open({ scope, key: 'q1', k: 2 });
    const q2 = await open({ scope, key: 'q2', k: 1, maxAnswerLength: 3 });
    const q3 = await open({ scope, key: 'q3', k: 3 });
    const cast: any[] = [];
    for (const [q, answer, agent] of [
      [q1, 'x', 'agent:a'], [q1, 'y', 'agent:b'], [q1, 'x', 'agent:c'], [q1, 'x', 'agent:a'], [q1, 'x', 'agent:b'],
      [q2, 'toolong', 'agent:c'], [q2, 'z', 'agent:b'],
      [q3, 'q', 'agent:a'],
    ] as const) cast.push((await vote(q.id, answer, agent)).vote);
    expect(cast.map((v) => v.discardReason)).toEqual([null, null, null, null, 'LATE', 'TOO_LONG', null, null]);

    const s1 = await read(q1.id);
    expect(s1.stats).toMatchObject({ votesNeeded: 4, margin: 2, discardedVotes: 1, firstVoteAt: cast[0].castAt });
    expect(s1.stats.timeToDecisionMs).toBe(Date.parse(s1.decidedAt) - Date.parse(s1.createdAt));
    expect(s1.stats.timeFromFirstVoteMs).toBe(Date.parse(s1.decidedAt) - Date.parse(cast[0].castAt));
    expect((await read(q2.id)).stats).toMatchObject({ votesNeeded: 1, margin: 1, discardedVotes: 1, firstVoteAt: cast[5].castAt });
    expect((await read(q3.id)).stats).toMatchObject({ votesNeeded: null, margin: null, timeToDecisionMs: null, timeFromFirstVoteMs: null, firstVoteAt: cast[7].castAt });

    const STATS = `query ($s: ID!, $after: String) { voteAgentStats(scope: $s, first: 2, after: $after) {
      pageInfo { hasNextPage endCursor } edges { node { agent votes counted discarded onDecided agreed agreementRate } } } }`;
    const page1 = (await ok(h, null, STATS, { s: scope })).voteAgentStats;
    expect(page1.edges.map((e: any) => e.node)).toEqual([
      { agent: 'agent:a', votes: 3, counted: 3, discarded: 0, onDecided: 2, agreed: 2, agreementRate: 1 },
      { agent: 'agent:b', votes: 3, counted: 2, discarded: 1, onDecided: 3, agreed: 2, agreementRate: 2 / 3 },
    ]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await ok(h, null, STATS, { s: scope, after: page1.pageInfo.endCursor })).voteAgentStats;
    expect(page2.edges.map((e: any) => e.node)).toEqual([{ agent: 'agent:c', votes: 2, counted: 1, discarded: 1, onDecided: 2, agreed: 1, agreementRate: 0.5 }]);
    expect(page2.pageInfo.hasNextPage).toBe(false);

    // Every question's stats of a page: one grouped read of the first votes, not one per question.
    const listed = await ok(h, null, 'query ($s: ID!) { voteQuestions(scope: $s, status: DECIDED) { totalCount edges { node { key } } } }', { s: scope });
    expect(listed.voteQuestions).toEqual({ totalCount: 2, edges: [{ node: { key: 'q2' } }, { node: { key: 'q1' } }] });
    h.resetStatements();
    const all = await ok(h, null, 'query ($s: ID!) { voteQuestions(scope: $s) { edges { node { key stats { firstVoteAt timeFromFirstVoteMs } tally { votes } } } } }', { s: scope });
    expect(all.voteQuestions.edges).toHaveLength(3);
    expect(h.statements.filter((sql) => /MIN\(/i.test(sql) && /[`"]Vote[`"]/.test(sql))).toHaveLength(1);
    expect(h.statements.filter((sql) => /[`"]VoteTally[`"]/.test(sql))).toHaveLength(1);
  });

  it('flaggedAgents and voteAgentStats: first: 0 answers a cursor to go on from (from the start) where rows follow, null where none do; never ""', async () => {
    const scope = await project('votes-first-0');
    const q = await open({ scope, key: 'q', k: 9 });
    for (const agent of ['agent:c', 'agent:a', 'agent:b']) {
      await call(FLAG, 'flagAgent', { scope, agent });
      await vote(q.id, 'x', agent);
    }
    const PAGE = 'pageInfo { hasNextPage endCursor hasPreviousPage startCursor } edges { cursor node { agent } }';
    for (const field of ['flaggedAgents', 'voteAgentStats']) {
      const list = async (s: string, args: Record<string, unknown>) => {
        const query = `query ($s: ID!, $first: Int, $last: Int, $after: String, $before: String) {
          ${field}(scope: $s, first: $first, last: $last, after: $after, before: $before) { ${PAGE} } }`;
        return (await ok(h, null, query, { s, ...args }))[field];
      };
      const agents = (page: any) => page.edges.map((e: any) => e.node.agent);
      const all = await list(scope, { first: 100 });
      expect(agents(all)).toEqual(['agent:a', 'agent:b', 'agent:c']);

      const none = await list(scope, { first: 0 });
      expect(none.edges).toEqual([]);
      expect(none.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: null });
      expect(none.pageInfo.endCursor).toEqual(expect.stringMatching(/^.+$/));
      // Its end cursor is where the list starts: the next page is the first one.
      expect(agents(await list(scope, { first: 100, after: none.pageInfo.endCursor }))).toEqual(agents(all));
      expect(agents(await list(scope, { first: 2, after: none.pageInfo.endCursor }))).toEqual(['agent:a', 'agent:b']);
      // Given a cursor, an empty page stays at it; the rows' cursors page on as before.
      const stay = await list(scope, { first: 0, after: all.edges[0].cursor });
      expect(stay.pageInfo).toMatchObject({ hasNextPage: true, endCursor: all.edges[0].cursor });
      expect(agents(await list(scope, { first: 100, after: all.edges[0].cursor }))).toEqual(['agent:b', 'agent:c']);
      expect(agents(await list(scope, { last: 100, before: all.edges[2].cursor }))).toEqual(['agent:a', 'agent:b']);

      // Backwards the same: last: 0 answers a start cursor before which the list ends at its last row.
      const back = await list(scope, { last: 0 });
      expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false, endCursor: null });
      expect(back.pageInfo.startCursor).toEqual(expect.stringMatching(/^.+$/));
      expect(agents(await list(scope, { last: 2, before: back.pageInfo.startCursor }))).toEqual(['agent:b', 'agent:c']);

      // Nothing to page: no cursor at all, as on the API's other lists.
      const empty = await project(`votes-first-0-empty-${field}`);
      for (const first of [0, 10]) {
        expect((await list(empty, { first })).pageInfo).toEqual({ hasNextPage: false, endCursor: null, hasPreviousPage: false, startCursor: null });
      }
      // A text that is not one of the list's cursors is refused, as on the API's other lists: a name
      // as such, or one holding a NUL (PostgreSQL cannot even compare with it).
      for (const cursor of ['agent:a', Buffer.from(JSON.stringify(['agent:a\u0000'])).toString('base64url')]) {
        const bad = await as(h, null, `query ($s: ID!, $c: String) { ${field}(scope: $s, after: $c) { edges { cursor } } }`, { s: scope, c: cursor });
        expect(bad.errors!.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
          { message: 'after: is not a cursor of this list', extensions: { code: 'VALIDATION_FAILED', inputPath: ['after'] } },
        ]);
      }
    }
  });

  it('voteChanged announces every vote and the decision once, over SSE', async () => {
    const scope = await project('votes-events');
    const probe = await open({ scope, key: 'probe', k: 100 });
    const q = await open({ scope, key: 'q', k: 2 });
    const watch = await sseSubscribe(
      h.app,
      parse('subscription ($s: ID!) { voteChanged(scope: $s) { type questionId voteId vote { voter normalized } question { status decidedAnswer decidingVoteId } } }') as TypedDocumentNode<any, any>,
      { s: scope },
    );
    const decisions = await sseSubscribe(h.app, parse('subscription ($s: ID!, $q: ID) { voteChanged(scope: $s, question: $q, decisionsOnly: true) { type questionId } }') as TypedDocumentNode<any, any>, {
      s: scope,
      q: q.id,
    });
    try {
      await untilListening(watch.collector, () => vote(probe.id, 'p', 'agent:probe'));
      const seen = watch.collector.results.length;
      const votes = [];
      for (const [answer, agent] of [['A', 'agent:1'], ['B', 'agent:2'], ['A', 'agent:3'], ['A', 'agent:4'], ['B', 'agent:5']] as const) votes.push((await vote(q.id, answer, agent)).vote);
      const events = (await watch.collector.until((r) => r.length >= seen + 6)).slice(seen).map((r) => r.data!.voteChanged);
      expect(events.every((e) => e.questionId === q.id)).toBe(true);
      expect(events.map((e) => [e.type, e.vote.voter])).toEqual([
        ['VOTED', 'agent:1'], ['VOTED', 'agent:2'], ['VOTED', 'agent:3'], ['VOTED', 'agent:4'], ['DECIDED', 'agent:4'], ['VOTED', 'agent:5'],
      ]);
      expect(events[4]).toMatchObject({ voteId: votes[3].id, question: { status: 'DECIDED', decidedAnswer: 'A', decidingVoteId: votes[3].id } });
      const decided = await decisions.collector.until((r) => r.length >= 1);
      expect(decided.map((r) => r.data!.voteChanged)).toEqual([{ type: 'DECIDED', questionId: q.id }]);
    } finally {
      watch.close();
      decisions.close();
    }
    // A question of another scope would never have an event here: refused, not a silent stream.
    const elsewhere = await open({ scope: await project('votes-events-elsewhere'), key: 'q', k: 2 });
    const mismatched = await sseSubscribe(h.app, parse('subscription ($s: ID!, $q: ID) { voteChanged(scope: $s, question: $q) { type } }') as TypedDocumentNode<any, any>, {
      s: scope,
      q: elsewhere.id,
    });
    const [refused] = await mismatched.collector.until((r) => r.length >= 1);
    mismatched.close();
    expect(refused?.errors?.map((e) => [e.extensions?.code, e.message])).toEqual([['NOT_FOUND', 'No question of this scope has this id']]);
  });

  it('50 concurrent votes (on two instances with PostgreSQL) decide exactly once, and the tallies are the counted votes', async () => {
    const scope = await project('votes-concurrency');
    const probe = await open({ scope, key: 'probe', k: 100 });
    const k = 4;
    const q = await open({ scope, key: 'contended', k });
    const doc = parse('subscription ($s: ID!) { voteChanged(scope: $s) { type questionId voteId } }') as TypedDocumentNode<any, any>;
    const race = async (other: App) => {
      // One subscriber: the change feed carries the decisions made through either instance.
      const watch = await sseSubscribe(h.app, doc, { s: scope });
      try {
        await untilListening(watch.collector, () => vote(probe.id, 'p', 'agent:probe'));
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => vote(q.id, i % 4 === 0 ? 'B' : 'A', `agent:${i}`, i % 2 ? other : h.app)));
        // A last vote through the other instance: once its event is in, every earlier one is too (the feed is in commit order).
        const last = (await vote(q.id, 'A', 'agent:last', other)).vote.id;
        await watch.collector.until((r) => r.some((x) => x.data?.voteChanged.voteId === last), 10_000);
        const decided = watch.collector.results.map((r) => r.data!.voteChanged).filter((e) => e.type === 'DECIDED' && e.questionId === q.id);
        return { results, decided, extra: 1 };
      } finally {
        watch.close();
      }
    };
    // An embedded SQLite database has one server; PostgreSQL is shared by several.
    const { results, decided, extra } = DB_KIND === 'postgresql' ? await withSecondInstance(h, (other) => race(other.app)) : await race(h.app);

    expect(results.map((r) => r.__typename)).toEqual(Array(50).fill('CastVoteSuccess'));
    const decisive = results.filter((r) => r.vote.decisive).map((r) => r.vote.id);
    const state = await read(q.id);
    expect(decisive).toHaveLength(1);
    expect(decided).toEqual([{ type: 'DECIDED', questionId: q.id, voteId: decisive[0] }]);
    // Mostly A (three votes in four), but the order the 50 commit in is the race's: B can lead by
    // k first. The decided answer is the deciding vote's.
    const deciding = results.findIndex((r) => r.vote.decisive);
    expect(state).toMatchObject({ status: 'DECIDED', decidedAnswer: deciding % 4 === 0 ? 'B' : 'A', decidingVoteId: decisive[0], decidedMargin: k });
    const tallied = state.tally.reduce((sum: number, t: { votes: number }) => sum + t.votes, 0);
    const counted = state.votes.edges.filter((e: any) => e.node.discardReason === null).length;
    expect(tallied).toBe(state.countedVotes);
    expect(counted).toBe(state.countedVotes);
    expect(state.tally[0].votes - (state.tally[1]?.votes ?? 0)).toBe(k);
    const late = state.votes.edges.filter((e: any) => e.node.discardReason === 'LATE').length;
    expect(late + counted).toBe(50 + extra);
    expect(state.discardedVotes).toBe(late);
  });
});
