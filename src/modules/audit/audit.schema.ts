import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.ts';
import { decodeBoundedGlobalID, decodeId } from '../../graphql/ids.ts';
import { LIMITS } from '../../domain/limits.ts';
import { ValidationError } from '../../domain/errors.ts';
import { PAGING } from '../../graphql/paging.ts';
import { ADMIN } from '../../graphql/rules.ts';
import { countAuditEvents, listAuditEvents, type AuditCategory, type AuditFilter, type AuditOutcome } from './audit.service.ts';

const AuditCategoryEnum = builder.enumType('AuditCategory', {
  description: 'What kind of event the audit log recorded.',
  values: {
    AUTHENTICATION: { description: 'A failed authentication (a bad, revoked or expired key; protected mode refusing an address).' },
    IDENTITY: { description: 'Managing principals, API keys or grants (through the API or the keys command line).' },
    WRITE: { description: 'Any other mutation.' },
  },
});

const AuditOutcomeEnum = builder.enumType('AuditOutcome', {
  description: 'How an audited operation ended.',
  values: {
    OK: { description: 'It was done.' },
    DENIED: { description: 'The caller was not allowed (FORBIDDEN, or authentication refused).' },
    FAILED: { description: 'It failed for another reason (invalid input, not found, a conflict…); `detail.code` says which.' },
  },
});

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

builder.prismaObject('AuditEvent', {
  description:
    'One entry of the append-only audit log. It names principals and targets by id and name as they were, so it outlives them; nothing updates or deletes it.',
  fields: (t) => ({
    id: t.id({ description: 'Global ID.', resolve: (e) => encodeGlobalID('AuditEvent', e.id) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it happened.' }),
    category: t.field({ type: AuditCategoryEnum, description: 'Authentication, identity management or a write.', resolve: (e) => e.category as AuditCategory }),
    operation: t.exposeString('operation', { description: 'The mutation field (`addTool`), or `authenticate`.' }),
    principal: t.id({
      nullable: true,
      description: 'Global ID of the principal that called (null for a failed authentication, a local caller or the command line).',
      resolve: (e) => (e.principalId ? encodeGlobalID('Principal', e.principalId) : null),
    }),
    principalName: t.exposeString('principalName', { nullable: true, description: 'Its name at the time.' }),
    onBehalfOf: t.exposeString('onBehalfOf', { nullable: true, description: 'The principal a service acted for, when not itself.' }),
    targetIds: t.stringList({
      description: 'Database ids of what it touched, from its ID arguments and its result (the part after the type in a global ID).',
      resolve: (e) => parse(e.targetIds) as string[],
    }),
    outcome: t.field({ type: AuditOutcomeEnum, description: 'Done, denied or failed.', resolve: (e) => e.outcome as AuditOutcome }),
    detail: t.field({
      type: 'JSON',
      nullable: true,
      description: 'More about it: the error `code` of a failure, a key `prefix`, `count` and `reason` of failed authentications, `via: "cli"`.',
      resolve: (e) => parse(e.detail),
    }),
    clientAddress: t.exposeString('clientAddress', { nullable: true, description: 'The network address it came from (null in-process and from the command line).' }),
  }),
});

const AuditFilterInput = builder.inputType('AuditEventFilter', {
  description: 'Narrows the audit log. All conditions must hold.',
  fields: (t) => ({
    principal: t.id({ description: 'Only events of this principal.' }),
    operation: t.string({ description: 'Only this operation (`createApiKey`, `addTool`, `authenticate`).' }),
    category: t.field({ type: AuditCategoryEnum, description: 'Only this category.' }),
    target: t.id({ description: 'Only events that touched this (a global ID, or a database id as `targetIds` shows it).' }),
    since: t.field({ type: 'DateTime', description: 'Only events at or after this time.' }),
    until: t.field({ type: 'DateTime', description: 'Only events before this time.' }),
  }),
});

type FilterArg = { principal?: string | number | null; operation?: string | null; category?: AuditCategory | null; target?: string | number | null; since?: Date | null; until?: Date | null };

function auditFilter(filter: FilterArg | null | undefined): AuditFilter {
  if (!filter) return {};
  return {
    principalId: filter.principal != null ? decodeId(String(filter.principal), ['Principal'], ['filter', 'principal']) : null,
    operation: filter.operation,
    category: filter.category,
    targetId: filter.target != null ? targetId(String(filter.target)) : null,
    since: filter.since,
    until: filter.until,
  };
}

/** A global ID's database id; anything that is not one is taken as a database id already. */
function targetId(value: string): string {
  // No id is this long; a LIKE pattern of 50,000 bytes or more is an error on SQLite.
  if (value.length > LIMITS.globalId) throw new ValidationError([{ path: ['filter', 'target'], message: `must be at most ${LIMITS.globalId} characters (got ${value.length})` }]);
  try {
    const { typename, id } = decodeBoundedGlobalID(value);
    if (/^[A-Z][A-Za-z]*$/.test(typename) && id) return id;
  } catch {
    // not a global ID
  }
  return value;
}

builder.queryFields((t) => ({
  auditEvents: t.prismaConnection(
    {
      type: 'AuditEvent',
      cursor: 'id',
      ...PAGING,
      description: 'The audit log, newest first, filtered (admins only: FORBIDDEN otherwise).',
      args: { filter: t.arg({ type: AuditFilterInput, description: 'Which events.' }) },
      authScopes: ADMIN,
      totalCount: (_parent, args, ctx) => countAuditEvents(ctx.db, auditFilter(args.filter)),
      resolve: (query, _root, args, ctx) => listAuditEvents(ctx.db, query, auditFilter(args.filter)),
    },
    { description: 'Page of audit events.' },
    { description: 'An audit event.' },
  ),
}));
