// Applies pending migrations all or nothing: each migration's script and its `_prisma_migrations`
// row commit in ONE transaction. Prisma's schema engine (native and WebAssembly alike) inserts the
// row (finished_at NULL) before it runs the script and marks it finished after, in statements of
// their own; on SQLite it runs the script statement by statement in autocommit. A process killed
// during a migration (an OOM kill, a supervisor's SIGKILL) therefore left a row that every later
// deploy refuses (P3009), and on SQLite half of the script applied, so that even resolving the row
// and applying again failed on tables that exist. Here a killed migration leaves no trace: the
// database stays as before it, and the next start applies it again.
//
// The rows are written as the engine writes them (same columns, a v4 UUID, the SHA-256 of
// migration.sql as checksum, applied_steps_count 1, its timestamp format), so that Prisma's
// `migrate status/deploy` and Engram's own checks read them as theirs.
import { randomUUID } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import type { MigrationProvider } from './migrations.ts';

export interface PendingMigration {
  name: string;
  script: string;
  /** SHA-256 of migration.sql, hex (what Prisma records). */
  checksum: string;
}

/** A row of `_prisma_migrations`, as Prisma's engines write it. */
export interface MigrationRecord {
  migration_name: string;
  checksum: string;
  started_at?: unknown;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/**
 * Told before each pending migration is applied: its name, its place among them (from 1), how many.
 * A promise it returns is awaited, and the event loop runs once, before the migration starts: on
 * SQLite a migration runs synchronously, and a line logged or a bar drawn asynchronously would
 * otherwise appear only once it has finished (one that rewrites every row can take minutes).
 */
export type MigrationProgress = (name: string, index: number, total: number) => void | Promise<void>;

async function announce(onMigration: MigrationProgress | undefined, name: string, index: number, total: number): Promise<void> {
  if (!onMigration) return;
  await onMigration(name, index, total);
  await new Promise((resolve) => setImmediate(resolve));
}

export const RECORDS_SQL = 'SELECT migration_name, checksum, started_at, finished_at, rolled_back_at FROM _prisma_migrations';

// The engine's own table definitions (read from tables it created), so that a table created here
// cannot be told from one it created.
const TABLE_SQL: Record<MigrationProvider, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
};

/** The session-level advisory lock Prisma's engines take on PostgreSQL: `prisma migrate deploy` elsewhere waits for this run, and it for them. */
const POSTGRES_MIGRATION_LOCK = 72707369;

/**
 * A migration recorded as started and neither finished nor rolled back: written by Prisma's engine
 * (an earlier Engram, or `prisma migrate deploy`) that failed or was killed there. Whether its
 * changes stayed is unknown here, so it is refused as Prisma refuses it (P3009), with its words.
 */
function refuseFailed(records: MigrationRecord[]): void {
  const failed = records.filter((record) => record.finished_at === null && record.rolled_back_at === null);
  if (failed.length === 0) return;
  throw new Error(
    'migrate found failed migrations in the target database, new migrations will not be applied. Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve\n' +
      failed.map((record) => `The \`${record.migration_name}\` migration started at ${String(record.started_at)} failed`).join('\n'),
  );
}

function isApplied(records: MigrationRecord[], name: string): boolean {
  return records.some((record) => record.migration_name === name && record.rolled_back_at === null);
}

function failure(name: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`Migration \`${name}\` failed and was rolled back (the database is as it was before it): ${message}`, { cause: error });
}

/** Prisma's SQLite format for its timestamps (the engine writes RFC 3339 with an explicit offset). */
const sqliteNow = () => new Date().toISOString().replace(/Z$/, '+00:00');

/** A script that turns foreign keys off for a table redefinition (Prisma writes `PRAGMA foreign_keys=OFF`). */
const TURNS_FOREIGN_KEYS_OFF = /\bPRAGMA\s+foreign_keys\s*=\s*(OFF|0|false|no)\b/i;

/** Prisma's table redefinition: `ALTER TABLE "new_X" RENAME TO "X"` (after `DROP TABLE "X"`). */
const REDEFINES_A_TABLE = /\bALTER\s+TABLE\s+"new_([^"]+)"\s+RENAME\s+TO\s+"\1"/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TRIGGERS_SQL = `SELECT name, tbl_name AS "table" FROM sqlite_master WHERE type = 'trigger' ORDER BY name`;

/**
 * The triggers of `before` that the script dropped without naming them in a DROP TRIGGER: those of
 * a table it dropped, in a redefinition. Prisma's redefinition does not recreate them (its schema
 * knows no triggers), and losing one (the tag links' copies of their entry, the search index's
 * filters) would corrupt reads silently from then on.
 */
function triggersLost(db: Sqlite.Database, before: Array<{ name: string; table: string }>, script: string): Array<{ name: string; table: string }> {
  const now = new Set((db.prepare(TRIGGERS_SQL).all() as Array<{ name: string }>).map((row) => row.name));
  const dropped = (name: string) => new RegExp(`\\bDROP\\s+TRIGGER\\s+(IF\\s+EXISTS\\s+)?"?${escapeRegExp(name)}"?(\\s|;|$)`, 'i').test(script);
  return before.filter((trigger) => !now.has(trigger.name) && !dropped(trigger.name));
}

/**
 * Applies the migrations of `migrations` (the folder's, oldest first) that the SQLite file at
 * `path` does not record as applied. One write transaction per migration (BEGIN IMMEDIATE): it
 * is also the lock against another process migrating the same file, so the records are read again
 * inside it and a migration another process applied meanwhile is skipped.
 */
export async function applySqlite(path: string, migrations: PendingMigration[], onMigration?: MigrationProgress): Promise<string[]> {
  // Another migrator holds the file for as long as one of its migrations runs: wait as the engine did.
  const db = new Sqlite(path, { fileMustExist: true, timeout: 30_000 });
  try {
    db.exec(TABLE_SQL.sqlite);
    const initially = db.prepare(RECORDS_SQL).all() as MigrationRecord[];
    refuseFailed(initially);
    const pending = migrations.filter((migration) => !isApplied(initially, migration.name));
    const applied: string[] = [];
    for (const migration of pending) {
      if (await applySqliteOne(db, migration, () => announce(onMigration, migration.name, applied.length + 1, pending.length))) applied.push(migration.name);
    }
    return applied;
  } finally {
    db.close();
  }
}

/** One migration in its own transaction; false when another process applied it meanwhile. */
async function applySqliteOne(db: Sqlite.Database, migration: PendingMigration, starting: () => Promise<void>): Promise<boolean> {
  // `PRAGMA foreign_keys` is a no-op inside a transaction, so the script's own OFF would not take
  // effect: with keys on, its DROP TABLE of a redefined parent deletes every row first, and ON DELETE
  // CASCADE deletes the children's rows with them. Turned off on the connection before BEGIN
  // instead, and the keys are checked before COMMIT, as they are not when the script runs alone.
  const keysOff = TURNS_FOREIGN_KEYS_OFF.test(migration.script);
  const keysWere = db.pragma('foreign_keys', { simple: true }) as number;
  if (keysOff) db.pragma('foreign_keys = OFF');
  // SQLite's RENAME checks every trigger of the schema and rewrites its references to the renamed
  // table, and it cannot parse one of Engram's (`UPDATE "EntryTag" AS et … FROM`, in
  // Entry_tag_copies_au: "no such column: et.entryId"), so that any redefinition failed. A
  // redefinition gives the table back its own name: nothing refers to "new_X", and the legacy
  // RENAME, which neither checks nor rewrites, is the right one. Other renames keep the check.
  const redefines = REDEFINES_A_TABLE.test(migration.script);
  if (redefines) db.pragma('legacy_alter_table = ON');
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const records = db.prepare(RECORDS_SQL).all() as MigrationRecord[];
      refuseFailed(records);
      if (isApplied(records, migration.name)) {
        db.exec('COMMIT');
        return false;
      }
      // Nothing else uses this connection meanwhile (one migrator per file in a process: `serialized`).
      await starting();
      const startedAt = sqliteNow();
      const triggers = db.prepare(TRIGGERS_SQL).all() as Array<{ name: string; table: string }>;
      try {
        db.exec(migration.script);
      } catch (error) {
        throw failure(migration.name, error);
      }
      const lost = triggersLost(db, triggers, migration.script);
      if (lost.length > 0) {
        const tables = [...new Set(lost.map((trigger) => trigger.table))].join(', ');
        const names = lost.map((trigger) => trigger.name).join(', ');
        throw failure(migration.name, new Error(`it dropped ${lost.length} trigger(s) of ${tables} with the table: recreate them after it (${names})`));
      }
      // A script with its own COMMIT would have ended the transaction: what follows would no longer be atomic.
      if (!db.inTransaction) throw new Error(`Migration \`${migration.name}\` ends the transaction itself (COMMIT/END): remove that, each migration runs in a transaction of its own`);
      if (keysOff) {
        const violations = db.pragma('foreign_key_check') as Array<{ table: string; parent: string }>;
        if (violations.length > 0) {
          const first = violations[0]!;
          throw failure(migration.name, new Error(`${violations.length} row(s) break a foreign key (first: a row of ${first.table} refers to a missing ${first.parent})`));
        }
      }
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
      ).run(randomUUID(), migration.checksum, sqliteNow(), migration.name, startedAt);
      db.exec('COMMIT');
      return true;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    if (keysOff) db.pragma(`foreign_keys = ${keysWere ? 'ON' : 'OFF'}`);
    if (redefines) db.pragma('legacy_alter_table = OFF');
  }
}

/**
 * Applies the migrations of `migrations` that the PostgreSQL database of `url` does not record as
 * applied, each in a transaction of its own, holding Prisma's migration lock throughout (a second
 * Engram, or `prisma migrate deploy`, waits for it; the lock goes with the session, also when the
 * process dies). The records are read under the lock, so nothing applied meanwhile runs twice.
 */
export async function applyPostgres(url: string, migrations: PendingMigration[], onMigration?: MigrationProgress): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000, application_name: 'engram-migrations' });
  client.on('error', () => {
    // A broken connection surfaces as a failing query.
  });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [POSTGRES_MIGRATION_LOCK]);
    await client.query(TABLE_SQL.postgresql);
    const records = (await client.query<MigrationRecord>(RECORDS_SQL)).rows;
    refuseFailed(records);
    const pending = migrations.filter((migration) => !isApplied(records, migration.name));
    const applied: string[] = [];
    for (const migration of pending) {
      await announce(onMigration, migration.name, applied.length + 1, pending.length);
      await client.query('BEGIN');
      try {
        // The whole script as one simple-protocol query (statements split on ";" would break the
        // dollar-quoted function bodies), inside the transaction that also writes its row.
        await client.query(migration.script).catch((error: unknown) => {
          throw failure(migration.name, error);
        });
        // started_at: the transaction's start (now()); finished_at: the clock at its end.
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
           VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      applied.push(migration.name);
    }
    return applied;
  } finally {
    // Ending the session releases the advisory lock.
    await client.end().catch(() => undefined);
  }
}
