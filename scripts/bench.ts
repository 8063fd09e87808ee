// Benchmarks, printed as a table and written as JSON to bench-results/.
//
//   npm run bench                      # every suite on SQLite, and PostgreSQL when reachable
//   npm run bench -- --db sqlite --iterations 500
//
// Suite "memory" (issue #4's workload): seeds N entries through the service layer (50% tools, 30%
// guidelines, 20% knowledge; 20% global, 50% one project, 30% five sessions of it; 1-3 of 20 tags
// each; N/20 relations between random entries), then measures through yoga.fetch: get by id, list
// 20 guidelines of the project, memoryQuery (session, inherit, one include tag, a random search
// word per iteration), memoryQuery tag-only, context (session, a random two-word task: ranks the
// whole chain), create knowledge, update guideline. --sizes sets N
// (default 1000,10000,100000).
//
// Suite "crud": in-process (`yoga.fetch`) latency of single operations on a small database: get
// by id, list 20 guidelines, create knowledge, update guideline. (Issue #4 grows this to the
// 100K-entry workload with memoryQuery.)
//
// Suite "session": working memory on one session with 1,000 events: append an event (with and
// without a state delta), read a key through the five namespaces, list 20 events, list 20 state
// keys by pattern.
//
// Suite "contention" (issue #10): 50 writers on one entry. The real server process
// (`node --import tsx src/main.ts`) on a fresh database; 50 HTTP clients, each with its own
// X-Engram-Actor, update the same guideline without expectedVersion (so most writes conflict and
// are kept with KEEP_BOTH), each sending its next update as soon as the last one answered, for
// --contention-writes updates each (default 20). Prints p50/p99/max of the update latency and the
// writes per second, then checks the versions are 1..N with no hole and every acknowledged version
// is stored.
//
// Suite "hostile" (issue #10): every hostile request of test/support/attacks.ts against the real
// server process, each followed by a normal query; prints how fast each was refused, the normal
// query's time right after it (against its time with no attack), and the server's RSS at the end.
//
// Suite "auth" (issue #12): memoryQuery and a create through two server processes on one database
// of --auth-size entries (default 100,000), one with the API key of an agent holding a WRITE grant
// on the project (so every grant check runs) and one with AUTH=off, asked in turn; prints the p50s
// and the overhead.
//
// Suite "latency": write-to-subscriber latency. A graphql-ws client subscribes to
// conflictDetected on a project; each iteration sends one conflicting update over HTTP and stops
// the clock when the event arrives. Measured on one instance, and on two instances sharing the
// database and Redis (subscriber on A, writes through B). Environment: BENCH_POSTGRES_URL (admin
// connection, default postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { Redis } from 'ioredis';
import { createApp, type App } from '../src/app.ts';
import { openDatabase, type Database } from '../src/infra/database.ts';
import { createEventBus, type EventBus } from '../src/infra/events.ts';
import { applyMigrations } from '../src/infra/migrations.ts';
import { createScratchDatabase, type ScratchDatabase } from '../src/infra/scratch-database.ts';
import { addEntries, type AddEntryInput, type EntryKind } from '../src/modules/entries/entries.service.ts';
import { createRelation } from '../src/modules/relations/relations.service.ts';
import { GLOBAL_SCOPE_ID, createProject, startSession } from '../src/modules/scopes/scopes.service.ts';
import { ATTACKS, type Target } from '../test/support/attacks.ts';
import { createApiKey, createPrincipal } from '../src/modules/identity/keys.service.ts';
import { grantRole } from '../src/modules/identity/grants.service.ts';

const { values: opts } = parseArgs({
  options: {
    db: { type: 'string', multiple: true },
    suite: { type: 'string', multiple: true },
    sizes: { type: 'string', default: '1000,10000,100000' },
    iterations: { type: 'string', default: '300' },
    'contention-writers': { type: 'string', default: '50' },
    'contention-writes': { type: 'string', default: '20' },
    'auth-size': { type: 'string', default: '100000' },
  },
});
const iterations = Number(opts.iterations);
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Row {
  suite: string;
  db: string;
  case: string;
  iterations: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}
const rows: Row[] = [];

function summarize(suite: string, db: string, name: string, samples: number[]): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const round = (n: number) => Math.round(n * 100) / 100;
  const row = {
    suite,
    db,
    case: name,
    iterations: samples.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
  };
  rows.push(row);
  console.log(`  ${name.padEnd(44)} p50 ${String(row.p50).padStart(7)} ms   p95 ${String(row.p95).padStart(7)} ms   (n=${row.iterations})`);
  return row;
}

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (error) {
    console.log(`  (${(error as Error).message})`);
    return false;
  }
}

/** A fresh migrated database; `drop` removes it. */
async function freshDatabase(kind: 'sqlite' | 'postgresql'): Promise<ScratchDatabase> {
  const db = await createScratchDatabase(kind, { adminUrl, prefix: 'engram_bench' });
  await applyMigrations(db.url);
  return db;
}

async function post(port: number, query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-actor': 'bench', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}

interface Instance {
  app: App;
  database: Database;
  bus: EventBus;
  port: number;
}

async function instance(url: string, redis: boolean): Promise<Instance> {
  const database = await openDatabase(url);
  const bus = createEventBus({ redisUrl: redis ? redisUrl : null });
  await bus.ready();
  const app = createApp({ database, bus, graphiql: false });
  const port = await app.start(0, '127.0.0.1');
  return { app, database, bus, port };
}

async function close(i: Instance) {
  await i.app.stop(1_000);
  await i.bus.close();
  await i.database.close();
}

/** Conflict latency: subscriber on `sub`, writes through `writer`. */
async function conflictLatency(sub: Instance, writer: Instance): Promise<{ delivery: number[]; mutation: number[] }> {
  const project = (await post(writer.port, 'mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }', {
    n: `bench-${Date.now()}-${Math.random()}`,
  })) as { createProject: { project: { id: string } } };
  const scope = project.createProject.project.id;
  const tool = (await post(writer.port, 'mutation($s: ID!) { addTool(input: { scope: $s, name: "hot", description: "v1" }) { ... on AddToolSuccess { tool { id } } } }', {
    s: scope,
  })) as { addTool: { tool: { id: string } } };
  const id = tool.addTool.tool.id;
  const update = 'mutation($id: ID!, $d: String!) { updateTool(input: { id: $id, description: $d, expectedVersion: 1 }) { __typename } }';

  const client = createClient({ url: `ws://127.0.0.1:${sub.port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  let onEvent: (() => void) | null = null;
  const unsubscribe = client.subscribe(
    { query: 'subscription($s: ID!) { conflictDetected(scope: $s) { conflict { id versionB { version } } } }', variables: { s: scope } },
    {
      next: () => onEvent?.(),
      error: (e) => console.error('subscription error', e),
      complete: () => undefined,
    },
  );
  const nextEvent = (timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event')), timeoutMs);
      onEvent = () => {
        clearTimeout(timer);
        onEvent = null;
        resolve();
      };
    });
  // Warm up until the subscription delivers (it registers asynchronously).
  await post(writer.port, update, { id, d: 'warm-0' });
  for (let i = 1; ; i++) {
    const waiting = nextEvent(200);
    await post(writer.port, update, { id, d: `warm-${i}` });
    try {
      await waiting;
      break;
    } catch {
      if (i > 50) throw new Error('subscription never delivered');
    }
  }
  for (let i = 0; i < 20; i++) {
    const waiting = nextEvent(5_000);
    await post(writer.port, update, { id, d: `warm+${i}` });
    await waiting;
  }
  const delivery: number[] = [];
  const mutation: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const waiting = nextEvent(5_000);
    const t0 = performance.now();
    await post(writer.port, update, { id, d: `run-${i}` });
    mutation.push(performance.now() - t0);
    await waiting;
    delivery.push(performance.now() - t0);
  }
  unsubscribe();
  await client.dispose();
  return { delivery, mutation };
}

/** Runs an operation through `yoga.fetch` (no sockets), failing on any GraphQL error. */
function inProcess(app: App) {
  return async (query: string, variables: Record<string, unknown>): Promise<unknown> => {
    const response = await app.yoga.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-actor': 'bench' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

async function timed(samples: number[], run: () => Promise<unknown>) {
  const t0 = performance.now();
  await run();
  samples.push(performance.now() - t0);
}

/** Deterministic pseudo-random numbers, so every run seeds the same memory. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'ri', 'do', 'fe', 'gu', 'ha', 'jo', 'bi'];

async function memorySuite(kind: 'sqlite' | 'postgresql', n: number) {
  console.log(`\nmemory (${kind}, N = ${n.toLocaleString('en')}): seeding through the service layer`);
  const rand = prng(n);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  // 2,000 distinct three-syllable words: none is a prefix of another, as in real text most
  // words are not (a random two-syllable word would prefix-match a sixth of the vocabulary).
  const vocabulary = [...new Set(Array.from({ length: 6_000 }, () => Array.from({ length: 3 }, () => pick(SYLLABLES)).join('')))].slice(0, 2_000);
  const sentence = (words: number) => Array.from({ length: words }, () => pick(vocabulary)).join(' ');
  const TAGS = ['python', 'typescript', 'javascript', 'rust', 'go', 'java', 'sql', 'bash', 'web', 'cli', 'api', 'database', 'ml', 'devops', 'security', 'testing', 'documentation', 'code_style', 'architecture', 'performance'];

  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const bus = createEventBus();
  const deps = { db: database.prisma, provider: database.provider, bus, settings: { conflictWindowMs: 5_000 } };
  const app = createApp({ database, bus, graphiql: false });
  try {
    const seedStart = performance.now();
    const project = await createProject(deps.db, { name: 'bench' });
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await startSession(deps, { projectId: project.id, name: `s${i}` }));
    const inputs: AddEntryInput[] = [];
    for (let i = 0; i < n; i++) {
      const r = (i * 7919) % 100; // spreads kinds and scopes evenly, deterministically
      const entryKind: EntryKind = i % 10 < 5 ? 'TOOL' : i % 10 < 8 ? 'GUIDELINE' : 'KNOWLEDGE';
      const scopeId = r < 20 ? GLOBAL_SCOPE_ID : r < 70 ? project.id : sessions[r % 5]!.id;
      const tags = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(TAGS)))];
      const text = sentence(12 + Math.floor(rand() * 20));
      inputs.push({
        kind: entryKind,
        scopeId,
        name: `${entryKind.toLowerCase()}-${i}`,
        category: entryKind === 'TOOL' ? 'cli' : entryKind === 'GUIDELINE' ? 'code_style' : 'fact',
        priority: entryKind === 'GUIDELINE' ? Math.floor(rand() * 101) : null,
        tags,
        author: 'bench',
        version: entryKind === 'TOOL' ? { description: text } : { content: text },
      });
    }
    const ids: string[] = [];
    for (let start = 0; start < n; start += 5_000) ids.push(...(await addEntries(deps, inputs.slice(start, start + 5_000))));
    for (let i = 0; i < n / 20; i++) {
      const source = pick(ids);
      const target = pick(ids);
      if (source === target) continue;
      try {
        await createRelation(deps, { type: pick(['APPLIES_TO', 'DEPENDS_ON', 'CONFLICTS_WITH', 'RELATED_TO'] as const), sourceId: source, target: { entryId: target } });
      } catch {
        // the same random pair twice: skip
      }
    }
    // Fresh statistics for the query planners, as autovacuum (PostgreSQL) or `PRAGMA optimize`
    // (SQLite, run by the server on start) would soon provide after a bulk import.
    if (kind === 'sqlite') await database.prisma.$executeRawUnsafe('PRAGMA analysis_limit = 1000');
    await database.prisma.$executeRawUnsafe('ANALYZE');
    const seedMs = performance.now() - seedStart;
    console.log(`  seeding                                      ${(seedMs / 1000).toFixed(1)} s`);
    rows.push({ suite: 'memory', db: kind, case: `seed N=${n}`, iterations: 1, p50: Math.round(seedMs), p95: Math.round(seedMs), p99: Math.round(seedMs), mean: Math.round(seedMs) });

    const gql = inProcess(app);
    const gid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
    const typeOf = (i: number) => (i % 10 < 5 ? 'Tool' : i % 10 < 8 ? 'Guideline' : 'Knowledge');
    const projectId = gid('Project', project.id);
    const sessionId = gid('Session', sessions[0]!.id);
    const guidelineIds = ids.filter((_, i) => typeOf(i) === 'Guideline');
    const samples: Record<string, number[]> = { get: [], list: [], query: [], tagOnly: [], untracked: [], context: [], create: [], update: [] };
    // The same memory through an app that does not count reads: what access tracking costs.
    const untracked = inProcess(createApp({ database, bus, graphiql: false, trackAccess: false }));
    const runs = Math.max(iterations, 300);
    for (let i = 0; i < runs + 20; i++) {
      const warm = i < 20;
      const record = (name: string) => (warm ? [] : samples[name]!);
      const idx = Math.floor(rand() * n);
      await timed(record('get'), () =>
        gql('query($id: ID!) { entry(id: $id) { id name currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { content } } tags { name } } }', {
          id: gid(typeOf(idx), ids[idx]!),
        }),
      );
      await timed(record('list'), () =>
        gql('query($s: ID!) { guidelines(filter: { scope: $s }, first: 20) { edges { node { id name priority tags { name } } } } }', { s: projectId }),
      );
      await timed(record('query'), () =>
        gql('query($s: ID!, $t: String!, $w: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] }, search: $w }, first: 20) { edges { score node { id name } } meta { totalCount estimatedTokens } } }', {
          s: sessionId,
          t: pick(TAGS),
          w: pick(vocabulary),
        }),
      );
      const tag = pick(TAGS);
      const tagOnly = 'query($s: ID!, $t: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] } }, first: 20) { edges { score node { id name } } meta { totalCount } } }';
      // In turn, so that drift in machine load falls on both alike.
      for (const tracked of i % 2 ? [true, false] : [false, true]) {
        await timed(record(tracked ? 'tagOnly' : 'untracked'), () => (tracked ? gql : untracked)(tagOnly, { s: sessionId, t: tag }));
      }
      await timed(record('context'), () =>
        gql('query($s: ID!, $task: String!) { context(input: { scope: $s, task: $task }) { tokensUsed guidelines { score node { id name } } tools { score node { id name } } knowledge { score node { id name } } } }', {
          s: sessionId,
          task: `${pick(vocabulary)} ${pick(vocabulary)}`,
        }),
      );
      await timed(record('create'), () =>
        gql('mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: ["database"] }) { __typename } }', {
          s: projectId,
          t: `bench-k-${i}`,
          c: sentence(15),
        }),
      );
      await timed(record('update'), () =>
        gql('mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }', {
          id: gid('Guideline', pick(guidelineIds)),
          c: sentence(15),
        }),
      );
    }
    summarize('memory', kind, `N=${n} get by id`, samples.get!);
    summarize('memory', kind, `N=${n} list 20 guidelines`, samples.list!);
    summarize('memory', kind, `N=${n} memoryQuery (tag + word)`, samples.query!);
    const trackedP50 = summarize('memory', kind, `N=${n} memoryQuery (tag only)`, samples.tagOnly!).p50;
    const untrackedP50 = summarize('memory', kind, `N=${n} memoryQuery (tag only), reads not counted`, samples.untracked!).p50;
    console.log(`  access tracking adds ${(((trackedP50 - untrackedP50) / untrackedP50) * 100).toFixed(1)} % to memoryQuery p50 (target: under 5 %)`);
    summarize('memory', kind, `N=${n} context (two-word task)`, samples.context!);
    summarize('memory', kind, `N=${n} create knowledge`, samples.create!);
    summarize('memory', kind, `N=${n} update guideline`, samples.update!);
    await agedMemory({ kind, n, ids, database, gql, sessionId, pick, vocabulary, tags: TAGS });
  } finally {
    await app.stop();
    await database.close();
    if (process.env.BENCH_KEEP === '1') console.log(`  kept ${db.url}`);
    else await db.drop();
  }
}

/**
 * Issue #13's check: the same memory aged as a year of use would age it, then the query suite
 * again (decay and expiry now decide between entries), then a purge of 10 % of the entries.
 * Every entry's last change is spread over the past year; every tenth (knowledge, i % 10 == 9)
 * is an EPISODIC note 91-365 days old (past the default 90-day retention: the purge's 10 %);
 * one knowledge entry in fifty expired yesterday; importance is spread over 0-1.
 */
async function agedMemory(ctx: {
  kind: 'sqlite' | 'postgresql';
  n: number;
  ids: string[];
  database: Database;
  gql: (query: string, variables: Record<string, unknown>) => Promise<unknown>;
  sessionId: string;
  pick: <T>(items: readonly T[]) => T;
  vocabulary: string[];
  tags: string[];
}) {
  const { kind, n, ids, database, gql, sessionId, pick } = ctx;
  const now = Date.now();
  const DAY = 86_400_000;
  const byDay = new Map<number, string[]>();
  const episodes: string[] = [];
  const expired: string[] = [];
  const byImportance = new Map<number, string[]>();
  ids.forEach((id, i) => {
    const episode = i % 10 === 9;
    const day = episode ? 91 + ((i * 37) % 275) : (i * 7919) % 365;
    byDay.set(day, [...(byDay.get(day) ?? []), id]);
    if (episode) episodes.push(id);
    if (i % 50 === 8) expired.push(id);
    const importance = ((i * 13) % 11) / 10;
    byImportance.set(importance, [...(byImportance.get(importance) ?? []), id]);
  });
  const inChunks = async (list: string[], run: (chunk: string[]) => Promise<unknown>) => {
    for (let i = 0; i < list.length; i += 5_000) await run(list.slice(i, i + 5_000));
  };
  const db = database.prisma;
  const t0 = performance.now();
  // (Prisma sets updatedAt on every update: the ages go last.)
  for (const [importance, list] of byImportance) await inChunks(list, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { importance } }));
  await inChunks(episodes, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { memoryType: 'EPISODIC' } }));
  await inChunks(expired, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { validUntil: new Date(now - DAY) } }));
  for (const [day, list] of byDay) await inChunks(list, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { updatedAt: new Date(now - day * DAY - 3_600_000) } }));
  await db.$executeRawUnsafe('ANALYZE');
  console.log(`  aged the memory over a year                  ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const samples: Record<string, number[]> = { query: [], tagOnly: [], context: [] };
  const runs = Math.max(iterations, 300);
  for (let i = 0; i < runs + 20; i++) {
    const record = (name: string) => (i < 20 ? [] : samples[name]!);
    await timed(record('query'), () =>
      gql('query($s: ID!, $t: String!, $w: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] }, search: $w }, first: 20) { edges { score node { id name } } meta { totalCount estimatedTokens } } }', {
        s: sessionId,
        t: pick(ctx.tags),
        w: pick(ctx.vocabulary),
      }),
    );
    await timed(record('tagOnly'), () =>
      gql('query($s: ID!, $t: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] } }, first: 20) { edges { score node { id name } } meta { totalCount } } }', { s: sessionId, t: pick(ctx.tags) }),
    );
    await timed(record('context'), () =>
      gql('query($s: ID!, $task: String!) { context(input: { scope: $s, task: $task }) { tokensUsed guidelines { score node { id name } } tools { score node { id name } } knowledge { score node { id name } } } }', {
        s: sessionId,
        task: `${pick(ctx.vocabulary)} ${pick(ctx.vocabulary)}`,
      }),
    );
  }
  summarize('memory', kind, `N=${n} aged: memoryQuery (tag + word)`, samples.query!);
  summarize('memory', kind, `N=${n} aged: memoryQuery (tag only)`, samples.tagOnly!);
  summarize('memory', kind, `N=${n} aged: context (two-word task)`, samples.context!);

  const purgeRun = 'mutation($d: Boolean) { purgeMemory(input: { dryRun: $d }) { __typename ... on PurgeMemorySuccess { run { receipts { counts } } } } }';
  const erased = (data: unknown) =>
    (data as { purgeMemory: { run: { receipts: Array<{ counts: { Entry?: number } }> } } }).purgeMemory.run.receipts.reduce((sum, r) => sum + (r.counts.Entry ?? 0), 0);
  let t = performance.now();
  const wouldGo = erased(await gql(purgeRun, { d: true }));
  const dryMs = performance.now() - t;
  t = performance.now();
  const gone = erased(await gql(purgeRun, { d: false }));
  const purgeMs = performance.now() - t;
  const left = await db.entry.count();
  console.log(`  purge dry run: ${wouldGo.toLocaleString('en')} entries would go            ${(dryMs / 1000).toFixed(1)} s`);
  console.log(`  purge: erased ${gone.toLocaleString('en')} of ${n.toLocaleString('en')} entries (${((gone / n) * 100).toFixed(1)} %) with receipts   ${(purgeMs / 1000).toFixed(1)} s (${Math.round(gone / (purgeMs / 1000)).toLocaleString('en')} entries/s); ${left.toLocaleString('en')} left`);
  if (gone !== episodes.length) throw new Error(`the purge erased ${gone} entries, expected the ${episodes.length} episodes past their retention`);
  rows.push({ suite: 'memory', db: kind, case: `N=${n} purge of 10 %`, iterations: 1, p50: Math.round(purgeMs), p95: Math.round(purgeMs), p99: Math.round(purgeMs), mean: Math.round(purgeMs) });
}

async function crudSuite(kind: 'sqlite' | 'postgresql') {
  console.log(`\ncrud (${kind}): GraphQL operations through yoga.fetch, 200 entries`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const app = createApp({ database, graphiql: false });
  const gql = inProcess(app);
  /** The global ID at `path` of a result. */
  const idAt = (data: unknown, ...path: string[]) =>
    path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], data) as string;
  try {
    const project = idAt(
      await gql('mutation { createProject(input: { name: "crud" }) { ... on CreateProjectSuccess { project { id } } } }', {}),
      'createProject',
      'project',
      'id',
    );
    const guidelines: string[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await gql(
        'mutation($s: ID!, $n: String!) { addGuideline(input: { scope: $s, name: $n, content: "Prefer small functions.", tags: ["typescript", "code_style"] }) { ... on AddGuidelineSuccess { guideline { id } } } }',
        { s: project, n: `g-${i}` },
      );
      guidelines.push(idAt(r, 'addGuideline', 'guideline', 'id'));
    }
    const get: number[] = [];
    const list: number[] = [];
    const create: number[] = [];
    const update: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const id = guidelines[i % guidelines.length]!;
      await timed(get, () =>
        gql('query($id: ID!) { entry(id: $id) { id name currentVersion { version ... on GuidelineVersion { content } } tags { name } } }', { id }),
      );
      await timed(list, () =>
        gql('query($s: ID!) { guidelines(filter: { scope: $s }, first: 20) { edges { node { id name priority currentVersion { version } tags { name } } } } }', {
          s: project,
        }),
      );
      await timed(create, () =>
        gql('mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "A fact.", tags: ["database"] }) { __typename } }', {
          s: project,
          t: `k-${i}`,
        }),
      );
      await timed(update, () =>
        gql('mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }', { id, c: `v${i}` }),
      );
    }
    summarize('crud', kind, 'get by id', get);
    summarize('crud', kind, 'list 20 guidelines', list);
    summarize('crud', kind, 'create knowledge', create);
    summarize('crud', kind, 'update guideline', update);
  } finally {
    await app.stop();
    await database.close();
    await db.drop();
  }
}

async function sessionSuite(kind: 'sqlite' | 'postgresql') {
  console.log(`\nsession (${kind}): working memory through yoga.fetch, one session with 1,000 events`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const app = createApp({ database, graphiql: false });
  const gql = inProcess(app);
  const admin = async (query: string, variables: Record<string, unknown>) => {
    const response = await app.yoga.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-role': 'admin' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as unknown;
  };
  const idAt = (data: unknown, ...path: string[]) =>
    path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], data) as string;
  try {
    const project = idAt(
      await gql('mutation { createProject(input: { name: "session-bench" }) { ... on CreateProjectSuccess { project { id } } } }', {}),
      'createProject',
      'project',
      'id',
    );
    const session = idAt(
      await gql('mutation($p: ID!) { startSession(input: { project: $p, userId: "u1", appName: "ide" }) { ... on StartSessionSuccess { session { id } } } }', { p: project }),
      'startSession',
      'session',
      'id',
    );
    await admin('mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:model", value: "default" }) { __typename } }', { p: project });
    const append = 'mutation($s: ID!, $c: JSON, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:bench", content: $c, stateDelta: $d }) { __typename } }';
    for (let i = 0; i < 1_000; i++) {
      await gql(append, { s: session, c: { text: `message ${i}` }, d: { [`session:k${i % 100}`]: i, 'user:last': i } });
    }
    const samples: Record<string, number[]> = { append: [], appendDelta: [], read: [], list: [], keys: [] };
    for (let i = 0; i < iterations; i++) {
      await timed(samples.append!, () => gql(append, { s: session, c: { text: `m${i}` }, d: null }));
      await timed(samples.appendDelta!, () => gql(append, { s: session, c: { text: `m${i}` }, d: { 'session:step': i, 'temp:draft': `d${i}` } }));
      await timed(samples.read!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { state(key: "model") { namespace value } } } }', { s: session }),
      );
      await timed(samples.list!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { events(first: 20, filter: { types: [MESSAGE] }) { edges { node { sequence actor content } } } } } }', { s: session }),
      );
      await timed(samples.keys!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { stateEntries(pattern: "k*", first: 20) { edges { node { key value } } } } } }', { s: session }),
      );
    }
    summarize('session', kind, 'append event', samples.append!);
    summarize('session', kind, 'append event with a 2-key state delta', samples.appendDelta!);
    summarize('session', kind, 'read a key through 5 namespaces', samples.read!);
    summarize('session', kind, 'list 20 events (type filter)', samples.list!);
    summarize('session', kind, 'list 20 state keys (pattern)', samples.keys!);
  } finally {
    await app.stop();
    await database.close();
    await db.drop();
  }
}

async function latencySuite(kind: 'sqlite' | 'postgresql') {
  console.log(`\nlatency (${kind}): write over HTTP -> conflictDetected over graphql-ws`);
  const db = await freshDatabase(kind);
  try {
    const one = await instance(db.url, false);
    try {
      const r = await conflictLatency(one, one);
      summarize('latency', kind, 'one instance: mutation response', r.mutation);
      summarize('latency', kind, 'one instance: write-to-subscriber', r.delivery);
    } finally {
      await close(one);
    }
    const redisOk = await reachable(async () => {
      const c = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await c.connect();
        await c.ping();
      } finally {
        c.disconnect();
      }
    });
    if (!redisOk) {
      console.log(`  two instances: skipped (Redis unreachable at ${redisUrl})`);
      return;
    }
    const a = await instance(db.url, true);
    const b = await instance(db.url, true);
    try {
      const r = await conflictLatency(a, b);
      summarize('latency', kind, 'two instances over Redis: mutation response', r.mutation);
      summarize('latency', kind, 'two instances over Redis: write-to-subscriber', r.delivery);
    } finally {
      await close(a);
      await close(b);
    }
  } finally {
    await db.drop();
  }
}

/**
 * The real server process on `url`; resolves with its port once it listens. Rate limits are off:
 * the suites measure how fast Engram answers, and one client on one address would hit them.
 */
async function serverProcess(url: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number }> {
  const unlimited = { RATE_LIMIT_REQUESTS_PER_SECOND: '0', RATE_LIMIT_WRITES_PER_SECOND: '0' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', GRAPHIQL: 'false', REDIS_URL: '', ...unlimited, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${output}`)));
  });
  return { child, port };
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function contentionSuite(kind: 'sqlite' | 'postgresql') {
  const writers = Number(opts['contention-writers']);
  const writes = Number(opts['contention-writes']);
  console.log(`\ncontention (${kind}): ${writers} writers on one guideline over HTTP, ${writes} updates each, real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  const acknowledged: Array<{ id: string; version: number }> = [];
  let entryId = '';
  try {
    const project = (await post(port, 'mutation { createProject(input: { name: "contention" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
      createProject: { project: { id: string } };
    };
    const added = (await post(
      port,
      'mutation($s: ID!) { addGuideline(input: { scope: $s, name: "hot", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }',
      { s: project.createProject.project.id },
    )) as { addGuideline: { guideline: { id: string } } };
    const id = added.addGuideline.guideline.id;
    entryId = Buffer.from(id, 'base64').toString().split(':')[1]!;
    const update = `mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) {
      __typename ... on UpdateGuidelineSuccess { update { conflicted version { id version } } } ... on UserError { code message } } }`;
    const send = async (writer: number, content: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engram-actor': `agent:${writer}` },
        body: JSON.stringify({ query: update, variables: { id, c: content } }),
      });
      const body = (await response.json()) as {
        data?: { updateGuideline: { __typename: string; update?: { version: { id: string; version: number } } } };
        errors?: unknown;
      };
      const result = body.data?.updateGuideline;
      if (!result?.update) throw new Error(`update failed: ${JSON.stringify(body.errors ?? result)}`);
      const { id: versionId, version } = result.update.version;
      return { id: Buffer.from(versionId, 'base64').toString().split(':')[1]!, version };
    };
    // Warm the server (JIT, prepared statements) off the clock.
    for (let i = 0; i < 20; i++) acknowledged.push(await send(i % writers, `warm ${i}`));
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < writes; i++) {
          const start = performance.now();
          acknowledged.push(await send(writer, `writer ${writer} update ${i}`));
          latencies.push(performance.now() - start);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const row = summarize('contention', kind, `${writers} writers on one entry: update`, latencies);
    const max = Math.round(Math.max(...latencies) * 100) / 100;
    const perSecond = Math.round(latencies.length / seconds);
    rows.push({ suite: 'contention', db: kind, case: `${writers} writers on one entry: max`, iterations: latencies.length, p50: max, p95: max, p99: max, mean: max });
    rows.push({ suite: 'contention', db: kind, case: `${writers} writers on one entry: writes/s`, iterations: latencies.length, p50: perSecond, p95: perSecond, p99: perSecond, mean: perSecond });
    console.log(`  ${''.padEnd(44)} p99 ${String(row.p99).padStart(7)} ms   max ${String(max).padStart(7)} ms   ${perSecond} writes/s`);
  } finally {
    await stopProcess(child);
  }
  try {
    await checkGapless(db.url, entryId, acknowledged);
  } finally {
    await db.drop();
  }
}

/**
 * What authentication costs: two server processes on one database, one with API keys (sent as a
 * key) and one with AUTH=off, asked in turn (so that drift in machine load falls on both alike):
 * memoryQuery and a create. Prints both p50s and the overhead.
 */
async function authSuite(kind: 'sqlite' | 'postgresql') {
  const n = Number(opts['auth-size']);
  console.log(`\nauth (${kind}, N = ${n.toLocaleString('en')}): memoryQuery and create through HTTP as an agent with a grant, and with AUTH=off, in turn`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const deps = { db: database.prisma, provider: database.provider, bus: createEventBus(), settings: { conflictWindowMs: 5_000 } };
  const project = await createProject(deps.db, { name: 'auth' });
  const session = await startSession(deps, { projectId: project.id, name: 'auth' });
  await seedAuthEntries(deps, [GLOBAL_SCOPE_ID, project.id, session.id], n);
  // A non-admin principal: every read and write goes through its grant, not the admin shortcut.
  const principal = await createPrincipal(database.prisma, { name: 'bench-agent', kind: 'AGENT' });
  await grantRole(database.prisma, { principalId: principal.id, scopeId: project.id, role: 'WRITE' });
  const { secret } = await createApiKey(database.prisma, { principalId: principal.id, name: 'bench' });
  await database.close();
  const servers = { on: await serverProcess(db.url, { AUTH: 'on' }), off: await serverProcess(db.url, { AUTH: 'off' }) };
  try {
    const ask = (mode: 'on' | 'off', query: string, variables: Record<string, unknown>) =>
      post(servers[mode].port, query, variables, {
        'x-engram-actor': 'agent:bench-agent',
        ...(mode === 'on' ? { authorization: `Bearer ${secret}` } : {}),
      });
    const scope = Buffer.from(`Project:${project.id}`).toString('base64');
    const sessionScope = Buffer.from(`Session:${session.id}`).toString('base64');
    const samples = { on: { query: [] as number[], create: [] as number[] }, off: { query: [] as number[], create: [] as number[] } };
    for (let i = 0; i < iterations + 20; i++) {
      for (const mode of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const keep = i >= 20;
        await timed(keep ? samples[mode].create : [], () =>
          ask(mode, 'mutation($s: ID!, $n: String!) { addKnowledge(input: { scope: $s, title: $n, content: "auth bench" }) { __typename } }', { s: scope, n: `${mode}${i}` }),
        );
        await timed(keep ? samples[mode].query : [], () =>
          ask(mode, 'query($s: ID!) { memoryQuery(input: { scope: $s, search: "lokami" }, first: 20) { edges { node { id name } } } }', { s: sessionScope }),
        );
      }
    }
    for (const op of ['query', 'create'] as const) {
      const on = summarize('auth', kind, `${op}, with a key and a grant`, samples.on[op]).p50;
      const off = summarize('auth', kind, `${op}, AUTH=off`, samples.off[op]).p50;
      console.log(`  ${op}: authorization adds ${(((on - off) / off) * 100).toFixed(1)} % to p50 (target: under 10 %)`);
    }
  } finally {
    await stopProcess(servers.on.child);
    await stopProcess(servers.off.child);
    await db.drop();
  }
}

/** n knowledge entries spread over the scopes of a session's chain (global, project, session), in bulk. */
async function seedAuthEntries(deps: Parameters<typeof addEntries>[0], scopes: string[], n: number): Promise<void> {
  const rand = prng(n);
  const word = () => Array.from({ length: 3 }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
  for (let start = 0; start < n; start += 5_000) {
    const batch: AddEntryInput[] = [];
    for (let i = start; i < Math.min(n, start + 5_000); i++) {
      const content = Array.from({ length: 16 }, word).join(' ');
      batch.push({ kind: 'KNOWLEDGE', scopeId: scopes[i % scopes.length]!, name: `k-${i}`, tags: [], author: 'bench', version: { content } });
    }
    await addEntries(deps, batch);
  }
  await deps.db.$executeRawUnsafe('ANALYZE');
}

/**
 * Each hostile request of the test suite (test/support/attacks.ts) against the real server process,
 * then the same normal query right after it: how long the attack took to refuse, and whether the
 * server was slow to answer a user afterwards. Also the server's resident memory at the end.
 */
async function hostileSuite(kind: 'sqlite' | 'postgresql') {
  console.log(`\nhostile (${kind}): each attack, then a normal query right after it, real server process`);
  const db = await freshDatabase(kind);
  const { child, port } = await serverProcess(db.url);
  try {
    const base = `http://127.0.0.1:${port}`;
    const target = await hostileTarget(port, base);
    const normal = () => post(port, 'query($id: ID!) { node(id: $id) { ... on Guideline { name latestVersion } } }', { id: target.guidelineId });
    const baseline: number[] = [];
    for (let i = 0; i < 50; i++) await timed(baseline, normal);
    summarize('hostile', kind, 'normal query, no attack', baseline);
    for (const attack of ATTACKS) {
      const start = performance.now();
      const answer = await attack.send(target);
      const attackMs = Math.round(performance.now() - start);
      const after: number[] = [];
      await timed(after, normal);
      const [ms] = after;
      const ok = answer.codes.every((code) => attack.expect.includes(code));
      rows.push({ suite: 'hostile', db: kind, case: `after: ${attack.name}`, iterations: 1, p50: ms!, p95: ms!, p99: ms!, mean: ms! });
      console.log(`  ${attack.name.slice(0, 58).padEnd(58)} refused in ${String(attackMs).padStart(5)} ms (${answer.codes.join(', ') || 'data'}${ok ? '' : '  <-- UNEXPECTED'}); next query ${ms!.toFixed(1)} ms`);
      if (!ok) process.exitCode = 1;
    }
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    console.log(`  server RSS after the attacks: ${Math.round(rss)} MB`);
  } finally {
    await stopProcess(child);
    await db.drop();
  }
}

async function hostileTarget(port: number, base: string): Promise<Target> {
  const project = (await post(port, 'mutation { createProject(input: { name: "hostile" }) { ... on CreateProjectSuccess { project { id } } } }', {})) as {
    createProject: { project: { id: string } };
  };
  const projectId = project.createProject.project.id;
  const added = (await post(
    port,
    'mutation($s: ID!) { addGuideline(input: { scope: $s, name: "g", content: "v1" }) { ... on AddGuidelineSuccess { guideline { id } } } }',
    { s: projectId },
  )) as { addGuideline: { guideline: { id: string } } };
  const session = (await post(port, 'mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }', {
    p: projectId,
  })) as { startSession: { session: { id: string } } };
  return { base, projectId, guidelineId: added.addGuideline.guideline.id, sessionId: session.startSession.session.id };
}

/** Versions 1..N with no hole, and every version a client was told was written is stored. */
async function checkGapless(url: string, entryId: string, acknowledged: ReadonlyArray<{ id: string; version: number }>) {
  const database = await openDatabase(url);
  try {
    const stored = await database.prisma.entryVersion.findMany({ where: { entryId }, select: { id: true, version: true }, orderBy: { version: 'asc' } });
    const holes = stored.filter((v, i) => v.version !== i + 1).length;
    const byId = new Map(stored.map((v) => [v.id, v.version]));
    const missing = acknowledged.filter((a) => byId.get(a.id) !== a.version).length;
    const ok = holes === 0 && missing === 0 && stored.length === acknowledged.length + 1;
    console.log(`  versions 1..${stored.length}: ${holes} hole(s), ${missing} acknowledged write(s) missing${ok ? '' : '  <-- FAILED'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

const kinds = opts.db ?? ['sqlite', 'postgresql'];
for (const kind of kinds) {
  if (kind !== 'sqlite' && kind !== 'postgresql') throw new Error(`--db must be sqlite or postgresql, got ${kind}`);
  if (kind === 'postgresql' && !(await reachable(async () => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    await c.connect();
    await c.end();
  }))) {
    console.log(`\nPostgreSQL skipped: ${adminUrl} unreachable`);
    continue;
  }
  const suites = opts.suite ?? ['memory', 'contention', 'hostile', 'auth', 'latency'];
  if (suites.includes('memory')) {
    for (const size of opts.sizes.split(',').map(Number)) await memorySuite(kind, size);
  }
  if (suites.includes('crud')) await crudSuite(kind);
  if (suites.includes('session')) await sessionSuite(kind);
  if (suites.includes('contention')) await contentionSuite(kind);
  if (suites.includes('hostile')) await hostileSuite(kind);
  if (suites.includes('auth')) await authSuite(kind);
  if (suites.includes('latency')) await latencySuite(kind);
}

mkdirSync('bench-results', { recursive: true });
const file = join('bench-results', `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), node: process.version, iterations, rows }, null, 2));
console.log(`\nwritten ${file}`);
process.exit(process.exitCode ?? 0);
