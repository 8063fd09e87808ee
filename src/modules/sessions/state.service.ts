import type { StateGuard } from '../identity/state-access.ts';
import type { Db, Provider, Tx } from '../../infra/database.ts';
import { writeTransaction, type WriteDeps } from '../../infra/transaction.ts';
import { InvalidStateError, NotFoundError, PermissionDeniedError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import { Checker } from '../../domain/validate.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import { Prisma, type Scope, type StateKey } from '../../generated/sqlite/client.ts';

/**
 * Namespaced state. A key is `<prefix>:<name>`; the prefix picks the namespace, and the namespace
 * picks whose key it is: the session (temp:, session:), the session's user (user:), its
 * application (app:) or its project (project:). Reading an unprefixed name through a session
 * resolves it in the order below. Every write appends a version; deletes are soft.
 */
export const STATE_NAMESPACES = ['TEMP', 'SESSION', 'USER', 'APP', 'PROJECT'] as const;
export type StateNamespace = (typeof STATE_NAMESPACES)[number];

/** Lower wins. */
export const PRECEDENCE: Record<StateNamespace, number> = { TEMP: 1, SESSION: 2, USER: 3, APP: 4, PROJECT: 5 };

export const PREFIX: Record<StateNamespace, string> = {
  TEMP: 'temp',
  SESSION: 'session',
  USER: 'user',
  APP: 'app',
  PROJECT: 'project',
};
const NAMESPACE_OF_PREFIX = new Map(STATE_NAMESPACES.map((ns) => [PREFIX[ns], ns]));


const SEGMENT = /^[A-Za-z0-9_.@+-]+$/;
const PATTERN_SEGMENT = /^[A-Za-z0-9_.@+*-]+$/;

export interface ParsedKey {
  /** Null for an unprefixed name (reads resolve it across namespaces). */
  namespace: StateNamespace | null;
  name: string;
}

/** Splits off a namespace prefix, if the key has one. */
export function parseKey(key: string): ParsedKey {
  const colon = key.indexOf(':');
  const namespace = colon > 0 ? NAMESPACE_OF_PREFIX.get(key.slice(0, colon)) : undefined;
  return namespace ? { namespace, name: key.slice(colon + 1) } : { namespace: null, name: key };
}

/** A stored JSON text column back as its value (null stays null). */
export function parseJson(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

export const fullKey = (namespace: StateNamespace, name: string) => `${PREFIX[namespace]}:${name}`;

/** Checks a key: colon-separated segments of letters, digits and `_ . @ + -`. */
export function checkKey(c: Checker, key: string, path: string[], { prefixRequired }: { prefixRequired: boolean }): ParsedKey {
  const parsed = parseKey(key);
  if (key.length === 0 || key.length > LIMITS.stateKey) {
    c.fail(path, `must be 1-${LIMITS.stateKey} characters`);
  } else if (prefixRequired && !parsed.namespace) {
    c.fail(path, 'must start with a namespace: temp:, session:, user:, app: or project:');
  } else if (!parsed.name.split(':').every((segment) => SEGMENT.test(segment))) {
    c.fail(path, 'must be colon-separated segments of letters, digits and _ . @ + -');
  }
  return parsed;
}

/** Checks a listing pattern: segments as in keys, where `*` matches any run within one segment. */
export function checkPattern(c: Checker, pattern: string, path: string[]): ParsedKey {
  const parsed = parseKey(pattern);
  if (pattern.length === 0 || pattern.length > LIMITS.stateKey) c.fail(path, `must be 1-${LIMITS.stateKey} characters`);
  else if (!parsed.name.split(':').every((segment) => PATTERN_SEGMENT.test(segment))) {
    c.fail(path, 'must be colon-separated segments of letters, digits, _ . @ + - and the wildcard *');
  }
  return parsed;
}

/** Who owns the keys a session reads and writes, per namespace (null: the session has none). */
export interface StateOwners {
  sessionId: string | null;
  userId: string | null;
  appName: string | null;
  projectId: string | null;
}

export function ownersOfSession(session: Scope): StateOwners {
  return { sessionId: session.id, userId: session.userId, appName: session.appName, projectId: session.parentId };
}

export function ownerIn(owners: StateOwners, namespace: StateNamespace): string | null {
  switch (namespace) {
    case 'TEMP':
    case 'SESSION':
      return owners.sessionId;
    case 'USER':
      return owners.userId;
    case 'APP':
      return owners.appName;
    case 'PROJECT':
      return owners.projectId;
  }
}

/** Why a namespace has no owner for these owners, for the error message. */
function missingOwner(namespace: StateNamespace): string {
  switch (namespace) {
    case 'TEMP':
    case 'SESSION':
      return `${PREFIX[namespace]}: keys belong to a session: give one`;
    case 'USER':
      return 'user: keys need a user: give userId, or a session that records one';
    case 'APP':
      return 'app: keys need an application: give appName, or a session that records one';
    case 'PROJECT':
      return 'project: keys need a project: give one, or a session';
  }
}

/** A key to write, before its owner is known. */
export interface StateChange {
  namespace: StateNamespace;
  name: string;
  /** The new value; ignored when `deleted`. */
  value: unknown;
  deleted: boolean;
  restoredFrom?: number | null;
  eventId?: string | null;
}

/** A change addressed to its owner (see `ownerIn`). */
export interface StateWrite extends StateChange {
  owner: string;
}

/**
 * Writes state keys in the caller's transaction: each upserts its key (bumping its version, which
 * also locks the row) and appends the version. Permissions must be checked.
 */
export async function writeState(tx: Tx, writes: readonly StateWrite[], author: string | null): Promise<StateKey[]> {
  const at = new Date();
  const keys: StateKey[] = [];
  // A fixed order of row locks: two transactions writing the same keys cannot deadlock.
  const ordered = [...writes].sort((a, b) => (a.namespace + ':' + a.name < b.namespace + ':' + b.name ? -1 : 1));
  for (const w of ordered) {
    const value = w.deleted ? null : JSON.stringify(w.value ?? null);
    const [key] = await tx.$queryRaw<StateKey[]>`
      INSERT INTO "StateKey" ("id", "namespace", "owner", "name", "version", "value", "deleted", "createdAt", "updatedAt", "updatedBy")
      VALUES (${uuidv7()}, ${w.namespace}, ${w.owner}, ${w.name}, 1, ${value}, ${w.deleted}, ${at}, ${at}, ${author})
      ON CONFLICT ("namespace", "owner", "name") DO UPDATE SET "version" = "StateKey"."version" + 1,
        "value" = excluded."value", "deleted" = excluded."deleted", "updatedAt" = excluded."updatedAt", "updatedBy" = excluded."updatedBy"
      RETURNING *`;
    await tx.$executeRaw`
      INSERT INTO "StateVersion" ("id", "keyId", "version", "value", "deleted", "restoredFrom", "eventId", "createdAt", "createdBy")
      VALUES (${uuidv7()}, ${key!.id}, ${key!.version}, ${value}, ${w.deleted}, ${w.restoredFrom ?? null}, ${w.eventId ?? null}, ${at}, ${author})`;
    keys.push(key!);
  }
  return keys;
}

/**
 * Checks a state delta (`{ "<prefix>:<name>": value }`, null deleting the key) into writes. Every
 * key needs a namespace prefix.
 */
export function checkDelta(c: Checker, delta: unknown, path: string[]): StateChange[] {
  if (delta === null || delta === undefined) return [];
  if (typeof delta !== 'object' || Array.isArray(delta)) {
    c.fail(path, 'must be a JSON object of state keys');
    return [];
  }
  const entries = Object.entries(delta as Record<string, unknown>);
  if (entries.length > LIMITS.stateDeltaKeys) c.fail(path, `must write at most ${LIMITS.stateDeltaKeys} keys`);
  const writes: StateChange[] = [];
  for (const [key, value] of entries) {
    const parsed = checkKey(c, key, [...path, key], { prefixRequired: true });
    c.json(value, [...path, key]);
    if (parsed.namespace) writes.push({ namespace: parsed.namespace, name: parsed.name, value, deleted: value === null });
  }
  return writes;
}

/** Whose keys, in words (not the internal id of a session or project). */
function ownerLabel(namespace: StateNamespace, owner: string): string {
  switch (namespace) {
    case 'TEMP':
    case 'SESSION':
      return 'this session';
    case 'PROJECT':
      return 'this project';
    case 'USER':
      return `user "${owner}"`;
    case 'APP':
      return `application "${owner}"`;
  }
}

/** Refuses writes to keys the caller may not write (src/modules/identity/state-access.ts). */
export async function checkWritePermission(writes: readonly StateWrite[], guard: StateGuard, path: string[]): Promise<void> {
  for (const w of writes) {
    if (!(await guard.canWrite(w.namespace, w.owner))) {
      throw new PermissionDeniedError(`The caller may not write ${PREFIX[w.namespace]}: keys of ${ownerLabel(w.namespace, w.owner)}`, path);
    }
  }
}

/** Addresses each change to its owner among `owners`; fails when a namespace has none. */
export function addressed(changes: readonly StateChange[], owners: StateOwners, path: string[]): StateWrite[] {
  const c = new Checker();
  const writes = changes.flatMap((change) => {
    const owner = ownerIn(owners, change.namespace);
    if (owner) return [{ ...change, owner }];
    c.fail(path, missingOwner(change.namespace));
    return [];
  });
  c.done();
  return writes;
}

/** The SQL condition "the key belongs to one of these owners" (namespaces without an owner drop out). */
function ownedBy(owners: StateOwners, only: StateNamespace | readonly StateNamespace[] | null): Prisma.Sql {
  const allowed = only === null ? STATE_NAMESPACES : typeof only === 'string' ? [only] : only;
  const parts = STATE_NAMESPACES.filter((ns) => allowed.includes(ns))
    .map((ns) => [ns, ownerIn(owners, ns)] as const)
    .filter((pair): pair is readonly [StateNamespace, string] => pair[1] !== null)
    .map(([ns, owner]) => Prisma.sql`(k."namespace" = ${ns} AND k."owner" = ${owner})`);
  return parts.length > 0 ? Prisma.sql`(${Prisma.join(parts, ' OR ')})` : Prisma.sql`1 = 0`;
}

const PRECEDENCE_SQL = Prisma.raw(
  `CASE k."namespace" ${STATE_NAMESPACES.map((ns) => `WHEN '${ns}' THEN ${PRECEDENCE[ns]}`).join(' ')} END`,
);

export interface ResolvedState {
  /** The key as asked for. */
  key: string;
  /** The key that supplied the value. */
  entry: StateKey;
  /** Keys of the same name in lower-precedence namespaces, hidden by `entry`. */
  shadowed: StateKey[];
}

/**
 * Reads a key through a session. A prefixed key reads that namespace; an unprefixed name resolves
 * temp > session > user > app > project. Deleted keys count as absent. Null when none has it.
 */
export async function resolveState(db: Db, owners: StateOwners, key: string): Promise<ResolvedState | null> {
  const c = new Checker();
  const parsed = checkKey(c, key, ['key'], { prefixRequired: false });
  c.done();
  const rows = await db.$queryRaw<StateKey[]>`SELECT k.* FROM "StateKey" k
    WHERE k."name" = ${parsed.name} AND k."deleted" = ${false} AND ${ownedBy(owners, parsed.namespace)}
    ORDER BY ${PRECEDENCE_SQL}`;
  const [entry, ...shadowed] = rows;
  return entry ? { key, entry, shadowed } : null;
}

/** Segment-wise pattern match in SQL: same number of segments, and a per-dialect glob. */
function nameMatches(provider: Provider, pattern: string): Prisma.Sql {
  const colons = pattern.split(':').length - 1;
  const sameSegments = Prisma.sql`(LENGTH(k."name") - LENGTH(REPLACE(k."name", ':', ''))) = ${colons}`;
  if (!pattern.includes('*')) return Prisma.sql`k."name" = ${pattern}`;
  // `*` may not cross a colon; with equal colon counts a wildcard that swallowed one would leave
  // the pattern's own colons unmatched, so a plain glob is exact. SQLite's GLOB is case-sensitive
  // (its LIKE is not); PostgreSQL's LIKE is case-sensitive. Key characters hold no other wildcard
  // of GLOB; for LIKE, `_` is escaped.
  if (provider === 'sqlite') return Prisma.sql`(${sameSegments} AND k."name" GLOB ${pattern})`;
  const like = pattern.replace(/\\/g, '\\\\').replace(/_/g, '\\_').replace(/%/g, '\\%').replace(/\*/g, '%');
  return Prisma.sql`(${sameSegments} AND k."name" LIKE ${like} ESCAPE '\\')`;
}

export interface ListStateOptions {
  pattern?: string | null;
  /** Only these namespaces (a pattern's own prefix narrows further). */
  namespaces?: readonly StateNamespace[] | null;
  includeDeleted?: boolean;
  /** Keyset bounds on the name. */
  after?: string | null;
  before?: string | null;
  limit: number;
  /** Walk backwards (names descending). */
  inverted?: boolean;
}

export type RankedStateKey = StateKey & { rank: number };

/**
 * Lists the keys a session sees, one per name (the one its reads resolve to), ordered by name;
 * a pattern with a namespace prefix lists that namespace only.
 */
export async function listState(db: Db, provider: Provider, owners: StateOwners, options: ListStateOptions): Promise<RankedStateKey[]> {
  const c = new Checker();
  const parsed = options.pattern != null ? checkPattern(c, options.pattern, ['pattern']) : { namespace: null, name: '' };
  c.done();
  const namespaces = (options.namespaces?.length ? options.namespaces : STATE_NAMESPACES).filter(
    (ns) => parsed.namespace === null || ns === parsed.namespace,
  );
  const conditions = [ownedBy(owners, namespaces)];
  if (options.pattern) conditions.push(nameMatches(provider, parsed.name));
  if (!options.includeDeleted) conditions.push(Prisma.sql`k."deleted" = ${false}`);
  // Names order byte-wise on both databases (PostgreSQL's default collation would not).
  const name = provider === 'postgresql' ? Prisma.sql`ranked."name" COLLATE "C"` : Prisma.sql`ranked."name"`;
  const outer = [Prisma.sql`ranked."pick" = 1`];
  if (options.after != null) outer.push(Prisma.sql`${name} > ${options.after}`);
  if (options.before != null) outer.push(Prisma.sql`${name} < ${options.before}`);
  const order = options.inverted ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return db.$queryRaw<RankedStateKey[]>`SELECT * FROM (
      SELECT k.*, ${PRECEDENCE_SQL} AS "rank",
        ROW_NUMBER() OVER (PARTITION BY k."name" ORDER BY ${PRECEDENCE_SQL}) AS "pick"
      FROM "StateKey" k WHERE ${Prisma.join(conditions, ' AND ')}
    ) ranked WHERE ${Prisma.join(outer, ' AND ')}
    ORDER BY ${name} ${order} LIMIT ${options.limit}`;
}

export interface StateOwnerInput {
  sessionId?: string | null;
  projectId?: string | null;
  userId?: string | null;
  appName?: string | null;
}

/** State is written through a session only while it is ACTIVE. */
function assertTakesWrites(status: string | null, path: string[]): void {
  if (status !== 'ACTIVE') {
    throw new InvalidStateError(`Only an active session takes state writes (this one is ${status ?? 'unknown'})`, status ?? 'UNKNOWN', path);
  }
}

/**
 * The owners a write addresses: a session brings its own (and must be active); the explicit
 * project, user and application override or stand in for them.
 */
async function resolveOwners(db: Db | Tx, input: StateOwnerInput): Promise<StateOwners> {
  const owners: StateOwners = { sessionId: null, userId: null, appName: null, projectId: null };
  if (input.sessionId) {
    const session = await db.scope.findUnique({ where: { id: input.sessionId } });
    if (!session || session.kind !== 'SESSION') throw new NotFoundError('No session has this id', ['input', 'owner', 'session']);
    assertTakesWrites(session.status, ['input', 'owner', 'session']);
    Object.assign(owners, ownersOfSession(session));
  }
  if (input.projectId) {
    const project = await db.scope.findUnique({ where: { id: input.projectId }, select: { kind: true } });
    if (project?.kind !== 'PROJECT') throw new NotFoundError('No project has this id', ['input', 'owner', 'project']);
    owners.projectId = input.projectId;
  }
  if (input.userId) owners.userId = input.userId;
  if (input.appName) owners.appName = input.appName;
  return owners;
}

export interface SetStateInput {
  owner: StateOwnerInput;
  key: string;
  /** Undefined with `deleted`. */
  value?: unknown;
  deleted?: boolean;
  author: string | null;
  guard: StateGuard;
}

/** Writes (or soft-deletes) one key; returns it as written. */
export async function setState(deps: WriteDeps, input: SetStateInput): Promise<StateKey> {
  const c = new Checker();
  const parsed = checkKey(c, input.key, ['input', 'key'], { prefixRequired: true });
  if (!input.deleted) c.json(input.value, ['input', 'value']);
  c.text(input.owner.userId, ['input', 'owner', 'userId'], LIMITS.userId);
  c.text(input.owner.appName, ['input', 'owner', 'appName'], LIMITS.appName);
  c.done();
  const change: StateChange = { namespace: parsed.namespace!, name: parsed.name, value: input.value, deleted: input.deleted ?? false };
  // Owners never change: checked before the transaction (the checks read outside it).
  await checkWritePermission(addressed([change], await resolveOwners(deps.db, input.owner), ['input', 'owner']), input.guard, ['input', 'key']);
  return writeTransaction(deps, async (tx) => {
    const [write] = addressed([change], await resolveOwners(tx, input.owner), ['input', 'owner']);
    const { namespace, owner, name } = write!;
    if (change.deleted) {
      const existing = await tx.stateKey.findUnique({ where: { namespace_owner_name: { namespace, owner, name } } });
      if (!existing || existing.deleted) throw new NotFoundError(`No key ${input.key} to delete`, ['input', 'key']);
    }
    const [key] = await writeState(tx, [write!], input.author);
    return key!;
  });
}

/** Appends a version that brings back version `version` of the key (its value, or its deletion). */
export async function restoreState(
  deps: WriteDeps,
  input: { keyId: string; version: number; author: string | null; guard: StateGuard },
): Promise<StateKey> {
  // A key's namespace and owner never change: checked before the transaction (the checks read outside it).
  const known = await deps.db.stateKey.findUnique({ where: { id: input.keyId }, select: { namespace: true, owner: true, name: true } });
  // A key the caller may not read answers like a missing one.
  if (!known || !(await input.guard.canRead(known.namespace as StateNamespace, known.owner))) {
    throw new NotFoundError('No state key has this id', ['input', 'key']);
  }
  await checkWritePermission([{ ...known, namespace: known.namespace as StateNamespace, value: null, deleted: false }], input.guard, ['input', 'key']);
  return writeTransaction(deps, async (tx) => {
    const key = await tx.stateKey.findUnique({ where: { id: input.keyId } });
    if (!key) throw new NotFoundError('No state key has this id', ['input', 'key']);
    const namespace = key.namespace as StateNamespace;
    if (namespace === 'TEMP' || namespace === 'SESSION') {
      const session = await tx.scope.findUnique({ where: { id: key.owner }, select: { status: true } });
      assertTakesWrites(session?.status ?? null, ['input', 'key']);
    }
    const old = await tx.stateVersion.findUnique({ where: { keyId_version: { keyId: key.id, version: input.version } } });
    if (!old) throw new NotFoundError(`The key has no version ${input.version}`, ['input', 'version']);
    const [written] = await writeState(
      tx,
      [{ namespace, owner: key.owner, name: key.name, value: parseJson(old.value), deleted: old.deleted, restoredFrom: old.version }],
      input.author,
    );
    return written!;
  });
}
