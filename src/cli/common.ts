import { loadConfig, type Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { openDatabase, type Database } from '../infra/database.ts';
import { applyMigrations } from '../infra/migrations.ts';
import { sqliteAddonProblemFor } from '../infra/native-check.ts';

/** Exit codes scripts can rely on. */
export const EXIT = {
  ok: 0,
  /** The command ran and failed (database unreachable, a write refused for a runtime reason). */
  failed: 1,
  /** The command line, or what it asked for, is wrong (unknown option, no such key, bad value). */
  usage: 2,
} as const;

/** A mistake of the caller: its message is shown alone, with EXIT.usage. */
export class UsageError extends Error {}

/** DATABASE_URL (or the default); a SQLite one is refused when its addon was built for another Node. */
export function databaseUrl(config: Config = loadConfig()): string {
  // A better-sqlite3 built for another Node would otherwise fail as "External error id#0".
  const problem = sqliteAddonProblemFor(config.databaseUrl);
  if (problem) throw new UsageError(problem);
  return config.databaseUrl;
}

/** DATABASE_URL (or the default), migrated, open for `work`, closed after. */
export async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const url = databaseUrl(config);
  await applyMigrations(url);
  const database = await openDatabase(url, { readers: 0, cacheMb: config.sqliteCacheMb, parallelWorkers: config.postgresParallelWorkers });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** The exit code for an error that ended a command, after saying what went wrong on stderr. */
export function reported(error: unknown): number {
  if (error instanceof UsageError || error instanceof DomainError) {
    console.error(error.message);
    return EXIT.usage;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  return EXIT.failed;
}

/** A database URL without its password, for messages. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
