// `npx stryker run scripts/stryker-lifecycle.config.mjs --concurrency 1 --mutate <files>`: the
// project's Stryker setup with the suite narrowed to the memory lifecycle's tests (see
// mutate-lifecycle.vitest.config.ts) (issue #11); results go to the project's incremental file.
import base from '../stryker.config.mjs';

export default { ...base, vitest: { ...base.vitest, configFile: 'scripts/mutate-lifecycle.vitest.config.ts' } };
