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
    "\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n": typeof types.GlobalScopeDocument,
    "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.CreateOrganizationDocument,
    "\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": typeof types.CreateProjectDocument,
    "\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.UpdateProjectDocument,
    "\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.StartSessionDocument,
    "\n  mutation EndSession($input: EndSessionInput!) {\n    endSession(input: $input) {\n      __typename\n      ... on EndSessionSuccess { session { id status endedAt } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": typeof types.EndSessionDocument,
    "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n": typeof types.SessionsDocument,
    "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n": typeof types.ScopeTreeDocument,
};
const documents: Documents = {
    "\n  query GlobalScope {\n    globalScope { id kind name parent { id } ancestors { id } }\n  }\n": types.GlobalScopeDocument,
    "\n  mutation CreateOrganization($input: CreateOrganizationInput!) {\n    createOrganization(input: $input) {\n      __typename\n      ... on CreateOrganizationSuccess { organization { id name description metadata kind } }\n      ... on UserError { code message path }\n    }\n  }\n": types.CreateOrganizationDocument,
    "\n  mutation CreateProject($input: CreateProjectInput!) {\n    createProject(input: $input) {\n      __typename\n      ... on CreateProjectSuccess { project { id name rootPath organization { id name } parent { id kind } } }\n      ... on UserError { code message path }\n      ... on ValidationError { issues { path message } }\n    }\n  }\n": types.CreateProjectDocument,
    "\n  mutation UpdateProject($input: UpdateProjectInput!) {\n    updateProject(input: $input) {\n      __typename\n      ... on UpdateProjectSuccess { project { id name description rootPath metadata } }\n      ... on UserError { code message path }\n    }\n  }\n": types.UpdateProjectDocument,
    "\n  mutation StartSession($input: StartSessionInput!) {\n    startSession(input: $input) {\n      __typename\n      ... on StartSessionSuccess { session { id name purpose agentId status mode startedAt endedAt project { id } } }\n      ... on UserError { code message path }\n    }\n  }\n": types.StartSessionDocument,
    "\n  mutation EndSession($input: EndSessionInput!) {\n    endSession(input: $input) {\n      __typename\n      ... on EndSessionSuccess { session { id status endedAt } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n": types.EndSessionDocument,
    "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n": types.SessionsDocument,
    "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n": types.ScopeTreeDocument,
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
export function graphql(source: "\n  mutation EndSession($input: EndSessionInput!) {\n    endSession(input: $input) {\n      __typename\n      ... on EndSessionSuccess { session { id status endedAt } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"): (typeof documents)["\n  mutation EndSession($input: EndSessionInput!) {\n    endSession(input: $input) {\n      __typename\n      ... on EndSessionSuccess { session { id status endedAt } }\n      ... on InvalidStateError { currentState }\n      ... on UserError { code message path }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n"): (typeof documents)["\n  query Sessions($project: ID, $status: SessionStatus) {\n    sessions(project: $project, status: $status) { totalCount edges { node { id status name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n"): (typeof documents)["\n  query ScopeTree($id: ID!) {\n    scope(id: $id) {\n      __typename\n      id\n      name\n      ancestors { __typename id name }\n      children(first: 10) { totalCount edges { node { __typename id name } } }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;