import {
  AlreadyExistsError,
  DomainError,
  InvalidPlacementError,
  InvalidStateError,
  NotFoundError,
  PermissionDeniedError,
  UnmetDependenciesError,
  ValidationError,
  WriteConflictError,
  type FieldIssue,
} from '../domain/errors.ts';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from './builder.ts';
import { allows } from '../modules/identity/targets.ts';
import { VERSION_TYPENAME } from './ids.ts';

/** Fields every expected-failure type carries. */
export const UserErrorRef = builder.interfaceRef<DomainError>('UserError').implement({
  description: 'An expected failure of a mutation. Nothing was written.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'Human-readable explanation.' }),
    code: t.exposeString('code', { description: 'Stable machine-readable code, also used as `extensions.code`.' }),
    path: t.exposeStringList('inputPath', { description: 'Input path of the offending value, e.g. ["input", "name"].' }),
  }),
});

const FieldIssueRef = builder.objectRef<FieldIssue>('FieldIssue').implement({
  description: 'One invalid input value.',
  fields: (t) => ({
    path: t.exposeStringList('path', { description: 'Input path of the value.' }),
    message: t.exposeString('message', { description: 'What is wrong with it.' }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'A referenced object does not exist (or is not of the expected type).',
  interfaces: [UserErrorRef],
  fields: () => ({}),
});

builder.objectType(AlreadyExistsError, {
  name: 'AlreadyExistsError',
  description: 'A uniqueness rule would be broken, e.g. a second tool with the same name in one scope.',
  interfaces: [UserErrorRef],
  fields: () => ({}),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'The input broke one or more rules (length, range, size, format).',
  interfaces: [UserErrorRef],
  fields: (t) => ({
    issues: t.field({ type: [FieldIssueRef], description: 'Every invalid value.', resolve: (e) => e.issues }),
  }),
});

builder.objectType(InvalidPlacementError, {
  name: 'InvalidPlacementError',
  description: 'The scope tree does not allow this placement, e.g. a session under an organization.',
  interfaces: [UserErrorRef],
  fields: () => ({}),
});

builder.objectType(InvalidStateError, {
  name: 'InvalidStateError',
  description: "The target's current state does not allow the operation.",
  interfaces: [UserErrorRef],
  fields: (t) => ({
    currentState: t.exposeString('currentState', { description: 'The state the target is in.' }),
  }),
});

builder.objectType(WriteConflictError, {
  name: 'WriteConflictError',
  description: 'A write refused under `onConflict: REJECT`: another writer got there first. Nothing was written.',
  interfaces: [UserErrorRef],
  fields: (t) => ({
    currentVersion: t.exposeInt('currentVersion', { description: 'Number of the version the entry is at now.' }),
    currentVersionId: t.id({
      description: 'Global ID of that version (a ToolVersion, GuidelineVersion or KnowledgeVersion).',
      resolve: (e) => encodeGlobalID(VERSION_TYPENAME[e.kind] ?? 'EntryVersion', e.currentVersionId),
    }),
  }),
});

builder.objectType(PermissionDeniedError, {
  name: 'PermissionDeniedError',
  description: 'The caller may not do this, e.g. write app: or project: state without an elevated role.',
  interfaces: [UserErrorRef],
  fields: () => ({}),
});

builder.objectType(UnmetDependenciesError, {
  name: 'UnmetDependenciesError',
  description: 'A task cannot be marked DONE while tasks it depends on are not DONE.',
  interfaces: [UserErrorRef],
  fields: (t) => ({
    blockingTaskIds: t.idList({
      description: 'Global IDs of the dependencies that are not done and that the caller may read (the message counts them all).',
      // A dependency may be a task of a scope the caller cannot read (one an admin linked).
      resolve: async (e, _args, ctx) => {
        const readable = await Promise.all(e.blockingTaskIds.map((id) => allows(ctx.db, ctx.access, { role: 'READ', kind: 'task', id, path: [], quiet: true })));
        return e.blockingTaskIds.filter((_id, i) => readable[i]).map((id) => encodeGlobalID('Task', id));
      },
    }),
  }),
});

/**
 * What each write's result union lists is what that write can return (an error a write cannot meet
 * is not offered to clients to handle). Most writes can meet these three: bad input, a target that
 * is not there (or not the caller's to see), and a refused grant.
 */
export const WRITE_ERRORS = [NotFoundError, ValidationError, PermissionDeniedError] as const;
/** Writes that take a name (or a pair) that must be unique, and can find it taken. */
export const NAMING_ERRORS = [...WRITE_ERRORS, AlreadyExistsError] as const;
/** Writes that name something new at the top (no target to miss): bad input, refused, name taken. */
export const CREATE_ERRORS = [ValidationError, PermissionDeniedError, AlreadyExistsError] as const;
export {
  AlreadyExistsError,
  DomainError,
  InvalidPlacementError,
  InvalidStateError,
  NotFoundError,
  PermissionDeniedError,
  UnmetDependenciesError,
  ValidationError,
  WriteConflictError,
};
