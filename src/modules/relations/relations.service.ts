import type { Tx } from '../../infra/database.ts';
import { writeTransaction, type Emit, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import type { Relation } from '../../generated/sqlite/client.ts';

import { writableEntry } from '../scopes/archived.ts';

export const RELATION_TYPES = ['APPLIES_TO', 'DEPENDS_ON', 'CONFLICTS_WITH', 'RELATED_TO'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export interface CreateRelationInput {
  type: RelationType;
  sourceId: string;
  target: { entryId: string } | { scopeId: string };
  author?: string | null;
}

export async function createRelation(deps: WriteDeps, input: CreateRelationInput): Promise<Relation> {
  const c = new Checker();
  c.text(input.author, ['input', 'author'], LIMITS.author);
  if ('entryId' in input.target && input.target.entryId === input.sourceId) {
    c.fail(['input', 'target'], 'an entry cannot be related to itself');
  }
  c.done();
  const targetEntryId = 'entryId' in input.target ? input.target.entryId : null;
  const targetScopeId = 'scopeId' in input.target ? input.target.scopeId : null;
  return writeTransaction(deps, async (tx, emit) => {
    const [source, target] = await Promise.all([
      writableEntry(tx, input.sourceId, ['input', 'source']).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      }),
      targetEntryId
        ? tx.entry.findUnique({ where: { id: targetEntryId }, select: { id: true } })
        : tx.scope.findUnique({ where: { id: targetScopeId! }, select: { id: true } }),
    ]);
    if (!source) throw new NotFoundError('No entry has this id', ['input', 'source']);
    if (!target) throw new NotFoundError(`No ${targetEntryId ? 'entry' : 'scope'} has this id`, ['input', 'target']);
    try {
      const relation = await tx.relation.create({
        data: { type: input.type, sourceId: source.id, targetEntryId, targetScopeId, createdBy: input.author ?? null },
      });
      await emitRelationChange(tx, emit, relation, 'RELATED', input.author ?? null);
      return relation;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AlreadyExistsError(`This ${input.type} relation already exists`, ['input', 'target']);
      }
      throw error;
    }
  });
}

export async function deleteRelation(deps: WriteDeps, id: string, actor: string | null): Promise<Relation> {
  return writeTransaction(deps, async (tx, emit) => {
    const relation = await tx.relation.findUnique({ where: { id } });
    if (!relation) throw new NotFoundError('No relation has this id', ['input', 'id']);
    await writableEntry(tx, relation.sourceId, ['input', 'id']);
    await tx.relation.delete({ where: { id } });
    await emitRelationChange(tx, emit, relation, 'UNRELATED', actor);
    return relation;
  });
}

/** A relation changes its source entry and, when it points at one, its target entry. */
async function emitRelationChange(tx: Tx, emit: Emit, relation: Relation, type: 'RELATED' | 'UNRELATED', actor: string | null) {
  const ids = relation.targetEntryId ? [relation.sourceId, relation.targetEntryId] : [relation.sourceId];
  const entries = await tx.entry.findMany({ where: { id: { in: ids } }, select: { id: true, scopeId: true } });
  for (const entry of entries) {
    emit({ topic: 'entryChanged', payload: { type, entryId: entry.id, scopeId: entry.scopeId, versionId: null, actor } });
  }
}
