// Bundles the dashboard (ui/) into dist/ui/, and GraphiQL's fetcher into dist/ui/graphiql.js:
// esbuild at install and build time, so the server serves only local files (no CDN, works offline). Asset names carry a content hash, so the
// server can let browsers cache them for good; index.html names the current ones.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesDigest, filesUnder } from './digest.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'ui');
const out = join(root, 'dist', 'ui');

/**
 * A digest of every file under ui/: written beside the bundle, so a test can tell a bundle built
 * from other sources (file times cannot: git checkouts and codegen rewrite them).
 */
export function sourceDigest() {
  return filesDigest(source, filesUnder(source));
}

/** Builds dist/ui (index.html + assets/, graphiql.js). Returns the dashboard's asset file names. */
export async function buildUi() {
  // esbuild is a devDependency: a production install without it keeps whatever was built before.
  const esbuild = await import('esbuild');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(source, 'src', 'main.tsx')],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  // GraphiQL's fetcher (ui/src/graphiql.ts), a script the GraphiQL page inlines
  // (src/server/graphiql.ts): it exposes `EngramGraphiQL.createFetcher`.
  await esbuild.build({
    entryPoints: [join(source, 'src', 'graphiql.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'EngramGraphiQL',
    target: ['chrome110', 'firefox115', 'safari16'],
    outfile: join(out, 'graphiql.js'),
    logLevel: 'warning',
  });
  const assets = Object.keys(result.metafile.outputs).map((file) => basename(file));
  const script = assets.find((name) => name.endsWith('.js'));
  const style = assets.find((name) => name.endsWith('.css'));
  const html = readFileSync(join(source, 'index.html'), 'utf8')
    .replace('%SCRIPT%', `assets/${script}`)
    .replace('%STYLE%', `assets/${style}`);
  writeFileSync(join(out, 'index.html'), html);
  writeFileSync(join(out, 'source.sha256'), `${sourceDigest()}\n`);
  return assets;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const assets = await buildUi();
  console.log(`dashboard built in ${Date.now() - started} ms: dist/ui (${assets.filter((a) => !a.endsWith('.map')).join(', ')})`);
}
