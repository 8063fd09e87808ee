// Developer CLI for Engram's Prisma migrations (offline: Prisma's own `migrate` needs a native
// engine download; this drives the WebAssembly engine through src/infra/migrations.ts).
//
//   tsx scripts/migrate.ts create <name>   new migration for SQLite and PostgreSQL from the schemas
//   tsx scripts/migrate.ts deploy          apply pending migrations to DATABASE_URL
//   tsx scripts/migrate.ts status          compare DATABASE_URL with the migrations folder
import { relative } from 'node:path';
import { UsageError } from '../src/cli/exit.ts';
import { deploy, status } from '../src/cli/migrate.ts';
import { DEFAULT_DATABASE_URL } from '../src/config.ts';
import { createMigration, projectRoot } from '../src/infra/migrations.ts';

const USAGE = `Usage: tsx scripts/migrate.ts <command>

Commands:
  create <name>   Write prisma/<provider>/migrations/<timestamp>_<name>/migration.sql for SQLite
                  and PostgreSQL: the changes from the committed migrations to
                  prisma/<provider>/schema.prisma (run \`node scripts/prisma-generate.mjs\` first).
                  Providers without changes get no migration. Needs a PostgreSQL server for a
                  scratch database: SHADOW_DATABASE_URL (an admin connection), default
                  postgresql://postgres@127.0.0.1:5432/postgres.
  deploy          Apply pending migrations to DATABASE_URL (creates a missing SQLite file).
  status          Show applied, pending, failed and modified migrations of DATABASE_URL;
                  exits with 1 unless the database is up to date.

DATABASE_URL: file:<path> (SQLite, relative to the working directory) or postgres(ql)://...
              Default: ${DEFAULT_DATABASE_URL}
`;


async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const name = rest.join(' ').trim();
      if (!name) throw new UsageError('create needs a migration name, e.g. `create add_entry_notes`');
      const created = await createMigration(name);
      const files = Object.values(created).filter((file): file is string => typeof file === 'string');
      if (files.length === 0) {
        console.log('No schema changes: no migration written.');
      } else {
        for (const file of files) console.log(`Created ${relative(projectRoot(), file)}`);
      }
      return 0;
    }
    case 'deploy':
      if (rest.length > 0) throw new UsageError(`deploy takes no arguments`);
      return deploy();
    case 'status':
      if (rest.length > 0) throw new UsageError(`status takes no arguments`);
      return status(false);
    case undefined:
    case 'help':
    case '-h':
    case '--help':
      (command === undefined ? process.stderr : process.stdout).write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
