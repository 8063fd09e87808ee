// `npx stryker run scripts/stryker-lifecycle.config.mjs --concurrency 1 --mutate <files>`: the
// project's Stryker setup with the suite narrowed to the memory lifecycle's tests (see
// mutate-lifecycle.vitest.config.ts), its own incremental file (issue #11).
import base from '../stryker.config.mjs';

export default { ...base, vitest: { ...base.vitest, configFile: 'scripts/mutate-lifecycle.vitest.config.ts' }, incrementalFile: 'reports/stryker-incremental-lifecycle.json' };
