// Migrations are all or nothing: a server killed (SIGKILL: an OOM kill, a supervisor giving up)
// while it applies one leaves the database as before that migration, and the next start applies
// it and the rest. Before, Prisma's engine had recorded the migration as started (finished_at NULL)
// and, on SQLite, applied part of it: every later start failed with P3009.
//
// The tests need migrations of their own (one that takes as long as the test wants; a table
// redefinition with child rows), so they run the compiled server from a copy of this run's build
// whose project root holds its own prisma/ folder: the committed migrations plus the test's.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase } from '../src/infra/scratch-database.ts';
import { DB_KIND, createDatabaseUrl } from './support/harness.ts';
import { ROOT, runEngram, startServerProcess, withDeadline } from './support/server-process.ts';

/** Upper bound for a start that applies every migration on a loaded 2-core machine (a failure guard). */
const MIGRATING_DEADLINE_MS = 60_000;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A project root with this run's compiled src/ and the committed migrations of the run's database
 * (unless `committed` is false) plus `extra` (folder name -> migration.sql). Under node_modules/ so
 * that the compiled modules find their packages; projectRoot() stops at its package.json and prisma/.
 */
function buildWithMigrations(extra: Record<string, string>, { committed = true } = {}): { server: string; cli: string; names: string[] } {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const root = mkdtempSync(join(cache, 'engram-test-migrations-'));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  cpSync(join(inject('compiledRoot'), 'src'), join(root, 'src'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  cpSync(join(ROOT, 'prisma', 'models.prisma'), join(root, 'prisma', 'models.prisma'));
  const migrations = join(root, 'prisma', DB_KIND, 'migrations');
  if (committed) cpSync(join(ROOT, 'prisma', DB_KIND, 'migrations'), migrations, { recursive: true });
  else mkdirSync(migrations, { recursive: true });
  if (existsSync(join(ROOT, 'dist', 'ui'))) {
    mkdirSync(join(root, 'dist'));
    symlinkSync(join(ROOT, 'dist', 'ui'), join(root, 'dist', 'ui'));
  }
  for (const [name, sql] of Object.entries(extra)) {
    mkdirSync(join(migrations, name));
    writeFileSync(join(migrations, name, 'migration.sql'), sql);
  }
  const names = readdirSync(migrations, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  return { server: join(root, 'src', 'main.js'), cli: join(root, 'src', 'cli', 'main.js'), names };
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  if (url.startsWith('file:')) {
    const db = new Sqlite(url.slice('file:'.length), { timeout: 10_000 });
    try {
      const statement = db.prepare(sql);
      return statement.reader ? (statement.all() as T[]) : (statement.run(), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Tables, indexes, triggers and views (SQLite); tables, indexes, triggers and functions (PostgreSQL). */
async function schemaObjects(url: string): Promise<string[]> {
  const rows = url.startsWith('file:')
    ? await query<{ object: string }>(url, `SELECT type || ' ' || name AS object FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`)
    : await query<{ object: string }>(
        url,
        `SELECT c.relkind::text || ' ' || c.relname AS object FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
         UNION ALL SELECT 'trigger ' || t.tgname FROM pg_trigger t WHERE NOT t.tgisinternal
         UNION ALL SELECT 'function ' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
      );
  return rows.map((row) => row.object).sort();
}

interface Row {
  migration_name: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** Sorts right after the first committed migration, so that most of them are still to apply after it. */
const PACE = '20261121233316_init_test_pace';
const SLOW = '20261121233316_init_test_slow';

// The slow migration creates a table, then works for as long as the pace table says (SQLite:
// counting to `rounds`; PostgreSQL: sleeping `seconds`): for ages on the first start, at once on
// the next, so the same migration is killed first and applied after.
const SLOW_MIGRATIONS: Record<'sqlite' | 'postgresql', Record<string, string>> = {
  sqlite: {
    [PACE]: `CREATE TABLE "TestPace" ("rounds" INTEGER NOT NULL);\nINSERT INTO "TestPace" VALUES (100000000000);\n`,
    [SLOW]:
      `CREATE TABLE "TestSlowProbe" ("n" INTEGER NOT NULL);\n` +
      `INSERT INTO "TestSlowProbe" SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < (SELECT "rounds" FROM "TestPace")) SELECT x FROM c);\n`,
  },
  postgresql: {
    [PACE]: `CREATE TABLE "TestPace" ("seconds" DOUBLE PRECISION NOT NULL);\nINSERT INTO "TestPace" VALUES (600);\n`,
    [SLOW]: `CREATE TABLE "TestSlowProbe" ("n" INTEGER NOT NULL);\nSELECT pg_sleep((SELECT "seconds" FROM "TestPace"));\nINSERT INTO "TestSlowProbe" VALUES (1);\n`,
  },
};

describe('a migration is all or nothing', () => {
  it('a server killed (SIGKILL) while it applies a migration starts the next time and applies it and the rest', async () => {
    const build = buildWithMigrations(SLOW_MIGRATIONS[DB_KIND]);
    const fresh = await createScratchDatabase(DB_KIND, { adminUrl: process.env.TEST_POSTGRES_URL, prefix: DB_KIND === 'sqlite' ? 'engram-kill' : 'engram_kill' });
    cleanups.push(fresh.drop);
    const { url } = fresh;

    const child = spawn(process.execPath, [build.server], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
    const slowStarted = new Promise<void>((done, fail) => {
      const check = () => {
        if (output.includes(`Applying migration 3/${build.names.length}: ${SLOW}`)) done();
      };
      child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString('utf8')), check()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      void exited.then(() => fail(new Error(`The server exited before the slow migration:\n${output}`)));
    });
    await withDeadline(slowStarted, MIGRATING_DEADLINE_MS, () => `waiting for the slow migration to start:\n${output}`);
    if (DB_KIND === 'postgresql') {
      // Kill only once the migration sleeps: its table is created by then.
      await withDeadline(
        (async () => {
          while ((await query(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()`)).length === 0) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })(),
        10_000,
        () => 'waiting for the slow migration to sleep',
      );
    } else {
      // Counting to 10^11 takes hours; its CREATE TABLE took a millisecond.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    if (DB_KIND === 'postgresql') {
      // The killed server's backend sleeps on until it notices the client is gone (it holds the
      // migration's transaction and lock meanwhile): end it as PostgreSQL eventually would.
      await query(url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      while ((await query(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // Nothing of the killed migration stayed: neither its table nor a record of it.
    expect(await schemaObjects(url)).not.toContain(DB_KIND === 'sqlite' ? 'table TestSlowProbe' : 'r TestSlowProbe');
    expect((await query<Row>(url, `SELECT migration_name FROM _prisma_migrations`)).map((r) => r.migration_name)).toEqual(['20261121233316_init', PACE]);

    await query(url, DB_KIND === 'sqlite' ? `UPDATE "TestPace" SET "rounds" = 1` : `UPDATE "TestPace" SET "seconds" = 0`);
    const again = await startServerProcess(url, {}, { entry: build.server, deadlineMs: MIGRATING_DEADLINE_MS });
    expect(again.output()).toContain(`${build.names.length - 2} migration(s) applied`);
    await again.kill();

    const rows = await query<Row>(url, `SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(build.names);
    expect(rows.every((r) => r.finished_at !== null && r.rolled_back_at === null)).toBe(true);
    // The schema is the committed migrations' schema, plus the test's two tables.
    const reference = await createDatabaseUrl();
    cleanups.push(reference.drop);
    const testTables = DB_KIND === 'sqlite' ? ['table TestPace', 'table TestSlowProbe'] : ['r TestPace', 'r TestSlowProbe'];
    expect(await schemaObjects(url)).toEqual([...(await schemaObjects(reference.url)), ...testTables].sort());
    // Engram's own status (Prisma's engine reading the records) agrees.
    const status = await runEngram(['migrate', 'status', '--json'], { DATABASE_URL: url }, build.cli);
    expect(JSON.parse(status.stdout)).toMatchObject({ upToDate: true, failed: [], pending: [], modified: [] });
  }, 180_000);

  it.runIf(DB_KIND === 'sqlite')('a table redefinition (SQLite) keeps the rows of the tables that refer to it, and checks their keys', async () => {
    const parentChild =
      `CREATE TABLE "TestParent" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL);\n` +
      `CREATE TABLE "TestChild" ("id" TEXT NOT NULL PRIMARY KEY, "parentId" TEXT NOT NULL,\n` +
      `  CONSTRAINT "TestChild_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "TestParent" ("id") ON DELETE CASCADE ON UPDATE CASCADE);\n` +
      `INSERT INTO "TestParent" VALUES ('p1', 'one'), ('p2', 'two');\n` +
      `INSERT INTO "TestChild" VALUES ('c1', 'p1'), ('c2', 'p1'), ('c3', 'p2');\n`;
    const build = buildWithMigrations(
      {
        '20991231000000_test_parent_child': parentChild,
        // As `prisma migrate dev` writes it when a column becomes optional.
        '20991231000001_test_redefine_parent': `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TestParent" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT);
INSERT INTO "new_TestParent" ("id", "name") SELECT "id", "name" FROM "TestParent";
DROP TABLE "TestParent";
ALTER TABLE "new_TestParent" RENAME TO "TestParent";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
      },
      { committed: false },
    );
    const fresh = await createScratchDatabase('sqlite', { prefix: 'engram-redefine' });
    cleanups.push(fresh.drop);
    const deployed = await runEngram(['migrate', 'deploy'], { DATABASE_URL: fresh.url }, build.cli);
    expect(deployed.stderr).toBe('');
    expect(deployed.stdout).toContain('applied 2 migration(s)');
    expect(await query(fresh.url, `SELECT id, parentId FROM "TestChild" ORDER BY id`)).toEqual([
      { id: 'c1', parentId: 'p1' },
      { id: 'c2', parentId: 'p1' },
      { id: 'c3', parentId: 'p2' },
    ]);
    expect(await query(fresh.url, `SELECT name, "notnull" FROM pragma_table_info('TestParent') ORDER BY cid`)).toEqual([
      { name: 'id', notnull: 1 },
      { name: 'name', notnull: 0 },
    ]);

    // A migration that turns the keys off and loses a parent row is refused, and leaves nothing behind.
    const broken = buildWithMigrations(
      {
        '20991231000000_test_parent_child': parentChild,
        '20991231000002_test_drop_parent_row': `PRAGMA foreign_keys=OFF;\nCREATE TABLE "TestOther" ("id" TEXT);\nDELETE FROM "TestParent" WHERE "id" = 'p2';\nPRAGMA foreign_keys=ON;\n`,
      },
      { committed: false },
    );
    const other = await createScratchDatabase('sqlite', { prefix: 'engram-redefine' });
    cleanups.push(other.drop);
    const refused = await runEngram(['migrate', 'deploy'], { DATABASE_URL: other.url }, broken.cli);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/20991231000002_test_drop_parent_row` failed and was rolled back.*1 row\(s\) break a foreign key/);
    expect(await query(other.url, `SELECT count(*) AS n FROM sqlite_master WHERE name = 'TestOther'`)).toEqual([{ n: 0 }]);
    expect(await query(other.url, `SELECT id FROM "TestParent" ORDER BY id`)).toEqual([{ id: 'p1' }, { id: 'p2' }]);
    expect(await query(other.url, `SELECT migration_name FROM _prisma_migrations`)).toEqual([{ migration_name: '20991231000000_test_parent_child' }]);
  }, 60_000);

  it.runIf(DB_KIND === 'sqlite')("a table redefinition (SQLite) of Engram's own tables applies, and one that would lose triggers is refused", async () => {
    // As `prisma migrate dev` writes it when a column is added to a model whose table it redefines.
    // SQLite's RENAME checked every trigger, and could not parse Entry_tag_copies_au's UPDATE … AS et … FROM.
    const redefineTag = `-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Tag" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "category" TEXT NOT NULL,
  "predefined" BOOLEAN NOT NULL DEFAULT false, "description" TEXT, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "color" TEXT);
INSERT INTO "new_Tag" ("id", "name", "category", "predefined", "description", "createdAt") SELECT "id", "name", "category", "predefined", "description", "createdAt" FROM "Tag";
DROP TABLE "Tag";
ALTER TABLE "new_Tag" RENAME TO "Tag";
CREATE UNIQUE INDEX "Tag_name_key" ON "Tag"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`;
    const build = buildWithMigrations({ '20991231000003_test_redefine_tag': redefineTag });
    const db = await createScratchDatabase('sqlite', { prefix: 'engram-redefine' });
    cleanups.push(db.drop);
    const deployed = await runEngram(['migrate', 'deploy'], { DATABASE_URL: db.url }, build.cli);
    expect(deployed.stderr).toBe('');
    expect(await query(db.url, `SELECT name FROM pragma_table_info('Tag') WHERE name = 'color'`)).toEqual([{ name: 'color' }]);
    const triggers = await query<{ name: string }>(db.url, `SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`);
    expect(triggers.map((t) => t.name)).toContain('Entry_tag_copies_au');

    // Redefining EntryTag as Prisma would drops its triggers with it (Prisma knows no triggers): refused, rolled back.
    const redefineLinks = (await query<{ sql: string }>(db.url, `SELECT sql FROM sqlite_master WHERE name = 'EntryTag'`))[0]!.sql.replace('CREATE TABLE "EntryTag"', 'CREATE TABLE "new_EntryTag"');
    const losing = buildWithMigrations({
      '20991231000003_test_redefine_tag': redefineTag,
      '20991231000004_test_redefine_links': `PRAGMA foreign_keys=OFF;\n${redefineLinks};\nINSERT INTO "new_EntryTag" SELECT * FROM "EntryTag";\nDROP TABLE "EntryTag";\nALTER TABLE "new_EntryTag" RENAME TO "EntryTag";\nPRAGMA foreign_keys=ON;\n`,
    });
    const refused = await runEngram(['migrate', 'deploy'], { DATABASE_URL: db.url }, losing.cli);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/20991231000004_test_redefine_links` failed and was rolled back.*dropped 8 trigger\(s\) of EntryTag with the table: recreate them after it \(EntryTag_copies_ai, /);
    expect(await query(db.url, `SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)).toEqual(triggers);
    expect(await query(db.url, `SELECT count(*) AS n FROM _prisma_migrations WHERE migration_name LIKE '%test_redefine_links'`)).toEqual([{ n: 0 }]);
  }, 60_000);
});
