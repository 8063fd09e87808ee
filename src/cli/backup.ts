// `engram backup` and `engram restore`: a consistent copy of a live SQLite database, and its way back.
import { accessSync, constants, existsSync, lstatSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sqlitePath } from '../config.ts';
import { applyMigrations, providerOf } from '../infra/migrations.ts';
import { databaseUrl } from './common.ts';
import { EXIT, reason, UsageError } from './exit.ts';
import { progress } from './progress.ts';

const POSTGRES_ADVICE =
  'DATABASE_URL is PostgreSQL: back it up with its own tools, which are consistent while writes go on:\n' +
  '  pg_dump --format=custom --file=engram.dump "$DATABASE_URL"\n' +
  'and restore into an empty database with:\n' +
  '  pg_restore --no-owner --dbname="$DATABASE_URL" engram.dump';

function sqliteFile(): string {
  const url = databaseUrl();
  if (providerOf(url) !== 'sqlite') throw new UsageError(POSTGRES_ADVICE);
  return sqlitePath(url);
}

/**
 * Copies the database with SQLite's online backup API: the copy is one consistent state even
 * while the server goes on writing. A write by another connection between two steps restarts the
 * copy, so under steady writes a copy in small steps never ends (measured on a 70 MB database
 * against a loop of writes: in 100-page steps it had not finished after 90 s; in one step it took
 * 1.5 s while 461 writes went on). After the first step the rest goes in one step, a read transaction
 * that writers in WAL mode do not wait for.
 */
export async function backup(destination: string): Promise<number> {
  const source = sqliteFile();
  if (!existsSync(source)) throw new UsageError(`No database at ${source}`);
  // lstat: a link, even one that leads nowhere, is there too (SQLite would write through it).
  if (lstatSync(destination, { throwIfNoEntry: false })) throw new UsageError(`${destination} exists: the backup will not overwrite it`);
  // Its directory is checked here: SQLite's own error named neither the path nor why (an "unexpected error").
  const directory = dirname(destination);
  try {
    if (!statSync(directory).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(directory, constants.W_OK);
  } catch (error) {
    throw new UsageError(`${destination} cannot be written (${reason(error)})`);
  }
  const db = new BetterSqlite3(source, { fileMustExist: true });
  const shown = progress('copied', 'pages');
  try {
    await db.backup(destination, {
      progress: ({ totalPages, remainingPages }) => {
        shown.update({ pages: totalPages - remainingPages });
        return Math.max(totalPages, 1);
      },
    });
  } catch (error) {
    removeCopy(destination);
    throw error;
  } finally {
    db.close();
  }
  shown.done({ pages: pageCount(destination) });
  console.error(`Backed up ${source} to ${destination} (${statSync(destination).size.toLocaleString('en')} bytes)`);
  return EXIT.ok;
}

/** A copy cut short, which this command created: only a regular file (a path that became anything else since is not ours to remove). */
function removeCopy(destination: string): void {
  if (lstatSync(destination, { throwIfNoEntry: false })?.isFile()) rmSync(destination);
}

/** Restores a backup into DATABASE_URL, which must not hold a database yet; then applies newer migrations. */
export async function restore(file: string): Promise<number> {
  const target = sqliteFile();
  if (!existsSync(file)) throw new UsageError(`No backup at ${file}`);
  if (existsSync(target) && statSync(target).size > 0) throw new UsageError(`${target} already holds a database: restore only into a new one (move it away first)`);
  const backupDb = readable(file, () => new BetterSqlite3(file, { readonly: true, fileMustExist: true }));
  try {
    checkBackup(file, backupDb);
    for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    mkdirSync(dirname(target), { recursive: true });
    await backupDb.backup(target).catch((error: unknown) => {
      // A copy cut short is no database: nothing of it stays.
      removeCopy(target);
      throw error;
    });
  } finally {
    backupDb.close();
  }
  const { applied } = await applyMigrations(`file:${target}`);
  console.error(`Restored ${file} to ${target}${applied.length ? `; applied ${applied.length} newer migration(s)` : ''}`);
  return EXIT.ok;
}

/** A backup SQLite can read whole, of an Engram database. */
function checkBackup(file: string, backupDb: BetterSqlite3.Database): void {
  readable(file, () => {
    const check = backupDb.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new UsageError(`${file} is damaged: ${String(check)}`);
    const engram = backupDb.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!engram) throw new UsageError(`${file} is not an Engram database`);
  });
}

/** `read`, with a file that is not SQLite at all, or a damaged (cut off) one, reported as the caller's mistake. */
function readable<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof BetterSqlite3.SqliteError)) throw error;
    if (error.code === 'SQLITE_NOTADB') throw new UsageError(`${file} is not a SQLite database`);
    if (error.code === 'SQLITE_CORRUPT') throw new UsageError(`${file} is damaged (${error.message}): it may be cut off; restore another copy`);
    throw error;
  }
}

function pageCount(file: string): number {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.pragma('page_count', { simple: true }) as number;
  } finally {
    db.close();
  }
}
