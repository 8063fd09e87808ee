/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** How a conflict was settled. */
export type ConflictResolution =
  /** The version that was current when the conflicting write arrived was adopted. */
  | 'KEPT_CURRENT'
  /** Content merged by the resolver was adopted. */
  | 'MERGED'
  /** The conflicting (incoming) version was adopted. */
  | 'TOOK_INCOMING';

/** How to settle a conflict. Nothing is deleted: adopted content that is not current becomes a new version. */
export type ConflictResolutionStrategy =
  /** Adopt version A, the one that was current when the conflicting write arrived. */
  | 'KEEP_CURRENT'
  /** Adopt the content given in `merged` (fields left out come from version B). */
  | 'MERGE'
  /** Adopt version B, the conflicting write. */
  | 'TAKE_INCOMING';

/** What happened to an entry. */
export type EntryChangeType =
  /** Added, with version 1. */
  | 'CREATED'
  /** Soft-deleted. */
  | 'DEACTIVATED'
  /** Erased for good (with a deletion receipt); `entry` is null. */
  | 'DELETED'
  /** Moved from a completed SCRATCH session to its project. */
  | 'PROMOTED'
  /** Undeleted. */
  | 'REACTIVATED'
  /** A relation from or to it was created. */
  | 'RELATED'
  /** Tags were attached. */
  | 'TAGGED'
  /** A relation from or to it was deleted. */
  | 'UNRELATED'
  /** Tags were detached. */
  | 'UNTAGGED'
  /** A new version was written. */
  | 'UPDATED';

/** The three kinds of memory entry. */
export type EntryKind =
  /** A rule of behaviour or style, with a priority. */
  | 'GUIDELINE'
  /** A fact, decision, context or reference. */
  | 'KNOWLEDGE'
  /** A tool an agent can call (MCP, CLI, function, API). */
  | 'TOOL';

/** The lease a write is made under: the write happens only while the caller holds that grant (the fencing token of its checkout), else it is refused with InvalidStateError STALE_FENCING_TOKEN and writes nothing. */
export type FencingInput = {
  /** The leased resource. */
  resource: string;
  /** The scope of the leased resource. */
  scope: string;
  /** The lease's fencingToken. */
  token: number;
};

/** Merged content for MERGE, using the fields of the entry's kind; fields left out come from version B. */
export type MergedContentInput = {
  /** Knowledge: 0-1. */
  confidence?: number | null | undefined;
  /** Tools: rules for using it. */
  constraints?: string | null | undefined;
  /** Guidelines and knowledge: the text. */
  content?: string | null | undefined;
  /** Tools: what the tool does. */
  description?: string | null | undefined;
  /** Tools and guidelines: examples. */
  examples?: unknown;
  /** Tools: JSON Schema of its parameters. */
  parameters?: unknown;
  /** Guidelines: why it exists. */
  rationale?: string | null | undefined;
  /** Knowledge: where it came from. */
  source?: string | null | undefined;
  /** Knowledge: when it expires. */
  validUntil?: string | null | undefined;
};

/** Settles a conflict. */
export type ResolveConflictInput = {
  /** Write only under this lease (see checkoutLease): a holder whose lease ended is refused. */
  fencing?: FencingInput | null | undefined;
  /** The conflict. */
  id: string;
  /** For MERGE: the merged content. */
  merged?: MergedContentInput | null | undefined;
  /** Why it was settled this way. */
  note?: string | null | undefined;
  /** Who settles it (default: the X-Engram-Actor header). */
  resolvedBy?: string | null | undefined;
  /** Which content stands. */
  strategy: ConflictResolutionStrategy;
};

/** Kind of a session event. */
export type SessionEventType =
  /** An agent action. */
  | 'ACTION'
  /** A status transition, written by the server (not appendable). */
  | 'LIFECYCLE'
  /** User input or agent text. */
  | 'MESSAGE'
  /** Agent reasoning or self-assessment. */
  | 'REFLECTION'
  /** An explicit state update (also: the end of a turn). */
  | 'STATE_CHANGE'
  /** A tool invocation with its inputs and outputs. */
  | 'TOOL_CALL';

/** Lifecycle state of a session. */
export type SessionStatus =
  /** Running. */
  | 'ACTIVE'
  /** Ended and kept as a read-only record. */
  | 'ARCHIVED'
  /** Ended normally. */
  | 'COMPLETED'
  /** Ended and abandoned. */
  | 'DISCARDED'
  /** Suspended; can be resumed. */
  | 'PAUSED';

/** Namespace of a state key, by its prefix. Reads resolve temp > session > user > app > project. */
export type StateNamespace =
  /** `app:` keys: the session's application's. Only the application's own principal (or a service acting for it) and admins of everything reach them. */
  | 'APP'
  /** `project:` keys: the session's project's. Writing needs ADMIN on the project. */
  | 'PROJECT'
  /** `session:` keys: live until the session ends. */
  | 'SESSION'
  /** `temp:` keys: live until the session ends its current turn. */
  | 'TEMP'
  /** `user:` keys: the session's user's, across sessions. Only the user's own principal (or a service acting for it) and admins of everything reach them. */
  | 'USER';

export type DashboardScopesQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type DashboardScopesQuery = { viewer: { authentication: boolean, local: boolean, principal: { name: string } | null }, globalScope: { id: string, name: string | null }, organizations: { edges: Array<{ node: { id: string, name: string | null, parent:
          | { id: string }
          | { id: string }
          | { id: string }
          | { id: string }
         | null } }> }, projects: { edges: Array<{ node: { id: string, name: string | null, parent:
          | { id: string }
          | { id: string }
          | { id: string }
          | { id: string }
         | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

type DashboardVersion_GuidelineVersion_Fragment = { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean };

type DashboardVersion_KnowledgeVersion_Fragment = { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean };

type DashboardVersion_ToolVersion_Fragment = { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean };

export type DashboardVersionFragment =
  | DashboardVersion_GuidelineVersion_Fragment
  | DashboardVersion_KnowledgeVersion_Fragment
  | DashboardVersion_ToolVersion_Fragment
;

export type DashboardConflictFragment = { id: string, detectedAt: string, resolved: boolean, resolution: ConflictResolution | null, resolvedAt: string | null, resolvedBy: string | null, note: string | null, entry:
    | { id: string, name: string, kind: EntryKind, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
       }
    | { id: string, name: string, kind: EntryKind, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
       }
    | { id: string, name: string, kind: EntryKind, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
       }
  , versionA:
    | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
    | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
    | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
  , versionB:
    | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
    | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
    | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
  , resolutionVersion:
    | { version: number }
    | { version: number }
    | { version: number }
   | null };

export type DashboardConflictsQueryVariables = Exact<{
  scope: string;
  resolved?: boolean | null | undefined;
}>;


export type DashboardConflictsQuery = { conflicts: { edges: Array<{ node: { id: string, detectedAt: string, resolved: boolean, resolution: ConflictResolution | null, resolvedAt: string | null, resolvedBy: string | null, note: string | null, entry:
          | { id: string, name: string, kind: EntryKind, scope:
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
             }
          | { id: string, name: string, kind: EntryKind, scope:
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
             }
          | { id: string, name: string, kind: EntryKind, scope:
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
              | { id: string, name: string | null }
             }
        , versionA:
          | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        , versionB:
          | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        , resolutionVersion:
          | { version: number }
          | { version: number }
          | { version: number }
         | null } }> } };

export type DashboardConflictDetectedSubscriptionVariables = Exact<{
  scope: string;
  after?: string | null | undefined;
}>;


export type DashboardConflictDetectedSubscription = { conflictDetected: { cursor: string, conflict: { id: string, detectedAt: string, resolved: boolean, resolution: ConflictResolution | null, resolvedAt: string | null, resolvedBy: string | null, note: string | null, entry:
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
      , versionA:
        | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
      , versionB:
        | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
      , resolutionVersion:
        | { version: number }
        | { version: number }
        | { version: number }
       | null } | null } };

export type DashboardConflictResolvedSubscriptionVariables = Exact<{
  scope: string;
  after?: string | null | undefined;
}>;


export type DashboardConflictResolvedSubscription = { conflictResolved: { cursor: string, conflict: { id: string, detectedAt: string, resolved: boolean, resolution: ConflictResolution | null, resolvedAt: string | null, resolvedBy: string | null, note: string | null, entry:
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
        | { id: string, name: string, kind: EntryKind, scope:
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
            | { id: string, name: string | null }
           }
      , versionA:
        | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
      , versionB:
        | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
        | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
      , resolutionVersion:
        | { version: number }
        | { version: number }
        | { version: number }
       | null } | null } };

export type DashboardResolveConflictMutationVariables = Exact<{
  input: ResolveConflictInput;
}>;


export type DashboardResolveConflictMutation = { resolveConflict:
    | { __typename: 'InvalidStateError', code: string, message: string, path: Array<string> }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'PermissionDeniedError', code: string, message: string, path: Array<string> }
    | { __typename: 'ResolveConflictSuccess', resolution: { conflict: { id: string, detectedAt: string, resolved: boolean, resolution: ConflictResolution | null, resolvedAt: string | null, resolvedBy: string | null, note: string | null, entry:
            | { id: string, name: string, kind: EntryKind, scope:
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
               }
            | { id: string, name: string, kind: EntryKind, scope:
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
               }
            | { id: string, name: string, kind: EntryKind, scope:
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
                | { id: string, name: string | null }
               }
          , versionA:
            | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
            | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
            | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          , versionB:
            | { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
            | { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
            | { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean }
          , resolutionVersion:
            | { version: number }
            | { version: number }
            | { version: number }
           | null }, version:
          | { version: number }
          | { version: number }
          | { version: number }
         | null } }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string> }
   };

export type DashboardEntriesQueryVariables = Exact<{
  scope: string;
  kind?: EntryKind | null | undefined;
  after?: string | null | undefined;
}>;


export type DashboardEntriesQuery = { scope:
    | { id: string, entries: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node:
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
           }> } }
    | { id: string, entries: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node:
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
           }> } }
    | { id: string, entries: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node:
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
           }> } }
    | { id: string, entries: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node:
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
            | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, updatedAt: string, unresolvedConflictCount: number }
           }> } }
   | null };

export type DashboardEntryQueryVariables = Exact<{
  id: string;
}>;


export type DashboardEntryQuery = { entry:
    | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, category: string | null, createdAt: string, updatedAt: string, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
      , tags: Array<{ name: string }>, versions: { totalCount: number, edges: Array<{ node: { __typename: 'GuidelineVersion', content: string, rationale: string | null, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean } }> } }
    | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, category: string | null, createdAt: string, updatedAt: string, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
      , tags: Array<{ name: string }>, versions: { totalCount: number, edges: Array<{ node: { __typename: 'KnowledgeVersion', content: string, source: string | null, confidence: number, validUntil: string | null, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean } }> } }
    | { id: string, name: string, kind: EntryKind, active: boolean, latestVersion: number, category: string | null, createdAt: string, updatedAt: string, scope:
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
        | { id: string, name: string | null }
      , tags: Array<{ name: string }>, versions: { totalCount: number, edges: Array<{ node: { __typename: 'ToolVersion', description: string | null, constraints: string | null, parameters: unknown, examples: unknown, id: string, version: number, createdAt: string, createdBy: string | null, changeReason: string | null, conflictFlag: boolean } }> } }
   | null };

export type DashboardEntryChangedSubscriptionVariables = Exact<{
  scope: string;
  after?: string | null | undefined;
}>;


export type DashboardEntryChangedSubscription = { entryChanged: { cursor: string, entryId: string, type: EntryChangeType, occurredAt: string } };

export type DashboardSessionsQueryVariables = Exact<{
  project?: string | null | undefined;
}>;


export type DashboardSessionsQuery = { sessions: { totalCount: number, edges: Array<{ node: { id: string, name: string | null, status: SessionStatus, agentId: string | null, startedAt: string, endedAt: string | null, eventCount: number, project: { id: string } | null } }> } };

export type DashboardSessionQueryVariables = Exact<{
  id: string;
}>;


export type DashboardSessionQuery = { scope:
    | { id: string, name: string | null, status: SessionStatus, purpose: string | null, agentId: string | null, startedAt: string, endedAt: string | null, turn: number, events: { totalCount: number, edges: Array<{ node: { id: string, sequence: number, type: SessionEventType, actor: string, createdAt: string, content: unknown, stateDelta: unknown, transition: { from: SessionStatus | null, to: SessionStatus } | null, session: { id: string } } }> }, stateEntries: { edges: Array<{ node: { id: string, key: string, namespace: StateNamespace, value: unknown, version: number, updatedAt: string, updatedBy: string | null } }> } }
    | Record<PropertyKey, never>
   | null };

export type DashboardSessionEventFragment = { id: string, sequence: number, type: SessionEventType, actor: string, createdAt: string, content: unknown, stateDelta: unknown, transition: { from: SessionStatus | null, to: SessionStatus } | null, session: { id: string } };

export type DashboardSessionEventsSubscriptionVariables = Exact<{
  project?: string | null | undefined;
  session?: string | null | undefined;
  after?: string | null | undefined;
}>;


export type DashboardSessionEventsSubscription = { sessionEvent: { cursor: string | null, id: string, sequence: number, type: SessionEventType, actor: string, createdAt: string, content: unknown, stateDelta: unknown, transition: { from: SessionStatus | null, to: SessionStatus } | null, session: { id: string } } };

export type DashboardFeedCursorQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardFeedCursorQuery = { changeFeedCursor: string };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const DashboardVersionFragmentDoc = new TypedDocumentString(`
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}
    `, {"fragmentName":"DashboardVersion"}) as unknown as TypedDocumentString<DashboardVersionFragment, unknown>;
export const DashboardConflictFragmentDoc = new TypedDocumentString(`
    fragment DashboardConflict on Conflict {
  id
  detectedAt
  resolved
  resolution
  resolvedAt
  resolvedBy
  note
  entry {
    id
    name
    kind
    scope {
      id
      name
    }
  }
  versionA {
    ...DashboardVersion
  }
  versionB {
    ...DashboardVersion
  }
  resolutionVersion {
    version
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}`, {"fragmentName":"DashboardConflict"}) as unknown as TypedDocumentString<DashboardConflictFragment, unknown>;
export const DashboardSessionEventFragmentDoc = new TypedDocumentString(`
    fragment DashboardSessionEvent on SessionEvent {
  id
  sequence
  type
  actor
  createdAt
  content
  stateDelta
  transition {
    from
    to
  }
  session {
    id
  }
}
    `, {"fragmentName":"DashboardSessionEvent"}) as unknown as TypedDocumentString<DashboardSessionEventFragment, unknown>;
export const DashboardScopesDocument = new TypedDocumentString(`
    query DashboardScopes($after: String) {
  viewer {
    authentication
    local
    principal {
      name
    }
  }
  globalScope {
    id
    name
  }
  organizations(first: 100) {
    edges {
      node {
        id
        name
        parent {
          id
        }
      }
    }
  }
  projects(first: 100, after: $after) {
    edges {
      node {
        id
        name
        parent {
          id
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardScopesQuery, DashboardScopesQueryVariables>;
export const DashboardConflictsDocument = new TypedDocumentString(`
    query DashboardConflicts($scope: ID!, $resolved: Boolean) {
  conflicts(
    filter: {scope: $scope, includeDescendants: true, resolved: $resolved}
    first: 100
  ) {
    edges {
      node {
        ...DashboardConflict
      }
    }
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}
fragment DashboardConflict on Conflict {
  id
  detectedAt
  resolved
  resolution
  resolvedAt
  resolvedBy
  note
  entry {
    id
    name
    kind
    scope {
      id
      name
    }
  }
  versionA {
    ...DashboardVersion
  }
  versionB {
    ...DashboardVersion
  }
  resolutionVersion {
    version
  }
}`) as unknown as TypedDocumentString<DashboardConflictsQuery, DashboardConflictsQueryVariables>;
export const DashboardConflictDetectedDocument = new TypedDocumentString(`
    subscription DashboardConflictDetected($scope: ID!, $after: String) {
  conflictDetected(scope: $scope, includeDescendants: true, after: $after) {
    cursor
    conflict {
      ...DashboardConflict
    }
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}
fragment DashboardConflict on Conflict {
  id
  detectedAt
  resolved
  resolution
  resolvedAt
  resolvedBy
  note
  entry {
    id
    name
    kind
    scope {
      id
      name
    }
  }
  versionA {
    ...DashboardVersion
  }
  versionB {
    ...DashboardVersion
  }
  resolutionVersion {
    version
  }
}`) as unknown as TypedDocumentString<DashboardConflictDetectedSubscription, DashboardConflictDetectedSubscriptionVariables>;
export const DashboardConflictResolvedDocument = new TypedDocumentString(`
    subscription DashboardConflictResolved($scope: ID!, $after: String) {
  conflictResolved(scope: $scope, includeDescendants: true, after: $after) {
    cursor
    conflict {
      ...DashboardConflict
    }
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}
fragment DashboardConflict on Conflict {
  id
  detectedAt
  resolved
  resolution
  resolvedAt
  resolvedBy
  note
  entry {
    id
    name
    kind
    scope {
      id
      name
    }
  }
  versionA {
    ...DashboardVersion
  }
  versionB {
    ...DashboardVersion
  }
  resolutionVersion {
    version
  }
}`) as unknown as TypedDocumentString<DashboardConflictResolvedSubscription, DashboardConflictResolvedSubscriptionVariables>;
export const DashboardResolveConflictDocument = new TypedDocumentString(`
    mutation DashboardResolveConflict($input: ResolveConflictInput!) {
  resolveConflict(input: $input) {
    __typename
    ... on ResolveConflictSuccess {
      resolution {
        conflict {
          ...DashboardConflict
        }
        version {
          version
        }
      }
    }
    ... on UserError {
      code
      message
      path
    }
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}
fragment DashboardConflict on Conflict {
  id
  detectedAt
  resolved
  resolution
  resolvedAt
  resolvedBy
  note
  entry {
    id
    name
    kind
    scope {
      id
      name
    }
  }
  versionA {
    ...DashboardVersion
  }
  versionB {
    ...DashboardVersion
  }
  resolutionVersion {
    version
  }
}`) as unknown as TypedDocumentString<DashboardResolveConflictMutation, DashboardResolveConflictMutationVariables>;
export const DashboardEntriesDocument = new TypedDocumentString(`
    query DashboardEntries($scope: ID!, $kind: EntryKind, $after: String) {
  scope(id: $scope) {
    id
    entries(first: 50, kind: $kind, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          kind
          active
          latestVersion
          updatedAt
          unresolvedConflictCount
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardEntriesQuery, DashboardEntriesQueryVariables>;
export const DashboardEntryDocument = new TypedDocumentString(`
    query DashboardEntry($id: ID!) {
  entry(id: $id) {
    id
    name
    kind
    active
    latestVersion
    category
    createdAt
    updatedAt
    scope {
      id
      name
    }
    tags {
      name
    }
    versions(first: 100) {
      totalCount
      edges {
        node {
          ...DashboardVersion
        }
      }
    }
  }
}
    fragment DashboardVersion on EntryVersion {
  __typename
  id
  version
  createdAt
  createdBy
  changeReason
  conflictFlag
  ... on GuidelineVersion {
    content
    rationale
    examples
  }
  ... on KnowledgeVersion {
    content
    source
    confidence
    validUntil
  }
  ... on ToolVersion {
    description
    constraints
    parameters
    examples
  }
}`) as unknown as TypedDocumentString<DashboardEntryQuery, DashboardEntryQueryVariables>;
export const DashboardEntryChangedDocument = new TypedDocumentString(`
    subscription DashboardEntryChanged($scope: ID!, $after: String) {
  entryChanged(scope: $scope, after: $after) {
    cursor
    entryId
    type
    occurredAt
  }
}
    `) as unknown as TypedDocumentString<DashboardEntryChangedSubscription, DashboardEntryChangedSubscriptionVariables>;
export const DashboardSessionsDocument = new TypedDocumentString(`
    query DashboardSessions($project: ID) {
  sessions(project: $project, first: 100) {
    totalCount
    edges {
      node {
        id
        name
        status
        agentId
        startedAt
        endedAt
        eventCount
        project {
          id
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardSessionsQuery, DashboardSessionsQueryVariables>;
export const DashboardSessionDocument = new TypedDocumentString(`
    query DashboardSession($id: ID!) {
  scope(id: $id) {
    ... on Session {
      id
      name
      status
      purpose
      agentId
      startedAt
      endedAt
      turn
      events(last: 100) {
        totalCount
        edges {
          node {
            ...DashboardSessionEvent
          }
        }
      }
      stateEntries(first: 100) {
        edges {
          node {
            id
            key
            namespace
            value
            version
            updatedAt
            updatedBy
          }
        }
      }
    }
  }
}
    fragment DashboardSessionEvent on SessionEvent {
  id
  sequence
  type
  actor
  createdAt
  content
  stateDelta
  transition {
    from
    to
  }
  session {
    id
  }
}`) as unknown as TypedDocumentString<DashboardSessionQuery, DashboardSessionQueryVariables>;
export const DashboardSessionEventsDocument = new TypedDocumentString(`
    subscription DashboardSessionEvents($project: ID, $session: ID, $after: String) {
  sessionEvent(project: $project, session: $session, after: $after) {
    cursor
    ...DashboardSessionEvent
  }
}
    fragment DashboardSessionEvent on SessionEvent {
  id
  sequence
  type
  actor
  createdAt
  content
  stateDelta
  transition {
    from
    to
  }
  session {
    id
  }
}`) as unknown as TypedDocumentString<DashboardSessionEventsSubscription, DashboardSessionEventsSubscriptionVariables>;
export const DashboardFeedCursorDocument = new TypedDocumentString(`
    query DashboardFeedCursor {
  changeFeedCursor
}
    `) as unknown as TypedDocumentString<DashboardFeedCursorQuery, DashboardFeedCursorQueryVariables>;