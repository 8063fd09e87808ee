// API keys from the command line, so the first key can be made on a fresh server (no key yet
// means protected mode: only this machine is answered). Works on DATABASE_URL, migrating it first.
//
//   npm run keys -- create --name ops --admin [--kind SERVICE] [--key-name laptop] [--expires 2027-01-01T00:00:00Z]
//                 (a principal that exists gets one more key: rotation without downtime)
//   npm run keys -- list
//   npm run keys -- revoke <key id or prefix>
//
// `create` prints the secret alone on stdout (shown once, stored only as a hash); the rest goes to stderr.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_DATABASE_URL } from '../config.ts';
import { openDatabase, type Database } from '../infra/database.ts';
import { applyMigrations } from '../infra/migrations.ts';
import { sqliteAddonProblemFor } from '../infra/native-check.ts';
import { DomainError } from '../domain/errors.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';
import { createApiKey, createPrincipal, PRINCIPAL_KINDS, revokeApiKey, type PrincipalKind } from '../modules/identity/keys.service.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    kind: { type: 'string', default: 'SERVICE' },
    admin: { type: 'boolean', default: false },
    'key-name': { type: 'string', default: 'default' },
    expires: { type: 'string' },
  },
});

async function create(database: Database): Promise<void> {
  if (!values.name) throw new UsageError('create needs --name <principal name>');
  const kind = values.kind.toUpperCase() as PrincipalKind;
  if (!PRINCIPAL_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${PRINCIPAL_KINDS.join(', ')}`);
  const expiresAt = values.expires ? new Date(values.expires) : null;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new UsageError('--expires must be an ISO-8601 instant');
  const db = database.prisma;
  const existing = await db.principal.findUnique({ where: { name: values.name } });
  const principal = existing ?? (await createPrincipal(db, { name: values.name, kind, admin: values.admin }));
  if (!existing) await audit(database, 'createPrincipal', [principal.id], {});
  const { key, secret } = await createApiKey(db, { principalId: principal.id, name: values['key-name'], expiresAt });
  await audit(database, 'createApiKey', [principal.id, key.id], { prefix: key.prefix });
  console.error(`Key ${key.prefix}… (${key.id}) for ${principal.kind.toLowerCase()} "${principal.name}"${values.admin ? ' (admin)' : ''}. It is shown once:`);
  console.log(secret);
}

async function list(database: Database): Promise<void> {
  const keys = await database.prisma.apiKey.findMany({ include: { principal: true }, orderBy: { createdAt: 'asc' } });
  for (const k of keys) {
    const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : k.expiresAt ? `expires ${k.expiresAt.toISOString()}` : 'active';
    console.log(`${k.id}  ${k.prefix}…  ${k.principal.name} (${k.principal.kind})  ${k.name}  ${state}  last used ${k.lastUsedAt?.toISOString() ?? 'never'}`);
  }
}

async function revoke(database: Database, which: string | undefined): Promise<void> {
  if (!which) throw new UsageError('revoke needs a key id or prefix');
  const matches = await database.prisma.apiKey.findMany({ where: { OR: [{ id: which }, { prefix: which }] } });
  if (matches.length !== 1) throw new UsageError(`${matches.length} keys match "${which}"`);
  const key = await revokeApiKey(database.prisma, matches[0]!.id);
  await audit(database, 'revokeApiKey', [key.id, key.principalId], { prefix: key.prefix });
  console.error(`Revoked ${key.prefix}… (${key.id}) at ${key.revokedAt?.toISOString()}`);
}

/** Key changes made here are in the audit log as the API's are (same operation names), `via: "cli"` and the OS user. */
function audit(database: Database, operation: string, targetIds: string[], detail: Record<string, unknown>): Promise<void> {
  return recordAudit(database.prisma, {
    category: 'IDENTITY',
    operation,
    targetIds,
    outcome: 'OK',
    detail: { ...detail, via: 'cli', user: osUser() },
  });
}

/** Who runs this command, as the OS knows it (null where the user has no name, as in some containers). */
function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

class UsageError extends Error {}

const url = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
let code = 0;
try {
  // A better-sqlite3 built for another Node would otherwise fail as "External error id#0".
  const problem = sqliteAddonProblemFor(url);
  if (problem) throw new UsageError(problem);
  await applyMigrations(url);
  const database = await openDatabase(url);
  try {
    const command = positionals[0];
    if (command === 'create') await create(database);
    else if (command === 'list') await list(database);
    else if (command === 'revoke') await revoke(database, positionals[1]);
    else throw new UsageError('Usage: npm run keys -- create --name <name> [--admin] | list | revoke <id or prefix>');
  } finally {
    await database.close();
  }
} catch (error) {
  code = error instanceof UsageError || error instanceof DomainError ? 2 : 1;
  console.error(error instanceof UsageError || error instanceof DomainError ? error.message : error);
}
// A PostgreSQL pool would keep the process alive for a while after the work is done.
process.exit(code);
