import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addTool, createProject, globalScopeId, startSession } from './support/ops.ts';

// Rules of conversations.service.ts that mutation testing (npm run mutate) found unchecked: the
// limits and the message and argument of each refusal, where a conversation may live, archived
// sessions, what a conversation and a message store, and how repeated links in one call collapse.

const h = useHarness();

const Start = graphql(`
  mutation MutantConvStart($input: StartConversationInput!) {
    startConversation(input: $input) {
      __typename
      ... on StartConversationSuccess { conversation { id title metadata createdBy } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Add = graphql(`
  mutation MutantConvAdd($input: AddMessageInput!) {
    addMessage(input: $input) {
      __typename
      ... on AddMessageSuccess { added { id position toolsUsed metadata context { entry { id } score } } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Link = graphql(`
  mutation MutantConvLink($input: LinkConversationEntriesInput!) {
    linkConversationEntries(input: $input) {
      __typename
      ... on LinkConversationEntriesSuccess { conversation { id } }
      ... on ValidationError { issues { path message } }
      ... on InvalidStateError { currentState }
      ... on UserError { code message path }
    }
  }
`);

const Context = graphql(`
  query MutantConvContext($id: ID!) {
    node(id: $id) { ... on Conversation { context(first: 50) { edges { node { entry { id } message { id } score } } } } }
  }
`);

const CompleteSession = graphql(`
  mutation MutantConvComplete($id: ID!) { completeSession(input: { id: $id }) { __typename } }
`);

const ArchiveSession = graphql(`
  mutation MutantConvArchive($id: ID!) { archiveSession(input: { id: $id }) { __typename } }
`);

const CreateOrganization = graphql(`
  mutation MutantConvOrg($name: String!) {
    createOrganization(input: { name: $name }) { ... on CreateOrganizationSuccess { organization { id } } }
  }
`);

const missing = (type: string) => Buffer.from(`${type}:0190a0a0-0000-7000-8000-000000000000`).toString('base64');

async function start(input: Record<string, unknown>, headers?: Record<string, string>) {
  return (await h.ok(Start, { input: input as never }, headers)).startConversation;
}

async function conversationIn(scope: string) {
  const r = await start({ scope });
  if (r.__typename !== 'StartConversationSuccess') throw new Error(JSON.stringify(r));
  return r.conversation.id;
}

async function add(conversation: string, input: Record<string, unknown> = {}) {
  return (await h.ok(Add, { input: { conversation, role: 'USER', content: 'hello', ...input } as never })).addMessage;
}

async function link(input: Record<string, unknown>) {
  return (await h.ok(Link, { input: input as never })).linkConversationEntries;
}

async function archivedSession(name: string) {
  const p = await createProject(h, name);
  const s = await startSession(h, p);
  const conversation = await conversationIn(s);
  await h.ok(CompleteSession, { id: s });
  await h.ok(ArchiveSession, { id: s });
  return { s, conversation };
}

describe('starting a conversation', () => {
  it('stores the trimmed title, metadata and author; a blank title is none', async () => {
    const p = await createProject(h, 'conv-fields');
    expect(await start({ scope: p, title: ' talk ', metadata: { a: 1 } }, { 'x-engram-actor': 'agent:talker' })).toMatchObject({
      conversation: { title: 'talk', metadata: { a: 1 }, createdBy: 'agent:talker' },
    });
    expect(await start({ scope: p, title: '  ' })).toMatchObject({ conversation: { title: null, metadata: null, createdBy: null } });
  });

  it('lives in a project or a session; each refusal names input.scope', async () => {
    const p = await createProject(h, 'conv-placement');
    expect(await start({ scope: await startSession(h, p) })).toMatchObject({ __typename: 'StartConversationSuccess' });
    const placement = {
      __typename: 'InvalidPlacementError',
      code: 'INVALID_PLACEMENT',
      message: 'Conversations belong to a project or a session',
      path: ['input', 'scope'],
    };
    expect(await start({ scope: await globalScopeId(h) })).toEqual(placement);
    const org = (await h.ok(CreateOrganization, { name: 'conv-org' })).createOrganization;
    expect(await start({ scope: 'organization' in org ? org.organization.id : '' })).toEqual(placement);
    expect(await start({ scope: missing('Project') })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No scope has this id',
      path: ['input', 'scope'],
    });
    const { s } = await archivedSession('conv-archived-start');
    expect(await start({ scope: s })).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'scope'] });
  });

  it('names a title that is too long and metadata that is no object', async () => {
    const p = await createProject(h, 'conv-start-refusals');
    expect(await start({ scope: p, title: 't'.repeat(501), metadata: [1] })).toMatchObject({
      issues: [
        { path: ['input', 'title'], message: 'must be at most 500 characters (got 501)' },
        { path: ['input', 'metadata'], message: 'must be a JSON object' },
      ],
    });
  });
});

describe('adding messages', () => {
  it('stores the tools used and metadata; none given is an empty list and null', async () => {
    const c = await conversationIn(await createProject(h, 'conv-message-fields'));
    expect(await add(c, { toolsUsed: ['rg', 'fd'], metadata: { m: 1 } })).toMatchObject({ added: { position: 1, toolsUsed: ['rg', 'fd'], metadata: { m: 1 } } });
    expect(await add(c)).toMatchObject({ added: { position: 2, toolsUsed: [], metadata: null } });
  });

  it('limits tools and entries used, and names each invalid argument', async () => {
    const p = await createProject(h, 'conv-message-limits');
    const c = await conversationIn(p);
    const tool = await addTool(h, p, 'used');
    const tools = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(await add(c, { toolsUsed: tools(51) })).toMatchObject({
      message: 'input.toolsUsed: must list at most 50 tools',
      issues: [{ path: ['input', 'toolsUsed'], message: 'must list at most 50 tools' }],
    });
    expect(await add(c, { toolsUsed: tools(50) })).toMatchObject({ __typename: 'AddMessageSuccess' });
    expect(await add(c, { toolsUsed: ['ok', ' '], metadata: 'text', content: ' ' })).toMatchObject({
      issues: [
        { path: ['input', 'content'], message: 'must not be blank' },
        { path: ['input', 'toolsUsed', '1'], message: 'must not be blank' },
        { path: ['input', 'metadata'], message: 'must be a JSON object' },
      ],
    });
    const used = (n: number) => Array.from({ length: n }, () => ({ entry: tool }));
    expect(await add(c, { usedEntries: used(101) })).toMatchObject({
      message: 'input.usedEntries: must list at most 100 entries',
      issues: [{ path: ['input', 'usedEntries'], message: 'must list at most 100 entries' }],
    });
    expect(await add(c, { usedEntries: used(100) })).toMatchObject({ added: { context: [{ entry: { id: tool }, score: null }] } });
  });

  it('an unknown conversation is NOT_FOUND and an archived one INVALID_STATE, at input.conversation', async () => {
    expect(await add(missing('Conversation'))).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No conversation has this id',
      path: ['input', 'conversation'],
    });
    const { conversation } = await archivedSession('conv-archived-add');
    expect(await add(conversation)).toMatchObject({ __typename: 'InvalidStateError', currentState: 'ARCHIVED', path: ['input', 'conversation'] });
  });
});

describe('linking entries', () => {
  it('an entry listed twice in one call is linked once, with its last score', async () => {
    const p = await createProject(h, 'conv-link-twice');
    const c = await conversationIn(p);
    const a = await addTool(h, p, 'a');
    const b = await addTool(h, p, 'b');
    expect(await link({ conversation: c, usedEntries: [{ entry: a, score: 1 }, { entry: b, score: 2 }, { entry: a, score: 3 }] })).toEqual({
      __typename: 'LinkConversationEntriesSuccess',
      conversation: { id: c },
    });
    expect(await link({ conversation: c, usedEntries: [] })).toMatchObject({ __typename: 'LinkConversationEntriesSuccess' });
    const r = await h.ok(Context, { id: c });
    expect(r.node && 'context' in r.node ? r.node.context.edges.map((e) => [e.node.entry.id, e.node.score]) : null).toEqual([[a, 3], [b, 2]]);
  });

  it('says what is missing or wrong, at the argument at fault', async () => {
    const p = await createProject(h, 'conv-link-refusals');
    const c = await conversationIn(p);
    const other = await conversationIn(p);
    const tool = await addTool(h, p, 't');
    const m = await add(other);
    const foreignMessage = m.__typename === 'AddMessageSuccess' ? m.added.id : '';
    expect(await link({ conversation: missing('Conversation'), usedEntries: [{ entry: tool }] })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No conversation has this id',
      path: ['input', 'conversation'],
    });
    const noMessage = { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No message of this conversation has this id', path: ['input', 'message'] };
    expect(await link({ conversation: c, message: missing('Message'), usedEntries: [{ entry: tool }] })).toEqual(noMessage);
    // A message of another conversation (maybe one the caller cannot read) answers alike.
    expect(await link({ conversation: c, message: foreignMessage, usedEntries: [{ entry: tool }] })).toEqual(noMessage);
    expect(await link({ conversation: c, usedEntries: [{ entry: missing('Tool') }] })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'An entry to link does not exist',
      path: ['input', 'usedEntries'],
    });
    const { conversation } = await archivedSession('conv-archived-link');
    expect(await link({ conversation, usedEntries: [{ entry: tool }] })).toMatchObject({
      __typename: 'InvalidStateError',
      currentState: 'ARCHIVED',
      path: ['input', 'conversation'],
    });
  });
});
