// An import interrupted before its entries' versions were in left those entries without a current
// version (it was held in the import's memory), importing the file again skipped them for good, and
// every read of them failed (INTERNAL_SERVER_ERROR: currentVersion is never null). Now: SIGINT stops
// the import cleanly (exit 130), importing again completes what an interruption left, and readers
// pass over an entry that has no current version yet. Through `engram import` (a subprocess) and
// GraphQL in-process on the imported database.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../src/infra/scratch-database.ts';
import { as, ok } from './support/access.ts';
import { DB_KIND, useHarness, type Harness } from './support/harness.ts';
import { createProject } from './support/ops.ts';
import { engramCommand, ROOT, runEngram } from './support/server-process.ts';

const h = useHarness();
const dir = mkdtempSync(join(tmpdir(), 'engram-import-interrupted-'));
const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const s of scratches) await s.drop();
  rmSync(dir, { recursive: true, force: true });
});

const engram = (databaseUrl: string, ...args: string[]) => runEngram(args, { DATABASE_URL: databaseUrl });

/** A database of the run's kind, migrated and empty. */
async function emptyDatabase(): Promise<string> {
  const scratch = await createScratchDatabase(DB_KIND, { adminUrl: process.env.TEST_POSTGRES_URL });
  scratches.push(scratch);
  const migrated = await engram(scratch.url, 'migrate', 'deploy');
  expect(migrated.status, migrated.stderr).toBe(0);
  return scratch.url;
}

/** `work` with GraphQL (in-process) and Prisma on the database at `url`. */
async function onDatabase<T>(url: string, work: (copy: Harness, database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(url);
  const app = createApp({ database });
  try {
    return await work({ app } as Harness, database);
  } finally {
    await app.stop(1_000);
    await database.close();
  }
}

const withoutCurrentVersion = (database: Database) => database.prisma.entry.count({ where: { currentVersionId: null } });

const CONTEXT = `query($p: ID!) { context(input: { scope: $p, task: "fact deploy" }) { guidelines { node { name } } knowledge { node { name currentVersion { ... on KnowledgeVersion { content } } } } } }`;
const QUERY = `query($p: ID!) { memoryQuery(input: { scope: $p, search: "fact" }) { edges { node { name } } } }`;

const FACTS = ['fact-1', 'fact-2', 'fact-3'];
let project: string;
/** The lines of an export of the harness database holding the project's entries. */
let exported: string[];

beforeAll(async () => {
  project = await createProject(h, 'interrupted-import');
  for (const title of FACTS) await ok(h, null, `mutation($p: ID!, $t: String!) { addKnowledge(input: { scope: $p, title: $t, content: "a fact to keep" }) { __typename } }`, { p: project, t: title });
  await ok(h, null, `mutation($p: ID!) { addGuideline(input: { scope: $p, name: "deploy-rule", content: "deploy on fridays never", priority: 50 }) { __typename } }`, { p: project });
  const file = join(dir, 'export.jsonl');
  const run = await engram(h.url, 'export', '--out', file);
  expect(run.status, run.stderr).toBe(0);
  exported = readFileSync(file, 'utf8').trimEnd().split('\n');
}, 60_000);

describe('an import interrupted before its entries had their current versions', () => {
  it('leaves entries readers pass over, and importing the file again completes every one', { timeout: 120_000 }, async () => {
    const there = await emptyDatabase();
    const file = join(dir, 'whole.jsonl');
    writeFileSync(file, exported.join('\n') + '\n');
    expect((await engram(there, 'import', file)).status).toBe(0);
    // What an import killed between its entries and their versions left (the entries written,
    // their current versions not yet, nor their search rows), for every entry.
    await onDatabase(there, async (copy, database) => {
      await database.prisma.$executeRawUnsafe(`UPDATE "Entry" SET "currentVersionId" = NULL`);
      await database.prisma.$executeRawUnsafe(`DELETE FROM "EntrySearch"`);
      expect(await withoutCurrentVersion(database)).toBeGreaterThanOrEqual(4);

      // Not there yet, for every reader: no INTERNAL_SERVER_ERROR ("Cannot return null for non-nullable field").
      const context = await as(copy, null, CONTEXT, { p: project });
      expect(context.errors).toBeUndefined();
      expect(context.data!.context).toMatchObject({ guidelines: [], knowledge: [] });
      for (const query of [
        `query($p: ID!) { memoryQuery(input: { scope: $p }) { edges { node { name currentVersion { __typename } } } } }`,
        `query($p: ID!) { memoryQuery(input: { scope: $p, search: "fact" }) { edges { node { name currentVersion { __typename } } } } }`,
        `query($p: ID!) { knowledge(filter: { scope: $p }) { totalCount edges { node { name currentVersion { content } } } } }`,
        `query($p: ID!) { entryByName(scope: $p, kind: KNOWLEDGE, name: "fact-1") { name currentVersion { __typename } } }`,
      ]) {
        const answer = await as(copy, null, query, { p: project });
        expect(answer.errors, query).toBeUndefined();
        expect(JSON.stringify(answer.data), query).not.toContain('fact-');
      }
      // Not candidates either (the query engine's filters, not only the read of the page): nothing counted, nothing more.
      for (const search of [null, 'fact']) {
        const counted = await ok(copy, null, `query($p: ID!, $s: String) { memoryQuery(first: 1, input: { scope: $p, search: $s }) { meta { totalCount hasMore } edges { node { name } } } }`, { p: project, s: search });
        expect(counted.memoryQuery, String(search)).toEqual({ meta: { totalCount: 0, hasMore: false }, edges: [] });
      }
      const id = (await database.prisma.entry.findFirstOrThrow({ where: { name: 'fact-1' }, select: { id: true } })).id;
      const byId = await as(copy, null, `query($id: ID!) { entry(id: $id) { name currentVersion { __typename } } }`, { id: Buffer.from(`Knowledge:${id}`).toString('base64') });
      expect(byId.errors).toBeUndefined();
      expect(byId.data).toEqual({ entry: null });
    });

    // Imported again, from a file that no longer holds fact-3's entry row (its versions are still
    // here): the others from their rows, fact-3 from its newest version.
    const lines = exported.filter((line) => !(line.startsWith('{"table":"Entry",') && line.includes('"name":"fact-3"')));
    const footer = JSON.parse(lines.at(-1)!) as { counts: Record<string, number> };
    footer.counts.Entry! -= 1;
    lines[lines.length - 1] = JSON.stringify(footer);
    const lacking = join(dir, 'lacking.jsonl');
    writeFileSync(lacking, lines.join('\n') + '\n');
    const again = await engram(there, 'import', lacking, '--json');
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: {}, refused: {}, complete: true });

    await onDatabase(there, async (copy, database) => {
      expect(await withoutCurrentVersion(database)).toBe(0);
      const context = await ok(copy, null, CONTEXT, { p: project });
      expect(context.context.guidelines.map((e: any) => e.node.name)).toEqual(['deploy-rule']);
      expect(context.context.knowledge.map((e: any) => e.node.name).sort()).toEqual(FACTS);
      const contents = Object.fromEntries(context.context.knowledge.map((e: any) => [e.node.name, e.node.currentVersion.content]));
      expect(contents).toEqual({ 'fact-1': 'a fact to keep', 'fact-2': 'a fact to keep', 'fact-3': 'a fact to keep' });
      // Searchable again: the search rows were written with the current versions.
      const found = await ok(copy, null, QUERY, { p: project });
      expect(found.memoryQuery.edges.map((e: any) => e.node.name).sort()).toEqual(FACTS);
    });
  });

  it('SIGINT stops the import, exits 130 with no entry left without its current version, and importing again completes it', { timeout: 120_000 }, async () => {
    const there = await emptyDatabase();
    // The file up to its second version, from stdin: the entries are written (their batch ends at
    // the first version row, read once the line after it is) and the import waits for more.
    const firstVersion = exported.findIndex((line) => line.startsWith('{"table":"EntryVersion"'));
    const entries = exported.filter((line) => line.startsWith('{"table":"Entry",')).length;
    const child = spawn(process.execPath, [engramCommand(), 'import', '-'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: there }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.write(exported.slice(0, firstVersion + 2).join('\n') + '\n');

    await onDatabase(there, async (_copy, database) => {
      const deadline = Date.now() + 30_000;
      while ((await database.prisma.entry.count()) < entries) {
        expect(Date.now() < deadline, `the import wrote no entries: ${stderr}`).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The state the interruption finds: entries whose current versions are only in the import's memory.
      expect(await withoutCurrentVersion(database)).toBe(entries);
    });
    child.kill('SIGINT');
    const status = await closed;
    expect(status, stdout + stderr).toBe(130);
    expect(stderr).toMatch(/Interrupted \(SIGINT\).*Import the file again to complete it/);
    expect(stdout).toMatch(/^Entry\s/m);

    await onDatabase(there, async (copy, database) => {
      expect(await withoutCurrentVersion(database)).toBe(0);
      expect((await as(copy, null, CONTEXT, { p: project })).errors).toBeUndefined();
    });

    const file = join(dir, 'after-sigint.jsonl');
    writeFileSync(file, exported.join('\n') + '\n');
    const again = await engram(there, 'import', file);
    expect(again.status, again.stdout + again.stderr).toBe(0);
    await onDatabase(there, async (copy, database) => {
      expect(await withoutCurrentVersion(database)).toBe(0);
      const context = await ok(copy, null, CONTEXT, { p: project });
      expect(context.context.knowledge.map((e: any) => e.node.name).sort()).toEqual(FACTS);
    });
  });
});

describe('an import cut off between a task and its parent', () => {
  const CREATE = `mutation($p: ID!, $t: String!) { createTask(input: { scope: $p, title: $t }) { ... on CreateTaskSuccess { task { id } } } }`;
  const UPDATE = `mutation($id: ID!, $parent: ID, $title: String) { updateTask(input: { id: $id, parent: $parent, title: $title }) { __typename } }`;
  const PARENT = `query($id: ID!) { task: node(id: $id) { ... on Task { title parent { title } } } }`;
  let child: string;
  let lines: string[];

  beforeAll(async () => {
    // The child is created first and given its parent after: its row comes before its parent's (by id).
    const p = await createProject(h, 'interrupted-tasks');
    child = (await ok(h, null, CREATE, { p, t: 'child' })).createTask.task.id;
    const parent = (await ok(h, null, CREATE, { p, t: 'parent' })).createTask.task.id;
    expect((await ok(h, null, UPDATE, { id: child, parent })).updateTask.__typename).toBe('UpdateTaskSuccess');
    const file = join(dir, 'tasks.jsonl');
    expect((await engram(h.url, 'export', '--out', file)).status).toBe(0);
    lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  }, 60_000);

  /** An empty database with the file imported up to the child's row (its parent's row and all after cut off). */
  async function cutAtChild(): Promise<string> {
    const there = await emptyDatabase();
    const at = lines.findIndex((line) => line.startsWith('{"table":"Task"') && line.includes('"title":"child"'));
    expect(lines[at + 1]).toMatch(/"title":"parent"/);
    const cut = join(dir, `tasks-cut-${scratches.length}.jsonl`);
    writeFileSync(cut, lines.slice(0, at + 1).join('\n') + '\n');
    expect((await engram(there, 'import', cut)).status).toBe(1); // not whole
    await onDatabase(there, async (copy) => expect((await ok(copy, null, PARENT, { id: child })).task).toEqual({ title: 'child', parent: null }));
    return there;
  }

  it('importing the file again gives the task its parent', { timeout: 120_000 }, async () => {
    const there = await cutAtChild();
    const whole = join(dir, 'tasks-whole.jsonl');
    writeFileSync(whole, lines.join('\n') + '\n');
    const again = await engram(there, 'import', whole);
    expect(again.status, again.stdout + again.stderr).toBe(0);
    await onDatabase(there, async (copy) => expect((await ok(copy, null, PARENT, { id: child })).task).toEqual({ title: 'child', parent: { title: 'parent' } }));
  });

  it('a task changed since keeps what it has', { timeout: 120_000 }, async () => {
    const there = await cutAtChild();
    await onDatabase(there, async (copy) => expect((await ok(copy, null, UPDATE, { id: child, title: 'child, on its own now' })).updateTask.__typename).toBe('UpdateTaskSuccess'));
    const whole = join(dir, 'tasks-whole-2.jsonl');
    writeFileSync(whole, lines.join('\n') + '\n');
    expect((await engram(there, 'import', whole)).status).toBe(0);
    await onDatabase(there, async (copy) => expect((await ok(copy, null, PARENT, { id: child })).task).toEqual({ title: 'child, on its own now', parent: null }));
  });
});
