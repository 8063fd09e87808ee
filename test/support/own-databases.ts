// Databases a test file opens itself (with options the shared harness does not take), each with
// an app, closed and dropped after the file.
import { afterAll } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { sqlitePath } from '../../src/config.ts';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/infra/database.ts';
import { createDatabaseUrl } from './harness.ts';

export interface OwnDatabase {
  database: Database;
  app: App;
  url: string;
  /** The database file (SQLite). */
  file: string;
}

/** `open(options)`: a new database opened with `options`, and an app on it. Call at the top of a describe. */
export function useOwnDatabases(): (options: DatabaseOptions) => Promise<OwnDatabase> {
  const opened: Array<OwnDatabase & { drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.app.stop(100);
      await o.database.close();
      await o.drop();
    }
  });
  return async (options) => {
    const { url, drop } = await createDatabaseUrl();
    const database = await openDatabase(url, options);
    const app = createApp({ database, graphiql: false });
    const own = { database, app, url, file: url.startsWith('file:') ? sqlitePath(url) : '' };
    opened.push({ ...own, drop });
    return own;
  };
}
