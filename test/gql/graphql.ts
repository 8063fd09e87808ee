/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A new organization under global. */
export type CreateOrganizationInput = {
  /** Free text. */
  description?: string | null | undefined;
  /** Free-form JSON object. */
  metadata?: unknown;
  /** Unique among siblings under global. */
  name: string;
};

/** A new project. */
export type CreateProjectInput = {
  /** Free text. */
  description?: string | null | undefined;
  /** Free-form JSON object (goals, constraints, state). */
  metadata?: unknown;
  /** Unique among siblings. */
  name: string;
  /** Owning organization; the project goes directly under global when absent. */
  organization?: string | null | undefined;
  /** Filesystem root. */
  rootPath?: string | null | undefined;
};

/** Ends an active or paused session. */
export type EndSessionInput = {
  /** The session. */
  id: string;
  /** Default COMPLETED. */
  status?: SessionEndStatus | null | undefined;
};

/** Level of a scope in the tree. */
export type ScopeKind =
  /** The single root. */
  | 'GLOBAL'
  /** Under global. */
  | 'ORGANIZATION'
  /** Under an organization or directly under global. */
  | 'PROJECT'
  /** Under a project: one working period or scratch space of an agent. */
  | 'SESSION';

/** How a session ends. */
export type SessionEndStatus =
  /** Ended normally. */
  | 'COMPLETED'
  /** Ended and abandoned. */
  | 'DISCARDED';

/** What happens to what a session wrote. */
export type SessionMode =
  /** Entries written in the session are provisional. */
  | 'SCRATCH'
  /** Entries written in the session persist after it ends. */
  | 'WORKING_PERIOD';

/** Lifecycle state of a session. */
export type SessionStatus =
  /** Running. */
  | 'ACTIVE'
  /** Ended normally. */
  | 'COMPLETED'
  /** Ended and abandoned. */
  | 'DISCARDED'
  /** Suspended; can be resumed. */
  | 'PAUSED';

/** A new session in a project. */
export type StartSessionInput = {
  /** The agent or tool starting it. */
  agentId?: string | null | undefined;
  /** Free-form JSON object. */
  metadata?: unknown;
  /** Default WORKING_PERIOD. */
  mode?: SessionMode | null | undefined;
  /** Optional label, unique among the project's sessions. */
  name?: string | null | undefined;
  /** The project it runs in. */
  project: string;
  /** What the session is for. */
  purpose?: string | null | undefined;
};

/** Changes to a project. Absent fields stay; null clears description, rootPath and metadata. */
export type UpdateProjectInput = {
  /** New description. */
  description?: string | null | undefined;
  /** The project. */
  id: string;
  /** New metadata (replaces the old object). */
  metadata?: unknown;
  /** New name, unique among siblings. */
  name?: string | null | undefined;
  /** New filesystem root. */
  rootPath?: string | null | undefined;
};

export type GlobalScopeQueryVariables = Exact<{ [key: string]: never; }>;


export type GlobalScopeQuery = { globalScope: { id: string, kind: ScopeKind, name: string | null, parent:
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
     | null, ancestors: Array<
      | { id: string }
      | { id: string }
      | { id: string }
      | { id: string }
    > } };

export type CreateOrganizationMutationVariables = Exact<{
  input: CreateOrganizationInput;
}>;


export type CreateOrganizationMutation = { createOrganization:
    | { __typename: 'AlreadyExistsError', code: string, message: string, path: Array<string> }
    | { __typename: 'CreateOrganizationSuccess', organization: { id: string, name: string | null, description: string | null, metadata: unknown, kind: ScopeKind } }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string> }
   };

export type CreateProjectMutationVariables = Exact<{
  input: CreateProjectInput;
}>;


export type CreateProjectMutation = { createProject:
    | { __typename: 'AlreadyExistsError', code: string, message: string, path: Array<string> }
    | { __typename: 'CreateProjectSuccess', project: { id: string, name: string | null, rootPath: string | null, organization: { id: string, name: string | null } | null, parent:
          | { id: string, kind: ScopeKind }
          | { id: string, kind: ScopeKind }
          | { id: string, kind: ScopeKind }
          | { id: string, kind: ScopeKind }
         | null } }
    | { __typename: 'InvalidPlacementError', code: string, message: string, path: Array<string> }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string>, issues: Array<{ path: Array<string>, message: string }> }
   };

export type UpdateProjectMutationVariables = Exact<{
  input: UpdateProjectInput;
}>;


export type UpdateProjectMutation = { updateProject:
    | { __typename: 'AlreadyExistsError', code: string, message: string, path: Array<string> }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'UpdateProjectSuccess', project: { id: string, name: string | null, description: string | null, rootPath: string | null, metadata: unknown } }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string> }
   };

export type StartSessionMutationVariables = Exact<{
  input: StartSessionInput;
}>;


export type StartSessionMutation = { startSession:
    | { __typename: 'AlreadyExistsError', code: string, message: string, path: Array<string> }
    | { __typename: 'InvalidPlacementError', code: string, message: string, path: Array<string> }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'StartSessionSuccess', session: { id: string, name: string | null, purpose: string | null, agentId: string | null, status: SessionStatus, mode: SessionMode, startedAt: string, endedAt: string | null, project: { id: string } } }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string> }
   };

export type EndSessionMutationVariables = Exact<{
  input: EndSessionInput;
}>;


export type EndSessionMutation = { endSession:
    | { __typename: 'AlreadyExistsError', code: string, message: string, path: Array<string> }
    | { __typename: 'EndSessionSuccess', session: { id: string, status: SessionStatus, endedAt: string | null } }
    | { __typename: 'InvalidStateError', currentState: string, code: string, message: string, path: Array<string> }
    | { __typename: 'NotFoundError', code: string, message: string, path: Array<string> }
    | { __typename: 'ValidationError', code: string, message: string, path: Array<string> }
   };

export type SessionsQueryVariables = Exact<{
  project?: string | null | undefined;
  status?: SessionStatus | null | undefined;
}>;


export type SessionsQuery = { sessions: { totalCount: number, edges: Array<{ node: { id: string, status: SessionStatus, name: string | null } }> } };

export type ScopeTreeQueryVariables = Exact<{
  id: string;
}>;


export type ScopeTreeQuery = { scope:
    | { __typename: 'GlobalScope', id: string, name: string | null, ancestors: Array<
        | { __typename: 'GlobalScope', id: string, name: string | null }
        | { __typename: 'Organization', id: string, name: string | null }
        | { __typename: 'Project', id: string, name: string | null }
        | { __typename: 'Session', id: string, name: string | null }
      >, children: { totalCount: number, edges: Array<{ node:
            | { __typename: 'GlobalScope', id: string, name: string | null }
            | { __typename: 'Organization', id: string, name: string | null }
            | { __typename: 'Project', id: string, name: string | null }
            | { __typename: 'Session', id: string, name: string | null }
           }> } }
    | { __typename: 'Organization', id: string, name: string | null, ancestors: Array<
        | { __typename: 'GlobalScope', id: string, name: string | null }
        | { __typename: 'Organization', id: string, name: string | null }
        | { __typename: 'Project', id: string, name: string | null }
        | { __typename: 'Session', id: string, name: string | null }
      >, children: { totalCount: number, edges: Array<{ node:
            | { __typename: 'GlobalScope', id: string, name: string | null }
            | { __typename: 'Organization', id: string, name: string | null }
            | { __typename: 'Project', id: string, name: string | null }
            | { __typename: 'Session', id: string, name: string | null }
           }> } }
    | { __typename: 'Project', id: string, name: string | null, ancestors: Array<
        | { __typename: 'GlobalScope', id: string, name: string | null }
        | { __typename: 'Organization', id: string, name: string | null }
        | { __typename: 'Project', id: string, name: string | null }
        | { __typename: 'Session', id: string, name: string | null }
      >, children: { totalCount: number, edges: Array<{ node:
            | { __typename: 'GlobalScope', id: string, name: string | null }
            | { __typename: 'Organization', id: string, name: string | null }
            | { __typename: 'Project', id: string, name: string | null }
            | { __typename: 'Session', id: string, name: string | null }
           }> } }
    | { __typename: 'Session', id: string, name: string | null, ancestors: Array<
        | { __typename: 'GlobalScope', id: string, name: string | null }
        | { __typename: 'Organization', id: string, name: string | null }
        | { __typename: 'Project', id: string, name: string | null }
        | { __typename: 'Session', id: string, name: string | null }
      >, children: { totalCount: number, edges: Array<{ node:
            | { __typename: 'GlobalScope', id: string, name: string | null }
            | { __typename: 'Organization', id: string, name: string | null }
            | { __typename: 'Project', id: string, name: string | null }
            | { __typename: 'Session', id: string, name: string | null }
           }> } }
   | null };


export const GlobalScopeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GlobalScope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"globalScope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"ancestors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<GlobalScopeQuery, GlobalScopeQueryVariables>;
export const CreateOrganizationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateOrganization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateOrganizationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createOrganization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateOrganizationSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]} as unknown as DocumentNode<CreateOrganizationMutation, CreateOrganizationMutationVariables>;
export const CreateProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProjectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProjectSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"rootPath"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"parent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"issues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CreateProjectMutation, CreateProjectMutationVariables>;
export const UpdateProjectDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateProject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProjectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProjectSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rootPath"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateProjectMutation, UpdateProjectMutationVariables>;
export const StartSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"StartSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"StartSessionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"project"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]} as unknown as DocumentNode<StartSessionMutation, StartSessionMutationVariables>;
export const EndSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EndSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EndSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EndSessionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InvalidStateError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentState"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UserError"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]} as unknown as DocumentNode<EndSessionMutation, EndSessionMutationVariables>;
export const SessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Sessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SessionsQuery, SessionsQueryVariables>;
export const ScopeTreeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ScopeTree"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scope"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"ancestors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"children"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ScopeTreeQuery, ScopeTreeQueryVariables>;