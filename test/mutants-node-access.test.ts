// Rules of src/graphql/node-access.ts that mutation testing (npm run mutate) found unchecked: for
// every node type, `node` and `nodes` show it to a principal who reads the scope it belongs to (and
// to nobody else), a relation only when both of its ends are readable (an entry or a scope as its
// target), state keys by the state rules, tags to every member, and reading an entry by its ID
// counts as an access.
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { ok, principal, type Principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();

const NODE = `query($id: ID!) { node(id: $id) { id __typename } }`;
const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`;

const w = {} as Record<
  | 'global'
  | 'O'
  | 'P'
  | 'S'
  | 'Q'
  | 'tool'
  | 'toolVersion'
  | 'guideline'
  | 'guidelineVersion'
  | 'knowledge'
  | 'knowledge2'
  | 'knowledgeVersion'
  | 'knowledgeQ'
  | 'task'
  | 'conversation'
  | 'message'
  | 'event'
  | 'conflict'
  | 'relToEntry'
  | 'relToScopeP'
  | 'relToScopeQ'
  | 'relFromQToP'
  | 'relToEntryQ'
  | 'state'
  | 'tag',
  string
>;
let reader: Principal; // READ on O: O, P, its session and everything in them
let outsider: Principal; // READ on Q only

const admin = (query: string, variables?: Record<string, unknown>) => ok(h, null, query, variables);

async function relation(source: string, target: string): Promise<string> {
  const d = await admin(`mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { ... on CreateRelationSuccess { relation { id } } ... on UserError { message } } }`, {
    s: source,
    t: target,
  });
  return d.createRelation.relation.id;
}

beforeAll(async () => {
  w.global = (await admin(`{ globalScope { id } }`)).globalScope.id;
  w.O = (await admin(`mutation { createOrganization(input: { name: "na-org" }) { ... on CreateOrganizationSuccess { organization { id } } } }`)).createOrganization.organization.id;
  w.P = (await admin(`mutation($o: ID!) { createProject(input: { name: "na-p", organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { o: w.O })).createProject.project
    .id;
  w.Q = (await admin(`mutation { createProject(input: { name: "na-q" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
  w.S = (await admin(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p: w.P })).startSession.session.id;
  const tool = (await admin(`mutation($s: ID!) { addTool(input: { scope: $s, name: "na-tool" }) { ... on AddToolSuccess { tool { id currentVersion { id } } } } }`, { s: w.P })).addTool.tool;
  [w.tool, w.toolVersion] = [tool.id, tool.currentVersion.id];
  const guideline = (
    await admin(`mutation($s: ID!) { addGuideline(input: { scope: $s, name: "na-rule", content: "c" }) { ... on AddGuidelineSuccess { guideline { id currentVersion { id } } } } }`, { s: w.P })
  ).addGuideline.guideline;
  [w.guideline, w.guidelineVersion] = [guideline.id, guideline.currentVersion.id];
  const knowledge = (
    await admin(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "na-k", content: "c", tags: ["na-tag"] }) { ... on AddKnowledgeSuccess { knowledge { id currentVersion { id } tags { id } } } } }`, {
      s: w.P,
    })
  ).addKnowledge.knowledge;
  [w.knowledge, w.knowledgeVersion, w.tag] = [knowledge.id, knowledge.currentVersion.id, knowledge.tags[0].id];
  w.knowledge2 = (await admin(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "na-k2", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: w.P })).addKnowledge
    .knowledge.id;
  w.knowledgeQ = (await admin(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "na-kq", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: w.Q })).addKnowledge
    .knowledge.id;
  w.task = (await admin(`mutation($s: ID!) { createTask(input: { scope: $s, title: "na-task" }) { ... on CreateTaskSuccess { task { id } } } }`, { s: w.P })).createTask.task.id;
  w.conversation = (await admin(`mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: w.S })).startConversation
    .conversation.id;
  w.message = (await admin(`mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "hi" }) { ... on AddMessageSuccess { added { id } } } }`, { c: w.conversation }))
    .addMessage.added.id;
  w.event = (
    await admin(`mutation($s: ID!) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:na" }) { ... on AppendSessionEventSuccess { appended { event { id } } } } }`, {
      s: w.S,
    })
  ).appendSessionEvent.appended.event.id;
  const update = `mutation($id: ID!, $a: String!) { updateKnowledge(input: { id: $id, content: $a, author: $a }) { __typename } }`;
  await admin(update, { id: w.knowledge2, a: 'agent:x' });
  await admin(update, { id: w.knowledge2, a: 'agent:y' });
  w.conflict = (await admin(`{ conflicts { edges { node { id } } } }`)).conflicts.edges[0].node.id;
  w.relToEntry = await relation(w.knowledge, w.knowledge2);
  w.relToScopeP = await relation(w.knowledge, w.P);
  w.relToScopeQ = await relation(w.knowledge, w.Q);
  w.relFromQToP = await relation(w.knowledgeQ, w.P);
  w.relToEntryQ = await relation(w.knowledge, w.knowledgeQ);
  w.state = (
    await admin(`mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:na", value: 1 }) { ... on SetStateSuccess { state { id } } ... on UserError { message } } }`, {
      p: w.P,
    })
  ).setState.state.id;
  reader = await principal(h, 'na-reader', { grants: [[w.O, 'READ']] });
  outsider = await principal(h, 'na-outsider', { grants: [[w.Q, 'READ']] });
});

describe(`node and nodes, type by type, found by mutation testing (${DB_KIND})`, () => {
  const inP = () =>
    [
      ['Organization', w.O],
      ['Project', w.P],
      ['Session', w.S],
      ['Tool', w.tool],
      ['ToolVersion', w.toolVersion],
      ['Guideline', w.guideline],
      ['GuidelineVersion', w.guidelineVersion],
      ['Knowledge', w.knowledge],
      ['KnowledgeVersion', w.knowledgeVersion],
      ['Task', w.task],
      ['Conversation', w.conversation],
      ['Message', w.message],
      ['SessionEvent', w.event],
      ['Conflict', w.conflict],
      ['Relation', w.relToEntry],
      ['Relation', w.relToScopeP],
      ['StateKey', w.state],
    ] as const;

  it('each type is shown to a reader of its scope', async () => {
    for (const [type, id] of inP()) expect([type, (await ok(h, reader.key, NODE, { id })).node]).toEqual([type, { id, __typename: type }]);
    const ids = inP().map(([, id]) => id);
    expect((await ok(h, reader.key, NODES, { ids })).nodes).toEqual(ids.map((id) => ({ id })));
  });

  it('and to nobody else, exactly like an unknown ID', async () => {
    for (const [type, id] of inP()) expect([type, (await ok(h, outsider.key, NODE, { id })).node]).toEqual([type, null]);
    const ids = inP().map(([, id]) => id);
    expect((await ok(h, outsider.key, NODES, { ids })).nodes).toEqual(ids.map(() => null));
    // The outsider's own project and entry it does read.
    expect((await ok(h, outsider.key, NODES, { ids: [w.Q, w.knowledgeQ] })).nodes).toEqual([{ id: w.Q }, { id: w.knowledgeQ }]);
  });

  it('a relation shows only when both ends do, whether its target is an entry or a scope', async () => {
    for (const id of [w.relToScopeQ, w.relToEntryQ]) expect((await ok(h, reader.key, NODE, { id })).node).toBeNull();
    // The outsider reads the source of this one (an entry of Q) but not its target (P).
    expect((await ok(h, outsider.key, NODE, { id: w.relFromQToP })).node).toBeNull();
    // The admin reads them all.
    expect((await ok(h, null, NODES, { ids: [w.relToScopeQ, w.relToEntryQ, w.relFromQToP] })).nodes).toEqual([{ id: w.relToScopeQ }, { id: w.relToEntryQ }, { id: w.relFromQToP }]);
  });

  it('an ID of no row is null for a reader and for the admin, whatever its type', async () => {
    const missing = (type: string) => Buffer.from(`${type}:01900000-0000-7000-8000-000000000000`).toString('base64');
    const ids = ['Project', 'Knowledge', 'Tool', 'Task', 'Relation'].map(missing);
    for (const key of [reader.key, null]) expect((await ok(h, key, NODES, { ids })).nodes).toEqual(ids.map(() => null));
    for (const id of ids) expect((await ok(h, reader.key, NODE, { id })).node).toBeNull();
  });

  it('the global scope and tags are shown to every member', async () => {
    for (const who of [reader, outsider]) {
      expect((await ok(h, who.key, NODES, { ids: [w.global, w.tag] })).nodes).toEqual([{ id: w.global }, { id: w.tag }]);
    }
  });

  it('reading an entry by its ID counts as an access; reading anything else counts nothing', async () => {
    const counting = createApp({ database: h.database, accessFlushMs: 20 });
    const count = async () => (await admin(`query($id: ID!) { entry(id: $id) { accessCount } }`, { id: w.tool })).entry.accessCount as number;
    try {
      const before = await count();
      const read = await counting.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.key}` },
        body: JSON.stringify({ query: NODES, variables: { ids: [w.tool, w.P, w.task] } }),
      });
      expect(((await read.json()) as { data: unknown }).data).toEqual({ nodes: [{ id: w.tool }, { id: w.P }, { id: w.task }] });
      let after = before;
      for (let i = 0; i < 100 && after === before; i++) {
        await sleep(20);
        after = await count();
      }
      expect(after).toBe(before + 1);
    } finally {
      await counting.stop(1_000);
    }
  });
});
