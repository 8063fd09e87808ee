/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query DashboardScopes($after: String) {\n    viewer { authentication local principal { name } }\n    globalScope { id name }\n    organizations(first: 100) { edges { node { id name parent { id } } } }\n    projects(first: 100, after: $after) {\n      edges { node { id name parent { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.DashboardScopesDocument,
    "\n  fragment DashboardVersion on EntryVersion {\n    __typename id version createdAt createdBy changeReason conflictFlag\n    ... on GuidelineVersion { content rationale examples }\n    ... on KnowledgeVersion { content source confidence validUntil }\n    ... on ToolVersion { description constraints parameters examples }\n  }\n": typeof types.DashboardVersionFragmentDoc,
    "\n  fragment DashboardConflict on Conflict {\n    id detectedAt resolved resolution resolvedAt resolvedBy note\n    entry { id name kind scope { id name } }\n    versionA { ...DashboardVersion }\n    versionB { ...DashboardVersion }\n    resolutionVersion { version }\n  }\n": typeof types.DashboardConflictFragmentDoc,
    "\n  query DashboardConflicts($scope: ID!, $resolved: Boolean) {\n    conflicts(filter: { scope: $scope, includeDescendants: true, resolved: $resolved }, first: 100) {\n      edges { node { ...DashboardConflict } }\n    }\n  }\n": typeof types.DashboardConflictsDocument,
    "\n  subscription DashboardConflictDetected($scope: ID!, $after: String) {\n    conflictDetected(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n": typeof types.DashboardConflictDetectedDocument,
    "\n  subscription DashboardConflictResolved($scope: ID!, $after: String) {\n    conflictResolved(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n": typeof types.DashboardConflictResolvedDocument,
    "\n  mutation DashboardResolveConflict($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess { resolution { conflict { ...DashboardConflict } version { version } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.DashboardResolveConflictDocument,
    "\n  query DashboardEntries($scope: ID!, $kind: EntryKind, $after: String) {\n    scope(id: $scope) {\n      id\n      entries(first: 50, kind: $kind, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { id name kind active latestVersion updatedAt unresolvedConflictCount } }\n      }\n    }\n  }\n": typeof types.DashboardEntriesDocument,
    "\n  query DashboardEntry($id: ID!) {\n    entry(id: $id) {\n      id name kind active latestVersion category createdAt updatedAt\n      scope { id name }\n      tags { name }\n      versions(first: 100) { totalCount edges { node { ...DashboardVersion } } }\n    }\n  }\n": typeof types.DashboardEntryDocument,
    "\n  subscription DashboardEntryChanged($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, after: $after) { cursor entryId type occurredAt }\n  }\n": typeof types.DashboardEntryChangedDocument,
    "\n  query DashboardSessions($project: ID) {\n    sessions(project: $project, first: 100) {\n      totalCount\n      edges { node { id name status agentId startedAt endedAt eventCount project { id } } }\n    }\n  }\n": typeof types.DashboardSessionsDocument,
    "\n  query DashboardSession($id: ID!) {\n    scope(id: $id) {\n      ... on Session {\n        id name status purpose agentId startedAt endedAt turn\n        events(last: 100) { totalCount edges { node { ...DashboardSessionEvent } } }\n        stateEntries(first: 100) { edges { node { id key namespace value version updatedAt updatedBy } } }\n      }\n    }\n  }\n": typeof types.DashboardSessionDocument,
    "\n  fragment DashboardSessionEvent on SessionEvent {\n    id sequence type actor createdAt content stateDelta transition { from to }\n    session { id }\n  }\n": typeof types.DashboardSessionEventFragmentDoc,
    "\n  subscription DashboardSessionEvents($project: ID, $session: ID, $after: String) {\n    sessionEvent(project: $project, session: $session, after: $after) { cursor ...DashboardSessionEvent }\n  }\n": typeof types.DashboardSessionEventsDocument,
    "\n  query DashboardFeedCursor {\n    changeFeedCursor\n  }\n": typeof types.DashboardFeedCursorDocument,
};
const documents: Documents = {
    "\n  query DashboardScopes($after: String) {\n    viewer { authentication local principal { name } }\n    globalScope { id name }\n    organizations(first: 100) { edges { node { id name parent { id } } } }\n    projects(first: 100, after: $after) {\n      edges { node { id name parent { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": types.DashboardScopesDocument,
    "\n  fragment DashboardVersion on EntryVersion {\n    __typename id version createdAt createdBy changeReason conflictFlag\n    ... on GuidelineVersion { content rationale examples }\n    ... on KnowledgeVersion { content source confidence validUntil }\n    ... on ToolVersion { description constraints parameters examples }\n  }\n": types.DashboardVersionFragmentDoc,
    "\n  fragment DashboardConflict on Conflict {\n    id detectedAt resolved resolution resolvedAt resolvedBy note\n    entry { id name kind scope { id name } }\n    versionA { ...DashboardVersion }\n    versionB { ...DashboardVersion }\n    resolutionVersion { version }\n  }\n": types.DashboardConflictFragmentDoc,
    "\n  query DashboardConflicts($scope: ID!, $resolved: Boolean) {\n    conflicts(filter: { scope: $scope, includeDescendants: true, resolved: $resolved }, first: 100) {\n      edges { node { ...DashboardConflict } }\n    }\n  }\n": types.DashboardConflictsDocument,
    "\n  subscription DashboardConflictDetected($scope: ID!, $after: String) {\n    conflictDetected(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n": types.DashboardConflictDetectedDocument,
    "\n  subscription DashboardConflictResolved($scope: ID!, $after: String) {\n    conflictResolved(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n": types.DashboardConflictResolvedDocument,
    "\n  mutation DashboardResolveConflict($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess { resolution { conflict { ...DashboardConflict } version { version } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.DashboardResolveConflictDocument,
    "\n  query DashboardEntries($scope: ID!, $kind: EntryKind, $after: String) {\n    scope(id: $scope) {\n      id\n      entries(first: 50, kind: $kind, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { id name kind active latestVersion updatedAt unresolvedConflictCount } }\n      }\n    }\n  }\n": types.DashboardEntriesDocument,
    "\n  query DashboardEntry($id: ID!) {\n    entry(id: $id) {\n      id name kind active latestVersion category createdAt updatedAt\n      scope { id name }\n      tags { name }\n      versions(first: 100) { totalCount edges { node { ...DashboardVersion } } }\n    }\n  }\n": types.DashboardEntryDocument,
    "\n  subscription DashboardEntryChanged($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, after: $after) { cursor entryId type occurredAt }\n  }\n": types.DashboardEntryChangedDocument,
    "\n  query DashboardSessions($project: ID) {\n    sessions(project: $project, first: 100) {\n      totalCount\n      edges { node { id name status agentId startedAt endedAt eventCount project { id } } }\n    }\n  }\n": types.DashboardSessionsDocument,
    "\n  query DashboardSession($id: ID!) {\n    scope(id: $id) {\n      ... on Session {\n        id name status purpose agentId startedAt endedAt turn\n        events(last: 100) { totalCount edges { node { ...DashboardSessionEvent } } }\n        stateEntries(first: 100) { edges { node { id key namespace value version updatedAt updatedBy } } }\n      }\n    }\n  }\n": types.DashboardSessionDocument,
    "\n  fragment DashboardSessionEvent on SessionEvent {\n    id sequence type actor createdAt content stateDelta transition { from to }\n    session { id }\n  }\n": types.DashboardSessionEventFragmentDoc,
    "\n  subscription DashboardSessionEvents($project: ID, $session: ID, $after: String) {\n    sessionEvent(project: $project, session: $session, after: $after) { cursor ...DashboardSessionEvent }\n  }\n": types.DashboardSessionEventsDocument,
    "\n  query DashboardFeedCursor {\n    changeFeedCursor\n  }\n": types.DashboardFeedCursorDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardScopes($after: String) {\n    viewer { authentication local principal { name } }\n    globalScope { id name }\n    organizations(first: 100) { edges { node { id name parent { id } } } }\n    projects(first: 100, after: $after) {\n      edges { node { id name parent { id } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"): typeof import('./graphql.js').DashboardScopesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardVersion on EntryVersion {\n    __typename id version createdAt createdBy changeReason conflictFlag\n    ... on GuidelineVersion { content rationale examples }\n    ... on KnowledgeVersion { content source confidence validUntil }\n    ... on ToolVersion { description constraints parameters examples }\n  }\n"): typeof import('./graphql.js').DashboardVersionFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardConflict on Conflict {\n    id detectedAt resolved resolution resolvedAt resolvedBy note\n    entry { id name kind scope { id name } }\n    versionA { ...DashboardVersion }\n    versionB { ...DashboardVersion }\n    resolutionVersion { version }\n  }\n"): typeof import('./graphql.js').DashboardConflictFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardConflicts($scope: ID!, $resolved: Boolean) {\n    conflicts(filter: { scope: $scope, includeDescendants: true, resolved: $resolved }, first: 100) {\n      edges { node { ...DashboardConflict } }\n    }\n  }\n"): typeof import('./graphql.js').DashboardConflictsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardConflictDetected($scope: ID!, $after: String) {\n    conflictDetected(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n"): typeof import('./graphql.js').DashboardConflictDetectedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardConflictResolved($scope: ID!, $after: String) {\n    conflictResolved(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }\n  }\n"): typeof import('./graphql.js').DashboardConflictResolvedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardResolveConflict($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess { resolution { conflict { ...DashboardConflict } version { version } } }\n      ... on UserError { code message path }\n    }\n  }\n"): typeof import('./graphql.js').DashboardResolveConflictDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardEntries($scope: ID!, $kind: EntryKind, $after: String) {\n    scope(id: $scope) {\n      id\n      entries(first: 50, kind: $kind, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { id name kind active latestVersion updatedAt unresolvedConflictCount } }\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashboardEntriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardEntry($id: ID!) {\n    entry(id: $id) {\n      id name kind active latestVersion category createdAt updatedAt\n      scope { id name }\n      tags { name }\n      versions(first: 100) { totalCount edges { node { ...DashboardVersion } } }\n    }\n  }\n"): typeof import('./graphql.js').DashboardEntryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardEntryChanged($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, after: $after) { cursor entryId type occurredAt }\n  }\n"): typeof import('./graphql.js').DashboardEntryChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSessions($project: ID) {\n    sessions(project: $project, first: 100) {\n      totalCount\n      edges { node { id name status agentId startedAt endedAt eventCount project { id } } }\n    }\n  }\n"): typeof import('./graphql.js').DashboardSessionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSession($id: ID!) {\n    scope(id: $id) {\n      ... on Session {\n        id name status purpose agentId startedAt endedAt turn\n        events(last: 100) { totalCount edges { node { ...DashboardSessionEvent } } }\n        stateEntries(first: 100) { edges { node { id key namespace value version updatedAt updatedBy } } }\n      }\n    }\n  }\n"): typeof import('./graphql.js').DashboardSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DashboardSessionEvent on SessionEvent {\n    id sequence type actor createdAt content stateDelta transition { from to }\n    session { id }\n  }\n"): typeof import('./graphql.js').DashboardSessionEventFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardSessionEvents($project: ID, $session: ID, $after: String) {\n    sessionEvent(project: $project, session: $session, after: $after) { cursor ...DashboardSessionEvent }\n  }\n"): typeof import('./graphql.js').DashboardSessionEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardFeedCursor {\n    changeFeedCursor\n  }\n"): typeof import('./graphql.js').DashboardFeedCursorDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
