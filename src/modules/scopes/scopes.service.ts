import type { Db, Tx } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { isUniqueViolation } from '../../infra/prisma-errors.ts';
import { AlreadyExistsError, InvalidPlacementError, NotFoundError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { Prisma, type Scope } from '../../generated/sqlite/client.ts';
import { recordStart } from '../sessions/sessions.service.ts';
import { archivedError } from './archived.ts';

export const SCOPE_KINDS = ['GLOBAL', 'ORGANIZATION', 'PROJECT', 'SESSION'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
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

/** Why a scope of `kind` cannot go under one of `parentKind` (null: it can). The API's rule, which imports keep too. */
export function placementProblem(kind: ScopeKind, parentKind: string): string | null {
  if (kind === 'GLOBAL') return 'only the global scope is global, and it has no parent';
  if (ALLOWED_PARENTS[kind].includes(parentKind as ScopeKind)) return null;
  const a = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word.toLowerCase()}`;
  const self = a(kind);
  return `${self[0]!.toUpperCase()}${self.slice(1)} cannot be placed under ${a(parentKind)} scope (allowed: ${ALLOWED_PARENTS[kind].join(', ').toLowerCase()})`;
}

type Json = Prisma.InputJsonValue;

/** The scope whose id is `id`, or NotFoundError at `path`. */
export async function scopeById(db: Db | Tx, id: string, path: string[]): Promise<Scope> {
  const scope = await db.scope.findUnique({ where: { id } });
  if (!scope) throw new NotFoundError('No scope has this id', path);
  return scope;
}

async function parentFor(db: Db | Tx, kind: Exclude<ScopeKind, 'GLOBAL'>, parentId: string, path: string[]) {
  const parent = await db.scope.findUnique({ where: { id: parentId }, select: { id: true, kind: true } });
  if (!parent) throw new NotFoundError('No scope has this id', path);
  const problem = placementProblem(kind, parent.kind);
  if (problem) throw new InvalidPlacementError(problem, path);
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
  const parent = await parentFor(db, 'PROJECT', input.parentId ?? GLOBAL_SCOPE_ID, ['input', 'organization']);
  return createScope(db, {
    kind: 'PROJECT',
    parentId: parent.id,
    name: input.name.trim(),
    description: input.description ?? null,
    rootPath: input.rootPath ?? null,
    metadata: input.metadata ?? undefined,
  });
}

/** Changes of a scope's own fields; absent ones stay, null clears the optional ones. */
export interface ScopeChanges {
  id: string;
  name?: string | null;
  description?: string | null;
  /** Projects. */
  rootPath?: string | null;
  /** Sessions. */
  purpose?: string | null;
  metadata?: Json | null;
}

export type UpdateProjectInput = Omit<ScopeChanges, 'purpose'>;

/** Absent fields stay; `null` clears description, rootPath and metadata. */
export function updateProject(db: Db, input: UpdateProjectInput): Promise<Scope> {
  return updateScope(db, 'PROJECT', input);
}

/**
 * Changes a project, an organization or a session (the fields its kind has). Only a session's
 * name may be cleared; an archived session is read-only.
 */
export async function updateScope(db: Db, kind: 'ORGANIZATION' | 'PROJECT' | 'SESSION', input: ScopeChanges): Promise<Scope> {
  const c = new Checker();
  const named = kind !== 'SESSION';
  if (named && input.name === null) c.fail(['input', 'name'], 'cannot be cleared');
  c.text(input.name, ['input', 'name'], LIMITS.name, named && input.name !== undefined);
  c.text(input.description, ['input', 'description'], LIMITS.description);
  c.text(input.purpose, ['input', 'purpose'], LIMITS.description);
  c.text(input.rootPath, ['input', 'rootPath'], LIMITS.rootPath);
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
  userId?: string | null;
  appName?: string | null;
  mode?: SessionMode | null;
  autoPromote?: boolean | null;
  metadata?: Json | null;
  /** Who starts it (recorded on the first event). */
  actor?: string | null;
}

/** Starts an ACTIVE session in a project; its log opens with a LIFECYCLE event (sequence 1). */
export async function startSession(deps: WriteDeps, input: StartSessionInput): Promise<Scope> {
  const c = new Checker();
  c.text(input.name, ['input', 'name'], LIMITS.name);
  c.text(input.purpose, ['input', 'purpose'], LIMITS.description);
  c.text(input.agentId, ['input', 'agentId'], LIMITS.agentId);
  c.text(input.userId, ['input', 'userId'], LIMITS.userId);
  c.text(input.appName, ['input', 'appName'], LIMITS.appName);
  c.json(input.metadata, ['input', 'metadata'], { objectOnly: true });
  if (input.autoPromote && input.mode !== 'SCRATCH') c.fail(['input', 'autoPromote'], 'only a SCRATCH session promotes entries');
  c.done();
  return writeTransaction(deps, async (tx, emit) => {
    const parent = await parentFor(tx, 'SESSION', input.projectId, ['input', 'project']);
    const session = await createScope(tx, {
      kind: 'SESSION',
      parentId: parent.id,
      name: input.name?.trim() || null,
      purpose: input.purpose ?? null,
      agentId: input.agentId ?? null,
      userId: input.userId?.trim() || null,
      appName: input.appName?.trim() || null,
      status: 'ACTIVE',
      mode: input.mode ?? 'WORKING_PERIOD',
      autoPromote: input.autoPromote ?? false,
      eventCount: 1,
      startedAt: new Date(),
      metadata: input.metadata ?? undefined,
    });
    await recordStart(tx, emit, session, input.actor ?? null);
    return session;
  });
}
