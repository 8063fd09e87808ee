// Hostile and mistaken input to `engram` (run as a subprocess): a bad import line, a missing file or
// database, a server that is not there or not Engram, a bad key or number. Each is told in a line or
// two, with an exit code scripts can rely on, never a stack trace, and leaves nothing half-written.
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, principal } from './support/access.ts';
import { openDatabase } from '../src/infra/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../src/infra/scratch-database.ts';
import { importMemory, linesOf, MAX_LINE_BYTES } from '../src/modules/transfer/import.service.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { engramCommand, runEngram, type CliRun } from './support/server-process.ts';

const h = useHarness({ listen: true });
const dir = mkdtempSync(join(tmpdir(), 'engram-cli-errors-'));
const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const s of scratches) await s.drop();
  rmSync(dir, { recursive: true, force: true });
});

const engram = (args: string[], databaseUrl = h.url) => runEngram(args, { DATABASE_URL: databaseUrl });
/** A database of the run's kind that does not exist yet (SQLite) or is empty (PostgreSQL). */
async function emptyDatabase(): Promise<string> {
  const scratch = await createScratchDatabase(DB_KIND, { adminUrl: process.env.TEST_POSTGRES_URL });
  scratches.push(scratch);
  return scratch.url;
}
/** No line of a stack trace ("    at f (file:1:2)") and no dumped object. */
function told(run: CliRun, code: number, message: RegExp): void {
  expect(run.status, run.stdout + run.stderr).toBe(code);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/\{\s*$/m);
}

describe('engram import of a file with values the API would not take', () => {
  let exported: string[];
  beforeAll(async () => {
    const project = await createProject(h, 'hostile-import');
    for (const n of [1, 2, 3]) await ok(h, null, `mutation($p: ID!) { addKnowledge(input: { scope: $p, title: "fact-${n}", content: "fact ${n}" }) { __typename } }`, { p: project });
    await ok(h, null, `mutation($p: ID!) { createTask(input: { scope: $p, title: "ship" }) { __typename } }`, { p: project });
    const file = join(dir, 'good.jsonl');
    expect((await engram(['export', '--out', file])).status).toBe(0);
    exported = readFileSync(file, 'utf8').trimEnd().split('\n');
  }, 60_000);

  /** The export with `change` applied to the first line of `table` (the row holding `having`, when given). */
  function spoiled(table: string, change: (row: Record<string, unknown>) => void, having?: string): { file: string; line: number } {
    const lines = [...exported];
    const index = lines.findIndex((l) => l.startsWith(`{"table":"${table}"`) && (!having || l.includes(having)));
    const record = JSON.parse(lines[index]!) as { row: Record<string, unknown> };
    change(record.row);
    lines[index] = JSON.stringify(record);
    const file = join(dir, `spoiled-${table}-${index}.jsonl`);
    writeFileSync(file, lines.join('\n') + '\n');
    return { file, line: index + 1 };
  }

  it('refuses each bad value with file.line N: table.column: why, exit 2, and writes no row of it', { timeout: 120_000 }, async () => {
    const there = await emptyDatabase();
    const cases: [string, (row: Record<string, unknown>) => void, RegExp, string?][] = [
      ['Scope', (r) => (r.kind = 'BOGUS'), /Scope\.kind: must be one of GLOBAL, ORGANIZATION, PROJECT, SESSION \(got "BOGUS"\)/, '"kind":"PROJECT"'],
      ['EntryVersion', (r) => (r.content = 'fa\u0000ct'), /EntryVersion\.content: must not contain NUL characters/],
      ['EntryVersion', (r) => (r.content = 'fa\ud800ct'), /EntryVersion\.content: must be Unicode text/],
      ['Task', (r) => (r.createdAt = 'garbage'), /Task\.createdAt: must be an ISO-8601 string with a time zone/],
      ['Entry', (r) => (r.id = { a: 1 }), /Entry\.id: must be a string/],
      ['Entry', (r) => (r.name = 12345), /Entry\.name: must be a string/],
      ['Entry', (r) => (r.importance = 7), /Entry\.importance: must be between 0 and 1/],
      ['Task', (r) => delete r.title, /Task\.title: is required/],
      ['Task', (r) => (r.description = 'x'.repeat(30_000_000)), /Task\.description: must be at most 100000 characters \(got 30000000\)/],
    ];
    // The first through the command (its exit code and message); the rest through the import the
    // command runs, in this process: each command started costs seconds of CI.
    const [first, ...rest] = cases;
    const spoilt = spoiled(first![0], first![1], first![3]);
    told(await engram(['import', spoilt.file], there), 2, new RegExp(`^file\\.line ${spoilt.line}: ${first![2].source}`, 'm'));
    const database = await openDatabase(there);
    try {
      for (const [table, change, reason, having] of rest) {
        const { file, line } = spoiled(table, change, having);
        const report = await importMemory(database, createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
        expect(report.stopped?.line, table).toBe(line);
        expect(report.stopped?.message).toMatch(new RegExp(`^file\\.line ${line}: ${reason.source}`));
      }
    } finally {
      await database.close();
    }
    const back = await engram(['export'], there);
    expect(back.stdout).not.toMatch(/BOGUS|fa\\u0000ct|fa\\ud800ct|"garbage"|"name":12345/);
    // Nothing of a bad row, and every entry written has its current version (reads of one without fail).
    const entries = back.stdout.split('\n').filter((l) => l.startsWith('{"table":"Entry"')).map((l) => (JSON.parse(l) as { row: { currentVersionId: string | null } }).row);
    expect(entries.every((e) => e.currentVersionId !== null)).toBe(true);
  });

  it('imports what comes before a bad line, reports it, and the fixed file completes the import', { timeout: 60_000 }, async () => {
    const there = await emptyDatabase();
    const { file, line } = spoiled('EntryVersion', (r) => (r.content = 'fa\u0000ct'), '"version":1');
    const stopped = await engram(['import', file, '--json'], there);
    told(stopped, 2, new RegExp(`^file\\.line ${line}: EntryVersion\\.content`, 'm'));
    const report = JSON.parse(stopped.stdout) as { created: Record<string, number>; refused: Record<string, number>; refusals: { reason: string }[]; stopped: { line: number }; complete: boolean };
    expect(report).toMatchObject({ stopped: { line }, complete: false });
    expect(report.created.Scope).toBeGreaterThan(0);
    // The entries whose versions come at or after the bad line are not left without one.
    expect(report.refused.Entry).toBeGreaterThan(0);
    expect(report.refusals[0]!.reason).toContain('no current version');
    const fixed = join(dir, 'fixed.jsonl');
    writeFileSync(fixed, exported.join('\n') + '\n');
    const again = await engram(['import', fixed, '--json'], there);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ complete: true, refused: {}, stopped: null });
  });

  // readline decoded them as U+FFFD, and the import stored "content \uFFFD\uFFFD word" with exit 0.
  it('stops at a line that is not UTF-8, the rows before it imported', { timeout: 60_000 }, async () => {
    const at = exported.findIndex((l) => l.startsWith('{"table":"EntryVersion"'));
    const [before, after] = exported[at]!.split('"content":"');
    const bytes = exported.map((l) => Buffer.from(l));
    bytes[at] = Buffer.concat([Buffer.from(`${before}"content":"`), Buffer.from([0xff, 0xfe]), Buffer.from(after!)]);
    const file = join(dir, 'not-utf8.jsonl');
    writeFileSync(file, Buffer.concat(bytes.flatMap((b) => [b, Buffer.from('\n')])));
    const run = await engram(['import', file, '--json'], await emptyDatabase());
    told(run, 2, new RegExp(`^file\\.line ${at + 1}: not valid UTF-8$`, 'm'));
    expect(JSON.parse(run.stdout)).toMatchObject({ stopped: { line: at + 1 }, complete: false });
  });

  it('reads a file that starts with a byte order mark', { timeout: 60_000 }, async () => {
    const file = join(dir, 'bom.jsonl');
    writeFileSync(file, '\uFEFF' + exported.join('\n') + '\n');
    const run = await engram(['import', file, '--json'], await emptyDatabase());
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ complete: true, stopped: null });
  });

  it('linesOf takes a character cut between chunks, and refuses one cut by the end of the file', async () => {
    const read = async (...chunks: number[][]) => {
      const lines: string[] = [];
      try {
        for await (const line of linesOf(Readable.from(chunks.map((c) => Buffer.from(c))))) lines.push(line);
      } catch (error) {
        lines.push(`! ${(error as Error).message}`);
      }
      return lines;
    };
    const e = [0xc3, 0xa9]; // é
    expect(await read([0x61, e[0]!], [e[1]!, 0x0a, 0x62])).toEqual(['aé', 'b']);
    expect(await read([0x61, 0x0a, 0x62, e[0]!])).toEqual(['a', '! not valid UTF-8']);
    expect(await read([0x61, 0x0a, e[0]!, 0x0a, 0x63])).toEqual(['a', '! not valid UTF-8']);
    expect(await read([0xef, 0xbb], [0xbf, 0x61])).toEqual(['\uFEFFa']);
  });

  it('stops at a line longer than the most it reads, as at a line that is not valid, the rows before it imported', { timeout: 60_000 }, async () => {
    // Without the bound, readline gathered the line whole and died at V8's string limit (~512 MB).
    const lines = [...exported];
    const at = lines.findIndex((l) => l.startsWith('{"table":"Task"'));
    lines.splice(at, 0, `{"table":"Task","row":{"title":"${'x'.repeat(MAX_LINE_BYTES)}"}}`);
    const file = join(dir, 'long-line.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const run = await engram(['import', file, '--json'], await emptyDatabase());
    told(run, 2, new RegExp(`^file\\.line ${at + 1}: longer than ${MAX_LINE_BYTES} bytes, the most an import reads in a line$`, 'm'));
    expect(JSON.parse(run.stdout)).toMatchObject({ stopped: { line: at + 1 }, complete: false, refused: {}, created: { Entry: 3, EntryVersion: 3 } });
  });

  it('a file cut mid-line is imported as far as it goes and reported incomplete', { timeout: 60_000 }, async () => {
    const whole = exported.join('\n');
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, whole.slice(0, whole.indexOf('{"table":"Task"') + 30));
    const run = await engram(['import', file, '--json'], await emptyDatabase());
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(JSON.parse(run.stdout)).toMatchObject({ complete: false, stopped: null, refused: {}, created: { Entry: 3, EntryVersion: 3 } });
  });
});

describe('engram with a missing file or database', () => {
  it('import and import-openapi check their file before they open (or create) a database', async () => {
    const url = `file:${join(dir, 'never', 'x.db')}`;
    told(await engram(['import', join(dir, 'no-such-file.jsonl')], url), 2, /no-such-file\.jsonl cannot be read \(no such file or directory\)$/m);
    told(await engram(['import-openapi', join(dir, 'no-such-api.yaml'), '--scope', 'global'], url), 2, /no-such-api\.yaml is not a valid OpenAPI document/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('import reads what is not a regular file as a stream: /dev/null is an empty file, not "a directory"', async () => {
    const run = await engram(['import', '/dev/null']);
    told(run, 2, /^file\.line 1: the file is empty$/m);
    expect(run.stderr).not.toContain('directory');
  });

  it('keys list, export and backup refuse a SQLite database that does not exist instead of creating one', { timeout: 60_000 }, async () => {
    const url = `file:${join(dir, 'absent', 'x.db')}`;
    for (const args of [['keys', 'list'], ['export'], ['backup', join(dir, 'absent.backup')]]) told(await engram(args, url), 2, /No database at .*absent\/x\.db/);
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });

  it.skipIf(DB_KIND !== 'postgresql')('keys list, keys revoke and export refuse a PostgreSQL database Engram never migrated, and create nothing in it', { timeout: 60_000 }, async () => {
    const url = await emptyDatabase();
    for (const args of [['keys', 'list'], ['keys', 'revoke', 'k'], ['export']]) told(await engram(args, url), 2, /No Engram database at .*Engram never migrated it/);
    // A database the server does not have at all: the same mistake as a SQLite file that is not there.
    const absent = url.replace(/\/[^/?]+(\?|$)/, '/engram_absent_database$1');
    for (const args of [['keys', 'list'], ['export']]) told(await engram(args, absent), 2, /No database at .*engram_absent_database/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('export --out to a path that cannot be written fails before exporting, and says no rows were exported', async () => {
    const run = await engram(['export', '--out', join(dir, 'no', 'such', 'x.jsonl')]);
    told(run, 2, /--out .* cannot be written \(no such file or directory\)/);
    expect(run.stderr).not.toContain('exported');
  });

  it('backup into a directory that does not exist names the path and why, and writes nothing', async () => {
    // Any SQLite file will do: the destination is checked before anything is copied.
    const source = join(dir, 'backup-source.db');
    writeFileSync(source, '');
    const destination = join(dir, 'no-such-dir', 'x.backup');
    const run = await engram(['backup', destination], `file:${source}`);
    told(run, 2, /cannot be written/);
    expect(run.stderr).toBe(`${destination} cannot be written (no such file or directory)\n`);
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  });

  it('export --scope of no scope fails before writing anything: no header on stdout, an existing --out file left as it was', async () => {
    const kept = join(dir, 'kept.jsonl');
    writeFileSync(kept, 'kept\n');
    // An empty one (a script's unset variable) is no scope's either: it exported everything.
    const [toStdout, toFile, empty] = await Promise.all([
      engram(['export', '--scope', 'no-such-scope']),
      engram(['export', '--scope', 'no-such-scope', '--out', kept]),
      engram(['export', '--scope', '']),
    ]);
    expect([toStdout.stdout, empty.stdout]).toEqual(['', '']);
    expect(readFileSync(kept, 'utf8')).toBe('kept\n');
    for (const run of [toStdout, toFile]) told(run, 2, /^--scope no-such-scope: no scope has this id\n$/);
    told(empty, 2, /^--scope must be a scope's ID, got ""\n$/);
  });

  it('keys list on a memory without keys says so on stderr and prints nothing, or no JSON line', { timeout: 60_000 }, async () => {
    const url = `file:${join(dir, 'keyless.db')}`;
    expect((await engram(['migrate', 'deploy'], url)).status).toBe(0);
    const listed = await engram(['keys', 'list'], url);
    expect([listed.status, listed.stdout]).toEqual([0, '']);
    expect(listed.stderr).toMatch(/^No API keys yet: `engram keys create --name <principal>` makes one/);
    const json = await engram(['keys', 'list', '--json'], url);
    expect([json.status, json.stdout]).toEqual([0, '']);
  });

  it('restore of a cut-off backup says it is damaged', { timeout: 60_000 }, async () => {
    const source = `file:${join(dir, 'to-back-up.db')}`;
    expect((await engram(['migrate', 'deploy'], source)).status).toBe(0);
    const backup = join(dir, 'whole.backup');
    expect((await engram(['backup', backup], source)).status).toBe(0);
    writeFileSync(join(dir, 'cut.backup'), readFileSync(backup).subarray(0, 20_000));
    const target = join(dir, 'restored.db');
    told(await engram(['restore', join(dir, 'cut.backup')], `file:${target}`), 2, /cut\.backup is damaged \(database disk image is malformed\)/);
    expect(existsSync(target)).toBe(false);
  });

  it('an unreachable PostgreSQL is told in one line', async () => {
    told(await engram(['keys', 'list'], 'postgresql://postgres@127.0.0.1:4989/engram'), 1, /^Reading postgresql migrations .* failed: Can't reach database server at `127\.0\.0\.1:4989`\n$/);
  });

  it('a PostgreSQL address that drops the connection, or never answers, is told by the first check, not after the engine tried again', async () => {
    // One server closes every connection at once; the other accepts and stays silent, as a host
    // behind a firewall that drops packets: the check gives up after its 5 s connect timeout, where
    // the engine would have waited 15 s more before saying so.
    const sockets: Socket[] = [];
    const dropping = createNetServer((socket) => socket.destroy());
    const silent = createNetServer((socket) => void sockets.push(socket));
    // And one that resets the connection: what a closing peer sends when pg's first message is
    // already in its buffer, which the dropping one does too when the timing falls so.
    const resetting = createNetServer((socket) => socket.resetAndDestroy());
    const portOf = async (server: NetServer) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    try {
      const [drops, stays, resets] = [await portOf(dropping), await portOf(silent), await portOf(resetting)];
      const [dropped, waited, reset, statusDropped, statusReset] = await Promise.all([
        engram(['keys', 'list'], `postgresql://postgres@127.0.0.1:${drops}/engram`),
        engram(['keys', 'list'], `postgresql://postgres@127.0.0.1:${stays}/engram`),
        engram(['keys', 'list'], `postgresql://postgres@127.0.0.1:${resets}/engram`),
        // migrate status went straight to the engine: "failed: External error id#0".
        engram(['migrate', 'status'], `postgresql://postgres@127.0.0.1:${drops}/engram`),
        engram(['migrate', 'status'], `postgresql://postgres@127.0.0.1:${resets}/engram`),
      ]);
      told(statusDropped, 1, new RegExp(`^Reading the postgresql migration status .* failed: Can't reach database server at \`127\\.0\\.0\\.1:${drops}\` \\((Connection terminated unexpectedly|the connection was reset)\\)\n$`));
      told(statusReset, 1, new RegExp(`^Reading the postgresql migration status .* failed: Can't reach database server at \`127\\.0\\.0\\.1:${resets}\` \\(the connection was reset\\)\n$`));
      told(dropped, 1, new RegExp(`^Reading postgresql migrations .* failed: Can't reach database server at \`127\\.0\\.0\\.1:${drops}\` \\((Connection terminated unexpectedly|the connection was reset)\\)\n$`));
      told(reset, 1, new RegExp(`^Reading postgresql migrations .* failed: Can't reach database server at \`127\\.0\\.0\\.1:${resets}\` \\(the connection was reset\\)\n$`));
      told(waited, 1, new RegExp(`^Reading postgresql migrations .* failed: Can't reach database server at \`127\\.0\\.0\\.1:${stays}\` \\((timeout expired|Connection terminated due to connection timeout)\\)\n$`));
    } finally {
      for (const socket of sockets) socket.destroy();
      dropping.close();
      silent.close();
      resetting.close();
    }
  });
});

describe('engram export when writing fails', () => {
  // Over the 64 KiB a pipe holds: a reader that stops early makes the writes fail.
  let url: string;
  beforeAll(async () => {
    url = await emptyDatabase();
    const now = new Date().toISOString();
    const tags = Array.from({ length: 1_000 }, (_, i) => ({ table: 'Tag', row: { id: `big-${i}`, name: `big-tag-${i}`, category: 'CUSTOM', description: 'd'.repeat(200), createdAt: now } }));
    const lines = [{ engram: 'export', format: 1, exportedAt: now, scope: null }, ...tags, { end: true, counts: { Tag: tags.length } }];
    writeFileSync(join(dir, 'big.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect((await engram(['import', join(dir, 'big.jsonl')], url)).status).toBe(0);
  }, 60_000);

  /** `engram export --out out` with writes limited to `kilobytes` (ulimit -f): past it, EFBIG. */
  const exportLimited = (out: string, kilobytes: number) =>
    new Promise<CliRun>((resolveRun) => {
      const command = `ulimit -f ${kilobytes} && exec "$0" "$1" export --out "$2"`;
      execFile('bash', ['-c', command, process.execPath, engramCommand(), out], { env: { ...process.env, DATABASE_URL: url } }, (error, stdout, stderr) => resolveRun({ status: error ? (error.code as number) : 0, stdout, stderr }));
    });

  it('to a FIFO whose reader goes away: says what failed, and leaves the FIFO there', async () => {
    const fifo = join(dir, 'export.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('head', ['-c', '10', fifo], { stdio: 'ignore' });
    const run = await engram(['export', '--out', fifo], url);
    reader.kill();
    told(run, 1, new RegExp(`^writing ${fifo.replace(/[.]/g, '\\.')} failed: EPIPE: broken pipe, write\n$`));
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('through a symlink: a failed export leaves the link and the old file; a whole one replaces the file, the link kept', async () => {
    const target = join(dir, 'export-target.jsonl');
    const link = join(dir, 'export-link.jsonl');
    writeFileSync(target, 'before\n');
    symlinkSync(target, link);
    told(await exportLimited(link, 64), 1, /^writing .*export-link\.jsonl failed: EFBIG: file too large, write\n$/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await engram(['export', '--out', link], url)).status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(/^\{"engram":"export"[^]*"end":true/);
  });

  it('to a stdout closed early (export | head): exit 1, and nothing said', async () => {
    const child = spawn(process.execPath, [engramCommand(), 'export'], { env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const [status] = (await once(child, 'close')) as [number];
    expect({ status, stderr }).toEqual({ status: 1, stderr: '' });
  });

  it('interrupted by SIGINT: exit 130, its temporary file removed, the old file left as it was', { timeout: 120_000 }, async () => {
    // An export that takes a while (~10 MB), so that the signal comes while it writes.
    const there = await emptyDatabase();
    const now = new Date().toISOString();
    const tags = Array.from({ length: 20_000 }, (_, i) => ({ table: 'Tag', row: { id: `slow-${i}`, name: `slow-tag-${i}`, category: 'CUSTOM', description: 'd'.repeat(500), createdAt: now } }));
    const lines = [{ engram: 'export', format: 1, exportedAt: now, scope: null }, ...tags, { end: true, counts: { Tag: tags.length } }];
    writeFileSync(join(dir, 'slow.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect((await engram(['import', join(dir, 'slow.jsonl')], there)).status).toBe(0);
    const out = join(dir, 'interrupted.jsonl');
    writeFileSync(out, 'before\n');
    const child = spawn(process.execPath, [engramCommand(), 'export', '--out', out], { env: { ...process.env, DATABASE_URL: there }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    const temporary = `.interrupted.jsonl.${child.pid}.tmp`;
    const deadline = Date.now() + 30_000;
    while (!readdirSync(dir).includes(temporary)) {
      expect(Date.now() < deadline, `no temporary file: ${stderr}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGINT');
    const [status] = await closed;
    expect({ status, stderr }).toEqual({ status: 130, stderr: `Interrupted (SIGINT): ${out} was left as it was.\n` });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(out, 'utf8')).toBe('before\n');
  });

  it.skipIf(DB_KIND !== 'sqlite')('backup refuses a symlink that leads nowhere, and writes nothing through it', async () => {
    const link = join(dir, 'dangling.backup');
    symlinkSync(join(dir, 'backup-nowhere'), link);
    told(await engram(['backup', link], url), 2, /dangling\.backup exists: the backup will not overwrite it/);
    expect(existsSync(join(dir, 'backup-nowhere'))).toBe(false);
  });
});

describe('engram with a wrong DATABASE_URL, or a database that does not answer', () => {
  const commands = [['keys', 'list'], ['migrate', 'status'], ['mcp'], ['serve']];
  const runWith = (args: string[], url: string) => runEngram(args, { DATABASE_URL: url, PORT: '0' });

  it('a DATABASE_URL of no database it knows is a usage mistake, told in one line by every command', { timeout: 60_000 }, async () => {
    const runs = await Promise.all(commands.map((args) => runWith(args, 'mysql://x@y/z')));
    for (const run of runs) told(run, 2, /^DATABASE_URL must start with file: \(SQLite\) or postgres:\/\/ \/ postgresql:\/\/\n$/);
  });

  // SQLite cannot open a directory: each failed with better-sqlite3's "External error id#0" (exit 1).
  it('a SQLite DATABASE_URL naming a directory is a usage mistake, told in one line by every command', { timeout: 60_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'engram-dir-'));
    try {
      const runs = await Promise.all(commands.map((args) => runWith(args, `file:${directory}`)));
      for (const run of runs) {
        told(run, 2, /^DATABASE_URL names a directory /);
        expect(run.stderr).toBe(`DATABASE_URL names a directory (${directory}), not a SQLite database file\n`);
      }
      expect(readdirSync(directory)).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('a PostgreSQL that does not answer is a failure told in one line by every command, the server\'s start too', { timeout: 60_000 }, async () => {
    const runs = await Promise.all(commands.map((args) => runWith(args, 'postgresql://postgres@127.0.0.1:4989/engram')));
    for (const run of runs.slice(0, 3)) told(run, 1, /^(Applying postgresql migrations|Reading postgresql migrations|Reading the postgresql migration status) .* failed: Can't reach database server at `127\.0\.0\.1:4989`\n$/);
    // The server logs it (to stdout, as its log) as its last line, fatal: no stack, nothing "unexpected".
    const serve = runs[3]!;
    const output = serve.stdout + serve.stderr;
    expect(serve.status, output).toBe(1);
    expect(output).not.toMatch(/^\s+at |unexpected error/m);
    const last = JSON.parse(output.trim().split('\n').at(-1)!) as { level: number; msg: string };
    expect(last.level).toBe(60);
    expect(last.msg).toMatch(/^Applying postgresql migrations .* failed: Can't reach/);
  });
});

describe('engram keys create', () => {
  type Listed = { name: string; kind: string; admin: boolean; keys: unknown[] };
  const principals = async (): Promise<Listed[]> => {
    const data = (await ok(h, null, '{ principals(first: 100) { edges { node { name kind admin keys { id } } } } }')) as { principals: { edges: Array<{ node: Listed }> } };
    return data.principals.edges.map((e) => e.node);
  };

  it('a key refused (an expiry past) leaves no new principal behind', async () => {
    told(await engram(['keys', 'create', '--name', 'cli-past', '--expires', '2000-01-01T00:00:00Z']), 2, /must be in the future/);
    expect((await principals()).map((p) => p.name)).not.toContain('cli-past');
  });

  it('a name holding a secret is refused (exit 2), and neither the principal nor the key is made', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const runs = await Promise.all([engram(['keys', 'create', '--name', secret]), engram(['keys', 'create', '--name', 'cli-named', '--key-name', `ci ${secret}`])]);
    runs.forEach((run, i) => told(run, 2, new RegExp(`^${['--name', '--key-name'][i]}: holds a secret \\(GITHUB_TOKEN\\); a name is not redacted`)));
    expect((await principals()).map((p) => p.name)).not.toContain('cli-named');
  });

  it("--expires takes what the API's DateTime takes: no date without a time, no year past 9999", async () => {
    const refused = ['2027-01-01', '+010000-01-01T00:00:00Z'];
    const runs = await Promise.all(refused.map((expires) => engram(['keys', 'create', '--name', 'cli-when', '--expires', expires])));
    runs.forEach((run, i) => {
      told(run, 2, /^--expires /);
      expect(run.stderr).toBe(`--expires must be an ISO-8601 string with a time zone, got "${refused[i]!}"\n`);
    });
    expect((await principals()).map((p) => p.name)).not.toContain('cli-when');
  });

  it('--kind and --admin that an existing principal is not are refused, not ignored', async () => {
    expect((await engram(['keys', 'create', '--name', 'cli-bob', '--kind', 'agent'])).status).toBe(0);
    told(await engram(['keys', 'create', '--name', 'cli-bob', '--admin']), 2, /^"cli-bob" exists and is not an admin: --admin applies to a new principal only/);
    told(await engram(['keys', 'create', '--name', 'cli-bob', '--kind', 'user']), 2, /^"cli-bob" exists as agent, not user: --kind applies to a new principal only/);
    const again = await engram(['keys', 'create', '--name', 'cli-bob', '--kind', 'AGENT']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/ for agent "cli-bob"\. It is shown once/);
    const bob = (await principals()).filter((p) => p.name === 'cli-bob');
    expect(bob.map(({ kind, admin, keys }) => ({ kind, admin, keys: keys.length }))).toEqual([{ kind: 'AGENT', admin: false, keys: 2 }]);
  });
});

describe('engram query, context and tail with a wrong server, key or number', () => {
  let html: Server;
  let htmlUrl: string;
  let project: string;
  beforeAll(async () => {
    html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not engram</html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`;
    project = await createProject(h, 'cli-errors-client');
    // A key exists: the server now refuses unknown ones.
    await principal(h, 'cli-errors-admin', { admin: true });
  });
  afterAll(() => new Promise<void>((resolve) => html.close(() => resolve())));
  const at = (...args: string[]) => engram([...args, '--url', `http://127.0.0.1:${h.port}`]);

  it('says the server is not there, not an address, or not Engram', { timeout: 60_000 }, async () => {
    told(await engram(['query', project, '--url', 'http://127.0.0.1:4989']), 1, /^Engram at http:\/\/127\.0\.0\.1:4989 did not answer \(ECONNREFUSED\)/);
    told(await engram(['query', project, '--url', 'notaurl']), 2, /^--url \(or ENGRAM_URL\) must be an http:\/\/ or https:\/\/ address, got "notaurl"/);
    told(await engram(['query', project, '--url', htmlUrl]), 1, /answered HTTP 200 \(text\/html\), not GraphQL: is --url \(or ENGRAM_URL\) an Engram server\?/);
    // Nothing before the failure: tail says it is following only once the server took the connection.
    told(await engram(['tail', project, '--url', 'http://127.0.0.1:4989']), 1, /^Engram at http:\/\/127\.0\.0\.1:4989 did not answer/);
  });

  it('says the key is not valid, or refused', { timeout: 60_000 }, async () => {
    told(await at('query', project, '--key', 'a\nb'), 2, /^--key \(or ENGRAM_API_KEY\) is not a valid API key/);
    told(await at('query', project, '--key', '✓'), 2, /^--key \(or ENGRAM_API_KEY\) is not a valid API key/);
    told(await at('tail', project, '--key', 'egk_bad'), 2, /^UNAUTHENTICATED: /);
  });

  it('refuses a numeric option that is not an integer, and sends --budget 0 rather than drop it', { timeout: 60_000 }, async () => {
    told(await at('query', project, '--first', 'abc'), 2, /--first must be an integer/);
    told(await at('query', project, '--first', '10abc'), 2, /--first must be an integer/);
    told(await at('query', project, '--first', '0'), 2, /--first must be at least 1/);
    told(await at('context', project, 'a', 'task', '--budget', 'abc'), 2, /--budget must be an integer/);
    const admin = (await principal(h, 'cli-errors-budget', { admin: true })).key;
    told(await at('context', project, 'a', 'task', '--budget', '0', '--key', admin), 2, /^VALIDATION_FAILED: input\.tokenBudget/);
  });
});
