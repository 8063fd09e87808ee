import type { Context } from '../context.ts';
import { PermissionDeniedError } from '../domain/errors.ts';
import type { Role } from '../modules/identity/access.service.ts';
import { allows, type Target, type TargetKind } from '../modules/identity/targets.ts';
import { decodeId } from './ids.ts';

/**
 * Access rules for fields (`authScopes` of @pothos/plugin-scope-auth). Every root field states one;
 * test/access-rules.test.ts fails for a field without.
 */

/** Any caller with a grant somewhere; what the field returns is then filtered by its grants. */
export const MEMBER = { member: true } as const;

/** Callers that may do everything (ADMIN on global, local in protected mode, AUTH=off). */
export const ADMIN = { admin: true } as const;

/** The caller must hold `role` on the scope of the row a global ID names (decoded and checked here). */
export function can(
  role: Role,
  kind: TargetKind,
  globalId: string | number,
  typenames: readonly string[],
  path: string[],
  options: Pick<Target, 'label' | 'quiet' | 'reuseKnown'> = {},
): { can: Target } {
  return { can: { role, kind, id: decodeId(String(globalId), typenames, path), path, ...options } };
}

/** The same for a database id already known (e.g. the global scope's). */
export function canOn(role: Role, kind: TargetKind, id: string, path: string[], options: Pick<Target, 'label' | 'quiet'> = {}): { can: Target } {
  return { can: { role, kind, id, path, ...options } };
}

/** What a refused rule answers (scope-auth's `unauthorizedError`, and a rule decided again in a resolver). */
export const refused = () => new PermissionDeniedError('The caller has no grant allowing this');

/**
 * Whether the caller passes a `can` rule, as scope-auth decides it (builder.ts). A caller who may
 * do everything passes a row's rule unread (what it guards reads the row, and answers NotFound
 * for a missing one), but not a scope's: many fields answer from the scope id alone (a list of
 * its rows, empty for an id nothing has), so an unknown scope is NotFound to such a caller too,
 * as to every other. Its chain is read once a second at most (GrantCache), and memoryQuery's
 * plan reads it anyway.
 */
export function passes(ctx: Pick<Context, 'db' | 'access'>, target: Target): Promise<boolean> | true {
  return (ctx.access.everything && target.kind !== 'scope') || allows(ctx.db, ctx.access, target);
}
