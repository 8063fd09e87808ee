// The `engram` command run as a subprocess (compiled, as test/support/compiled.ts says; the first
// case through bin/engram.mjs, the launcher users run): exit codes, JSON output, and MCP over stdio
// driven by the SDK's own client on the run's database.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ok, principal } from './support/access.ts';
import { createScratchDatabase } from '../src/infra/scratch-database.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { eventually } from './support/redis-server.ts';
import { engramCommand, ROOT, runEngram, runEngramOnTerminal } from './support/server-process.ts';

const h = useHarness({ listen: true });
const BIN = join(ROOT, 'bin', 'engram.mjs');
const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function engram(args: string[], env: Record<string, string> = {}, entry?: string) {
  return runEngram(args, { DATABASE_URL: h.url, ...env }, entry);
}

describe('engram command line', () => {
  it('exits 0 for help, 2 for a usage mistake', async () => {
    const help = await engram(['--help'], {}, BIN);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Commands:[\s\S]*mcp[\s\S]*keys/);
    const unknown = await engram(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const missing = await engram(['keys', 'create']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--name');
  });

  it('lists keys as JSON lines without their hashes', async () => {
    const made = await engram(['keys', 'create', '--name', 'cli-json', '--kind', 'agent']);
    expect(made.status, made.stderr).toBe(0);
    const listed = await engram(['keys', 'list', '--json']);
    expect(listed.status).toBe(0);
    const keys = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    const mine = keys.find((k) => k.principal.name === 'cli-json');
    expect(mine).toMatchObject({ prefix: made.stdout.trim().slice(0, 12), principal: { kind: 'AGENT' }, revokedAt: null });
    expect(listed.stdout).not.toContain(made.stdout.trim());
    expect(Object.keys(mine!)).not.toContain('hash');
  });

  it('migrate status: 0 when up to date, 1 with pending migrations', async () => {
    const current = await engram(['migrate', 'status', '--json']);
    expect(current.status, current.stderr).toBe(0);
    expect(JSON.parse(current.stdout)).toMatchObject({ upToDate: true, pending: [] });
    const dir = mkdtempSync(join(tmpdir(), 'engram-cli-'));
    tempDirs.push(dir);
    const fresh = await engram(['migrate', 'status'], { DATABASE_URL: `file:${join(dir, 'new.db')}` });
    expect(fresh.status).toBe(1);
    expect(fresh.stdout).toMatch(/Pending \(\d+\)[\s\S]*NOT up to date/);
    const deployed = await engram(['migrate', 'deploy'], { DATABASE_URL: `file:${join(dir, 'new.db')}` });
    expect(deployed.status).toBe(0);
    expect((await engram(['migrate', 'status'], { DATABASE_URL: `file:${join(dir, 'new.db')}` })).status).toBe(0);
  });

  it('migrate deploy names each migration as it applies it, on a terminal', async () => {
    const scratch = await createScratchDatabase(DB_KIND, { adminUrl: process.env.TEST_POSTGRES_URL });
    try {
      const shown = await runEngramOnTerminal(['migrate', 'deploy'], { DATABASE_URL: scratch.url });
      const total = Number(/applied (\d+) migration\(s\)/.exec(shown)?.[1]);
      expect(total).toBeGreaterThan(10);
      expect(shown).toMatch(new RegExp(`migrating [█░]+ 0/${total} 20261121233316_init`));
      const last = readdirSync(join(ROOT, 'prisma', DB_KIND, 'migrations'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().at(-1)!;
      expect(shown).toMatch(new RegExp(`migrating [█░]+ ${total - 1}/${total} ${last}`));
      expect((await engram(['migrate', 'status'], { DATABASE_URL: scratch.url })).status).toBe(0);
    } finally {
      await scratch.drop();
    }
  });
});

describe('engram query, context, resolve and tail (a client of the running server)', () => {
  let admin: string;
  const server = () => ['--url', `http://127.0.0.1:${h.port}`, '--key', admin];

  it('searches, gives context, and resolves a conflict', async () => {
    admin = (await principal(h, 'cli-client-admin', { admin: true })).key;
    const project = await createProject(h, 'cli-client');
    const added = await ok(h, null, `mutation($p: ID!) { addKnowledge(input: { scope: $p, title: "ports", content: "The API listens on 8080" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { p: project });
    const id = added.addKnowledge.knowledge.id as string;
    const table = await engram(['query', project, 'listens', ...server()]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^score\s+kind\s+name\s+scope\s+text\n[\d.]+\s+KNOWLEDGE\s+ports\s+cli-client\s+The API listens on 8080/);
    const json = await engram(['query', project, '--kind', 'knowledge', '--json', ...server()]);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({ kind: 'KNOWLEDGE', name: 'ports' });
    const context = await engram(['context', project, 'which', 'port', '--budget', '500', '--json', ...server()]);
    expect((JSON.parse(context.stdout) as { knowledge: { node: { name: string } }[] }).knowledge.map((k) => k.node.name)).toEqual(['ports']);

    await ok(h, null, `mutation($id: ID!) { updateKnowledge(input: { id: $id, content: "The API listens on 9090", expectedVersion: 1 }) { __typename } }`, { id });
    const stale = await ok(h, null, `mutation($id: ID!) { updateKnowledge(input: { id: $id, content: "The API listens on 7070", expectedVersion: 1 }) { ... on UpdateKnowledgeSuccess { update { conflict { id } } } } }`, { id });
    const conflict = stale.updateKnowledge.update.conflict.id as string;
    expect((await engram(['resolve', conflict, ...server()])).status).toBe(2);
    const resolved = await engram(['resolve', conflict, '--take', '--note', 'newest', ...server()]);
    expect(resolved.status, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain(`Resolved ${conflict}: TOOK_INCOMING`);
    const again = await engram(['resolve', conflict, '--keep', ...server()]);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/^[A-Z_]+: /);
    // Six CLI processes, each starting Node with tsx: 19 s alone on a slow day of the 2-core
    // machine, past the suite's 30 s beside the other files of a CI run.
  }, 90_000);

  it('tail follows changes under a scope as they happen', async () => {
    const project = await createProject(h, 'cli-tail');
    const child = spawn(process.execPath, [engramCommand(), 'tail', project, '--json', ...server()], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      await eventually('tail has started', async () => stderr.includes('following entries, conflicts'), 15_000);
      // The subscriptions start just after the line: write until an event is seen.
      await eventually('the change is seen', async () => {
        await ok(h, null, `mutation($p: ID!, $n: String!) { addTool(input: { scope: $p, name: $n, description: "x" }) { __typename } }`, { p: project, n: `tool-${Date.now()}` });
        return stdout.includes('"stream":"entries"');
      }, 15_000);
      const event = JSON.parse(stdout.trim().split('\n')[0]!) as { stream: string; type: string; entry: { kind: string; name: string } };
      expect(event).toMatchObject({ stream: 'entries', type: 'CREATED', entry: { kind: 'TOOL' } });
    } finally {
      child.kill('SIGINT');
    }
  });
});

describe('engram mcp (stdio)', () => {
  async function stdioClient(args: string[] = []): Promise<Client> {
    const client = new Client({ name: 'engram-test', version: '1.0.0' });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [engramCommand(), 'mcp', ...args], cwd: ROOT, env: { ...env, DATABASE_URL: h.url }, stderr: 'pipe' }));
    return client;
  }

  it('serves the tools on the embedded database; writes are visible to the server', async () => {
    const project = await createProject(h, 'stdio-project');
    const client = await stdioClient(['--actor', 'agent:stdio']);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('context');
      const added = (await client.callTool({ name: 'addKnowledge', arguments: { scope: project, title: 'deploys', content: 'Deploys go out on Tuesdays' } })) as CallToolResult;
      expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
      const context = (await client.callTool({ name: 'context', arguments: { scope: project, task: 'when do deploys go out' } })) as CallToolResult;
      const knowledge = (context.structuredContent as { knowledge: { name: string; currentVersion: { createdBy: string } }[] }).knowledge;
      expect(knowledge.map((k) => k.name)).toEqual(['deploys']);
      expect(knowledge[0]!.currentVersion.createdBy).toBe('agent:stdio');
    } finally {
      await client.close();
    }
    const seen = await ok(h, null, `query($scope: ID!) { entryByName(scope: $scope, kind: KNOWLEDGE, name: "deploys") { id } }`, { scope: project });
    expect(seen.entryByName).not.toBeNull();
  });

  /** `engram mcp` as a child speaking raw JSON-RPC lines; `answer(id)` waits for the answer to `id`. */
  function rawStdio() {
    const child = spawn(process.execPath, [engramCommand(), 'mcp'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: h.url }, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const answers = () => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as RawAnswer);
    const answer = async (id: number | null, nth = 1) => {
      let line: RawAnswer | undefined;
      await eventually(`the answer to ${id}`, async () => {
        line = answers().filter((l) => l.id === id)[nth - 1];
        return line !== undefined;
      }, 15_000);
      return line!;
    };
    return { child, answer, answers, send: (line: string) => child.stdin.write(`${line}\n`) };
  }
  type RawAnswer = { id?: number | null; result?: { serverInfo: { name: string }; isError?: boolean }; error?: { code: number; message: string } };
  const initialize = (id: number, protocolVersion: unknown = '2025-06-18') =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } } });

  it('answers a malformed initialize as invalid params, then initializes', async () => {
    const { child, answer, send } = rawStdio();
    try {
      send(initialize(1, 5));
      const refused = await answer(1);
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.message).toMatch(/^Invalid initialize request: params\.protocolVersion: /);
      send(initialize(2));
      expect((await answer(2)).result?.serverInfo.name).toBe('engram');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('answers every line it cannot take (not JSON, not JSON-RPC, malformed, over 25 MB) and goes on', async () => {
    const { child, answer, answers, send } = rawStdio();
    try {
      send(initialize(1));
      await answer(1);
      send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      send('not json');
      expect((await answer(null)).error).toEqual({ code: -32700, message: 'Parse error: Invalid JSON' });
      send('');
      send('{"hello":1}');
      expect((await answer(null, 2)).error).toEqual({ code: -32700, message: 'Parse error: Invalid JSON-RPC message' });
      send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}');
      expect((await answer(2)).error).toEqual({ code: -32602, message: 'Invalid tools/call request: params.name: Invalid input: expected string, received number' });
      send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x'.repeat(5000) } }));
      expect((await answer(3)).error?.message).toMatch(/^MCP error -32602: Unknown tool: "x{100}" \(cut\)$/);
      // Over the limit (as HTTP's): the line is dropped, the process goes on reading the next one.
      send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'listScopes', arguments: { x: 'a'.repeat(25_000_001) } } }));
      expect((await answer(null, 3)).error).toEqual({ code: -32000, message: 'Payload Too Large: a message must not exceed 25000000 bytes (this line was dropped)' });
      send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"listScopes","arguments":{}}}');
      expect((await answer(5)).result?.isError).toBeUndefined();
      expect(answers().filter((a) => a.id === null)).toHaveLength(3); // the blank line is no message: no answer
      expect(answers().some((a) => a.id === 4)).toBe(false);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses an empty key, and a key the server refuses, at start (exit 2, one line)', async () => {
    const revoked = await principal(h, 'stdio-revoked');
    expect((await engram(['keys', 'revoke', revoked.key.slice(0, 12)])).status).toBe(0);
    const runs = await Promise.all([engram(['mcp', '--key', '']), engram(['mcp'], { ENGRAM_API_KEY: '' }), engram(['mcp', '--key', revoked.key])]);
    expect(runs.map((run) => [run.status, run.stderr.trim().split('\n').length])).toEqual([[2, 1], [2, 1], [2, 1]]);
    expect(runs[0].stderr).toMatch(/^--key is empty/);
    expect(runs[1].stderr).toMatch(/^ENGRAM_API_KEY is empty/);
    expect(runs[2].stderr).toMatch(/^The API key of --key or ENGRAM_API_KEY is refused: .*revoked/);
  });

  it('acts as the principal of --key', async () => {
    const project = await createProject(h, 'stdio-readonly');
    const reader = await principal(h, 'stdio-reader', { grants: [[project, 'READ']] });
    const client = await stdioClient(['--key', reader.key]);
    try {
      const denied = (await client.callTool({ name: 'addGuideline', arguments: { scope: project, name: 'x', content: 'y' } })) as CallToolResult;
      expect(denied.isError).toBe(true);
      expect((denied.structuredContent as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      const read = (await client.callTool({ name: 'listScopes', arguments: {} })) as CallToolResult;
      expect((read.structuredContent as { projects: { items: { id: string }[] } }).projects.items.map((p) => p.id)).toEqual([project]);
    } finally {
      await client.close();
    }
  });
});
