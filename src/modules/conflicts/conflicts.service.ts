import { InvalidStateError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import type { Conflict, EntryVersion, Prisma } from '../../generated/sqlite/client.ts';
import {
  VERSION_FIELDS,
  appendVersion,
  checkVersion,
  type EntryKind,
  type VersionFields,
} from '../entries/entries.service.ts';
import { scopeSubtreeWhere } from '../scopes/scope-where.ts';

export const RESOLUTION_STRATEGIES = ['KEEP_CURRENT', 'TAKE_INCOMING', 'MERGE'] as const;
export type ResolutionStrategy = (typeof RESOLUTION_STRATEGIES)[number];
/** Stored in Conflict.resolution. */
export const RESOLUTIONS: Record<ResolutionStrategy, string> = {
  KEEP_CURRENT: 'KEPT_CURRENT',
  TAKE_INCOMING: 'TOOK_INCOMING',
  MERGE: 'MERGED',
};

export interface ConflictFilter {
  scopeId?: string | null;
  includeDescendants?: boolean | null;
  resolved?: boolean | null;
  kind?: EntryKind | null;
}

/** Conflicts of entries in a scope (and, on request, the scopes below it: the tree is 4 deep). */
export function conflictWhere(filter: ConflictFilter): Prisma.ConflictWhereInput {
  const scope = filter.scopeId ? scopeSubtreeWhere(filter.scopeId, filter.includeDescendants) : undefined;
  return {
    ...(filter.resolved != null ? { resolved: filter.resolved } : {}),
    ...(scope || filter.kind ? { entry: { ...(scope ? { scope } : {}), ...(filter.kind ? { kind: filter.kind } : {}) } } : {}),
  };
}

export interface ResolveConflictInput {
  id: string;
  strategy: ResolutionStrategy;
  /** MERGE: the merged content; fields left out carry over from the incoming version. */
  merged?: VersionFields | null;
  note?: string | null;
  resolvedBy?: string | null;
}

export interface ResolveConflictResult {
  conflict: Conflict;
  /** The version the resolution wrote; null when the adopted content was already current. */
  version: EntryVersion | null;
}

/**
 * Settles a conflict. Nothing is deleted: adopting content that is not the entry's current
 * version appends a new version with it. Resolving twice is an InvalidStateError.
 */
export async function resolveConflict(deps: WriteDeps, input: ResolveConflictInput): Promise<ResolveConflictResult> {
  const c = new Checker();
  c.text(input.note, ['input', 'note'], LIMITS.changeReason);
  c.text(input.resolvedBy, ['input', 'resolvedBy'], LIMITS.author);
  if (input.strategy === 'MERGE' && !input.merged) c.fail(['input', 'merged'], 'is required for MERGE');
  if (input.strategy !== 'MERGE' && input.merged) c.fail(['input', 'merged'], 'is only for MERGE');
  c.done();
  return writeTransaction(deps, async (tx, emit) => {
    const now = new Date();
    // Claim the conflict first: of two concurrent resolutions exactly one updates the row.
    const { count } = await tx.conflict.updateMany({
      where: { id: input.id, resolved: false },
      data: {
        resolved: true,
        resolution: RESOLUTIONS[input.strategy],
        note: input.note ?? null,
        resolvedAt: now,
        resolvedBy: input.resolvedBy ?? null,
      },
    });
    const conflict = await tx.conflict.findUnique({
      where: { id: input.id },
      include: { versionA: true, versionB: true, entry: { select: { kind: true, currentVersionId: true, scopeId: true } } },
    });
    if (!conflict) throw new NotFoundError('No conflict has this id', ['input', 'id']);
    if (count === 0) throw new InvalidStateError('The conflict is already resolved', 'RESOLVED', ['input', 'id']);
    const kind = conflict.entry.kind as EntryKind;
    if (input.merged) {
      const m = new Checker();
      checkVersion(m, kind, input.merged, false);
      for (const issue of m.issues) issue.path = ['input', 'merged', ...issue.path.slice(1)];
      m.done();
    }
    const adopted =
      input.strategy === 'KEEP_CURRENT' ? conflict.versionA : input.strategy === 'TAKE_INCOMING' ? conflict.versionB : null;
    let version: EntryVersion | null = null;
    if (!adopted || adopted.id !== conflict.entry.currentVersionId) {
      const base = adopted ?? conflict.versionB;
      const content = Object.fromEntries(VERSION_FIELDS[kind].map((f) => [f, base[f]])) as VersionFields;
      const result = await appendVersion(
        tx,
        emit,
        deps,
        {
          kind,
          id: conflict.entryId,
          version: { ...content, ...(input.merged ?? {}) },
          author: input.resolvedBy ?? null,
          changeReason:
            input.strategy === 'MERGE'
              ? `Resolved a conflict between versions ${conflict.versionA.version} and ${conflict.versionB.version} by merging`
              : `Resolved a conflict by adopting version ${adopted!.version}`,
        },
        false,
      );
      version = result.version;
    }
    const { versionA: _a, versionB: _b, entry, ...row } = conflict;
    const settled = version ? await tx.conflict.update({ where: { id: row.id }, data: { resolutionVersionId: version.id } }) : row;
    emit({ topic: 'conflict', payload: { type: 'RESOLVED', conflictId: row.id, entryId: row.entryId, scopeId: entry.scopeId } });
    return { conflict: settled, version };
  });
}
