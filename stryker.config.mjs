// Mutation testing (issue #11): `npm run mutate`. See test/mutation-survivors.md for the
// surviving mutants judged equivalent, and the README for how long a run takes.

// One database for the whole run (workers inherit this): see `vitest.configFile` below for why.
// ENGRAM_TEST_DB=postgresql npm run mutate still picks PostgreSQL.
process.env.ENGRAM_TEST_DB ??= 'sqlite';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: {
    // The project's vitest config without the end-to-end files (they run the server in a child
    // process, out of reach of Stryker's in-process coverage). The database is chosen by
    // ENGRAM_TEST_DB=sqlite (set above): one database is enough to tell whether a
    // rule is checked, and SQLite needs no per-file CREATE DATABASE, so each mutant runs faster.
    configFile: 'scripts/mutate.vitest.config.ts',
  },
  // The rules that matter most (issue #11). Generated Prisma code is never mutated.
  mutate: [
    'src/modules/*/*.service.ts',
    'src/modules/search/**/*.ts',
    'src/infra/transaction.ts',
    'src/infra/events.ts',
    'src/infra/event-transport.ts',
    // Issue 16: the change feed (its recording SQL, the tailer and the resumable streams).
    'src/infra/change-feed.ts',
    'src/infra/feed-tailer.ts',
    // Issue #10 and #12: operation limits, the NUL guard and authentication.
    'src/server/limits.ts',
    'src/graphql/complexity.ts',
    'src/graphql/input-guard.ts',
    'src/server/authentication.ts',
    // Issue #11: who reads which node and scope, state keys, actors, and open subscriptions.
    'src/modules/identity/targets.ts',
    'src/modules/identity/state-access.ts',
    'src/modules/identity/actors.ts',
    'src/graphql/node-access.ts',
    'src/modules/events/subscription-guard.ts',
    // Deletion's receipts and criteria, and the read counters of entries (not *.service.ts files).
    'src/modules/deletion/erasure.ts',
    'src/modules/entries/access-tracker.ts',
    // The memory lifecycle (issue #11): the scheduled purge and the secret scanner.
    'src/modules/lifecycle/purge-job.ts',
    'src/modules/redaction/secrets.ts',
  ],
  // Each mutant runs only the tests that covered it in the initial run.
  coverageAnalysis: 'perTest',
  // A module-level mutant (a top-level constant) would need the whole suite per mutant, since
  // coverage cannot say which test reads it; they are left out and counted as ignored.
  ignoreStatic: true,
  // Reruns test only mutants whose code or covering tests changed since the last run.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // Two cores: two sandboxes, each running its tests one file at a time.
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true, reportMutants: true },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The sandbox copies the project; skip what tests never read.
  ignorePatterns: ['dist', 'data', 'coverage', 'bench-results', 'reports', '*.db', '*.db-*'],
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
