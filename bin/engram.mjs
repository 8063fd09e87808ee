#!/usr/bin/env node
// The `engram` command. Runs the compiled CLI (dist/, from `npm install` or `npm run build`) when
// it was built from these sources, else the TypeScript sources through tsx (see
// scripts/built-server.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../scripts/built-server.mjs';

await launch(join(dirname(fileURLToPath(import.meta.url)), '..'), 'src/cli/main.ts');
