// `engram`: the command line (bin/engram.mjs). Every command works on DATABASE_URL (default
// file:./data/engram.db) through the same services as the API. Exit codes: 0 done, 1 failed,
// 2 a usage mistake (see EXIT).
// A command's module is loaded when it runs: import-openapi builds the whole app (~2.7 s of every
// command's start when it was loaded up front), export and import the transfer services, the
// server's commands graphql-ws and ws (~0.13 s).
// First: NODE_ENV before anything that reads it as it loads (see node-env.ts).
import '../infra/node-env.ts';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { PRINCIPAL_KINDS } from '../domain/principal-kinds.ts';
import type { ClientOptions } from './client.ts';
import type { Database } from '../infra/database.ts';
import { EXIT, reported, UsageError } from './exit.ts';
import type { ExportCommandOptions } from './transfer.ts';
import type { DatabaseUse } from './common.ts';

/** DATABASE_URL, migrated and open for `work` (common.ts, loaded by the commands that need it); `existing`: refuse a SQLite file that is not there. */
const withDatabase = async <T>(work: (database: Database) => Promise<T>, use: DatabaseUse = {}): Promise<T> => (await import('./common.ts')).withDatabase(work, use);
/** For the commands that only read or change what a database holds. */
const EXISTING: DatabaseUse = { existing: true };

/** Every numeric option: a whole number as written ("10abc" and "abc" are refused, not read as 10 or left out). */
function integer(option: string, min?: number): (value: string) => number {
  return (value) => {
    if (!/^-?\d{1,15}$/.test(value.trim())) throw new InvalidArgumentError(`${option} must be an integer`);
    // A floor only where the server would take the number and answer something misleading
    // (`--first 0`: an empty page printed as "nothing matches").
    if (min !== undefined && Number(value) < min) throw new InvalidArgumentError(`${option} must be at least ${min}`);
    return Number(value);
  };
}

const clientModule = () => import('./client.ts');
const keysModule = () => import('./keys.ts');
const backupModule = () => import('./backup.ts');
const migrateModule = () => import('./migrate.ts');
const transferModule = () => import('./transfer.ts');

const program = new Command('engram')
  .description('Engram, a memory server for AI agents (GraphQL, MCP; SQLite or PostgreSQL from DATABASE_URL)')
  .version('0.1.0')
  .showHelpAfterError()
  .exitOverride();

program
  .command('serve')
  .description('start the server: GraphQL (HTTP, SSE, WebSocket) at /graphql and MCP at /mcp (PORT, HOST, see the README)')
  .action(async () => {
    await import('../main.ts');
  });

program
  .command('mcp')
  .description('serve MCP over stdin/stdout for an agent runtime (the embedded database, migrated first)')
  .option('--key <apiKey>', "act as an API key's principal (default: ENGRAM_API_KEY; without one: this machine's admin)")
  .option('--actor <actor>', 'who the writes are recorded as (X-Engram-Actor), e.g. agent:claude')
  .action(async (options: { key?: string; actor?: string }) => {
    const apiKey = options.key ?? process.env.ENGRAM_API_KEY;
    // Without a key the tools act as admin: an empty one (`--key "${KEY}"` with KEY unset) must not.
    if (apiKey?.trim() === '') throw new UsageError(`${options.key === undefined ? 'ENGRAM_API_KEY' : '--key'} is empty: give an API key, or none (unset ENGRAM_API_KEY) to act as this machine's admin`);
    const { serveMcpOverStdio } = await import('../mcp/stdio.ts');
    await serveMcpOverStdio({ apiKey, actor: options.actor });
  });

const migrate = program.command('migrate').description('database migrations (the server also applies them when it starts)');
migrate
  .command('deploy')
  .description('apply pending migrations (creates a missing SQLite file)')
  .action(async () => void (process.exitCode = await (await migrateModule()).deploy()));
migrate
  .command('status')
  .description('applied, pending, failed and modified migrations; exit code 1 unless up to date')
  .option('--json', 'one JSON object')
  .action(async (options: { json?: boolean }) => void (process.exitCode = await (await migrateModule()).status(options.json ?? false)));

program
  .command('export')
  .description('write memory (everything, or a scope and what is under it) as JSON Lines with full histories; or current entries as Markdown or YAML')
  .option('--scope <id>', "a scope's ID: it, what is under it, and the scopes enclosing it")
  .option('--out <file>', 'write to a file (default: stdout)')
  .addOption(new Option('--format <format>', 'jsonl: everything, for import; markdown or yaml: current entries, for people').choices(['jsonl', 'markdown', 'yaml']).default('jsonl'))
  .action((options: ExportCommandOptions) => withDatabase(async (db) => void (process.exitCode = await (await transferModule()).exportCommand(db, options)), EXISTING));

program
  .command('import')
  .description('import an export (JSON Lines): existing rows are skipped, so importing again changes nothing; exit code 1 when rows were refused')
  .argument('<file>', 'the export, or - for stdin')
  .option('--json', 'the report as one JSON object')
  .action(async (file: string, options: { json?: boolean }) => {
    const transfer = await transferModule();
    // The file first: a mistyped path must not create (and migrate) a database.
    const source = transfer.importSource(file);
    await withDatabase(async (db) => void (process.exitCode = await transfer.importCommand(db, source, options.json ?? false)));
  });

program
  .command('import-openapi')
  .description("an OpenAPI 3 document's operations as tools of a scope (by operationId): added, or a new version when changed; importing again changes nothing; exit code 1 when some were refused")
  .argument('<file>', 'the document (JSON or YAML); only references inside it are followed')
  .requiredOption('--scope <id>', "the scope's ID")
  .option('--json', 'the report as one JSON object')
  .action(async (file: string, options: { scope: string; json?: boolean }) => {
    // The document is read before the database is opened (or created): a mistake in it changes nothing.
    const { importOpenApiCommand, readTools } = await import('./openapi.ts');
    const tools = await readTools(file);
    await withDatabase(async (db) => void (process.exitCode = await importOpenApiCommand(db, tools, options)));
  });

program
  .command('backup')
  .description('copy the live SQLite database to a file, consistent while the server writes (PostgreSQL: prints the pg_dump way)')
  .argument('<file>', 'where the copy goes (must not exist)')
  .action(async (file: string) => void (process.exitCode = await (await backupModule()).backup(file)));

program
  .command('restore')
  .description('restore a backup into DATABASE_URL, which must not hold a database yet; newer migrations are applied')
  .argument('<file>', 'a file made by engram backup')
  .action(async (file: string) => void (process.exitCode = await (await backupModule()).restore(file)));

/** Options of the commands that ask a running server. */
function client(command: Command): Command {
  return command
    .option('--url <url>', 'the server (default: ENGRAM_URL, else http://localhost:4000)')
    .option('--key <apiKey>', 'API key (default: ENGRAM_API_KEY)')
    .option('--json', 'JSON (one object per line) instead of a table');
}
const clientOf = (o: { url?: string; key?: string; json?: boolean }): ClientOptions => ({
  url: (o.url ?? process.env.ENGRAM_URL ?? 'http://localhost:4000').replace(/\/+$/, ''),
  key: o.key ?? (process.env.ENGRAM_API_KEY || undefined),
  json: o.json ?? false,
});

client(program.command('query'))
  .description('search memory as memoryQuery does, from a scope (with the scopes enclosing it)')
  .argument('<scope>', "a scope's ID")
  .argument('[words...]', 'words to find')
  .option('--kind <kind...>', 'tool, guideline or knowledge')
  .option('--tag <tag...>', 'tags every result carries')
  .addOption(new Option('--first <n>', 'how many').argParser(integer('--first', 1)).default(10))
  .action(async (scope: string, words: string[], o: { kind?: string[]; tag?: string[]; first: number } & Parameters<typeof clientOf>[0]) =>
    void (process.exitCode = await (await clientModule()).queryCommand(clientOf(o), scope, words, o)));

client(program.command('context'))
  .description('what applies to a task in a scope, most relevant first, within a token budget')
  .argument('<scope>', "a scope's ID")
  .argument('<task...>', 'the task, in words')
  .addOption(new Option('--budget <tokens>', 'token budget').argParser(integer('--budget')))
  .action(async (scope: string, task: string[], o: { budget?: number } & Parameters<typeof clientOf>[0]) =>
    void (process.exitCode = await (await clientModule()).contextCommand(clientOf(o), scope, task.join(' '), o.budget)));

client(program.command('resolve'))
  .description('resolve a write conflict: keep the current version or take the incoming one')
  .argument('<conflict>', "the conflict's ID")
  .addOption(new Option('--keep', 'keep the version that was current').conflicts('take'))
  .addOption(new Option('--take', 'take the incoming version'))
  .option('--note <note>', 'why')
  .action(async (conflict: string, o: { keep?: boolean; take?: boolean; note?: string } & Parameters<typeof clientOf>[0]) => {
    if (!o.keep && !o.take) throw new UsageError('resolve needs --keep or --take');
    process.exitCode = await (await clientModule()).resolveCommand(clientOf(o), conflict, o.take ? 'TAKE_INCOMING' : 'KEEP_CURRENT', o.note);
  });

client(program.command('tail'))
  .description('follow changes under a scope as they happen: entries, conflicts, session events (until Ctrl-C)')
  .argument('<scope>', "a scope's ID (sessions: a project's or a session's)")
  .addOption(new Option('--events <streams...>', 'what to follow').choices(['entries', 'conflicts', 'sessions']).default(['entries', 'conflicts']))
  .action(async (scope: string, o: { events: ('entries' | 'conflicts' | 'sessions')[] } & Parameters<typeof clientOf>[0]) =>
    void (process.exitCode = await (await clientModule()).tailCommand(clientOf(o), scope, o.events)));

const keys = program.command('keys').description('API keys (the first one ends protected mode)');
keys
  .command('create')
  .description("create a key (and its principal when new); prints the secret alone on stdout, once")
  .requiredOption('--name <name>', 'the principal')
  .addOption(new Option('--kind <kind>', 'kind of a new principal (default: service); for an existing one, refused unless it is its kind').choices(PRINCIPAL_KINDS.map((k) => k.toLowerCase()).concat(PRINCIPAL_KINDS)))
  .option('--admin', 'a new principal is an admin; for an existing one, refused unless it is one', false)
  .option('--key-name <keyName>', 'what the key is for (e.g. laptop)', 'default')
  .option('--expires <instant>', 'ISO-8601 instant with a time zone after which the key stops working (e.g. 2027-01-01T00:00:00Z)')
  .action((options: { name: string; kind?: string; admin: boolean; keyName: string; expires?: string }) => withDatabase(async (db) => (await keysModule()).createKey(db, options)));
keys
  .command('list')
  .description('every key: id, prefix, principal, state, last use')
  .option('--json', 'one JSON object per key')
  .action((options: { json?: boolean }) => withDatabase(async (db) => (await keysModule()).listKeys(db, options.json ?? false), EXISTING));
keys
  .command('revoke')
  .description('revoke a key by id or prefix')
  .argument('<key>', 'id or prefix (egk_ and 8 characters)')
  .action((which: string) => withDatabase(async (db) => (await keysModule()).revokeKey(db, which), EXISTING));

try {
  await program.parseAsync();
} catch (error) {
  process.exitCode = error instanceof CommanderError ? commanderExit(error) : reported(error);
}
// `serve` and `mcp` keep running; the other commands end here (a PostgreSQL pool would keep the process alive a while).
if (!['serve', 'mcp'].includes(program.args[0] ?? '') || process.exitCode) process.exit(process.exitCode ?? EXIT.ok);

/** Help and version end with 0; every other complaint of the parser is a usage mistake. */
function commanderExit(error: CommanderError): number {
  return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
}
