import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Whether `request` asks to become a WebSocket (the only upgrade this server makes). */
export function isWebSocketUpgrade(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').trim().toLowerCase() === 'websocket';
}

/** Headers that ask for an upgrade, left out when the request is answered as plain HTTP/1.1. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);
/** Headers that frame a body, replaced when the body is handed on already read (see answerAsHttp). */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);

/**
 * Answers an upgrade to anything but WebSocket as the HTTP/1.1 request it also is, as HTTP lets a
 * server do (RFC 9110, 7.8: a server may ignore Upgrade). `curl --http2` on an http:// URL asks
 * for h2c this way: Node hands every request with an Upgrade header to the 'upgrade' listeners
 * once there is one, and ws answered it 400, or 405 for a POST (Node 24.9's `shouldUpgradeCallback`
 * is not used: see startServing in app.ts). Here its head is put back on the socket without the upgrade
 * headers and the server reads the connection again from there, body and later requests included.
 *
 * Node 20 to 24 leave the body on the socket (from `head` on) and pass the request's own socket.
 * Node 26 reads the body into `request` and passes a stream of what follows it instead: the body
 * is then read (at most `maxBodyBytes`, as the body limit allows; over it, 413 and the connection
 * closed) and handed on with a Content-Length of its own.
 */
export function answerAsHttp(server: Server, request: IncomingMessage, socket: Duplex, head: Buffer, maxBodyBytes: number): void {
  if (socket === request.socket) return readAgain(server, socket, headerBlock(request, null), head);
  const giveUp = setTimeout(() => socket.destroy(), server.requestTimeout || 120_000);
  bodyOf(request, maxBodyBytes).then(
    (body) => {
      clearTimeout(giveUp);
      if (body) readAgain(server, socket, headerBlock(request, body.length), Buffer.concat([body, head]));
      else socket.end(tooLarge(maxBodyBytes));
    },
    () => {
      clearTimeout(giveUp);
      socket.destroy();
    },
  );
}

/** Hands `socket` back to the HTTP server, which reads `block` and `rest` as the start of the connection. */
function readAgain(server: Server, socket: Duplex, block: Buffer, rest: Buffer): void {
  socket.unshift(Buffer.concat([block, rest]));
  server.emit('connection', socket);
}

/** The request line and headers without the upgrade's; with `bodyLength`, framed by a Content-Length of it. */
function headerBlock(request: IncomingMessage, bodyLength: number | null): Buffer {
  const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower) || (bodyLength !== null && FRAMING_HEADERS.has(lower))) continue;
    let value = raw[i + 1]!;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token && !UPGRADE_HEADERS.has(token.toLowerCase()))
        .join(', ');
      if (!value) continue;
    }
    lines.push(`${name}: ${value}`);
  }
  if (bodyLength !== null) lines.push(`Content-Length: ${bodyLength}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The body Node read into `request`, or null once it is longer than `limit` bytes. */
function bodyOf(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    request.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) return void chunks.push(chunk);
      request.removeAllListeners('data');
      request.pause();
      resolve(null);
    });
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
    request.once('aborted', () => reject(new Error('aborted')));
  });
}

/** The body limit's answer (src/server/body-limit.ts), written raw: the connection closes after it. */
function tooLarge(limit: number): string {
  const body = JSON.stringify({ errors: [{ message: `Request body too large (at most ${limit} bytes)`, extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] });
  return `HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
