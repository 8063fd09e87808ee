import type { WebSocket } from 'ws';

/**
 * Messages of one socket handed on at most this many per turn of the event loop. ws emits every
 * message of a chunk it reads in one go, and graphql-ws starts each operation (parse, validate,
 * context) as it is handed one: a client sending 50,000 subscribe/complete pairs on one socket
 * (3 MB) held the event loop for 5 s, and every other client with it. A handful per turn keeps
 * any one socket's share of a turn small, so other sockets and HTTP requests are served between.
 */
const MESSAGES_PER_TURN = 16;
/** Past this many messages (or characters of them) waiting, the socket is paused: TCP holds the rest at the client. */
const MAX_WAITING_MESSAGES = 256;
const MAX_WAITING_CHARS = 1024 * 1024;

/**
 * A queue in front of `handle` for `socket`'s messages, in order, a few per turn; while it is
 * full, the socket is not read. Returns what to call with each message as ws delivers it. Once the
 * socket closes, what is still waiting is dropped: its operations would end at once anyway.
 */
export function messageQueue(socket: WebSocket, handle: (message: string) => void): (message: string) => void {
  const waiting: string[] = [];
  let chars = 0;
  let scheduled = false;
  let closed = false;
  socket.once('close', () => {
    closed = true;
    waiting.length = 0;
  });
  const handOn = () => {
    scheduled = false;
    for (let handed = 0; handed < MESSAGES_PER_TURN && waiting.length > 0 && !closed; handed++) {
      const message = waiting.shift() as string;
      chars -= message.length;
      handle(message);
    }
    if (waiting.length > 0 && !closed) schedule();
    else if (socket.isPaused) socket.resume();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(handOn);
  };
  return (message) => {
    if (closed) return;
    waiting.push(message);
    chars += message.length;
    if (waiting.length >= MAX_WAITING_MESSAGES || chars >= MAX_WAITING_CHARS) socket.pause();
    schedule();
  };
}
