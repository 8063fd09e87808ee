import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Plugin } from 'graphql-yoga';
import { projectRoot } from '../infra/migrations.ts';
import { acceptedEncodings, compressors, type Encoding } from './compression.ts';

/**
 * The dashboard at /ui: the bundle scripts/build-ui.mjs wrote to dist/ui at install or build
 * time (Preact, no outside request). The page holds no data: it reads and writes through
 * /graphql with the key the person gives, under the same access rules as any client.
 */
const PREFIX = '/ui';

// The page talks to its own origin only (GraphQL over fetch and WebSocket; 'self' covers ws:/wss:
// of the same host in CSP 3), runs only its own bundle and cannot be framed.
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

class StaticFile {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    readonly type: string,
    readonly cacheControl: string,
  ) {
    this.etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  }

  encodedAs(encoding: Encoding): Promise<Buffer> {
    let body = this.encoded.get(encoding);
    if (!body) {
      body = compressors[encoding](this.body);
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/** path under /ui → file; read once, on the first request (a server nobody opens /ui on reads nothing). */
function loadBundle(dir: string): Map<string, StaticFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, StaticFile>();
  files.set('/', new StaticFile(readFileSync(join(dir, 'index.html')), TYPES['.html']!, 'no-cache'));
  for (const name of readdirSync(join(dir, 'assets'))) {
    const type = TYPES[extname(name)];
    // Names carry a content hash: a new build has new names, so browsers may keep these for good.
    if (type) files.set(`/assets/${name}`, new StaticFile(readFileSync(join(dir, 'assets', name)), type, 'public, max-age=31536000, immutable'));
  }
  return files;
}

export function useDashboard(dir = join(projectRoot(), 'dist', 'ui')): Plugin {
  let bundle: Map<string, StaticFile> | undefined;
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const path = url.pathname;
      if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return;
      const respond = (status: number, body: string | Uint8Array<ArrayBuffer> | null, headers: Record<string, string> = {}) =>
        endResponse(new fetchAPI.Response(body, { status, headers: { 'x-content-type-options': 'nosniff', ...headers } }));
      if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      // Relative asset paths resolve under /ui/ only.
      if (path === PREFIX) return respond(308, null, { location: `${PREFIX}/${url.search}` });
      bundle ??= loadBundle(dir);
      if (!bundle) return respond(503, 'The dashboard is not built: run `npm run build:ui` (npm install does it).', { 'content-type': 'text/plain' });
      const file = bundle.get(path === `${PREFIX}/index.html` ? '/' : path.slice(PREFIX.length));
      if (!file) return respond(404, 'Not Found', { 'content-type': 'text/plain' });

      const headers: Record<string, string> = { 'content-type': file.type, etag: file.etag, 'cache-control': file.cacheControl, vary: 'Accept-Encoding' };
      if (file.type.startsWith('text/html')) Object.assign(headers, { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' });
      const validators = request.headers.get('if-none-match')?.split(',').map((s) => s.trim());
      if (validators?.includes(file.etag)) return respond(304, null, headers);
      const [encoding] = acceptedEncodings(request.headers.get('accept-encoding'));
      if (encoding) headers['content-encoding'] = encoding;
      const body = encoding ? await file.encodedAs(encoding) : file.body;
      // A Buffer is a Uint8Array; @types/node types its store as ArrayBufferLike, BodyInit wants ArrayBuffer.
      return respond(200, request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), headers);
    },
  };
}
