import SchemaBuilder, { PothosValidationError } from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from '../context.ts';
import { LIMITS } from '../domain/limits.ts';
import { fieldComplexity } from './complexity.ts';
import { decodeBoundedGlobalID } from './ids.ts';
import type { Target } from '../modules/identity/targets.ts';
import { isNodeType, readableNode } from './node-access.ts';
import { passes, refused } from './rules.ts';

/** A non-null JSON value as the JSON scalar parses it (a JSON `null` never reaches the scalar). */
export type JsonInput = NonNullable<unknown>;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: {
    /** Any caller that passed authentication (only `viewer`: who am I). */
    authenticated: boolean;
    /** The caller holds some grant (or may do everything). */
    member: boolean;
    /** The caller holds WRITE or ADMIN somewhere (shared vocabulary such as tags). */
    writer: boolean;
    /** The caller may do everything: ADMIN on global, a local caller in protected mode, AUTH=off. */
    admin: boolean;
    /** The caller holds a role on the scope of a row (src/modules/identity/targets.ts). */
    can: Target;
    /** Each of several targets (bulk writes). */
    canEach: Target[];
  };
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: JsonInput; Output: unknown };
  };
}>({
  // Errors first, so a refused rule becomes a PermissionDeniedError member of a result union;
  // scope-auth before the others, so nothing resolves before the rules pass.
  plugins: [ErrorsPlugin, ScopeAuthPlugin, RelayPlugin, PrismaPlugin, ComplexityPlugin],
  scopeAuth: {
    // Subscriptions are refused when they start, not at their first event.
    authorizeOnSubscribe: true,
    cacheKey: (value) => JSON.stringify(value),
    unauthorizedError: refused,
    authScopes: async (ctx) => ({
      authenticated: true,
      member: await ctx.access.member(),
      admin: ctx.access.everything,
      writer: ctx.access.everything || [...(await ctx.access.grants()).values()].some((role) => role !== 'READ'),
      can: (target: Target) => passes(ctx, target),
      canEach: async (targets: Target[]) => (await Promise.all(targets.map(async (target) => passes(ctx, target)))).every(Boolean),
    }),
  },
  // Costs are measured before execution by src/server/limits.ts; the plugin only describes them.
  complexity: { fieldComplexity, disabled: true },
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: {
      description: 'Fetches any object by its global ID; null when none has it or the caller may not read it.',
      authScopes: { member: true },
      resolve: async (_root, { id }, ctx, info, resolveNode) => (isNodeType(info.schema, id.typename) ? readableNode(ctx, id.typename, await resolveNode(id)) : null),
    },
    nodesQueryOptions: {
      description: 'Fetches objects by their global IDs, in order; null for unknown IDs and for what the caller may not read.',
      authScopes: { member: true },
      resolve: async (_root, args, ctx, info, resolveNodes) => {
        // Only IDs of node types are resolved: Pothos fails the whole list on any other. Its
        // resolveNodes (plugin-relay 4) reads `args.ids` when called and ignores the list it is
        // given, so the list it reads is the one narrowed here.
        const { ids } = args;
        const known = ids.map((id) => isNodeType(info.schema, id.typename));
        args.ids = ids.filter((_id, i) => known[i]);
        const nodes = await resolveNodes(args.ids);
        let next = 0;
        return Promise.all(ids.map(async (id, i) => (known[i] ? readableNode(ctx, id.typename, nodes[next++]) : null)));
      },
    },
    idFieldOptions: { description: 'Global ID (opaque; pass it back to `node`).' },
    // An ID whose database id holds a NUL is malformed (PostgreSQL cannot even compare with it).
    decodeGlobalID: (globalID) => {
      const decoded = decodeBoundedGlobalID(globalID);
      if (decoded.id.includes('\u0000')) throw new PothosValidationError(`Invalid global ID: ${globalID}`);
      return decoded;
    },
    pageInfoTypeOptions: { description: 'Relay paging state of a connection.' },
    nodeTypeOptions: { description: 'An object with a global ID.' },
  },
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
    defaultConnectionSize: LIMITS.page.default,
    maxConnectionSize: LIMITS.page.max,
  },
  errors: {
    defaultResultOptions: {
      name: ({ fieldName }) => `${capitalize(fieldName)}Success`,
    },
    defaultUnionOptions: {
      name: ({ fieldName }) => `${capitalize(fieldName)}Result`,
    },
  },
});

builder.queryType({ description: 'Reads of scopes, entries, tags and relations.' });
builder.mutationType({ description: 'Writes. Expected failures come back as members of each result union.' });
builder.subscriptionType({
  description: 'Live events over graphql-ws (same /graphql path) or SSE. Each is sent once its write has committed.',
});
