import { createHash, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../infra/database.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { ApiKey, Principal } from '../../generated/sqlite/client.ts';
import type { PrincipalKind } from '../../domain/principal-kinds.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';

/** Every key starts with this, so a leaked one is recognizable (secret scanners, logs). */
export const KEY_PREFIX = 'egk_';
/** Characters of a key kept in clear to name it in listings: the prefix and 8 more. */
const SHOWN_CHARS = KEY_PREFIX.length + 8;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;

export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface CreatePrincipalInput {
  name: string;
  kind: PrincipalKind;
  /** An ADMIN grant on the global scope: manages keys and principals, writes app:/project: state. */
  admin?: boolean | null;
  /** SERVICE only: may name another principal as the actor of its writes. */
  actsForOthers?: boolean | null;
}

/**
 * A principal's or key's name screened for secrets (the global scope's policy) as a name: refused,
 * not redacted, since names tell principals and keys apart and are shown in lists, logs and the
 * audit. Here, not in the GraphQL layer, so that `engram keys create` is held to it too.
 */
async function screenName(db: Db | Tx, name: string): Promise<void> {
  // A transaction reads the scope's policy as the client does (the CLI creates within one).
  await screenSecrets(db as Db, GLOBAL_SCOPE_ID, [{ path: ['input', 'name'], value: name, isName: true }]);
}

export async function createPrincipal(db: Db | Tx, input: CreatePrincipalInput): Promise<Principal> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name, true);
  if (input.name && !NAME_PATTERN.test(input.name)) c.fail(['input', 'name'], 'must be letters, digits and . _ : @ - (not first)');
  if (input.actsForOthers && input.kind !== 'SERVICE') c.fail(['input', 'actsForOthers'], 'only a SERVICE may act for others');
  c.done();
  await screenName(db, input.name);
  try {
    return await db.principal.create({
      data: {
        name: input.name,
        kind: input.kind,
        actsForOthers: input.actsForOthers ?? false,
        ...(input.admin ? { grants: { create: { scopeId: GLOBAL_SCOPE_ID, role: 'ADMIN' } } } : {}),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError(`A principal named "${input.name}" exists`, ['input', 'name']);
    throw error;
  }
}

export interface CreateApiKeyInput {
  principalId: string;
  name: string;
  expiresAt?: Date | null;
}

/** A new key: the stored row, and the secret, which exists nowhere else and is shown once. */
export async function createApiKey(db: Db | Tx, input: CreateApiKeyInput, now = new Date()): Promise<{ key: ApiKey; secret: string }> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name, true);
  if (input.expiresAt && input.expiresAt <= now) c.fail(['input', 'expiresAt'], 'must be in the future');
  c.done();
  await screenName(db, input.name);
  // 32 random bytes: 256 bits, base64url.
  const secret = KEY_PREFIX + randomBytes(32).toString('base64url');
  try {
    const key = await db.apiKey.create({
      data: { principalId: input.principalId, name: input.name, prefix: secret.slice(0, SHOWN_CHARS), hash: hashKey(secret), expiresAt: input.expiresAt ?? null },
    });
    return { key, secret };
  } catch (error) {
    // The principal's row is the foreign key's to check: no read before the write.
    if (isForeignKeyViolation(error)) throw new NotFoundError('No such principal', ['input', 'principal']);
    throw error;
  }
}

/** Revokes a key (idempotent: a revoked key keeps its first revocation time). */
export async function revokeApiKey(db: Db, id: string, now = new Date()): Promise<ApiKey> {
  const key = await db.apiKey.findUnique({ where: { id } });
  if (!key) throw new NotFoundError('No such API key', ['input', 'id']);
  if (key.revokedAt) return key;
  return db.apiKey.update({ where: { id }, data: { revokedAt: now } });
}

/** Whether any key can still authenticate (no key: protected mode). */
export async function anyUsableKey(db: Db, now = new Date()): Promise<boolean> {
  const key = await db.apiKey.findFirst({
    where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { id: true },
  });
  return key !== null;
}

/** The principal behind a usable key, with whether it is an admin; null for an unknown, revoked or expired key. */
export async function principalOfKey(db: Db, secret: string, now = new Date()): Promise<AuthenticatedKey | null> {
  if (!secret.startsWith(KEY_PREFIX)) return null;
  const key = await db.apiKey.findUnique({
    where: { hash: hashKey(secret) },
    select: {
      id: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      principal: { select: { id: true, name: true, kind: true, actsForOthers: true, grants: { where: { scopeId: GLOBAL_SCOPE_ID, role: 'ADMIN' }, select: { id: true } } } },
    },
  });
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) return null;
  const { grants, ...principal } = key.principal;
  return { keyId: key.id, expiresAt: key.expiresAt, lastUsedAt: key.lastUsedAt, principal: { ...principal, admin: grants.length > 0 } };
}

export interface AuthenticatedKey {
  keyId: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  principal: { id: string; name: string; kind: string; admin: boolean; actsForOthers: boolean };
}

/** Records a key's use at most once a minute (a read must not become a write each time). */
export async function touchKey(db: Db, key: AuthenticatedKey, now = new Date()): Promise<void> {
  if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < 60_000) return;
  key.lastUsedAt = now;
  await db.apiKey.update({ where: { id: key.keyId }, data: { lastUsedAt: now } });
}
