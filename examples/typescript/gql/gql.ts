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
    "\n  mutation ExampleCreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleCreateProjectDocument,
    "\n  mutation ExampleStartSession($project: ID!) {\n    startSession(input: { project: $project, name: \"example run\", agentId: \"example\" }) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleStartSessionDocument,
    "\n  mutation ExampleAddGuideline($scope: ID!) {\n    addGuideline(input: { scope: $scope, name: \"small-commits\", content: \"Commit small changes with a message that says why\", priority: 80 }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleAddGuidelineDocument,
    "\n  query ExampleContext($scope: ID!, $task: String!) {\n    context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {\n      tokensUsed\n      guidelines { score node { name ... on Guideline { currentVersion { ... on GuidelineVersion { content } } } } }\n      knowledge { score node { name } }\n    }\n  }\n": typeof types.ExampleContextDocument,
    "\n  mutation ExampleRecord($session: ID!, $did: JSON!) {\n    appendSessionEvent(input: { session: $session, actor: \"agent:example\", type: ACTION, content: $did }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleRecordDocument,
    "\n  mutation ExampleLearn($scope: ID!, $title: String!, $content: String!) {\n    addKnowledge(input: { scope: $scope, title: $title, content: $content }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleLearnDocument,
    "\n  mutation ExampleComplete($session: ID!) {\n    completeSession(input: { id: $session }) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { status } } }\n      ... on UserError { code message }\n    }\n  }\n": typeof types.ExampleCompleteDocument,
    "\n  subscription ExampleSessionEvents($session: ID!) {\n    sessionEvent(session: $session) { sequence type actor }\n  }\n": typeof types.ExampleSessionEventsDocument,
};
const documents: Documents = {
    "\n  mutation ExampleCreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleCreateProjectDocument,
    "\n  mutation ExampleStartSession($project: ID!) {\n    startSession(input: { project: $project, name: \"example run\", agentId: \"example\" }) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleStartSessionDocument,
    "\n  mutation ExampleAddGuideline($scope: ID!) {\n    addGuideline(input: { scope: $scope, name: \"small-commits\", content: \"Commit small changes with a message that says why\", priority: 80 }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleAddGuidelineDocument,
    "\n  query ExampleContext($scope: ID!, $task: String!) {\n    context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {\n      tokensUsed\n      guidelines { score node { name ... on Guideline { currentVersion { ... on GuidelineVersion { content } } } } }\n      knowledge { score node { name } }\n    }\n  }\n": types.ExampleContextDocument,
    "\n  mutation ExampleRecord($session: ID!, $did: JSON!) {\n    appendSessionEvent(input: { session: $session, actor: \"agent:example\", type: ACTION, content: $did }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleRecordDocument,
    "\n  mutation ExampleLearn($scope: ID!, $title: String!, $content: String!) {\n    addKnowledge(input: { scope: $scope, title: $title, content: $content }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleLearnDocument,
    "\n  mutation ExampleComplete($session: ID!) {\n    completeSession(input: { id: $session }) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { status } } }\n      ... on UserError { code message }\n    }\n  }\n": types.ExampleCompleteDocument,
    "\n  subscription ExampleSessionEvents($session: ID!) {\n    sessionEvent(session: $session) { sequence type actor }\n  }\n": types.ExampleSessionEventsDocument,
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
export function graphql(source: "\n  mutation ExampleCreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleCreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      __typename\n      ... on CreateProjectSuccess { project { id } }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleStartSession($project: ID!) {\n    startSession(input: { project: $project, name: \"example run\", agentId: \"example\" }) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleStartSession($project: ID!) {\n    startSession(input: { project: $project, name: \"example run\", agentId: \"example\" }) {\n      __typename\n      ... on StartSessionSuccess { session { id } }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleAddGuideline($scope: ID!) {\n    addGuideline(input: { scope: $scope, name: \"small-commits\", content: \"Commit small changes with a message that says why\", priority: 80 }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleAddGuideline($scope: ID!) {\n    addGuideline(input: { scope: $scope, name: \"small-commits\", content: \"Commit small changes with a message that says why\", priority: 80 }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ExampleContext($scope: ID!, $task: String!) {\n    context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {\n      tokensUsed\n      guidelines { score node { name ... on Guideline { currentVersion { ... on GuidelineVersion { content } } } } }\n      knowledge { score node { name } }\n    }\n  }\n"): (typeof documents)["\n  query ExampleContext($scope: ID!, $task: String!) {\n    context(input: { scope: $scope, task: $task, tokenBudget: 1000 }) {\n      tokensUsed\n      guidelines { score node { name ... on Guideline { currentVersion { ... on GuidelineVersion { content } } } } }\n      knowledge { score node { name } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleRecord($session: ID!, $did: JSON!) {\n    appendSessionEvent(input: { session: $session, actor: \"agent:example\", type: ACTION, content: $did }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleRecord($session: ID!, $did: JSON!) {\n    appendSessionEvent(input: { session: $session, actor: \"agent:example\", type: ACTION, content: $did }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleLearn($scope: ID!, $title: String!, $content: String!) {\n    addKnowledge(input: { scope: $scope, title: $title, content: $content }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleLearn($scope: ID!, $title: String!, $content: String!) {\n    addKnowledge(input: { scope: $scope, title: $title, content: $content }) {\n      __typename\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleComplete($session: ID!) {\n    completeSession(input: { id: $session }) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { status } } }\n      ... on UserError { code message }\n    }\n  }\n"): (typeof documents)["\n  mutation ExampleComplete($session: ID!) {\n    completeSession(input: { id: $session }) {\n      __typename\n      ... on CompleteSessionSuccess { transition { session { status } } }\n      ... on UserError { code message }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ExampleSessionEvents($session: ID!) {\n    sessionEvent(session: $session) { sequence type actor }\n  }\n"): (typeof documents)["\n  subscription ExampleSessionEvents($session: ID!) {\n    sessionEvent(session: $session) { sequence type actor }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;