// How busy this process is, for choices that depend on it (where a SQLite read runs: see
// serialized-adapter.ts). Counted by the GraphQL execution plugin (src/server/load.ts) and the
// HTTP server (app.ts).

const counts = { operations: 0, requests: 0 };

/** Adds 1 through `add` now and -1 when the returned function is first called (later calls do nothing). */
export function held(add: (delta: number) => void): () => void {
  add(1);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    add(-1);
  };
}

/** Counts per key, holding only the keys with something counted (a key back at zero is forgotten). */
export class CountsByKey {
  readonly #counts = new Map<string, number>();

  of(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  add(key: string, delta: number): void {
    const n = this.of(key) + delta;
    if (n > 0) this.#counts.set(key, n);
    else this.#counts.delete(key);
  }
}

/** Counts one more of `kind` until the returned function is called (once). */
const counter = (kind: keyof typeof counts) => (): (() => void) => held((delta) => (counts[kind] += delta));

/** Marks one GraphQL query or mutation as executing (in any app of this process, in-process or not). */
export const operationStarted = counter('operations');

/**
 * Marks one HTTP request as being answered, from its arrival (before it is parsed or waits its
 * turn to start: see fair-start.ts) to its response. Event streams (SSE subscriptions) are not
 * counted: an open one mostly waits.
 */
export const requestStarted = counter('requests');

/** Nothing else is going on: at most one operation executing and one HTTP request being answered (the one asking). */
export const alone = (): boolean => counts.operations <= 1 && counts.requests <= 1;

/** What is going on now (for tests and diagnostics). */
export const load = (): Readonly<typeof counts> => ({ ...counts });
