import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/generated/', 'test/gql/', 'examples/typescript/gql/', 'ui/src/gql/', 'data/', '.scratch/', '.stryker-tmp/', '.stryker-local/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js', 'stryker.config.mjs', 'scripts/*.mjs', 'bin/*.mjs', 'packages/*/*.js'],
          // The plain JavaScript that runs before any TypeScript tooling (install, launch, config):
          // eleven files; the default of 8 guards against globs that sweep in whole trees.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': 'off',
      // Async functions often implement a promise-returning interface without awaiting.
      '@typescript-eslint/require-await': 'off',
      // False positives for destructured closures ({ url, drop } = await createDatabaseUrl()).
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // compare whole answers with toEqual, so walking their JSON untyped loses no checking. MCP tools answer JSON text.
    // compare whole answers with toEqual, so walking their JSON untyped loses no checking.
    files: ['test/access*.test.ts', 'test/mutants-access*.test.ts', 'test/mutants-identity.test.ts', 'test/mutants-limits.test.ts', 'test/mutants-node-access.test.ts', 'test/mutants-subscriptions.test.ts', 'test/mutants-deletion.test.ts', 'test/mutants-erasure.test.ts', 'test/mutants-edits.test.ts', 'test/mutants-lifecycle.test.ts', 'test/mutants-redaction.test.ts', 'test/mutants-audit.test.ts', 'test/mutants-search.test.ts', 'test/mutants-query.test.ts', 'test/mutants-query-plan.test.ts', 'test/mutants-query-stages.test.ts', 'test/mutants-query-giving-up.test.ts', 'test/speculation-margin.test.ts', 'test/entry-tag-copies.test.ts', 'test/tag-set-total.test.ts', 'test/name-shared.test.ts', 'test/mutants-events.test.ts', 'test/edits.test.ts', 'test/expiry.test.ts', 'test/redaction.test.ts', 'test/memory-types.test.ts', 'test/deletion.test.ts', 'test/lifecycle.test.ts', 'test/decay.test.ts', 'test/support/access.ts', 'test/mcp*.test.ts', 'test/cli.test.ts', 'test/logger.test.ts', 'test/transfer.test.ts', 'test/telemetry.test.ts', 'test/dashboard.test.ts', 'test/openapi.test.ts', 'test/leases.test.ts', 'test/fencing.test.ts', 'test/change-feed.test.ts', 'test/votes.test.ts', 'test/outcomes.test.ts', 'test/mutants-outcomes.test.ts', 'test/mutants-votes.test.ts', 'test/cursors.test.ts', 'test/text-weights.test.ts', 'test/text-folding.test.ts', 'test/import-interrupted.test.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // CommonJS packages of our own (packages/better-sqlite3: what `require` gives must be the class itself).
    files: ['packages/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
