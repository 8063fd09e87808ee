import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../../src/infra/migrations.ts';
import { compile, compileForRun, removeRun } from './compiled.ts';
import { ROOT } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** SQLite: path of a migrated template file. PostgreSQL: name of a migrated template database. */
    templateDatabase: string;
    /** This run's compiled src/ (test/support/compiled.ts), for the tests that start Engram as a process. */
    compiledRoot: string;
  }
}

/** Compiles src/ for the tests that start processes, and migrates one template database per run; each test file then gets a cheap copy of it. */
export default async function setup(project: TestProject) {
  const compiled = await compileForRun(ROOT);
  project.provide('compiledRoot', compiled);
  project.onTestsRerun(() => compile(ROOT, compiled));
  const kind = project.config.env?.ENGRAM_TEST_DB ?? 'sqlite';
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'engram-test-'));
    const template = join(dir, 'template.db');
    await applyMigrations(`file:${template}`);
    project.provide('templateDatabase', template);
    return () => {
      rmSync(dir, { recursive: true, force: true });
      removeRun(compiled);
    };
  }
  const adminUrl = String(project.config.env?.TEST_POSTGRES_URL);
  const name = `engram_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await applyMigrations(withDatabase(adminUrl, name));
  project.provide('templateDatabase', name);
  return async () => {
    // Per-file databases are dropped by their files; drop any left behind by a crash too.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`${name}_%`, name],
    );
    for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    await admin.end();
    removeRun(compiled);
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export { copyFileSync, mkdirSync };
