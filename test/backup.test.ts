// `engram backup` of a live SQLite database while writes go on, and `engram restore` into a new
// one (subprocesses); on PostgreSQL the command says how to use pg_dump instead.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/database.ts';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { runEngram } from './support/server-process.ts';

const h = useHarness();
const dir = mkdtempSync(join(tmpdir(), 'engram-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const engram = (databaseUrl: string, ...args: string[]) => runEngram(args, { DATABASE_URL: databaseUrl });

describe.runIf(DB_KIND === 'sqlite')('backup and restore (SQLite)', () => {
  it('copies a consistent database while writes go on, and restores it into a new one', async () => {
    const project = await createProject(h, 'backup-project');
    const add = (i: number) =>
      ok(h, null, `mutation($p: ID!, $t: String!) { addKnowledge(input: { scope: $p, title: $t, content: "fact number ${i}" }) { __typename } }`, { p: project, t: `fact-${i}` });
    for (let i = 0; i < 50; i++) await add(i);
    // Writes keep going while the backup runs.
    let writing = true;
    let written = 50;
    const writer = (async () => {
      while (writing) {
        // In-process writes resolve without turning the event loop: let the subprocess' exit be seen.
        await new Promise((resolve) => setImmediate(resolve));
        await add(written++);
      }
    })();
    const file = join(dir, 'engram.backup');
    const made = await engram(h.url, 'backup', file);
    writing = false;
    await writer;
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toContain(`to ${file}`);
    expect(written).toBeGreaterThan(50);

    const restoredUrl = `file:${join(dir, 'restored', 'engram.db')}`;
    const restored = await engram(restoredUrl, 'restore', file);
    expect(restored.status, restored.stderr).toBe(0);
    const database = await openDatabase(restoredUrl, { readers: 0 });
    try {
      const entries = await database.prisma.entry.count({ where: { name: { startsWith: 'fact-' } } });
      expect(entries).toBeGreaterThanOrEqual(50);
      expect(entries).toBeLessThanOrEqual(written);
      // One consistent state: every entry with its version and its search text.
      expect(await database.prisma.entry.count({ where: { name: { startsWith: 'fact-' }, currentVersionId: null } })).toBe(0);
      const [{ n }] = await database.prisma.$queryRawUnsafe<[{ n: number | bigint }]>(`SELECT COUNT(*) AS n FROM "EntrySearch" s JOIN "Entry" e ON e."id" = s."entryId" WHERE e."name" LIKE 'fact-%'`);
      expect(Number(n)).toBe(entries);
    } finally {
      await database.close();
    }

    expect((await engram(restoredUrl, 'restore', file)).stderr).toContain('already holds a database');
    expect((await engram(h.url, 'backup', file)).status).toBe(2);
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text that is long enough to look like something');
    const refused = await engram(`file:${join(dir, 'other', 'engram.db')}`, 'restore', junk);
    expect(refused.status).toBe(2);
  });
});

describe.runIf(DB_KIND === 'postgresql')('backup on PostgreSQL', () => {
  it('points to pg_dump and exits 2', async () => {
    const run = await engram(h.url, 'backup', join(dir, 'x'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('pg_dump --format=custom');
  });
});
