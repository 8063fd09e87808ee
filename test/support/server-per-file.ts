// The real server process for a test file: on a database of its own, started before the file's
// tests and stopped (its database dropped) after them.
import { afterAll, beforeAll } from 'vitest';
import { createDatabaseUrl } from './harness.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

export function useServerProcess(env: Record<string, string> = {}): { readonly server: ServerProcess } {
  let server: ServerProcess | undefined;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const created = await createDatabaseUrl();
    drop = created.drop;
    server = await startServerProcess(created.url, env);
  });
  afterAll(async () => {
    await server?.kill();
    await drop();
  });
  return {
    get server() {
      if (!server) throw new Error('the server process starts in beforeAll');
      return server;
    },
  };
}
