#!/usr/bin/env node
// The `engram` command. Runs the compiled CLI (dist/, from `npm run build`) when there is one,
// else the TypeScript sources through tsx (a checkout with its dev dependencies).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'src', 'cli', 'main.js');
if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api').catch(() => {
    console.error('engram: neither dist/ (npm run build) nor tsx (npm install with dev dependencies) is here');
    process.exit(1);
  });
  register();
  await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
}
