import type { Db, Tx } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import {
  AlreadyExistsError,
  InvalidPlacementError,
  InvalidStateError,
  NotFoundError,
} from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { Prisma, type Scope } from '../../generated/sqlite/client.ts';

export const SCOPE_KINDS = ['GLOBAL', 'ORGANIZATION', 'PROJECT', 'SESSION'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
export const SESSION_STATUSES = ['ACTIVE', 'PAUSED', 'COMPLETED', 'DISCARDED'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const SESSION_MODES = ['WORKING_PERIOD', 'SCRATCH'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];

/** The root of the tree; created by the first migration. */
export const GLOBAL_SCOPE_ID = 'global';

/** Which kinds of parent each kind of scope may have. */
const ALLOWED_PARENTS: Record<Exclude<ScopeKind, 'GLOBAL'>, readonly ScopeKind[]> = {
  ORGANIZATION: ['GLOBAL'],
  PROJECT: ['GLOBAL', 'ORGANIZATION'],
  SESSION: ['PROJECT'],
};

type Json = Prisma.InputJsonValue;

async function parentFor(db: Db | Tx, kind: Exclude<ScopeKind, 'GLOBAL'>, parentId: string, path: string[]) {
  const parent = await db.scope.findUnique({ where: { id: parentId }, select: { id: true, kind: true } });
  if (!parent) throw new NotFoundError('No scope has this id', path);
  if (!ALLOWED_PARENTS[kind].includes(parent.kind as ScopeKind)) {
    throw new InvalidPlacementError(
      `A ${kind.toLowerCase()} cannot be placed under a ${parent.kind.toLowerCase()} scope (allowed: ${ALLOWED_PARENTS[kind].join(', ').toLowerCase()})`,
      path,
    );
  }
  return parent;
}

async function createScope(db: Db | Tx, data: Prisma.ScopeUncheckedCreateInput): Promise<Scope> {
  try {
    return await db.scope.create({ data });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AlreadyExistsError(`A sibling scope is already named "${data.name}"`, ['input', 'name']);
    }
    throw error;
  }
}

export interface CreateOrganizationInput {
  name: string;
  description?: string | null;
  metadata?: Json | null;
}

export async function createOrganization(db: Db, input: CreateOrganizationInput): Promise<Scope> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name, true);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  return createScope(db, {
    kind: 'ORGANIZATION',
    parentId: GLOBAL_SCOPE_ID,
    name: input.name.trim(),
    description: input.description ?? null,
    metadata: input.metadata ?? undefined,
  });
}

export interface CreateProjectInput {
  name: string;
  /** Organization or global scope; global when absent. */
  parentId?: string | null;
  description?: string | null;
  rootPath?: string | null;
  metadata?: Json | null;
}

export async function createProject(db: Db, input: CreateProjectInput): Promise<Scope> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name, true);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.text(input.rootPath, ['input', 'rootPath'], LIMITS.rootPath);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  const parent = await parentFor(db, 'PROJECT', input.parentId ?? GLOBAL_SCOPE_ID, ['input', 'parent']);
  return createScope(db, {
    kind: 'PROJECT',
    parentId: parent.id,
    name: input.name.trim(),
    description: input.description ?? null,
    rootPath: input.rootPath ?? null,
    metadata: input.metadata ?? undefined,
  });
}

export interface UpdateProjectInput {
  id: string;
  name?: string | null;
  description?: string | null;
  rootPath?: string | null;
  metadata?: Json | null;
}

/** Absent fields stay; `null` clears description, rootPath and metadata. */
export async function updateProject(db: Db, input: UpdateProjectInput): Promise<Scope> {
  const c = new Checker();
  if (input.name === null) c.fail(['input', 'name'], 'cannot be cleared');
  c.text(input.name, ['input', 'name'], LIMITS.name, input.name !== undefined);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.text(input.rootPath, ['input', 'rootPath'], LIMITS.rootPath);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  const existing = await db.scope.findUnique({ where: { id: input.id }, select: { kind: true } });
  if (!existing || existing.kind !== 'PROJECT') throw new NotFoundError('No project has this id', ['input', 'id']);
  try {
    return await db.scope.update({
      where: { id: input.id },
      data: {
        ...(input.name != null ? { name: input.name.trim() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.rootPath !== undefined ? { rootPath: input.rootPath } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata ?? Prisma.DbNull } : {}),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AlreadyExistsError(`A sibling scope is already named "${input.name}"`, ['input', 'name']);
    }
    throw error;
  }
}

export interface StartSessionInput {
  projectId: string;
  name?: string | null;
  purpose?: string | null;
  agentId?: string | null;
  mode?: SessionMode | null;
  metadata?: Json | null;
}

export async function startSession(deps: WriteDeps, input: StartSessionInput): Promise<Scope> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name);
  c.text(input.purpose, ['input', 'purpose'], LIMITS.description);
  c.text(input.agentId, ['input', 'agentId'], LIMITS.agentId);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  c.done();
  return writeTransaction(deps, async (tx, emit) => {
    const parent = await parentFor(tx, 'SESSION', input.projectId, ['input', 'project']);
    const session = await createScope(tx, {
    kind: 'SESSION',
    parentId: parent.id,
    name: input.name?.trim() || null,
    purpose: input.purpose ?? null,
    agentId: input.agentId ?? null,
    status: 'ACTIVE',
    mode: input.mode ?? 'WORKING_PERIOD',
    startedAt: new Date(),
    metadata: input.metadata ?? undefined,
    });
    emit({ topic: 'sessionEvent', payload: { type: 'STARTED', sessionId: session.id, projectId: parent.id } });
    return session;
  });
}

export interface EndSessionInput {
  id: string;
  status?: 'COMPLETED' | 'DISCARDED' | null;
}

export async function endSession(deps: WriteDeps, input: EndSessionInput): Promise<Scope> {
  const status = input.status ?? 'COMPLETED';
  return writeTransaction(deps, async (tx, emit) => {
    // The status guard in the WHERE clause makes the check and the write one atomic statement.
    const { count } = await tx.scope.updateMany({
      where: { id: input.id, kind: 'SESSION', status: { in: ['ACTIVE', 'PAUSED'] } },
      data: { status, endedAt: new Date() },
    });
    const session = await tx.scope.findUnique({ where: { id: input.id } });
    if (!session || session.kind !== 'SESSION') throw new NotFoundError('No session has this id', ['input', 'id']);
    if (count === 0) {
      throw new InvalidStateError(
        `The session has already ended (status ${session.status})`,
        session.status ?? 'UNKNOWN',
        ['input', 'id'],
      );
    }
    emit({ topic: 'sessionEvent', payload: { type: 'ENDED', sessionId: session.id, projectId: session.parentId! } });
    return session;
  });
}
