import { finalAsyncIterator, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { nextUnlessAborted } from '../infra/next-unless-aborted.ts';

/** The subscriptions open over SSE, so that stopping the server completes them. */
export interface EventStreams {
  plugin: Plugin;
  /** Completes every open stream (`event: complete`). */
  completeAll(): void;
}

/**
 * An SSE subscription is an HTTP response that never finishes on its own: a stopping server waited
 * out its whole grace period for it, then cut it without `complete` (graphql-ws subscribers are
 * told 1001 at once). Each stream ends when stopping aborts its signal, returning the
 * subscription's own iterator, and Yoga writes `complete`. Tracked where results
 * are processed, which HTTP answers go through and graphql-ws operations do not.
 */
export function eventStreams(stopping: () => boolean): EventStreams {
  const open = new Set<() => void>();
  const plugin: Plugin = {
    onResultProcess({ request, result, setResult, resultProcessor, setResultProcessor }) {
      if (!isAsyncIterable(result)) return;
      // No processor takes a stream for this Accept (application/json, multipart/mixed): Yoga answers
      // 406 with an empty body and leaves the subscription, already started, open for good (nothing
      // reads or returns it). It is ended here, and the 406 says why.
      if (!resultProcessor) {
        returnStream(result);
        setResultProcessor(notAcceptable, 'application/json');
        return;
      }
      const completed = new AbortController();
      const complete = () => completed.abort();
      // One that starts while the server stops (on a connection still open) ends at once.
      if (stopping()) complete();
      else open.add(complete);
      const raced = untilAborted(result, completed.signal);
      let read = false;
      // A client that left while its subscription was starting (its access read, on PostgreSQL):
      // Node's adapter neither sends nor cancels the answer of a connection already closed, so
      // nothing reads the stream or returns it, and it stayed open for good (counted in
      // engram_subscriptions_open). It is returned here; one being read ends as Yoga cancels it.
      const left = () => {
        if (read) return;
        open.delete(complete);
        returnStream(result);
      };
      if (request.signal.aborted) left();
      else request.signal.addEventListener('abort', left, { once: true });
      const stream = { [Symbol.asyncIterator]: () => ((read = true), raced) };
      setResult(finalAsyncIterator(stream, () => open.delete(complete)));
    },
  };
  return {
    plugin,
    completeAll() {
      for (const complete of open) complete();
    },
  };
}

/**
 * `stream` until `signal` aborts: then it is returned (its source and timers released) and ends.
 * Not Repeater.race against a pending promise: it queued a call on that promise's stream for each
 * event delivered, kept until the subscription ended.
 */
function untilAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal): AsyncIterator<T> {
  const iterator = stream[Symbol.asyncIterator]();
  const end = async (): Promise<IteratorResult<T>> => {
    await iterator.return?.();
    return { value: undefined, done: true };
  };
  return {
    async next() {
      const result = await nextUnlessAborted(iterator, signal);
      return result === 'aborted' ? end() : result;
    },
    return: end,
  };
}

/** Ends a subscription's stream that nothing will read (its source and timers released). */
function returnStream(result: AsyncIterable<unknown>): void {
  void Promise.resolve(result[Symbol.asyncIterator]().return?.()).catch(() => undefined);
}

/** The answer to a subscription whose request accepts no event stream. */
const notAcceptable = (_result: unknown, fetchAPI: { Response: typeof Response }) =>
  new fetchAPI.Response(
    JSON.stringify({
      errors: [{ message: 'A subscription is answered as an event stream: send Accept: text/event-stream (or subscribe over WebSocket)', extensions: { code: 'NOT_ACCEPTABLE' } }],
    }),
    { status: 406, statusText: 'Not Acceptable', headers: { 'content-type': 'application/json; charset=utf-8', accept: 'text/event-stream' } },
  );
