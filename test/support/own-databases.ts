// Databases a test file opens itself (with options the shared harness does not take), each with
// an app, closed and dropped after the file.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterAll, expect } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { sqlitePath } from '../../src/config.ts';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/infra/database.ts';
import { client, createDatabaseUrl, type Harness } from './harness.ts';

export interface OwnDatabase extends Pick<Harness, 'gql' | 'ok'> {
  database: Database;
  app: App;
  url: string;
  /** The database file (SQLite). */
  file: string;
}

/** `open(options)`: a new database opened with `options`, an app on it and its client. Call at the top of a describe. */
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
    const own = { database, app, url, file: url.startsWith('file:') ? sqlitePath(url) : '', ...client(app) };
    opened.push({ ...own, drop });
    return own;
  };
}

const CreateProject = parse(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`) as TypedDocumentNode<
  { createProject: { project: { id: string } } },
  { n: string }
>;
const ImportEntries = parse(`mutation($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }`) as TypedDocumentNode<
  { importEntries: { __typename: string } },
  { e: unknown[] }
>;

/** `count` knowledge notes, the i-th with `content(i)`, imported through the API into a new project `name`. */
export async function importNotes(own: Pick<OwnDatabase, 'ok'>, name: string, count: number, content: (i: number) => string): Promise<void> {
  const scope = (await own.ok(CreateProject, { n: name })).createProject.project.id;
  const entries = Array.from({ length: count }, (_, i) => ({ scope, kind: 'KNOWLEDGE', name: `${name}-${i}`, content: content(i) }));
  expect(await own.ok(ImportEntries, { e: entries })).toEqual({ importEntries: { __typename: 'ImportEntriesSuccess' } });
}
