import { defineConfig } from 'vitest/config';
import base from './mutate.vitest.config.ts';

/**
 * Stryker's suite narrowed to the tests of the memory lifecycle (issue #11): deletion, retention
 * and purge, redaction, edits and the audit log. Every write screens secrets and every mutation is
 * audited, so a surviving mutant of secrets.ts or audit.service.ts would otherwise rerun nearly the
 * whole suite (minutes each). A mutant only another file would kill counts as survived here: the
 * score is a lower bound of the full suite's.
 */
export const LIFECYCLE_TESTS = [
  'test/deletion.test.ts',
  'test/mutants-deletion.test.ts',
  'test/mutants-erasure.test.ts',
  'test/lifecycle.test.ts',
  'test/mutants-lifecycle.test.ts',
  'test/decay.test.ts',
  'test/expiry.test.ts',
  'test/memory-types.test.ts',
  'test/redaction.test.ts',
  'test/mutants-redaction.test.ts',
  'test/logger.test.ts',
  'test/audit.test.ts',
  'test/mutants-audit.test.ts',
  'test/edits.test.ts',
  'test/mutants-edits.test.ts',
];

export default defineConfig(async (env) => {
  const resolved = typeof base === 'function' ? await base(env) : base;
  // ENGRAM_MUTATE_TESTS (comma-separated files) narrows it further, for a run short of time.
  const include = process.env.ENGRAM_MUTATE_TESTS?.split(',') ?? LIFECYCLE_TESTS;
  // Replaced, not merged (mergeConfig would append to the base's list).
  return { ...resolved, test: { ...resolved.test, include } };
});
