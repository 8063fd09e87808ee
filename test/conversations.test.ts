import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addTool, createProject, globalScopeId, startSession } from './support/ops.ts';

const h = useHarness();

const Start = graphql(`
  mutation ConvStart($input: StartConversationInput!) {
    startConversation(input: $input) {
      __typename
      ... on StartConversationSuccess { conversation { id title scope { id } messageCount } }
      ... on UserError { code message path }
    }
  }
`);
const Add = graphql(`
  mutation ConvAdd($input: AddMessageInput!) {
    addMessage(input: $input) {
      __typename
      ... on AddMessageSuccess { added { id position role content toolsUsed context { entry { id } score source } } }
      ... on UserError { code message path }
    }
  }
`);
const Show = graphql(`
  query ConvShow($id: ID!) {
    node(id: $id) {
      ... on Conversation {
        messageCount
        messages(first: 50) { totalCount edges { node { position role content } } }
        context(first: 50) { totalCount edges { node { entry { id name } message { id } score source } } }
      }
    }
  }
`);
const Query = graphql(`
  query ConvQuery($input: MemoryQueryInput!) {
    memoryQuery(input: $input, first: 10) { edges { score node { id } } }
  }
`);
const List = graphql(`
  query ConvList($scope: ID!) { conversations(scope: $scope) { totalCount edges { node { title } } } }
`);

describe('conversations', () => {
  it('keeps ordered messages with the entries they used, and links query results automatically', async () => {
    const p = await createProject(h, 'conv');
    const s = await startSession(h, p);
    const rg = await addTool(h, p, 'ripgrep', { description: 'Searches code fast.' });
    const fd = await addTool(h, p, 'fd', { description: 'Finds files by name.' });
    const started = (await h.ok(Start, { input: { scope: s, title: 'search help' } })).startConversation;
    if (started.__typename !== 'StartConversationSuccess') throw new Error(JSON.stringify(started));
    const conv = started.conversation.id;
    expect(started.conversation).toMatchObject({ title: 'search help', scope: { id: s }, messageCount: 0 });

    const m1 = (await h.ok(Add, { input: { conversation: conv, role: 'USER', content: 'How do I search code?' } })).addMessage;
    const m2 = (
      await h.ok(Add, {
        input: { conversation: conv, role: 'ASSISTANT', content: 'Use ripgrep.', toolsUsed: ['ripgrep'], usedEntries: [{ entry: rg, score: 7.5 }] },
      })
    ).addMessage;
    expect(m1).toMatchObject({ added: { position: 1, role: 'USER', toolsUsed: [], context: [] } });
    expect(m2).toMatchObject({ added: { position: 2, toolsUsed: ['ripgrep'], context: [{ entry: { id: rg }, score: 7.5, source: 'MANUAL' }] } });
    const message2 = m2.__typename === 'AddMessageSuccess' ? m2.added.id : '';

    // A query naming the conversation and message links what it returned, with the scores.
    const found = await h.ok(Query, { input: { scope: s, search: 'files', conversation: conv, message: message2 } });
    expect(found.memoryQuery.edges.map((e) => e.node.id)).toEqual([fd]);
    const shown = await h.ok(Show, { id: conv });
    const node = shown.node && 'messages' in shown.node ? shown.node : null;
    expect(node?.messageCount).toBe(2);
    expect(node?.messages.edges.map((e) => e.node.position)).toEqual([1, 2]);
    expect(node?.context.edges.map((e) => e.node)).toEqual([
      { entry: { id: rg, name: 'ripgrep' }, message: { id: message2 }, score: 7.5, source: 'MANUAL' },
      { entry: { id: fd, name: 'fd' }, message: { id: message2 }, score: found.memoryQuery.edges[0]!.score, source: 'QUERY' },
    ]);
    // Without a message the links go to the conversation; the same entry again updates its link.
    await h.ok(Query, { input: { scope: s, search: 'files', conversation: conv } });
    await h.ok(Query, { input: { scope: s, search: 'files', conversation: conv } });
    const again = await h.ok(Show, { id: conv });
    const links = again.node && 'context' in again.node ? again.node.context.edges.map((e) => e.node) : [];
    expect(links).toHaveLength(3);
    expect(links[2]).toMatchObject({ entry: { id: fd }, message: null, source: 'QUERY' });

    expect((await h.ok(List, { scope: s })).conversations).toMatchObject({ totalCount: 1, edges: [{ node: { title: 'search help' } }] });
  });

  it('linkConversationEntries links entries to a conversation or a message; linking again updates the link', async () => {
    const Link = graphql(`
      mutation ConvLink($input: LinkConversationEntriesInput!) {
        linkConversationEntries(input: $input) {
          __typename
          ... on LinkConversationEntriesSuccess { conversation { id messageCount } }
          ... on UserError { code message path }
        }
      }
    `);
    const p = await createProject(h, 'conv-link');
    const rg = await addTool(h, p, 'ripgrep', { description: 'Searches code.' });
    const fd = await addTool(h, p, 'fd', { description: 'Finds files.' });
    const started = (await h.ok(Start, { input: { scope: p, title: 'links' } })).startConversation;
    const conv = started.__typename === 'StartConversationSuccess' ? started.conversation.id : '';
    const added = (await h.ok(Add, { input: { conversation: conv, role: 'USER', content: 'Find the config file.' } })).addMessage;
    const message = added.__typename === 'AddMessageSuccess' ? added.added.id : '';
    const links = async () => {
      const shown = await h.ok(Show, { id: conv });
      return shown.node && 'context' in shown.node ? shown.node.context.edges.map((e) => e.node) : [];
    };

    const whole = await h.ok(Link, { input: { conversation: conv, usedEntries: [{ entry: rg, score: 1.5 }, { entry: fd }] } });
    expect(whole.linkConversationEntries).toEqual({ __typename: 'LinkConversationEntriesSuccess', conversation: { id: conv, messageCount: 1 } });
    const toMessage = await h.ok(Link, { input: { conversation: conv, message, usedEntries: [{ entry: fd, score: 9 }] } });
    expect(toMessage.linkConversationEntries.__typename).toBe('LinkConversationEntriesSuccess');
    expect(await links()).toEqual([
      { entry: { id: rg, name: 'ripgrep' }, message: null, score: 1.5, source: 'MANUAL' },
      { entry: { id: fd, name: 'fd' }, message: null, score: null, source: 'MANUAL' },
      { entry: { id: fd, name: 'fd' }, message: { id: message }, score: 9, source: 'MANUAL' },
    ]);
    // The same entry and target again: one link, with the new score.
    await h.ok(Link, { input: { conversation: conv, usedEntries: [{ entry: rg, score: 4 }] } });
    expect((await links()).filter((l) => l.entry.id === rg)).toEqual([{ entry: { id: rg, name: 'ripgrep' }, message: null, score: 4, source: 'MANUAL' }]);

    const unknownEntry = Buffer.from('Tool:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    const missing = await h.ok(Link, { input: { conversation: conv, usedEntries: [{ entry: unknownEntry }] } });
    expect(missing.linkConversationEntries).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'usedEntries'] });
    const other = (await h.ok(Start, { input: { scope: p } })).startConversation;
    const otherId = other.__typename === 'StartConversationSuccess' ? other.conversation.id : '';
    const foreign = await h.ok(Link, { input: { conversation: otherId, message, usedEntries: [{ entry: rg }] } });
    expect(foreign.linkConversationEntries).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'message'] });
    const badScore = await h.ok(Link, { input: { conversation: conv, usedEntries: [{ entry: rg, score: 1e9 }] } });
    expect(badScore.linkConversationEntries).toMatchObject({ __typename: 'ValidationError', path: ['input', 'usedEntries', '0', 'score'] });
    expect(await links()).toHaveLength(3);
  });

  it('concurrent messages get gapless positions; bad input is typed and writes nothing', async () => {
    const p = await createProject(h, 'conv-concurrent');
    const started = (await h.ok(Start, { input: { scope: p } })).startConversation;
    const conv = started.__typename === 'StartConversationSuccess' ? started.conversation.id : '';
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => h.ok(Add, { input: { conversation: conv, role: 'USER', content: `m${i}` } })),
    );
    const positions = results.map((r) => (r.addMessage.__typename === 'AddMessageSuccess' ? r.addMessage.added.position : 0));
    expect(positions.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    const unknownEntry = Buffer.from('Tool:0190a0a0-0000-7000-8000-000000000000').toString('base64');
    const bad = (await h.ok(Add, { input: { conversation: conv, role: 'USER', content: 'x', usedEntries: [{ entry: unknownEntry }] } })).addMessage;
    expect(bad).toMatchObject({ __typename: 'NotFoundError' });
    const empty = (await h.ok(Add, { input: { conversation: conv, role: 'USER', content: ' ' } })).addMessage;
    expect(empty).toMatchObject({ __typename: 'ValidationError', path: ['input', 'content'] });
    const shown = await h.ok(Show, { id: conv });
    expect(shown.node && 'messageCount' in shown.node && shown.node.messageCount).toBe(12);

    const global = (await h.ok(Start, { input: { scope: await globalScopeId(h) } })).startConversation;
    expect(global).toMatchObject({ __typename: 'InvalidPlacementError' });
    const wrongMessage = await h.gql(Query, { input: { scope: p, conversation: conv, message: Buffer.from('Message:0190a0a0-0000-7000-8000-000000000000').toString('base64') } });
    expect(wrongMessage.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
