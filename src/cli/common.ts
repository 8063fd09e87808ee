import { existsSync } from 'node:fs';
import { loadConfig, sqlitePath, type Config } from '../config.ts';
import { openDatabase, type Database } from '../infra/database.ts';
import { applyMigrations, hasMigrations, providerOf } from '../infra/migrations.ts';
import { sqliteAddonProblemFor } from '../infra/native-check.ts';
import { Failure, firstLine, UsageError } from './exit.ts';

/** DATABASE_URL (or the default); a SQLite one is refused when its addon was built for another Node. */
export function databaseUrl(config: Config = loadConfig()): string {
  // A better-sqlite3 built for another Node would otherwise fail as "External error id#0".
  const problem = sqliteAddonProblemFor(config.databaseUrl);
  if (problem) throw new UsageError(problem);
  return config.databaseUrl;
}

export interface DatabaseUse {
  /**
   * The command only reads or changes what is there (keys list, export): a SQLite file that does
   * not exist is refused instead of created, since a fresh database would only answer "nothing"
   * for a mistyped path.
   */
  existing?: boolean;
}

/** DATABASE_URL (or the default), migrated, open for `work`, closed after. */
export async function withDatabase<T>(work: (database: Database) => Promise<T>, use: DatabaseUse = {}): Promise<T> {
  const config = loadConfig();
  const url = databaseUrl(config);
  if (use.existing) await requireExisting(url);
  const database = await reachable(url, async () => {
    await applyMigrations(url);
    return openDatabase(url, { readers: 0, cacheMb: config.sqliteCacheMb, rankExtension: config.sqliteRankExtension, parallelWorkers: config.postgresParallelWorkers });
  });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * Refuses a DATABASE_URL with no Engram database: a SQLite file that is not there, a PostgreSQL
 * database Engram never migrated (without this, `keys list` on a URL naming no database, which
 * connects to the server's own `postgres`, created Engram's tables there).
 */
export async function requireExisting(url: string): Promise<void> {
  if (providerOf(url) === 'sqlite') {
    const path = sqlitePath(url);
    if (!existsSync(path)) throw new UsageError(`No database at ${path} (DATABASE_URL): this command works on an existing one`);
    return;
  }
  const migrated = await reachable(url, () => hasMigrations(url)).catch((error: unknown) => {
    // As a SQLite file that is not there: the caller's mistake (exit 2), not the server's failure.
    if (causedBy(error, MISSING_DATABASE)) throw new UsageError(`No database at ${displayUrl(url)} (DATABASE_URL): this command works on an existing one`);
    throw error;
  });
  if (!migrated) {
    throw new UsageError(`No Engram database at ${displayUrl(url)} (DATABASE_URL: Engram never migrated it): this command works on an existing one`);
  }
}

/** PostgreSQL's invalid_catalog_name: the URL names a database the server does not have. */
const MISSING_DATABASE = '3D000';

/** Whether `error`, or an error it was caused by, has the code `code`. */
function causedBy(error: unknown, code: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if ((e as { code?: unknown }).code === code) return true;
  return false;
}

/**
 * Opening the database: what fails here is the database's side (unreachable, refused login,
 * unreadable file), told in its first line (the engine's messages go on with advice and a stack).
 */
async function reachable<T>(url: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new Failure(error instanceof Error ? firstLine(error.message) : `Opening ${displayUrl(url)} failed: ${String(error)}`, { cause: error });
  }
}

/** A database URL without its password, for messages. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
