import type { Db } from '../../infra/database.ts';

/**
 * What an export holds, table by table, in the order an import writes it (every row after the
 * rows it refers to). Rows keep their ids, so an import is idempotent (a row whose key exists is
 * skipped) and relations between rows survive the move to another database.
 *
 * Left out on purpose: principals, API keys and grants (an instance's identities; a key must
 * never leave in a file), the audit log and deletion receipts (the history of this instance),
 * and the derived tables (search index, name counts, tag-link copies), which the import rebuilds;
 * leases (they hold for seconds to hours, and their fencing tokens only mean something on the
 * database that granted them) and the change feed (this database's event history: subscribers'
 * cursors do not carry over, and the import announces nothing).
 */
export type TableName =
  | 'Scope'
  | 'MemoryPolicy'
  | 'Tag'
  | 'Entry'
  | 'EntryVersion'
  | 'EntryTag'
  | 'Relation'
  | 'Conflict'
  | 'Task'
  | 'TaskDependency'
  | 'SessionEvent'
  | 'StateKey'
  | 'StateVersion'
  | 'Conversation'
  | 'ConversationMessage'
  | 'ConversationContext'
  | 'VoteQuestion'
  | 'Vote'
  | 'VoteTally'
  | 'FlaggedAgent'
  | 'Outcome';

export interface TableSpec {
  name: TableName;
  /** The primary key's columns. */
  key: string[];
  /** Other unique keys: a row that would repeat one under another id is refused. */
  unique?: string[][];
  /** Columns that refer to other tables' rows (which must exist, or the row is refused). */
  refs?: Record<string, TableName>;
  /** Columns written after the table's rows (they refer to rows of this table or of a later one). */
  later?: string[];
  /** Which rows belong to a scope subtree (`ids`: the subtree's scope ids). */
  inScopes: (ids: string[]) => Record<string, unknown>;
}

const byScope = (ids: string[]) => ({ scopeId: { in: ids } });
const ofEntries = (ids: string[]) => ({ entry: { scopeId: { in: ids } } });

export const TABLES: readonly TableSpec[] = [
  { name: 'Scope', key: ['id'], unique: [['parentId', 'name']], refs: { parentId: 'Scope' }, inScopes: (ids) => ({ id: { in: ids } }) },
  { name: 'MemoryPolicy', key: ['id'], unique: [['scopeId', 'memoryType']], refs: { scopeId: 'Scope' }, inScopes: byScope },
  // The tag vocabulary is small and shared: all of it goes with any export.
  { name: 'Tag', key: ['id'], unique: [['name']], inScopes: () => ({}) },
  { name: 'Entry', key: ['id'], unique: [['scopeId', 'kind', 'name']], refs: { scopeId: 'Scope' }, later: ['currentVersionId'], inScopes: byScope },
  { name: 'EntryVersion', key: ['id'], unique: [['entryId', 'version']], refs: { entryId: 'Entry' }, inScopes: ofEntries },
  { name: 'EntryTag', key: ['entryId', 'tagId'], refs: { entryId: 'Entry', tagId: 'Tag' }, inScopes: ofEntries },
  {
    name: 'Relation',
    key: ['id'],
    unique: [['sourceId', 'targetEntryId', 'type'], ['sourceId', 'targetScopeId', 'type']],
    refs: { sourceId: 'Entry', targetEntryId: 'Entry', targetScopeId: 'Scope' },
    inScopes: (ids) => ({ source: { scopeId: { in: ids } } }),
  },
  {
    name: 'Conflict',
    key: ['id'],
    unique: [['versionBId']],
    refs: { entryId: 'Entry', versionAId: 'EntryVersion', versionBId: 'EntryVersion', resolutionVersionId: 'EntryVersion' },
    inScopes: ofEntries,
  },
  { name: 'Task', key: ['id'], refs: { scopeId: 'Scope', parentId: 'Task' }, later: ['parentId'], inScopes: byScope },
  { name: 'TaskDependency', key: ['taskId', 'dependsOnId'], refs: { taskId: 'Task', dependsOnId: 'Task' }, inScopes: (ids) => ({ task: { scopeId: { in: ids } } }) },
  { name: 'SessionEvent', key: ['id'], unique: [['sessionId', 'sequence']], refs: { sessionId: 'Scope' }, inScopes: (ids) => ({ sessionId: { in: ids } }) },
  // State of a subtree: the keys its sessions and projects own (user: and app: keys go with whole exports only).
  { name: 'StateKey', key: ['id'], unique: [['namespace', 'owner', 'name']], inScopes: (ids) => ({ owner: { in: ids } }) },
  { name: 'StateVersion', key: ['id'], unique: [['keyId', 'version']], refs: { keyId: 'StateKey', eventId: 'SessionEvent' }, inScopes: (ids) => ({ key: { owner: { in: ids } } }) },
  { name: 'Conversation', key: ['id'], refs: { scopeId: 'Scope' }, inScopes: byScope },
  {
    name: 'ConversationMessage',
    key: ['id'],
    unique: [['conversationId', 'position']],
    refs: { conversationId: 'Conversation' },
    inScopes: (ids) => ({ conversation: { scopeId: { in: ids } } }),
  },
  {
    name: 'ConversationContext',
    key: ['id'],
    unique: [['conversationId', 'messageKey', 'entryId']],
    refs: { conversationId: 'Conversation', messageId: 'ConversationMessage', entryId: 'Entry' },
    inScopes: (ids) => ({ conversation: { scopeId: { in: ids } } }),
  },
  { name: 'VoteQuestion', key: ['id'], unique: [['scopeId', 'key']], refs: { scopeId: 'Scope' }, inScopes: byScope },
  { name: 'Vote', key: ['id'], refs: { questionId: 'VoteQuestion' }, inScopes: (ids) => ({ question: { scopeId: { in: ids } } }) },
  // The counts the ahead-by-k check reads, kept as they were (a decided question's stay frozen).
  { name: 'VoteTally', key: ['questionId', 'normalized'], refs: { questionId: 'VoteQuestion' }, inScopes: (ids) => ({ question: { scopeId: { in: ids } } }) },
  { name: 'FlaggedAgent', key: ['scopeId', 'agent'], refs: { scopeId: 'Scope' }, inScopes: byScope },
  { name: 'Outcome', key: ['id'], refs: { scopeId: 'Scope' }, inScopes: byScope },
];

/** What both directions ask of a table through Prisma. */
export interface TableRows {
  findMany(args: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}

/** Prisma's delegate of a table: its name with a lower-case first letter (`EntryTag` → `db.entryTag`). */
export function rowsOf(db: Db, table: TableName): TableRows {
  return (db as unknown as Record<string, TableRows>)[table.charAt(0).toLowerCase() + table.slice(1)]!;
}

export const TABLE = Object.fromEntries(TABLES.map((t) => [t.name, t])) as Record<TableName, TableSpec>;

/** The first line of an export. */
export interface ExportHeader {
  engram: 'export';
  format: 1;
  exportedAt: string;
  /** The subtree's root scope, null for everything. */
  scope: string | null;
}

/** The last line: what the file holds, so that an import can tell a cut-off file. */
export interface ExportFooter {
  end: true;
  counts: Partial<Record<TableName, number>>;
}

/** Every other line: one row of a table. */
export interface ExportRecord {
  table: TableName;
  row: Record<string, unknown>;
}
