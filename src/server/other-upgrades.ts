import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Whether `request` asks to become a WebSocket (the only upgrade this server makes). */
export function isWebSocketUpgrade(request: IncomingMessage): boolean {
  return (request.headers.upgrade ?? '').trim().toLowerCase() === 'websocket';
}

/** Headers that ask for an upgrade, left out when the request is answered as plain HTTP/1.1. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * Answers an upgrade to anything but WebSocket as the HTTP/1.1 request it also is, as HTTP lets a
 * server do (RFC 9110, 7.8: a server may ignore Upgrade). `curl --http2` on an http:// URL asks
 * for h2c this way: Node hands every request with an Upgrade header to the 'upgrade' listeners
 * once there is one, and ws answered it 400, or 405 for a POST (Node 24.9's `shouldUpgradeCallback`
 * is not used: see startServing in app.ts). Here its head is put back on the socket without the upgrade
 * headers and the server reads the connection again from there, body and later requests included.
 */
export function answerAsHttp(server: Server, request: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
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
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
