import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Plugin } from 'graphql-yoga';
import { projectRoot } from '../infra/migrations.ts';
import { serveBody, StaticBody } from './compression.ts';

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

/** path under /ui → file; read once, on the first request (a server nobody opens /ui on reads nothing). */
function loadBundle(dir: string): Map<string, StaticBody> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, StaticBody>();
  const page = { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache', 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' };
  files.set('/', new StaticBody(readFileSync(join(dir, 'index.html')), page));
  for (const name of readdirSync(join(dir, 'assets'))) {
    const type = TYPES[extname(name)];
    // Names carry a content hash: a new build has new names, so browsers may keep these for good.
    if (type) files.set(`/assets/${name}`, new StaticBody(readFileSync(join(dir, 'assets', name)), { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' }));
  }
  return files;
}

export function useDashboard(dir = join(projectRoot(), 'dist', 'ui')): Plugin {
  let bundle: Map<string, StaticBody> | undefined;
  return {
    // Not async: a hook that returns a promise puts every later hook of every request on Yoga's
    // promise path (allocations and microtasks), and this one answers only /ui.
    onRequest({ request, url, endResponse, fetchAPI }) {
      const path = url.pathname;
      if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return;
      const respond = (status: number, body: string | null, headers: Record<string, string> = {}) =>
        endResponse(new fetchAPI.Response(body, { status, headers: { 'x-content-type-options': 'nosniff', ...headers } }));
      if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      // Relative asset paths resolve under /ui/ only.
      if (path === PREFIX) return respond(308, null, { location: `${PREFIX}/${url.search}` });
      bundle ??= loadBundle(dir);
      if (!bundle) return respond(503, 'The dashboard is not built: run `npm run build:ui` (npm install does it).', { 'content-type': 'text/plain' });
      const file = bundle.get(path === `${PREFIX}/index.html` ? '/' : path.slice(PREFIX.length));
      if (!file) return respond(404, 'Not Found', { 'content-type': 'text/plain' });
      return serveBody(request, file, fetchAPI).then(endResponse);
    },
  };
}
