import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../infra/database.ts';
import { applyMigrations } from '../infra/migrations.ts';
import { sqliteAddonProblemFor } from '../infra/native-check.ts';
import { UsageError } from './exit.ts';

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

/** A database URL without its password, for messages. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
