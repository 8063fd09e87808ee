// Principals and API keys made in-process (yoga.fetch acts as a local admin), for tests that then
// call over real sockets with the key.
import type { App } from '../../src/app.ts';

async function inProcess<T>(app: App, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const result = (await response.json()) as { data?: T; errors?: unknown };
  if (!result.data || result.errors) throw new Error(JSON.stringify(result));
  return result.data;
}

/**
 * A new principal named `name` with one API key: its global ID, the key's secret and global ID.
 * `admin` makes it an admin of everything; otherwise `globalRole` (default WRITE) is its grant on the
 * global scope, so it may read and write everywhere without being an admin.
 */
export async function principalWithKey(
  app: App,
  name: string,
  admin = false,
  globalRole: 'READ' | 'WRITE' | null = 'WRITE',
): Promise<{ id: string; name: string; key: string; keyId: string }> {
  const made = await inProcess<{ createPrincipal: { principal?: { id: string } } }>(
    app,
    `mutation($name: String!, $admin: Boolean) { createPrincipal(input: { name: $name, kind: AGENT, admin: $admin }) {
      ... on CreatePrincipalSuccess { principal { id } } ... on UserError { code message } } }`,
    { name, admin },
  );
  const id = made.createPrincipal.principal?.id;
  if (!id) throw new Error(`principal ${name} was not created: ${JSON.stringify(made)}`);
  const keyed = await inProcess<{ createApiKey: { key?: { secret: string; apiKey: { id: string } } } }>(
    app,
    `mutation($p: ID!) { createApiKey(input: { principal: $p, name: "test" }) {
      ... on CreateApiKeySuccess { key { secret apiKey { id } } } ... on UserError { code message } } }`,
    { p: id },
  );
  const key = keyed.createApiKey.key;
  if (!key) throw new Error(`no key for ${name}: ${JSON.stringify(keyed)}`);
  if (!admin && globalRole) {
    const global = await inProcess<{ globalScope: { id: string } }>(app, '{ globalScope { id } }', {});
    const granted = await inProcess<{ grantRole: { __typename: string } }>(
      app,
      `mutation($i: GrantRoleInput!) { grantRole(input: $i) { __typename } }`,
      { i: { principal: id, scope: global.globalScope.id, role: globalRole } },
    );
    if (granted.grantRole.__typename !== 'GrantRoleSuccess') throw new Error(`grantRole: ${JSON.stringify(granted)}`);
  }
  return { id, name, key: key.secret, keyId: key.apiKey.id };
}
