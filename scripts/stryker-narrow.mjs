// Mutation testing of a few files within a session (issue #11): writes .scratch/narrow.vitest.config.ts,
// the mutate config (scripts/mutate.vitest.config.ts) with every test file excluded except those
// named, and .scratch/stryker.narrow.config.mjs, stryker.config.mjs pointed at it:
//   node scripts/stryker-narrow.mjs identity.test.ts mutants-identity.test.ts
//   npx stryker run .scratch/stryker.narrow.config.mjs --concurrency 1 --mutate src/...
// A mutant that survives such a run may still be killed by a test file left out.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
const keep = new Set(process.argv.slice(2).map((f) => f.replace(/^test\//, '')));
mkdirSync('.scratch', { recursive: true });
const all = readdirSync('test').filter((f) => f.endsWith('.test.ts'));
const exclude = all.filter((f) => !keep.has(f)).map((f) => `test/${f}`);
writeFileSync('.scratch/narrow.vitest.config.ts', `import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../scripts/mutate.vitest.config.ts';
// Only the test files that kill mutants of the narrowed run (see .scratch/narrow.mjs).
export default defineConfig(async (env) => {
  const resolved = typeof base === 'function' ? await base(env) : base;
  return mergeConfig(resolved, { test: { exclude: ${JSON.stringify(exclude)} } });
});
`);
writeFileSync('.scratch/stryker.narrow.config.mjs', `import base from '../stryker.config.mjs';
export default { ...base, vitest: { ...base.vitest, configFile: '.scratch/narrow.vitest.config.ts' } };
`);
console.log('kept', all.filter((f) => keep.has(f)).length, 'of', all.length, [...keep].filter((f) => !all.includes(f)));
