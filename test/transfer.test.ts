// Export and import through the command line (`engram export`, `engram import` as subprocesses):
// a memory with every kind of row goes to the other database and back, and comes back the same;
// importing again changes nothing; a subtree export places itself under its enclosing scopes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { openDatabase } from '../src/infra/database.ts';
import { as, ok } from './support/access.ts';
import { DB_KIND, useHarness, type Harness } from './support/harness.ts';
import { runEngram, runEngramOnTerminal } from './support/server-process.ts';

const h = useHarness();
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const dir = mkdtempSync(join(tmpdir(), 'engram-transfer-'));
const pgDatabases: string[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  for (const name of pgDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

/** A database that does not exist yet (SQLite) or is empty (PostgreSQL): the CLI migrates it. */
async function emptyDatabase(kind: 'sqlite' | 'postgresql'): Promise<string> {
  const name = `engram_transfer_${randomBytes(5).toString('hex')}`;
  if (kind === 'sqlite') return `file:${join(dir, `${name}.db`)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  pgDatabases.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const engram = (databaseUrl: string, ...args: string[]) => runEngram(args, { DATABASE_URL: databaseUrl });

/**
 * The rows of an export, comparable across databases: JSON keys sorted (jsonb reorders them),
 * lines sorted, header left out, and the instants of the rows every database seeds for itself
 * (the global scope, the predefined tags), which an import finds there and keeps.
 */
function canonical(file: string): string[] {
  const seeded = (record: { row?: Record<string, unknown> }) => {
    if (record.row && (record.row.id === 'global' || record.row.predefined === true)) {
      delete record.row.createdAt;
      delete record.row.updatedAt;
    }
    return record;
  };
  const sortKeys = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(sortKeys) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sortKeys(v)])) : value;
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.stringify(sortKeys(seeded(JSON.parse(line) as { row?: Record<string, unknown> }))))
    .sort();
}

const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);
const success = (result: Record<string, any>) => {
  const value = Object.values(result)[0] as Record<string, any>;
  if (value.code) throw new Error(JSON.stringify(value));
  return value;
};

/** A memory with a row of every table the export carries. */
async function richMemory(suffix: string): Promise<{ project: string; session: string; organization: string }> {
  const organization = success(await m(`mutation { createOrganization(input: { name: "transfer-org-${suffix}", metadata: { team: "core", n: [1, 2] } }) { ... on CreateOrganizationSuccess { organization { id } } ... on UserError { code message } } }`)).organization.id;
  const project = success(await m(`mutation($o: ID!) { createProject(input: { name: "transfer-project-${suffix}", organization: $o, rootPath: "/srv/app" }) { ... on CreateProjectSuccess { project { id } } ... on UserError { code message } } }`, { o: organization })).project.id;
  const session = success(await m(`mutation($p: ID!) { startSession(input: { project: $p, name: "run", agentId: "a1", metadata: { k: "v" } }) { ... on StartSessionSuccess { session { id } } ... on UserError { code message } } }`, { p: project })).session.id;
  await m(`mutation($s: ID!) { setMemoryPolicy(input: { scope: $s, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }`, { s: project });
  await m(`mutation { createTag(input: { name: "transfer-tag-${suffix}", category: CUSTOM, description: "moved" }) { __typename } }`);
  const tool = success(await m(`mutation($p: ID!) { addTool(input: { scope: $p, name: "grep", description: "search files", parameters: { type: "object", properties: { q: { type: "string" } } }, tags: ["transfer-tag-${suffix}"] }) { ... on AddToolSuccess { tool { id } } ... on UserError { code message } } }`, { p: project })).tool.id;
  const guideline = success(await m(`mutation($p: ID!) { addGuideline(input: { scope: $p, name: "indent", content: "Four spaces", rationale: "PEP 8", priority: 70, examples: [{ good: "    x" }] }) { ... on AddGuidelineSuccess { guideline { id } } ... on UserError { code message } } }`, { p: project })).guideline.id;
  const knowledge = success(await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "port", content: "The API listens on 8080", source: "ops", confidence: 0.75 }) { ... on AddKnowledgeSuccess { knowledge { id } } ... on UserError { code message } } }`, { s: session })).knowledge.id;
  await m(`mutation($g: ID!) { updateGuideline(input: { id: $g, content: "Four spaces, never tabs", expectedVersion: 1, changeReason: "clearer" }) { __typename } }`, { g: guideline });
  // A conflict (stale expectedVersion), then resolved.
  await m(`mutation($k: ID!) { updateKnowledge(input: { id: $k, content: "The API listens on 9090", expectedVersion: 1 }) { __typename } }`, { k: knowledge });
  const conflicted = success(await m(`mutation($k: ID!) { updateKnowledge(input: { id: $k, content: "The API listens on 7070", expectedVersion: 1 }) { ... on UpdateKnowledgeSuccess { update { conflict { id } } } ... on UserError { code message } } }`, { k: knowledge }));
  await m(`mutation($c: ID!) { resolveConflict(input: { id: $c, strategy: TAKE_INCOMING, note: "newer" }) { __typename } }`, { c: conflicted.update.conflict.id });
  await m(`mutation($a: ID!, $b: ID!) { createRelation(input: { source: $a, target: $b, type: RELATED_TO }) { __typename } }`, { a: tool, b: guideline });
  await m(`mutation($a: ID!, $p: ID!) { createRelation(input: { source: $a, target: $p, type: APPLIES_TO }) { __typename } }`, { a: guideline, p: project });
  const parent = success(await m(`mutation($p: ID!) { createTask(input: { scope: $p, title: "ship", description: "release 1" }) { ... on CreateTaskSuccess { task { id } } ... on UserError { code message } } }`, { p: project })).task.id;
  const first = success(await m(`mutation($p: ID!, $t: ID!) { createTask(input: { scope: $p, title: "build", parent: $t, assignee: "a1" }) { ... on CreateTaskSuccess { task { id } } ... on UserError { code message } } }`, { p: project, t: parent })).task.id;
  await m(`mutation($p: ID!, $t: ID!, $d: [ID!]) { createTask(input: { scope: $p, title: "test", parent: $t, dependsOn: $d }) { __typename } }`, { p: project, t: parent, d: [first] });
  await m(`mutation($s: ID!, $d: JSON) { appendSessionEvent(input: { session: $s, actor: "agent:a1", type: ACTION, content: { did: "x" }, stateDelta: $d }) { __typename } }`, { s: session, d: { 'session:step': 1, 'temp:draft': 'd' } });
  await m(`mutation($s: ID!) { setState(input: { key: "session:step", value: 2, owner: { session: $s } }) { __typename } }`, { s: session });
  const conversation = success(await m(`mutation($s: ID!) { startConversation(input: { scope: $s, title: "chat", metadata: { lang: "en" } }) { ... on StartConversationSuccess { conversation { id } } ... on UserError { code message } } }`, { s: session })).conversation.id;
  await m(`mutation($c: ID!, $e: ID!) { addMessage(input: { conversation: $c, role: USER, content: "which port?", toolsUsed: ["grep"], usedEntries: [{ entry: $e, score: 0.5 }] }) { __typename } }`, { c: conversation, e: knowledge });
  // Coordination: a decided vote question with its votes and tallies, a flagged agent, an outcome.
  const question = success(await m(`mutation($p: ID!, $t: ID!) { openVoteQuestion(input: { scope: $p, key: "which-port", k: 2, task: $t, answerPattern: "[0-9]+" }) { ... on OpenVoteQuestionSuccess { question { id } } ... on UserError { code message } } }`, { p: project, t: parent })).question.id;
  for (const [agent, answer] of [['agent:v1', '8080'], ['agent:v2', '8080'], ['agent:v3', 'eighty']] as const) {
    const cast = await as(h, null, `mutation($q: ID!, $a: String!) { castVote(input: { question: $q, answer: $a, confidence: 0.5 }) { ... on CastVoteSuccess { vote { id } } ... on UserError { code message } } }`, { q: question, a: answer }, { 'x-engram-actor': agent });
    success(cast.data!);
  }
  await m(`mutation($p: ID!) { flagAgent(input: { scope: $p, agent: "agent:bad", reason: "hallucinates" }) { ... on FlagAgentSuccess { __typename } } }`, { p: project });
  success(await m(`mutation($p: ID!, $t: ID!) { recordOutcome(input: { scope: $p, task: $t, subtaskType: "build", itemKey: "i1", agent: "agent:v1", success: false, errorKind: "timeout", durationMs: 1200, tokens: 300 }) { ... on RecordOutcomeSuccess { outcome { id } } ... on UserError { code message } } }`, { p: project, t: first }));
  return { project, session, organization };
}

async function countRows(url: string): Promise<number> {
  const database = await openDatabase(url);
  try {
    return await database.prisma.entryVersion.count();
  } finally {
    await database.close();
  }
}

describe('export and import', () => {
  const other = DB_KIND === 'sqlite' ? 'postgresql' : 'sqlite';

  // Eight subprocesses, each opening (and, for a new database, migrating) its database: slow on a loaded machine.
  it(`moves everything to ${other} and back unchanged, and importing again changes nothing`, { timeout: 90_000 }, async () => {
    const { project } = await richMemory('a');
    const first = join(dir, 'first.jsonl');
    const exported = await engram(h.url, 'export', '--out', first);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/exported \d+ rows/);

    const there = await emptyDatabase(other);
    const imported = await engram(there, 'import', first, '--json');
    expect(imported.status, imported.stdout + imported.stderr).toBe(0);
    const report = JSON.parse(imported.stdout) as { created: Record<string, number>; refused: Record<string, number>; complete: boolean };
    expect(report).toMatchObject({ refused: {}, complete: true });
    for (const table of ['Scope', 'MemoryPolicy', 'Tag', 'Entry', 'EntryVersion', 'EntryTag', 'Relation', 'Conflict', 'Task', 'TaskDependency', 'SessionEvent', 'StateKey', 'StateVersion', 'Conversation', 'ConversationMessage', 'ConversationContext', 'VoteQuestion', 'Vote', 'VoteTally', 'FlaggedAgent', 'Outcome']) {
      expect(report.created[table], table).toBeGreaterThan(0);
    }
    const second = join(dir, 'second.jsonl');
    expect((await engram(there, 'export', '--out', second)).status).toBe(0);
    const back = await emptyDatabase(DB_KIND);
    expect((await engram(back, 'import', second)).status).toBe(0);
    const third = join(dir, 'third.jsonl');
    expect((await engram(back, 'export', '--out', third)).status).toBe(0);
    expect(canonical(second)).toEqual(canonical(first));
    expect(canonical(third)).toEqual(canonical(first));

    // The import left the planners' statistics and (PostgreSQL) the visibility map as autovacuum
    // would minutes later, so index-only scans serve the first queries.
    const pgCopy = DB_KIND === 'sqlite' ? there : back;
    const client = new pg.Client({ connectionString: pgCopy });
    await client.connect();
    try {
      const { rows } = await client.query<{ relallvisible: number }>(`SELECT relallvisible FROM pg_class WHERE relname = 'Entry'`);
      expect(rows[0]!.relallvisible).toBeGreaterThan(0);
    } finally {
      await client.end();
    }

    const again = await engram(there, 'import', first, '--json');
    expect(again.status).toBe(0);
    const repeat = JSON.parse(again.stdout) as { created: Record<string, number>; skipped: Record<string, number> };
    expect(repeat.created).toEqual({});
    expect(repeat.skipped.Entry).toBe(report.created.Entry);
    expect(await countRows(there)).toBe(report.created.EntryVersion);

    // What was imported is searchable, filterable by tag, and ranked in context, as the original was.
    const database = await openDatabase(back);
    const app = createApp({ database });
    try {
      const copy = { app } as Harness;
      const search = await ok(copy, null, `query($p: ID!) { memoryQuery(input: { scope: $p, search: "never tabs" }) { edges { node { name } } } }`, { p: project });
      expect(search.memoryQuery.edges.map((e: any) => e.node.name)).toEqual(['indent']);
      const tagged = await ok(copy, null, `query($p: ID!) { memoryQuery(input: { scope: $p, tags: { require: ["transfer-tag-a"] } }) { edges { node { name tags { name } } } } }`, { p: project });
      expect(tagged.memoryQuery.edges).toEqual([{ node: { name: 'grep', tags: [{ name: 'transfer-tag-a' }] } }]);
      const knowledge = await ok(copy, null, `query($p: ID!) { entryByName(scope: $p, kind: GUIDELINE, name: "indent") { latestVersion currentVersion { ... on GuidelineVersion { content } } } }`, { p: project });
      expect(knowledge.entryByName).toEqual({ latestVersion: 2, currentVersion: { content: 'Four spaces, never tabs' } });
    } finally {
      await app.stop(1_000);
      await database.close();
    }
  });

  it('exports a subtree with its enclosing scopes, and only its rows', async () => {
    const mine = await richMemory('b');
    const file = join(dir, 'subtree.jsonl');
    const projectId = Buffer.from(mine.project, 'base64').toString().split(':')[1]!;
    expect((await engram(h.url, 'export', '--scope', mine.project, '--out', file)).status).toBe(0);
    const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1, -1).map((line) => JSON.parse(line) as { table: string; row: Record<string, any> });
    const scopes = rows.filter((r) => r.table === 'Scope').map((r) => r.row.name as string);
    // global, the organization (enclosing), the project and its session; not the first test's scopes.
    expect(scopes).toEqual(['global', 'transfer-org-b', 'transfer-project-b', 'run']);
    const entries = rows.filter((r) => r.table === 'Entry');
    expect(entries.length).toBe(3);
    expect(rows.filter((r) => r.table === 'Task').every((r) => r.row.scopeId === projectId)).toBe(true);
    const there = await emptyDatabase(DB_KIND);
    const imported = await engram(there, 'import', file, '--json');
    expect(imported.status, imported.stdout).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: { Scope: 3, Entry: 3 }, skipped: { Scope: 1 }, complete: true });

    // For people: the current entries as YAML and Markdown.
    const yaml = await engram(h.url, 'export', '--scope', mine.project, '--format', 'yaml');
    const documents = parse(yaml.stdout) as { name: string; kind: string; content?: string; version: number; tags?: string[] }[];
    expect(documents.map((d) => d.name).sort()).toEqual(['grep', 'indent', 'port']);
    expect(documents.find((d) => d.name === 'indent')).toMatchObject({ kind: 'GUIDELINE', version: 2, content: 'Four spaces, never tabs' });
    expect(documents.find((d) => d.name === 'grep')?.tags).toEqual(['transfer-tag-b']);
    const markdown = await engram(h.url, 'export', '--scope', mine.project, '--format', 'markdown');
    expect(markdown.stdout).toMatch(/^# Engram memory/);
    expect(markdown.stdout).toContain('## project transfer-project-b');
    expect(markdown.stdout).toMatch(/### Guideline: indent\n\nversion 2 · priority 70[^\n]*\n\nFour spaces, never tabs\n/);
  });

  it('shows a progress bar over the file on a terminal, and nothing but the count in a pipe', async () => {
    const source = await emptyDatabase(DB_KIND);
    // export reads an existing database only (a missing SQLite file is refused): made first.
    expect((await engram(source, 'migrate', 'deploy')).status).toBe(0);
    const file = join(dir, 'bar.jsonl');
    expect((await engram(source, 'export', '--out', file)).status).toBe(0);
    const piped = await engram(await emptyDatabase(DB_KIND), 'import', file);
    expect(piped.stderr).toMatch(/^created \d+ rows\n$/);
    const onTerminal = await runEngramOnTerminal(['import', file], { DATABASE_URL: await emptyDatabase(DB_KIND) });
    expect(onTerminal).toMatch(/importing [█░]+ 100% \| [\d.]+\/[\d.]+ MB \| \d+ rows/);
  });

  it('refuses rows whose references are missing, and files that are not exports', async () => {
    const there = await emptyDatabase(DB_KIND);
    const file = join(dir, 'dangling.jsonl');
    const lines = [
      { engram: 'export', format: 1, exportedAt: new Date().toISOString(), scope: null },
      { table: 'Relation', row: { id: 'r1', type: 'RELATED_TO', sourceId: 'missing-entry', targetEntryId: 'missing-too', createdAt: new Date().toISOString() } },
      { end: true, counts: { Relation: 1 } },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const refused = await engram(there, 'import', file);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('refused Relation r1: sourceId refers to a Entry that is not here (missing-entry)');
    writeFileSync(file, '{"hello": "world"}\n');
    const wrong = await engram(there, 'import', file);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('not an Engram export');
    // Columns are named in the INSERT: a name the table does not have is refused, the row unwritten.
    const hostile = { table: 'Tag', row: { id: 'tag-hostile', name: 'hostile', category: 'CUSTOM', createdAt: new Date().toISOString(), 'name") VALUES (1); --': 1 } };
    writeFileSync(file, [lines[0], hostile, { end: true, counts: { Tag: 1 } }].map((l) => JSON.stringify(l)).join('\n'));
    const column = await engram(there, 'import', file);
    expect(column.status).toBe(2);
    expect(column.stderr).toContain('Tag has no column');
    expect((await engram(there, 'export')).stdout).not.toContain('tag-hostile');
    // Cut off before its footer: imported, but reported incomplete.
    writeFileSync(file, JSON.stringify(lines[0]) + '\n');
    expect((await engram(there, 'import', file)).stdout).toContain('may be cut off');
  });
});
