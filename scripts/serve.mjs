// `npm start`: the server, built (dist/, from `npm install` or `npm run build`) when the build is of
// these sources, else through tsx (see built-server.mjs).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtModule } from './built-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = builtModule(root, 'src/main.ts');
if (built) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
}
