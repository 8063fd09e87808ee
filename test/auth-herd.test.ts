// Authentication's reads are shared by the callers that come while one is under way: every open
// subscription asks again every 2 s whether its key still holds, and at 10,000 subscriptions each
// call that came while the answer was being read sent its own statement (and, for a key, its own
// write of the key's last use).
import { describe, expect, it } from 'vitest';
import { useHarness } from './support/harness.ts';

const h = useHarness({ listen: true });

const count = (pattern: RegExp) => h.statements.filter((sql) => pattern.test(sql)).length;
const READ = /^\s*SELECT\b[\s\S]*["`]ApiKey["`]/;
const TOUCH = /^\s*UPDATE\s+\S*["`]ApiKey["`]/;

/** `n` requests at once over the socket; how many seconds (begun) they took, each a new read at most. */
async function burst(n: number, headers: Record<string, string> = {}): Promise<number> {
  h.resetStatements();
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      fetch(`http://localhost:${h.port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"query":"{ viewer { local } }"}' }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  return Math.ceil((Date.now() - started) / 1_000);
}

async function gql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return ((await response.json()) as { data: T }).data;
}

describe('authentication under many callers at once', () => {
  it('keyless callers at once share one read of whether any key exists', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past what the instance remembers
    const seconds = await burst(60);
    expect(count(READ)).toBeGreaterThanOrEqual(1);
    expect(count(READ)).toBeLessThanOrEqual(seconds);
  });

  it("callers of a new key at once share one read of it and one write of its last use", async () => {
    const made = await gql<{ createPrincipal: { principal: { id: string } } }>(
      'mutation { createPrincipal(input: { name: "herd", kind: AGENT, admin: true }) { ... on CreatePrincipalSuccess { principal { id } } } }',
      {},
    );
    const keyed = await gql<{ createApiKey: { key: { secret: string } } }>(
      'mutation($p: ID!) { createApiKey(input: { principal: $p, name: "herd" }) { ... on CreateApiKeySuccess { key { secret } } } }',
      { p: made.createPrincipal.principal.id },
    );
    const seconds = await burst(60, { authorization: `Bearer ${keyed.createApiKey.key.secret}` });
    expect(count(TOUCH)).toBe(1); // a key's use is written at most once a minute
    expect(count(READ)).toBeLessThanOrEqual(seconds);
  });
});
