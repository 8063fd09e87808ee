import type { Db } from '../../infra/database.ts';
import { isForeignKeyViolation, isRecordNotFound } from '../../infra/prisma-errors.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Grant } from '../../generated/sqlite/client.ts';
import type { Role } from './access.service.ts';

/**
 * Gives a principal a role on a scope (and everything below it), replacing the role it held on
 * that scope. Who may do it (ADMIN on the scope) is the field's rule.
 */
export async function grantRole(db: Db, input: { principalId: string; scopeId: string; role: Role }): Promise<Grant> {
  try {
    return await db.grant.upsert({
      where: { principalId_scopeId: { principalId: input.principalId, scopeId: input.scopeId } },
      create: input,
      update: { role: input.role },
    });
  } catch (error) {
    // The rule already read the scope; a missing principal is the foreign key's to report.
    if (isForeignKeyViolation(error)) throw new NotFoundError('No principal has this id', ['input', 'principal']);
    throw error;
  }
}

/** Removes a grant (the principal keeps those it holds elsewhere); returns it as it was. */
export async function revokeGrant(db: Db, id: string): Promise<Grant> {
  try {
    return await db.grant.delete({ where: { id } });
  } catch (error) {
    if (isRecordNotFound(error)) throw new NotFoundError('No grant has this id', ['input', 'id']);
    throw error;
  }
}
