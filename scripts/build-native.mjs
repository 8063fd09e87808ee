// Compiles native/fts5-rank.c (engram_bm25, see there) into native/build/, against the SQLite
// headers better-sqlite3 ships. Run by `npm install` (postinstall). Best effort: without a C
// compiler, or on a platform not handled here, it says so and the server ranks with FTS5's own
// bm25() (the same scores; tag + word queries a few milliseconds slower at 1M entries).
//   node scripts/build-native.mjs            fails on an error
//   node scripts/build-native.mjs --install  only warns
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const install = process.argv.includes('--install');
const source = join(root, 'native', 'fts5-rank.c');
const output = join(root, 'native', 'build', `fts5-rank.${process.platform === 'darwin' ? 'dylib' : 'so'}`);

function fail(message) {
  rmSync(output, { force: true });
  if (!install) {
    console.error(`build-native: ${message}`);
    process.exit(1);
  }
  console.warn(`build-native: ${message}\n(SQLite ranks tag + word queries with FTS5's bm25(): the same results, slower)`);
  process.exit(0);
}

if (process.platform === 'win32') fail('not built on Windows');
// Either of Engram's better-sqlite3 versions (packages/better-sqlite3): their extension API is the
// same, and an extension calls SQLite through the routines the loading connection hands it.
const headers = ['better-sqlite3-v13', 'better-sqlite3-v12']
  .map((name) => join(root, 'node_modules', name, 'deps', 'sqlite3'))
  .find((dir) => existsSync(join(dir, 'sqlite3ext.h')));
if (!headers) fail("better-sqlite3's SQLite headers are not installed");

// CC may name a wrapper and its compiler ("ccache gcc", as CI sets it); else the first of the usual names found.
const compilers = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
const shared = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared', '-fPIC'];
mkdirSync(dirname(output), { recursive: true });
const partial = `${output}.${process.pid}`;
const tried = [];
for (const compiler of compilers) {
  const [cc, ...ccArgs] = compiler.trim().split(/\s+/);
  const result = spawnSync(cc, [...ccArgs, '-O2', ...shared, '-I', headers, source, '-o', partial, '-lm'], { stdio: 'inherit' });
  if (!result.error && result.status === 0) break;
  tried.push(`${compiler}: ${result.error?.message ?? `exit ${result.status}`}`);
}
if (tried.length === compilers.length) {
  rmSync(partial, { force: true });
  fail(`native/fts5-rank.c was not compiled (${tried.join('; ')})`);
}
// Renamed into place: a server starting meanwhile finds the old file or the new one, never half of one.
renameSync(partial, output);
