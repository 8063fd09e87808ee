// The values an import takes for each enumerated column (read from prisma/models.prisma's field
// documentation, src/modules/transfer/columns.ts) are the values of the GraphQL enum that reads the
// column: a value import took that the enum lacks would break every read of its row (a Scope of
// kind BOGUS did), and a value the API writes that import refused would make an export unreadable.
import { readFileSync } from 'node:fs';
import { GraphQLEnumType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { columnsOf, parseModels } from '../src/modules/transfer/columns.ts';

const ENUM_OF: Record<string, string> = {
  'Scope.kind': 'ScopeKind',
  'Scope.status': 'SessionStatus',
  'Scope.mode': 'SessionMode',
  'Scope.secretPolicy': 'SecretPolicy',
  'Entry.kind': 'EntryKind',
  'Entry.memoryType': 'MemoryType',
  'EntryVersion.kind': 'EntryKind',
  'Tag.category': 'TagCategory',
  'Relation.type': 'RelationType',
  'Conflict.resolution': 'ConflictResolution',
  'SessionEvent.type': 'SessionEventType',
  'StateKey.namespace': 'StateNamespace',
  'ConversationMessage.role': 'MessageRole',
  'ConversationContext.source': 'ConversationContextSource',
  'Task.status': 'TaskStatus',
  'Principal.kind': 'PrincipalKind',
  'Grant.role': 'AccessRole',
  'AuditEvent.category': 'AuditCategory',
  'AuditEvent.outcome': 'AuditOutcome',
  'MemoryPolicy.memoryType': 'MemoryType',
  'Lease.mode': 'LeaseMode',
  'VoteQuestion.normalization': 'VoteNormalization',
  'VoteQuestion.status': 'VoteQuestionStatus',
  'Vote.discardReason': 'VoteDiscardReason',
};

describe('import value rules', () => {
  it('every enumerated column is compared below (a new one without its enum fails here)', () => {
    const enumerated = [...parseModels(readFileSync('prisma/models.prisma', 'utf8'))].flatMap(([table, columns]) =>
      [...columns].filter(([, column]) => column.values).map(([name]) => `${table}.${name}`),
    );
    expect(enumerated.sort()).toEqual(Object.keys(ENUM_OF).sort());
  });

  it.each(Object.entries(ENUM_OF))('%s takes the values of %s', (column, enumName) => {
    const [table, name] = column.split('.') as [string, string];
    const type = getSchema().getType(enumName);
    expect(type).toBeInstanceOf(GraphQLEnumType);
    const api = (type as GraphQLEnumType).getValues().map((v) => v.value as string);
    expect([...(columnsOf(table).get(name)?.values ?? [])].sort()).toEqual([...api].sort());
  });
});
