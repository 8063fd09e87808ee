import type { Role } from '../modules/identity/access.service.ts';
import type { Target, TargetKind } from '../modules/identity/targets.ts';
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
