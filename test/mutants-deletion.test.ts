// Rules of deletion.service.ts and erasure.ts that the first deletion tests left unchecked (found
// reading the survivors' shape): deleteConversation, each eraseMemory criterion on its own, the
// not-found answers of each operation, forgetUser's bare author name, what a project's tree takes
// with it, and receipts whose hash depends on the content.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
let n = 0;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const missing = (type: string) => Buffer.from(`${type}:01900000-0000-7000-8000-000000000000`).toString('base64');

async function project(): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `mdel-${++n}` })).createProject.project.id;
}
async function session(p: string, userId?: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!, $u: String) { startSession(input: { project: $p, userId: $u }) { ... on StartSessionSuccess { session { id } } } }`, { p, u: userId ?? null }))
    .startSession.session.id;
}
async function knowledge(scope: string, title: string, extra: { content?: string; tags?: string[]; author?: string } = {}): Promise<string> {
  const d = await ok(h, null, `mutation($s: ID!, $t: String!, $c: String!, $g: [String!], $a: String) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: $g, author: $a }) {
    ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, c: extra.content ?? 'plain', g: extra.tags ?? null, a: extra.author ?? null });
  return d.addKnowledge.knowledge.id;
}
async function createdAt(id: string): Promise<string> {
  return (await ok(h, null, `query($id: ID!) { node(id: $id) { ... on Knowledge { createdAt } ... on Tool { createdAt } } }`, { id })).node.createdAt;
}
const ERASE = `mutation($i: EraseMemoryInput!) { eraseMemory(input: $i) { __typename ... on EraseMemorySuccess { receipt { counts ids criteria contentHash } } ... on UserError { message } } }`;
/** The entries a dry run of eraseMemory would erase (database ids, sorted as the receipt lists them). */
async function wouldErase(criteria: Record<string, unknown>): Promise<string[]> {
  const d = await ok(h, null, ERASE, { i: { ...criteria, dryRun: true } });
  return d.eraseMemory.receipt.ids.Entry ?? [];
}
const sorted = (ids: string[]) => ids.map(dbId).sort();

describe(`deletion rules found by mutation testing (${DB_KIND})`, () => {
  it('deleteConversation erases the conversation, its messages and context links, and leaves the entries', async () => {
    const p = await project();
    const k = await knowledge(p, 'used');
    const c = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s, title: "chat" }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: p }))
      .startConversation.conversation.id;
    for (const text of ['one', 'two']) await ok(h, null, `mutation($c: ID!, $t: String!) { addMessage(input: { conversation: $c, role: USER, content: $t }) { __typename } }`, { c, t: text });
    await ok(h, null, `mutation($c: ID!, $e: ID!) { linkConversationEntries(input: { conversation: $c, usedEntries: [{ entry: $e }] }) { __typename } }`, { c, e: k });
    const del = `mutation($id: ID!) { deleteConversation(input: { id: $id }) { __typename
      ... on DeleteConversationSuccess { receipt { operation counts criteria principalName ids } } ... on UserError { code message } } }`;
    const done = (await ok(h, null, del, { id: c })).deleteConversation;
    expect(done).toMatchObject({
      __typename: 'DeleteConversationSuccess',
      receipt: { operation: 'deleteConversation', counts: { Conversation: 1, ConversationContext: 1, ConversationMessage: 2 }, criteria: { id: dbId(c) }, principalName: null },
    });
    expect(done.receipt.ids.Conversation).toEqual([dbId(c)]);
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [c, k] })).nodes).toEqual([null, { id: k }]);
    expect(await h.database.prisma.conversationMessage.count({ where: { conversationId: dbId(c) } })).toBe(0);
    expect((await ok(h, null, del, { id: c })).deleteConversation).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No conversation has this id' });
  });

  it('each operation answers a missing target with its own message', async () => {
    const p = await project();
    const s = await session(p);
    const fields = `__typename ... on UserError { code message }`;
    const nf = (message: string) => ({ __typename: 'NotFoundError', code: 'NOT_FOUND', message });
    expect((await ok(h, null, `mutation($id: ID!) { deleteEntry(input: { id: $id }) { ${fields} } }`, { id: missing('Knowledge') })).deleteEntry).toEqual(nf('No entry has this id'));
    expect((await ok(h, null, `mutation($id: ID!) { deleteTask(input: { id: $id }) { ${fields} } }`, { id: missing('Task') })).deleteTask).toEqual(nf('No task has this id'));
    expect((await ok(h, null, `mutation($id: ID!) { deleteSession(input: { id: $id }) { ${fields} } }`, { id: missing('Session') })).deleteSession).toEqual(nf('No session has this id'));
    // A session is no tree to delete, and a project is no session, whatever type the ID claims.
    const as = (type: string, id: string) => Buffer.from(`${type}:${dbId(id)}`).toString('base64');
    const tree = (await ok(h, null, `mutation($id: ID!) { deleteScopeTree(input: { id: $id }) { ${fields} } }`, { id: as('Project', s) })).deleteScopeTree;
    expect(tree).toEqual(nf('No project or organization has this id'));
    const notSession = (await ok(h, null, `mutation($id: ID!) { deleteSession(input: { id: $id }) { ${fields} } }`, { id: as('Session', p) })).deleteSession;
    expect(notSession).toEqual(nf('No session has this id'));
  });

  it('deleteTask names how many subtasks hold it back', async () => {
    const p = await project();
    const create = `mutation($s: ID!, $t: String!, $p: ID) { createTask(input: { scope: $s, title: $t, parent: $p }) { ... on CreateTaskSuccess { task { id } } } }`;
    const parent = (await ok(h, null, create, { s: p, t: 'parent' })).createTask.task.id;
    for (const t of ['a', 'b']) await ok(h, null, create, { s: p, t, p: parent });
    const refused = await ok(h, null, `mutation($id: ID!) { deleteTask(input: { id: $id }) { ... on InvalidStateError { message path } } }`, { id: parent });
    expect(refused.deleteTask).toEqual({ message: 'The task has 2 subtask(s): delete or move them first', path: ['input', 'id'] });
  });

  it('eraseMemory selects by each criterion alone: tag, time range, scope with or without descendants, text in name, content, description or rationale', async () => {
    const p = await project();
    const s = await session(p);
    const inProject = await knowledge(p, 'alpha-note', { tags: ['python'] });
    await sleep(20);
    const inSession = await knowledge(s, 'beta-note', { content: 'mentions quokka' });
    await sleep(20);
    const tool = (await ok(h, null, `mutation($s: ID!) { addTool(input: { scope: $s, name: "gamma-tool", description: "a quokka tool" }) { ... on AddToolSuccess { tool { id } } } }`, { s: p }))
      .addTool.tool.id;
    const rule = (await ok(h, null, `mutation($s: ID!) { addGuideline(input: { scope: $s, name: "delta-rule", content: "c", rationale: "quokka reasons" }) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
      s: p,
    })).addGuideline.guideline.id;
    const all = sorted([inProject, inSession, tool, rule]);

    expect(await wouldErase({ scope: p })).toEqual(sorted([inProject, tool, rule]));
    expect(await wouldErase({ scope: p, includeDescendants: true })).toEqual(all);
    expect(await wouldErase({ scope: p, tag: '  Python ' })).toEqual(sorted([inProject]));
    expect(await wouldErase({ scope: p, includeDescendants: true, text: 'quokka' })).toEqual(sorted([inSession, tool, rule]));
    expect(await wouldErase({ scope: p, text: 'alpha' })).toEqual(sorted([inProject]));
    const [t1, t2] = [await createdAt(inSession), await createdAt(tool)];
    expect(await wouldErase({ scope: p, includeDescendants: true, createdAfter: t1 })).toEqual(sorted([inSession, tool, rule]));
    expect(await wouldErase({ scope: p, includeDescendants: true, createdBefore: t2 })).toEqual(sorted([inProject, inSession]));
    expect(await wouldErase({ scope: p, includeDescendants: true, createdAfter: t1, createdBefore: t2 })).toEqual(sorted([inSession]));
    // Nothing was erased by the dry runs; the receipt keeps the criteria as given.
    const d = await ok(h, null, ERASE, { i: { createdAfter: t1, createdBefore: t2, dryRun: true } });
    expect(d.eraseMemory.receipt.criteria).toEqual({ createdAfter: t1, createdBefore: t2, dryRun: true, scopeId: null });
    expect(await wouldErase({ scope: p, includeDescendants: true })).toEqual(all);
  });

  it('the content hash depends on what was erased; receipts list ids per kind', async () => {
    const p = await project();
    const a = await knowledge(p, 'same-name-a', { content: 'first text' });
    const b = await knowledge(p, 'same-name-b', { content: 'second text' });
    const hash = async (criteria: Record<string, unknown>) => (await ok(h, null, ERASE, { i: { ...criteria, dryRun: true } })).eraseMemory.receipt.contentHash as string;
    const [ha, hb, hab] = [await hash({ scope: p, text: 'first' }), await hash({ scope: p, text: 'second' }), await hash({ scope: p })];
    expect(new Set([ha, hb, hab]).size).toBe(3);
    expect(await hash({ scope: p, text: 'first' })).toBe(ha);
    const receipt = (await ok(h, null, ERASE, { i: { scope: p, dryRun: true } })).eraseMemory.receipt;
    expect(receipt.ids.Entry).toEqual(sorted([a, b]));
    expect(receipt.ids.EntryVersion).toEqual([...receipt.ids.EntryVersion].sort());
    expect(Object.keys(receipt.counts)).toEqual(['Entry', 'EntryVersion']);
  });

  it("forgetUser also erases entries authored under the bare user id, and frees tasks elsewhere whose parent was in the user's session", async () => {
    const p = await project();
    const s = await session(p, 'zed');
    const bare = await knowledge(p, 'zed-bare', { author: 'zed' });
    const prefixed = await knowledge(p, 'zed-prefixed', { author: 'user:zed' });
    const other = await knowledge(p, 'not-zed', { author: 'user:zedd' });
    const create = `mutation($s: ID!, $t: String!, $p: ID) { createTask(input: { scope: $s, title: $t, parent: $p }) { ... on CreateTaskSuccess { task { id } } } }`;
    const parent = (await ok(h, null, create, { s, t: 'in-session' })).createTask.task.id;
    const child = (await ok(h, null, create, { s: p, t: 'in-project', p: parent })).createTask.task.id;
    const d = await ok(h, null, `mutation { forgetUser(input: { userId: "zed" }) { ... on ForgetUserSuccess { receipt { counts ids } } } }`);
    expect(d.forgetUser.receipt.counts).toEqual({ Entry: 2, EntryVersion: 2, Scope: 1, SessionEvent: 1, Task: 1 });
    expect(d.forgetUser.receipt.ids.Entry).toEqual(sorted([bare, prefixed]));
    const left = await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Task { parent { id } } } }`, { ids: [other, child, parent] });
    expect(left.nodes).toEqual([{ id: other }, { id: child, parent: null }, null]);
  });

  it('deleteScopeTree of a project takes its project: state, relations pointing at it and grants on it', async () => {
    const p = await project();
    const elsewhere = await project();
    const k = await knowledge(elsewhere, 'points-at-project');
    await ok(h, null, `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: APPLIES_TO }) { __typename } }`, { s: k, t: p });
    await ok(h, null, `mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:x", value: 1 }) { __typename } }`, { p });
    const who = (await ok(h, null, `mutation { createPrincipal(input: { name: "tree-watcher", kind: AGENT }) { ... on CreatePrincipalSuccess { principal { id } } } }`)).createPrincipal.principal.id;
    await ok(h, null, `mutation($p: ID!, $s: ID!) { grantRole(input: { principal: $p, scope: $s, role: READ }) { __typename } }`, { p: who, s: p });
    const d = await ok(h, null, `mutation($id: ID!) { deleteScopeTree(input: { id: $id }) { ... on DeleteScopeTreeSuccess { receipt { operation counts } } } }`, { id: p });
    expect(d.deleteScopeTree.receipt).toEqual({ operation: 'deleteScopeTree', counts: { Grant: 1, Relation: 1, Scope: 1, StateKey: 1, StateVersion: 1 } });
    expect((await ok(h, null, `query($id: ID!) { entry(id: $id) { outgoingRelations { id } } }`, { id: k })).entry.outgoingRelations).toEqual([]);
  });
});
