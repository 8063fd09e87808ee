// What a build was made from, as one digest (build-ui.mjs: the dashboard's sources; built-server.mjs:
// the server's): file times cannot tell, since git checkouts and codegen rewrite them.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir`, at any depth. */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name));
}

/** SHA-256 over each file's path (relative to `base`) and contents, in path order. */
export function filesDigest(base, files) {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) hash.update(relative(base, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}
