import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Db } from '../../infra/database.ts';
import type { Scope } from '../../generated/sqlite/client.ts';
import { mapInLists } from '../../infra/id-lists.ts';
import { isRecordNotFound } from '../../infra/prisma-errors.ts';
import { scopeChainIds } from '../../infra/scope-chain.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';
import { findSecrets, redact } from './secrets.ts';

export const SECRET_POLICIES = ['REDACT', 'REFUSE', 'ALLOW'] as const;
export type SecretPolicy = (typeof SECRET_POLICIES)[number];

/** What a scope gets when neither it nor an ancestor sets a policy. */
export const DEFAULT_SECRET_POLICY: SecretPolicy = 'REDACT';

/** How long one instance reuses a scope's effective policy (a change through it is seen at once). */
const POLICY_CACHE_MS = 1_000;
const policiesOf = ttlCachePer<Db, Promise<SecretPolicy>>(POLICY_CACHE_MS, 50_000);

/** The policy a scope applies: its own, else its nearest ancestor's, else the default. */
export function effectivePolicy(db: Db, scopeId: string | null): Promise<SecretPolicy> {
  const key = scopeId ?? GLOBAL_SCOPE_ID;
  return policiesOf(db).getOrLoad(key, () => readPolicy(db, key));
}

async function readPolicy(db: Db, scopeId: string): Promise<SecretPolicy> {
  const chain = (await scopeChainIds(db, scopeId)) ?? [GLOBAL_SCOPE_ID];
  const rows = await db.scope.findMany({ where: { id: { in: chain }, secretPolicy: { not: null } }, select: { id: true, secretPolicy: true } });
  const own = new Map(rows.map((r) => [r.id, r.secretPolicy as SecretPolicy]));
  return chain.map((id) => own.get(id)).find((p) => p !== undefined) ?? DEFAULT_SECRET_POLICY;
}

/** Sets (or with null clears) a scope's own policy and answers the scope; NotFoundError when there is no such scope. */
export async function setSecretPolicy(db: Db, scopeId: string, policy: SecretPolicy | null): Promise<Scope> {
  let scope: Scope;
  try {
    scope = await db.scope.update({ where: { id: scopeId }, data: { secretPolicy: policy } });
  } catch (error) {
    if (isRecordNotFound(error)) throw new NotFoundError('No scope has this id', ['input', 'scope']);
    throw error;
  }
  policiesOf(db).clear();
  return scope;
}

/** A value about to be written, and where it is in the input (for a refusal's message). */
export interface Screened {
  path: string[];
  value: unknown;
  /**
   * A name (an entry's name or title): refused under REDACT as under REFUSE, never redacted. A
   * name is how an entry is found and is unique in its scope: one written as `[REDACTED:…]` would
   * be neither the name asked for nor tell two entries apart.
   */
  isName?: boolean;
}

/**
 * Applies the scope's policy to values about to be written: with REDACT each secret in a string
 * (or in a JSON value's strings) becomes `[REDACTED:<kind>]`; with REFUSE a value holding one is a
 * ValidationError naming the field and the kind, never the secret; ALLOW keeps them. Returns the
 * values to write, in order.
 */
export async function screenSecrets(db: Db, scopeId: string | null, values: readonly Screened[]): Promise<unknown[]> {
  if (values.every((v) => v.value === null || v.value === undefined)) return values.map((v) => v.value);
  const policy = await effectivePolicy(db, scopeId);
  if (policy === 'ALLOW') return values.map((v) => v.value);
  const issues: { path: string[]; message: string }[] = [];
  const screened = await Promise.all(
    values.map(async ({ path, value, isName }) => {
      // One scan of the whole value: most writes hold no secret, and a JSON value with many
      // strings then costs one pass, not one per string.
      const found = await findSecrets(typeof value === 'string' ? value : JSON.stringify(value ?? null));
      if (!found.length) return value;
      if (policy === 'REFUSE' || isName) {
        const why = policy === 'REFUSE' ? 'this scope refuses secrets' : 'a name is not redacted, write it without the secret';
        issues.push({ path, message: `holds a secret (${[...new Set(found.map((f) => f.kind))].join(', ')}); ${why}` });
        return value;
      }
      if (typeof value === 'string') return redact(value, found);
      return mapStrings(value, async (text) => redact(text, await findSecrets(text)));
    }),
  );
  if (issues.length) throw new ValidationError(issues);
  return screened;
}

/** screenSecrets over one text that may be absent (a change's reason, a note): the text to write. */
export async function screenText<T extends string | null | undefined>(db: Db, scopeId: string | null, path: string[], text: T): Promise<T> {
  const [screened] = await screenSecrets(db, scopeId, [{ path, value: text }]);
  return screened as T;
}

/** The free-text fields of a scope's input (create or update): its name is screened as a name, the others as text. */
const SCOPE_TEXT = ['name', 'description', 'purpose', 'metadata'] as const;

/** screenSecrets over a scope's texts under `policyScopeId`'s policy (the scope's own, or where a new one goes): the input to write. */
export function screenScopeInput<I extends Partial<Record<(typeof SCOPE_TEXT)[number], unknown>>>(db: Db, policyScopeId: string | null, input: I): Promise<I> {
  return screenFields(db, policyScopeId, input, SCOPE_TEXT, ['input'], { nameField: 'name' });
}

/**
 * screenSecrets over the `fields` of `record` that are present (paths under `path`), `nameField`
 * among them screened as a name, and `extra` values screened with them (refused, never written
 * here): the record with those fields screened.
 */
async function screenFields<R extends object, F extends keyof R & string>(
  db: Db,
  scopeId: string | null,
  record: R,
  fields: readonly F[],
  path: string[],
  { nameField, extra = [] }: { nameField?: F; extra?: Screened[] } = {},
): Promise<R> {
  const present = fields.filter((f) => record[f] !== undefined && record[f] !== null);
  const screened = await screenSecrets(db, scopeId, [...extra, ...present.map((f) => ({ path: [...path, f], value: record[f], isName: f === nameField }))]);
  return { ...record, ...Object.fromEntries(present.map((f, i) => [f, screened[extra.length + i]])) };
}

/** The value with each string in it passed through `f` (JSON objects and arrays walked). */
async function mapStrings(value: unknown, f: (text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return Promise.all(value.map((item) => mapStrings(item, f)));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await mapStrings(v, f)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

/** The text fields of an entry version that are screened (JSON ones walked). */
const VERSION_TEXT = ['description', 'constraints', 'content', 'rationale', 'source', 'examples', 'parameters'] as const;

/** An entry's name as written, and the input field it came in (`name`, or a knowledge entry's `title`). */
export interface NameToScreen {
  field: string;
  value: string;
}

/**
 * screenSecrets over an entry version's fields (paths under `path`), and over the entry's name
 * and the names of its tags when given (see `Screened.isName`: a tag is found by its name).
 */
export function screenVersion<V extends Partial<Record<(typeof VERSION_TEXT)[number], unknown>>>(
  db: Db,
  scopeId: string | null,
  version: V,
  path: string[] = ['input'],
  name?: NameToScreen,
  tags: readonly string[] = [],
): Promise<V> {
  const extra: Screened[] = [
    ...(name ? [{ path: [...path, name.field], value: name.value, isName: true }] : []),
    ...tagNames(tags, [...path, 'tags']),
  ];
  return screenFields(db, scopeId, version, VERSION_TEXT, path, { extra });
}

/** Tag names to screen as names, at `path`.<i>. */
export const tagNames = (tags: readonly string[], path: string[]): Screened[] =>
  tags.map((value, i) => ({ path: [...path, String(i)], value, isName: true }));

/** An entry version to screen with its scope, and where it is in the input. */
export interface VersionToScreen<V> {
  scopeId: string | null;
  version: V;
  path: string[];
  name?: NameToScreen;
  tags?: readonly string[];
}

/**
 * Versions screened between two turns of the event loop in a bulk write: ~10 ms of scanning (~0.1
 * ms a text), less than the rest of an import holds the loop at a time (its request's parsing and
 * access checks, each part of its transaction: ~30-40 ms on SQLite).
 */
const SCREENED_PER_TURN = 100;

/**
 * screenVersion over many versions, in input order. Scanning is CPU work without I/O: the 1,000
 * entries of an import screened at once (one Promise.all) held the event loop for all of it, ~120
 * ms on SQLite, so they are screened a list at a time, the loop turning between two lists. A
 * refused secret fails the call with the ValidationError of the first list that has one (of its
 * first entry that has one, when the entries are alike), and later lists are not scanned.
 */
export function screenVersions<V extends Partial<Record<(typeof VERSION_TEXT)[number], unknown>>>(db: Db, versions: readonly VersionToScreen<V>[]): Promise<V[]> {
  return mapInLists(versions, ({ scopeId, version, path, name, tags }) => screenVersion(db, scopeId, version, path, name, tags), SCREENED_PER_TURN);
}
