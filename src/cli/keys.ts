// `engram keys`: API keys from the command line, so the first key can be made on a fresh server
// (no key yet means protected mode: only this machine is answered). Works on DATABASE_URL.
// `create` prints the secret alone on stdout (shown once, stored only as a hash); the rest goes to stderr.
import { userInfo } from 'node:os';
import type { Database } from '../infra/database.ts';
import { GLOBAL_SCOPE_ID } from '../modules/scopes/scopes.service.ts';
import { UsageError } from './exit.ts';
import { ValidationError } from '../domain/errors.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';
import { PRINCIPAL_KINDS, type PrincipalKind } from '../domain/principal-kinds.ts';
import { instantProblem } from '../domain/validate.ts';
import { createApiKey, createPrincipal, revokeApiKey } from '../modules/identity/keys.service.ts';

export interface CreateKeyOptions {
  name: string;
  /** Of a new principal (default SERVICE); given for an existing one, it must be its kind. */
  kind?: string;
  /** A new principal is an admin; given for an existing one, it must be one. */
  admin: boolean;
  keyName: string;
  expires?: string;
}

/**
 * A key for the principal `name`, made with it when it does not exist (one more key: rotation
 * without downtime). All or nothing: a key refused (an expiry past) leaves no new principal.
 */
export async function createKey(database: Database, values: CreateKeyOptions): Promise<void> {
  const kind = (values.kind ?? 'SERVICE').toUpperCase() as PrincipalKind;
  if (!PRINCIPAL_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${PRINCIPAL_KINDS.join(', ')}`);
  // What the API's DateTime takes, no more: `new Date` alone took a date without a time (as UTC midnight) and years past 9999.
  const problem = values.expires === undefined ? null : instantProblem(values.expires);
  if (problem) throw new UsageError(`--expires ${problem}, got "${values.expires}"`);
  const expiresAt = values.expires === undefined ? null : new Date(values.expires);
  // The principal and its key in one transaction; the audit rows go straight to the log after
  // (recordAudit writes outside any transaction, as it does for the API's key changes).
  const { principal, key, secret, admin, created } = await database.prisma.$transaction(async (tx) => {
    const existing = await tx.principal.findUnique({ where: { name: values.name }, include: { grants: { where: ADMIN_GRANT, select: { id: true } } } });
    if (existing) refuseOtherPrincipal(existing, existing.grants.length > 0, values);
    const principal = existing ?? (await asFlag('--name', () => createPrincipal(tx, { name: values.name, kind, admin: values.admin })));
    const made = await asFlag('--key-name', () => createApiKey(tx, { principalId: principal.id, name: values.keyName, expiresAt }));
    return { principal, ...made, admin: existing ? existing.grants.length > 0 : values.admin, created: !existing };
  });
  if (created) await audit(database, 'createPrincipal', [principal.id], {});
  await audit(database, 'createApiKey', [principal.id, key.id], { prefix: key.prefix });
  console.error(`Key ${key.prefix}… (${key.id}) for ${principal.kind.toLowerCase()} "${principal.name}"${admin ? ' (admin)' : ''}. It is shown once:`);
  console.log(secret);
}

/** `write`, with a refusal of its input's name told as one of the flag that gave it (not `input.name`). */
async function asFlag<T>(flag: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.issues.map((issue) => (issue.path.join('.') === 'input.name' ? { ...issue, path: [flag] } : issue)));
  }
}

/** What makes a principal an admin (see createPrincipal). */
const ADMIN_GRANT = { scopeId: GLOBAL_SCOPE_ID, role: 'ADMIN' } as const;

/**
 * `--kind` and `--admin` describe a new principal. For one that exists they are no way to change
 * it (grants are the API's: grantRole), so one that says otherwise is refused rather than ignored.
 */
function refuseOtherPrincipal(existing: { name: string; kind: string }, admin: boolean, values: CreateKeyOptions): void {
  const kind = values.kind?.toUpperCase();
  if (kind && kind !== existing.kind) {
    throw new UsageError(`"${existing.name}" exists as ${existing.kind.toLowerCase()}, not ${kind.toLowerCase()}: --kind applies to a new principal only`);
  }
  if (values.admin && !admin) throw new UsageError(`"${existing.name}" exists and is not an admin: --admin applies to a new principal only (grant ADMIN with the grantRole mutation)`);
}

export async function listKeys(database: Database, json: boolean): Promise<void> {
  const keys = await database.prisma.apiKey.findMany({ include: { principal: true }, orderBy: { createdAt: 'asc' } });
  if (json) {
    // One JSON object per line; never the hash.
    for (const { id, prefix, name, principal, createdAt, expiresAt, revokedAt, lastUsedAt } of keys) {
      console.log(JSON.stringify({ id, prefix, name, principal: { id: principal.id, name: principal.name, kind: principal.kind }, createdAt, expiresAt, revokedAt, lastUsedAt }));
    }
    return;
  }
  // On stderr, as the other commands' remarks: stdout holds the keys alone.
  if (!keys.length) console.error('No API keys yet: `engram keys create --name <principal>` makes one (the first ends protected mode).');
  for (const k of keys) {
    const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : k.expiresAt ? `expires ${k.expiresAt.toISOString()}` : 'active';
    console.log(`${k.id}  ${k.prefix}…  ${k.principal.name} (${k.principal.kind})  ${k.name}  ${state}  last used ${k.lastUsedAt?.toISOString() ?? 'never'}`);
  }
}

export async function revokeKey(database: Database, which: string): Promise<void> {
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
