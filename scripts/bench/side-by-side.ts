// Two checkouts of Engram asked the same queries in turn, in one process, on copies of one SQLite
// database: how issue #13's lifecycle was held to "within 10 % of the figures before it". Timed
// one after the other, two runs of the bench differed by up to 20 % on the same code on this
// machine; asked in turn, drift falls on both alike.
//
//   git worktree add ../engram-base <commit> && ln -s "$PWD/node_modules" ../engram-base/node_modules
//   (cd ../engram-base && node scripts/prisma-generate.mjs &&
//    BENCH_KEEP=1 npx tsx scripts/bench.ts --db sqlite --suite memory --sizes 100000)   # prints "kept file:…"
//   npx tsx scripts/bench/side-by-side.ts --base ../engram-base --db <that file> [--runs 1000] [--shapes tagWord,tagOnly,noFilter,context,context10]
//
// The base opens its copy as it is; this checkout migrates its own copy first. Reader threads are
// off on both sides (the base may predate them): this compares what a query costs, not where it runs.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    db: { type: 'string' },
    runs: { type: 'string', default: '300' },
    shapes: { type: 'string', default: 'tagWord,tagOnly,context' },
  },
});
if (!values.base || !values.db) throw new Error('usage: side-by-side.ts --base <other checkout> --db <SQLite file seeded by it>');
const runs = Number(values.runs);
const source = values.db.replace(/^file:/, '');

function copyOf(to: string): string {
  // A copy's own log and index from an earlier run must go: SQLite would apply that log to this copy.
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(source + suffix)) copyFileSync(source + suffix, to + suffix);
    else rmSync(to + suffix, { force: true });
  }
  return to;
}

type Timed = (query: string, variables: object) => Promise<number>;

/** What this script uses of another checkout's modules (stable since before the lifecycle). */
interface Checkout {
  app: { createApp(options: object): { yoga: { fetch(url: string, init: RequestInit): Promise<Response> } } };
  database: { openDatabase(url: string, options: object): Promise<unknown> };
  events: { createEventBus(): unknown };
}

/** An app of the checkout at `root` on `file`, as a function that times one request. */
async function appOf(root: string, file: string): Promise<Timed> {
  const modules: Checkout = {
    app: (await import(`${root}/src/app.ts`)) as Checkout['app'],
    database: (await import(`${root}/src/infra/database.ts`)) as Checkout['database'],
    events: (await import(`${root}/src/infra/events.ts`)) as Checkout['events'],
  };
  const database = await modules.database.openDatabase(`file:${file}`, { readers: 0 });
  const app = modules.app.createApp({ database, bus: modules.events.createEventBus(), graphiql: false, auth: 'off' });
  return async (query, variables) => {
    const started = performance.now();
    const response = await app.yoga.fetch('http://bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-actor': 'bench' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return performance.now() - started;
  };
}

/** The workload's first session, its tags and words of its entries, read from the database itself. */
function workloadOf(file: string) {
  const db = new Database(file, { readonly: true });
  const session = db.prepare(`SELECT id FROM "Scope" WHERE kind = 'SESSION' ORDER BY "createdAt", id LIMIT 1`).get() as { id: string };
  // The tags the workload put on entries (the built-in ones carried by none would rank nothing).
  const tags = db.prepare(`SELECT name FROM "Tag" t WHERE EXISTS (SELECT 1 FROM "EntryTag" et WHERE et."tagId" = t.id)`).all() as Array<{ name: string }>;
  const texts = db.prepare(`SELECT content FROM "EntryVersion" WHERE content IS NOT NULL LIMIT 300`).all() as Array<{ content: string }>;
  db.close();
  return {
    scope: Buffer.from(`Session:${session.id}`).toString('base64'),
    tags: tags.map((t) => t.name),
    words: [...new Set(texts.flatMap((t) => t.content.split(/\s+/)))].slice(0, 500),
  };
}

// Both sides get the very same query each round, so the draw need not repeat across runs.
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

const baseFile = copyOf('/tmp/engram-side-by-side-base.db');
const thisFile = copyOf('/tmp/engram-side-by-side-this.db');
const { applyMigrations } = await import('../../src/infra/migrations.ts');
await applyMigrations(`file:${thisFile}`);
const { scope: s, tags, words } = workloadOf(baseFile);
let created = 0;
const CONTEXT = `query($s: ID!, $task: String!) { context(input: { scope: $s, task: $task }) { tokensUsed guidelines { score node { id name } } tools { score node { id name } } knowledge { score node { id name } } } }`;
const SHAPES: Record<string, () => [string, object]> = {
  tagWord: () => [`query($s: ID!, $t: String!, $w: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] }, search: $w }, first: 20) { edges { score node { id name } } meta { totalCount estimatedTokens } } }`, { s, t: pick(tags), w: pick(words) }],
  tagOnly: () => [`query($s: ID!, $t: String!) { memoryQuery(input: { scope: $s, tags: { include: [$t] } }, first: 20) { edges { score node { id name } } meta { totalCount } } }`, { s, t: pick(tags) }],
  noFilter: () => [`query($s: ID!) { memoryQuery(input: { scope: $s }, first: 20) { edges { score node { id name } } meta { estimatedTokens } } }`, { s }],
  requireExclude: () => [
    `query($s: ID!, $a: String!, $b: String!, $c: String!) { memoryQuery(input: { scope: $s, tags: { require: [$a, $b], exclude: [$c] } }, first: 20) { edges { score node { id name } } meta { totalCount estimatedTokens } } }`,
    { s, a: pick(tags), b: pick(tags), c: pick(tags) },
  ],
  // A write with tags (each side writes its own copy): what the triggers behind it cost.
  create: () => [
    `mutation($s: ID!, $t: String!, $c: String!, $tags: [String!]) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: $tags }) { __typename } }`,
    { s, t: `side-by-side-${process.pid}-${created++}`, c: `${pick(words)} ${pick(words)} ${pick(words)}`, tags: [...new Set([pick(tags), pick(tags)])] },
  ],
  context: () => [CONTEXT, { s, task: `${pick(words)} ${pick(words)}` }],
  // The bench's ten-word natural-language task (scripts/bench/shapes.ts).
  context10: () => [CONTEXT, { s, task: ['how', 'should', 'the', 'agent', 'use', pick(words), 'when', 'the', pick(words), pick(words)].join(' ') }],
};
const shapes = values.shapes.split(',');
for (const name of shapes) if (!SHAPES[name]) throw new Error(`unknown shape ${name}; known: ${Object.keys(SHAPES).join(', ')}`);

const sides: Array<[string, Timed]> = [
  ['base', await appOf(resolve(values.base), baseFile)],
  ['this', await appOf(resolve('.'), thisFile)],
];
const samples = new Map<string, number[]>();
for (let i = 0; i < runs + 20; i++) {
  for (const name of shapes) {
    const [query, variables] = SHAPES[name]!();
    // Each side goes first every other round.
    for (const [side, ask] of i % 2 ? sides : [...sides].reverse()) {
      const ms = await ask(query, variables);
      if (i >= 20) samples.set(`${name} ${side}`, [...(samples.get(`${name} ${side}`) ?? []), ms]);
    }
  }
}
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${runs} rounds, in-process, SQLite (p50 / p95 ms)`);
for (const name of shapes) {
  const [base, mine] = [samples.get(`${name} base`)!, samples.get(`${name} this`)!];
  const change = (percentile(mine, 0.5) / percentile(base, 0.5) - 1) * 100;
  console.log(
    `  ${name.padEnd(8)} base ${percentile(base, 0.5).toFixed(2)} / ${percentile(base, 0.95).toFixed(2)}   this ${percentile(mine, 0.5).toFixed(2)} / ${percentile(mine, 0.95).toFixed(2)}   p50 ${change >= 0 ? '+' : ''}${change.toFixed(1)} %`,
  );
}
process.exit(0);
