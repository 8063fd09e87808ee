import type { Db } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, InvalidPlacementError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { Prisma, type Scope } from '../../generated/sqlite/client.ts';
import { archivedError } from './archived.ts';
import { GLOBAL_SCOPE_ID } from './scopes.service.ts';

type Json = Prisma.InputJsonValue;

/** Changes of a scope's own fields; absent ones stay, null clears the optional ones. */
export interface ScopeChanges {
  id: string;
  name?: string | null;
  description?: string | null;
  purpose?: string | null;
  metadata?: Json | null;
}

async function updateScope(db: Db, kind: 'ORGANIZATION' | 'SESSION', input: ScopeChanges): Promise<Scope> {
  const c = new Checker();
  // A session's name is optional (null clears it); an organization's is not.
  if (kind === 'ORGANIZATION' && input.name === null) c.fail(['input', 'name'], 'cannot be cleared');
  c.text(input.name, ['input', 'name'], LIMITS.name, kind === 'ORGANIZATION' && input.name !== undefined);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.text(input.purpose, ['input', 'purpose'], LIMITS.description);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  const existing = await db.scope.findUnique({ where: { id: input.id }, select: { kind: true, status: true } });
  if (existing?.kind !== kind) throw new NotFoundError(`No ${kind.toLowerCase()} has this id`, ['input', 'id']);
  if (existing.status === 'ARCHIVED') throw archivedError(['input', 'id']);
  try {
    return await db.scope.update({
      where: { id: input.id },
      data: {
        ...(input.name !== undefined ? { name: input.name === null ? null : input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.purpose !== undefined ? { purpose: input.purpose } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata ?? Prisma.DbNull } : {}),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError(`A sibling scope is already named "${input.name}"`, ['input', 'name']);
    throw error;
  }
}

/** Changes an organization: name, description, metadata. */
export function updateOrganization(db: Db, input: Omit<ScopeChanges, 'purpose'>): Promise<Scope> {
  return updateScope(db, 'ORGANIZATION', input);
}

/** Changes a session: name, purpose, metadata (not while it is archived). */
export function updateSession(db: Db, input: Omit<ScopeChanges, 'description'>): Promise<Scope> {
  return updateScope(db, 'SESSION', input);
}

/**
 * Moves a project (with its sessions) under another organization, or directly under global
 * (`organizationId` null). A sibling of the same name there is an AlreadyExistsError.
 */
export async function moveProject(db: Db, input: { id: string; organizationId: string | null }): Promise<Scope> {
  const project = await db.scope.findUnique({ where: { id: input.id }, select: { kind: true } });
  if (project?.kind !== 'PROJECT') throw new NotFoundError('No project has this id', ['input', 'id']);
  const parentId = input.organizationId ?? GLOBAL_SCOPE_ID;
  const parent = await db.scope.findUnique({ where: { id: parentId }, select: { kind: true } });
  if (!parent) throw new NotFoundError('No scope has this id', ['input', 'organization']);
  if (parent.kind !== 'ORGANIZATION' && parent.kind !== 'GLOBAL') {
    throw new InvalidPlacementError(`A project goes under an organization or global, not a ${parent.kind.toLowerCase()}`, ['input', 'organization']);
  }
  try {
    return await db.scope.update({ where: { id: input.id }, data: { parentId } });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError('The destination already has a project of this name', ['input', 'organization']);
    throw error;
  }
}
