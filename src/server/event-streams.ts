import { finalAsyncIterator, isAsyncIterable, Repeater, type Plugin } from 'graphql-yoga';

/** The subscriptions open over SSE, so that stopping the server completes them. */
export interface EventStreams {
  plugin: Plugin;
  /** Completes every open stream (`event: complete`). */
  completeAll(): void;
}

/**
 * An SSE subscription is an HTTP response that never finishes on its own: a stopping server waited
 * out its whole grace period for it, then cut it without `complete` (graphql-ws subscribers are
 * told 1001 at once). Each stream is raced against a promise that stopping resolves: the race ends
 * it, returning the subscription's own iterator, and Yoga writes `complete`. Tracked where results
 * are processed, which HTTP answers go through and graphql-ws operations do not.
 */
export function eventStreams(stopping: () => boolean): EventStreams {
  const open = new Set<() => void>();
  const plugin: Plugin = {
    onResultProcess({ result, setResult }) {
      if (!isAsyncIterable(result)) return;
      let complete: () => void = () => undefined;
      const completed = new Promise<void>((resolve) => (complete = resolve));
      // One that starts while the server stops (on a connection still open) ends at once.
      if (stopping()) complete();
      else open.add(complete);
      setResult(finalAsyncIterator(Repeater.race([result, completed]), () => open.delete(complete)));
    },
  };
  return {
    plugin,
    completeAll() {
      for (const complete of open) complete();
    },
  };
}
