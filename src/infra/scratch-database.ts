import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL connection used to create and drop scratch databases, unless one is given. */
export const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface ScratchOptions {
  /** PostgreSQL: an admin connection that may CREATE and DROP databases. */
  adminUrl?: string;
  /** Name prefix: the database (PostgreSQL) or temporary folder (SQLite). */
  prefix?: string;
  /** Start from a copy: a SQLite file path, or a PostgreSQL template database name. */
  template?: string;
}

/**
 * A throwaway database (a temporary SQLite file, or a new PostgreSQL database) for migrations,
 * tests and benchmarks; `drop` removes it.
 */
export async function createScratchDatabase(
  provider: 'sqlite' | 'postgresql',
  { adminUrl = DEFAULT_ADMIN_URL, prefix = 'engram_scratch', template }: ScratchOptions = {},
): Promise<ScratchDatabase> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const file = join(dir, 'scratch.db');
    if (template) copyFileSync(template, file);
    return { url: `file:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 15_000 });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  try {
    await run(`CREATE DATABASE "${database}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } catch (error) {
    throw new Error(
      `Cannot create a scratch PostgreSQL database through ${adminUrl.replace(/\/\/[^@/]*@/, '//***@')}: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`) };
}
