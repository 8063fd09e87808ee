// Principals, keys and grants for access-control tests: made in-process (a local admin).
import { expect } from 'vitest';
import type { Harness } from './harness.ts';

export interface Answer {
  data?: Record<string, any> | null;
  errors?: { message: string; path?: string[]; extensions: { code: string } }[];
}

/**
 * An operation as the holder of `key`: over a real socket when the harness listens (the client a
 * deployment sees), else in-process. Without a key: in-process, as the local admin of protected
 * mode (over the network a key is needed once one exists).
 */
export async function as(
  h: Harness,
  key: string | null,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer & { status?: number }> {
  const url = key && h.port ? `http://127.0.0.1:${h.port}/graphql` : 'http://engram.test/graphql';
  const send = key && h.port ? fetch : h.app.yoga.fetch;
  const response = await send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { ...((await response.json()) as Answer), status: response.status };
}

/** Like `as`, failing on any error. */
export async function ok(h: Harness, key: string | null, query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const { status: _status, ...answer } = await as(h, key, query, variables);
  if (answer.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(answer.errors)}`);
  return answer.data!;
}

export const codes = (a: Answer) => a.errors?.map((e) => e.extensions.code) ?? [];

export interface Principal {
  id: string;
  name: string;
  key: string;
}

/** A principal with one key (and optional grants), made by the local admin. */
export async function principal(
  h: Harness,
  name: string,
  options: { kind?: 'AGENT' | 'USER' | 'SERVICE'; admin?: boolean; actsForOthers?: boolean; grants?: Array<[scope: string, role: string]> } = {},
): Promise<Principal> {
  const made = await ok(
    h,
    null,
    `mutation($i: CreatePrincipalInput!) { createPrincipal(input: $i) { __typename ... on CreatePrincipalSuccess { principal { id } } ... on UserError { message } } }`,
    { i: { name, kind: options.kind ?? 'AGENT', admin: options.admin ?? false, actsForOthers: options.actsForOthers ?? false } },
  );
  expect(made.createPrincipal.__typename).toBe('CreatePrincipalSuccess');
  const id = made.createPrincipal.principal.id as string;
  const keyed = await ok(h, null, `mutation($p: ID!) { createApiKey(input: { principal: $p, name: "test" }) { ... on CreateApiKeySuccess { key { secret } } } }`, { p: id });
  for (const [scope, role] of options.grants ?? []) await grant(h, null, id, scope, role);
  return { id, name, key: keyed.createApiKey.key.secret as string };
}

/** Gives a role; returns the grant's ID. */
export async function grant(h: Harness, key: string | null, principalId: string, scope: string, role: string): Promise<string> {
  const given = await ok(
    h,
    key,
    `mutation($i: GrantRoleInput!) { grantRole(input: $i) { __typename ... on GrantRoleSuccess { grant { id } } ... on UserError { code message } } }`,
    { i: { principal: principalId, scope, role } },
  );
  if (given.grantRole.__typename !== 'GrantRoleSuccess') throw new Error(`grantRole: ${JSON.stringify(given.grantRole)}`);
  return given.grantRole.grant.id as string;
}
