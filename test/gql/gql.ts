/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

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
    "\n  query NodeLookup($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Scope { scopeName: name }\n      ... on Entry { name currentVersion { id __typename } }\n      ... on Tag { name }\n    }\n  }\n": typeof types.NodeLookupDocument,
    "\n  query NodesLookup($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }\n": typeof types.NodesLookupDocument,
    "query TagIds { tags(first: 1) { edges { node { id name } } } }": typeof types.TagIdsDocument,
    "\n  query OrgPages($first: Int, $after: String) {\n    organizations(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { name } } }\n  }\n": typeof types.OrgPagesDocument,
    "\n  mutation ApiCreateOrganization($name: String!) { createOrganization(input: { name: $name }) { __typename } }\n": typeof types.ApiCreateOrganizationDocument,
    "\n  mutation BatchRelation($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": typeof types.BatchRelationDocument,
    "\n  query BatchTools($tag: String!) {\n    tools(filter: { tag: $tag }, first: 100) {\n      totalCount\n      edges {\n        node {\n          id\n          name\n          scope { id name ancestors { id name } }\n          tags { name category }\n          currentVersion { version ... on ToolVersion { description parameters } }\n          versions(first: 2) { edges { node { version } } }\n          outgoingRelations { type targetEntry { id name } targetScope { id name } }\n          incomingRelations { type source { id name } }\n        }\n      }\n    }\n  }\n": typeof types.BatchToolsDocument,
    "\n  query BatchNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Entry {\n        name\n        scope { id name }\n        tags { name }\n        currentVersion { version }\n        outgoingRelations { type targetEntry { id } targetScope { id } }\n      }\n      ... on Guideline { priority }\n    }\n  }\n": typeof types.BatchNodesDocument,
    "\n  mutation ConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          conflicted\n          version { id version conflictFlag }\n          conflictWith { id version }\n          conflict { id versionA { version } versionB { version } }\n        }\n      }\n      ... on WriteConflictError { code currentVersion currentVersionId path }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ConflictUpdateToolDocument,
    "\n  mutation ConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { conflicted conflict { id } } }\n      ... on UserError { code }\n    }\n  }\n": typeof types.ConflictUpdateGuidelineDocument,
    "\n  query ConflictEntryState($id: ID!) {\n    entry(id: $id) {\n      latestVersion\n      hasUnresolvedConflicts\n      unresolvedConflictCount\n      currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n      versions(first: 100) { totalCount edges { node { version conflictFlag } } }\n      conflicts { id resolved }\n    }\n  }\n": typeof types.ConflictEntryStateDocument,
    "\n  query ConflictList($filter: ConflictFilter) {\n    conflicts(filter: $filter, first: 100) {\n      totalCount\n      edges { node { id resolved entry { name } versionA { version } versionB { version } } }\n    }\n  }\n": typeof types.ConflictListDocument,
    "\n  query ConflictDetail($id: ID!) {\n    conflict(id: $id) {\n      id\n      resolved\n      resolution\n      note\n      resolvedBy\n      resolvedAt\n      entry { id }\n      versionA { version ... on ToolVersion { description } }\n      versionB { version conflictFlag ... on ToolVersion { description } }\n      resolutionVersion { version ... on ToolVersion { description } }\n    }\n  }\n": typeof types.ConflictDetailDocument,
    "\n  mutation Resolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution { conflict { resolved resolution note resolvedBy } version { version ... on ToolVersion { description constraints } } }\n      }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.ResolveDocument,
    "\n  query ToolsWithWarnings($scope: ID!) {\n    tools(filter: { scope: $scope }) { edges { node { name } } warnings { code message entry { name } } }\n    scope(id: $scope) { entries { warnings { code entry { name } } } }\n  }\n": typeof types.ToolsWithWarningsDocument,
    "query RejectedCurrent($id: ID!) { node(id: $id) { ... on EntryVersion { version } } }": typeof types.RejectedCurrentDocument,
    "\n  mutation CommonImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": typeof types.CommonImportDocument,
    "\n  query CommonContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n": typeof types.CommonContextDocument,
    "\n  mutation ScopeTokensImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n": typeof types.ScopeTokensImportDocument,
    "\n  query ScopeTokensContext($input: ContextInput!) {\n    context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n  }\n": typeof types.ScopeTokensContextDocument,
    "mutation ScopeTokensOff($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }": typeof types.ScopeTokensOffDocument,
    "mutation ScopeTokensOn($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": typeof types.ScopeTokensOnDocument,
    "\n  mutation SmallMemoryImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": typeof types.SmallMemoryImportDocument,
    "\n  query SmallMemoryContext($input: ContextInput!) {\n    context(input: $input) { knowledge { breakdown { text } node { name } } }\n  }\n": typeof types.SmallMemoryContextDocument,
    "\n  mutation ConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title scope { id } messageCount } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.ConvStartDocument,
    "\n  mutation ConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position role content toolsUsed context { entry { id } score source } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.ConvAddDocument,
    "\n  query ConvShow($id: ID!) {\n    node(id: $id) {\n      ... on Conversation {\n        messageCount\n        messages(first: 50) { totalCount edges { node { position role content } } }\n        context(first: 50) { totalCount edges { node { entry { id name } message { id } score source } } }\n      }\n    }\n  }\n": typeof types.ConvShowDocument,
    "\n  query ConvQuery($input: MemoryQueryInput!) {\n    memoryQuery(input: $input, first: 10) { edges { score node { id } } }\n  }\n": typeof types.ConvQueryDocument,
    "\n  query ConvList($scope: ID!) { conversations(scope: $scope) { totalCount edges { node { title } } } }\n": typeof types.ConvListDocument,
    "\n      mutation ConvLink($input: LinkConversationEntriesInput!) {\n        linkConversationEntries(input: $input) {\n          __typename\n          ... on LinkConversationEntriesSuccess { conversation { id messageCount } }\n          ... on UserError { code message path }\n        }\n      }\n    ": typeof types.ConvLinkDocument,
    "mutation UnavailableAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { __typename } }": typeof types.UnavailableAddDocument,
    "query UnavailableRead($scope: ID!) { memoryQuery(input: { scope: $scope, search: \"c\" }, first: 5) { meta { totalCount } } }": typeof types.UnavailableReadDocument,
    "\n  mutation CascadePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }\n": typeof types.CascadePolicyDocument,
    "\n  mutation CascadeLease($scope: ID!, $resource: String!) { checkoutLease(input: { scope: $scope, resource: $resource, ttlSeconds: 60 }) { __typename } }\n": typeof types.CascadeLeaseDocument,
    "\n  mutation CascadeQuestion($scope: ID!, $key: String!) { openVoteQuestion(input: { scope: $scope, key: $key, k: 3 }) { __typename ... on OpenVoteQuestionSuccess { question { id } } } }\n": typeof types.CascadeQuestionDocument,
    "\n  mutation CascadeVote($question: ID!, $answer: String!) { castVote(input: { question: $question, answer: $answer }) { __typename } }\n": typeof types.CascadeVoteDocument,
    "\n  mutation CascadeFlag($scope: ID!) { flagAgent(input: { scope: $scope, agent: \"agent:rogue\", reason: \"wrong answers\" }) { __typename } }\n": typeof types.CascadeFlagDocument,
    "\n  mutation CascadeOutcomes($scope: ID!) {\n    recordOutcomes(input: { scope: $scope, outcomes: [{ subtaskType: \"build\", success: true, durationMs: 10 }, { subtaskType: \"build\", success: false, durationMs: 20 }] }) { __typename }\n  }\n": typeof types.CascadeOutcomesDocument,
    "\n  mutation CascadeDeleteTree($id: ID!, $dryRun: Boolean) {\n    deleteScopeTree(input: { id: $id, dryRun: $dryRun }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts contentHash } } }\n  }\n": typeof types.CascadeDeleteTreeDocument,
    "\n  mutation CascadeDeleteSession($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }\n": typeof types.CascadeDeleteSessionDocument,
    "\n  mutation LargeImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n": typeof types.LargeImportDocument,
    "\n  mutation LargeRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }\n": typeof types.LargeRelateDocument,
    "\n  mutation LargeTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n": typeof types.LargeTaskDocument,
    "\n  mutation LargeState($project: ID!, $key: String!, $value: JSON!) { setState(input: { owner: { project: $project }, key: $key, value: $value }) { __typename } }\n": typeof types.LargeStateDocument,
    "\n  mutation LargeKept($scope: ID!) { addKnowledge(input: { scope: $scope, title: \"kept\", content: \"stays\", tags: [\"kept\"] }) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n": typeof types.LargeKeptDocument,
    "\n  mutation LargeDeleteTree($id: ID!) {\n    deleteScopeTree(input: { id: $id }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": typeof types.LargeDeleteTreeDocument,
    "\n  mutation LargeErase($scope: ID!, $tag: String!) {\n    eraseMemory(input: { scope: $scope, tag: $tag }) { __typename ... on EraseMemorySuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": typeof types.LargeEraseDocument,
    "\n  mutation LargeSession($project: ID!, $userId: String!) { startSession(input: { project: $project, userId: $userId }) { __typename ... on StartSessionSuccess { session { id } } } }\n": typeof types.LargeSessionDocument,
    "\n  mutation LargeForget($userId: String!) {\n    forgetUser(input: { userId: $userId }) { __typename ... on ForgetUserSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": typeof types.LargeForgetDocument,
    "\n  query LargeTaskParent($id: ID!) { node(id: $id) { ... on Task { id parent { id } } } }\n": typeof types.LargeTaskParentDocument,
    "\n  query EntryDetail($id: ID!) {\n    entry(id: $id) {\n      __typename\n      id\n      kind\n      name\n      category\n      active\n      createdBy\n      latestVersion\n      scope { id }\n      tags { name category predefined }\n      currentVersion {\n        __typename\n        version\n        createdBy\n        changeReason\n        conflictFlag\n        ... on ToolVersion { description parameters examples constraints }\n        ... on GuidelineVersion { content rationale }\n        ... on KnowledgeVersion { content source confidence validUntil }\n      }\n      ... on Guideline { priority }\n      ... on Knowledge { title }\n    }\n  }\n": typeof types.EntryDetailDocument,
    "\n  query History($id: ID!, $first: Int, $after: String) {\n    entry(id: $id) {\n      versions(first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { version changeReason ... on ToolVersion { description } } }\n      }\n      v1: version(number: 1) { version ... on ToolVersion { description } }\n      v99: version(number: 99) { version }\n    }\n  }\n": typeof types.HistoryDocument,
    "\n  mutation UpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          version { version conflictFlag createdBy }\n          conflictWith { version }\n          entry { latestVersion currentVersion { version } }\n        }\n      }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.UpdateToolDocument,
    "\n  mutation UpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { version { version ... on GuidelineVersion { content rationale } } entry { ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.UpdateGuidelineDocument,
    "\n  mutation UpdateKnowledge($input: UpdateKnowledgeInput!) {\n    updateKnowledge(input: $input) {\n      __typename\n      ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content source confidence } } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.UpdateKnowledgeDocument,
    "\n  query ByName($scope: ID!, $kind: EntryKind!, $name: String!) {\n    entryByName(scope: $scope, kind: $kind, name: $name) { id __typename }\n  }\n": typeof types.ByNameDocument,
    "\n  mutation Deactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on UserError { code } }\n  }\n": typeof types.DeactivateDocument,
    "\n  mutation Reactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n": typeof types.ReactivateDocument,
    "\n  query Lists($filter: EntryFilter) {\n    tools(filter: $filter) { totalCount edges { node { name } } }\n    guidelines(filter: $filter) { totalCount edges { node { name priority } } }\n    knowledge(filter: $filter) { totalCount edges { node { title } } }\n  }\n": typeof types.ListsDocument,
    "\n  query ScopeEntries($id: ID!, $kind: EntryKind, $includeInactive: Boolean) {\n    scope(id: $id) { entries(kind: $kind, includeInactive: $includeInactive) { totalCount edges { node { __typename name } } } }\n  }\n": typeof types.ScopeEntriesDocument,
    "query TagsAfterRollback { tags(predefined: false) { edges { node { name } } } }": typeof types.TagsAfterRollbackDocument,
    "mutation BadKnowledge($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on ValidationError { issues { path message } } } }": typeof types.BadKnowledgeDocument,
    "\n  query TypedGuidelines($scope: ID!) {\n    guidelines(filter: { scope: $scope }) {\n      edges {\n        node {\n          currentVersion { content rationale }\n          version(number: 1) { content }\n          versions(first: 5) { totalCount edges { node { version content } } }\n        }\n      }\n    }\n    tools(filter: { scope: $scope }) { edges { node { currentVersion { description } versions { edges { node { parameters } } } } } }\n    knowledge(filter: { scope: $scope }) { edges { node { currentVersion { content confidence } } } }\n  }\n": typeof types.TypedGuidelinesDocument,
    "\n  query ThroughInterface($id: ID!) {\n    entry(id: $id) {\n      currentVersion { __typename version }\n      versions { __typename totalCount edges { __typename node { __typename ... on GuidelineVersion { content } } } }\n    }\n  }\n": typeof types.ThroughInterfaceDocument,
    "mutation TypedUpdate($id: ID!) { updateGuideline(input: { id: $id, content: \"second\" }) { __typename } }": typeof types.TypedUpdateDocument,
    "query EventKindsCursor { changeFeedCursor }": typeof types.EventKindsCursorDocument,
    "mutation EventKindsAttach($e: ID!) { attachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }": typeof types.EventKindsAttachDocument,
    "mutation EventKindsDetach($e: ID!) { detachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }": typeof types.EventKindsDetachDocument,
    "\n  mutation EventKindsRelate($s: ID!, $t: ID!) {\n    createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename ... on CreateRelationSuccess { relation { id } } }\n  }\n": typeof types.EventKindsRelateDocument,
    "mutation EventKindsUnrelate($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }": typeof types.EventKindsUnrelateDocument,
    "mutation EventKindsDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }": typeof types.EventKindsDeactivateDocument,
    "mutation EventKindsReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": typeof types.EventKindsReactivateDocument,
    "mutation EventKindsUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"changed\" }) { __typename } }": typeof types.EventKindsUpdateDocument,
    "\n  mutation EventKindsSession($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n": typeof types.EventKindsSessionDocument,
    "mutation EventKindsComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }": typeof types.EventKindsCompleteDocument,
    "\n  subscription EventKindsReplay($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, includeDescendants: true, after: $after) { type entryId cursor }\n  }\n": typeof types.EventKindsReplayDocument,
    "\n  mutation EraseTextImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": typeof types.EraseTextImportDocument,
    "\n  mutation EraseText($scope: ID!, $text: String!, $dryRun: Boolean) {\n    eraseMemory(input: { scope: $scope, text: $text, dryRun: $dryRun }) { __typename ... on EraseMemorySuccess { receipt { counts } } }\n  }\n": typeof types.EraseTextDocument,
    "\n  query EraseTextNames($scope: ID!) { knowledge(filter: { scope: $scope }, first: 100) { edges { node { name } } } }\n": typeof types.EraseTextNamesDocument,
    "\n  query RankExtensionQuery($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 15) { edges { node { id } breakdown { text } } meta { totalCount } } }\n": typeof types.RankExtensionQueryDocument,
    "\n  mutation RankExtensionImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }\n": typeof types.RankExtensionImportDocument,
    "\n  mutation IdsImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } }\n  }\n": typeof types.IdsImportDocument,
    "\n  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }\n  }\n": typeof types.LargeImportTurnsDocument,
    "\n  mutation LargeImportScreened($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess { imported { count } }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": typeof types.LargeImportScreenedDocument,
    "\n  query LargeImportContent($scope: ID!, $name: String!) {\n    entryByName(scope: $scope, kind: KNOWLEDGE, name: $name) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }\n  }\n": typeof types.LargeImportContentDocument,
    "\n  mutation LargeImportPolicy($scope: ID!) { setSecretPolicy(input: { scope: $scope, policy: REFUSE }) { __typename } }\n": typeof types.LargeImportPolicyDocument,
    "\n  mutation LargeImportReadBack($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          entries {\n            id\n            name\n            scope { id }\n            currentVersion { version }\n            versions(first: 2) { totalCount edges { node { version } } }\n            tags { name }\n            ... on Knowledge { v: versions(first: 1) { edges { node { ... on KnowledgeVersion { content } } } } }\n          }\n        }\n      }\n    }\n  }\n": typeof types.LargeImportReadBackDocument,
    "\n  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n": typeof types.LargeImportCountDocument,
    "\n  mutation Import($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries { __typename name createdBy latestVersion tags { name } currentVersion { version ... on GuidelineVersion { content } } }\n        }\n      }\n      ... on ValidationError { path issues { path message } }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ImportDocument,
    "\n  query ImportFind($scope: ID!, $search: String) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 100) { meta { totalCount } edges { node { name } } }\n  }\n": typeof types.ImportFindDocument,
    "\n  mutation IsolationCreateOrganization($name: String!) {\n    createOrganization(input: { name: $name }) { __typename }\n  }\n": typeof types.IsolationCreateOrganizationDocument,
    "\n  mutation IsolationDoomedUpdate($id: ID!) {\n    updateTool(input: { id: $id, description: \"never\", expectedVersion: 999 }) { __typename }\n  }\n": typeof types.IsolationDoomedUpdateDocument,
    "\n  query IsolationOrganizations { organizations(first: 100) { edges { node { name } } } }\n": typeof types.IsolationOrganizationsDocument,
    "\n  mutation PagesCheckout($scope: ID!, $ttl: Int!) { checkoutLease(input: { scope: $scope, resource: \"shared.txt\", mode: SHARED, ttlSeconds: $ttl }) { __typename } }\n": typeof types.PagesCheckoutDocument,
    "\n  mutation PagesExclusive($scope: ID!) {\n    checkoutLease(input: { scope: $scope, resource: \"shared.txt\", ttlSeconds: 60 }) { __typename ... on LeaseHeldError { message holders { holder } } }\n  }\n": typeof types.PagesExclusiveDocument,
    "\n  query PagesLeases($scope: ID!, $after: String) {\n    leases(scope: $scope, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { holder expiresAt } } }\n  }\n": typeof types.PagesLeasesDocument,
    "\n  mutation PagesFlag($scope: ID!, $agent: String!) { flagAgent(input: { scope: $scope, agent: $agent }) { __typename } }\n": typeof types.PagesFlagDocument,
    "\n  query PagesFlagged($scope: ID!, $after: String) {\n    flaggedAgents(scope: $scope, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { agent } } }\n  }\n": typeof types.PagesFlaggedDocument,
    "\n  mutation MqbRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": typeof types.MqbRelateDocument,
    "\n  query MqbPage($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) {\n      edges {\n        score\n        node {\n          id\n          name\n          scope { id name }\n          tags { name }\n          currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n          outgoingRelations { type targetEntry { id name } targetScope { id } }\n          incomingRelations { source { id } }\n        }\n      }\n      meta { totalCount returnedCount }\n      scopeChain { id }\n    }\n  }\n": typeof types.MqbPageDocument,
    "\n  query MqbNoTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } meta { returnedCount } }\n  }\n": typeof types.MqbNoTotalDocument,
    "\n  query MqbFragmentTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } ...MqbTotal }\n  }\n  fragment MqbTotal on MemoryQueryConnection { meta { ... on MemoryQueryMeta { totalCount } } }\n": typeof types.MqbFragmentTotalDocument,
    "\n  query Memory($input: MemoryQueryInput!, $first: Int, $after: String) {\n    memoryQuery(input: $input, first: $first, after: $after) {\n      edges {\n        cursor\n        score\n        estimatedTokens\n        breakdown { relation tags scope text priority recency decay }\n        node { __typename id name scope { id } }\n      }\n      pageInfo { hasNextPage endCursor }\n      meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }\n      scopeChain { id kind }\n    }\n  }\n": typeof types.MemoryDocument,
    "\n  mutation MemoryOrg($name: String!) { createOrganization(input: { name: $name }) { __typename ... on CreateOrganizationSuccess { organization { id } } } }\n": typeof types.MemoryOrgDocument,
    "\n  mutation MemoryRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": typeof types.MemoryRelateDocument,
    "\n  mutation MemoryDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n": typeof types.MemoryDeactivateDocument,
    "query RuleOut($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { id } } meta { totalCount } } }": typeof types.RuleOutDocument,
    "mutation MemoryUpdate($id: ID!) { updateTool(input: { id: $id, description: \"Ships with kubernetes.\" }) { __typename } }": typeof types.MemoryUpdateDocument,
    "\n      mutation MemoryTags($attach: TagsOfEntryInput!, $detach: TagsOfEntryInput!, $doAttach: Boolean!) {\n        attachTags(input: $attach) @include(if: $doAttach) { __typename }\n        detachTags(input: $detach) @skip(if: $doAttach) { __typename }\n      }\n    ": typeof types.MemoryTagsDocument,
    "mutation MemoryReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": typeof types.MemoryReactivateDocument,
    "\n      mutation MemoryScratch($project: ID!) { startSession(input: { project: $project, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n    ": typeof types.MemoryScratchDocument,
    "\n      mutation MemoryComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }\n    ": typeof types.MemoryCompleteDocument,
    "\n      mutation RankImport($entries: [ImportEntryInput!]!) {\n        importEntries(input: { entries: $entries }) { __typename }\n      }\n    ": typeof types.RankImportDocument,
    "mutation RankBump($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }": typeof types.RankBumpDocument,
    "\n      query RankContext($input: ContextInput!) {\n        context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n      }\n    ": typeof types.RankContextDocument,
    "\n      query RankNoTotal($input: MemoryQueryInput!, $first: Int) {\n        memoryQuery(input: $input, first: $first) { edges { score node { id } } }\n      }\n    ": typeof types.RankNoTotalDocument,
    "\n      mutation CtxImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n    ": typeof types.CtxImportDocument,
    "\n      query CtxTools($input: ContextInput!) { context(input: $input) { tools { score node { id } } } }\n    ": typeof types.CtxToolsDocument,
    "\n      query MemoryTimes($input: MemoryQueryInput!) { memoryQuery(input: $input, first: 50) { edges { node { name createdAt updatedAt } } } }\n    ": typeof types.MemoryTimesDocument,
    "mutation MemoryTouch($id: ID!) { updateTool(input: { id: $id, description: \"changed\" }) { __typename } }": typeof types.MemoryTouchDocument,
    "\n      query MemoryContext($input: ContextInput!) {\n        context(input: $input) {\n          guidelines { score node { name } }\n          tools { score node { name } }\n          knowledge { score breakdown { text } node { name } }\n          scopeChain { kind }\n          tokensUsed\n          tokenBudget\n          truncated\n        }\n      }\n    ": typeof types.MemoryContextDocument,
    "query MemoryContextTask($input: ContextInput!) { context(input: $input) { tokensUsed } }": typeof types.MemoryContextTaskDocument,
    "\n  mutation MutantConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n": typeof types.MutantConflictUpdateToolDocument,
    "\n  mutation MutantConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflict { id } } } }\n  }\n": typeof types.MutantConflictUpdateGuidelineDocument,
    "\n  mutation MutantResolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution {\n          conflict { resolution resolvedBy }\n          version {\n            version\n            createdBy\n            changeReason\n            ... on ToolVersion { description }\n            ... on GuidelineVersion { content rationale }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantResolveDocument,
    "\n  query MutantConflictState($id: ID!) {\n    conflict(id: $id) { resolved resolution note resolvedBy }\n  }\n": typeof types.MutantConflictStateDocument,
    "\n  mutation MutantConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title metadata createdBy } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantConvStartDocument,
    "\n  mutation MutantConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position toolsUsed metadata context { entry { id } score } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantConvAddDocument,
    "\n  mutation MutantConvLink($input: LinkConversationEntriesInput!) {\n    linkConversationEntries(input: $input) {\n      __typename\n      ... on LinkConversationEntriesSuccess { conversation { id } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantConvLinkDocument,
    "\n  query MutantConvContext($id: ID!) {\n    node(id: $id) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score } } } } }\n  }\n": typeof types.MutantConvContextDocument,
    "\n  mutation MutantConvComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.MutantConvCompleteDocument,
    "\n  mutation MutantConvArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": typeof types.MutantConvArchiveDocument,
    "\n  mutation MutantConvOrg($name: String!) {\n    createOrganization(input: { name: $name }) { ... on CreateOrganizationSuccess { organization { id } } }\n  }\n": typeof types.MutantConvOrgDocument,
    "\n  mutation MutantImport($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries {\n            name\n            category\n            createdBy\n            latestVersion\n            currentVersion { version createdBy ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { confidence } }\n            ... on Guideline { priority }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantImportDocument,
    "\n  mutation MutantEntryAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name category createdBy active } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantEntryAddToolDocument,
    "\n  mutation MutantEntryAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantEntryAddKnowledgeDocument,
    "\n  mutation MutantEntryUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess { update { version { version conflictFlag changeReason } entry { category } conflict { resolved } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on WriteConflictError { currentVersion }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantEntryUpdateToolDocument,
    "\n  mutation MutantEntryUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { entry { category ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantEntryUpdateGuidelineDocument,
    "\n  mutation MutantEntryDeactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n": typeof types.MutantEntryDeactivateDocument,
    "\n  mutation MutantEntryReactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n": typeof types.MutantEntryReactivateDocument,
    "\n  subscription MutantEntryOnChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": typeof types.MutantEntryOnChangedDocument,
    "\n  mutation MutantEntryComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.MutantEntryCompleteDocument,
    "\n  mutation MutantEntryArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": typeof types.MutantEntryArchiveDocument,
    "mutation MutantEntryAddGuideline($input: AddGuidelineInput!) { addGuideline(input: $input) { __typename ... on ValidationError { issues { path message } } } }": typeof types.MutantEntryAddGuidelineDocument,
    "\n  mutation MutantRelate($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.MutantRelateDocument,
    "\n  mutation MutantUnrelate($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on UserError { code path } }\n  }\n": typeof types.MutantUnrelateDocument,
    "\n  subscription MutantOnRelationChange($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": typeof types.MutantOnRelationChangeDocument,
    "\n  mutation MutantRelateWhy($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantRelateWhyDocument,
    "\n  mutation MutantUnrelateWhy($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n": typeof types.MutantUnrelateWhyDocument,
    "\n  mutation MutantRelationEndSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.MutantRelationEndSessionDocument,
    "\n  mutation MutantRelationArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": typeof types.MutantRelationArchiveSessionDocument,
    "\n  mutation MutantCreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantCreateOrganizationDocument,
    "\n  mutation MutantCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantCreateProjectDocument,
    "\n  mutation MutantUpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantUpdateProjectDocument,
    "\n  mutation MutantStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess {\n        session { id name purpose agentId userId appName mode autoPromote metadata events(first: 5) { edges { node { sequence type actor } } } }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantStartSessionDocument,
    "\n  mutation MutantSessStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n": typeof types.MutantSessStartDocument,
    "\n  mutation MutantSessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence actor } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSessAppendDocument,
    "\n  mutation MutantSessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { archivedAt } event { actor } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSessPauseDocument,
    "\n  mutation MutantSessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { archivedAt endedAt } event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSessCompleteDocument,
    "\n  mutation MutantSessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSessDiscardDocument,
    "\n  mutation MutantSessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { archivedAt } } }\n    }\n  }\n": typeof types.MutantSessArchiveDocument,
    "\n  mutation MutantSessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSessEndTurnDocument,
    "\n  query MutantSessListState($id: ID!) {\n    node(id: $id) { ... on Session { stateEntries(includeDeleted: true, first: 50) { edges { node { key } } } } }\n  }\n": typeof types.MutantSessListStateDocument,
    "\n  subscription MutantSessOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": typeof types.MutantSessOnEntryChangedDocument,
    "\n  mutation MutantStateStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n": typeof types.MutantStateStartDocument,
    "\n  mutation MutantStateComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.MutantStateCompleteDocument,
    "\n  mutation MutantStatePause($id: ID!) { pauseSession(input: { id: $id }) { __typename } }\n": typeof types.MutantStatePauseDocument,
    "\n  mutation MutantSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key version value deleted } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantSetStateDocument,
    "\n  mutation MutantDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantDeleteStateDocument,
    "\n  mutation MutantRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { key version value deleted } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantRestoreStateDocument,
    "\n  mutation MutantStateAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence } } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantStateAppendDocument,
    "\n  query MutantStateRead($id: ID!, $key: String!) {\n    node(id: $id) { ... on Session { state(key: $key) { namespace value } } }\n  }\n": typeof types.MutantStateReadDocument,
    "\n  query MutantStateList($id: ID!, $pattern: String, $includeDeleted: Boolean) {\n    node(id: $id) { ... on Session { stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, first: 50) { edges { node { key deleted } } } } }\n  }\n": typeof types.MutantStateListDocument,
    "\n  mutation MutantCreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category } }\n      ... on UserError { code path message }\n    }\n  }\n": typeof types.MutantCreateTagDocument,
    "\n  mutation MutantAttachTags($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path message }\n    }\n  }\n": typeof types.MutantAttachTagsDocument,
    "\n  mutation MutantDetachTags($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.MutantDetachTagsDocument,
    "\n  subscription MutantOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type entry { name } }\n  }\n": typeof types.MutantOnEntryChangedDocument,
    "\n  mutation MutantCreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.MutantCreateTaskDocument,
    "\n  mutation MutantUpdateTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.MutantUpdateTaskDocument,
    "\n  mutation MutantAddDependencies($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path message }\n    }\n  }\n": typeof types.MutantAddDependenciesDocument,
    "\n  mutation MutantRemoveDependencies($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) {\n      __typename\n      ... on RemoveTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.MutantRemoveDependenciesDocument,
    "\n  query MutantTaskDependencies($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { title } } }\n  }\n": typeof types.MutantTaskDependenciesDocument,
    "\n  mutation MutantTaskCompleteSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.MutantTaskCompleteSessionDocument,
    "\n  mutation MutantTaskArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": typeof types.MutantTaskArchiveSessionDocument,
    "\n  mutation MutantUpdateTaskFailure($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title status completedAt } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantUpdateTaskFailureDocument,
    "\n  mutation MutantCreateTaskFailure($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title parent { title } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantCreateTaskFailureDocument,
    "\n  mutation MutantAddDependenciesFailure($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { title } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.MutantAddDependenciesFailureDocument,
    "\n  query MutantTaskDependencyCount($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { id } } }\n  }\n": typeof types.MutantTaskDependencyCountDocument,
    "\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n": typeof types.GlobalScopeDocument,
    "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.CreateOrganizationDocument,
    "\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": typeof types.CreateProjectDocument,
    "\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.UpdateProjectDocument,
    "\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.StartSessionDocument,
    "\n  mutation ScopesDiscardSession($input: SessionTransitionInput!) {\n    discardSession(input: $input) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { id status endedAt } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.ScopesDiscardSessionDocument,
    "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n": typeof types.SessionsDocument,
    "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n": typeof types.ScopeTreeDocument,
    "\n  query CorpusSearch($scope: ID!, $search: String!) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 20) {\n      edges { node { name } breakdown { text } }\n    }\n  }\n": typeof types.CorpusSearchDocument,
    "\n  mutation LongWordsImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": typeof types.LongWordsImportDocument,
    "\n  query LongWordsContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n": typeof types.LongWordsContextDocument,
    "\n  query LongWordsSearch($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { name } } } }\n": typeof types.LongWordsSearchDocument,
    "\n  mutation BatchCreateTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n": typeof types.BatchCreateTaskDocument,
    "\n  query BatchTasks($scope: ID!, $first: Int) {\n    tasks(filter: { scope: $scope, topLevelOnly: true }, first: $first) {\n      edges { node { title status blocked scope { id name } parent { id } dependsOn { title status } dependents { title } subtasks(first: 5) { edges { node { title } } } } }\n    }\n  }\n": typeof types.BatchTasksDocument,
    "\n  mutation BatchAppend($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }\n": typeof types.BatchAppendDocument,
    "\n  query BatchEvents($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { events(first: $first) { edges { node { sequence type actor content stateDelta transition { to } session { id status } } } } }\n    }\n  }\n": typeof types.BatchEventsDocument,
    "\n  query BatchState($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { stateEntries(first: $first) { edges { node { key value history(first: 3) { edges { node { version event { sequence } } } } } } } }\n    }\n  }\n": typeof types.BatchStateDocument,
    "\n  mutation BatchStartConversation($scope: ID!) {\n    startConversation(input: { scope: $scope }) { __typename ... on StartConversationSuccess { conversation { id } } }\n  }\n": typeof types.BatchStartConversationDocument,
    "\n  mutation BatchAddMessage($input: AddMessageInput!) { addMessage(input: $input) { __typename } }\n": typeof types.BatchAddMessageDocument,
    "\n  query BatchMessages($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Conversation { messages(first: $first) { edges { node { position content context { score entry { id name } } } } } }\n    }\n  }\n": typeof types.BatchMessagesDocument,
    "\n  mutation PromoteLargeSession($project: ID!) { startSession(input: { project: $project, mode: SCRATCH, autoPromote: true }) { __typename ... on StartSessionSuccess { session { id } } } }\n": typeof types.PromoteLargeSessionDocument,
    "\n  mutation PromoteLargeImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": typeof types.PromoteLargeImportDocument,
    "\n  mutation PromoteLargeComplete($id: ID!) { completeSession(input: { id: $id }) { __typename ... on UserError { code message } } }\n": typeof types.PromoteLargeCompleteDocument,
    "\n  mutation PromoteLargeCompleteNone($id: ID!) { completeSession(input: { id: $id, autoPromote: false }) { __typename } }\n": typeof types.PromoteLargeCompleteNoneDocument,
    "\n  query PromoteLargeCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n": typeof types.PromoteLargeCountDocument,
    "\n  mutation SessStart($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id status mode userId appName eventCount turn } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessStartDocument,
    "\n  mutation SessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { status } event { sequence type transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n": typeof types.SessPauseDocument,
    "\n  mutation SessResume($id: ID!) {\n    resumeSession(input: { id: $id }) {\n      __typename\n      ... on ResumeSessionSuccess { transition { session { status } event { sequence transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n": typeof types.SessResumeDocument,
    "\n  mutation SessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess {\n        transition {\n          session { status endedAt }\n          event { sequence transition { from to deactivatedEntries promotedEntries { id name scope { id } latestVersion active } } }\n        }\n      }\n      ... on InvalidStateError { code currentState message }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessCompleteDocument,
    "\n  mutation SessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { status } event { transition { from to deactivatedEntries } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n": typeof types.SessDiscardDocument,
    "\n  mutation SessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { status archivedAt } event { transition { from to } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n": typeof types.SessArchiveDocument,
    "\n  mutation SessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { id sequence type actor content stateDelta } session { eventCount } } }\n      ... on InvalidStateError { currentState }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessAppendDocument,
    "\n  query SessEvents($id: ID!, $filter: SessionEventFilter, $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        eventCount\n        events(filter: $filter, first: $first, after: $after) {\n          totalCount\n          pageInfo { hasNextPage endCursor }\n          edges { node { sequence type actor content createdAt transition { from to } } }\n        }\n      }\n    }\n  }\n": typeof types.SessEventsDocument,
    "\n  query SessReadState($id: ID!, $key: String!) {\n    node(id: $id) {\n      ... on Session {\n        state(key: $key) { key namespace value entry { id key version owner } shadowed { key namespace value } }\n      }\n    }\n  }\n": typeof types.SessReadStateDocument,
    "\n  query SessListState($id: ID!, $pattern: String, $includeDeleted: Boolean, $namespaces: [StateNamespace!], $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, namespaces: $namespaces, first: $first, after: $after) {\n          pageInfo { hasNextPage endCursor }\n          edges { node { key namespace value deleted } }\n        }\n      }\n    }\n  }\n": typeof types.SessListStateDocument,
    "\n  mutation SessSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key namespace value version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessSetStateDocument,
    "\n  mutation SessDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { id version deleted value } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessDeleteStateDocument,
    "\n  mutation SessRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { version value deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.SessRestoreStateDocument,
    "\n  query SessStateHistory($id: ID!) {\n    node(id: $id) {\n      ... on StateKey { key history(first: 50) { edges { node { version value deleted restoredFrom event { sequence } } } } }\n    }\n  }\n": typeof types.SessStateHistoryDocument,
    "\n  mutation SessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys session { turn } event { type content } } }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.SessEndTurnDocument,
    "\n  mutation SessAddTool($input: AddToolInput!) {\n    addTool(input: $input) { __typename ... on AddToolSuccess { tool { id } } ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n": typeof types.SessAddToolDocument,
    "\n  mutation SessUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n": typeof types.SessUpdateToolDocument,
    "query SessEntry($id: ID!) { entry(id: $id) { active scope { id } versions(first: 5) { edges { node { version } } } } }": typeof types.SessEntryDocument,
    "\n      query SessEventsBack($id: ID!, $filter: SessionEventFilter, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            events(filter: $filter, last: $last, before: $before) {\n              totalCount\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { sequence } }\n            }\n          }\n        }\n      }\n    ": typeof types.SessEventsBackDocument,
    "\n      query SessStateBack($id: ID!, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(last: $last, before: $before) {\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    ": typeof types.SessStateBackDocument,
    "\n      query SessStateEdges($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(first: $first, last: $last, after: $after, before: $before) {\n              pageInfo { hasNextPage endCursor hasPreviousPage startCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    ": typeof types.SessStateEdgesDocument,
    "\n  mutation FanOutAdd($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n": typeof types.FanOutAddDocument,
    "\n  mutation FanOutUpdate($input: UpdateKnowledgeInput!) { updateKnowledge(input: $input) { __typename } }\n": typeof types.FanOutUpdateDocument,
    "\n  subscription OnConflict($scope: ID!, $includeDescendants: Boolean) {\n    conflictDetected(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      occurredAt\n      conflict { id entry { name scope { id } } versionA { version } versionB { version conflictFlag } }\n    }\n  }\n": typeof types.OnConflictDocument,
    "\n  subscription OnResolved($scope: ID!) {\n    conflictResolved(scope: $scope) { type conflict { id resolved resolution } }\n  }\n": typeof types.OnResolvedDocument,
    "\n  subscription OnEntry($scope: ID!, $includeDescendants: Boolean) {\n    entryChanged(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      actor\n      entry { name active latestVersion tags { name } }\n      version { version }\n    }\n  }\n": typeof types.OnEntryDocument,
    "\n  subscription OnSession($session: ID, $project: ID) {\n    sessionEvent(session: $session, project: $project) { sequence type actor transition { from to } session { id status } }\n  }\n": typeof types.OnSessionDocument,
    "\n  mutation SubUpdate($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n": typeof types.SubUpdateDocument,
    "\n  mutation SubResolve($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }\n": typeof types.SubResolveDocument,
    "\n  mutation SubTag($entry: ID!) { attachTags(input: { entry: $entry, tags: [\"live\"] }) { __typename } }\n": typeof types.SubTagDocument,
    "\n  mutation SubDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n": typeof types.SubDeactivateDocument,
    "\n  mutation SubAppend($session: ID!, $delta: JSON) {\n    appendSessionEvent(input: { session: $session, type: TOOL_CALL, actor: \"agent:sub\", content: { tool: \"grep\" }, stateDelta: $delta }) { __typename }\n  }\n": typeof types.SubAppendDocument,
    "\n  mutation SubEnd($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": typeof types.SubEndDocument,
    "\n  mutation FixtureCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { message }\n    }\n  }\n": typeof types.FixtureCreateProjectDocument,
    "\n  mutation FixtureStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { message }\n    }\n  }\n": typeof types.FixtureStartSessionDocument,
    "\n  query FixtureGlobal { globalScope { id } }\n": typeof types.FixtureGlobalDocument,
    "\n  mutation FixtureAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name latestVersion } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.FixtureAddToolDocument,
    "\n  mutation FixtureAddGuideline($input: AddGuidelineInput!) {\n    addGuideline(input: $input) {\n      __typename\n      ... on AddGuidelineSuccess { guideline { id name priority } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.FixtureAddGuidelineDocument,
    "\n  mutation FixtureAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on AddKnowledgeSuccess { knowledge { id title } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.FixtureAddKnowledgeDocument,
    "\n  query Tags($category: TagCategory, $predefined: Boolean, $first: Int) {\n    tags(category: $category, predefined: $predefined, first: $first) { totalCount edges { node { id name category predefined description } } }\n  }\n": typeof types.TagsDocument,
    "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category predefined description } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.CreateTagDocument,
    "\n  mutation Attach($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name category } } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.AttachDocument,
    "\n  mutation Detach($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n": typeof types.DetachDocument,
    "\n  mutation CreateRelation($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess {\n        relation {\n          id\n          type\n          createdBy\n          source { id }\n          targetEntry { id __typename }\n          targetScope { id __typename }\n        }\n      }\n      ... on UserError { code path message }\n    }\n  }\n": typeof types.CreateRelationDocument,
    "\n  mutation DeleteRelation($id: ID!) {\n    deleteRelation(input: { id: $id }) {\n      __typename\n      ... on DeleteRelationSuccess { deleted { id } }\n      ... on UserError { code }\n    }\n  }\n": typeof types.DeleteRelationDocument,
    "\n  query Relations($id: ID!, $type: RelationType) {\n    entry(id: $id) {\n      outgoingRelations(type: $type) { type targetEntry { id } targetScope { id } }\n      incomingRelations(type: $type) { type source { id name } }\n    }\n  }\n": typeof types.RelationsDocument,
    "\n  mutation TaskCreate($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title status assignee dueAt completedAt blocked parent { id } dependsOn { id } scope { id } } }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.TaskCreateDocument,
    "\n  mutation TaskUpdate($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { id status completedAt blocked parent { id } assignee } }\n      ... on UnmetDependenciesError { code blockingTaskIds path }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.TaskUpdateDocument,
    "\n  mutation TaskAddDeps($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { id dependsOn { id } blocked } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.TaskAddDepsDocument,
    "\n  mutation TaskRemoveDeps($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) { __typename ... on RemoveTaskDependenciesSuccess { task { dependsOn { id } blocked } } }\n  }\n": typeof types.TaskRemoveDepsDocument,
    "\n  query TaskList($filter: TaskFilter, $first: Int) {\n    tasks(filter: $filter, first: $first) {\n      totalCount\n      edges { node { title status assignee dependents { title } subtasks { totalCount edges { node { title } } } } }\n    }\n  }\n": typeof types.TaskListDocument,
    "\n      query TaskPage($filter: TaskFilter, $first: Int, $after: String, $last: Int, $before: String) {\n        tasks(filter: $filter, first: $first, after: $after, last: $last, before: $before) {\n          totalCount\n          pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n          edges { cursor node { title } }\n        }\n      }\n    ": typeof types.TaskPageDocument,
    "mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {\n  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }": typeof types.RoundTripUpdateDocument,
    "mutation RoundTripTwice($id: ID!) {\n  a: updateKnowledge(input: { id: $id, content: \"fourth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n  b: updateKnowledge(input: { id: $id, content: \"fifth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n}": typeof types.RoundTripTwiceDocument,
    "\n  query BatchGet($id: ID!) { entry(id: $id) { name tags { name } currentVersion { ... on KnowledgeVersion { content } } } }\n": typeof types.BatchGetDocument,
    "mutation BatchDuplicate($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename } }": typeof types.BatchDuplicateDocument,
    "mutation BatchUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }": typeof types.BatchUpdateDocument,
    "\n      mutation BatchRelate($input: CreateRelationInput!) {\n        createRelation(input: $input) { __typename ... on CreateRelationSuccess { relation { id type } } }\n      }\n    ": typeof types.BatchRelateDocument,
    "\n  mutation RaceAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }\n": typeof types.RaceAddDocument,
    "mutation RaceUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"zz\" }) { __typename } }": typeof types.RaceUpdateDocument,
    "mutation RaceDelete($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }": typeof types.RaceDeleteDocument,
    "mutation RaceRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }": typeof types.RaceRelateDocument,
    "mutation RacePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: SEMANTIC, ttlHours: 1 }) { __typename } }": typeof types.RacePolicyDocument,
    "mutation RaceDeleteTree($id: ID!) { deleteScopeTree(input: { id: $id }) { __typename } }": typeof types.RaceDeleteTreeDocument,
};
const documents: Documents = {
    "\n  query NodeLookup($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Scope { scopeName: name }\n      ... on Entry { name currentVersion { id __typename } }\n      ... on Tag { name }\n    }\n  }\n": types.NodeLookupDocument,
    "\n  query NodesLookup($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }\n": types.NodesLookupDocument,
    "query TagIds { tags(first: 1) { edges { node { id name } } } }": types.TagIdsDocument,
    "\n  query OrgPages($first: Int, $after: String) {\n    organizations(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { name } } }\n  }\n": types.OrgPagesDocument,
    "\n  mutation ApiCreateOrganization($name: String!) { createOrganization(input: { name: $name }) { __typename } }\n": types.ApiCreateOrganizationDocument,
    "\n  mutation BatchRelation($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": types.BatchRelationDocument,
    "\n  query BatchTools($tag: String!) {\n    tools(filter: { tag: $tag }, first: 100) {\n      totalCount\n      edges {\n        node {\n          id\n          name\n          scope { id name ancestors { id name } }\n          tags { name category }\n          currentVersion { version ... on ToolVersion { description parameters } }\n          versions(first: 2) { edges { node { version } } }\n          outgoingRelations { type targetEntry { id name } targetScope { id name } }\n          incomingRelations { type source { id name } }\n        }\n      }\n    }\n  }\n": types.BatchToolsDocument,
    "\n  query BatchNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Entry {\n        name\n        scope { id name }\n        tags { name }\n        currentVersion { version }\n        outgoingRelations { type targetEntry { id } targetScope { id } }\n      }\n      ... on Guideline { priority }\n    }\n  }\n": types.BatchNodesDocument,
    "\n  mutation ConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          conflicted\n          version { id version conflictFlag }\n          conflictWith { id version }\n          conflict { id versionA { version } versionB { version } }\n        }\n      }\n      ... on WriteConflictError { code currentVersion currentVersionId path }\n      ... on UserError { code message }\n    }\n  }\n": types.ConflictUpdateToolDocument,
    "\n  mutation ConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { conflicted conflict { id } } }\n      ... on UserError { code }\n    }\n  }\n": types.ConflictUpdateGuidelineDocument,
    "\n  query ConflictEntryState($id: ID!) {\n    entry(id: $id) {\n      latestVersion\n      hasUnresolvedConflicts\n      unresolvedConflictCount\n      currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n      versions(first: 100) { totalCount edges { node { version conflictFlag } } }\n      conflicts { id resolved }\n    }\n  }\n": types.ConflictEntryStateDocument,
    "\n  query ConflictList($filter: ConflictFilter) {\n    conflicts(filter: $filter, first: 100) {\n      totalCount\n      edges { node { id resolved entry { name } versionA { version } versionB { version } } }\n    }\n  }\n": types.ConflictListDocument,
    "\n  query ConflictDetail($id: ID!) {\n    conflict(id: $id) {\n      id\n      resolved\n      resolution\n      note\n      resolvedBy\n      resolvedAt\n      entry { id }\n      versionA { version ... on ToolVersion { description } }\n      versionB { version conflictFlag ... on ToolVersion { description } }\n      resolutionVersion { version ... on ToolVersion { description } }\n    }\n  }\n": types.ConflictDetailDocument,
    "\n  mutation Resolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution { conflict { resolved resolution note resolvedBy } version { version ... on ToolVersion { description constraints } } }\n      }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.ResolveDocument,
    "\n  query ToolsWithWarnings($scope: ID!) {\n    tools(filter: { scope: $scope }) { edges { node { name } } warnings { code message entry { name } } }\n    scope(id: $scope) { entries { warnings { code entry { name } } } }\n  }\n": types.ToolsWithWarningsDocument,
    "query RejectedCurrent($id: ID!) { node(id: $id) { ... on EntryVersion { version } } }": types.RejectedCurrentDocument,
    "\n  mutation CommonImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": types.CommonImportDocument,
    "\n  query CommonContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n": types.CommonContextDocument,
    "\n  mutation ScopeTokensImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n": types.ScopeTokensImportDocument,
    "\n  query ScopeTokensContext($input: ContextInput!) {\n    context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n  }\n": types.ScopeTokensContextDocument,
    "mutation ScopeTokensOff($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }": types.ScopeTokensOffDocument,
    "mutation ScopeTokensOn($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": types.ScopeTokensOnDocument,
    "\n  mutation SmallMemoryImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": types.SmallMemoryImportDocument,
    "\n  query SmallMemoryContext($input: ContextInput!) {\n    context(input: $input) { knowledge { breakdown { text } node { name } } }\n  }\n": types.SmallMemoryContextDocument,
    "\n  mutation ConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title scope { id } messageCount } }\n      ... on UserError { code message path }\n    }\n  }\n": types.ConvStartDocument,
    "\n  mutation ConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position role content toolsUsed context { entry { id } score source } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.ConvAddDocument,
    "\n  query ConvShow($id: ID!) {\n    node(id: $id) {\n      ... on Conversation {\n        messageCount\n        messages(first: 50) { totalCount edges { node { position role content } } }\n        context(first: 50) { totalCount edges { node { entry { id name } message { id } score source } } }\n      }\n    }\n  }\n": types.ConvShowDocument,
    "\n  query ConvQuery($input: MemoryQueryInput!) {\n    memoryQuery(input: $input, first: 10) { edges { score node { id } } }\n  }\n": types.ConvQueryDocument,
    "\n  query ConvList($scope: ID!) { conversations(scope: $scope) { totalCount edges { node { title } } } }\n": types.ConvListDocument,
    "\n      mutation ConvLink($input: LinkConversationEntriesInput!) {\n        linkConversationEntries(input: $input) {\n          __typename\n          ... on LinkConversationEntriesSuccess { conversation { id messageCount } }\n          ... on UserError { code message path }\n        }\n      }\n    ": types.ConvLinkDocument,
    "mutation UnavailableAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { __typename } }": types.UnavailableAddDocument,
    "query UnavailableRead($scope: ID!) { memoryQuery(input: { scope: $scope, search: \"c\" }, first: 5) { meta { totalCount } } }": types.UnavailableReadDocument,
    "\n  mutation CascadePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }\n": types.CascadePolicyDocument,
    "\n  mutation CascadeLease($scope: ID!, $resource: String!) { checkoutLease(input: { scope: $scope, resource: $resource, ttlSeconds: 60 }) { __typename } }\n": types.CascadeLeaseDocument,
    "\n  mutation CascadeQuestion($scope: ID!, $key: String!) { openVoteQuestion(input: { scope: $scope, key: $key, k: 3 }) { __typename ... on OpenVoteQuestionSuccess { question { id } } } }\n": types.CascadeQuestionDocument,
    "\n  mutation CascadeVote($question: ID!, $answer: String!) { castVote(input: { question: $question, answer: $answer }) { __typename } }\n": types.CascadeVoteDocument,
    "\n  mutation CascadeFlag($scope: ID!) { flagAgent(input: { scope: $scope, agent: \"agent:rogue\", reason: \"wrong answers\" }) { __typename } }\n": types.CascadeFlagDocument,
    "\n  mutation CascadeOutcomes($scope: ID!) {\n    recordOutcomes(input: { scope: $scope, outcomes: [{ subtaskType: \"build\", success: true, durationMs: 10 }, { subtaskType: \"build\", success: false, durationMs: 20 }] }) { __typename }\n  }\n": types.CascadeOutcomesDocument,
    "\n  mutation CascadeDeleteTree($id: ID!, $dryRun: Boolean) {\n    deleteScopeTree(input: { id: $id, dryRun: $dryRun }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts contentHash } } }\n  }\n": types.CascadeDeleteTreeDocument,
    "\n  mutation CascadeDeleteSession($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }\n": types.CascadeDeleteSessionDocument,
    "\n  mutation LargeImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n": types.LargeImportDocument,
    "\n  mutation LargeRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }\n": types.LargeRelateDocument,
    "\n  mutation LargeTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n": types.LargeTaskDocument,
    "\n  mutation LargeState($project: ID!, $key: String!, $value: JSON!) { setState(input: { owner: { project: $project }, key: $key, value: $value }) { __typename } }\n": types.LargeStateDocument,
    "\n  mutation LargeKept($scope: ID!) { addKnowledge(input: { scope: $scope, title: \"kept\", content: \"stays\", tags: [\"kept\"] }) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n": types.LargeKeptDocument,
    "\n  mutation LargeDeleteTree($id: ID!) {\n    deleteScopeTree(input: { id: $id }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": types.LargeDeleteTreeDocument,
    "\n  mutation LargeErase($scope: ID!, $tag: String!) {\n    eraseMemory(input: { scope: $scope, tag: $tag }) { __typename ... on EraseMemorySuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": types.LargeEraseDocument,
    "\n  mutation LargeSession($project: ID!, $userId: String!) { startSession(input: { project: $project, userId: $userId }) { __typename ... on StartSessionSuccess { session { id } } } }\n": types.LargeSessionDocument,
    "\n  mutation LargeForget($userId: String!) {\n    forgetUser(input: { userId: $userId }) { __typename ... on ForgetUserSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n": types.LargeForgetDocument,
    "\n  query LargeTaskParent($id: ID!) { node(id: $id) { ... on Task { id parent { id } } } }\n": types.LargeTaskParentDocument,
    "\n  query EntryDetail($id: ID!) {\n    entry(id: $id) {\n      __typename\n      id\n      kind\n      name\n      category\n      active\n      createdBy\n      latestVersion\n      scope { id }\n      tags { name category predefined }\n      currentVersion {\n        __typename\n        version\n        createdBy\n        changeReason\n        conflictFlag\n        ... on ToolVersion { description parameters examples constraints }\n        ... on GuidelineVersion { content rationale }\n        ... on KnowledgeVersion { content source confidence validUntil }\n      }\n      ... on Guideline { priority }\n      ... on Knowledge { title }\n    }\n  }\n": types.EntryDetailDocument,
    "\n  query History($id: ID!, $first: Int, $after: String) {\n    entry(id: $id) {\n      versions(first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { version changeReason ... on ToolVersion { description } } }\n      }\n      v1: version(number: 1) { version ... on ToolVersion { description } }\n      v99: version(number: 99) { version }\n    }\n  }\n": types.HistoryDocument,
    "\n  mutation UpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          version { version conflictFlag createdBy }\n          conflictWith { version }\n          entry { latestVersion currentVersion { version } }\n        }\n      }\n      ... on UserError { code message path }\n    }\n  }\n": types.UpdateToolDocument,
    "\n  mutation UpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { version { version ... on GuidelineVersion { content rationale } } entry { ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.UpdateGuidelineDocument,
    "\n  mutation UpdateKnowledge($input: UpdateKnowledgeInput!) {\n    updateKnowledge(input: $input) {\n      __typename\n      ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content source confidence } } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.UpdateKnowledgeDocument,
    "\n  query ByName($scope: ID!, $kind: EntryKind!, $name: String!) {\n    entryByName(scope: $scope, kind: $kind, name: $name) { id __typename }\n  }\n": types.ByNameDocument,
    "\n  mutation Deactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on UserError { code } }\n  }\n": types.DeactivateDocument,
    "\n  mutation Reactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n": types.ReactivateDocument,
    "\n  query Lists($filter: EntryFilter) {\n    tools(filter: $filter) { totalCount edges { node { name } } }\n    guidelines(filter: $filter) { totalCount edges { node { name priority } } }\n    knowledge(filter: $filter) { totalCount edges { node { title } } }\n  }\n": types.ListsDocument,
    "\n  query ScopeEntries($id: ID!, $kind: EntryKind, $includeInactive: Boolean) {\n    scope(id: $id) { entries(kind: $kind, includeInactive: $includeInactive) { totalCount edges { node { __typename name } } } }\n  }\n": types.ScopeEntriesDocument,
    "query TagsAfterRollback { tags(predefined: false) { edges { node { name } } } }": types.TagsAfterRollbackDocument,
    "mutation BadKnowledge($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on ValidationError { issues { path message } } } }": types.BadKnowledgeDocument,
    "\n  query TypedGuidelines($scope: ID!) {\n    guidelines(filter: { scope: $scope }) {\n      edges {\n        node {\n          currentVersion { content rationale }\n          version(number: 1) { content }\n          versions(first: 5) { totalCount edges { node { version content } } }\n        }\n      }\n    }\n    tools(filter: { scope: $scope }) { edges { node { currentVersion { description } versions { edges { node { parameters } } } } } }\n    knowledge(filter: { scope: $scope }) { edges { node { currentVersion { content confidence } } } }\n  }\n": types.TypedGuidelinesDocument,
    "\n  query ThroughInterface($id: ID!) {\n    entry(id: $id) {\n      currentVersion { __typename version }\n      versions { __typename totalCount edges { __typename node { __typename ... on GuidelineVersion { content } } } }\n    }\n  }\n": types.ThroughInterfaceDocument,
    "mutation TypedUpdate($id: ID!) { updateGuideline(input: { id: $id, content: \"second\" }) { __typename } }": types.TypedUpdateDocument,
    "query EventKindsCursor { changeFeedCursor }": types.EventKindsCursorDocument,
    "mutation EventKindsAttach($e: ID!) { attachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }": types.EventKindsAttachDocument,
    "mutation EventKindsDetach($e: ID!) { detachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }": types.EventKindsDetachDocument,
    "\n  mutation EventKindsRelate($s: ID!, $t: ID!) {\n    createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename ... on CreateRelationSuccess { relation { id } } }\n  }\n": types.EventKindsRelateDocument,
    "mutation EventKindsUnrelate($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }": types.EventKindsUnrelateDocument,
    "mutation EventKindsDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }": types.EventKindsDeactivateDocument,
    "mutation EventKindsReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": types.EventKindsReactivateDocument,
    "mutation EventKindsUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"changed\" }) { __typename } }": types.EventKindsUpdateDocument,
    "\n  mutation EventKindsSession($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n": types.EventKindsSessionDocument,
    "mutation EventKindsComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }": types.EventKindsCompleteDocument,
    "\n  subscription EventKindsReplay($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, includeDescendants: true, after: $after) { type entryId cursor }\n  }\n": types.EventKindsReplayDocument,
    "\n  mutation EraseTextImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": types.EraseTextImportDocument,
    "\n  mutation EraseText($scope: ID!, $text: String!, $dryRun: Boolean) {\n    eraseMemory(input: { scope: $scope, text: $text, dryRun: $dryRun }) { __typename ... on EraseMemorySuccess { receipt { counts } } }\n  }\n": types.EraseTextDocument,
    "\n  query EraseTextNames($scope: ID!) { knowledge(filter: { scope: $scope }, first: 100) { edges { node { name } } } }\n": types.EraseTextNamesDocument,
    "\n  query RankExtensionQuery($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 15) { edges { node { id } breakdown { text } } meta { totalCount } } }\n": types.RankExtensionQueryDocument,
    "\n  mutation RankExtensionImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }\n": types.RankExtensionImportDocument,
    "\n  mutation IdsImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } }\n  }\n": types.IdsImportDocument,
    "\n  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }\n  }\n": types.LargeImportTurnsDocument,
    "\n  mutation LargeImportScreened($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess { imported { count } }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": types.LargeImportScreenedDocument,
    "\n  query LargeImportContent($scope: ID!, $name: String!) {\n    entryByName(scope: $scope, kind: KNOWLEDGE, name: $name) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }\n  }\n": types.LargeImportContentDocument,
    "\n  mutation LargeImportPolicy($scope: ID!) { setSecretPolicy(input: { scope: $scope, policy: REFUSE }) { __typename } }\n": types.LargeImportPolicyDocument,
    "\n  mutation LargeImportReadBack($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          entries {\n            id\n            name\n            scope { id }\n            currentVersion { version }\n            versions(first: 2) { totalCount edges { node { version } } }\n            tags { name }\n            ... on Knowledge { v: versions(first: 1) { edges { node { ... on KnowledgeVersion { content } } } } }\n          }\n        }\n      }\n    }\n  }\n": types.LargeImportReadBackDocument,
    "\n  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n": types.LargeImportCountDocument,
    "\n  mutation Import($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries { __typename name createdBy latestVersion tags { name } currentVersion { version ... on GuidelineVersion { content } } }\n        }\n      }\n      ... on ValidationError { path issues { path message } }\n      ... on UserError { code message }\n    }\n  }\n": types.ImportDocument,
    "\n  query ImportFind($scope: ID!, $search: String) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 100) { meta { totalCount } edges { node { name } } }\n  }\n": types.ImportFindDocument,
    "\n  mutation IsolationCreateOrganization($name: String!) {\n    createOrganization(input: { name: $name }) { __typename }\n  }\n": types.IsolationCreateOrganizationDocument,
    "\n  mutation IsolationDoomedUpdate($id: ID!) {\n    updateTool(input: { id: $id, description: \"never\", expectedVersion: 999 }) { __typename }\n  }\n": types.IsolationDoomedUpdateDocument,
    "\n  query IsolationOrganizations { organizations(first: 100) { edges { node { name } } } }\n": types.IsolationOrganizationsDocument,
    "\n  mutation PagesCheckout($scope: ID!, $ttl: Int!) { checkoutLease(input: { scope: $scope, resource: \"shared.txt\", mode: SHARED, ttlSeconds: $ttl }) { __typename } }\n": types.PagesCheckoutDocument,
    "\n  mutation PagesExclusive($scope: ID!) {\n    checkoutLease(input: { scope: $scope, resource: \"shared.txt\", ttlSeconds: 60 }) { __typename ... on LeaseHeldError { message holders { holder } } }\n  }\n": types.PagesExclusiveDocument,
    "\n  query PagesLeases($scope: ID!, $after: String) {\n    leases(scope: $scope, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { holder expiresAt } } }\n  }\n": types.PagesLeasesDocument,
    "\n  mutation PagesFlag($scope: ID!, $agent: String!) { flagAgent(input: { scope: $scope, agent: $agent }) { __typename } }\n": types.PagesFlagDocument,
    "\n  query PagesFlagged($scope: ID!, $after: String) {\n    flaggedAgents(scope: $scope, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { agent } } }\n  }\n": types.PagesFlaggedDocument,
    "\n  mutation MqbRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": types.MqbRelateDocument,
    "\n  query MqbPage($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) {\n      edges {\n        score\n        node {\n          id\n          name\n          scope { id name }\n          tags { name }\n          currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n          outgoingRelations { type targetEntry { id name } targetScope { id } }\n          incomingRelations { source { id } }\n        }\n      }\n      meta { totalCount returnedCount }\n      scopeChain { id }\n    }\n  }\n": types.MqbPageDocument,
    "\n  query MqbNoTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } meta { returnedCount } }\n  }\n": types.MqbNoTotalDocument,
    "\n  query MqbFragmentTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } ...MqbTotal }\n  }\n  fragment MqbTotal on MemoryQueryConnection { meta { ... on MemoryQueryMeta { totalCount } } }\n": types.MqbFragmentTotalDocument,
    "\n  query Memory($input: MemoryQueryInput!, $first: Int, $after: String) {\n    memoryQuery(input: $input, first: $first, after: $after) {\n      edges {\n        cursor\n        score\n        estimatedTokens\n        breakdown { relation tags scope text priority recency decay }\n        node { __typename id name scope { id } }\n      }\n      pageInfo { hasNextPage endCursor }\n      meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }\n      scopeChain { id kind }\n    }\n  }\n": types.MemoryDocument,
    "\n  mutation MemoryOrg($name: String!) { createOrganization(input: { name: $name }) { __typename ... on CreateOrganizationSuccess { organization { id } } } }\n": types.MemoryOrgDocument,
    "\n  mutation MemoryRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n": types.MemoryRelateDocument,
    "\n  mutation MemoryDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n": types.MemoryDeactivateDocument,
    "query RuleOut($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { id } } meta { totalCount } } }": types.RuleOutDocument,
    "mutation MemoryUpdate($id: ID!) { updateTool(input: { id: $id, description: \"Ships with kubernetes.\" }) { __typename } }": types.MemoryUpdateDocument,
    "\n      mutation MemoryTags($attach: TagsOfEntryInput!, $detach: TagsOfEntryInput!, $doAttach: Boolean!) {\n        attachTags(input: $attach) @include(if: $doAttach) { __typename }\n        detachTags(input: $detach) @skip(if: $doAttach) { __typename }\n      }\n    ": types.MemoryTagsDocument,
    "mutation MemoryReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }": types.MemoryReactivateDocument,
    "\n      mutation MemoryScratch($project: ID!) { startSession(input: { project: $project, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n    ": types.MemoryScratchDocument,
    "\n      mutation MemoryComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }\n    ": types.MemoryCompleteDocument,
    "\n      mutation RankImport($entries: [ImportEntryInput!]!) {\n        importEntries(input: { entries: $entries }) { __typename }\n      }\n    ": types.RankImportDocument,
    "mutation RankBump($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }": types.RankBumpDocument,
    "\n      query RankContext($input: ContextInput!) {\n        context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n      }\n    ": types.RankContextDocument,
    "\n      query RankNoTotal($input: MemoryQueryInput!, $first: Int) {\n        memoryQuery(input: $input, first: $first) { edges { score node { id } } }\n      }\n    ": types.RankNoTotalDocument,
    "\n      mutation CtxImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n    ": types.CtxImportDocument,
    "\n      query CtxTools($input: ContextInput!) { context(input: $input) { tools { score node { id } } } }\n    ": types.CtxToolsDocument,
    "\n      query MemoryTimes($input: MemoryQueryInput!) { memoryQuery(input: $input, first: 50) { edges { node { name createdAt updatedAt } } } }\n    ": types.MemoryTimesDocument,
    "mutation MemoryTouch($id: ID!) { updateTool(input: { id: $id, description: \"changed\" }) { __typename } }": types.MemoryTouchDocument,
    "\n      query MemoryContext($input: ContextInput!) {\n        context(input: $input) {\n          guidelines { score node { name } }\n          tools { score node { name } }\n          knowledge { score breakdown { text } node { name } }\n          scopeChain { kind }\n          tokensUsed\n          tokenBudget\n          truncated\n        }\n      }\n    ": types.MemoryContextDocument,
    "query MemoryContextTask($input: ContextInput!) { context(input: $input) { tokensUsed } }": types.MemoryContextTaskDocument,
    "\n  mutation MutantConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n": types.MutantConflictUpdateToolDocument,
    "\n  mutation MutantConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflict { id } } } }\n  }\n": types.MutantConflictUpdateGuidelineDocument,
    "\n  mutation MutantResolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution {\n          conflict { resolution resolvedBy }\n          version {\n            version\n            createdBy\n            changeReason\n            ... on ToolVersion { description }\n            ... on GuidelineVersion { content rationale }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantResolveDocument,
    "\n  query MutantConflictState($id: ID!) {\n    conflict(id: $id) { resolved resolution note resolvedBy }\n  }\n": types.MutantConflictStateDocument,
    "\n  mutation MutantConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title metadata createdBy } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantConvStartDocument,
    "\n  mutation MutantConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position toolsUsed metadata context { entry { id } score } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantConvAddDocument,
    "\n  mutation MutantConvLink($input: LinkConversationEntriesInput!) {\n    linkConversationEntries(input: $input) {\n      __typename\n      ... on LinkConversationEntriesSuccess { conversation { id } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantConvLinkDocument,
    "\n  query MutantConvContext($id: ID!) {\n    node(id: $id) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score } } } } }\n  }\n": types.MutantConvContextDocument,
    "\n  mutation MutantConvComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.MutantConvCompleteDocument,
    "\n  mutation MutantConvArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": types.MutantConvArchiveDocument,
    "\n  mutation MutantConvOrg($name: String!) {\n    createOrganization(input: { name: $name }) { ... on CreateOrganizationSuccess { organization { id } } }\n  }\n": types.MutantConvOrgDocument,
    "\n  mutation MutantImport($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries {\n            name\n            category\n            createdBy\n            latestVersion\n            currentVersion { version createdBy ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { confidence } }\n            ... on Guideline { priority }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantImportDocument,
    "\n  mutation MutantEntryAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name category createdBy active } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantEntryAddToolDocument,
    "\n  mutation MutantEntryAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantEntryAddKnowledgeDocument,
    "\n  mutation MutantEntryUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess { update { version { version conflictFlag changeReason } entry { category } conflict { resolved } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on WriteConflictError { currentVersion }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantEntryUpdateToolDocument,
    "\n  mutation MutantEntryUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { entry { category ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantEntryUpdateGuidelineDocument,
    "\n  mutation MutantEntryDeactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n": types.MutantEntryDeactivateDocument,
    "\n  mutation MutantEntryReactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n": types.MutantEntryReactivateDocument,
    "\n  subscription MutantEntryOnChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": types.MutantEntryOnChangedDocument,
    "\n  mutation MutantEntryComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.MutantEntryCompleteDocument,
    "\n  mutation MutantEntryArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": types.MutantEntryArchiveDocument,
    "mutation MutantEntryAddGuideline($input: AddGuidelineInput!) { addGuideline(input: $input) { __typename ... on ValidationError { issues { path message } } } }": types.MutantEntryAddGuidelineDocument,
    "\n  mutation MutantRelate($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on UserError { code path }\n    }\n  }\n": types.MutantRelateDocument,
    "\n  mutation MutantUnrelate($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on UserError { code path } }\n  }\n": types.MutantUnrelateDocument,
    "\n  subscription MutantOnRelationChange($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": types.MutantOnRelationChangeDocument,
    "\n  mutation MutantRelateWhy($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantRelateWhyDocument,
    "\n  mutation MutantUnrelateWhy($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n": types.MutantUnrelateWhyDocument,
    "\n  mutation MutantRelationEndSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.MutantRelationEndSessionDocument,
    "\n  mutation MutantRelationArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": types.MutantRelationArchiveSessionDocument,
    "\n  mutation MutantCreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantCreateOrganizationDocument,
    "\n  mutation MutantCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantCreateProjectDocument,
    "\n  mutation MutantUpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantUpdateProjectDocument,
    "\n  mutation MutantStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess {\n        session { id name purpose agentId userId appName mode autoPromote metadata events(first: 5) { edges { node { sequence type actor } } } }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantStartSessionDocument,
    "\n  mutation MutantSessStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n": types.MutantSessStartDocument,
    "\n  mutation MutantSessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence actor } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSessAppendDocument,
    "\n  mutation MutantSessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { archivedAt } event { actor } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSessPauseDocument,
    "\n  mutation MutantSessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { archivedAt endedAt } event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSessCompleteDocument,
    "\n  mutation MutantSessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSessDiscardDocument,
    "\n  mutation MutantSessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { archivedAt } } }\n    }\n  }\n": types.MutantSessArchiveDocument,
    "\n  mutation MutantSessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSessEndTurnDocument,
    "\n  query MutantSessListState($id: ID!) {\n    node(id: $id) { ... on Session { stateEntries(includeDeleted: true, first: 50) { edges { node { key } } } } }\n  }\n": types.MutantSessListStateDocument,
    "\n  subscription MutantSessOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n": types.MutantSessOnEntryChangedDocument,
    "\n  mutation MutantStateStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n": types.MutantStateStartDocument,
    "\n  mutation MutantStateComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.MutantStateCompleteDocument,
    "\n  mutation MutantStatePause($id: ID!) { pauseSession(input: { id: $id }) { __typename } }\n": types.MutantStatePauseDocument,
    "\n  mutation MutantSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key version value deleted } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantSetStateDocument,
    "\n  mutation MutantDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantDeleteStateDocument,
    "\n  mutation MutantRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { key version value deleted } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantRestoreStateDocument,
    "\n  mutation MutantStateAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence } } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantStateAppendDocument,
    "\n  query MutantStateRead($id: ID!, $key: String!) {\n    node(id: $id) { ... on Session { state(key: $key) { namespace value } } }\n  }\n": types.MutantStateReadDocument,
    "\n  query MutantStateList($id: ID!, $pattern: String, $includeDeleted: Boolean) {\n    node(id: $id) { ... on Session { stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, first: 50) { edges { node { key deleted } } } } }\n  }\n": types.MutantStateListDocument,
    "\n  mutation MutantCreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category } }\n      ... on UserError { code path message }\n    }\n  }\n": types.MutantCreateTagDocument,
    "\n  mutation MutantAttachTags($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path message }\n    }\n  }\n": types.MutantAttachTagsDocument,
    "\n  mutation MutantDetachTags($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n": types.MutantDetachTagsDocument,
    "\n  subscription MutantOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type entry { name } }\n  }\n": types.MutantOnEntryChangedDocument,
    "\n  mutation MutantCreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n": types.MutantCreateTaskDocument,
    "\n  mutation MutantUpdateTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n": types.MutantUpdateTaskDocument,
    "\n  mutation MutantAddDependencies($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path message }\n    }\n  }\n": types.MutantAddDependenciesDocument,
    "\n  mutation MutantRemoveDependencies($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) {\n      __typename\n      ... on RemoveTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path }\n    }\n  }\n": types.MutantRemoveDependenciesDocument,
    "\n  query MutantTaskDependencies($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { title } } }\n  }\n": types.MutantTaskDependenciesDocument,
    "\n  mutation MutantTaskCompleteSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.MutantTaskCompleteSessionDocument,
    "\n  mutation MutantTaskArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n": types.MutantTaskArchiveSessionDocument,
    "\n  mutation MutantUpdateTaskFailure($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title status completedAt } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantUpdateTaskFailureDocument,
    "\n  mutation MutantCreateTaskFailure($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title parent { title } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantCreateTaskFailureDocument,
    "\n  mutation MutantAddDependenciesFailure($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { title } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.MutantAddDependenciesFailureDocument,
    "\n  query MutantTaskDependencyCount($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { id } } }\n  }\n": types.MutantTaskDependencyCountDocument,
    "\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n": types.GlobalScopeDocument,
    "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n": types.CreateOrganizationDocument,
    "\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": types.CreateProjectDocument,
    "\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n": types.UpdateProjectDocument,
    "\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.StartSessionDocument,
    "\n  mutation ScopesDiscardSession($input: SessionTransitionInput!) {\n    discardSession(input: $input) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { id status endedAt } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.ScopesDiscardSessionDocument,
    "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n": types.SessionsDocument,
    "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n": types.ScopeTreeDocument,
    "\n  query CorpusSearch($scope: ID!, $search: String!) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 20) {\n      edges { node { name } breakdown { text } }\n    }\n  }\n": types.CorpusSearchDocument,
    "\n  mutation LongWordsImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": types.LongWordsImportDocument,
    "\n  query LongWordsContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n": types.LongWordsContextDocument,
    "\n  query LongWordsSearch($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { name } } } }\n": types.LongWordsSearchDocument,
    "\n  mutation BatchCreateTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n": types.BatchCreateTaskDocument,
    "\n  query BatchTasks($scope: ID!, $first: Int) {\n    tasks(filter: { scope: $scope, topLevelOnly: true }, first: $first) {\n      edges { node { title status blocked scope { id name } parent { id } dependsOn { title status } dependents { title } subtasks(first: 5) { edges { node { title } } } } }\n    }\n  }\n": types.BatchTasksDocument,
    "\n  mutation BatchAppend($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }\n": types.BatchAppendDocument,
    "\n  query BatchEvents($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { events(first: $first) { edges { node { sequence type actor content stateDelta transition { to } session { id status } } } } }\n    }\n  }\n": types.BatchEventsDocument,
    "\n  query BatchState($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { stateEntries(first: $first) { edges { node { key value history(first: 3) { edges { node { version event { sequence } } } } } } } }\n    }\n  }\n": types.BatchStateDocument,
    "\n  mutation BatchStartConversation($scope: ID!) {\n    startConversation(input: { scope: $scope }) { __typename ... on StartConversationSuccess { conversation { id } } }\n  }\n": types.BatchStartConversationDocument,
    "\n  mutation BatchAddMessage($input: AddMessageInput!) { addMessage(input: $input) { __typename } }\n": types.BatchAddMessageDocument,
    "\n  query BatchMessages($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Conversation { messages(first: $first) { edges { node { position content context { score entry { id name } } } } } }\n    }\n  }\n": types.BatchMessagesDocument,
    "\n  mutation PromoteLargeSession($project: ID!) { startSession(input: { project: $project, mode: SCRATCH, autoPromote: true }) { __typename ... on StartSessionSuccess { session { id } } } }\n": types.PromoteLargeSessionDocument,
    "\n  mutation PromoteLargeImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n": types.PromoteLargeImportDocument,
    "\n  mutation PromoteLargeComplete($id: ID!) { completeSession(input: { id: $id }) { __typename ... on UserError { code message } } }\n": types.PromoteLargeCompleteDocument,
    "\n  mutation PromoteLargeCompleteNone($id: ID!) { completeSession(input: { id: $id, autoPromote: false }) { __typename } }\n": types.PromoteLargeCompleteNoneDocument,
    "\n  query PromoteLargeCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n": types.PromoteLargeCountDocument,
    "\n  mutation SessStart($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id status mode userId appName eventCount turn } }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessStartDocument,
    "\n  mutation SessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { status } event { sequence type transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n": types.SessPauseDocument,
    "\n  mutation SessResume($id: ID!) {\n    resumeSession(input: { id: $id }) {\n      __typename\n      ... on ResumeSessionSuccess { transition { session { status } event { sequence transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n": types.SessResumeDocument,
    "\n  mutation SessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess {\n        transition {\n          session { status endedAt }\n          event { sequence transition { from to deactivatedEntries promotedEntries { id name scope { id } latestVersion active } } }\n        }\n      }\n      ... on InvalidStateError { code currentState message }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessCompleteDocument,
    "\n  mutation SessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { status } event { transition { from to deactivatedEntries } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n": types.SessDiscardDocument,
    "\n  mutation SessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { status archivedAt } event { transition { from to } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n": types.SessArchiveDocument,
    "\n  mutation SessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { id sequence type actor content stateDelta } session { eventCount } } }\n      ... on InvalidStateError { currentState }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessAppendDocument,
    "\n  query SessEvents($id: ID!, $filter: SessionEventFilter, $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        eventCount\n        events(filter: $filter, first: $first, after: $after) {\n          totalCount\n          pageInfo { hasNextPage endCursor }\n          edges { node { sequence type actor content createdAt transition { from to } } }\n        }\n      }\n    }\n  }\n": types.SessEventsDocument,
    "\n  query SessReadState($id: ID!, $key: String!) {\n    node(id: $id) {\n      ... on Session {\n        state(key: $key) { key namespace value entry { id key version owner } shadowed { key namespace value } }\n      }\n    }\n  }\n": types.SessReadStateDocument,
    "\n  query SessListState($id: ID!, $pattern: String, $includeDeleted: Boolean, $namespaces: [StateNamespace!], $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, namespaces: $namespaces, first: $first, after: $after) {\n          pageInfo { hasNextPage endCursor }\n          edges { node { key namespace value deleted } }\n        }\n      }\n    }\n  }\n": types.SessListStateDocument,
    "\n  mutation SessSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key namespace value version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessSetStateDocument,
    "\n  mutation SessDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { id version deleted value } }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessDeleteStateDocument,
    "\n  mutation SessRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { version value deleted } }\n      ... on UserError { code message path }\n    }\n  }\n": types.SessRestoreStateDocument,
    "\n  query SessStateHistory($id: ID!) {\n    node(id: $id) {\n      ... on StateKey { key history(first: 50) { edges { node { version value deleted restoredFrom event { sequence } } } } }\n    }\n  }\n": types.SessStateHistoryDocument,
    "\n  mutation SessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys session { turn } event { type content } } }\n      ... on UserError { code message }\n    }\n  }\n": types.SessEndTurnDocument,
    "\n  mutation SessAddTool($input: AddToolInput!) {\n    addTool(input: $input) { __typename ... on AddToolSuccess { tool { id } } ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n": types.SessAddToolDocument,
    "\n  mutation SessUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n": types.SessUpdateToolDocument,
    "query SessEntry($id: ID!) { entry(id: $id) { active scope { id } versions(first: 5) { edges { node { version } } } } }": types.SessEntryDocument,
    "\n      query SessEventsBack($id: ID!, $filter: SessionEventFilter, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            events(filter: $filter, last: $last, before: $before) {\n              totalCount\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { sequence } }\n            }\n          }\n        }\n      }\n    ": types.SessEventsBackDocument,
    "\n      query SessStateBack($id: ID!, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(last: $last, before: $before) {\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    ": types.SessStateBackDocument,
    "\n      query SessStateEdges($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(first: $first, last: $last, after: $after, before: $before) {\n              pageInfo { hasNextPage endCursor hasPreviousPage startCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    ": types.SessStateEdgesDocument,
    "\n  mutation FanOutAdd($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n": types.FanOutAddDocument,
    "\n  mutation FanOutUpdate($input: UpdateKnowledgeInput!) { updateKnowledge(input: $input) { __typename } }\n": types.FanOutUpdateDocument,
    "\n  subscription OnConflict($scope: ID!, $includeDescendants: Boolean) {\n    conflictDetected(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      occurredAt\n      conflict { id entry { name scope { id } } versionA { version } versionB { version conflictFlag } }\n    }\n  }\n": types.OnConflictDocument,
    "\n  subscription OnResolved($scope: ID!) {\n    conflictResolved(scope: $scope) { type conflict { id resolved resolution } }\n  }\n": types.OnResolvedDocument,
    "\n  subscription OnEntry($scope: ID!, $includeDescendants: Boolean) {\n    entryChanged(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      actor\n      entry { name active latestVersion tags { name } }\n      version { version }\n    }\n  }\n": types.OnEntryDocument,
    "\n  subscription OnSession($session: ID, $project: ID) {\n    sessionEvent(session: $session, project: $project) { sequence type actor transition { from to } session { id status } }\n  }\n": types.OnSessionDocument,
    "\n  mutation SubUpdate($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n": types.SubUpdateDocument,
    "\n  mutation SubResolve($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }\n": types.SubResolveDocument,
    "\n  mutation SubTag($entry: ID!) { attachTags(input: { entry: $entry, tags: [\"live\"] }) { __typename } }\n": types.SubTagDocument,
    "\n  mutation SubDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n": types.SubDeactivateDocument,
    "\n  mutation SubAppend($session: ID!, $delta: JSON) {\n    appendSessionEvent(input: { session: $session, type: TOOL_CALL, actor: \"agent:sub\", content: { tool: \"grep\" }, stateDelta: $delta }) { __typename }\n  }\n": types.SubAppendDocument,
    "\n  mutation SubEnd($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n": types.SubEndDocument,
    "\n  mutation FixtureCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { message }\n    }\n  }\n": types.FixtureCreateProjectDocument,
    "\n  mutation FixtureStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { message }\n    }\n  }\n": types.FixtureStartSessionDocument,
    "\n  query FixtureGlobal { globalScope { id } }\n": types.FixtureGlobalDocument,
    "\n  mutation FixtureAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name latestVersion } }\n      ... on UserError { code message path }\n    }\n  }\n": types.FixtureAddToolDocument,
    "\n  mutation FixtureAddGuideline($input: AddGuidelineInput!) {\n    addGuideline(input: $input) {\n      __typename\n      ... on AddGuidelineSuccess { guideline { id name priority } }\n      ... on UserError { code message path }\n    }\n  }\n": types.FixtureAddGuidelineDocument,
    "\n  mutation FixtureAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on AddKnowledgeSuccess { knowledge { id title } }\n      ... on UserError { code message path }\n    }\n  }\n": types.FixtureAddKnowledgeDocument,
    "\n  query Tags($category: TagCategory, $predefined: Boolean, $first: Int) {\n    tags(category: $category, predefined: $predefined, first: $first) { totalCount edges { node { id name category predefined description } } }\n  }\n": types.TagsDocument,
    "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category predefined description } }\n      ... on UserError { code path }\n    }\n  }\n": types.CreateTagDocument,
    "\n  mutation Attach($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name category } } }\n      ... on UserError { code path }\n    }\n  }\n": types.AttachDocument,
    "\n  mutation Detach($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n": types.DetachDocument,
    "\n  mutation CreateRelation($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess {\n        relation {\n          id\n          type\n          createdBy\n          source { id }\n          targetEntry { id __typename }\n          targetScope { id __typename }\n        }\n      }\n      ... on UserError { code path message }\n    }\n  }\n": types.CreateRelationDocument,
    "\n  mutation DeleteRelation($id: ID!) {\n    deleteRelation(input: { id: $id }) {\n      __typename\n      ... on DeleteRelationSuccess { deleted { id } }\n      ... on UserError { code }\n    }\n  }\n": types.DeleteRelationDocument,
    "\n  query Relations($id: ID!, $type: RelationType) {\n    entry(id: $id) {\n      outgoingRelations(type: $type) { type targetEntry { id } targetScope { id } }\n      incomingRelations(type: $type) { type source { id name } }\n    }\n  }\n": types.RelationsDocument,
    "\n  mutation TaskCreate($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title status assignee dueAt completedAt blocked parent { id } dependsOn { id } scope { id } } }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n": types.TaskCreateDocument,
    "\n  mutation TaskUpdate($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { id status completedAt blocked parent { id } assignee } }\n      ... on UnmetDependenciesError { code blockingTaskIds path }\n      ... on UserError { code message path }\n    }\n  }\n": types.TaskUpdateDocument,
    "\n  mutation TaskAddDeps($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { id dependsOn { id } blocked } }\n      ... on UserError { code message path }\n    }\n  }\n": types.TaskAddDepsDocument,
    "\n  mutation TaskRemoveDeps($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) { __typename ... on RemoveTaskDependenciesSuccess { task { dependsOn { id } blocked } } }\n  }\n": types.TaskRemoveDepsDocument,
    "\n  query TaskList($filter: TaskFilter, $first: Int) {\n    tasks(filter: $filter, first: $first) {\n      totalCount\n      edges { node { title status assignee dependents { title } subtasks { totalCount edges { node { title } } } } }\n    }\n  }\n": types.TaskListDocument,
    "\n      query TaskPage($filter: TaskFilter, $first: Int, $after: String, $last: Int, $before: String) {\n        tasks(filter: $filter, first: $first, after: $after, last: $last, before: $before) {\n          totalCount\n          pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n          edges { cursor node { title } }\n        }\n      }\n    ": types.TaskPageDocument,
    "mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {\n  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }": types.RoundTripUpdateDocument,
    "mutation RoundTripTwice($id: ID!) {\n  a: updateKnowledge(input: { id: $id, content: \"fourth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n  b: updateKnowledge(input: { id: $id, content: \"fifth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n}": types.RoundTripTwiceDocument,
    "\n  query BatchGet($id: ID!) { entry(id: $id) { name tags { name } currentVersion { ... on KnowledgeVersion { content } } } }\n": types.BatchGetDocument,
    "mutation BatchDuplicate($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename } }": types.BatchDuplicateDocument,
    "mutation BatchUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }": types.BatchUpdateDocument,
    "\n      mutation BatchRelate($input: CreateRelationInput!) {\n        createRelation(input: $input) { __typename ... on CreateRelationSuccess { relation { id type } } }\n      }\n    ": types.BatchRelateDocument,
    "\n  mutation RaceAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }\n": types.RaceAddDocument,
    "mutation RaceUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"zz\" }) { __typename } }": types.RaceUpdateDocument,
    "mutation RaceDelete($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }": types.RaceDeleteDocument,
    "mutation RaceRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }": types.RaceRelateDocument,
    "mutation RacePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: SEMANTIC, ttlHours: 1 }) { __typename } }": types.RacePolicyDocument,
    "mutation RaceDeleteTree($id: ID!) { deleteScopeTree(input: { id: $id }) { __typename } }": types.RaceDeleteTreeDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodeLookup($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Scope { scopeName: name }\n      ... on Entry { name currentVersion { id __typename } }\n      ... on Tag { name }\n    }\n  }\n"): (typeof documents)["\n  query NodeLookup($id: ID!) {\n    node(id: $id) {\n      __typename\n      id\n      ... on Scope { scopeName: name }\n      ... on Entry { name currentVersion { id __typename } }\n      ... on Tag { name }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NodesLookup($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }\n"): (typeof documents)["\n  query NodesLookup($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TagIds { tags(first: 1) { edges { node { id name } } } }"): (typeof documents)["query TagIds { tags(first: 1) { edges { node { id name } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OrgPages($first: Int, $after: String) {\n    organizations(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { name } } }\n  }\n"): (typeof documents)["\n  query OrgPages($first: Int, $after: String) {\n    organizations(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ApiCreateOrganization($name: String!) { createOrganization(input: { name: $name }) { __typename } }\n"): (typeof documents)["\n  mutation ApiCreateOrganization($name: String!) { createOrganization(input: { name: $name }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BatchRelation($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation BatchRelation($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchTools($tag: String!) {\n    tools(filter: { tag: $tag }, first: 100) {\n      totalCount\n      edges {\n        node {\n          id\n          name\n          scope { id name ancestors { id name } }\n          tags { name category }\n          currentVersion { version ... on ToolVersion { description parameters } }\n          versions(first: 2) { edges { node { version } } }\n          outgoingRelations { type targetEntry { id name } targetScope { id name } }\n          incomingRelations { type source { id name } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query BatchTools($tag: String!) {\n    tools(filter: { tag: $tag }, first: 100) {\n      totalCount\n      edges {\n        node {\n          id\n          name\n          scope { id name ancestors { id name } }\n          tags { name category }\n          currentVersion { version ... on ToolVersion { description parameters } }\n          versions(first: 2) { edges { node { version } } }\n          outgoingRelations { type targetEntry { id name } targetScope { id name } }\n          incomingRelations { type source { id name } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Entry {\n        name\n        scope { id name }\n        tags { name }\n        currentVersion { version }\n        outgoingRelations { type targetEntry { id } targetScope { id } }\n      }\n      ... on Guideline { priority }\n    }\n  }\n"): (typeof documents)["\n  query BatchNodes($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Entry {\n        name\n        scope { id name }\n        tags { name }\n        currentVersion { version }\n        outgoingRelations { type targetEntry { id } targetScope { id } }\n      }\n      ... on Guideline { priority }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          conflicted\n          version { id version conflictFlag }\n          conflictWith { id version }\n          conflict { id versionA { version } versionB { version } }\n        }\n      }\n      ... on WriteConflictError { code currentVersion currentVersionId path }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          conflicted\n          version { id version conflictFlag }\n          conflictWith { id version }\n          conflict { id versionA { version } versionB { version } }\n        }\n      }\n      ... on WriteConflictError { code currentVersion currentVersionId path }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { conflicted conflict { id } } }\n      ... on UserError { code }\n    }\n  }\n"): (typeof documents)["\n  mutation ConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { conflicted conflict { id } } }\n      ... on UserError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConflictEntryState($id: ID!) {\n    entry(id: $id) {\n      latestVersion\n      hasUnresolvedConflicts\n      unresolvedConflictCount\n      currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n      versions(first: 100) { totalCount edges { node { version conflictFlag } } }\n      conflicts { id resolved }\n    }\n  }\n"): (typeof documents)["\n  query ConflictEntryState($id: ID!) {\n    entry(id: $id) {\n      latestVersion\n      hasUnresolvedConflicts\n      unresolvedConflictCount\n      currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n      versions(first: 100) { totalCount edges { node { version conflictFlag } } }\n      conflicts { id resolved }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConflictList($filter: ConflictFilter) {\n    conflicts(filter: $filter, first: 100) {\n      totalCount\n      edges { node { id resolved entry { name } versionA { version } versionB { version } } }\n    }\n  }\n"): (typeof documents)["\n  query ConflictList($filter: ConflictFilter) {\n    conflicts(filter: $filter, first: 100) {\n      totalCount\n      edges { node { id resolved entry { name } versionA { version } versionB { version } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConflictDetail($id: ID!) {\n    conflict(id: $id) {\n      id\n      resolved\n      resolution\n      note\n      resolvedBy\n      resolvedAt\n      entry { id }\n      versionA { version ... on ToolVersion { description } }\n      versionB { version conflictFlag ... on ToolVersion { description } }\n      resolutionVersion { version ... on ToolVersion { description } }\n    }\n  }\n"): (typeof documents)["\n  query ConflictDetail($id: ID!) {\n    conflict(id: $id) {\n      id\n      resolved\n      resolution\n      note\n      resolvedBy\n      resolvedAt\n      entry { id }\n      versionA { version ... on ToolVersion { description } }\n      versionB { version conflictFlag ... on ToolVersion { description } }\n      resolutionVersion { version ... on ToolVersion { description } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Resolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution { conflict { resolved resolution note resolvedBy } version { version ... on ToolVersion { description constraints } } }\n      }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation Resolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution { conflict { resolved resolution note resolvedBy } version { version ... on ToolVersion { description constraints } } }\n      }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ToolsWithWarnings($scope: ID!) {\n    tools(filter: { scope: $scope }) { edges { node { name } } warnings { code message entry { name } } }\n    scope(id: $scope) { entries { warnings { code entry { name } } } }\n  }\n"): (typeof documents)["\n  query ToolsWithWarnings($scope: ID!) {\n    tools(filter: { scope: $scope }) { edges { node { name } } warnings { code message entry { name } } }\n    scope(id: $scope) { entries { warnings { code entry { name } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RejectedCurrent($id: ID!) { node(id: $id) { ... on EntryVersion { version } } }"): (typeof documents)["query RejectedCurrent($id: ID!) { node(id: $id) { ... on EntryVersion { version } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CommonImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"): (typeof documents)["\n  mutation CommonImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CommonContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n"): (typeof documents)["\n  query CommonContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ScopeTokensImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n"): (typeof documents)["\n  mutation ScopeTokensImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ScopeTokensContext($input: ContextInput!) {\n    context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n  }\n"): (typeof documents)["\n  query ScopeTokensContext($input: ContextInput!) {\n    context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ScopeTokensOff($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation ScopeTokensOff($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ScopeTokensOn($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation ScopeTokensOn($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SmallMemoryImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"): (typeof documents)["\n  mutation SmallMemoryImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SmallMemoryContext($input: ContextInput!) {\n    context(input: $input) { knowledge { breakdown { text } node { name } } }\n  }\n"): (typeof documents)["\n  query SmallMemoryContext($input: ContextInput!) {\n    context(input: $input) { knowledge { breakdown { text } node { name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title scope { id } messageCount } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation ConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title scope { id } messageCount } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position role content toolsUsed context { entry { id } score source } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation ConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position role content toolsUsed context { entry { id } score source } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConvShow($id: ID!) {\n    node(id: $id) {\n      ... on Conversation {\n        messageCount\n        messages(first: 50) { totalCount edges { node { position role content } } }\n        context(first: 50) { totalCount edges { node { entry { id name } message { id } score source } } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ConvShow($id: ID!) {\n    node(id: $id) {\n      ... on Conversation {\n        messageCount\n        messages(first: 50) { totalCount edges { node { position role content } } }\n        context(first: 50) { totalCount edges { node { entry { id name } message { id } score source } } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConvQuery($input: MemoryQueryInput!) {\n    memoryQuery(input: $input, first: 10) { edges { score node { id } } }\n  }\n"): (typeof documents)["\n  query ConvQuery($input: MemoryQueryInput!) {\n    memoryQuery(input: $input, first: 10) { edges { score node { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ConvList($scope: ID!) { conversations(scope: $scope) { totalCount edges { node { title } } } }\n"): (typeof documents)["\n  query ConvList($scope: ID!) { conversations(scope: $scope) { totalCount edges { node { title } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation ConvLink($input: LinkConversationEntriesInput!) {\n        linkConversationEntries(input: $input) {\n          __typename\n          ... on LinkConversationEntriesSuccess { conversation { id messageCount } }\n          ... on UserError { code message path }\n        }\n      }\n    "): (typeof documents)["\n      mutation ConvLink($input: LinkConversationEntriesInput!) {\n        linkConversationEntries(input: $input) {\n          __typename\n          ... on LinkConversationEntriesSuccess { conversation { id messageCount } }\n          ... on UserError { code message path }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UnavailableAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { __typename } }"): (typeof documents)["mutation UnavailableAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query UnavailableRead($scope: ID!) { memoryQuery(input: { scope: $scope, search: \"c\" }, first: 5) { meta { totalCount } } }"): (typeof documents)["query UnavailableRead($scope: ID!) { memoryQuery(input: { scope: $scope, search: \"c\" }, first: 5) { meta { totalCount } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }\n"): (typeof documents)["\n  mutation CascadePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: EPISODIC, retentionDays: 30 }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeLease($scope: ID!, $resource: String!) { checkoutLease(input: { scope: $scope, resource: $resource, ttlSeconds: 60 }) { __typename } }\n"): (typeof documents)["\n  mutation CascadeLease($scope: ID!, $resource: String!) { checkoutLease(input: { scope: $scope, resource: $resource, ttlSeconds: 60 }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeQuestion($scope: ID!, $key: String!) { openVoteQuestion(input: { scope: $scope, key: $key, k: 3 }) { __typename ... on OpenVoteQuestionSuccess { question { id } } } }\n"): (typeof documents)["\n  mutation CascadeQuestion($scope: ID!, $key: String!) { openVoteQuestion(input: { scope: $scope, key: $key, k: 3 }) { __typename ... on OpenVoteQuestionSuccess { question { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeVote($question: ID!, $answer: String!) { castVote(input: { question: $question, answer: $answer }) { __typename } }\n"): (typeof documents)["\n  mutation CascadeVote($question: ID!, $answer: String!) { castVote(input: { question: $question, answer: $answer }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeFlag($scope: ID!) { flagAgent(input: { scope: $scope, agent: \"agent:rogue\", reason: \"wrong answers\" }) { __typename } }\n"): (typeof documents)["\n  mutation CascadeFlag($scope: ID!) { flagAgent(input: { scope: $scope, agent: \"agent:rogue\", reason: \"wrong answers\" }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeOutcomes($scope: ID!) {\n    recordOutcomes(input: { scope: $scope, outcomes: [{ subtaskType: \"build\", success: true, durationMs: 10 }, { subtaskType: \"build\", success: false, durationMs: 20 }] }) { __typename }\n  }\n"): (typeof documents)["\n  mutation CascadeOutcomes($scope: ID!) {\n    recordOutcomes(input: { scope: $scope, outcomes: [{ subtaskType: \"build\", success: true, durationMs: 10 }, { subtaskType: \"build\", success: false, durationMs: 20 }] }) { __typename }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeDeleteTree($id: ID!, $dryRun: Boolean) {\n    deleteScopeTree(input: { id: $id, dryRun: $dryRun }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts contentHash } } }\n  }\n"): (typeof documents)["\n  mutation CascadeDeleteTree($id: ID!, $dryRun: Boolean) {\n    deleteScopeTree(input: { id: $id, dryRun: $dryRun }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts contentHash } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CascadeDeleteSession($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }\n"): (typeof documents)["\n  mutation CascadeDeleteSession($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on DeleteSessionSuccess { receipt { counts } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n"): (typeof documents)["\n  mutation LargeImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id name } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }\n"): (typeof documents)["\n  mutation LargeRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n"): (typeof documents)["\n  mutation LargeTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeState($project: ID!, $key: String!, $value: JSON!) { setState(input: { owner: { project: $project }, key: $key, value: $value }) { __typename } }\n"): (typeof documents)["\n  mutation LargeState($project: ID!, $key: String!, $value: JSON!) { setState(input: { owner: { project: $project }, key: $key, value: $value }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeKept($scope: ID!) { addKnowledge(input: { scope: $scope, title: \"kept\", content: \"stays\", tags: [\"kept\"] }) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n"): (typeof documents)["\n  mutation LargeKept($scope: ID!) { addKnowledge(input: { scope: $scope, title: \"kept\", content: \"stays\", tags: [\"kept\"] }) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeDeleteTree($id: ID!) {\n    deleteScopeTree(input: { id: $id }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"): (typeof documents)["\n  mutation LargeDeleteTree($id: ID!) {\n    deleteScopeTree(input: { id: $id }) { __typename ... on DeleteScopeTreeSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeErase($scope: ID!, $tag: String!) {\n    eraseMemory(input: { scope: $scope, tag: $tag }) { __typename ... on EraseMemorySuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"): (typeof documents)["\n  mutation LargeErase($scope: ID!, $tag: String!) {\n    eraseMemory(input: { scope: $scope, tag: $tag }) { __typename ... on EraseMemorySuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeSession($project: ID!, $userId: String!) { startSession(input: { project: $project, userId: $userId }) { __typename ... on StartSessionSuccess { session { id } } } }\n"): (typeof documents)["\n  mutation LargeSession($project: ID!, $userId: String!) { startSession(input: { project: $project, userId: $userId }) { __typename ... on StartSessionSuccess { session { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeForget($userId: String!) {\n    forgetUser(input: { userId: $userId }) { __typename ... on ForgetUserSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"): (typeof documents)["\n  mutation LargeForget($userId: String!) {\n    forgetUser(input: { userId: $userId }) { __typename ... on ForgetUserSuccess { receipt { counts } } ... on UserError { code message } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LargeTaskParent($id: ID!) { node(id: $id) { ... on Task { id parent { id } } } }\n"): (typeof documents)["\n  query LargeTaskParent($id: ID!) { node(id: $id) { ... on Task { id parent { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EntryDetail($id: ID!) {\n    entry(id: $id) {\n      __typename\n      id\n      kind\n      name\n      category\n      active\n      createdBy\n      latestVersion\n      scope { id }\n      tags { name category predefined }\n      currentVersion {\n        __typename\n        version\n        createdBy\n        changeReason\n        conflictFlag\n        ... on ToolVersion { description parameters examples constraints }\n        ... on GuidelineVersion { content rationale }\n        ... on KnowledgeVersion { content source confidence validUntil }\n      }\n      ... on Guideline { priority }\n      ... on Knowledge { title }\n    }\n  }\n"): (typeof documents)["\n  query EntryDetail($id: ID!) {\n    entry(id: $id) {\n      __typename\n      id\n      kind\n      name\n      category\n      active\n      createdBy\n      latestVersion\n      scope { id }\n      tags { name category predefined }\n      currentVersion {\n        __typename\n        version\n        createdBy\n        changeReason\n        conflictFlag\n        ... on ToolVersion { description parameters examples constraints }\n        ... on GuidelineVersion { content rationale }\n        ... on KnowledgeVersion { content source confidence validUntil }\n      }\n      ... on Guideline { priority }\n      ... on Knowledge { title }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query History($id: ID!, $first: Int, $after: String) {\n    entry(id: $id) {\n      versions(first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { version changeReason ... on ToolVersion { description } } }\n      }\n      v1: version(number: 1) { version ... on ToolVersion { description } }\n      v99: version(number: 99) { version }\n    }\n  }\n"): (typeof documents)["\n  query History($id: ID!, $first: Int, $after: String) {\n    entry(id: $id) {\n      versions(first: $first, after: $after) {\n        totalCount\n        pageInfo { hasNextPage endCursor }\n        edges { node { version changeReason ... on ToolVersion { description } } }\n      }\n      v1: version(number: 1) { version ... on ToolVersion { description } }\n      v99: version(number: 99) { version }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          version { version conflictFlag createdBy }\n          conflictWith { version }\n          entry { latestVersion currentVersion { version } }\n        }\n      }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess {\n        update {\n          version { version conflictFlag createdBy }\n          conflictWith { version }\n          entry { latestVersion currentVersion { version } }\n        }\n      }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { version { version ... on GuidelineVersion { content rationale } } entry { ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { version { version ... on GuidelineVersion { content rationale } } entry { ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateKnowledge($input: UpdateKnowledgeInput!) {\n    updateKnowledge(input: $input) {\n      __typename\n      ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content source confidence } } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateKnowledge($input: UpdateKnowledgeInput!) {\n    updateKnowledge(input: $input) {\n      __typename\n      ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content source confidence } } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ByName($scope: ID!, $kind: EntryKind!, $name: String!) {\n    entryByName(scope: $scope, kind: $kind, name: $name) { id __typename }\n  }\n"): (typeof documents)["\n  query ByName($scope: ID!, $kind: EntryKind!, $name: String!) {\n    entryByName(scope: $scope, kind: $kind, name: $name) { id __typename }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Deactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on UserError { code } }\n  }\n"): (typeof documents)["\n  mutation Deactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on UserError { code } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Reactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n"): (typeof documents)["\n  mutation Reactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Lists($filter: EntryFilter) {\n    tools(filter: $filter) { totalCount edges { node { name } } }\n    guidelines(filter: $filter) { totalCount edges { node { name priority } } }\n    knowledge(filter: $filter) { totalCount edges { node { title } } }\n  }\n"): (typeof documents)["\n  query Lists($filter: EntryFilter) {\n    tools(filter: $filter) { totalCount edges { node { name } } }\n    guidelines(filter: $filter) { totalCount edges { node { name priority } } }\n    knowledge(filter: $filter) { totalCount edges { node { title } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ScopeEntries($id: ID!, $kind: EntryKind, $includeInactive: Boolean) {\n    scope(id: $id) { entries(kind: $kind, includeInactive: $includeInactive) { totalCount edges { node { __typename name } } } }\n  }\n"): (typeof documents)["\n  query ScopeEntries($id: ID!, $kind: EntryKind, $includeInactive: Boolean) {\n    scope(id: $id) { entries(kind: $kind, includeInactive: $includeInactive) { totalCount edges { node { __typename name } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TagsAfterRollback { tags(predefined: false) { edges { node { name } } } }"): (typeof documents)["query TagsAfterRollback { tags(predefined: false) { edges { node { name } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation BadKnowledge($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on ValidationError { issues { path message } } } }"): (typeof documents)["mutation BadKnowledge($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on ValidationError { issues { path message } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TypedGuidelines($scope: ID!) {\n    guidelines(filter: { scope: $scope }) {\n      edges {\n        node {\n          currentVersion { content rationale }\n          version(number: 1) { content }\n          versions(first: 5) { totalCount edges { node { version content } } }\n        }\n      }\n    }\n    tools(filter: { scope: $scope }) { edges { node { currentVersion { description } versions { edges { node { parameters } } } } } }\n    knowledge(filter: { scope: $scope }) { edges { node { currentVersion { content confidence } } } }\n  }\n"): (typeof documents)["\n  query TypedGuidelines($scope: ID!) {\n    guidelines(filter: { scope: $scope }) {\n      edges {\n        node {\n          currentVersion { content rationale }\n          version(number: 1) { content }\n          versions(first: 5) { totalCount edges { node { version content } } }\n        }\n      }\n    }\n    tools(filter: { scope: $scope }) { edges { node { currentVersion { description } versions { edges { node { parameters } } } } } }\n    knowledge(filter: { scope: $scope }) { edges { node { currentVersion { content confidence } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ThroughInterface($id: ID!) {\n    entry(id: $id) {\n      currentVersion { __typename version }\n      versions { __typename totalCount edges { __typename node { __typename ... on GuidelineVersion { content } } } }\n    }\n  }\n"): (typeof documents)["\n  query ThroughInterface($id: ID!) {\n    entry(id: $id) {\n      currentVersion { __typename version }\n      versions { __typename totalCount edges { __typename node { __typename ... on GuidelineVersion { content } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation TypedUpdate($id: ID!) { updateGuideline(input: { id: $id, content: \"second\" }) { __typename } }"): (typeof documents)["mutation TypedUpdate($id: ID!) { updateGuideline(input: { id: $id, content: \"second\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query EventKindsCursor { changeFeedCursor }"): (typeof documents)["query EventKindsCursor { changeFeedCursor }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsAttach($e: ID!) { attachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }"): (typeof documents)["mutation EventKindsAttach($e: ID!) { attachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsDetach($e: ID!) { detachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }"): (typeof documents)["mutation EventKindsDetach($e: ID!) { detachTags(input: { entry: $e, tags: [\"kinds\"] }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EventKindsRelate($s: ID!, $t: ID!) {\n    createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename ... on CreateRelationSuccess { relation { id } } }\n  }\n"): (typeof documents)["\n  mutation EventKindsRelate($s: ID!, $t: ID!) {\n    createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename ... on CreateRelationSuccess { relation { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsUnrelate($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }"): (typeof documents)["mutation EventKindsUnrelate($id: ID!) { deleteRelation(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation EventKindsDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation EventKindsReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"changed\" }) { __typename } }"): (typeof documents)["mutation EventKindsUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"changed\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EventKindsSession($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n"): (typeof documents)["\n  mutation EventKindsSession($p: ID!) { startSession(input: { project: $p, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation EventKindsComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }"): (typeof documents)["mutation EventKindsComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription EventKindsReplay($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, includeDescendants: true, after: $after) { type entryId cursor }\n  }\n"): (typeof documents)["\n  subscription EventKindsReplay($scope: ID!, $after: String) {\n    entryChanged(scope: $scope, includeDescendants: true, after: $after) { type entryId cursor }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EraseTextImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"): (typeof documents)["\n  mutation EraseTextImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EraseText($scope: ID!, $text: String!, $dryRun: Boolean) {\n    eraseMemory(input: { scope: $scope, text: $text, dryRun: $dryRun }) { __typename ... on EraseMemorySuccess { receipt { counts } } }\n  }\n"): (typeof documents)["\n  mutation EraseText($scope: ID!, $text: String!, $dryRun: Boolean) {\n    eraseMemory(input: { scope: $scope, text: $text, dryRun: $dryRun }) { __typename ... on EraseMemorySuccess { receipt { counts } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EraseTextNames($scope: ID!) { knowledge(filter: { scope: $scope }, first: 100) { edges { node { name } } } }\n"): (typeof documents)["\n  query EraseTextNames($scope: ID!) { knowledge(filter: { scope: $scope }, first: 100) { edges { node { name } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RankExtensionQuery($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 15) { edges { node { id } breakdown { text } } meta { totalCount } } }\n"): (typeof documents)["\n  query RankExtensionQuery($i: MemoryQueryInput!) { memoryQuery(input: $i, first: 15) { edges { node { id } breakdown { text } } meta { totalCount } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RankExtensionImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }\n"): (typeof documents)["\n  mutation RankExtensionImport($e: [ImportEntryInput!]!) { importEntries(input: { entries: $e }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation IdsImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } }\n  }\n"): (typeof documents)["\n  mutation IdsImport($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { entries { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }\n  }\n"): (typeof documents)["\n  mutation LargeImportTurns($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) { __typename ... on ImportEntriesSuccess { imported { count } } ... on UserError { code } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeImportScreened($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess { imported { count } }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n"): (typeof documents)["\n  mutation LargeImportScreened($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess { imported { count } }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LargeImportContent($scope: ID!, $name: String!) {\n    entryByName(scope: $scope, kind: KNOWLEDGE, name: $name) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }\n  }\n"): (typeof documents)["\n  query LargeImportContent($scope: ID!, $name: String!) {\n    entryByName(scope: $scope, kind: KNOWLEDGE, name: $name) { ... on Knowledge { currentVersion { ... on KnowledgeVersion { content } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeImportPolicy($scope: ID!) { setSecretPolicy(input: { scope: $scope, policy: REFUSE }) { __typename } }\n"): (typeof documents)["\n  mutation LargeImportPolicy($scope: ID!) { setSecretPolicy(input: { scope: $scope, policy: REFUSE }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LargeImportReadBack($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          entries {\n            id\n            name\n            scope { id }\n            currentVersion { version }\n            versions(first: 2) { totalCount edges { node { version } } }\n            tags { name }\n            ... on Knowledge { v: versions(first: 1) { edges { node { ... on KnowledgeVersion { content } } } } }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation LargeImportReadBack($entries: [ImportEntryInput!]!) {\n    importEntries(input: { entries: $entries }) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          entries {\n            id\n            name\n            scope { id }\n            currentVersion { version }\n            versions(first: 2) { totalCount edges { node { version } } }\n            tags { name }\n            ... on Knowledge { v: versions(first: 1) { edges { node { ... on KnowledgeVersion { content } } } } }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n"): (typeof documents)["\n  query LargeImportCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Import($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries { __typename name createdBy latestVersion tags { name } currentVersion { version ... on GuidelineVersion { content } } }\n        }\n      }\n      ... on ValidationError { path issues { path message } }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation Import($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries { __typename name createdBy latestVersion tags { name } currentVersion { version ... on GuidelineVersion { content } } }\n        }\n      }\n      ... on ValidationError { path issues { path message } }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ImportFind($scope: ID!, $search: String) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 100) { meta { totalCount } edges { node { name } } }\n  }\n"): (typeof documents)["\n  query ImportFind($scope: ID!, $search: String) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 100) { meta { totalCount } edges { node { name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation IsolationCreateOrganization($name: String!) {\n    createOrganization(input: { name: $name }) { __typename }\n  }\n"): (typeof documents)["\n  mutation IsolationCreateOrganization($name: String!) {\n    createOrganization(input: { name: $name }) { __typename }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation IsolationDoomedUpdate($id: ID!) {\n    updateTool(input: { id: $id, description: \"never\", expectedVersion: 999 }) { __typename }\n  }\n"): (typeof documents)["\n  mutation IsolationDoomedUpdate($id: ID!) {\n    updateTool(input: { id: $id, description: \"never\", expectedVersion: 999 }) { __typename }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IsolationOrganizations { organizations(first: 100) { edges { node { name } } } }\n"): (typeof documents)["\n  query IsolationOrganizations { organizations(first: 100) { edges { node { name } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PagesCheckout($scope: ID!, $ttl: Int!) { checkoutLease(input: { scope: $scope, resource: \"shared.txt\", mode: SHARED, ttlSeconds: $ttl }) { __typename } }\n"): (typeof documents)["\n  mutation PagesCheckout($scope: ID!, $ttl: Int!) { checkoutLease(input: { scope: $scope, resource: \"shared.txt\", mode: SHARED, ttlSeconds: $ttl }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PagesExclusive($scope: ID!) {\n    checkoutLease(input: { scope: $scope, resource: \"shared.txt\", ttlSeconds: 60 }) { __typename ... on LeaseHeldError { message holders { holder } } }\n  }\n"): (typeof documents)["\n  mutation PagesExclusive($scope: ID!) {\n    checkoutLease(input: { scope: $scope, resource: \"shared.txt\", ttlSeconds: 60 }) { __typename ... on LeaseHeldError { message holders { holder } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PagesLeases($scope: ID!, $after: String) {\n    leases(scope: $scope, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { holder expiresAt } } }\n  }\n"): (typeof documents)["\n  query PagesLeases($scope: ID!, $after: String) {\n    leases(scope: $scope, first: 100, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { holder expiresAt } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PagesFlag($scope: ID!, $agent: String!) { flagAgent(input: { scope: $scope, agent: $agent }) { __typename } }\n"): (typeof documents)["\n  mutation PagesFlag($scope: ID!, $agent: String!) { flagAgent(input: { scope: $scope, agent: $agent }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PagesFlagged($scope: ID!, $after: String) {\n    flaggedAgents(scope: $scope, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { agent } } }\n  }\n"): (typeof documents)["\n  query PagesFlagged($scope: ID!, $after: String) {\n    flaggedAgents(scope: $scope, first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { agent } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MqbRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation MqbRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MqbPage($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) {\n      edges {\n        score\n        node {\n          id\n          name\n          scope { id name }\n          tags { name }\n          currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n          outgoingRelations { type targetEntry { id name } targetScope { id } }\n          incomingRelations { source { id } }\n        }\n      }\n      meta { totalCount returnedCount }\n      scopeChain { id }\n    }\n  }\n"): (typeof documents)["\n  query MqbPage($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) {\n      edges {\n        score\n        node {\n          id\n          name\n          scope { id name }\n          tags { name }\n          currentVersion { version ... on ToolVersion { description } ... on GuidelineVersion { content } }\n          outgoingRelations { type targetEntry { id name } targetScope { id } }\n          incomingRelations { source { id } }\n        }\n      }\n      meta { totalCount returnedCount }\n      scopeChain { id }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MqbNoTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } meta { returnedCount } }\n  }\n"): (typeof documents)["\n  query MqbNoTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } meta { returnedCount } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MqbFragmentTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } ...MqbTotal }\n  }\n  fragment MqbTotal on MemoryQueryConnection { meta { ... on MemoryQueryMeta { totalCount } } }\n"): (typeof documents)["\n  query MqbFragmentTotal($scope: ID!, $first: Int) {\n    memoryQuery(input: { scope: $scope, tags: { include: [\"batch\"] } }, first: $first) { edges { node { id } } ...MqbTotal }\n  }\n  fragment MqbTotal on MemoryQueryConnection { meta { ... on MemoryQueryMeta { totalCount } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Memory($input: MemoryQueryInput!, $first: Int, $after: String) {\n    memoryQuery(input: $input, first: $first, after: $after) {\n      edges {\n        cursor\n        score\n        estimatedTokens\n        breakdown { relation tags scope text priority recency decay }\n        node { __typename id name scope { id } }\n      }\n      pageInfo { hasNextPage endCursor }\n      meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }\n      scopeChain { id kind }\n    }\n  }\n"): (typeof documents)["\n  query Memory($input: MemoryQueryInput!, $first: Int, $after: String) {\n    memoryQuery(input: $input, first: $first, after: $after) {\n      edges {\n        cursor\n        score\n        estimatedTokens\n        breakdown { relation tags scope text priority recency decay }\n        node { __typename id name scope { id } }\n      }\n      pageInfo { hasNextPage endCursor }\n      meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }\n      scopeChain { id kind }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MemoryOrg($name: String!) { createOrganization(input: { name: $name }) { __typename ... on CreateOrganizationSuccess { organization { id } } } }\n"): (typeof documents)["\n  mutation MemoryOrg($name: String!) { createOrganization(input: { name: $name }) { __typename ... on CreateOrganizationSuccess { organization { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MemoryRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation MemoryRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MemoryDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MemoryDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RuleOut($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { id } } meta { totalCount } } }"): (typeof documents)["query RuleOut($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { id } } meta { totalCount } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryUpdate($id: ID!) { updateTool(input: { id: $id, description: \"Ships with kubernetes.\" }) { __typename } }"): (typeof documents)["mutation MemoryUpdate($id: ID!) { updateTool(input: { id: $id, description: \"Ships with kubernetes.\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation MemoryTags($attach: TagsOfEntryInput!, $detach: TagsOfEntryInput!, $doAttach: Boolean!) {\n        attachTags(input: $attach) @include(if: $doAttach) { __typename }\n        detachTags(input: $detach) @skip(if: $doAttach) { __typename }\n      }\n    "): (typeof documents)["\n      mutation MemoryTags($attach: TagsOfEntryInput!, $detach: TagsOfEntryInput!, $doAttach: Boolean!) {\n        attachTags(input: $attach) @include(if: $doAttach) { __typename }\n        detachTags(input: $detach) @skip(if: $doAttach) { __typename }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation MemoryReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation MemoryScratch($project: ID!) { startSession(input: { project: $project, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n    "): (typeof documents)["\n      mutation MemoryScratch($project: ID!) { startSession(input: { project: $project, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation MemoryComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }\n    "): (typeof documents)["\n      mutation MemoryComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation RankImport($entries: [ImportEntryInput!]!) {\n        importEntries(input: { entries: $entries }) { __typename }\n      }\n    "): (typeof documents)["\n      mutation RankImport($entries: [ImportEntryInput!]!) {\n        importEntries(input: { entries: $entries }) { __typename }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RankBump($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }"): (typeof documents)["mutation RankBump($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RankContext($input: ContextInput!) {\n        context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n      }\n    "): (typeof documents)["\n      query RankContext($input: ContextInput!) {\n        context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query RankNoTotal($input: MemoryQueryInput!, $first: Int) {\n        memoryQuery(input: $input, first: $first) { edges { score node { id } } }\n      }\n    "): (typeof documents)["\n      query RankNoTotal($input: MemoryQueryInput!, $first: Int) {\n        memoryQuery(input: $input, first: $first) { edges { score node { id } } }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation CtxImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n    "): (typeof documents)["\n      mutation CtxImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query CtxTools($input: ContextInput!) { context(input: $input) { tools { score node { id } } } }\n    "): (typeof documents)["\n      query CtxTools($input: ContextInput!) { context(input: $input) { tools { score node { id } } } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query MemoryTimes($input: MemoryQueryInput!) { memoryQuery(input: $input, first: 50) { edges { node { name createdAt updatedAt } } } }\n    "): (typeof documents)["\n      query MemoryTimes($input: MemoryQueryInput!) { memoryQuery(input: $input, first: 50) { edges { node { name createdAt updatedAt } } } }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MemoryTouch($id: ID!) { updateTool(input: { id: $id, description: \"changed\" }) { __typename } }"): (typeof documents)["mutation MemoryTouch($id: ID!) { updateTool(input: { id: $id, description: \"changed\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query MemoryContext($input: ContextInput!) {\n        context(input: $input) {\n          guidelines { score node { name } }\n          tools { score node { name } }\n          knowledge { score breakdown { text } node { name } }\n          scopeChain { kind }\n          tokensUsed\n          tokenBudget\n          truncated\n        }\n      }\n    "): (typeof documents)["\n      query MemoryContext($input: ContextInput!) {\n        context(input: $input) {\n          guidelines { score node { name } }\n          tools { score node { name } }\n          knowledge { score breakdown { text } node { name } }\n          scopeChain { kind }\n          tokensUsed\n          tokenBudget\n          truncated\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query MemoryContextTask($input: ContextInput!) { context(input: $input) { tokensUsed } }"): (typeof documents)["query MemoryContextTask($input: ContextInput!) { context(input: $input) { tokensUsed } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n"): (typeof documents)["\n  mutation MutantConflictUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflict { id } } } }\n  }\n"): (typeof documents)["\n  mutation MutantConflictUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflict { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantResolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution {\n          conflict { resolution resolvedBy }\n          version {\n            version\n            createdBy\n            changeReason\n            ... on ToolVersion { description }\n            ... on GuidelineVersion { content rationale }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantResolve($input: ResolveConflictInput!) {\n    resolveConflict(input: $input) {\n      __typename\n      ... on ResolveConflictSuccess {\n        resolution {\n          conflict { resolution resolvedBy }\n          version {\n            version\n            createdBy\n            changeReason\n            ... on ToolVersion { description }\n            ... on GuidelineVersion { content rationale }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantConflictState($id: ID!) {\n    conflict(id: $id) { resolved resolution note resolvedBy }\n  }\n"): (typeof documents)["\n  query MutantConflictState($id: ID!) {\n    conflict(id: $id) { resolved resolution note resolvedBy }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title metadata createdBy } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantConvStart($input: StartConversationInput!) {\n    startConversation(input: $input) {\n      __typename\n      ... on StartConversationSuccess { conversation { id title metadata createdBy } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position toolsUsed metadata context { entry { id } score } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantConvAdd($input: AddMessageInput!) {\n    addMessage(input: $input) {\n      __typename\n      ... on AddMessageSuccess { added { id position toolsUsed metadata context { entry { id } score } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvLink($input: LinkConversationEntriesInput!) {\n    linkConversationEntries(input: $input) {\n      __typename\n      ... on LinkConversationEntriesSuccess { conversation { id } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantConvLink($input: LinkConversationEntriesInput!) {\n    linkConversationEntries(input: $input) {\n      __typename\n      ... on LinkConversationEntriesSuccess { conversation { id } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantConvContext($id: ID!) {\n    node(id: $id) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score } } } } }\n  }\n"): (typeof documents)["\n  query MutantConvContext($id: ID!) {\n    node(id: $id) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantConvComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantConvArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantConvOrg($name: String!) {\n    createOrganization(input: { name: $name }) { ... on CreateOrganizationSuccess { organization { id } } }\n  }\n"): (typeof documents)["\n  mutation MutantConvOrg($name: String!) {\n    createOrganization(input: { name: $name }) { ... on CreateOrganizationSuccess { organization { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantImport($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries {\n            name\n            category\n            createdBy\n            latestVersion\n            currentVersion { version createdBy ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { confidence } }\n            ... on Guideline { priority }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantImport($input: ImportEntriesInput!) {\n    importEntries(input: $input) {\n      __typename\n      ... on ImportEntriesSuccess {\n        imported {\n          count\n          entries {\n            name\n            category\n            createdBy\n            latestVersion\n            currentVersion { version createdBy ... on ToolVersion { description } ... on GuidelineVersion { content } ... on KnowledgeVersion { confidence } }\n            ... on Guideline { priority }\n          }\n        }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name category createdBy active } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantEntryAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name category createdBy active } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantEntryAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess { update { version { version conflictFlag changeReason } entry { category } conflict { resolved } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on WriteConflictError { currentVersion }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantEntryUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) {\n      __typename\n      ... on UpdateToolSuccess { update { version { version conflictFlag changeReason } entry { category } conflict { resolved } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on WriteConflictError { currentVersion }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { entry { category ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantEntryUpdateGuideline($input: UpdateGuidelineInput!) {\n    updateGuideline(input: $input) {\n      __typename\n      ... on UpdateGuidelineSuccess { update { entry { category ... on Guideline { priority } } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryDeactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n"): (typeof documents)["\n  mutation MutantEntryDeactivate($id: ID!) {\n    deactivateEntry(input: { id: $id }) { __typename ... on DeactivateEntrySuccess { entry { active } } ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryReactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n"): (typeof documents)["\n  mutation MutantEntryReactivate($id: ID!) {\n    reactivateEntry(input: { id: $id }) { __typename ... on ReactivateEntrySuccess { entry { active } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MutantEntryOnChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"): (typeof documents)["\n  subscription MutantEntryOnChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantEntryComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantEntryArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantEntryArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation MutantEntryAddGuideline($input: AddGuidelineInput!) { addGuideline(input: $input) { __typename ... on ValidationError { issues { path message } } } }"): (typeof documents)["mutation MutantEntryAddGuideline($input: AddGuidelineInput!) { addGuideline(input: $input) { __typename ... on ValidationError { issues { path message } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRelate($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantRelate($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantUnrelate($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on UserError { code path } }\n  }\n"): (typeof documents)["\n  mutation MutantUnrelate($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on UserError { code path } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MutantOnRelationChange($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"): (typeof documents)["\n  subscription MutantOnRelationChange($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRelateWhy($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantRelateWhy($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess { relation { id } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantUnrelateWhy($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n"): (typeof documents)["\n  mutation MutantUnrelateWhy($id: ID!) {\n    deleteRelation(input: { id: $id }) { __typename ... on InvalidStateError { currentState } ... on UserError { code message path } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRelationEndSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantRelationEndSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRelationArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantRelationArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantCreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantCreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantUpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantUpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { name description rootPath metadata } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess {\n        session { id name purpose agentId userId appName mode autoPromote metadata events(first: 5) { edges { node { sequence type actor } } } }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess {\n        session { id name purpose agentId userId appName mode autoPromote metadata events(first: 5) { edges { node { sequence type actor } } } }\n      }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n"): (typeof documents)["\n  mutation MutantSessStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence actor } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence actor } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { archivedAt } event { actor } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { archivedAt } event { actor } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { archivedAt endedAt } event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { archivedAt endedAt } event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { event { transition { promotedEntries { name } deactivatedEntries } } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { archivedAt } } }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { archivedAt } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantSessListState($id: ID!) {\n    node(id: $id) { ... on Session { stateEntries(includeDeleted: true, first: 50) { edges { node { key } } } } }\n  }\n"): (typeof documents)["\n  query MutantSessListState($id: ID!) {\n    node(id: $id) { ... on Session { stateEntries(includeDeleted: true, first: 50) { edges { node { key } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MutantSessOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"): (typeof documents)["\n  subscription MutantSessOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type actor entry { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantStateStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n"): (typeof documents)["\n  mutation MutantStateStart($input: StartSessionInput!) {\n    startSession(input: $input) { __typename ... on StartSessionSuccess { session { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantStateComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantStateComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantStatePause($id: ID!) { pauseSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantStatePause($id: ID!) { pauseSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key version value deleted } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key version value deleted } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { key version value deleted } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { key version value deleted } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantStateAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence } } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantStateAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { sequence } } }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantStateRead($id: ID!, $key: String!) {\n    node(id: $id) { ... on Session { state(key: $key) { namespace value } } }\n  }\n"): (typeof documents)["\n  query MutantStateRead($id: ID!, $key: String!) {\n    node(id: $id) { ... on Session { state(key: $key) { namespace value } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantStateList($id: ID!, $pattern: String, $includeDeleted: Boolean) {\n    node(id: $id) { ... on Session { stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, first: 50) { edges { node { key deleted } } } } }\n  }\n"): (typeof documents)["\n  query MutantStateList($id: ID!, $pattern: String, $includeDeleted: Boolean) {\n    node(id: $id) { ... on Session { stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, first: 50) { edges { node { key deleted } } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantCreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category } }\n      ... on UserError { code path message }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantCreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category } }\n      ... on UserError { code path message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantAttachTags($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path message }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantAttachTags($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantDetachTags($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantDetachTags($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MutantOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type entry { name } }\n  }\n"): (typeof documents)["\n  subscription MutantOnEntryChanged($scope: ID!) {\n    entryChanged(scope: $scope) { type entry { name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantCreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantCreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantUpdateTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantUpdateTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title description status assignee dueAt completedAt } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantAddDependencies($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path message }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantAddDependencies($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantRemoveDependencies($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) {\n      __typename\n      ... on RemoveTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantRemoveDependencies($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) {\n      __typename\n      ... on RemoveTaskDependenciesSuccess { task { dependsOn { title } } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantTaskDependencies($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { title } } }\n  }\n"): (typeof documents)["\n  query MutantTaskDependencies($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { title } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantTaskCompleteSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantTaskCompleteSession($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantTaskArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation MutantTaskArchiveSession($id: ID!) { archiveSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantUpdateTaskFailure($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title status completedAt } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantUpdateTaskFailure($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { title status completedAt } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantCreateTaskFailure($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title parent { title } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantCreateTaskFailure($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title parent { title } } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MutantAddDependenciesFailure($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { title } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation MutantAddDependenciesFailure($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { title } }\n      ... on ValidationError { issues { path message } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MutantTaskDependencyCount($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { id } } }\n  }\n"): (typeof documents)["\n  query MutantTaskDependencyCount($id: ID!) {\n    node(id: $id) { ... on Task { dependsOn { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n"): (typeof documents)["\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ScopesDiscardSession($input: SessionTransitionInput!) {\n    discardSession(input: $input) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { id status endedAt } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation ScopesDiscardSession($input: SessionTransitionInput!) {\n    discardSession(input: $input) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { id status endedAt } } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n"): (typeof documents)["\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n"): (typeof documents)["\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CorpusSearch($scope: ID!, $search: String!) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 20) {\n      edges { node { name } breakdown { text } }\n    }\n  }\n"): (typeof documents)["\n  query CorpusSearch($scope: ID!, $search: String!) {\n    memoryQuery(input: { scope: $scope, search: $search, inherit: false }, first: 20) {\n      edges { node { name } breakdown { text } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation LongWordsImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"): (typeof documents)["\n  mutation LongWordsImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LongWordsContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n"): (typeof documents)["\n  query LongWordsContext($input: ContextInput!) {\n    context(input: $input) { knowledge { score breakdown { text } node { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LongWordsSearch($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { name } } } }\n"): (typeof documents)["\n  query LongWordsSearch($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { name } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BatchCreateTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n"): (typeof documents)["\n  mutation BatchCreateTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchTasks($scope: ID!, $first: Int) {\n    tasks(filter: { scope: $scope, topLevelOnly: true }, first: $first) {\n      edges { node { title status blocked scope { id name } parent { id } dependsOn { title status } dependents { title } subtasks(first: 5) { edges { node { title } } } } }\n    }\n  }\n"): (typeof documents)["\n  query BatchTasks($scope: ID!, $first: Int) {\n    tasks(filter: { scope: $scope, topLevelOnly: true }, first: $first) {\n      edges { node { title status blocked scope { id name } parent { id } dependsOn { title status } dependents { title } subtasks(first: 5) { edges { node { title } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BatchAppend($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation BatchAppend($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchEvents($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { events(first: $first) { edges { node { sequence type actor content stateDelta transition { to } session { id status } } } } }\n    }\n  }\n"): (typeof documents)["\n  query BatchEvents($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { events(first: $first) { edges { node { sequence type actor content stateDelta transition { to } session { id status } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchState($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { stateEntries(first: $first) { edges { node { key value history(first: 3) { edges { node { version event { sequence } } } } } } } }\n    }\n  }\n"): (typeof documents)["\n  query BatchState($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Session { stateEntries(first: $first) { edges { node { key value history(first: 3) { edges { node { version event { sequence } } } } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BatchStartConversation($scope: ID!) {\n    startConversation(input: { scope: $scope }) { __typename ... on StartConversationSuccess { conversation { id } } }\n  }\n"): (typeof documents)["\n  mutation BatchStartConversation($scope: ID!) {\n    startConversation(input: { scope: $scope }) { __typename ... on StartConversationSuccess { conversation { id } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BatchAddMessage($input: AddMessageInput!) { addMessage(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation BatchAddMessage($input: AddMessageInput!) { addMessage(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchMessages($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Conversation { messages(first: $first) { edges { node { position content context { score entry { id name } } } } } }\n    }\n  }\n"): (typeof documents)["\n  query BatchMessages($id: ID!, $first: Int) {\n    node(id: $id) {\n      ... on Conversation { messages(first: $first) { edges { node { position content context { score entry { id name } } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PromoteLargeSession($project: ID!) { startSession(input: { project: $project, mode: SCRATCH, autoPromote: true }) { __typename ... on StartSessionSuccess { session { id } } } }\n"): (typeof documents)["\n  mutation PromoteLargeSession($project: ID!) { startSession(input: { project: $project, mode: SCRATCH, autoPromote: true }) { __typename ... on StartSessionSuccess { session { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PromoteLargeImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"): (typeof documents)["\n  mutation PromoteLargeImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PromoteLargeComplete($id: ID!) { completeSession(input: { id: $id }) { __typename ... on UserError { code message } } }\n"): (typeof documents)["\n  mutation PromoteLargeComplete($id: ID!) { completeSession(input: { id: $id }) { __typename ... on UserError { code message } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PromoteLargeCompleteNone($id: ID!) { completeSession(input: { id: $id, autoPromote: false }) { __typename } }\n"): (typeof documents)["\n  mutation PromoteLargeCompleteNone($id: ID!) { completeSession(input: { id: $id, autoPromote: false }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PromoteLargeCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n"): (typeof documents)["\n  query PromoteLargeCount($scope: ID!) { knowledge(filter: { scope: $scope }) { totalCount } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessStart($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id status mode userId appName eventCount turn } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessStart($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id status mode userId appName eventCount turn } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { status } event { sequence type transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n"): (typeof documents)["\n  mutation SessPause($id: ID!) {\n    pauseSession(input: { id: $id }) {\n      __typename\n      ... on PauseSessionSuccess { transition { session { status } event { sequence type transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessResume($id: ID!) {\n    resumeSession(input: { id: $id }) {\n      __typename\n      ... on ResumeSessionSuccess { transition { session { status } event { sequence transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n"): (typeof documents)["\n  mutation SessResume($id: ID!) {\n    resumeSession(input: { id: $id }) {\n      __typename\n      ... on ResumeSessionSuccess { transition { session { status } event { sequence transition { from to } } } }\n      ... on InvalidStateError { code currentState message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess {\n        transition {\n          session { status endedAt }\n          event { sequence transition { from to deactivatedEntries promotedEntries { id name scope { id } latestVersion active } } }\n        }\n      }\n      ... on InvalidStateError { code currentState message }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessComplete($input: CompleteSessionInput!) {\n    completeSession(input: $input) {\n      __typename\n      ... on CompleteSessionSuccess {\n        transition {\n          session { status endedAt }\n          event { sequence transition { from to deactivatedEntries promotedEntries { id name scope { id } latestVersion active } } }\n        }\n      }\n      ... on InvalidStateError { code currentState message }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { status } event { transition { from to deactivatedEntries } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n"): (typeof documents)["\n  mutation SessDiscard($id: ID!) {\n    discardSession(input: { id: $id }) {\n      __typename\n      ... on DiscardSessionSuccess { transition { session { status } event { transition { from to deactivatedEntries } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { status archivedAt } event { transition { from to } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n"): (typeof documents)["\n  mutation SessArchive($id: ID!) {\n    archiveSession(input: { id: $id }) {\n      __typename\n      ... on ArchiveSessionSuccess { transition { session { status archivedAt } event { transition { from to } } } }\n      ... on InvalidStateError { code currentState }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { id sequence type actor content stateDelta } session { eventCount } } }\n      ... on InvalidStateError { currentState }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessAppend($input: AppendSessionEventInput!) {\n    appendSessionEvent(input: $input) {\n      __typename\n      ... on AppendSessionEventSuccess { appended { event { id sequence type actor content stateDelta } session { eventCount } } }\n      ... on InvalidStateError { currentState }\n      ... on ValidationError { issues { path message } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessEvents($id: ID!, $filter: SessionEventFilter, $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        eventCount\n        events(filter: $filter, first: $first, after: $after) {\n          totalCount\n          pageInfo { hasNextPage endCursor }\n          edges { node { sequence type actor content createdAt transition { from to } } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessEvents($id: ID!, $filter: SessionEventFilter, $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        eventCount\n        events(filter: $filter, first: $first, after: $after) {\n          totalCount\n          pageInfo { hasNextPage endCursor }\n          edges { node { sequence type actor content createdAt transition { from to } } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessReadState($id: ID!, $key: String!) {\n    node(id: $id) {\n      ... on Session {\n        state(key: $key) { key namespace value entry { id key version owner } shadowed { key namespace value } }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessReadState($id: ID!, $key: String!) {\n    node(id: $id) {\n      ... on Session {\n        state(key: $key) { key namespace value entry { id key version owner } shadowed { key namespace value } }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessListState($id: ID!, $pattern: String, $includeDeleted: Boolean, $namespaces: [StateNamespace!], $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, namespaces: $namespaces, first: $first, after: $after) {\n          pageInfo { hasNextPage endCursor }\n          edges { node { key namespace value deleted } }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SessListState($id: ID!, $pattern: String, $includeDeleted: Boolean, $namespaces: [StateNamespace!], $first: Int, $after: String) {\n    node(id: $id) {\n      ... on Session {\n        stateEntries(pattern: $pattern, includeDeleted: $includeDeleted, namespaces: $namespaces, first: $first, after: $after) {\n          pageInfo { hasNextPage endCursor }\n          edges { node { key namespace value deleted } }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key namespace value version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessSetState($input: SetStateInput!) {\n    setState(input: $input) {\n      __typename\n      ... on SetStateSuccess { state { id key namespace value version deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { id version deleted value } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessDeleteState($input: DeleteStateInput!) {\n    deleteState(input: $input) {\n      __typename\n      ... on DeleteStateSuccess { state { id version deleted value } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { version value deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation SessRestoreState($input: RestoreStateInput!) {\n    restoreState(input: $input) {\n      __typename\n      ... on RestoreStateSuccess { state { version value deleted } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SessStateHistory($id: ID!) {\n    node(id: $id) {\n      ... on StateKey { key history(first: 50) { edges { node { version value deleted restoredFrom event { sequence } } } } }\n    }\n  }\n"): (typeof documents)["\n  query SessStateHistory($id: ID!) {\n    node(id: $id) {\n      ... on StateKey { key history(first: 50) { edges { node { version value deleted restoredFrom event { sequence } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys session { turn } event { type content } } }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation SessEndTurn($session: ID!) {\n    endTurn(input: { session: $session }) {\n      __typename\n      ... on EndTurnSuccess { turn { clearedKeys session { turn } event { type content } } }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessAddTool($input: AddToolInput!) {\n    addTool(input: $input) { __typename ... on AddToolSuccess { tool { id } } ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n"): (typeof documents)["\n  mutation SessAddTool($input: AddToolInput!) {\n    addTool(input: $input) { __typename ... on AddToolSuccess { tool { id } } ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SessUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n"): (typeof documents)["\n  mutation SessUpdateTool($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on InvalidStateError { currentState } ... on UserError { code } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query SessEntry($id: ID!) { entry(id: $id) { active scope { id } versions(first: 5) { edges { node { version } } } } }"): (typeof documents)["query SessEntry($id: ID!) { entry(id: $id) { active scope { id } versions(first: 5) { edges { node { version } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query SessEventsBack($id: ID!, $filter: SessionEventFilter, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            events(filter: $filter, last: $last, before: $before) {\n              totalCount\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { sequence } }\n            }\n          }\n        }\n      }\n    "): (typeof documents)["\n      query SessEventsBack($id: ID!, $filter: SessionEventFilter, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            events(filter: $filter, last: $last, before: $before) {\n              totalCount\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { sequence } }\n            }\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query SessStateBack($id: ID!, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(last: $last, before: $before) {\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    "): (typeof documents)["\n      query SessStateBack($id: ID!, $last: Int, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(last: $last, before: $before) {\n              pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query SessStateEdges($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(first: $first, last: $last, after: $after, before: $before) {\n              pageInfo { hasNextPage endCursor hasPreviousPage startCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    "): (typeof documents)["\n      query SessStateEdges($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {\n        node(id: $id) {\n          ... on Session {\n            stateEntries(first: $first, last: $last, after: $after, before: $before) {\n              pageInfo { hasNextPage endCursor hasPreviousPage startCursor }\n              edges { cursor node { key } }\n            }\n          }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FanOutAdd($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n"): (typeof documents)["\n  mutation FanOutAdd($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename ... on AddKnowledgeSuccess { knowledge { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FanOutUpdate($input: UpdateKnowledgeInput!) { updateKnowledge(input: $input) { __typename } }\n"): (typeof documents)["\n  mutation FanOutUpdate($input: UpdateKnowledgeInput!) { updateKnowledge(input: $input) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnConflict($scope: ID!, $includeDescendants: Boolean) {\n    conflictDetected(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      occurredAt\n      conflict { id entry { name scope { id } } versionA { version } versionB { version conflictFlag } }\n    }\n  }\n"): (typeof documents)["\n  subscription OnConflict($scope: ID!, $includeDescendants: Boolean) {\n    conflictDetected(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      occurredAt\n      conflict { id entry { name scope { id } } versionA { version } versionB { version conflictFlag } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnResolved($scope: ID!) {\n    conflictResolved(scope: $scope) { type conflict { id resolved resolution } }\n  }\n"): (typeof documents)["\n  subscription OnResolved($scope: ID!) {\n    conflictResolved(scope: $scope) { type conflict { id resolved resolution } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnEntry($scope: ID!, $includeDescendants: Boolean) {\n    entryChanged(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      actor\n      entry { name active latestVersion tags { name } }\n      version { version }\n    }\n  }\n"): (typeof documents)["\n  subscription OnEntry($scope: ID!, $includeDescendants: Boolean) {\n    entryChanged(scope: $scope, includeDescendants: $includeDescendants) {\n      type\n      actor\n      entry { name active latestVersion tags { name } }\n      version { version }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OnSession($session: ID, $project: ID) {\n    sessionEvent(session: $session, project: $project) { sequence type actor transition { from to } session { id status } }\n  }\n"): (typeof documents)["\n  subscription OnSession($session: ID, $project: ID) {\n    sessionEvent(session: $session, project: $project) { sequence type actor transition { from to } session { id status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubUpdate($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n"): (typeof documents)["\n  mutation SubUpdate($input: UpdateToolInput!) {\n    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubResolve($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }\n"): (typeof documents)["\n  mutation SubResolve($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubTag($entry: ID!) { attachTags(input: { entry: $entry, tags: [\"live\"] }) { __typename } }\n"): (typeof documents)["\n  mutation SubTag($entry: ID!) { attachTags(input: { entry: $entry, tags: [\"live\"] }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation SubDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubAppend($session: ID!, $delta: JSON) {\n    appendSessionEvent(input: { session: $session, type: TOOL_CALL, actor: \"agent:sub\", content: { tool: \"grep\" }, stateDelta: $delta }) { __typename }\n  }\n"): (typeof documents)["\n  mutation SubAppend($session: ID!, $delta: JSON) {\n    appendSessionEvent(input: { session: $session, type: TOOL_CALL, actor: \"agent:sub\", content: { tool: \"grep\" }, stateDelta: $delta }) { __typename }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubEnd($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"): (typeof documents)["\n  mutation SubEnd($id: ID!) { completeSession(input: { id: $id }) { __typename } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FixtureCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { message }\n    }\n  }\n"): (typeof documents)["\n  mutation FixtureCreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FixtureStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { message }\n    }\n  }\n"): (typeof documents)["\n  mutation FixtureStartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FixtureGlobal { globalScope { id } }\n"): (typeof documents)["\n  query FixtureGlobal { globalScope { id } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FixtureAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name latestVersion } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation FixtureAddTool($input: AddToolInput!) {\n    addTool(input: $input) {\n      __typename\n      ... on AddToolSuccess { tool { id name latestVersion } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FixtureAddGuideline($input: AddGuidelineInput!) {\n    addGuideline(input: $input) {\n      __typename\n      ... on AddGuidelineSuccess { guideline { id name priority } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation FixtureAddGuideline($input: AddGuidelineInput!) {\n    addGuideline(input: $input) {\n      __typename\n      ... on AddGuidelineSuccess { guideline { id name priority } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FixtureAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on AddKnowledgeSuccess { knowledge { id title } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation FixtureAddKnowledge($input: AddKnowledgeInput!) {\n    addKnowledge(input: $input) {\n      __typename\n      ... on AddKnowledgeSuccess { knowledge { id title } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Tags($category: TagCategory, $predefined: Boolean, $first: Int) {\n    tags(category: $category, predefined: $predefined, first: $first) { totalCount edges { node { id name category predefined description } } }\n  }\n"): (typeof documents)["\n  query Tags($category: TagCategory, $predefined: Boolean, $first: Int) {\n    tags(category: $category, predefined: $predefined, first: $first) { totalCount edges { node { id name category predefined description } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category predefined description } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      __typename\n      ... on CreateTagSuccess { tag { name category predefined description } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Attach($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name category } } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation Attach($input: TagsOfEntryInput!) {\n    attachTags(input: $input) {\n      __typename\n      ... on AttachTagsSuccess { entry { tags { name category } } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Detach($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n"): (typeof documents)["\n  mutation Detach($input: TagsOfEntryInput!) {\n    detachTags(input: $input) {\n      __typename\n      ... on DetachTagsSuccess { entry { tags { name } } }\n      ... on UserError { code path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateRelation($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess {\n        relation {\n          id\n          type\n          createdBy\n          source { id }\n          targetEntry { id __typename }\n          targetScope { id __typename }\n        }\n      }\n      ... on UserError { code path message }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateRelation($input: CreateRelationInput!) {\n    createRelation(input: $input) {\n      __typename\n      ... on CreateRelationSuccess {\n        relation {\n          id\n          type\n          createdBy\n          source { id }\n          targetEntry { id __typename }\n          targetScope { id __typename }\n        }\n      }\n      ... on UserError { code path message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteRelation($id: ID!) {\n    deleteRelation(input: { id: $id }) {\n      __typename\n      ... on DeleteRelationSuccess { deleted { id } }\n      ... on UserError { code }\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteRelation($id: ID!) {\n    deleteRelation(input: { id: $id }) {\n      __typename\n      ... on DeleteRelationSuccess { deleted { id } }\n      ... on UserError { code }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Relations($id: ID!, $type: RelationType) {\n    entry(id: $id) {\n      outgoingRelations(type: $type) { type targetEntry { id } targetScope { id } }\n      incomingRelations(type: $type) { type source { id name } }\n    }\n  }\n"): (typeof documents)["\n  query Relations($id: ID!, $type: RelationType) {\n    entry(id: $id) {\n      outgoingRelations(type: $type) { type targetEntry { id } targetScope { id } }\n      incomingRelations(type: $type) { type source { id name } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TaskCreate($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title status assignee dueAt completedAt blocked parent { id } dependsOn { id } scope { id } } }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation TaskCreate($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      __typename\n      ... on CreateTaskSuccess { task { id title status assignee dueAt completedAt blocked parent { id } dependsOn { id } scope { id } } }\n      ... on UnmetDependenciesError { blockingTaskIds }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TaskUpdate($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { id status completedAt blocked parent { id } assignee } }\n      ... on UnmetDependenciesError { code blockingTaskIds path }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation TaskUpdate($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      __typename\n      ... on UpdateTaskSuccess { task { id status completedAt blocked parent { id } assignee } }\n      ... on UnmetDependenciesError { code blockingTaskIds path }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TaskAddDeps($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { id dependsOn { id } blocked } }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation TaskAddDeps($input: TaskDependenciesInput!) {\n    addTaskDependencies(input: $input) {\n      __typename\n      ... on AddTaskDependenciesSuccess { task { id dependsOn { id } blocked } }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TaskRemoveDeps($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) { __typename ... on RemoveTaskDependenciesSuccess { task { dependsOn { id } blocked } } }\n  }\n"): (typeof documents)["\n  mutation TaskRemoveDeps($input: TaskDependenciesInput!) {\n    removeTaskDependencies(input: $input) { __typename ... on RemoveTaskDependenciesSuccess { task { dependsOn { id } blocked } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TaskList($filter: TaskFilter, $first: Int) {\n    tasks(filter: $filter, first: $first) {\n      totalCount\n      edges { node { title status assignee dependents { title } subtasks { totalCount edges { node { title } } } } }\n    }\n  }\n"): (typeof documents)["\n  query TaskList($filter: TaskFilter, $first: Int) {\n    tasks(filter: $filter, first: $first) {\n      totalCount\n      edges { node { title status assignee dependents { title } subtasks { totalCount edges { node { title } } } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      query TaskPage($filter: TaskFilter, $first: Int, $after: String, $last: Int, $before: String) {\n        tasks(filter: $filter, first: $first, after: $after, last: $last, before: $before) {\n          totalCount\n          pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n          edges { cursor node { title } }\n        }\n      }\n    "): (typeof documents)["\n      query TaskPage($filter: TaskFilter, $first: Int, $after: String, $last: Int, $before: String) {\n        tasks(filter: $filter, first: $first, after: $after, last: $last, before: $before) {\n          totalCount\n          pageInfo { hasPreviousPage hasNextPage startCursor endCursor }\n          edges { cursor node { title } }\n        }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {\n  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }"): (typeof documents)["mutation RoundTripUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) {\n  __typename ... on UpdateKnowledgeSuccess { update { version { version ... on KnowledgeVersion { content } } } } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RoundTripTwice($id: ID!) {\n  a: updateKnowledge(input: { id: $id, content: \"fourth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n  b: updateKnowledge(input: { id: $id, content: \"fifth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n}"): (typeof documents)["mutation RoundTripTwice($id: ID!) {\n  a: updateKnowledge(input: { id: $id, content: \"fourth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n  b: updateKnowledge(input: { id: $id, content: \"fifth\" }) { ... on UpdateKnowledgeSuccess { update { version { version } conflict { id } } } }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BatchGet($id: ID!) { entry(id: $id) { name tags { name } currentVersion { ... on KnowledgeVersion { content } } } }\n"): (typeof documents)["\n  query BatchGet($id: ID!) { entry(id: $id) { name tags { name } currentVersion { ... on KnowledgeVersion { content } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation BatchDuplicate($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename } }"): (typeof documents)["mutation BatchDuplicate($input: AddKnowledgeInput!) { addKnowledge(input: $input) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation BatchUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }"): (typeof documents)["mutation BatchUpdate($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n      mutation BatchRelate($input: CreateRelationInput!) {\n        createRelation(input: $input) { __typename ... on CreateRelationSuccess { relation { id type } } }\n      }\n    "): (typeof documents)["\n      mutation BatchRelate($input: CreateRelationInput!) {\n        createRelation(input: $input) { __typename ... on CreateRelationSuccess { relation { id type } } }\n      }\n    "];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RaceAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }\n"): (typeof documents)["\n  mutation RaceAdd($scope: ID!, $title: String!) { addKnowledge(input: { scope: $scope, title: $title, content: \"c\" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RaceUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"zz\" }) { __typename } }"): (typeof documents)["mutation RaceUpdate($id: ID!) { updateKnowledge(input: { id: $id, content: \"zz\" }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RaceDelete($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }"): (typeof documents)["mutation RaceDelete($id: ID!) { deleteEntry(input: { id: $id }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RaceRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }"): (typeof documents)["mutation RaceRelate($source: ID!, $target: ID!) { createRelation(input: { source: $source, target: $target, type: RELATED_TO }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RacePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: SEMANTIC, ttlHours: 1 }) { __typename } }"): (typeof documents)["mutation RacePolicy($scope: ID!) { setMemoryPolicy(input: { scope: $scope, memoryType: SEMANTIC, ttlHours: 1 }) { __typename } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RaceDeleteTree($id: ID!) { deleteScopeTree(input: { id: $id }) { __typename } }"): (typeof documents)["mutation RaceDeleteTree($id: ID!) { deleteScopeTree(input: { id: $id }) { __typename } }"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;