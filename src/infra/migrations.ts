// Applies, inspects and creates Prisma migrations without Prisma's native schema engine (which the
// CLI downloads and which is unavailable offline): the WebAssembly build of the same engine runs
// in-process and reaches the database through the app's own driver adapters. Migrations live per
// provider in prisma/<provider>/migrations and are recorded in `_prisma_migrations` exactly as the
// native engine records them, so `prisma migrate deploy/status` elsewhere agree with this module.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import Sqlite from 'better-sqlite3';
import { RECORDS_SQL, applyPostgres, applySqlite, type MigrationProgress, type MigrationRecord, type PendingMigration } from './migration-runner.ts';
import { DatabaseError } from './start-up-errors.ts';

export type { MigrationProgress } from './migration-runner.ts';

export type MigrationProvider = 'sqlite' | 'postgresql';

export const PROVIDERS: readonly MigrationProvider[] = ['sqlite', 'postgresql'];

export interface ApplyMigrationsResult {
  /** Names of the migrations applied by this call, oldest first (empty when up to date). */
  applied: string[];
}

export interface MigrationStatus {
  provider: MigrationProvider;
  /** Absolute path of the migrations folder that was compared with the database. */
  migrationsDir: string;
  /** Whether the database has a `_prisma_migrations` table (false for a new database). */
  hasMigrationsTable: boolean;
  /** Local migrations recorded as applied in the database. */
  applied: string[];
  /** Local migrations not applied yet. */
  pending: string[];
  /** Migrations that started but did not finish (they block further deploys). */
  failed: string[];
  /** Applied migrations whose migration.sql changed since (checksum mismatch). */
  modified: string[];
  /** Migrations recorded in the database but missing from the migrations folder. */
  missingLocally: string[];
  /** True when nothing is pending, failed, modified or missing. */
  upToDate: boolean;
}

export interface CreatedMigration {
  sqlite?: string;
  postgresql?: string;
}

const MIGRATION_FILE = 'migration.sql';
const LOCK_FILE = 'migration_lock.toml';
/**
 * Tables hand-written migrations create and Prisma's schema does not describe (full-text search;
 * SQLite's tag link counters): diffs leave them alone instead of dropping them.
 */
export const EXTERNAL_TABLES = [
  'EntrySearch',
  'EntrySearchFts',
  'EntrySearchFts_config',
  'EntrySearchFts_data',
  'EntrySearchFts_docsize',
  'EntrySearchFts_idx',
  'TagLinkCount',
  'TagLinkOdd',
];
const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };
/** PostgreSQL wants schema-qualified names. */
const externalFilter = (provider: MigrationProvider): SchemaFilter => ({
  externalTables: EXTERNAL_TABLES.map((t) => (provider === 'postgresql' ? `public.${t}` : t)),
  externalEnums: [],
});

// ---------------------------------------------------------------------------------------------
// URLs and paths

/** The provider of a database URL: `file:` is SQLite, `postgres://` / `postgresql://` PostgreSQL. */
export function providerOf(url: string): MigrationProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(
    `Unsupported database URL "${redactUrl(url)}": expected file:<path> (SQLite) or postgres:// / postgresql:// (PostgreSQL)`,
  );
}

/** Filesystem path of a `file:` URL; relative paths resolve against the process's cwd. */
function sqliteFilePath(url: string): string {
  return resolve(url.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
}

/** A URL safe for messages: no password. */
function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

let projectRootCache: string | undefined;

/**
 * The project root: the nearest ancestor of this module's directory that holds package.json and
 * prisma/. Works from src/infra (tsx) and from dist/src/infra (compiled) alike.
 */
export function projectRoot(): string {
  if (projectRootCache) return projectRootCache;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && isDirectory(join(dir, 'prisma'))) {
      projectRootCache = dir;
      return dir;
    }
    if (dirname(dir) === dir) break;
  }
  throw new Error(`Cannot locate the project root (a directory with package.json and prisma/) above ${start}`);
}

export function migrationsDir(provider: MigrationProvider): string {
  return join(projectRoot(), 'prisma', provider, 'migrations');
}

function schemaPath(provider: MigrationProvider): string {
  return join(projectRoot(), 'prisma', provider, 'schema.prisma');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The migrations folder in the shape the engine expects (what Prisma's CLI passes it). */
function readMigrationList(dir: string): MigrationList {
  let lockContent: string | null = null;
  try {
    lockContent = readFileSync(join(dir, LOCK_FILE), 'utf8');
  } catch {
    lockContent = null;
  }
  const names = isDirectory(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort((a, b) => a.localeCompare(b))
    : [];
  return {
    baseDir: dir,
    lockfile: { path: LOCK_FILE, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: names.map((name) => {
      let content: { tag: 'ok'; value: string } | { tag: 'error'; value: string };
      try {
        content = { tag: 'ok', value: readFileSync(join(dir, name, MIGRATION_FILE), 'utf8') };
      } catch (error) {
        content = { tag: 'error', value: error instanceof Error ? error.message : String(error) };
      }
      return { path: name, migrationFile: { path: MIGRATION_FILE, content } };
    }),
  };
}

function requireMigrationsDir(provider: MigrationProvider): string {
  const dir = migrationsDir(provider);
  if (!isDirectory(dir)) {
    throw new Error(`No migrations folder for ${provider} at ${dir}`);
  }
  return dir;
}

/**
 * Runs `fn` with Prisma's schema engine on the database of `url`. The engine's module, its
 * WebAssembly and the PostgreSQL driver load on first use: most starts never need them.
 */
async function runEngine<T>(url: string, createIfMissing: boolean, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const provider = providerOf(url);
  const { openTarget, withEngine } = await import('./schema-engine.ts');
  return withEngine(openTarget(provider, provider === 'sqlite' ? sqliteFilePath(url) : url, createIfMissing), fn);
}

/**
 * Whether the database already records every migration of `list` as applied (finished, not rolled
 * back, with the SHA-256 of its migration.sql as checksum) and none other. Then there is nothing to
 * apply, and no reason to start the schema engine (loading it, compiling its WebAssembly and
 * diagnosing the history). With the PostgreSQL driver no longer loaded on SQLite, `engram keys
 * list` went from 1.66 to 1.50 s of wall time and 1.94 to 1.70 s of CPU (compiled, 8 runs each in
 * turn, 2026-11-29). Anything else, including a database that cannot be read, answers false and
 * goes to the engine, which applies what is pending or says what is wrong.
 */
async function recordsEveryMigration(url: string, list: MigrationList): Promise<boolean> {
  try {
    const records = await readMigrationRecords(url);
    if (!records) return false;
    const expected = new Map<string, string>();
    for (const { path, migrationFile } of list.migrationDirectories) {
      if (migrationFile.content.tag !== 'ok') return false;
      expected.set(path, checksumOf(migrationFile.content.value));
    }
    const live = records.filter((record) => record.rolled_back_at === null);
    // As many names as migrations, each once (a name recorded twice must not stand for a missing one).
    return (
      live.length === expected.size &&
      new Set(live.map((record) => record.migration_name)).size === live.length &&
      live.every((record) => record.finished_at !== null && expected.get(record.migration_name) === record.checksum)
    );
  } catch (error) {
    if (error instanceof DatabaseUnreachable) throw error;
    return false;
  }
}

/**
 * No PostgreSQL server answered: silent past the timeout, or the connection dropped before one
 * did. The engine would only try again, 15 s more for a host that drops packets, and then say
 * less ("External error id#0" for a dropped connection). A refused connection or an unknown host
 * fails at once and the engine words it well, so those still go to it.
 */
class DatabaseUnreachable extends DatabaseError {}

/**
 * pg's own errors when no server answered (no SQLSTATE, no system code), the system's connect
 * timeout, or a connection reset before a server answered: a peer that closes at once sends a
 * reset instead of an orderly close when pg's first message already sat unread in its buffer, a
 * matter of timing (CI saw the engine's "External error id#0" for it once in a loaded run).
 */
function unreachable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'EPIPE' || (code === undefined && /timeout|terminated/i.test(String(message)));
}

/** pg's message, but one wording for a reset: the system names the call it came in (connect ECONNRESET, read ECONNRESET, write EPIPE…), which is timing. */
function whyUnreachable(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' || code === 'EPIPE' ? 'the connection was reset' : String(message);
}

/** "host:port" of a PostgreSQL URL, as the engine names a server it cannot reach (pg also takes forms URL does not parse). */
function serverOf(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return parsed?.hostname ? `${parsed.hostname}:${parsed.port || '5432'}` : 'its address';
}

/** The rows of `_prisma_migrations`; null when the database (a SQLite file) does not exist yet. */
async function readMigrationRecords(url: string): Promise<MigrationRecord[] | null> {
  if (providerOf(url) === 'sqlite') {
    const path = sqliteFilePath(url);
    if (!existsSync(path)) return null;
    // No busy wait: a file another migrator holds goes to the engine, which waits for it.
    const db = new Sqlite(path, { fileMustExist: true, timeout: 0 });
    try {
      return db.prepare(RECORDS_SQL).all() as MigrationRecord[];
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, application_name: 'engram-migrations' });
  client.on('error', () => {
    // A connection dropped after the query is of no interest; before it, the query fails.
  });
  await client.connect().catch((error: unknown) => {
    throw unreachable(error) ? new DatabaseUnreachable(`Can't reach database server at \`${serverOf(url)}\` (${whyUnreachable(error)})`, { cause: error }) : error;
  });
  try {
    return (await client.query<MigrationRecord>(RECORDS_SQL)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Throws DatabaseUnreachable when no PostgreSQL server answers at `url`, in one connection attempt,
 * before the schema engine tries (and says "External error id#0" for a dropped connection). Any
 * other error (a refused connection, no migrations table) is left to the engine, which says it.
 */
async function probeServer(url: string): Promise<void> {
  if (providerOf(url) === 'sqlite') return;
  try {
    await readMigrationRecords(url);
  } catch (error) {
    if (error instanceof DatabaseUnreachable) throw error;
  }
}

/**
 * Whether the database has Engram's migrations table, read without changing anything (the CLI's
 * commands that work on an existing database). A server that cannot be reached is told in one
 * line, after one connection attempt.
 */
export async function hasMigrations(url: string): Promise<boolean> {
  try {
    return (await readMigrationRecords(url)) !== null;
  } catch (error) {
    // PostgreSQL's undefined_table; SQLite's "no such table".
    const code = (error as { code?: string }).code;
    if (code === '42P01' || /no such table/.test(String((error as Error).message))) return false;
    // Worded as the engine words them for applyMigrations (a refused connection, an unknown host).
    const refused = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
    throw engineError(`Reading ${providerOf(url)} migrations`, url, refused ? new Error(`Can't reach database server at \`${serverOf(url)}\``) : error);
  }
}

function engineError(action: string, url: string, error: unknown): DatabaseError {
  const message = error instanceof Error ? error.message : String(error);
  return new DatabaseError(`${action} (${redactUrl(url)}) failed: ${message}`, { cause: error });
}

// One migrator per SQLite file at a time within this process: the engine's exclusive lock plus
// better-sqlite3's synchronous busy wait would otherwise block the event loop holding the lock.
const sqliteQueues = new Map<string, Promise<unknown>>();

function serialized<T>(url: string, fn: () => Promise<T>): Promise<T> {
  if (providerOf(url) !== 'sqlite') return fn();
  const key = sqliteFilePath(url);
  const previous = sqliteQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  sqliteQueues.set(key, tail);
  void tail.then(() => {
    if (sqliteQueues.get(key) === tail) sqliteQueues.delete(key);
  });
  return run;
}

// ---------------------------------------------------------------------------------------------
// Public operations

type Diagnosis = Awaited<ReturnType<SchemaEngine['diagnoseMigrationHistory']>>;

/** diagnoseMigrationHistory, except that a database without `_prisma_migrations` is not an error. */
async function diagnose(engine: SchemaEngine, list: MigrationList): Promise<Diagnosis> {
  try {
    return await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTER });
  } catch (error) {
    // On SQLite the engine reports a missing migrations table as P1014 instead of hasMigrationsTable.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === 'P1014' && String(message).includes('_prisma_migrations')) {
      return {
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: false,
        history: null,
      };
    }
    throw error;
  }
}

/**
 * Applies the committed, not yet applied migrations of the URL's provider, oldest first, each with
 * its `_prisma_migrations` row in one transaction (migration-runner.ts): a process killed meanwhile
 * leaves the database as it was before the migration that ran, and the next call applies it. Creates
 * a missing SQLite file (and its directory). Throws when a migration fails (it is rolled back),
 * when a migration is recorded as failed (by Prisma's engine: an earlier Engram or `prisma migrate
 * deploy`), or when an applied migration was modified since.
 */
export function applyMigrations(url: string, options: { onMigration?: MigrationProgress } = {}): Promise<ApplyMigrationsResult> {
  const provider = providerOf(url);
  return serialized(url, async () => {
    const list = readMigrationList(requireMigrationsDir(provider));
    try {
      if (await recordsEveryMigration(url, list)) return { applied: [] };
      // The engine diagnoses the history (and creates a missing SQLite file); it no longer applies:
      // it records a migration as started before running it, and on SQLite runs it without a
      // transaction, so a kill left the database refusing every later deploy (P3009).
      await runEngine(url, true, async (engine) => {
        // `migrate deploy` itself ignores edited migrations; refuse them rather than drift.
        const diagnosis = await diagnose(engine, list);
        if (diagnosis.editedMigrationNames.length > 0) {
          throw new Error(
            `The following migration(s) were modified after they were applied: ${diagnosis.editedMigrationNames.join(', ')}. ` +
              'Restore their migration.sql (the database records its checksum) and add a new migration instead.',
          );
        }
      });
      const migrations = pendingMigrations(list);
      const applied =
        provider === 'sqlite'
          ? await applySqlite(sqliteFilePath(url), migrations, options.onMigration)
          : await applyPostgres(url, migrations, options.onMigration);
      return { applied };
    } catch (error) {
      throw engineError(`Applying ${provider} migrations`, url, error);
    }
  });
}

/** The folder's migrations with their scripts and checksums (an unreadable migration.sql throws). */
function pendingMigrations(list: MigrationList): PendingMigration[] {
  return list.migrationDirectories.map(({ path, migrationFile }) => {
    if (migrationFile.content.tag !== 'ok') throw new Error(`Cannot read ${join(path, MIGRATION_FILE)}: ${migrationFile.content.value}`);
    return { name: path, script: migrationFile.content.value, checksum: checksumOf(migrationFile.content.value) };
  });
}

/** What Prisma records as a migration's checksum: the SHA-256 of its migration.sql, hex. */
function checksumOf(script: string): string {
  return createHash('sha256').update(script).digest('hex');
}

/** The migrations of the folder (`local`) the database has not applied, by the engine's diagnosis. */
function pendingNames(diagnosis: Diagnosis, local: string[]): string[] {
  if (!diagnosis.hasMigrationsTable) return local;
  const history = diagnosis.history;
  return history?.diagnostic === 'databaseIsBehind' || history?.diagnostic === 'historiesDiverge' ? history.unappliedMigrationNames : [];
}

/** Compares the migrations folder with the database. Does not create a missing SQLite file. */
export function migrationStatus(url: string): Promise<MigrationStatus> {
  const provider = providerOf(url);
  return serialized(url, async () => {
    const dir = migrationsDir(provider);
    const list = readMigrationList(dir);
    const local = list.migrationDirectories.map((migration) => migration.path);
    if (provider === 'sqlite' && !existsSync(sqliteFilePath(url))) {
      return summarize(provider, dir, local, false, local, [], [], []);
    }
    try {
      await probeServer(url);
      const diagnosis = await runEngine(url, false, (engine) => diagnose(engine, list));
      const history = diagnosis.history;
      const pending = pendingNames(diagnosis, local);
      const missing =
        history?.diagnostic === 'migrationsDirectoryIsBehind' || history?.diagnostic === 'historiesDiverge'
          ? history.unpersistedMigrationNames
          : [];
      return summarize(
        provider,
        dir,
        local,
        diagnosis.hasMigrationsTable,
        pending,
        diagnosis.failedMigrationNames,
        diagnosis.editedMigrationNames,
        missing,
      );
    } catch (error) {
      throw engineError(`Reading the ${provider} migration status`, url, error);
    }
  });
}

function summarize(
  provider: MigrationProvider,
  dir: string,
  local: string[],
  hasMigrationsTable: boolean,
  pending: string[],
  failed: string[],
  modified: string[],
  missingLocally: string[],
): MigrationStatus {
  const notApplied = new Set([...pending, ...failed]);
  return {
    provider,
    migrationsDir: dir,
    hasMigrationsTable,
    applied: hasMigrationsTable ? local.filter((name) => !notApplied.has(name)) : [],
    pending: pending.filter((name) => !failed.includes(name)),
    failed,
    modified,
    missingLocally,
    upToDate: pending.length + failed.length + modified.length + missingLocally.length === 0,
  };
}

/**
 * For developers: writes a new migration per provider that takes a database from the committed
 * migrations to prisma/<provider>/schema.prisma. Each provider's current state is built in a
 * scratch database (a temporary SQLite file; a temporary `engram_shadow_*` database created through
 * SHADOW_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres, and dropped
 * afterwards). Both providers share one timestamp; a provider without changes gets no migration.
 * Nothing is written unless both diffs succeed.
 */
export async function createMigration(name: string): Promise<CreatedMigration> {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (!slug) throw new Error(`Invalid migration name "${name}": use letters, digits and underscores`);

  const scripts = new Map<MigrationProvider, string>();
  for (const provider of PROVIDERS) {
    const script = await diffFromMigrations(provider);
    if (script !== null) scripts.set(provider, script);
  }

  const created: CreatedMigration = {};
  if (scripts.size === 0) return created;
  const folder = `${migrationTimestamp()}_${slug}`;
  for (const [provider, script] of scripts) {
    const dir = migrationsDir(provider);
    const target = join(dir, folder);
    if (existsSync(target)) throw new Error(`The migration directory already exists: ${target}`);
    mkdirSync(target, { recursive: true });
    const file = join(target, MIGRATION_FILE);
    writeFileSync(file, script, 'utf8');
    writeFileSync(
      join(dir, LOCK_FILE),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`,
      'utf8',
    );
    created[provider] = file;
  }
  return created;
}

/** UTC yyyyMMddHHmmss, later than every existing migration of either provider. */
function migrationTimestamp(): string {
  const format = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  let latest = '';
  for (const provider of PROVIDERS) {
    for (const migration of readMigrationList(migrationsDir(provider)).migrationDirectories) {
      const stamp = /^(\d{14})_/.exec(migration.path)?.[1];
      if (stamp && stamp > latest) latest = stamp;
    }
  }
  let now = new Date();
  while (format(now) <= latest) now = new Date(now.getTime() + 1000);
  return format(now);
}

/** The SQL from the committed migrations to the schema, or null when they already match. */
async function diffFromMigrations(provider: MigrationProvider): Promise<string | null> {
  const file = schemaPath(provider);
  if (!existsSync(file)) {
    throw new Error(`${file} does not exist: run \`node scripts/prisma-generate.mjs\` first`);
  }
  const schema = readFileSync(file, 'utf8');
  const models = join(projectRoot(), 'prisma', 'models.prisma');
  if (existsSync(models) && !schema.endsWith(readFileSync(models, 'utf8'))) {
    throw new Error(`${file} is older than prisma/models.prisma: run \`node scripts/prisma-generate.mjs\` first`);
  }
  const list = readMigrationList(migrationsDir(provider));
  const { DEFAULT_ADMIN_URL, createScratchDatabase } = await import('./scratch-database.ts');
  const scratch = await createScratchDatabase(provider, {
    adminUrl: process.env.SHADOW_DATABASE_URL?.trim() || DEFAULT_ADMIN_URL,
    prefix: 'engram_shadow',
  });
  try {
    return await runEngine(scratch.url, true, async (engine) => {
      await engine.applyMigrations({ migrationsList: list, filters: NO_FILTER });
      const result = await engine.diff({
        from: { tag: 'schemaDatasource', files: [{ path: file, content: schema }], configDir: dirname(file) },
        to: { tag: 'schemaDatamodel', files: [{ path: file, content: schema }] },
        script: true,
        exitCode: true,
        filters: externalFilter(provider),
      });
      // With exitCode requested, the engine answers 2 for a non-empty diff and 0 for none.
      return result.exitCode === 2 ? (result.stdout ?? '') : null;
    });
  } catch (error) {
    throw new Error(`Computing the ${provider} migration failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    await scratch.drop();
  }
}
