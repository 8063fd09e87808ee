import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTERNAL_TABLES, applyMigrations, migrationStatus, migrationsDir } from '../src/infra/migrations.ts';
import { applyPostgres, applySqlite, type PendingMigration } from '../src/infra/migration-runner.ts';
import { createScratchDatabase } from '../src/infra/scratch-database.ts';
import { DB_KIND, createDatabaseUrl } from './support/harness.ts';

/**
 * The parity check needs PostgreSQL. It runs in the PostgreSQL project, and in every project when
 * the run requires PostgreSQL (CI: ENGRAM_REQUIRE_POSTGRES=1 or CI=true), where it fails if
 * PostgreSQL cannot be reached instead of being skipped: `ENGRAM_TEST_DB=sqlite` alone has no
 * PostgreSQL project, and the check must not vanish with it.
 */
const POSTGRES_REQUIRED = process.env.ENGRAM_REQUIRE_POSTGRES === '1' || process.env.CI === 'true';

interface Shape {
  columns: Record<string, string[]>;
  /** "table(col,col)" for every unique index or constraint, primary keys included. */
  uniques: string[];
  /** "table(col,col)" for every non-unique index. */
  indexes: string[];
  foreignKeys: string[];
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

function sqliteShape(file: string): Shape {
  const db = new Sqlite(file, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`)
      .all() as Array<{ name: string }>;
    // The full-text tables differ by design (FTS5 here, a tsvector column there): compared apart.
    const external = new Set(EXTERNAL_TABLES);
    const shape: Shape = { columns: {}, uniques: [], indexes: [], foreignKeys: [] };
    for (const { name } of tables) {
      if (external.has(name)) continue;
      const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; notnull: number; pk: number }>;
      shape.columns[name] = cols.map((c) => `${c.name}${c.notnull || c.pk ? '!' : ''}`).sort();
      const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      shape.uniques.push(`${name}(${pk.join(',')})`);
      const indexes = db.prepare(`PRAGMA index_list("${name}")`).all() as Array<{ name: string; unique: number; origin: string }>;
      for (const index of indexes) {
        if (index.origin === 'pk') continue;
        const cols = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as Array<{ name: string }>).map((c) => c.name);
        (index.unique ? shape.uniques : shape.indexes).push(`${name}(${cols.join(',')})`);
      }
      const fks = db.prepare(`PRAGMA foreign_key_list("${name}")`).all() as Array<{ table: string; from: string; to: string }>;
      for (const fk of fks) shape.foreignKeys.push(`${name}.${fk.from}->${fk.table}.${fk.to}`);
    }
    return normalize(shape);
  } finally {
    db.close();
  }
}

async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const shape: Shape = { columns: {}, uniques: [], indexes: [], foreignKeys: [] };
    const cols = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' AND table_name <> ALL($1)`,
      [EXTERNAL_TABLES],
    );
    for (const c of cols.rows) (shape.columns[c.table_name] ??= []).push(`${c.column_name}${c.is_nullable === 'NO' ? '!' : ''}`);
    for (const list of Object.values(shape.columns)) list.sort();
    const idx = await client.query<{ table: string; unique: boolean; cols: string[] }>(
      `SELECT t.relname AS table, i.indisunique AS unique,
              array_agg(a.attname::text ORDER BY k.ord) AS cols
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE t.relname <> '_prisma_migrations' AND t.relname <> ALL($1)
       GROUP BY i.indexrelid, t.relname, i.indisunique`,
      [EXTERNAL_TABLES],
    );
    for (const r of idx.rows) (r.unique ? shape.uniques : shape.indexes).push(`${r.table}(${r.cols.join(',')})`);
    const fks = await client.query<{ table: string; col: string; ftable: string; fcol: string }>(
      `SELECT tc.table_name AS table, kcu.column_name AS col, ccu.table_name AS ftable, ccu.column_name AS fcol
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
       JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
       WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public' AND tc.table_name <> ALL($1)`,
      [EXTERNAL_TABLES],
    );
    for (const fk of fks.rows) shape.foreignKeys.push(`${fk.table}.${fk.col}->${fk.ftable}.${fk.fcol}`);
    return normalize(shape);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the database of `url` (a test's own copy), outside Engram. */
async function execute(url: string, sql: string): Promise<void> {
  if (url.startsWith('file:')) {
    const db = new Sqlite(url.slice('file:'.length));
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function normalize(shape: Shape): Shape {
  return {
    columns: Object.fromEntries(Object.entries(shape.columns).sort(([a], [b]) => a.localeCompare(b))),
    uniques: [...shape.uniques].sort(),
    indexes: [...shape.indexes].sort(),
    foreignKeys: [...shape.foreignKeys].sort(),
  };
}

/** A SQLite file in a directory of its own, migrated from nothing (removed after the test). */
/** The migrations of a provider's folder, oldest first, as the runner applies them. */
function folderMigrations(provider: 'sqlite' | 'postgresql'): PendingMigration[] {
  const dir = migrationsDir(provider);
  return readdirSync(dir)
    .filter((name) => /^\d{14}_/.test(name))
    .sort()
    .map((name) => {
      const script = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: createHash('sha256').update(script).digest('hex') };
    });
}

async function migratedSqliteFile(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `engram-${name}-`));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, `${name}.db`);
  await applyMigrations(`file:${file}`);
  return file;
}

/** A SQLite file migrated up to (not including) the migration named `*_${migration}`, and the migrations from it on. */
async function sqliteBefore(migration: string): Promise<{ file: string; rest: PendingMigration[] }> {
  const all = folderMigrations('sqlite');
  const at = all.findIndex((m) => m.name.endsWith(`_${migration}`));
  const file = join(mkdtempSync(join(tmpdir(), `engram-${migration}-`)), 'a.db');
  cleanups.push(async () => rmSync(dirname(file), { recursive: true, force: true }));
  new Sqlite(file).close();
  await applySqlite(file, all.slice(0, at));
  return { file, rest: all.slice(at) };
}

/** The ids of the entries whose row of the full-text index matches an FTS5 query, in order. */
const ftsMatching = (db: Sqlite.Database) => (query: string) =>
  db
    .prepare(`SELECT s."entryId" AS id FROM "EntrySearchFts" f JOIN "EntrySearch" s ON s."rowid" = f."rowid" WHERE "EntrySearchFts" MATCH ? ORDER BY 1`)
    .all(query)
    .map((r) => (r as { id: string }).id);

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

describe('migrations', () => {
  it('leave the database up to date, and applying again is a no-op', async () => {
    const { url, drop } = await createDatabaseUrl();
    cleanups.push(drop);
    const status = await migrationStatus(url);
    expect(status).toMatchObject({ upToDate: true, pending: [], failed: [], modified: [] });
    const committed = readdirSync(migrationsDir(DB_KIND), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(committed).toContain('20261121233316_init');
    expect(status.applied).toEqual(committed);
    expect((await applyMigrations(url)).applied).toEqual([]);
  });

  // An up-to-date database is recognised from `_prisma_migrations` without the schema engine: each
  // record that makes it not up to date must still reach the engine, which applies or refuses.
  describe('a history that is not the folder\'s goes to the engine', () => {
    // The last migration that creates a table: applied again, it fails, which shows it reached the
    // engine (a migration that only replaces a trigger would apply again without a trace).
    const lastMigration = () =>
      readdirSync(migrationsDir(DB_KIND), { withFileTypes: true })
        .filter((d) => d.isDirectory() && /CREATE TABLE/.test(readFileSync(join(migrationsDir(DB_KIND), d.name, 'migration.sql'), 'utf8')))
        .map((d) => d.name)
        .sort()
        .at(-1)!;
    const migratedCopy = async () => {
      const { url, drop } = await createDatabaseUrl();
      cleanups.push(drop);
      return url;
    };

    it('an applied migration whose checksum differs (its migration.sql was edited) is refused', async () => {
      const url = await migratedCopy();
      await execute(url, `UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = '${lastMigration()}'`);
      await expect(applyMigrations(url)).rejects.toThrow(new RegExp(`modified after they were applied: .*${lastMigration()}`));
    });

    it('a migration that started and never finished is refused', async () => {
      const url = await migratedCopy();
      await execute(url, `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = '${lastMigration()}'`);
      await expect(applyMigrations(url)).rejects.toThrow(/failed migrations/);
    });

    it('a migration of the folder the database does not record is applied (here it fails: its tables exist)', async () => {
      const url = await migratedCopy();
      await execute(url, `DELETE FROM _prisma_migrations WHERE migration_name = '${lastMigration()}'`);
      await expect(applyMigrations(url)).rejects.toThrow(/already exists/);
    });

    it('a migration recorded twice does not stand for one not recorded', async () => {
      const url = await migratedCopy();
      const last = lastMigration();
      await execute(url, `DELETE FROM _prisma_migrations WHERE migration_name = '${last}'`);
      await execute(
        url,
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         SELECT 'twice', checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count
         FROM _prisma_migrations WHERE migration_name = '20261121233316_init'`,
      );
      await expect(applyMigrations(url)).rejects.toThrow(/already exists/);
    });

    it('a rolled-back record does not count as applied', async () => {
      const url = await migratedCopy();
      await execute(url, `UPDATE _prisma_migrations SET rolled_back_at = finished_at WHERE migration_name = '${lastMigration()}'`);
      await expect(applyMigrations(url)).rejects.toThrow(/already exists/);
    });
  });

  it('keep the SQLite triggers that keep search rows, tag links, their counters and audit targets in step (a table rebuild in a migration would drop them)', async () => {
    const db = new Sqlite(await migratedSqliteFile('triggers'), { readonly: true });
    const triggers = db.prepare(`SELECT name, tbl_name AS tbl FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all();
    db.close();
    expect(triggers).toEqual([
      { name: 'AuditEvent_targets_ai', tbl: 'AuditEvent' },
      { name: 'EntrySearch_ad', tbl: 'EntrySearch' },
      { name: 'EntrySearch_ai', tbl: 'EntrySearch' },
      { name: 'EntrySearch_au', tbl: 'EntrySearch' },
      { name: 'EntrySearch_filters_ai', tbl: 'EntrySearch' },
      { name: 'EntryTag_copies_ai', tbl: 'EntryTag' },
      { name: 'EntryTag_count_ad', tbl: 'EntryTag' },
      { name: 'EntryTag_count_ai', tbl: 'EntryTag' },
      { name: 'EntryTag_count_au', tbl: 'EntryTag' },
      { name: 'EntryTag_search_filters_ad', tbl: 'EntryTag' },
      { name: 'EntryTag_search_filters_ai', tbl: 'EntryTag' },
      { name: 'EntryTag_search_tokens_ad', tbl: 'EntryTag' },
      { name: 'EntryTag_search_tokens_ai', tbl: 'EntryTag' },
      { name: 'Entry_name_shared_ai', tbl: 'Entry' },
      { name: 'Entry_name_shared_au', tbl: 'Entry' },
      { name: 'Entry_search_filters_au', tbl: 'Entry' },
      { name: 'Entry_search_tokens_au', tbl: 'Entry' },
      { name: 'Entry_tag_copies_au', tbl: 'Entry' },
      { name: 'Entry_tag_copies_updated_at_au', tbl: 'Entry' },
    ]);
  });

  it('give the audit events already there their targets, exactly (audit_targets), on the database of the run', async () => {
    const provider = DB_KIND;
    const all = folderMigrations(provider);
    const at = all.findIndex((m) => m.name.endsWith('_audit_targets'));
    const event = (id: string, targets: string[]) => [id, 'WRITE', 'addTool', JSON.stringify(targets), 'OK'];
    const rows = [event('e1', ['a', '%_b', 'a']), event('e2', []), event('e3', ['A'])];
    const insert = 'INSERT INTO "AuditEvent" ("id", "createdAt", "category", "operation", "targetIds", "outcome")';
    const select = 'SELECT "targetId", "eventId" FROM "AuditTarget" ORDER BY "targetId", "eventId"';
    let targets: unknown[];
    if (provider === 'sqlite') {
      const file = join(mkdtempSync(join(tmpdir(), 'engram-audit-targets-')), 'a.db');
      cleanups.push(async () => rmSync(dirname(file), { recursive: true, force: true }));
      new Sqlite(file).close();
      await applySqlite(file, all.slice(0, at));
      const db = new Sqlite(file);
      for (const row of rows) db.prepare(`${insert} VALUES (?, 0, ?, ?, ?, ?)`).run(...row);
      db.close();
      await applySqlite(file, all.slice(at));
      const after = new Sqlite(file);
      after.prepare(`${insert} VALUES (?, 0, ?, ?, ?, ?)`).run(...event('e4', ['a', 'c']));
      targets = after.prepare(select).all();
      after.close();
    } else {
      const { url, drop } = await createScratchDatabase('postgresql', { adminUrl: process.env.TEST_POSTGRES_URL, prefix: 'engram_audit_targets' });
      cleanups.push(drop);
      await applyPostgres(url, all.slice(0, at));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const row of rows) await client.query(`${insert} VALUES ($1, now(), $2, $3, $4, $5)`, row);
        await applyPostgres(url, all.slice(at));
        await client.query(`${insert} VALUES ($1, now(), $2, $3, $4, $5)`, event('e4', ['a', 'c']));
        targets = (await client.query(`${select.replace('ORDER BY "targetId"', 'ORDER BY "targetId" COLLATE "C"')}`)).rows;
      } finally {
        await client.end();
      }
    }
    // The events before the migration (a repeated id once), and one inserted after it (the trigger).
    expect(targets).toEqual([
      { targetId: '%_b', eventId: 'e1' },
      { targetId: 'A', eventId: 'e3' },
      { targetId: 'a', eventId: 'e1' },
      { targetId: 'a', eventId: 'e4' },
      { targetId: 'c', eventId: 'e4' },
    ]);
  });

  it.skipIf(DB_KIND !== 'sqlite')('give the entries already there their scoped tag tokens (text_index_scoped_tag_tokens), and keep the index whole', async () => {
    const { file, rest } = await sqliteBefore('text_index_scoped_tag_tokens');
    const db = new Sqlite(file);
    db.prepare(`INSERT INTO "Tag" ("id", "name", "category") VALUES ('t1', 'one', 'custom'), ('t2', 'two', 'custom')`).run();
    // e1 plain, e2 inactive, e3 expiring (odd: no scoped token), e4 untagged.
    const entries: Array<[string, string, number, string | null, string[]]> = [
      ['e1', 'TOOL', 1, null, ['t1', 't2']],
      ['e2', 'GUIDELINE', 0, null, ['t1']],
      ['e3', 'KNOWLEDGE', 1, '2999-01-01T00:00:00.000+00:00', ['t2']],
      ['e4', 'TOOL', 1, null, []],
    ];
    for (const [id, kind, active, validUntil, tags] of entries) {
      db.prepare(`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "active", "validUntil", "updatedAt") VALUES (?, ?, 'global', ?, ?, ?, 0)`).run(id, kind, `name ${id}`, active, validUntil);
      for (const tag of tags) db.prepare(`INSERT INTO "EntryTag" ("entryId", "tagId") VALUES (?, ?)`).run(id, tag);
      db.prepare(`INSERT INTO "EntrySearch" ("entryId", "name", "body") VALUES (?, ?, 'some words')`).run(id, `name ${id}`);
    }
    db.close();
    await applySqlite(file, rest);
    const after = new Sqlite(file);
    const matching = ftsMatching(after);
    const scoped = (tag: string, kind: string, active: string) => `tagTokens : t${hex(tag)}x${hex('global')}z${kind}${active}`;
    expect(matching(scoped('t1', 't', 'a'))).toEqual(['e1']);
    expect(matching(scoped('t2', 't', 'a'))).toEqual(['e1']);
    expect(matching(scoped('t1', 'g', 'i'))).toEqual(['e2']);
    expect(matching(scoped('t2', 'k', 'a'))).toEqual([]);
    // The tags' own tokens and the text, as before.
    expect(matching(`tagTokens : t${hex('t2')}`)).toEqual(['e1', 'e3']);
    expect(matching(`{name body} : words`)).toEqual(['e1', 'e2', 'e3', 'e4']);
    // FTS5's own check of the index against itself (it throws on a corrupt index).
    expect(() => after.prepare(`INSERT INTO "EntrySearchFts"("EntrySearchFts", "rank") VALUES ('integrity-check', 0)`).run()).not.toThrow();
    after.close();
  });

  it.skipIf(DB_KIND !== 'sqlite')('give every entry already there its scope token (text_index_scope_tokens), and keep it current as the entry moves or changes state', async () => {
    const { file, rest } = await sqliteBefore('text_index_scope_tokens');
    const db = new Sqlite(file);
    db.prepare(`INSERT INTO "Tag" ("id", "name", "category") VALUES ('t1', 'one', 'custom')`).run();
    db.prepare(`INSERT INTO "Scope" ("id", "kind", "name", "parentId", "updatedAt") VALUES ('p1', 'PROJECT', 'p', 'global', 0)`).run();
    // e1 tagged, e2 inactive and untagged, e3 an untagged guideline of the project.
    const entries: Array<[string, string, string, number, string[]]> = [
      ['e1', 'TOOL', 'global', 1, ['t1']],
      ['e2', 'GUIDELINE', 'global', 0, []],
      ['e3', 'GUIDELINE', 'p1', 1, []],
    ];
    for (const [id, kind, scope, active, tags] of entries) {
      db.prepare(`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "active", "updatedAt") VALUES (?, ?, ?, ?, ?, 0)`).run(id, kind, scope, `name ${id}`, active);
      for (const tag of tags) db.prepare(`INSERT INTO "EntryTag" ("entryId", "tagId") VALUES (?, ?)`).run(id, tag);
      db.prepare(`INSERT INTO "EntrySearch" ("entryId", "name", "body") VALUES (?, ?, 'some words')`).run(id, `name ${id}`);
    }
    db.close();
    await applySqlite(file, rest);
    const after = new Sqlite(file);
    const matching = ftsMatching(after);
    const scopeToken = (scope: string, kind: string, active: string) => `words AND tagTokens : x${hex(scope)}z${kind}${active}`;
    expect(matching(scopeToken('global', 't', 'a'))).toEqual(['e1']);
    expect(matching(scopeToken('global', 'g', 'i'))).toEqual(['e2']);
    expect(matching(scopeToken('p1', 'g', 'a'))).toEqual(['e3']);
    expect(matching(scopeToken('global', 'g', 'a'))).toEqual([]);
    // The tags' tokens as before.
    expect(matching(`tagTokens : t${hex('t1')}`)).toEqual(['e1']);
    expect(matching(`tagTokens : t${hex('t1')}x${hex('global')}zta`)).toEqual(['e1']);
    // An untagged entry's token follows its active flag and its scope.
    after.prepare(`UPDATE "Entry" SET "active" = 1 WHERE "id" = 'e2'`).run();
    after.prepare(`UPDATE "Entry" SET "scopeId" = 'global' WHERE "id" = 'e3'`).run();
    expect(matching(scopeToken('global', 'g', 'i'))).toEqual([]);
    expect(matching(scopeToken('global', 'g', 'a'))).toEqual(['e2', 'e3']);
    expect(matching(scopeToken('p1', 'g', 'a'))).toEqual([]);
    // A new entry gets its token with its row of the index; a tag added later keeps it.
    after.prepare(`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "active", "updatedAt") VALUES ('e4', 'KNOWLEDGE', 'p1', 'name e4', 1, 0)`).run();
    after.prepare(`INSERT INTO "EntrySearch" ("entryId", "name", "body") VALUES ('e4', 'name e4', 'some words')`).run();
    after.prepare(`INSERT INTO "EntryTag" ("entryId", "tagId") VALUES ('e4', 't1')`).run();
    expect(matching(scopeToken('p1', 'k', 'a'))).toEqual(['e4']);
    expect(matching(`{name body} : words`)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(() => after.prepare(`INSERT INTO "EntrySearchFts"("EntrySearchFts", "rank") VALUES ('integrity-check', 0)`).run()).not.toThrow();
    after.close();
  });

  it.skipIf(DB_KIND !== 'postgresql')('split and fold the search documents already there as SQLite does (search_text_folding)', async () => {
    const all = folderMigrations('postgresql');
    const at = all.findIndex((m) => m.name.endsWith('_search_text_folding'));
    const { url, drop } = await createScratchDatabase('postgresql', { adminUrl: process.env.TEST_POSTGRES_URL, prefix: 'engram_text_folding' });
    cleanups.push(drop);
    await applyPostgres(url, all.slice(0, at));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO "Entry" ("id", "kind", "scopeId", "name", "updatedAt") VALUES ('e1', 'TOOL', 'global', 'Café', now())`);
      await client.query(`INSERT INTO "EntrySearch" ("entryId", "name", "body") VALUES ('e1', 'Café', 'under /usr/local/bin, naïve')`);
      const matches = async (word: string) => (await client.query(`SELECT "entryId" FROM "EntrySearch" WHERE "document" @@ to_tsquery('simple', $1)`, [`${word}:*`])).rows.length;
      expect([await matches('cafe'), await matches('local')]).toEqual([0, 0]);
      await applyPostgres(url, all.slice(at));
      expect([await matches('cafe'), await matches('local'), await matches('naive'), await matches('café')]).toEqual([1, 1, 1, 0]);
      // Written after it, by the generated column.
      await client.query(`UPDATE "EntrySearch" SET "body" = 'x-ray' WHERE "entryId" = 'e1'`);
      expect([await matches('ray'), await matches('local')]).toEqual([1, 0]);
    } finally {
      await client.end();
    }
  });

  it('set how many full-text segments SQLite lets a level hold before the writes merge them (8, not FTS5\'s 4: text_index_automerge)', async () => {
    const db = new Sqlite(await migratedSqliteFile('fts-config'), { readonly: true });
    const config = db.prepare(`SELECT k, v FROM "EntrySearchFts_config" ORDER BY k`).all();
    db.close();
    expect(config).toEqual([
      { k: 'automerge', v: 8 },
      { k: 'version', v: 4 },
    ]);
  });

  it.skipIf(DB_KIND !== 'postgresql' && !POSTGRES_REQUIRED)('give SQLite and PostgreSQL the same tables, columns, uniques, indexes and keys', async () => {
    const file = await migratedSqliteFile('parity');
    // Both migrated from nothing here, whichever database the run is on.
    const { url, drop } = await createScratchDatabase('postgresql', { adminUrl: process.env.TEST_POSTGRES_URL, prefix: 'engram_parity' });
    cleanups.push(drop);
    await applyMigrations(url);
    const sqlite = sqliteShape(file);
    const postgres = await postgresShape(url);
    expect(Object.keys(sqlite.columns)).toEqual([
      'ApiKey',
      'AuditEvent',
      'AuditTarget',
      'Change',
      'ChangeFeedHead',
      'Conflict',
      'Conversation',
      'ConversationContext',
      'ConversationMessage',
      'DeletionReceipt',
      'Entry',
      'EntryName',
      'EntryTag',
      'EntryVersion',
      'FlaggedAgent',
      'Grant',
      'Lease',
      'LeaseResource',
      'MemoryPolicy',
      'Outcome',
      'Principal',
      'Relation',
      'Scope',
      'SessionEvent',
      'StateKey',
      'StateVersion',
      'Tag',
      'Task',
      'TaskDependency',
      'Vote',
      'VoteQuestion',
      'VoteTally',
    ]);
    expect(sqlite.uniques).toContain('SessionEvent(sessionId,sequence)');
    expect(sqlite.uniques).toContain('StateKey(namespace,owner,name)');
    expect(sqlite.uniques).toContain('Entry(scopeId,kind,name)');
    expect(sqlite.uniques).toContain('EntryVersion(entryId,version)');
    expect(postgres).toEqual(sqlite);
    // Both have the full-text table the search service writes.
    const db = new Sqlite(file, { readonly: true });
    const sqliteSearch = (db.prepare(`PRAGMA table_info("EntrySearch")`).all() as Array<{ name: string }>).map((c) => c.name);
    const fts = db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'EntrySearchFts'`).get() as { sql: string } | undefined;
    db.close();
    expect(sqliteSearch).toEqual(expect.arrayContaining(['entryId', 'name', 'body']));
    expect(fts?.sql).toMatch(/fts5/i);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'EntrySearch'`,
    );
    await client.end();
    expect(rows.map((r) => r.column_name)).toEqual(expect.arrayContaining(['entryId', 'name', 'body', 'document']));
  });
});
