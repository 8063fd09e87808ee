// Runs for every test file (vitest `setupFiles`). Per-file cleanup is registered here, not at the
// top of a support module: were test files ever to share a worker's module graph (`isolate: false`),
// such a hook would only run for the first file that imports the module.
import { afterAll } from 'vitest';
import { killServerProcesses } from './server-process.ts';

afterAll(killServerProcesses);
