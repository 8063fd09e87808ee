import type { Db } from '../../infra/database.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { Relation } from '../../generated/sqlite/client.ts';

export const RELATION_TYPES = ['APPLIES_TO', 'DEPENDS_ON', 'CONFLICTS_WITH', 'RELATED_TO'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export interface CreateRelationInput {
  type: RelationType;
  sourceId: string;
  target: { entryId: string } | { scopeId: string };
  author?: string | null;
}

export async function createRelation(db: Db, input: CreateRelationInput): Promise<Relation> {
  const c = new Checker();
  c.text(input.author, ['input', 'author'], LIMITS.author);
  if ('entryId' in input.target && input.target.entryId === input.sourceId) {
    c.fail(['input', 'target'], 'an entry cannot be related to itself');
  }
  c.done();
  const targetEntryId = 'entryId' in input.target ? input.target.entryId : null;
  const targetScopeId = 'scopeId' in input.target ? input.target.scopeId : null;
  return db.$transaction(async (tx) => {
    const [source, target] = await Promise.all([
      tx.entry.findUnique({ where: { id: input.sourceId }, select: { id: true } }),
      targetEntryId
        ? tx.entry.findUnique({ where: { id: targetEntryId }, select: { id: true } })
        : tx.scope.findUnique({ where: { id: targetScopeId! }, select: { id: true } }),
    ]);
    if (!source) throw new NotFoundError('No entry has this id', ['input', 'source']);
    if (!target) throw new NotFoundError(`No ${targetEntryId ? 'entry' : 'scope'} has this id`, ['input', 'target']);
    try {
      return await tx.relation.create({
        data: { type: input.type, sourceId: source.id, targetEntryId, targetScopeId, createdBy: input.author ?? null },
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AlreadyExistsError(`This ${input.type} relation already exists`, ['input', 'target']);
      }
      throw error;
    }
  });
}

export async function deleteRelation(db: Db, id: string): Promise<Relation> {
  try {
    return await db.relation.delete({ where: { id } });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2025') throw new NotFoundError('No relation has this id', ['input', 'id']);
    throw error;
  }
}
