import type { Context } from '../../context.ts';
import { PermissionDeniedError } from '../../domain/errors.ts';
import { filter, pipe } from 'graphql-yoga';
import { CursorExpiredError } from '../../infra/change-feed.ts';
import { EXPIRED, EventsUnavailableError, UNAVAILABLE, directKey, type StreamEnd, type Topics } from '../../infra/events.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { SCOPE_TYPENAMES, decodeId } from '../../graphql/ids.ts';
import { log } from '../../infra/log.ts';
import { nextUnlessAborted } from '../../infra/next-unless-aborted.ts';
import { ttlCachePer } from '../../infra/ttl-cache.ts';
import type { Access } from '../identity/access.service.ts';

/** How often an open subscription asks whether its key and grants still allow it. */
export const RECHECK_MS = 2_000;

/** The last result of a subscription whose key or grant was revoked: resolved as a FORBIDDEN error. */
export const REVOKED = Symbol('revoked');

export interface SubscriptionRule<P> {
  /**
   * Names what `stillAllowed` asks (`READ <scope id>`): the subscriptions of one caller with the
   * same rule share one recheck (see allowedNow).
   */
  key: string;
  /** What the subscription needed when it started (READ on its scope): asked again every RECHECK_MS. */
  stillAllowed(access: Access): Promise<boolean>;
  /** Whether one event may be delivered to this subscriber. */
  mayDeliver(access: Access, event: P): Promise<boolean>;
}

/**
 * Checks a subscription at delivery: each event is delivered only if the subscriber's grants (as
 * of now, through the instance's grant cache) let it read the event, and every RECHECK_MS the key
 * and the subscription's own rule are asked again; once either fails, the stream ends with REVOKED
 * (a FORBIDDEN error), the same over graphql-ws and SSE.
 */
export function guardSubscription<P>(
  ctx: Context,
  source: AsyncIterable<P | StreamEnd>,
  rule: SubscriptionRule<P>,
): AsyncIterable<P | StreamEnd | typeof REVOKED> {
  return {
    [Symbol.asyncIterator]() {
      const inner = source[Symbol.asyncIterator]();
      const revoked = new AbortController();
      let finished = false;
      const timer = setInterval(() => {
        void allowedNow(ctx, rule).then((ok) => ok || revoked.abort(), () => undefined);
      }, RECHECK_MS);
      timer.unref();
      const finish = async (): Promise<IteratorResult<never>> => {
        finished = true;
        clearInterval(timer);
        await inner.return?.();
        return { value: undefined, done: true };
      };
      return {
        async next() {
          if (finished) return finish();
          for (;;) {
            const result = await nextUnlessAborted(inner, revoked.signal);
            if (result === 'aborted') {
              finished = true;
              return { value: REVOKED, done: false };
            }
            if (result.done) return finish();
            const event = result.value;
            let deliver: boolean;
            try {
              deliver = typeof event === 'symbol' || ctx.access.everything || (await rule.mayDeliver(ctx.access.renewed(), event));
            } catch (error) {
              // The check could not read the grants (the database failed under it): the stream ends
              // as one whose feed cannot be read, its timer and source released. Thrown instead, it
              // ended nothing: graphql-ws closed the socket, and the source, the recheck timer and
              // the count of open subscriptions stayed behind.
              log.warn({ err: error }, 'A subscription could not check an event against its grants: ended with EVENTS_UNAVAILABLE');
              await finish();
              return { value: UNAVAILABLE, done: false };
            }
            if (deliver) return { value: event, done: false };
          }
        },
        return: finish,
      };
    },
  };
}

/**
 * Recheck answers shared by the subscriptions of one caller (one key, or the local admin) and one
 * rule, for half a recheck period: 10,000 open subscriptions, each asking on its own every 2 s,
 * took 10-13 % of a core while nothing happened. A revoked key or grant still ends each of them
 * within RECHECK_MS * 1.5.
 */
const rechecksOf = ttlCachePer<object, Promise<boolean>>(RECHECK_MS / 2, 100_000);

/** Who is asking, as far as a recheck can tell callers apart. */
export function callerKey(caller: Context['caller']): string {
  if (caller.keyId) return `key ${caller.keyId}`;
  return caller.unchecked ? 'unchecked' : caller.local ? 'local' : 'anonymous';
}

/** The key still authenticates, as the same kind of caller (an admin demoted ends it too), and the rule holds. */
function allowedNow<P>(ctx: Context, rule: SubscriptionRule<P>): Promise<boolean> {
  return rechecksOf(ctx.db).getOrLoad(`${callerKey(ctx.caller)} ${rule.key}`, () => checkedNow(ctx, rule));
}

async function checkedNow<P>(ctx: Context, rule: SubscriptionRule<P>): Promise<boolean> {
  const caller = await ctx.stillAuthenticated();
  if (!caller || caller.principal?.admin !== ctx.caller.principal?.admin) return false;
  return rule.stillAllowed(ctx.access.renewed());
}

/**
 * The event to resolve. The end of a stream (a cursor the feed cannot resume from, a feed that
 * cannot be read, a revocation) becomes its last result, a typed error (CURSOR_EXPIRED,
 * EVENTS_UNAVAILABLE, FORBIDDEN) followed by completion, the same on graphql-ws and SSE;
 * thrown from the source stream instead, it would be no result at all (graphql-ws closes the
 * socket with 4500).
 */
export function delivered<P>(event: P | StreamEnd | typeof REVOKED): P {
  if (event === EXPIRED) throw new CursorExpiredError('The cursor is older than the change feed keeps, or not one this server gave');
  if (typeof event === 'symbol' && event !== REVOKED) throw new EventsUnavailableError();
  if (event === REVOKED) throw new PermissionDeniedError('The key or grant that allowed this subscription was revoked');
  return event;
}

/** The `after` argument of every subscription. */
export const AFTER_DESCRIPTION =
  'Resume after this cursor (the `cursor` of the last event received): the events missed since are delivered first, in order, then live ones, with no gap and no duplicate. Without it, events from now on. A cursor older than the change feed keeps (CHANGE_RETENTION_HOURS) ends the subscription with CURSOR_EXPIRED: re-read what you follow, then subscribe without it.';
/** The `cursor` field of every subscription event. */
export const CURSOR_DESCRIPTION = "The event's position in the change feed: pass it as `after` to resume the subscription after this event.";

/**
 * The events of `topic` published for one scope (routing key `direct:<scope>`) after `after`, kept
 * to those `wanted`, delivered while the caller may read the scope. A scope the caller cannot read
 * answers like one that does not exist.
 */
export async function scopeTopicEvents<T extends 'lease' | 'vote'>(
  ctx: Context,
  topic: T,
  scope: string | number,
  after: string | null | undefined,
  wanted: (event: Topics[T][1]) => boolean,
): Promise<AsyncIterable<Topics[T][1] | StreamEnd | typeof REVOKED>> {
  const id = decodeId(String(scope), SCOPE_TYPENAMES, ['scope']);
  if (!(await ctx.access.has('READ', id))) throw new NotFoundError('No scope has this id', ['scope']);
  const events = guardSubscription(ctx, ctx.bus.subscribe(topic, directKey(id), after) as AsyncIterable<Topics[T][1] | StreamEnd>, {
    key: `READ ${id}`,
    stillAllowed: (access) => access.has('READ', id),
    mayDeliver: (access) => access.has('READ', id),
  });
  return pipe(events, filter((event: Topics[T][1] | StreamEnd | typeof REVOKED) => typeof event === 'symbol' || wanted(event)));
}
