// Hostile requests against the real server process (issue #10): every one gets a typed client
// error or data, never INTERNAL_SERVER_ERROR; the process stays up, within RSS_BOUND, and answers
// a normal query right after each (its time is printed by `npm run bench -- --suite hostile`).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS, post, type Target } from './support/attacks.ts';
import { createDatabaseUrl, DB_KIND } from './support/harness.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';

/** Resident memory the server may reach during the attacks: ~4x its size after start-up (~250 MB). */
const RSS_BOUND = 1024 * 1024 * 1024;
/** The query timeout of this server: short enough for the lock test, far above any normal query. */
const TIMEOUT_MS = 2_000;

let server: ServerProcess;
let target: Target;
let databaseUrl: string;
let drop: () => Promise<void> = async () => undefined;

async function data<T>(query: string, variables?: unknown): Promise<T> {
  const answer = await post(server.base, JSON.stringify({ query, variables }));
  const parsed = JSON.parse(answer.body) as { data?: T; errors?: unknown };
  if (parsed.errors || !parsed.data) throw new Error(answer.body);
  return parsed.data;
}

async function seed(base: string): Promise<Target> {
  type Id = { id: string };
  const { createProject } = await data<{ createProject: { project: Id } }>(
    'mutation { createProject(input: { name: "hostile" }) { ... on CreateProjectSuccess { project { id } } } }',
  );
  const projectId = createProject.project.id;
  const { addGuideline } = await data<{ addGuideline: { guideline: Id } }>(
    'mutation($s: ID!) { addGuideline(input: { scope: $s, name: "g", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }',
    { s: projectId },
  );
  const guidelineId = addGuideline.guideline.id;
  for (let v = 2; v <= 5; v++) {
    await data('mutation($id: ID!, $c: String) { updateGuideline(input: { id: $id, content: $c }) { __typename } }', { id: guidelineId, c: `v${v}` });
  }
  const { startSession } = await data<{ startSession: { session: Id } }>(
    'mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }',
    { p: projectId },
  );
  return { base, projectId, guidelineId, sessionId: startSession.session.id };
}

/** What a user asks right after an attack: it must still be answered, and right. */
async function normalQuery(): Promise<void> {
  const result = await data<{ node: { name: string; latestVersion: number } }>(
    'query($id: ID!) { node(id: $id) { ... on Guideline { name latestVersion } } }',
    { id: target.guidelineId },
  );
  expect(result.node).toEqual({ name: 'g', latestVersion: 5 });
}

describe(`hostile requests against the server process (${DB_KIND})`, () => {
  beforeAll(async () => {
    const created = await createDatabaseUrl();
    drop = created.drop;
    databaseUrl = created.url;
    server = await startServerProcess(databaseUrl, { OPERATION_TIMEOUT_MS: String(TIMEOUT_MS) });
    target = await seed(server.base);
  });

  afterAll(async () => {
    await server?.kill();
    await drop();
  });

  for (const attack of ATTACKS) {
    it(`${attack.name}: ${attack.expect.length ? attack.expect.join(' or ') : 'answered'}`, async () => {
      const answer = await attack.send(target);
      expect(answer.codes, answer.body.slice(0, 300)).not.toContain('INTERNAL_SERVER_ERROR');
      if (attack.expect.length > 0 && !attack.orData) expect(answer.codes.length, answer.body.slice(0, 300)).toBeGreaterThan(0);
      for (const code of answer.codes) expect(attack.expect, answer.body.slice(0, 300)).toContain(code);
      if (attack.status !== undefined) expect(answer.status, answer.body.slice(0, 300)).toBe(attack.status);
      if (attack.answerAtMost !== undefined) expect(answer.body.length, answer.body.slice(0, 300)).toBeLessThanOrEqual(attack.answerAtMost);
      expect(server.alive()).toBe(true);
      await normalQuery();
      expect(server.rss()).toBeLessThan(RSS_BOUND);
    });
  }

  it('refused writes left nothing behind', async () => {
    const { projects } = await data<{ projects: { edges: { node: { name: string } }[] } }>('{ projects(first: 100) { edges { node { name } } } }');
    expect(projects.edges.map((e) => e.node.name)).toEqual(['hostile']);
    const { node } = await data<{ node: { entries: { totalCount: number } } }>(
      'query($id: ID!) { node(id: $id) { ... on Project { entries { totalCount } } } }',
      { id: target.projectId },
    );
    expect(node.entries.totalCount).toBe(1);
  });

  it.skipIf(DB_KIND !== 'postgresql')('ends a query that outlives OPERATION_TIMEOUT_MS with OPERATION_TIMEOUT, and keeps serving', async () => {
    // Another connection holds a lock that every read of "Entry" waits for.
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "Entry" IN ACCESS EXCLUSIVE MODE');
      const answer = await post(server.base, JSON.stringify({ query: `{ memoryQuery(input: { scope: "${target.projectId}" }) { meta { totalCount } } }` }));
      expect(answer.codes, answer.body).toEqual(['OPERATION_TIMEOUT']);
      await blocker.query('ROLLBACK');
      await normalQuery();
    } finally {
      await blocker.end();
    }
  });
});
