// Compiles src/ into dist/ (tsc) and writes the digest of the sources it compiled (built-server.mjs).
//   node scripts/build-server.mjs            type-checks as it compiles (`npm run build`); fails on an error
//   node scripts/build-server.mjs --install  `npm install`'s: emit only, and a failure only warns (no
//                                            TypeScript in a production install, a source that does not
//                                            compile): `npm start` then runs the sources through tsx
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIGEST_FILE, sourceDigest } from './built-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const install = process.argv.includes('--install');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function fail(message) {
  if (!install) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`${message}\n(npm start will run the sources through tsx)`);
  process.exit(0);
}

if (!existsSync(tsc)) fail('build-server: TypeScript is not installed');
// The digest of the sources as they are before compiling: an edit made meanwhile leaves the build stale, not stamped fresh.
const digest = sourceDigest(root);
rmSync(join(root, DIGEST_FILE), { force: true });
const args = [tsc, '-p', 'tsconfig.build.json', ...(install ? ['--noCheck'] : [])];
const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (result.status !== 0) fail(`build-server: tsc failed (exit ${result.status})`);
mkdirSync(dirname(join(root, DIGEST_FILE)), { recursive: true });
writeFileSync(join(root, DIGEST_FILE), `${digest}\n`);
