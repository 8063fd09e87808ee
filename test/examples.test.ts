// The client examples (examples/) run against the real server process, as a user would run them:
// the TypeScript orchestrator (typed documents, live session events over graphql-ws) and the
// Python one (standard library only).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/server-process.ts';
import { useServerProcess } from './support/server-per-file.ts';

const running = useServerProcess();

function run(command: string, args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ENGRAM_URL: running.server.base }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('client examples against the real server', () => {
  it('the TypeScript orchestrator sees its session events live and completes the session', async () => {
    const { status, output } = await run(process.execPath, ['--import', 'tsx', join('examples', 'typescript', 'orchestrator.ts')]);
    expect(status, output).toBe(0);
    expect(output).toMatch(/task "write the release notes": \d+ tokens of context, guidelines: small-commits/);
    expect(output).toMatch(/session COMPLETED; events seen live: .*\d+:ACTION \d+:ACTION/);
  });

  it('the Python orchestrator runs a session with state and completes it', async () => {
    const { status, output } = await run('python3', [join('examples', 'python', 'orchestrator.py')]);
    expect(status, output).toBe(0);
    expect(output).toMatch(/task "add type hints to the parser": \d+ tokens of context, guidelines: type-hints/);
    expect(output).toContain('session COMPLETED; 3 events; state step = 2');
  });
});
