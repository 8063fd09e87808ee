// `engram migrate deploy|status` (and scripts/migrate.ts, which adds `create` for developers).
import { relative } from 'node:path';
import { applyMigrations, migrationStatus, projectRoot } from '../infra/migrations.ts';
import { databaseUrl, displayUrl } from './common.ts';
import { EXIT } from './exit.ts';
import { migrationBar } from './progress.ts';

/** Applies pending migrations to DATABASE_URL (a missing SQLite file is created). */
export async function deploy(): Promise<number> {
  const url = databaseUrl();
  const bar = process.stderr.isTTY ? migrationBar() : undefined;
  const { applied } = await applyMigrations(url, { onMigration: bar?.update }).finally(() => bar?.stop());
  if (applied.length === 0) console.log(`${displayUrl(url)}: already up to date.`);
  else {
    console.log(`${displayUrl(url)}: applied ${applied.length} migration(s):`);
    for (const name of applied) console.log(`  ${name}`);
  }
  return EXIT.ok;
}

/** What is applied, pending, failed or modified; EXIT.failed unless the database is up to date. */
export async function status(json: boolean): Promise<number> {
  const url = databaseUrl();
  const status = await migrationStatus(url);
  if (json) console.log(JSON.stringify(status));
  else {
    console.log(`${displayUrl(url)} (${status.provider}), migrations in ${relative(projectRoot(), status.migrationsDir)}`);
    if (!status.hasMigrationsTable) console.log('No migration has been applied to this database yet.');
    list('Applied', status.applied);
    list('Pending', status.pending);
    list('Failed (fix the database, then mark or re-apply with Prisma)', status.failed);
    list('Modified after being applied', status.modified);
    list('Applied but missing from the migrations folder', status.missingLocally);
    console.log(status.upToDate ? 'Database schema is up to date.' : 'Database schema is NOT up to date.');
  }
  return status.upToDate ? EXIT.ok : EXIT.failed;
}

function list(label: string, names: string[]): void {
  if (names.length === 0) return;
  console.log(`${label} (${names.length}):`);
  for (const name of names) console.log(`  ${name}`);
}
