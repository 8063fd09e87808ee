// SQLite runs on better-sqlite3: on Node 20 version 12, a native addon compiled for one Node ABI
// (NODE_MODULE_VERSION); on Node 22 and later version 13, prebuilt for Node's stable N-API
// (packages/better-sqlite3 says why). Run under another Node (an upgrade, nvm, a copied
// node_modules), loading it fails inside Prisma's schema engine or adapter, which reports only
// "External error id#0". Loading it here first turns that into a message saying what is wrong and
// how to fix it.
import Sqlite from 'better-sqlite3';
import { getTarget } from 'node-abi';
import { providerOfUrl } from './database.ts';

/** How to mend it under this Node (the choice of packages/better-sqlite3/index.js). */
const FIX = Number(process.versions.node.split('.')[0]) >= 22 ? 'npm install' : 'npm rebuild better-sqlite3-v12';

/** undefined when better-sqlite3 loads and opens a database; otherwise what is wrong and the fix. */
export function sqliteAddonProblem(): string | undefined {
  try {
    // better-sqlite3 loads its addon on the first constructor call, not on import.
    new Sqlite(':memory:').close();
    return undefined;
  } catch (error) {
    return explainAddonError(error);
  }
}

/** The problem of `sqliteAddonProblem` when `databaseUrl` is a SQLite database; PostgreSQL never loads the addon. */
export function sqliteAddonProblemFor(databaseUrl: string): string | undefined {
  return providerOfUrl(databaseUrl) === 'sqlite' ? sqliteAddonProblem() : undefined;
}

/** Maps a failure to load better-sqlite3 to an explanation; Node's ABI message is the common case. */
export function explainAddonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Node: "compiled against a different Node.js version using NODE_MODULE_VERSION 115. This
  // version of Node.js requires NODE_MODULE_VERSION 127."
  const abi = /NODE_MODULE_VERSION (\d+)\..*?NODE_MODULE_VERSION (\d+)/s.exec(message);
  if (abi?.[1] && abi[2]) {
    return (
      `better-sqlite3 (SQLite) was built for ${nodeOfAbi(abi[1])} (NODE_MODULE_VERSION ${abi[1]}), ` +
      `but this is Node ${process.version} (NODE_MODULE_VERSION ${abi[2]}). ` +
      `Rebuild it with this Node: ${FIX}`
    );
  }
  return (
    `better-sqlite3 (SQLite) cannot be loaded: ${message}\n` +
    `Install it again with this Node: ${FIX} (better-sqlite3 12 compiles from source when no ` +
    `prebuilt binary can be fetched, which needs python3, make and a C++ compiler)`
  );
}

function nodeOfAbi(abi: string): string {
  try {
    return `Node ${getTarget(abi, 'node').split('.')[0]}`;
  } catch {
    // An ABI newer than node-abi's table: the number alone still tells the two builds apart.
    return 'another Node version';
  }
}
