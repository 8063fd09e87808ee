import { InvalidStateError, LeaseHeldError, NotFoundError } from '../../domain/errors.ts';
import { Checker } from '../../domain/validate.ts';
import { LIMITS } from '../../domain/limits.ts';
import { uuidv7 } from '../../domain/uuid.ts';
import type { Db, Tx } from '../../infra/database.ts';
import { writeTransaction, type Emit, type WriteDeps } from '../../infra/transaction.ts';
import { directKey } from '../../infra/events.ts';
import type { Lease, Prisma } from '../../generated/sqlite/client.ts';
import { assertWritableScope } from '../scopes/archived.ts';

export const LEASE_MODES = ['EXCLUSIVE', 'SHARED'] as const;
export type LeaseMode = (typeof LEASE_MODES)[number];

/** Bounds of a lease's time to live, in seconds. */
export const LEASE_TTL = { min: 1, max: 86_400 } as const;
/** How long a checkout may wait for a held resource, in seconds (a request stays open that long). */
export const LEASE_WAIT_MAX = 30;

export interface LeaseTarget {
  scopeId: string;
  resource: string;
  /** The caller's actor name: who holds the lease. */
  holder: string | null;
}

/** The live leases of a scope (of one resource, when named); the field's rule has read the scope. */
export function liveLeasesWhere(scopeId: string, resource: string | null): Prisma.LeaseWhereInput {
  return { scopeId, ...(resource != null ? { resource } : {}), expiresAt: { gt: new Date() } };
}

/** Fails unless the target names a holder and a resource, and the time to live is in bounds. */
function checked(target: LeaseTarget, ttlSeconds?: number): string {
  const c = new Checker();
  if (!target.holder) c.fail(['input'], 'a lease needs a holder: send X-Engram-Actor (agent:<id>) or use the key of an agent');
  c.text(target.resource, ['input', 'resource'], LIMITS.name, true);
  c.range(ttlSeconds, ['input', 'ttlSeconds'], LEASE_TTL.min, LEASE_TTL.max, true);
  c.done();
  return target.holder!;
}

/**
 * Checks a resource out: granted when no one else holds it in a mode that excludes this one
 * (EXCLUSIVE excludes every other lease, SHARED only an EXCLUSIVE one), with the next fencing token
 * of the resource; else LeaseHeldError naming the holders. A lease of the same holder is replaced.
 * The resource's row (its token counter) is written first, so checkouts of one resource take turns
 * on its lock; expired leases simply do not count, and their rows go with the next grant.
 */
export async function checkout(deps: WriteDeps, target: LeaseTarget, mode: LeaseMode, ttlSeconds: number): Promise<Lease> {
  const holder = checked(target, ttlSeconds);
  return writeTransaction(deps, async (tx, emit) => {
    await assertWritableScope(tx, target.scopeId, ['input', 'scope']);
    const lastToken = await lockResource(tx, target);
    const now = new Date();
    const blocking = await blockingLeases(tx, target, holder, mode, now);
    if (blocking.length > 0) throw await heldError(tx, target, holder, mode, now, blocking);
    const token = lastToken + 1;
    await tx.leaseResource.update({ where: { scopeId_resource: { scopeId: target.scopeId, resource: target.resource } }, data: { lastToken: token } });
    await tx.lease.deleteMany({ where: { scopeId: target.scopeId, resource: target.resource, OR: [{ expiresAt: { lte: now } }, { holder }] } });
    const lease = await tx.lease.create({
      data: { id: uuidv7(), scopeId: target.scopeId, resource: target.resource, holder, mode, token, acquiredAt: now, renewedAt: now, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) },
    });
    announce(emit, 'GRANTED', lease);
    return lease;
  });
}

/** What ends a checkout's wait early. */
export interface WaitEnds {
  /** The caller went away: answer at once, with no last try (a lease granted to no one would hold the resource for its whole time to live). */
  gone?: AbortSignal;
  /** The server is stopping: one last try, then answer, instead of being cut when its grace period ends. */
  stopping?: AbortSignal;
}

/**
 * Checks out, waiting up to `waitSeconds` while others hold the resource: tries again when the
 * resource's lease events (from the change feed) or the first blocking lease's end say it may be
 * free, re-reading at least every WAIT_RECHECK_MS, and answers LeaseHeldError once the wait is
 * over, or early as `ends` says.
 */
export async function checkoutWaiting(
  deps: WriteDeps,
  target: LeaseTarget,
  mode: LeaseMode,
  ttlSeconds: number,
  waitSeconds: number,
  ends: WaitEnds = {},
): Promise<Lease> {
  const c = new Checker();
  c.range(waitSeconds, ['input', 'waitSeconds'], 0, LEASE_WAIT_MAX, true);
  c.done();
  const holder = checked(target, ttlSeconds);
  const deadline = Date.now() + waitSeconds * 1000;
  const over = () => Date.now() >= deadline || !!ends.gone?.aborted || !!ends.stopping?.aborted;
  // Listening starts before the first try, so a release that commits right after it wakes the wait.
  const changes = waitSeconds > 0 ? leaseChanges(deps, target, [ends.gone, ends.stopping]) : null;
  try {
    for (;;) {
      try {
        return await checkout(deps, target, mode, ttlSeconds);
      } catch (error) {
        if (!(error instanceof LeaseHeldError) || !changes || over()) throw error;
        // Woken by the resource's lease events (a release, an unlock), by the first lease's end, or
        // at the latest every WAIT_RECHECK_MS, the wait re-reads the blocking leases (a read: a
        // write per waiter and turn would let a few waiting requests load the database) and tries
        // the checkout again once it looks free or the wait is over (that last try answers with the
        // holders as they are then).
        let firstEnd = Math.min(...error.holders.map((h) => h.expiresAt.getTime()));
        for (;;) {
          const now = Date.now();
          await changes.next(Math.max(10, Math.min(WAIT_RECHECK_MS, firstEnd - now, deadline - now)));
          if (over()) break;
          const blocking = await blockingLeases(deps.db, target, holder, mode, new Date());
          if (blocking.length === 0) break;
          firstEnd = Math.min(...blocking.map((l) => l.expiresAt.getTime()));
        }
        if (ends.gone?.aborted) throw error;
      }
    }
  } finally {
    changes?.close();
  }
}

/** The longest a waiting checkout goes without re-reading the leases (events normally wake it first). */
const WAIT_RECHECK_MS = 1_000;

interface LeaseChanges {
  /** Resolves at the next change of the resource's leases, or after `ms`. */
  next(ms: number): Promise<void>;
  close(): void;
}

/** The change feed's events of one resource's leases, as wake-ups for a waiting checkout; so is the abort of one of `signals`. */
function leaseChanges(deps: WriteDeps, target: LeaseTarget, signals: Array<AbortSignal | undefined>): LeaseChanges {
  const events = deps.bus.subscribe('lease', directKey(target.scopeId))[Symbol.asyncIterator]();
  const state: { pending: boolean; wake: (() => void) | null } = { pending: false, wake: null };
  const wake = () => {
    state.pending = true;
    state.wake?.();
  };
  for (const signal of signals) signal?.addEventListener('abort', wake, { once: true });
  void (async () => {
    for (;;) {
      const next = await events.next();
      if (next.done === true) return;
      const value = next.value;
      if (typeof value === 'symbol') return;
      if (value.resource === target.resource) wake();
    }
  })().catch(() => undefined); // without events the wait still re-reads every WAIT_RECHECK_MS
  return {
    async next(ms) {
      if (!state.pending) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          state.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        state.wake = null;
      }
      state.pending = false;
    },
    close: () => {
      for (const signal of signals) signal?.removeEventListener('abort', wake);
      void events.return?.();
    },
  };
}

/** The live leases of others that exclude a checkout in `mode` (EXCLUSIVE: any; SHARED: an exclusive one), the first to end first. */
async function blockingLeases(db: Db | Tx, target: LeaseTarget, holder: string, mode: LeaseMode, now: Date): Promise<Lease[]> {
  return db.lease.findMany({ where: blockingWhere(target, holder, mode, now), orderBy: { expiresAt: 'asc' }, take: HOLDERS_SHOWN });
}

function blockingWhere(target: LeaseTarget, holder: string, mode: LeaseMode, now: Date) {
  return {
    scopeId: target.scopeId,
    resource: target.resource,
    expiresAt: { gt: now },
    holder: { not: holder },
    ...(mode === 'SHARED' ? { mode: 'EXCLUSIVE' } : {}),
  };
}

/**
 * Holders a LeaseHeldError lists, the first to end first (what a waiter needs); its message counts
 * the rest. Listing every one made a message of ~20 KB against 1,000 shared holders.
 */
export const HOLDERS_SHOWN = 20;

/** The error naming the first holders in the way, and how many more there are. */
async function heldError(tx: Tx, target: LeaseTarget, holder: string, mode: LeaseMode, now: Date, blocking: Lease[]): Promise<LeaseHeldError> {
  const holders = blocking.map((l) => ({ holder: l.holder, mode: l.mode, expiresAt: l.expiresAt }));
  const all = blocking.length < HOLDERS_SHOWN ? blocking.length : await tx.lease.count({ where: blockingWhere(target, holder, mode, now) });
  const more = all > holders.length ? ` and ${all - holders.length} more` : '';
  return new LeaseHeldError(`${target.resource} is held by ${holders.map((h) => `${h.holder} (${h.mode})`).join(', ')}${more}`, holders, ['input', 'resource']);
}

/** The resource's token counter, its row created if new and locked for the transaction. */
async function lockResource(tx: Tx, target: LeaseTarget): Promise<number> {
  const [row] = await tx.$queryRaw<{ lastToken: number }[]>`INSERT INTO "LeaseResource" ("scopeId", "resource", "lastToken") VALUES (${target.scopeId}, ${target.resource}, 0)
    ON CONFLICT ("scopeId", "resource") DO UPDATE SET "lastToken" = "LeaseResource"."lastToken" RETURNING "lastToken"`;
  return Number(row!.lastToken);
}

/** Tells leaseChanged subscribers, once the transaction has committed. */
function announce(emit: Emit, type: 'GRANTED' | 'RENEWED' | 'RELEASED', lease: Lease): void {
  const { scopeId, resource, holder, mode, token } = lease;
  emit({ topic: 'lease', payload: { type, scopeId, resource, holder, mode, token, expiresAt: lease.expiresAt.toISOString() } });
}

/** Locks the resource's row if it exists (no lease was ever taken on it otherwise): false when it does not. */
async function lockExisting(tx: Tx, scopeId: string, resource: string): Promise<boolean> {
  const locked = await tx.$executeRaw`UPDATE "LeaseResource" SET "lastToken" = "lastToken" WHERE "scopeId" = ${scopeId} AND "resource" = ${resource}`;
  return locked > 0;
}

/** The caller's live lease on the resource (of that fencing token, when given), else why not. */
async function heldLease(tx: Tx, target: LeaseTarget, holder: string, token: number | null, now: Date): Promise<Lease> {
  const lease = await tx.lease.findUnique({ where: { scopeId_resource_holder: { scopeId: target.scopeId, resource: target.resource, holder } } });
  if (!lease || (token !== null && lease.token !== token)) throw new NotFoundError(`${holder} holds no lease on ${target.resource}${token !== null ? ` with fencing token ${token}` : ''}`, ['input', 'resource']);
  if (lease.expiresAt <= now) throw new InvalidStateError(`The lease on ${target.resource} expired at ${lease.expiresAt.toISOString()}: check it out again`, 'EXPIRED', ['input', 'resource']);
  return lease;
}

/** Extends the caller's live lease (a heartbeat); an expired one cannot be renewed, only checked out again. */
export async function renew(deps: WriteDeps, target: LeaseTarget, token: number | null, ttlSeconds: number): Promise<Lease> {
  const holder = checked(target, ttlSeconds);
  return writeTransaction(deps, async (tx, emit) => {
    const now = new Date();
    await lockExisting(tx, target.scopeId, target.resource);
    const lease = await heldLease(tx, target, holder, token, now);
    const renewed = await tx.lease.update({ where: { id: lease.id }, data: { renewedAt: now, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) } });
    announce(emit, 'RENEWED', renewed);
    return renewed;
  });
}

/** Checks the caller's lease in (an expired one is gone already: NotFound or EXPIRED say so). */
export async function release(deps: WriteDeps, target: LeaseTarget, token: number | null): Promise<Lease> {
  const holder = checked(target);
  return writeTransaction(deps, async (tx, emit) => {
    await lockExisting(tx, target.scopeId, target.resource);
    const lease = await heldLease(tx, target, holder, token, new Date());
    await tx.lease.delete({ where: { id: lease.id } });
    announce(emit, 'RELEASED', lease);
    return lease;
  });
}

/** Ends every lease on the resource (an admin freeing what a dead agent held). Returns how many were live. */
export async function forceUnlock(deps: WriteDeps, scopeId: string, resource: string): Promise<number> {
  return writeTransaction(deps, async (tx, emit) => {
    if (!(await lockExisting(tx, scopeId, resource))) return 0;
    const live = await tx.lease.count({ where: { scopeId, resource, expiresAt: { gt: new Date() } } });
    await tx.lease.deleteMany({ where: { scopeId, resource } });
    if (live > 0) emit({ topic: 'lease', payload: { type: 'UNLOCKED', scopeId, resource, holder: null, mode: null, token: null, expiresAt: null } });
    return live;
  });
}

export interface Fence {
  scopeId: string;
  resource: string;
  token: number;
  /** The writer: only its own grant fences its writes. */
  holder: string | null;
}

/**
 * The guard of a fenced write (WriteDeps.guard): the write goes on only while the grant of this
 * token is the writer's live lease on the resource; a holder whose lease expired, was taken over
 * or released is refused (InvalidStateError STALE_FENCING_TOKEN) and writes nothing. The
 * resource's row is locked first, so no checkout takes the lease over before the write commits.
 */
export function fenceGuard(fence: Fence): (tx: Tx) => Promise<void> {
  return async (tx) => {
    await lockExisting(tx, fence.scopeId, fence.resource);
    const live = await tx.lease.findFirst({
      where: { scopeId: fence.scopeId, resource: fence.resource, token: fence.token, holder: fence.holder ?? '', expiresAt: { gt: new Date() } },
      select: { id: true },
    });
    if (!live) {
      throw new InvalidStateError(
        `Fencing token ${fence.token} is not ${fence.holder ?? 'the caller'}'s live lease on ${fence.resource}: it expired, was released or taken over. Nothing was written`,
        'STALE_FENCING_TOKEN',
        ['input', 'fencing', 'token'],
      );
    }
  };
}
