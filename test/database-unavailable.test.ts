// A PostgreSQL connection that ends under a request (a backend terminated, the server restarting)
// is nobody's mistake: the answer says DATABASE_UNAVAILABLE, never INTERNAL_SERVER_ERROR, and the
// server goes on once the database is back (found by a crash sweep: pg_terminate_backend under
// load gave "Unexpected error." to every request it cut). SQLite has no connection to lose.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';

const h = useHarness();

const Add = graphql(`mutation UnavailableAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: "c" }) { __typename } }`);
const Read = graphql(`query UnavailableRead($scope: ID!) { memoryQuery(input: { scope: $scope, search: "c" }, first: 5) { meta { totalCount } } }`);

/** Ends every other connection to the test's database: the server's pool loses them all at once. */
async function terminateBackends(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  } finally {
    await client.end();
  }
}

describe.runIf(DB_KIND === 'postgresql')('a lost PostgreSQL connection (postgresql)', () => {
  it('is DATABASE_UNAVAILABLE to the requests it cut, and the next requests are answered', { timeout: 120_000 }, async () => {
    const scope = await createProject(h, 'unavailable');
    const codes = new Set<string>();
    // Requests in flight while their connections are cut, until some were (the timing decides which).
    for (let round = 0; round < 40 && codes.size === 0; round++) {
      const asked = Array.from({ length: 12 }, (_, i) => (i % 2 ? h.gql(Add, { scope, title: `t${round}-${i}` }) : h.gql(Read, { scope })));
      await terminateBackends(h.url);
      for (const answer of await Promise.all(asked)) for (const e of answer.errors ?? []) codes.add(String(e.extensions?.code));
    }
    expect([...codes]).toEqual(['DATABASE_UNAVAILABLE']);
    const after = await h.gql(Read, { scope });
    expect(after.errors).toBeUndefined();
  });
});
