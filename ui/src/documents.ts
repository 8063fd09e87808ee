import { graphql } from './gql';

/** Every operation the dashboard sends, typed by graphql-codegen (`npm run codegen` → ui/src/gql). */

export const ScopesPage = graphql(`
  query DashboardScopes($after: String) {
    viewer { authentication local principal { name } }
    globalScope { id name }
    organizations(first: 100) { edges { node { id name parent { id } } } }
    projects(first: 100, after: $after) {
      edges { node { id name parent { id } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const VersionFields = graphql(`
  fragment DashboardVersion on EntryVersion {
    __typename id version createdAt createdBy changeReason conflictFlag
    ... on GuidelineVersion { content rationale examples }
    ... on KnowledgeVersion { content source confidence validUntil }
    ... on ToolVersion { description constraints parameters examples }
  }
`);

export const ConflictFields = graphql(`
  fragment DashboardConflict on Conflict {
    id detectedAt resolved resolution resolvedAt resolvedBy note
    entry { id name kind scope { id name } }
    versionA { ...DashboardVersion }
    versionB { ...DashboardVersion }
    resolutionVersion { version }
  }
`);

export const Conflicts = graphql(`
  query DashboardConflicts($scope: ID!, $resolved: Boolean) {
    conflicts(filter: { scope: $scope, includeDescendants: true, resolved: $resolved }, first: 100) {
      edges { node { ...DashboardConflict } }
    }
  }
`);

export const ConflictEvents = graphql(`
  subscription DashboardConflictDetected($scope: ID!, $after: String) {
    conflictDetected(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }
  }
`);

export const ConflictResolvedEvents = graphql(`
  subscription DashboardConflictResolved($scope: ID!, $after: String) {
    conflictResolved(scope: $scope, includeDescendants: true, after: $after) { cursor conflict { ...DashboardConflict } }
  }
`);

export const ResolveConflict = graphql(`
  mutation DashboardResolveConflict($input: ResolveConflictInput!) {
    resolveConflict(input: $input) {
      __typename
      ... on ResolveConflictSuccess { resolution { conflict { ...DashboardConflict } version { version } } }
      ... on UserError { code message path }
    }
  }
`);

export const Entries = graphql(`
  query DashboardEntries($scope: ID!, $kind: EntryKind, $after: String) {
    scope(id: $scope) {
      id
      entries(first: 50, kind: $kind, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        edges { node { id name kind active latestVersion updatedAt unresolvedConflictCount } }
      }
    }
  }
`);

export const EntryHistory = graphql(`
  query DashboardEntry($id: ID!) {
    entry(id: $id) {
      id name kind active latestVersion category createdAt updatedAt
      scope { id name }
      tags { name }
      versions(first: 100) { totalCount edges { node { ...DashboardVersion } } }
    }
  }
`);

export const EntryChanges = graphql(`
  subscription DashboardEntryChanged($scope: ID!, $after: String) {
    entryChanged(scope: $scope, after: $after) { cursor entryId type occurredAt }
  }
`);

export const Sessions = graphql(`
  query DashboardSessions($project: ID) {
    sessions(project: $project, first: 100) {
      totalCount
      edges { node { id name status agentId startedAt endedAt eventCount project { id } } }
    }
  }
`);

export const SessionDetail = graphql(`
  query DashboardSession($id: ID!) {
    scope(id: $id) {
      ... on Session {
        id name status purpose agentId startedAt endedAt turn
        events(last: 100) { totalCount edges { node { ...DashboardSessionEvent } } }
        stateEntries(first: 100) { edges { node { id key namespace value version updatedAt updatedBy } } }
      }
    }
  }
`);

export const SessionEventFields = graphql(`
  fragment DashboardSessionEvent on SessionEvent {
    id sequence type actor createdAt content stateDelta transition { from to }
    session { id }
  }
`);

export const SessionEvents = graphql(`
  subscription DashboardSessionEvents($project: ID, $session: ID, $after: String) {
    sessionEvent(project: $project, session: $session, after: $after) { cursor ...DashboardSessionEvent }
  }
`);

export const FeedCursor = graphql(`
  query DashboardFeedCursor {
    changeFeedCursor
  }
`);
