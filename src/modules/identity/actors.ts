import { PermissionDeniedError, ValidationError } from '../../domain/errors.ts';
import type { Db } from '../../infra/database.ts';
import type { Caller } from './caller.ts';
import { screenSecrets } from '../redaction/redaction.service.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';

/** How a principal of each kind is named as an actor (`createdBy`, `agent:<id>` event actors). */
const PREFIX: Record<string, string> = { AGENT: 'agent', USER: 'user', SERVICE: 'service' };
const KIND_OF_PREFIX = new Map(Object.entries(PREFIX).map(([kind, prefix]) => [prefix, kind]));

/** The actor name a principal writes under by default: `agent:<name>`, `user:<name>`, `service:<name>`. */
export function actorName(principal: { name: string; kind: string }): string {
  return `${PREFIX[principal.kind] ?? 'agent'}:${principal.name}`;
}

/** The principal an actor string names: `<kind>:<name>` or a bare name. */
function parse(actor: string): { name: string; kind: string | null } {
  const colon = actor.indexOf(':');
  const kind = colon > 0 ? KIND_OF_PREFIX.get(actor.slice(0, colon)) : undefined;
  return kind ? { name: actor.slice(colon + 1), kind } : { name: actor, kind: null };
}

export interface BoundActor {
  /** Who the write is recorded as. */
  actor: string | null;
  /** The principal a service acts for (recorded beside the service itself), else null. */
  onBehalfOf: string | null;
}

/**
 * Binds an actor a caller names (the X-Engram-Actor header, an `author`) to the caller: a principal
 * may name only itself, unless it is a service allowed to act for others, which may name another
 * existing principal (then recorded as acting on its behalf). Callers without a principal (local
 * in protected mode, AUTH=off) are trusted, as before keys existed. Anything else is refused, and
 * a blank name is a ValidationError. A trusted caller's name is screened for secrets as a name
 * (the global scope's policy, as principals' names are): an actor is stored as every write's
 * author and event actor, and it is what a user's writes are found and erased by.
 */
export async function bindActor(db: Db, caller: Caller, named: string | null, path: string[]): Promise<BoundActor> {
  // A blank name ("", "user:") names nobody: recorded, it made writes that erasing the user "" took.
  if (named !== null && parse(named.trim()).name.trim() === '') throw new ValidationError([{ path, message: 'must name someone (it is blank)' }]);
  const self = caller.principal;
  if (!self) {
    // A principal's name was screened when it was created; only a trusted caller names anyone.
    if (named !== null) await screenSecrets(db, GLOBAL_SCOPE_ID, [{ path, value: named, isName: true }]);
    return { actor: named, onBehalfOf: null };
  }
  if (named === null) return { actor: actorName(self), onBehalfOf: null };
  const { name, kind } = parse(named);
  if (name === self.name && (kind === null || kind === self.kind)) return { actor: named, onBehalfOf: null };
  if (self.kind === 'SERVICE' && self.actsForOthers) {
    const other = await db.principal.findUnique({ where: { name }, select: { name: true, kind: true } });
    if (other && (kind === null || kind === other.kind)) return { actor: named, onBehalfOf: other.name };
  }
  throw new PermissionDeniedError(
    `${path.join('.') || 'The actor'} may only name the caller itself (${actorName(self)})` +
      (self.kind === 'SERVICE' ? ', or another principal when the service may act for others' : ''),
    path,
  );
}
