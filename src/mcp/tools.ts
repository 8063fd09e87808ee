/**
 * The MCP tools: each is a GraphQL operation of the public schema, so a tool call goes through the
 * same parsing, limits, access checks, services and error codes as the same call over GraphQL.
 * Selections are kept small (what a model needs to act on), and lists are paged with small
 * defaults, so results fit a model's context.
 */
export interface ToolSpec {
  name: string;
  title: string;
  /** What the tool is for, for a model choosing tools. */
  description: string;
  /** A GraphQL operation (with the fragments it uses). Its variables become the tool's input. */
  document: string;
  /** Reads only (MCP's readOnlyHint). */
  readOnly?: boolean;
  /** Descriptions of inputs where the argument's own would mislead (an argument taking any scope given a session). */
  inputs?: Record<string, string>;
}

const VERSION = /* GraphQL */ `
  fragment Version on EntryVersion {
    version createdAt createdBy changeReason conflictFlag
    ... on ToolVersion { description parameters constraints examples }
    ... on GuidelineVersion { content rationale examples }
    ... on KnowledgeVersion { content source confidence validUntil }
  }`;

const ENTRY = /* GraphQL */ `
  fragment Entry on Entry {
    id kind name memoryType active expired hasUnresolvedConflicts updatedAt
    scope { id kind name }
    tags { name }
    ... on Guideline { priority }
    currentVersion { ...Version }
  }
  ${VERSION}`;

const LEASE = /* GraphQL */ `
  fragment Lease on Lease { resource holder mode fencingToken acquiredAt expiresAt }`;

const VOTE_QUESTION = /* GraphQL */ `
  fragment VoteQuestion on VoteQuestion { id key status k decidedAnswer countedVotes discardedVotes }`;

/** Expected failures of a mutation (its result union's error types). */
const FAILURE = /* GraphQL */ `
  fragment Failure on UserError {
    __typename code message path
    ... on ValidationError { issues { path message } }
  }`;

const PAGE = 'pageInfo { hasNextPage endCursor }';

const entryTools: ToolSpec[] = (['Tool', 'Guideline', 'Knowledge'] as const).flatMap((kind) => {
  const field = kind.toLowerCase();
  return [
    {
      name: `add${kind}`,
      title: `Add a ${field}`,
      description: `Adds a ${field} entry to a scope (global, organization, project or session). Names are unique per kind within a scope; a nearer scope's entry of the same name overrides an outer one.`,
      document: `mutation ($input: Add${kind}Input!) { add${kind}(input: $input) { __typename ...Failure ... on Add${kind}Success { ${field} { ...Entry } } } } ${ENTRY} ${FAILURE}`,
    },
    {
      name: `update${kind}`,
      title: `Update a ${field}`,
      description: `Writes a new version of a ${field}. Pass expectedVersion (the version you read) so that a concurrent change is reported as a conflict instead of being overwritten silently.`,
      document: `mutation ($input: Update${kind}Input!) { update${kind}(input: $input) { __typename ...Failure ... on Update${kind}Success { update { conflicted conflict { id } entry { ...Entry } } } } } ${ENTRY} ${FAILURE}`,
    },
  ];
});

export const TOOLS: ToolSpec[] = [
  {
    name: 'context',
    title: 'Context for a task',
    description:
      'The tools, guidelines and knowledge that apply to a task in a scope (its own and every enclosing scope, nearer ones overriding), most relevant first, cut to a token budget. Call it before starting a piece of work.',
    document: `query ($input: ContextInput!) { context(input: $input) {
      tokenBudget tokensUsed truncated scopeChain { id kind name }
      tools { score node { ...Entry } } guidelines { score node { ...Entry } } knowledge { score node { ...Entry } } } } ${ENTRY}`,
    // Not read-only: given a `conversation`, it links the entries it returns to it (it needs WRITE there).
    readOnly: false,
  },
  {
    name: 'memoryQuery',
    title: 'Search memory',
    description:
      'Searches entries visible from a scope by words, tags, kinds, relations and dates, ranked by relevance. Pages with `first` and `after` (the `next` cursor of the previous page).',
    document: `query ($input: MemoryQueryInput!, $first: Int = 10, $after: String) { memoryQuery(input: $input, first: $first, after: $after) {
      meta { returnedCount hasMore truncated estimatedTokens } ${PAGE} edges { score node { ...Entry } } } } ${ENTRY}`,
    // Not read-only: given a `conversation`, it links the entries it returns to it (it needs WRITE there).
    readOnly: false,
  },
  {
    name: 'getEntry',
    title: 'Get an entry',
    description: 'One tool, guideline or knowledge entry by id, with its current version.',
    document: `query ($id: ID!) { entry(id: $id) { ...Entry } } ${ENTRY}`,
    readOnly: true,
  },
  {
    name: 'getEntryByName',
    title: 'Get an entry by name',
    description: 'The entry of a kind and name defined in exactly that scope (no inheritance).',
    document: `query ($scope: ID!, $kind: EntryKind!, $name: String!) { entryByName(scope: $scope, kind: $kind, name: $name) { ...Entry } } ${ENTRY}`,
    readOnly: true,
  },
  {
    name: 'entryHistory',
    title: 'History of an entry',
    description: "An entry's versions, newest first, with who wrote each and why.",
    document: `query ($id: ID!, $first: Int = 10, $after: String) { entry(id: $id) { id kind name latestVersion
      versions(first: $first, after: $after) { ${PAGE} edges { node { ...Version } } } } } ${VERSION}`,
    readOnly: true,
  },
  ...entryTools,
  {
    name: 'listTags',
    title: 'List tags',
    description: 'Tags that entries can carry (predefined and custom).',
    document: `query ($first: Int = 50, $after: String, $category: TagCategory) { tags(first: $first, after: $after, category: $category) {
      totalCount ${PAGE} edges { node { id name category description } } } }`,
    readOnly: true,
  },
  {
    name: 'createTag',
    title: 'Create a tag',
    description: 'Creates a custom tag.',
    document: `mutation ($input: CreateTagInput!) { createTag(input: $input) { __typename ...Failure ... on CreateTagSuccess { tag { id name category } } } } ${FAILURE}`,
  },
  {
    name: 'attachTags',
    title: 'Tag an entry',
    description: 'Attaches tags (by name) to an entry.',
    document: `mutation ($input: TagsOfEntryInput!) { attachTags(input: $input) { __typename ...Failure ... on AttachTagsSuccess { entry { id tags { name } } } } } ${FAILURE}`,
  },
  {
    name: 'detachTags',
    title: 'Untag an entry',
    description: 'Removes tags (by name) from an entry.',
    document: `mutation ($input: TagsOfEntryInput!) { detachTags(input: $input) { __typename ...Failure ... on DetachTagsSuccess { entry { id tags { name } } } } } ${FAILURE}`,
  },
  {
    name: 'createRelation',
    title: 'Relate two entries',
    description: 'Records a typed relation from an entry to another entry or to a scope.',
    document: `mutation ($input: CreateRelationInput!) { createRelation(input: $input) { __typename ...Failure
      ... on CreateRelationSuccess { relation { id type source { id name } targetEntry { id name } targetScope { id name } } } } } ${FAILURE}`,
  },
  {
    name: 'deleteRelation',
    title: 'Delete a relation',
    description: 'Deletes a relation by id.',
    document: `mutation ($input: DeleteRelationInput!) { deleteRelation(input: $input) { __typename ...Failure ... on DeleteRelationSuccess { deleted { id } } } } ${FAILURE}`,
  },
  {
    name: 'listConflicts',
    title: 'List conflicts',
    description: 'Write conflicts (two versions written concurrently), newest first; by default unresolved ones of every scope you may read.',
    document: `query ($filter: ConflictFilter = { resolved: false }, $first: Int = 20, $after: String) { conflicts(filter: $filter, first: $first, after: $after) {
      totalCount ${PAGE} edges { node { id detectedAt resolved resolution entry { id kind name scope { id name } }
        versionA { ...Version } versionB { ...Version } } } } } ${VERSION}`,
    readOnly: true,
  },
  {
    name: 'resolveConflict',
    title: 'Resolve a conflict',
    description: 'Resolves a conflict by keeping the current version, taking the incoming one, or writing merged content.',
    document: `mutation ($input: ResolveConflictInput!) { resolveConflict(input: $input) { __typename ...Failure
      ... on ResolveConflictSuccess { resolution { conflict { id resolved resolution } version { version } } } } } ${FAILURE}`,
  },
  {
    name: 'listScopes',
    title: 'List scopes',
    description:
      'The global scope, and the organizations and projects you may read, with their ids (the `scope` of other tools). Organizations and projects page separately: pass their `next` as `organizationsAfter` and `after`.',
    inputs: {
      first: 'How many organizations and how many projects per page (at most 100).',
      after: 'The `projects.next` of the previous call: the next page of projects.',
      organizationsAfter: 'The `organizations.next` of the previous call: the next page of organizations.',
    },
    document: `query ($first: Int = 50, $after: String, $organization: ID, $organizationsAfter: String) { globalScope { id }
      organizations(first: $first, after: $organizationsAfter) { totalCount ${PAGE} edges { node { id name } } }
      projects(first: $first, after: $after, organization: $organization) { totalCount ${PAGE} edges { node { id name organization { id } } } } }`,
    readOnly: true,
  },
  {
    name: 'startSession',
    title: 'Start a session',
    description: 'Starts a session (a scope for one run of an agent) in a project.',
    document: `mutation ($input: StartSessionInput!) { startSession(input: $input) { __typename ...Failure ... on StartSessionSuccess { session { id name status mode startedAt } } } } ${FAILURE}`,
  },
  {
    name: 'appendSessionEvent',
    title: 'Log a session event',
    description: "Appends an event to a session's log, optionally writing state keys in the same transaction.",
    document: `mutation ($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename ...Failure
      ... on AppendSessionEventSuccess { appended { event { id sequence type createdAt } session { id turn eventCount } } } } } ${FAILURE}`,
  },
  {
    name: 'getState',
    title: 'Read session state',
    description: 'Reads a state key as a session sees it: `user:theme` reads that namespace; a bare `theme` resolves temp > session > user > app > project.',
    inputs: { session: 'The session id.' },
    document: `query ($session: ID!, $key: String!) { scope(id: $session) { ... on Session { state(key: $key) { key namespace value entry { version updatedAt } } } } }`,
    readOnly: true,
  },
  {
    name: 'setState',
    title: 'Write session state',
    description: 'Writes a state key (with a namespace prefix such as `session:` or `user:`).',
    document: `mutation ($input: SetStateInput!) { setState(input: $input) { __typename ...Failure ... on SetStateSuccess { state { key namespace owner value version } } } } ${FAILURE}`,
  },
  {
    name: 'endSession',
    title: 'End a session',
    description: 'Completes a session (a scratch session may promote its entries to the project).',
    document: `mutation ($input: CompleteSessionInput!) { completeSession(input: $input) { __typename ...Failure
      ... on CompleteSessionSuccess { transition { session { id status endedAt } } } } } ${FAILURE}`,
  },
  {
    name: 'listSessions',
    title: 'List sessions',
    description: 'Sessions you may read, newest first, optionally of one project or status.',
    document: `query ($project: ID, $status: SessionStatus, $first: Int = 20, $after: String) { sessions(project: $project, status: $status, first: $first, after: $after) {
      totalCount ${PAGE} edges { node { id name status agentId startedAt endedAt project { id name } } } } }`,
    readOnly: true,
  },
  {
    name: 'createTask',
    title: 'Create a task',
    description: 'Creates a task in a scope, optionally under a parent task and depending on others.',
    document: `mutation ($input: CreateTaskInput!) { createTask(input: $input) { __typename ...Failure ... on CreateTaskSuccess { task { ...Task } } } }
      fragment Task on Task { id title status assignee blocked dueAt parent { id } dependsOn { id } } ${FAILURE}`,
  },
  {
    name: 'updateTask',
    title: 'Update a task',
    description: "Changes a task's status, assignee, title, description, parent or due date.",
    document: `mutation ($input: UpdateTaskInput!) { updateTask(input: $input) { __typename ...Failure ... on UpdateTaskSuccess { task { ...Task } } } }
      fragment Task on Task { id title status assignee blocked dueAt parent { id } dependsOn { id } } ${FAILURE}`,
  },
  {
    name: 'listTasks',
    title: 'List tasks',
    description: 'Tasks you may read, filtered by scope, status, assignee, parent or due date.',
    document: `query ($filter: TaskFilter, $first: Int = 20, $after: String) { tasks(filter: $filter, first: $first, after: $after) {
      totalCount ${PAGE} edges { node { id title status assignee blocked dueAt scope { id name } parent { id } } } } }`,
    readOnly: true,
  },  {
    name: 'recordOutcome',
    title: 'Record an outcome',
    description:
      'Records how a run of a task or subtask went: subtaskType, success, durationMs, and optionally the task, the work item (itemKey), the error kind of a failure and tokens used. The agent defaults to you.',
    document: `mutation ($input: RecordOutcomeInput!) { recordOutcome(input: $input) { __typename ...Failure ... on RecordOutcomeSuccess { outcome { id subtaskType agent success durationMs occurredAt } } } } ${FAILURE}`,
  },
  {
    name: 'outcomeSuccessRates',
    title: 'Success rates',
    description:
      'Success rate, mean/median/p95 duration and tokens per subtask type or per agent, over a scope (and the scopes below it) and an optional time window; order by runs or rate (RATE_ASC: where work fails most).',
    document: `query ($input: OutcomeWindowInput!, $by: OutcomeRateGroup = SUBTASK_TYPE, $orderBy: OutcomeRateOrder = RUNS_DESC, $first: Int = 20, $after: String) {
      outcomeAnalytics(input: $input) { successRates(by: $by, orderBy: $orderBy, first: $first, after: $after) {
        ${PAGE} edges { node { key runs successes failures successRate meanDurationMs p50DurationMs p95DurationMs tokens } } } } }`,
    readOnly: true,
  },
  {
    name: 'openVoteQuestion',
    title: 'Open a vote question',
    description:
      'Opens a question for agents to vote on (first-to-ahead-by-k): a key unique in the scope (a subtask id), k (the lead that decides), how answers are compared (normalization: TRIM, EXACT, CASE_INSENSITIVE or JSON), and optional red flags (maxAnswerLength, answerPattern) that discard unreliable answers.',
    document: `mutation ($input: OpenVoteQuestionInput!) { openVoteQuestion(input: $input) { __typename ...Failure
      ... on OpenVoteQuestionSuccess { question { ...VoteQuestion } } } } ${VOTE_QUESTION} ${FAILURE}`,
  },
  {
    name: 'castVote',
    title: 'Vote on a question',
    description:
      "Casts your answer to a vote question (first-to-ahead-by-k: the first answer that leads every other by k wins). Answers are compared after the question's normalization. The result says whether your vote counted (or why it was discarded) and the question's status and decided answer.",
    document: `mutation ($input: CastVoteInput!) { castVote(input: $input) { __typename ...Failure
      ... on CastVoteSuccess { vote { id counted discardReason decisive question { ...VoteQuestion } } } } }
      ${VOTE_QUESTION} ${FAILURE}`,
  },
  {
    name: 'voteStatus',
    title: "A vote question's status",
    description: 'Reads a vote question: its status, the decided answer once there is one, and the leading answers with their counted votes.',
    document: `query ($id: ID!, $first: Int = 5) { voteQuestion(id: $id) { id key prompt status k normalization decidedAnswer decidedAt countedVotes discardedVotes
      tally(first: $first) { answer votes } } }`,
    readOnly: true,
  },
  {
    name: 'checkoutLease',
    title: 'Check out a resource',
    description:
      'Takes a lease on a resource of a scope (a file path, a task id, any key) so that no other agent works on it meanwhile: EXCLUSIVE (default) or SHARED, for ttlSeconds; waitSeconds waits for the holders to let go. Keep the fencingToken and pass it as `fencing` on the writes you make under the lease; renew before it expires, release when done. LeaseHeldError names the holders.',
    document: `mutation ($input: CheckoutLeaseInput!) { checkoutLease(input: $input) { __typename ...Failure
      ... on CheckoutLeaseSuccess { lease { ...Lease } } ... on LeaseHeldError { holders { holder mode expiresAt } } } }
      ${LEASE} ${FAILURE}`,
  },
  {
    name: 'renewLease',
    title: 'Renew a lease',
    description: 'Extends your live lease on a resource by ttlSeconds from now (a heartbeat). An expired lease cannot be renewed: check it out again.',
    document: `mutation ($input: RenewLeaseInput!) { renewLease(input: $input) { __typename ...Failure ... on RenewLeaseSuccess { lease { ...Lease } } } }
      ${LEASE} ${FAILURE}`,
  },
  {
    name: 'listLeases',
    title: 'List leases',
    description:
      'The live leases of a scope (of one resource, when named), the first to end first: who holds what, in which mode, until when. Pages with `first` and `after` (the `next` cursor of the previous page).',
    document: `query ($scope: ID!, $resource: String, $first: Int = 50, $after: String) { leases(scope: $scope, resource: $resource, first: $first, after: $after) {
      totalCount ${PAGE} edges { node { ...Lease } } } } ${LEASE}`,
    readOnly: true,
  },
  {
    name: 'releaseLease',
    title: 'Release a lease',
    description: 'Gives up your lease on a resource, so that the next agent (or a waiting checkout) gets it.',
    document: `mutation ($input: ReleaseLeaseInput!) { releaseLease(input: $input) { __typename ...Failure ... on ReleaseLeaseSuccess { lease { ...Lease } } } }
      ${LEASE} ${FAILURE}`,
  },
];
