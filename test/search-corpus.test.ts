import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject } from './support/ops.ts';

const h = useHarness();

/**
 * A shared fixture corpus: both databases must agree on the top results of these searches (the
 * same expectations run on SQLite's FTS5 bm25 and PostgreSQL's idf-weighted tsvector ranking).
 */
const CORPUS: Array<[kind: 'tool' | 'guideline' | 'knowledge', name: string, text: string]> = [
  ['tool', 'git_commit', 'Records staged changes in the git repository with a commit message.'],
  ['tool', 'git_push', 'Pushes local git commits to the remote repository.'],
  ['tool', 'docker_build', 'Builds a docker image from a Dockerfile.'],
  ['tool', 'psql', 'Runs SQL against a PostgreSQL database from the command line.'],
  ['tool', 'pytest', 'Runs the python test suite and reports failures.'],
  ['tool', 'eslint', 'Lints JavaScript and TypeScript sources for problems.'],
  ['guideline', 'commit-messages', 'Write commit messages in the imperative mood; keep the subject under 72 characters.'],
  ['guideline', 'no-force-push', 'Never force push to a shared branch; rewrite history only on your own branches.'],
  ['guideline', 'sql-migrations', 'Every database schema change ships as a migration reviewed with the code.'],
  ['guideline', 'test-first', 'Write a failing test before fixing a bug.'],
  ['guideline', 'secrets', 'Secrets never go into the repository; use the vault.'],
  ['knowledge', 'database choice', 'We chose PostgreSQL for production and SQLite for local development.'],
  ['knowledge', 'flaky tests', 'The integration test suite is flaky when the database container starts slowly.'],
  ['knowledge', 'release process', 'Releases are tagged in git, built with docker, and deployed on Tuesdays.'],
  ['knowledge', 'docker registry', 'Images are pushed to the internal docker registry at registry.internal.'],
];

const Search = graphql(`
  query CorpusSearch($scope: ID!, $search: String!) {
    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 20) {
      edges { node { name } breakdown { text } }
    }
  }
`);

let project = '';
beforeAll(async () => {
  project = await createProject(h, 'corpus');
  for (const [kind, name, text] of CORPUS) {
    if (kind === 'tool') await addTool(h, project, name, { description: text });
    else if (kind === 'guideline') await addGuideline(h, project, name, { content: text, priority: 50 });
    else await addKnowledge(h, project, name, { content: text });
  }
});

/** The three best matches by their text component (the total also weighs kinds and priority). */
async function top(search: string): Promise<string[]> {
  const r = await h.ok(Search, { scope: project, search });
  const ranked = [...r.memoryQuery.edges].sort((a, b) => b.breakdown.text - a.breakdown.text || a.node.name.localeCompare(b.node.name));
  return ranked.slice(0, 3).map((e) => e.node.name);
}

describe('full-text ranking on a shared corpus', () => {
  // Both databases must put the same entry first and the same three on top (scores of close
  // matches differ slightly between bm25 and the tsvector ranking, so the order within the top
  // three may too).
  it.each([
    ['git commit', 'git_commit', ['commit-messages', 'git_commit', 'git_push']],
    ['docker', 'docker_build', ['docker registry', 'docker_build', 'release process']],
    ['postgresql database', 'database choice', ['database choice', 'flaky tests', 'psql']],
    ['force push', 'no-force-push', ['docker registry', 'git_push', 'no-force-push']],
    ['secret', 'secrets', ['secrets']],
  ])('"%s"', async (search, first, topThree) => {
    const ranked = await top(search);
    expect(ranked[0]).toBe(first);
    expect([...ranked].sort()).toEqual(topThree);
  });

  it('matches prefixes', async () => {
    expect(await top('migrat')).toEqual(['sql-migrations']);
    expect((await top('dock')).slice(0, 2).sort()).toEqual(['docker registry', 'docker_build']);
  });
});
