#!/usr/bin/env node
// The `engram` command. Runs the compiled CLI (dist/, from `npm install` or `npm run build`) when
// it was built from these sources, else the TypeScript sources through tsx (see
// scripts/built-server.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtModule } from '../scripts/built-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = builtModule(root, 'src/cli/main.ts');
if (compiled) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api').catch(() => {
    console.error('engram: neither a build of these sources (npm run build) nor tsx (npm install with dev dependencies) is here');
    process.exit(1);
  });
  register();
  await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
}
