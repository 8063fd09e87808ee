// `npm start`: the server, built (dist/, from `npm install` or `npm run build`) when the build is of
// these sources, else through tsx (see built-server.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './built-server.mjs';

await launch(join(dirname(fileURLToPath(import.meta.url)), '..'), 'src/main.ts');
