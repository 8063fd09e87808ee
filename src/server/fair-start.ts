import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { log } from '../infra/log.ts';

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

/** Requests a connection may have waiting behind the one it runs; past it the connection is closed. */
export const MAX_PIPELINED = 32;

interface Line {
  running: boolean;
  waiting: Array<() => void>;
}

/**
 * Runs one request of a connection at a time (through `start`, the queue above), and closes a
 * connection that has more than MAX_PIPELINED waiting. HTTP/1.1 lets a client send requests
 * without waiting for answers (pipelining), and Node hands the server every request of a chunk as
 * it parses it: one write of 100,000 `{ __typename }` (7.5 MB) put them all in the queue ahead of
 * every other client, which got no answer for 20 s, took the server from 0.27 to 1.28 GB, and
 * kept it busy after the client had gone. Node sends a connection's answers in order whatever the
 * order they finish in, so running them one at a time delays no answer a pipelining client could
 * have read sooner (and browsers and common clients do not pipeline). Node's own check (it stops
 * reading while answers wait to be written) comes too late: the answers are small, and the whole
 * chunk is parsed first.
 */
export function onePerConnection(start: (run: () => unknown) => void): (req: IncomingMessage, res: ServerResponse, run: () => unknown) => void {
  const lines = new WeakMap<Socket, Line>();
  return (req, res, run) => {
    const socket = req.socket;
    // The rest of a chunk that overflowed its line: parsed by Node after the socket was closed.
    if (socket.destroyed) return;
    const line = lineOf(lines, socket);
    const go = () => {
      line.running = true;
      res.once('close', () => {
        line.running = false;
        line.waiting.shift()?.();
      });
      start(() => (socket.destroyed ? undefined : run()));
    };
    if (!line.running) return go();
    if (line.waiting.length < MAX_PIPELINED) return void line.waiting.push(go);
    log.warn({ remoteAddress: socket.remoteAddress }, `Closing a connection that sent more than ${MAX_PIPELINED} requests ahead of their answers`);
    socket.destroy();
  };
}

function lineOf(lines: WeakMap<Socket, Line>, socket: Socket): Line {
  let line = lines.get(socket);
  if (!line) {
    const made: Line = { running: false, waiting: [] };
    // What waits when the connection closes has nobody to answer.
    socket.once('close', () => void made.waiting.splice(0));
    lines.set(socket, (line = made));
  }
  return line;
}
