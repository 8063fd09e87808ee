// Runs for every test file (vitest `setupFiles`). Test files share one module graph per worker
// (`isolate: false` in vitest.config.ts), so a hook registered at the top of a support module would
// only run for the first file that imports it; per-file cleanup is registered here instead.
import { afterAll } from 'vitest';
import { DB_KIND } from './harness.ts';
import { killServerProcesses } from './server-process.ts';

// DB_KIND is read once per worker: a worker reused across the sqlite and postgresql projects would
// run a file on the wrong database without this check.
if (DB_KIND !== (process.env.ENGRAM_TEST_DB ?? 'sqlite')) {
  throw new Error(`This worker's modules were loaded for ${DB_KIND}, but the file runs on ${process.env.ENGRAM_TEST_DB}`);
}

afterAll(killServerProcesses);
