// Runs for every test file (vitest `setupFiles`). Per-file cleanup is registered here, not at the
// top of a support module: were test files ever to share a worker's module graph (`isolate: false`),
// such a hook would only run for the first file that imports the module.
import { afterAll } from 'vitest';
import { DB_KIND } from './harness.ts';
import { killServerProcesses } from './server-process.ts';

// DB_KIND is read once per module graph: a graph shared across the sqlite and postgresql projects
// would run a file on the wrong database without this check.
if (DB_KIND !== (process.env.ENGRAM_TEST_DB ?? 'sqlite')) {
  throw new Error(`This worker's modules were loaded for ${DB_KIND}, but the file runs on ${process.env.ENGRAM_TEST_DB}`);
}

afterAll(killServerProcesses);
