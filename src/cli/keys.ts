// `engram keys`: API keys from the command line, so the first key can be made on a fresh server
// (no key yet means protected mode: only this machine is answered). Works on DATABASE_URL.
// `create` prints the secret alone on stdout (shown once, stored only as a hash); the rest goes to stderr.
import { userInfo } from 'node:os';
import type { Database } from '../infra/database.ts';
import { UsageError } from './exit.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';
import { PRINCIPAL_KINDS, type PrincipalKind } from '../domain/principal-kinds.ts';
import { createApiKey, createPrincipal, revokeApiKey } from '../modules/identity/keys.service.ts';

export interface CreateKeyOptions {
  name: string;
  kind: string;
  admin: boolean;
  keyName: string;
  expires?: string;
}

/** A key for the principal `name`, made with it when it does not exist (one more key: rotation without downtime). */
export async function createKey(database: Database, values: CreateKeyOptions): Promise<void> {
  const kind = values.kind.toUpperCase() as PrincipalKind;
  if (!PRINCIPAL_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${PRINCIPAL_KINDS.join(', ')}`);
  const expiresAt = values.expires ? new Date(values.expires) : null;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new UsageError('--expires must be an ISO-8601 instant');
  const db = database.prisma;
  const existing = await db.principal.findUnique({ where: { name: values.name } });
  const principal = existing ?? (await createPrincipal(db, { name: values.name, kind, admin: values.admin }));
  if (!existing) await audit(database, 'createPrincipal', [principal.id], {});
  const { key, secret } = await createApiKey(db, { principalId: principal.id, name: values.keyName, expiresAt });
  await audit(database, 'createApiKey', [principal.id, key.id], { prefix: key.prefix });
  console.error(`Key ${key.prefix}… (${key.id}) for ${principal.kind.toLowerCase()} "${principal.name}"${values.admin ? ' (admin)' : ''}. It is shown once:`);
  console.log(secret);
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
