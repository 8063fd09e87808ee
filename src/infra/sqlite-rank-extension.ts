// engram_bm25 (native/fts5-rank.c, compiled by scripts/build-native.mjs on install): FTS5's bm25()
// without the IDF of the tag tokens a tag + word query intersects its words with. Loaded into each
// SQLite connection as it opens (the main one and every reader thread's); where it was not built or
// does not load, ranking uses bm25(), whose scores are the same.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './log.ts';
import { projectRoot } from './migrations.ts';

const FILE = `fts5-rank.${process.platform === 'darwin' ? 'dylib' : 'so'}`;
/** The extension's entry point (SQLite would guess "sqlite3_ftsrank_init" from the file name). */
const ENTRY_POINT = 'sqlite3_fts5rank_init';

/** What this module needs of a better-sqlite3 connection. */
export interface ExtensionClient {
  loadExtension(path: string, entryPoint?: string): unknown;
}

/** A loadable extension: its file and entry point (what a reader thread is handed). */
export interface Extension {
  path: string;
  entryPoint: string;
}

/** The databases (their Prisma clients) whose connections all have it: their SQL may call engram_bm25. */
const ranking = new WeakSet<object>();
let warned = false;

/** The compiled extension, or null where the install did not build it. */
export function rankExtension(): Extension | null {
  const path = join(projectRoot(), 'native', 'build', FILE);
  return existsSync(path) ? { path, entryPoint: ENTRY_POINT } : null;
}

/**
 * Loads `extension` into the main connection `client`; a failure is logged once and leaves ranking
 * to bm25(). (Reader threads load what the main connection loaded, and fail to start without it.)
 */
export function loadRankExtension(client: ExtensionClient, extension: Extension | null): boolean {
  if (!extension) return false;
  try {
    client.loadExtension(extension.path, extension.entryPoint);
    return true;
  } catch (error) {
    if (!warned) log.warn({ err: error, path: extension.path }, "SQLite's ranking extension did not load; tag + word queries rank with bm25() (the same results, slower)");
    warned = true;
    return false;
  }
}

/** Marks `db` (a database's Prisma client) as ranking with the extension: its main connection loaded it. */
export function rankWithExtension(db: object): void {
  ranking.add(db);
}

/** Whether SQL run on `db` may call engram_bm25 (a transaction's client is not marked: bm25() there). */
export const ranksWithExtension = (db: object): boolean => ranking.has(db);
