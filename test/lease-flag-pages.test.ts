// The live leases and the flagged agents of a scope are pages (a scale sweep found both lists cut
// at 1,000 rows without a word of the rest): every row once, in order (leases with their total).
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();
const ROWS = 150;

const Checkout = graphql(`
  mutation PagesCheckout($scope: ID!, $ttl: Int!) { checkoutLease(input: { scope: $scope, resource: "shared.txt", mode: SHARED, ttlSeconds: $ttl }) { __typename } }
`);
const Exclusive = graphql(`
  mutation PagesExclusive($scope: ID!) {
    checkoutLease(input: { scope: $scope, resource: "shared.txt", ttlSeconds: 60 }) { __typename ... on LeaseHeldError { message holders { holder } } }
  }
`);
const Leases = graphql(`
  query PagesLeases($scope: ID!, $after: String) {
    leases(scope: $scope, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { holder expiresAt } } }
  }
`);
const Flag = graphql(`
  mutation PagesFlag($scope: ID!, $agent: String!) { flagAgent(input: { scope: $scope, agent: $agent }) { __typename } }
`);
const Flagged = graphql(`
  query PagesFlagged($scope: ID!, $after: String) {
    flaggedAgents(scope: $scope, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { agent } } }
  }
`);

describe(`leases and flagged agents, page by page (${DB_KIND})`, () => {
  it(`${ROWS} shared leases of one resource: each once, the first to end first`, async () => {
    const scope = await createProject(h, 'lease-pages');
    // Each holder's lease ends a second after the one before: the order is the holders'.
    for (let i = 0; i < ROWS; i++) await h.ok(Checkout, { scope, ttl: 600 + i }, { 'x-engram-actor': `agent:${String(i).padStart(3, '0')}` });
    const holders: string[] = [];
    let after: string | null | undefined;
    for (let page = 0; page < 3; page++) {
      const { leases } = await h.ok(Leases, { scope, after });
      expect(leases.totalCount).toBe(ROWS);
      holders.push(...leases.edges.map((e) => e.node.holder));
      after = leases.pageInfo.endCursor;
      if (!leases.pageInfo.hasNextPage) break;
    }
    expect(holders).toEqual(Array.from({ length: ROWS }, (_, i) => `agent:${String(i).padStart(3, '0')}`));
    // An exclusive checkout is refused naming the first twenty to end, and counting the rest.
    const refused = (await h.ok(Exclusive, { scope }, { 'x-engram-actor': 'agent:late' })).checkoutLease;
    if (refused.__typename !== 'LeaseHeldError') throw new Error(refused.__typename);
    expect(refused.holders.map((x) => x.holder)).toEqual(holders.slice(0, 20));
    expect(refused.message).toMatch(new RegExp(`agent:019 \\(SHARED\\) and ${ROWS - 20} more$`));
  }, 60_000);

  it(`${ROWS} flagged agents: each once, by agent`, async () => {
    const scope = await createProject(h, 'flag-pages');
    for (let i = ROWS - 1; i >= 0; i--) await h.ok(Flag, { scope, agent: `agent:${String(i).padStart(3, '0')}` });
    const agents: string[] = [];
    let after: string | null | undefined;
    for (let page = 0; page < 3; page++) {
      const { flaggedAgents } = await h.ok(Flagged, { scope, after });
      agents.push(...flaggedAgents.edges.map((e) => e.node.agent));
      after = flaggedAgents.pageInfo.endCursor;
      if (!flaggedAgents.pageInfo.hasNextPage) break;
    }
    expect(agents).toEqual(Array.from({ length: ROWS }, (_, i) => `agent:${String(i).padStart(3, '0')}`));
  }, 60_000);
});
