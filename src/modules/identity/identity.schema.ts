import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { CREATE_ERRORS, WRITE_ERRORS } from '../../graphql/errors.ts';
import { decodeId } from '../../graphql/ids.ts';
import { PAGING } from '../../graphql/paging.ts';
import { GLOBAL_SCOPE_ID } from '../scopes/scopes.service.ts';
import { ScopeRef } from '../scopes/scopes.schema.ts';
import { SCOPE_TYPENAMES } from '../../graphql/ids.ts';
import { ADMIN, can } from '../../graphql/rules.ts';
import type { Grant } from '../../generated/sqlite/client.ts';
import type { Role } from './access.service.ts';
import { grantRole, revokeGrant } from './grants.service.ts';
import type { PrincipalKind } from '../../domain/principal-kinds.ts';
import { createApiKey, createPrincipal, revokeApiKey } from './keys.service.ts';

/**
 * Pothos hands an empty `select` to a field whose object is asked only for `__typename` (as a
 * result-union member can be); Prisma refuses an empty select, so such a query reads the row.
 */
function usable<Q extends { select?: object }>(query: Q): Q | Record<string, never> {
  return query.select && Object.keys(query.select).length === 0 ? {} : query;
}

const PrincipalKindEnum = builder.enumType('PrincipalKind', {
  description: 'What a principal is.',
  values: {
    AGENT: { description: 'An AI agent; `agent:<name>` actors name it.' },
    USER: { description: 'A person.' },
    SERVICE: { description: 'A program acting on its own (an orchestrator, a CI job).' },
  },
});

export const PrincipalRef = builder.prismaObject('Principal', {
  description: 'Someone who calls Engram with API keys: an agent, a user or a service.',
  fields: (t) => ({
    id: t.id({ description: 'Global ID.', resolve: (p) => encodeGlobalID('Principal', p.id) }),
    name: t.exposeString('name', { description: 'Unique name.' }),
    kind: t.field({ type: PrincipalKindEnum, description: 'Agent, user or service.', resolve: (p) => p.kind as PrincipalKind }),
    admin: t.boolean({
      description: 'Holds ADMIN on the global scope: manages principals and keys.',
      select: { grants: { where: { scopeId: GLOBAL_SCOPE_ID, role: 'ADMIN' }, select: { id: true } } },
      resolve: (p) => p.grants.length > 0,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    keys: t.relation('keys', {
      description: 'Its API keys, revoked ones included (never their secrets). Only admins and the principal itself see them.',
      // A scope admin meets principals through grants; their keys are not its business.
      query: (_args, ctx) => ({ where: ctx.access.everything ? {} : { principalId: ctx.caller.principal?.id ?? '' }, orderBy: { createdAt: 'asc' } }),
    }),
    actsForOthers: t.exposeBoolean('actsForOthers', { description: 'A service that may name another principal as the actor of its writes.' }),
    grants: t.field({
      type: [GrantRef],
      description: 'Its grants on scopes the caller may read, by scope.',
      select: { grants: { orderBy: { scopeId: 'asc' } } },
      resolve: async (p, _args, ctx) => {
        const visible = await Promise.all(p.grants.map((g) => ctx.access.has('READ', g.scopeId)));
        return p.grants.filter((_, i) => visible[i]);
      },
    }),
  }),
});

builder.prismaObject('ApiKey', {
  description: 'An API key (`Authorization: Bearer egk_…`). Only a hash of the secret is stored.',
  fields: (t) => ({
    id: t.id({ description: 'Global ID.', resolve: (k) => encodeGlobalID('ApiKey', k.id) }),
    name: t.exposeString('name', { description: 'What it is for.' }),
    prefix: t.exposeString('prefix', { description: 'Its first characters (`egk_` and 8 more), to recognize it.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it stops working (null: never).' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Last use, to the minute.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was revoked.' }),
    principal: t.relation('principal', { description: 'Whose key it is.' }),
  }),
});

const AccessRoleEnum = builder.enumType('AccessRole', {
  description: 'What a grant allows on its scope and everything below it; each role includes the ones before it.',
  values: {
    READ: { description: 'Read entries, sessions, events, state, tasks and conversations.' },
    WRITE: { description: 'Also write them (and start sessions, create projects below).' },
    ADMIN: { description: 'Also manage grants at and below the scope, and write project: state.' },
  },
});

export const GrantRef = builder.objectRef<Grant>('Grant').implement({
  description: 'A role of a principal on a scope and everything below it.',
  fields: (t) => ({
    id: t.id({ description: 'Global ID (pass it to revokeGrant).', resolve: (g) => encodeGlobalID('Grant', g.id) }),
    role: t.field({ type: AccessRoleEnum, description: 'What it allows.', resolve: (g) => g.role as Role }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was given.' }),
    principal: t.prismaField({
      type: 'Principal',
      nullable: true,
      description: 'Who holds it (null once the principal is gone).',
      resolve: (query, g, _args, ctx) => ctx.db.principal.findUnique({ ...usable(query), where: { id: g.principalId } }),
    }),
    scope: t.field({
      type: ScopeRef,
      nullable: true,
      description: 'Where it applies (null once the scope is gone).',
      resolve: (g, _args, ctx) => ctx.db.scope.findUnique({ where: { id: g.scopeId } }),
    }),
  }),
});

const ViewerRef = builder.objectRef<{ principalId: string | null; local: boolean; unchecked: boolean }>('Viewer').implement({
  description: 'Who the server takes the caller to be.',
  fields: (t) => ({
    principal: t.prismaField({
      type: 'Principal',
      nullable: true,
      description: 'The principal of the API key sent; null without one.',
      // Queried even without a principal: Pothos checks that every prepared selection is used.
      resolve: (query, v, _args, ctx) => ctx.db.principal.findUnique({ ...usable(query), where: { id: v.principalId ?? '' } }),
    }),
    local: t.exposeBoolean('local', { description: 'Protected mode: no key exists yet and the call came from this machine (an admin).' }),
    authentication: t.boolean({ description: 'False when the server runs with AUTH=off.', resolve: (v) => !v.unchecked }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: 'Who the server takes the caller to be.',
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ({ principalId: ctx.caller.principal?.id ?? null, local: ctx.caller.local, unchecked: ctx.caller.unchecked }),
  }),
  principals: t.prismaConnection(
    {
      type: 'Principal',
      cursor: 'id',
      ...PAGING,
      description: 'Principals by name (admins only: FORBIDDEN otherwise).',
      authScopes: ADMIN,
      totalCount: (_parent, _args, ctx) => {
        return ctx.db.principal.count();
      },
      resolve: (query, _root, _args, ctx) => {
        return ctx.db.principal.findMany({ ...query, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
      },
    },
    { description: 'Page of principals.' },
    { description: 'A principal.' },
  ),
}));

const CreatePrincipalInput = builder.inputType('CreatePrincipalInput', {
  description: 'A new principal.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Unique name: letters, digits and . _ : @ -.' }),
    kind: t.field({ type: PrincipalKindEnum, required: true, description: 'Agent, user or service.' }),
    admin: t.boolean({ description: 'Give it ADMIN on the global scope (default false).' }),
    actsForOthers: t.boolean({ description: 'SERVICE only: may name another principal as the actor of its writes (default false).' }),
  }),
});

const GrantRoleInput = builder.inputType('GrantRoleInput', {
  description: 'A role to give a principal on a scope (replacing the role it holds there).',
  fields: (t) => ({
    principal: t.id({ required: true, description: 'Who.' }),
    scope: t.id({ required: true, description: 'Where: the role covers this scope and everything below it.' }),
    role: t.field({ type: AccessRoleEnum, required: true, description: 'What it allows.' }),
  }),
});

const RevokeGrantInput = builder.inputType('RevokeGrantInput', {
  description: 'A grant to remove.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The grant.' }) }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  description: 'A new API key for a principal.',
  fields: (t) => ({
    principal: t.id({ required: true, description: 'Whose key.' }),
    name: t.string({ required: true, description: 'What it is for (e.g. "ci", "laptop").' }),
    expiresAt: t.field({ type: 'DateTime', description: 'When it stops working (default: never).' }),
  }),
});

const RevokeApiKeyInput = builder.inputType('RevokeApiKeyInput', {
  description: 'A key to revoke.',
  fields: (t) => ({ id: t.id({ required: true, description: 'The key.' }) }),
});

const NewApiKeyRef = builder.objectRef<{ key: { id: string }; secret: string }>('NewApiKey').implement({
  description: 'A key just made, with its secret: shown this once, stored nowhere.',
  fields: (t) => ({
    apiKey: t.prismaField({
      type: 'ApiKey',
      description: 'The key.',
      resolve: (query, k, _args, ctx) => ctx.db.apiKey.findUniqueOrThrow({ ...usable(query), where: { id: k.key.id } }),
    }),
    secret: t.exposeString('secret', { description: 'Send it as `Authorization: Bearer <secret>`.' }),
  }),
});

const ADMIN_ERRORS = WRITE_ERRORS;

builder.mutationFields((t) => ({
  createPrincipal: t.prismaField({
    type: 'Principal',
    description: 'Creates a principal (admins only).',
    authScopes: ADMIN,
    args: { input: t.arg({ type: CreatePrincipalInput, required: true, description: 'The principal.' }) },
    errors: { types: [...CREATE_ERRORS], dataField: { name: 'principal', description: 'The new principal.' } },
    resolve: async (query, _root, { input }, ctx) => {
      const created = await createPrincipal(ctx.db, input);
      return ctx.db.principal.findUniqueOrThrow({ ...usable(query), where: { id: created.id } });
    },
  }),
  createApiKey: t.field({
    type: NewApiKeyRef,
    description: 'Makes an API key for a principal (admins only); its secret is in the answer, once.',
    authScopes: ADMIN,
    args: { input: t.arg({ type: CreateApiKeyInput, required: true, description: 'The key.' }) },
    errors: { types: [...ADMIN_ERRORS], dataField: { name: 'key', description: 'The key and its secret.' } },
    resolve: async (_root, { input }, ctx) => {
      const principalId = decodeId(String(input.principal), ['Principal'], ['input', 'principal']);
      const created = await createApiKey(ctx.db, { principalId, name: input.name, expiresAt: input.expiresAt ?? null });
      ctx.authenticator.forget();
      return created;
    },
  }),
  grantRole: t.field({
    type: GrantRef,
    description: 'Gives a principal a role on a scope and everything below it (ADMIN on that scope needed).',
    args: { input: t.arg({ type: GrantRoleInput, required: true, description: 'The grant.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'scope', input.scope, SCOPE_TYPENAMES, ['input', 'scope']),
    errors: { types: [...ADMIN_ERRORS], dataField: { name: 'grant', description: 'The grant.' } },
    resolve: async (_root, { input }, ctx) => {
      const principalId = decodeId(String(input.principal), ['Principal'], ['input', 'principal']);
      const scopeId = decodeId(String(input.scope), SCOPE_TYPENAMES, ['input', 'scope']);
      const grant = await grantRole(ctx.db, { principalId, scopeId, role: input.role });
      ctx.authenticator.forget();
      ctx.grantCache.forget();
      return grant;
    },
  }),
  revokeGrant: t.field({
    type: GrantRef,
    description: 'Removes a grant at once, ending the subscriptions it allowed (ADMIN on its scope needed).',
    args: { input: t.arg({ type: RevokeGrantInput, required: true, description: 'The grant.' }) },
    authScopes: (_root, { input }) => can('ADMIN', 'grant', input.id, ['Grant'], ['input', 'id']),
    errors: { types: [...ADMIN_ERRORS], dataField: { name: 'grant', description: 'The grant as it was.' } },
    resolve: async (_root, { input }, ctx) => {
      const grant = await revokeGrant(ctx.db, decodeId(String(input.id), ['Grant'], ['input', 'id']));
      ctx.authenticator.forget();
      ctx.grantCache.forget();
      return grant;
    },
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    description: 'Revokes an API key at once (admins only); revoking twice is harmless.',
    authScopes: ADMIN,
    args: { input: t.arg({ type: RevokeApiKeyInput, required: true, description: 'The key.' }) },
    errors: { types: [...ADMIN_ERRORS], dataField: { name: 'apiKey', description: 'The key, revoked.' } },
    resolve: async (query, _root, { input }, ctx) => {
      const revoked = await revokeApiKey(ctx.db, decodeId(String(input.id), ['ApiKey'], ['input', 'id']));
      ctx.authenticator.forget();
      return ctx.db.apiKey.findUniqueOrThrow({ ...usable(query), where: { id: revoked.id } });
    },
  }),
}));
