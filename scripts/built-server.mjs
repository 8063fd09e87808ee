// Whether dist/ holds the server built from these very sources: `npm start` and the `engram`
// command run the build when it does (no TypeScript loader: ~1.6 s less to start, 2026-11-30),
// and the sources through tsx when it does not (an edit since the build, or no build at all), so
// neither ever runs code older than the checkout's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { filesDigest, filesUnder } from './digest.mjs';

/** The file `npm run build` writes beside the build: the digest of the sources it compiled. */
export const DIGEST_FILE = join('dist', 'src.digest');

/** A digest of everything that decides the build: every file under src/ and the TypeScript settings. */
export function sourceDigest(root) {
  const settings = ['tsconfig.json', 'tsconfig.build.json'].map((name) => join(root, name)).filter((file) => existsSync(file));
  return filesDigest(root, [...filesUnder(join(root, 'src')), ...settings]);
}

/**
 * Runs `source` (e.g. `src/main.ts`) of the checkout at `root`: its build when that is of these
 * sources, else the source through tsx.
 */
export async function launch(root, source) {
  const built = builtModule(root, source);
  if (built) {
    await import(pathToFileURL(built).href);
    return;
  }
  const { register } = await import('tsx/esm/api').catch(() => {
    console.error('engram: neither a build of these sources (npm run build) nor tsx (npm install with dev dependencies) is here');
    process.exit(1);
  });
  register();
  await import(pathToFileURL(join(root, source)).href);
}

/** The compiled module of `source` (e.g. `src/main.ts`) when dist/ was built from the sources as they are now, else null. */
export function builtModule(root, source) {
  const compiled = join(root, 'dist', source.replace(/\.ts$/, '.js'));
  const digest = join(root, DIGEST_FILE);
  if (!existsSync(compiled) || !existsSync(digest)) return null;
  return readFileSync(digest, 'utf8').trim() === sourceDigest(root) ? compiled : null;
}
