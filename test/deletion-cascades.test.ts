// What goes with a scope by its cascading foreign keys (memory policies, lease resources and
// leases, vote questions with their votes and tallies, flagged agents, outcomes) is in the
// deletion's receipt: a receipt lists what a deletion erased (a scale sweep found a project's vote
// questions, votes and leases gone without a line in it). The dry run counts and hashes the same.
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject, startSession } from './support/ops.ts';

const h = useHarness();

const Policy = graphql(`
  mutation CascadePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }
`);
const Checkout = graphql(`
  mutation CascadeLease($scope: ID!, $resource: String!) { checkoutLease(input: { scope: $scope, resource: $resource, ttlSeconds: 60 }) { __typename } }
`);
const Open = graphql(`
  mutation CascadeQuestion($scope: ID!, $key: String!) { openVoteQuestion(input: { scope: $scope, key: $key, k: 3 }) { __typename ... on OpenVoteQuestionSuccess { question { id } } } }
`);
const Cast = graphql(`
  mutation CascadeVote($question: ID!, $answer: String!) { castVote(input: { question: $question, answer: $answer }) { __typename } }
`);
const Flag = graphql(`
  mutation CascadeFlag($scope: ID!) { flagAgent(input: { scope: $scope, agent: "agent:rogue", reason: "wrong answers" }) { __typename } }
`);
const Outcomes = graphql(`
  mutation CascadeOutcomes($scope: ID!) {
    recordOutcomes(input: { scope: $scope, outcomes: [{ subtaskType: "build", success: true, durationMs: 10 }, { subtaskType: "build", success: false, durationMs: 20 }] }) { __typename }
  }
`);
const DeleteTree = graphql(`
  mutation CascadeDeleteTree($id: ID!, $dryRun: Boolean) {
    deleteScopeTree(input: { id: $id, dryRun: $dryRun }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts contentHash } } }
  }
`);
const DeleteSession = graphql(`
  mutation CascadeDeleteSession($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }
`);

describe(`a deletion's receipt counts what cascades with its scopes (${DB_KIND})`, () => {
  it('deleteScopeTree: policies, leases, votes, flagged agents and outcomes of the project and its session', async () => {
    const project = await createProject(h, 'cascades');
    const session = await startSession(h, project);
    for (const scope of [project, session]) {
      expect((await h.ok(Policy, { scope })).setMemoryPolicy.__typename).toBe('SetMemoryPolicySuccess');
      expect((await h.ok(Checkout, { scope, resource: 'file:a' }, { 'x-engram-actor': 'agent:a' })).checkoutLease.__typename).toBe('CheckoutLeaseSuccess');
      const open = (await h.ok(Open, { scope, key: 'pick' })).openVoteQuestion;
      if (open.__typename !== 'OpenVoteQuestionSuccess') throw new Error(open.__typename);
      for (const voter of ['agent:a', 'agent:b']) await h.ok(Cast, { question: open.question.id, answer: 'yes' }, { 'x-engram-actor': voter });
      expect((await h.ok(Flag, { scope })).flagAgent.__typename).toBe('FlagAgentSuccess');
      expect((await h.ok(Outcomes, { scope }, { 'x-engram-actor': 'agent:a' })).recordOutcomes.__typename).toBe('RecordOutcomesSuccess');
    }
    const cascaded = { MemoryPolicy: 2, LeaseResource: 2, Lease: 2, VoteQuestion: 2, Vote: 4, VoteTally: 2, FlaggedAgent: 2, Outcome: 4, Scope: 2 };
    const dry = (await h.ok(DeleteTree, { id: project, dryRun: true })).deleteScopeTree;
    if (dry.__typename !== 'DeleteScopeTreeSuccess') throw new Error(dry.__typename);
    expect(dry.receipt.counts).toMatchObject(cascaded);
    const done = (await h.ok(DeleteTree, { id: project })).deleteScopeTree;
    if (done.__typename !== 'DeleteScopeTreeSuccess') throw new Error(done.__typename);
    expect(done.receipt).toEqual(dry.receipt);
  });

  it('deleteSession: those of the session only', async () => {
    const project = await createProject(h, 'cascades-session');
    const session = await startSession(h, project);
    await h.ok(Checkout, { scope: session, resource: 'file:b' }, { 'x-engram-actor': 'agent:a' });
    await h.ok(Checkout, { scope: project, resource: 'file:b' }, { 'x-engram-actor': 'agent:a' });
    await h.ok(Outcomes, { scope: session }, { 'x-engram-actor': 'agent:a' });
    const done = (await h.ok(DeleteSession, { id: session })).deleteSession;
    if (done.__typename !== 'DeleteSessionSuccess') throw new Error(done.__typename);
    expect(done.receipt.counts).toMatchObject({ Lease: 1, LeaseResource: 1, Outcome: 2, Scope: 1 });
  });
});
