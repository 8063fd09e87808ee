// What each deletion erases, checked table by table against its receipt (found by mutation testing
// of deletion.service.ts and erasure.ts): every row a receipt lists is gone and every row gone is
// listed, rows of other scopes stay as they were (tasks keep their parents), ids are sorted per kind
// and kinds by name, and the content hash is SHA-256 of the erased rows' content in the canonical
// form a verifier holding the data recomputes: one line `Kind:id:JSON(content)` per row, sorted,
// each followed by a newline.
import { createHash } from 'node:crypto';
import { parse } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterEach, describe, expect, it } from 'vitest';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

const h = useHarness();
let n = 0;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
const missing = (type: string) => Buffer.from(`${type}:01900000-0000-7000-8000-000000000000`).toString('base64');

interface Receipt {
  id: string;
  operation: string;
  counts: Record<string, number>;
  ids: Record<string, string[]>;
  contentHash: string;
  criteria: unknown;
}
const RECEIPT = `receipt { id operation counts ids contentHash criteria }`;

/** Every row of the tables a deletion erases from, by kind and id, with the content the receipt hashes. */
type Snapshot = Record<string, Map<string, unknown>>;
async function snapshot(): Promise<{ rows: Snapshot; parents: Map<string, string | null> }> {
  const db = h.database.prisma;
  const by = <T,>(list: T[], id: (r: T) => string, content: (r: T) => unknown = () => null) => new Map(list.map((r) => [id(r), content(r) ?? null]));
  const tasks = await db.task.findMany();
  return {
    rows: {
      Entry: by(await db.entry.findMany(), (e) => e.id, (e) => [e.kind, e.scopeId, e.name, e.category, e.createdBy]),
      EntryVersion: by(await db.entryVersion.findMany(), (v) => v.id, (v) => [v.description, v.parameters, v.examples, v.constraints, v.content, v.rationale, v.source, v.createdBy]),
      EntryTag: by(await db.entryTag.findMany(), (t) => `${t.entryId}:${t.tagId}`),
      Relation: by(await db.relation.findMany(), (r) => r.id, (r) => r.type),
      Conflict: by(await db.conflict.findMany(), (c) => c.id, (c) => c.note),
      ConversationContext: by(await db.conversationContext.findMany(), (c) => c.id),
      Conversation: by(await db.conversation.findMany(), (c) => c.id, (c) => c.title),
      ConversationMessage: by(await db.conversationMessage.findMany(), (m) => m.id, (m) => [m.content, m.metadata]),
      Task: by(tasks, (t) => t.id, (t) => [t.title, t.description]),
      TaskDependency: by(await db.taskDependency.findMany(), (d) => `${d.taskId}:${d.dependsOnId}`),
      StateKey: by(await db.stateKey.findMany(), (k) => k.id, (k) => [k.name, k.value]),
      StateVersion: by(await db.stateVersion.findMany(), (v) => v.id, (v) => v.value),
      Scope: by(await db.scope.findMany(), (s) => s.id, (s) => [s.kind, s.name, s.description, s.purpose, s.metadata, s.userId, s.appName]),
      SessionEvent: by(await db.sessionEvent.findMany(), (e) => e.id, (e) => [e.content, e.stateDelta]),
      Grant: by(await db.grant.findMany(), (g) => g.id),
    },
    parents: new Map(tasks.map((t) => [t.id, t.parentId])),
  };
}

/**
 * Runs a deletion as a dry run (nothing changes, same receipt) and for real, and checks its receipt
 * against the tables: exactly the listed rows went, with the hash of their content. Returns it.
 */
async function erases(run: (dryRun: boolean) => Promise<Receipt>): Promise<{ receipt: Receipt; erased: Record<string, string[]> }> {
  const before = await snapshot();
  const dry = await run(true);
  expect(await snapshot()).toEqual(before);
  const receipt = await run(false);
  const after = await snapshot();
  const erased: Record<string, string[]> = {};
  const lines: string[] = [];
  for (const [kind, rows] of Object.entries(before.rows)) {
    const gone = [...rows.keys()].filter((id) => !after.rows[kind]!.has(id)).sort();
    if (gone.length) erased[kind] = gone;
    for (const id of gone) lines.push(`${kind}:${id}:${JSON.stringify(rows.get(id))}`);
  }
  const kinds = Object.keys(erased).sort();
  expect(Object.keys(receipt.ids)).toEqual(kinds);
  expect(Object.keys(receipt.counts)).toEqual(kinds);
  expect(receipt.ids).toEqual(erased);
  expect(receipt.counts).toEqual(Object.fromEntries(kinds.map((k) => [k, erased[k]!.length])));
  const hash = createHash('sha256');
  for (const line of lines.sort()) hash.update(`${line}\n`);
  expect(receipt.contentHash).toBe(hash.digest('hex'));
  expect({ ...dry, id: null, criteria: null }).toEqual({ ...receipt, id: null, criteria: null });
  // Tasks that stay keep their parent, unless it was erased.
  for (const [task, parent] of after.parents) expect([task, parent]).toEqual([task, erased.Task?.includes(before.parents.get(task)!) ? null : before.parents.get(task)]);
  return { receipt, erased };
}

const m = async (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

/** A scope tree full of what deletions erase: an organization, a project, a session of user `u-<tag>`. */
async function world(tag: string) {
  const org = (await m(`mutation($n: String!) { createOrganization(input: { name: $n, description: "d" }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: `org-${tag}` }))
    .createOrganization.organization.id as string;
  const p = (await m(`mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o, description: "pd" }) { ... on CreateProjectSuccess { project { id } } } }`, {
    n: `p-${tag}`,
    o: org,
  })).createProject.project.id as string;
  const user = `u-${tag}`;
  const s = (await m(`mutation($p: ID!, $u: String) { startSession(input: { project: $p, userId: $u, purpose: "work" }) { ... on StartSessionSuccess { session { id } } } }`, { p, u: user }))
    .startSession.session.id as string;
  const add = async (scope: string, title: string, content: string, tags: string[], author: string | null = null) =>
    (await m(`mutation($s: ID!, $t: String!, $c: String!, $g: [String!], $a: String) { addKnowledge(input: { scope: $s, title: $t, content: $c, tags: $g, author: $a }) {
      ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: scope, t: title, c: content, g: tags, a: author })).addKnowledge.knowledge.id as string;
  const k1 = await add(p, `${tag}-one`, 'alpha', [`${tag}-a`, 'shared'], `user:${user}`);
  const k2 = await add(s, `${tag}-two`, 'beta', ['shared']);
  const update = `mutation($id: ID!, $c: String!, $e: Int) { updateKnowledge(input: { id: $id, content: $c, expectedVersion: $e }) { ... on UpdateKnowledgeSuccess { update { conflict { id } } } } }`;
  await m(update, { id: k1, c: 'alpha two' });
  await m(update, { id: k2, c: 'beta mine', e: 1 });
  const conflict = (await m(update, { id: k2, c: 'beta theirs', e: 1 })).updateKnowledge.update.conflict.id as string;
  await m(`mutation($id: ID!) { resolveConflict(input: { id: $id, strategy: KEEP_CURRENT, note: "kept mine" }) { __typename } }`, { id: conflict });
  const relate = `mutation($s: ID!, $t: ID!, $y: RelationType!) { createRelation(input: { source: $s, target: $t, type: $y }) { ... on CreateRelationSuccess { relation { id } } } }`;
  await m(relate, { s: k1, t: k2, y: 'RELATED_TO' });
  await m(relate, { s: k2, t: s, y: 'APPLIES_TO' });
  const c = (await m(`mutation($s: ID!) { startConversation(input: { scope: $s, title: "chat" }) { ... on StartConversationSuccess { conversation { id } } } }`, { s })).startConversation
    .conversation.id as string;
  await m(`mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "hello", metadata: { lang: "en" } }) { __typename } }`, { c });
  await m(`mutation($c: ID!, $e: ID!) { addMessage(input: { conversation: $c, role: ASSISTANT, content: "bye", usedEntries: [{ entry: $e }] }) { __typename } }`, { c, e: k1 });
  const task = async (scope: string, title: string, extra: { parent?: string; dependsOn?: string[] } = {}) =>
    (await m(`mutation($s: ID!, $t: String!, $p: ID, $d: [ID!]) { createTask(input: { scope: $s, title: $t, description: "about it", parent: $p, dependsOn: $d }) {
      ... on CreateTaskSuccess { task { id } } } }`, { s: scope, t: title, p: extra.parent ?? null, d: extra.dependsOn ?? null })).createTask.task.id as string;
  const t1 = await task(s, `${tag} first`);
  const t2 = await task(s, `${tag} second`, { dependsOn: [t1] });
  const t3 = await task(p, `${tag} under first`, { parent: t1 });
  const t4 = await task(s, `${tag} also under first`, { parent: t1 });
  const t5 = await task(p, `${tag} after second`, { dependsOn: [t2] });
  const state = `mutation($o: StateOwnerInput!, $k: String!, $v: JSON!) { setState(input: { owner: $o, key: $k, value: $v }) { __typename } }`;
  await m(state, { o: { session: s }, k: 'session:step', v: 1 });
  await m(state, { o: { session: s }, k: 'temp:draft', v: 'x' });
  await m(state, { o: { project: p }, k: 'project:cfg', v: { v: 1 } });
  await m(state, { o: { userId: user }, k: 'user:pref', v: 'dark' });
  await m(`mutation($s: ID!, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "user", content: { text: "hi" }, stateDelta: $d }) { __typename } }`, {
    s,
    d: { 'session:step': 2 },
  });
  const who = await principal(h, `watcher-${tag}`, { grants: [[p, 'READ'], [s, 'WRITE']] });
  return { org, p, s, user, k1, k2, c, t1, t2, t3, t4, t5, who };
}

/** Two worlds, and links from the bystander's into the target's. */
async function worlds() {
  const tag = `w${++n}`;
  const target = await world(`${tag}t`);
  const bystander = await world(`${tag}b`);
  await m(`mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { __typename } }`, { s: bystander.k1, t: target.k1 });
  await m(`mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: APPLIES_TO }) { __typename } }`, { s: bystander.k2, t: target.s });
  return { target, bystander };
}

const deletion = (name: string, id: string) => async (dryRun: boolean) => {
  const d = await m(`mutation($id: ID!, $d: Boolean) { ${name}(input: { id: $id, dryRun: $d }) { __typename ... on ${name[0]!.toUpperCase()}${name.slice(1)}Success { ${RECEIPT} } ... on UserError { message } } }`, {
    id,
    d: dryRun,
  });
  if (!d[name].receipt) throw new Error(JSON.stringify(d));
  return d[name].receipt as Receipt;
};
const erase = (criteria: Record<string, unknown>) => async (dryRun: boolean) =>
  (await m(`mutation($i: EraseMemoryInput!) { eraseMemory(input: $i) { ... on EraseMemorySuccess { ${RECEIPT} } } }`, { i: { ...criteria, dryRun } })).eraseMemory.receipt as Receipt;

describe(`what deletions erase, table by table (${DB_KIND})`, () => {
  it('deleteEntry: the entry, its versions, tags, relations both ways, conflicts and conversation links; nothing of other entries', async () => {
    const { target } = await worlds();
    const one = await erases(deletion('deleteEntry', target.k1));
    expect(one.receipt.operation).toBe('deleteEntry');
    expect(Object.keys(one.receipt.counts)).toEqual(['ConversationContext', 'Entry', 'EntryTag', 'EntryVersion', 'Relation']);
    expect(one.erased.Relation).toHaveLength(2);
    const two = await erases(deletion('deleteEntry', target.k2));
    expect(Object.keys(two.receipt.counts)).toEqual(['Conflict', 'Entry', 'EntryTag', 'EntryVersion', 'Relation']);
  });

  it('deleteTask: the task and its dependency links both ways; other tasks keep theirs', async () => {
    const { target } = await worlds();
    const { receipt, erased } = await erases(deletion('deleteTask', target.t2));
    expect(receipt.operation).toBe('deleteTask');
    expect(erased).toEqual({ Task: [dbId(target.t2)], TaskDependency: [`${dbId(target.t2)}:${dbId(target.t1)}`, `${dbId(target.t5)}:${dbId(target.t2)}`].sort() });
  });

  it('deleteConversation: the conversation, its messages and links; other conversations stay', async () => {
    const { target } = await worlds();
    const { erased } = await erases(deletion('deleteConversation', target.c));
    expect(Object.keys(erased).sort()).toEqual(['Conversation', 'ConversationContext', 'ConversationMessage']);
  });

  it('deleteSession: its entries, tasks, conversations, temp: and session: state, events, relations to it and grants on it; tasks elsewhere under its tasks are freed', async () => {
    const { target } = await worlds();
    const { receipt, erased } = await erases(deletion('deleteSession', target.s));
    expect(receipt.operation).toBe('deleteSession');
    expect(erased.Scope).toEqual([dbId(target.s)]);
    expect(erased.StateKey).toHaveLength(2);
    expect(erased.Grant).toHaveLength(1);
    expect(erased.Relation).toHaveLength(3);
    expect(erased.Task).toEqual([target.t1, target.t2, target.t4].map(dbId).sort());
    expect(erased.Conversation).toEqual([dbId(target.c)]);
  });

  it('deleteScopeTree: an organization with its project and session, the project: state and every grant', async () => {
    const { target } = await worlds();
    const { receipt, erased } = await erases(deletion('deleteScopeTree', target.org));
    expect(receipt.operation).toBe('deleteScopeTree');
    expect(erased.Scope).toEqual([target.org, target.p, target.s].map(dbId).sort());
    expect(erased.Conversation).toEqual([dbId(target.c)]);
    expect(erased.StateKey).toHaveLength(3);
  });

  it("forgetUser: the user's user: state, sessions and authored entries, and nobody else's", async () => {
    const { target } = await worlds();
    const { receipt, erased } = await erases(async (dryRun) =>
      (await m(`mutation($u: String!, $d: Boolean) { forgetUser(input: { userId: $u, dryRun: $d }) { ... on ForgetUserSuccess { ${RECEIPT} } } }`, { u: target.user, d: dryRun })).forgetUser
        .receipt as Receipt,
    );
    expect(receipt.operation).toBe('forgetUser');
    expect(receipt.criteria).toEqual({ id: target.user });
    expect(erased.Scope).toEqual([dbId(target.s)]);
    expect(erased.Entry).toEqual([target.k1, target.k2].map(dbId).sort());
    expect(erased.Conversation).toEqual([dbId(target.c)]);
    expect(erased.StateKey).toHaveLength(3);
  });

  it('eraseMemory: by a tag only the entries carrying it, by scope with descendants only that subtree', async () => {
    const { target } = await worlds();
    const tagged = await erases(erase({ tag: `${target.user.slice(2)}-a` }));
    expect(tagged.receipt.operation).toBe('eraseMemory');
    expect(tagged.erased.Entry).toEqual([dbId(target.k1)]);
    const subtree = await erases(erase({ scope: target.p, includeDescendants: true }));
    expect(subtree.erased.Entry).toEqual([dbId(target.k2)]);
  });

  it("deleting a scope takes the state keys it owns in temp:, session: and project:, not a user:'s whose user id is the scope's id", async () => {
    const p = (await m(`mutation { createProject(input: { name: "erase-namesake" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id as string;
    const user = dbId(p);
    await m(`mutation($o: StateOwnerInput!) { setState(input: { owner: $o, key: "user:pref", value: 1 }) { __typename } }`, { o: { userId: user } });
    const { erased } = await erases(deletion('deleteScopeTree', p));
    expect(erased).toEqual({ Scope: [user] });
    expect(await h.database.prisma.stateKey.count({ where: { namespace: 'USER', owner: user } })).toBe(1);
  });

  it('erasing nothing gives an empty receipt whose hash is that of no content', async () => {
    const p = (await m(`mutation { createProject(input: { name: "erase-nothing" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
    const { receipt } = await erases(erase({ scope: p }));
    expect(receipt).toMatchObject({ counts: {}, ids: {}, contentHash: createHash('sha256').digest('hex') });
  });
});

describe(`deletion answers (${DB_KIND})`, () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('a missing target is NOT_FOUND at input.id, for every operation', async () => {
    const ask = async (name: string, type: string) =>
      (await m(`mutation($id: ID!) { ${name}(input: { id: $id }) { __typename ... on UserError { message path } } }`, { id: missing(type) }))[name];
    expect(await ask('deleteEntry', 'Knowledge')).toEqual({ __typename: 'NotFoundError', message: 'No entry has this id', path: ['input', 'id'] });
    expect(await ask('deleteTask', 'Task')).toEqual({ __typename: 'NotFoundError', message: 'No task has this id', path: ['input', 'id'] });
    expect(await ask('deleteConversation', 'Conversation')).toEqual({ __typename: 'NotFoundError', message: 'No conversation has this id', path: ['input', 'id'] });
    expect(await ask('deleteSession', 'Session')).toEqual({ __typename: 'NotFoundError', message: 'No session has this id', path: ['input', 'id'] });
    expect(await ask('deleteScopeTree', 'Project')).toEqual({ __typename: 'NotFoundError', message: 'No project or organization has this id', path: ['input', 'id'] });
  });

  it("the stored receipt names the deleting principal by id; each erased entry is announced as DELETED with the request's actor", async () => {
    const p = (await m(`mutation { createProject(input: { name: "erase-announced" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id as string;
    const k = (await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "doomed", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: p })).addKnowledge
      .knowledge.id as string;
    const doc = parse(`subscription($scope: ID!) { entryChanged(scope: $scope) { type entryId actor entry { id } } }`) as TypedDocumentNode<
      { entryChanged: { type: string; entryId: string; actor: string | null; entry: { id: string } | null } },
      { scope: string }
    >;
    const sub = await sseSubscribe(h.app, doc, { scope: p });
    close = () => void sub.close();
    let probes = 0;
    await untilListening(sub.collector, () => m(`mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { __typename } }`, { s: p, t: `probe-${probes++}` }));
    const before = sub.collector.results.length;
    const admin = await principal(h, 'eraser', { grants: [[p, 'ADMIN']] });
    const d = await as(h, admin.key, `mutation($id: ID!) { deleteEntry(input: { id: $id }) { ... on DeleteEntrySuccess { receipt { id principalName } } } }`, { id: k }, { 'x-engram-actor': 'agent:eraser' });
    expect(d.data!.deleteEntry.receipt.principalName).toBe('eraser');
    const stored = await h.database.prisma.deletionReceipt.findUnique({ where: { id: d.data!.deleteEntry.receipt.id } });
    expect(stored?.principalId).toBe(dbId(admin.id));
    await sub.collector.until((r) => r.length > before);
    expect(sub.collector.results.slice(before).map((r) => r.data!.entryChanged)).toEqual([{ type: 'DELETED', entryId: k, actor: 'agent:eraser', entry: null }]);
  });
});
