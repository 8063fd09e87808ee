import type { Db } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, InvalidPlacementError, NotFoundError } from '../../domain/errors.ts';
import type { Scope } from '../../generated/sqlite/client.ts';
import { GLOBAL_SCOPE_ID, updateScope, type ScopeChanges } from './scopes.service.ts';
import { forgetChains } from '../lifecycle/policies.service.ts';

/** Changes an organization: name, description, metadata. */
export function updateOrganization(db: Db, input: Omit<ScopeChanges, 'purpose' | 'rootPath'>): Promise<Scope> {
  return updateScope(db, 'ORGANIZATION', input);
}

/** Changes a session: name, purpose, metadata (not while it is archived). */
export function updateSession(db: Db, input: Omit<ScopeChanges, 'description' | 'rootPath'>): Promise<Scope> {
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
    const moved = await db.scope.update({ where: { id: input.id }, data: { parentId } });
    forgetChains(db);
    return moved;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlreadyExistsError('The destination already has a project of this name', ['input', 'organization']);
    throw error;
  }
}
