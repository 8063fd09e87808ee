/**
 * Starts HTTP requests one per turn of the event loop, in arrival order.
 *
 * Node's event loop (libuv, as Node 20 ships it) accepts one new connection per turn. On SQLite a
 * request runs from start to finish without waiting for I/O (better-sqlite3 is synchronous), so
 * when every open connection had a request ready, one turn ran all of them. Under 50 writers on
 * one entry a turn took hundreds of milliseconds, and a client opening a connection waited seconds
 * for it to be accepted: p99 3.6 s and max 4.4 s end to end, while no update took more than 56 ms
 * inside the server. Started one per turn, the loop gets back to accepting (and reading) between
 * requests, so a request waits behind the requests that arrived before it, not behind the accept
 * queue. Costs one setImmediate per request. Hand-written: no scheduling library does this.
 */
export function oneStartPerTurn(): (start: () => unknown) => void {
  const waiting: Array<() => unknown> = [];
  let scheduled = false;
  const next = () => {
    const start = waiting.shift();
    // Scheduled before starting, so a request that throws cannot stall the ones behind it.
    if (waiting.length > 0) setImmediate(next);
    else scheduled = false;
    start?.();
  };
  return (start) => {
    waiting.push(start);
    if (scheduled) return;
    scheduled = true;
    setImmediate(next);
  };
}
