import type { StateNamespace, StateOwners } from '../sessions/state.service.ts';
import type { Access } from './access.service.ts';

/**
 * Who reads and writes which state keys. temp: and session: keys are the session's (READ / WRITE on
 * it); project: keys the project's (READ to read, ADMIN to write); user: and app: keys belong to a
 * user or an application across every project, so only that user's or application's own principal
 * (the one named like it, or the one a service acts for) and admins of everything reach them.
 */
export interface StateGuard {
  canRead(namespace: StateNamespace, owner: string): Promise<boolean>;
  canWrite(namespace: StateNamespace, owner: string): Promise<boolean>;
}

/** `actingAs`: the caller's principal name and the principal it acts for, if any. */
export function stateGuard(access: Access, actingAs: readonly string[]): StateGuard {
  const may = async (namespace: StateNamespace, owner: string, write: boolean): Promise<boolean> => {
    if (access.everything) return true;
    switch (namespace) {
      case 'TEMP':
      case 'SESSION':
        return access.has(write ? 'WRITE' : 'READ', owner);
      case 'PROJECT':
        return access.has(write ? 'ADMIN' : 'READ', owner);
      case 'USER':
      case 'APP':
        return actingAs.includes(owner);
    }
  };
  return { canRead: (ns, owner) => may(ns, owner, false), canWrite: (ns, owner) => may(ns, owner, true) };
}

/** The owners whose keys the caller may read; the others are dropped (reads then skip them). */
export async function readableOwners(guard: StateGuard, owners: StateOwners): Promise<StateOwners> {
  const keep = async (ns: StateNamespace, owner: string | null) => (owner !== null && (await guard.canRead(ns, owner)) ? owner : null);
  return {
    sessionId: await keep('SESSION', owners.sessionId),
    userId: await keep('USER', owners.userId),
    appName: await keep('APP', owners.appName),
    projectId: await keep('PROJECT', owners.projectId),
  };
}
