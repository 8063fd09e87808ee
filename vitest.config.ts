import { availableParallelism } from 'node:os';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import pg from 'pg';

/** Admin connection used to create per-file PostgreSQL test databases. */
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const required = process.env.ENGRAM_REQUIRE_POSTGRES === '1' || process.env.CI === 'true';
const only = process.env.ENGRAM_TEST_DB; // "sqlite" | "postgresql" to run one database only

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const databases = only ? [only] : ['sqlite', 'postgresql'];
  if (databases.includes('postgresql')) {
    const problem = await postgresReachable();
    if (problem) {
      if (required) throw new Error(`PostgreSQL is required for this run but unreachable at ${adminUrl}: ${problem}`);
      console.warn(`\n[engram] Skipping the PostgreSQL run: ${adminUrl} is unreachable (${problem}).\n` +
        '          Set TEST_POSTGRES_URL to an admin connection to include it.\n');
      databases.splice(databases.indexOf('postgresql'), 1);
    }
  }
  return {
    resolve: {
      // Node resolves `graphql` to its CommonJS build (no "exports" map); Vite would pick the
      // .mjs one for project files. One realm for both, or graphql-js rejects its own types.
      alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
    },
    test: {
      projects: databases.map((db) => ({
        extends: true,
        test: {
          name: db,
          env: { ENGRAM_TEST_DB: db, TEST_POSTGRES_URL: adminUrl, NODE_ENV: 'test' },
        },
      })),
      include: ['test/**/*.test.ts'],
      globalSetup: ['test/support/global-setup.ts'],
      setupFiles: ['test/support/per-file.ts'],
      // Files share a worker's module cache: importing the app (about 2 s a file) and building its
      // schema happen once per worker instead of once per file (full suite 947 -> 570 s on one
      // worker). Every file still gets its own database and app from the harness; per-file cleanup
      // is in test/support/per-file.ts. (A first try stalled: the secret scanner's profiler kept
      // every performance mark in the shared module, so a worker's later files scanned ever
      // slower, and a 1,000-note import outlasted its 60 s hook. Fixed in secrets.ts.)
      isolate: false,
      // One worker per core. Vitest's default for a run is one less than the cores: a single
      // worker on the 2-core CI machine. (Four workers there made CPU-bound tests outlast 30 s.)
      maxWorkers: availableParallelism(),
      // 60 s: a hang still fails, and the tests that start CLI processes (each a Node with tsx,
      // ~3 s apiece on a slow day of the 2-core machine) fit beside the other worker's files. At
      // 30 s, two CI runs of 2026-11-27, on a machine twice as slow as the day before, lost one and
      // two such tests (identity's keys command, transfer's refusals, cli's query/context/resolve).
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  };
});
