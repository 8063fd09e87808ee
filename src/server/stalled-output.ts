// Connections whose client stops reading. What the server writes to a socket the peer does not
// drain waits in the server's memory: a client that reads an answer slowly, or not at all, holds
// it (up to the 32 MB a query may answer) for as long as it keeps the connection open, and an
// SSE or WebSocket subscriber that stopped reading holds its connection, its subscription and the
// event it was sent (both transports wait for an event to be taken before sending the next; the
// rest stays in the change feed, so its memory does not grow).
//
// Node's socket timeout (`server.timeout`) does not catch this: it counts time since the last
// read or write *call*, so a stream that keeps writing to a stalled peer never times out. Nothing
// in Yoga, graphql-ws or ws bounds it either, hence this sweep.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { log } from '../infra/log.ts';

export interface StalledOutputLimits {
  /** Output waiting in a socket's buffers past which its connection is closed. */
  maxBacklogBytes: number;
  /** How long output may wait while fewer than `minProgressBytes` of it are taken. */
  stallMs: number;
  /** What a reader must take per `stallMs` while output waits for it. */
  minProgressBytes: number;
  /** How often the sockets are looked at. */
  sweepMs: number;
}

export const DEFAULT_STALLED_OUTPUT_LIMITS: StalledOutputLimits = {
  // Above the largest answer a query may give (RESPONSE_TOO_LARGE past 32 MB), which a fast
  // reader may have waiting in full for a moment.
  maxBacklogBytes: 48 * 1024 * 1024,
  stallMs: 30_000,
  minProgressBytes: 16 * 1024,
  sweepMs: 1_000,
};

/** Where a socket with waiting output stood when its current window started. */
interface Window {
  since: number;
  taken: number;
}

/**
 * Bytes the operating system has taken from `socket`: what Node handed its handle less what the
 * handle still queues. Node's public `bytesWritten` counts what still waits too, and a large write
 * (an answer's 10 MB) goes to the handle whole, leaving `writableLength` unchanged until its last
 * byte is taken: only these two fields of net.Socket (the same in Node 20, 22 and 24) show a slow
 * reader taking it. Without them, the bytes of the writes completed.
 */
function taken(socket: Socket): number {
  const inside = socket as Socket & { _bytesDispatched?: unknown; _handle?: { writeQueueSize?: unknown } | null };
  const dispatched = inside._bytesDispatched;
  const queued = inside._handle?.writeQueueSize;
  if (typeof dispatched === 'number' && typeof queued === 'number') return dispatched - queued;
  return socket.bytesWritten - socket.writableLength;
}

/**
 * Closes connections of `server` (HTTP, SSE and upgraded WebSockets alike: they share the socket)
 * whose waiting output passes `maxBacklogBytes`, or that take fewer than `minProgressBytes` of it
 * in `stallMs`. Returns a function that stops the sweep.
 */
export function closeStalledConnections(server: Server, limits: Partial<StalledOutputLimits> = {}): () => void {
  const settings = { ...DEFAULT_STALLED_OUTPUT_LIMITS, ...limits };
  const windows = new Map<Socket, Window>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    // A socket comes again after an upgrade to another protocol is answered as HTTP (other-upgrades.ts).
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      windows.delete(socket);
    });
  });
  const timer = setInterval(() => {
    const now = Date.now();
    for (const socket of sockets) {
      const verdict = judge(socket, windows, now, settings);
      if (verdict) drop(socket, verdict);
    }
  }, settings.sweepMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Why `socket` is to be closed, or null; keeps its window up to date. */
function judge(socket: Socket, windows: Map<Socket, Window>, now: number, limits: StalledOutputLimits): string | null {
  const waiting = socket.writableLength;
  if (waiting === 0 || socket.destroyed) {
    windows.delete(socket);
    return null;
  }
  if (waiting > limits.maxBacklogBytes) return `${waiting} bytes waiting for the client to read them (limit ${limits.maxBacklogBytes})`;
  const window = windows.get(socket);
  if (!window) {
    windows.set(socket, { since: now, taken: taken(socket) });
    return null;
  }
  if (now - window.since < limits.stallMs) return null;
  const sofar = taken(socket);
  const progress = sofar - window.taken;
  if (progress < limits.minProgressBytes) return `the client took ${progress} bytes in ${Math.round((now - window.since) / 1000)} s with ${waiting} waiting`;
  windows.set(socket, { since: now, taken: sofar });
  return null;
}

function drop(socket: Socket, reason: string): void {
  log.warn({ remoteAddress: socket.remoteAddress }, `Closing a connection whose client stopped reading: ${reason}`);
  socket.destroy();
}
