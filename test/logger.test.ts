// Logs never carry secrets (issue #13): the server's logger scans each line like a write.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactingLogger } from '../src/server/logger.ts';

afterEach(() => vi.restoreAllMocks());

describe('the server logger', () => {
  it('writes lines in order with their secrets redacted, and nothing below its level', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(`error ${line}`));
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(`log ${line}`));
    const logger = redactingLogger('info');
    logger.debug('hidden');
    logger.error('query failed: %s', `token ghp_${'a1B2c3D4e5'.repeat(3)}abcdef in args`);
    logger.info('second');
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines).toEqual(['error query failed: token [REDACTED:GITHUB_TOKEN] in args', 'log second']);
  });
});
