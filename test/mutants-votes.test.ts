// Rules of voting that the mutation run of 2026-11-27 found untested (votes.service.ts): a key
// taken twice, an unknown or closed question, the length red flag's boundary, flags of other
// scopes, a flag set again, and where each refusal points.
import { describe, expect, it } from 'vitest';
import { as, ok } from './support/access.ts';
import { useHarness } from './support/harness.ts';

const h = useHarness();

const ERRORS = `... on UserError { code message path } ... on InvalidStateError { currentState }`;
const OPEN = `mutation ($input: OpenVoteQuestionInput!) { openVoteQuestion(input: $input) { __typename ... on OpenVoteQuestionSuccess { question { id } } ${ERRORS} } }`;
const CLOSE = `mutation ($input: CloseVoteQuestionInput!) { closeVoteQuestion(input: $input) { __typename ... on CloseVoteQuestionSuccess { question { status } } ${ERRORS} } }`;
const CAST = `mutation ($input: CastVoteInput!) { castVote(input: $input) { __typename ${ERRORS} ... on CastVoteSuccess { vote { counted discardReason } } } }`;
const FLAG = `mutation ($input: FlagAgentInput!) { flagAgent(input: $input) { __typename ... on FlagAgentSuccess { flag { agent reason } } ${ERRORS} } }`;
const UNFLAG = `mutation ($input: UnflagAgentInput!) { unflagAgent(input: $input) { __typename ... on UserError { code message path } } }`;

async function project(name: string): Promise<string> {
  return (await ok(h, null, 'mutation ($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', { n: name })).createProject.project.id;
}

async function call(query: string, input: Record<string, unknown>, agent: string | null = null): Promise<any> {
  const answer = await as(h, null, query, { input }, agent ? { 'x-engram-actor': agent } : {});
  expect(answer.errors).toBeUndefined();
  return Object.values(answer.data!)[0];
}

describe('voting rules', () => {
  it('refuses a second question with a key the scope has, at input.key', async () => {
    const scope = await project('votes-rules-key');
    expect((await call(OPEN, { scope, key: 'same', k: 1 })).__typename).toBe('OpenVoteQuestionSuccess');
    expect(await call(OPEN, { scope, key: 'same', k: 2 })).toEqual({
      __typename: 'AlreadyExistsError',
      code: 'ALREADY_EXISTS',
      message: 'A vote question with key "same" exists in this scope',
      path: ['input', 'key'],
    });
    // Another scope may use it.
    expect((await call(OPEN, { scope: await project('votes-rules-key-2'), key: 'same', k: 1 })).__typename).toBe('OpenVoteQuestionSuccess');
  });

  it('closes an OPEN question only, and refuses votes on a question that does not exist, at input.question', async () => {
    const scope = await project('votes-rules-close');
    const { question } = await call(OPEN, { scope, key: 'q', k: 1 });
    expect((await call(CLOSE, { question: question.id })).question.status).toBe('CLOSED');
    expect(await call(CLOSE, { question: question.id })).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      message: 'The question is CLOSED: only an OPEN question can be closed',
      path: ['input', 'question'],
      currentState: 'CLOSED',
    });
    // A question id of the right type that names nothing.
    const missing = Buffer.from('VoteQuestion:00000000-0000-7000-8000-000000000000').toString('base64');
    const refused = await as(h, null, CAST, { input: { question: missing, answer: 'A' } }, { 'x-engram-actor': 'agent:1' });
    const answer = (refused.data as any)?.castVote ?? refused.errors?.[0];
    expect(answer.path ?? answer.extensions?.path).toEqual(['input', 'question']);
  });

  it('discards an answer longer than maxAnswerLength, and counts one of exactly that length', async () => {
    const scope = await project('votes-rules-length');
    const { question } = await call(OPEN, { scope, key: 'q', k: 3, maxAnswerLength: 3 });
    expect((await call(CAST, { question: question.id, answer: 'abc' }, 'agent:1')).vote).toEqual({ counted: true, discardReason: null });
    expect((await call(CAST, { question: question.id, answer: 'abcd' }, 'agent:2')).vote).toEqual({ counted: false, discardReason: 'TOO_LONG' });
  });

  it('counts the votes of an agent flagged in another project; a flag set again takes the new reason; lifting a flag that is not there names the agent', async () => {
    const scope = await project('votes-rules-flags');
    const other = await project('votes-rules-flags-other');
    expect((await call(FLAG, { scope: other, agent: 'agent:odd', reason: 'first' })).flag).toEqual({ agent: 'agent:odd', reason: 'first' });
    expect((await call(FLAG, { scope: other, agent: 'agent:odd', reason: 'second' })).flag).toEqual({ agent: 'agent:odd', reason: 'second' });
    const { question } = await call(OPEN, { scope, key: 'q', k: 2 });
    expect((await call(CAST, { question: question.id, answer: 'A' }, 'agent:odd')).vote).toEqual({ counted: true, discardReason: null });
    expect(await call(UNFLAG, { scope, agent: 'agent:odd' })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'agent:odd is not flagged in this scope',
      path: ['input', 'agent'],
    });
  });
});
