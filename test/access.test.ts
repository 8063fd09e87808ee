// Access control (issue #12): grants decide what a principal reads and writes, by every route.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { DB_KIND, useHarness } from './support/harness.ts';
import { as, codes, grant, ok, principal, type Principal } from './support/access.ts';

// Principals' calls go over a real socket (see `as`); the setup runs in-process as the local admin.
const h = useHarness({ listen: true });

/** The world: an organization with projects A and B, a session in each, entries at every level. */
const w = {} as Record<'org' | 'A' | 'B' | 'SA' | 'SB' | 'G' | 'GO' | 'KA' | 'KB' | 'TB' | 'CB' | 'conflictB' | 'relAB', string>;
let agentA: Principal;
let readerA: Principal;
let adminA: Principal;
let nobody: Principal;

const ADD_KNOWLEDGE = `mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c }) {
  __typename ... on AddKnowledgeSuccess { knowledge { id } } ... on UserError { code message path } } }`;
const UPDATE_KNOWLEDGE = `mutation($id: ID!, $c: String!, $a: String) { updateKnowledge(input: { id: $id, content: $c, author: $a }) {
  __typename ... on UpdateKnowledgeSuccess { update { entry { id } } } ... on UserError { code message path } } }`;
const MEMORY = `query($s: ID!) { memoryQuery(input: { scope: $s }) { edges { node { id name } } } }`;
/** A global ID of the right type that no row has. */
const MISSING_PROJECT = Buffer.from('Project:01900000-0000-7000-8000-000000000000').toString('base64');
const MISSING_KNOWLEDGE = Buffer.from('Knowledge:01900000-0000-7000-8000-000000000000').toString('base64');

async function add(scope: string, title: string, content: string): Promise<string> {
  const d = await ok(h, null, ADD_KNOWLEDGE, { s: scope, t: title, c: content });
  return d.addKnowledge.knowledge.id as string;
}

beforeAll(async () => {
  const d = await ok(h, null, `mutation { createOrganization(input: { name: "acme" }) { ... on CreateOrganizationSuccess { organization { id } } } }`);
  w.org = d.createOrganization.organization.id;
  for (const p of ['A', 'B'] as const) {
    const made = await ok(h, null, `mutation($o: ID!, $n: String!) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, {
      o: w.org,
      n: `project-${p}`,
    });
    w[p] = made.createProject.project.id;
    const s = await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "alice", appName: "app1" }) { ... on StartSessionSuccess { session { id } } } }`, {
      p: w[p],
    });
    w[`S${p}`] = s.startSession.session.id;
  }
  const g = await ok(h, null, `{ globalScope { id } }`);
  const gl = await ok(h, null, `mutation($s: ID!) { addGuideline(input: { scope: $s, name: "be-kind", content: "Be kind." }) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
    s: g.globalScope.id,
  });
  w.G = gl.addGuideline.guideline.id;
  const go = await ok(h, null, `mutation($s: ID!) { addGuideline(input: { scope: $s, name: "org-rule", content: "Org only." }) { ... on AddGuidelineSuccess { guideline { id } } } }`, {
    s: w.org,
  });
  w.GO = go.addGuideline.guideline.id;
  w.KA = await add(w.A, 'a-fact', 'Project A builds with make.');
  w.KB = await add(w.B, 'b-secret', 'the prod password is hunter2');
  const rel = await ok(h, null, `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { ... on CreateRelationSuccess { relation { id } } } }`, {
    s: w.KA,
    t: w.KB,
  });
  w.relAB = rel.createRelation.relation.id;
  // Two writes within the conflict window: a conflict on KB.
  await ok(h, null, UPDATE_KNOWLEDGE, { id: w.KB, c: 'the prod password is hunter3', a: 'agent:x' });
  await ok(h, null, UPDATE_KNOWLEDGE, { id: w.KB, c: 'the prod password is hunter4', a: 'agent:y' });
  const conflicts = await ok(h, null, `{ conflicts { edges { node { id } } } }`);
  w.conflictB = conflicts.conflicts.edges[0].node.id;
  const task = await ok(h, null, `mutation($s: ID!) { createTask(input: { scope: $s, title: "rotate the password" }) { ... on CreateTaskSuccess { task { id } } } }`, { s: w.B });
  w.TB = task.createTask.task.id;
  const conv = await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s, title: "ops" }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: w.SB });
  w.CB = conv.startConversation.conversation.id;
  await ok(h, null, `mutation($s: ID!) { setState(input: { owner: { session: $s }, key: "session:secret", value: "b" }) { __typename } }`, { s: w.SB });
  await ok(h, null, `mutation($s: ID!) { setState(input: { owner: { session: $s }, key: "user:token", value: "alice-token" }) { __typename } }`, { s: w.SA });

  agentA = await principal(h, 'agent-a', { grants: [[w.A, 'WRITE']] });
  readerA = await principal(h, 'reader-a', { grants: [[w.A, 'READ']] });
  adminA = await principal(h, 'admin-a', { grants: [[w.A, 'ADMIN']] });
  nobody = await principal(h, 'nobody');
});

describe(`access control (${DB_KIND})`, () => {
  it('a principal with a grant on project A reads nothing of project B by node, nodes, lists or lookups', async () => {
    const ids = [w.B, w.SB, w.KB, w.TB, w.CB, w.conflictB, w.relAB];
    const byNode = await ok(h, agentA.key, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(byNode.nodes).toEqual(ids.map(() => null));
    for (const id of ids) expect((await ok(h, agentA.key, `query($id: ID!) { node(id: $id) { id } }`, { id })).node).toBeNull();
    // The admin sees them all: the IDs exist.
    expect((await ok(h, null, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids })).nodes.map((n: { id: string }) => n.id)).toEqual(ids);

    const lists = await ok(
      h,
      agentA.key,
      `query($b: ID!, $kb: ID!) {
        knowledge { totalCount edges { node { id } } }
        guidelines { totalCount edges { node { id } } }
        projects { totalCount edges { node { id } } }
        sessions { totalCount edges { node { id } } }
        organizations { totalCount }
        conflicts { totalCount }
        tasks { totalCount }
        scope(id: $b) { id }
        entry(id: $kb) { id }
        entryByName(scope: $b, kind: KNOWLEDGE, name: "b-secret") { id }
        conflict(id: "${w.conflictB}") { id }
      }`,
      { b: w.B, kb: w.KB },
    );
    expect(lists).toEqual({
      knowledge: { totalCount: 1, edges: [{ node: { id: w.KA } }] },
      guidelines: { totalCount: 1, edges: [{ node: { id: w.G } }] },
      projects: { totalCount: 1, edges: [{ node: { id: w.A } }] },
      sessions: { totalCount: 1, edges: [{ node: { id: w.SA } }] },
      organizations: { totalCount: 0 },
      conflicts: { totalCount: 0 },
      tasks: { totalCount: 0 },
      scope: null,
      entry: null,
      entryByName: null,
      conflict: null,
    });
  });

  it('memoryQuery and context answer a scope of B exactly like a scope that does not exist', async () => {
    const denied = await as(h, agentA.key, MEMORY, { s: w.B });
    const missing = await as(h, agentA.key, MEMORY, { s: MISSING_PROJECT });
    expect(denied).toEqual(missing);
    expect(codes(denied)).toEqual(['NOT_FOUND']);
    const context = `query($s: ID!) { context(input: { scope: $s }) { tokensUsed } }`;
    expect(await as(h, agentA.key, context, { s: w.B })).toEqual(await as(h, agentA.key, context, { s: MISSING_PROJECT }));
    const conversations = `query($s: ID!) { conversations(scope: $s) { totalCount } }`;
    expect(codes(await as(h, agentA.key, conversations, { s: w.SB }))).toEqual(['NOT_FOUND']);
  });

  it("memoryQuery on A's session searches the session, A and the global scope, not the organization above A", async () => {
    const d = await ok(h, agentA.key, MEMORY, { s: w.SA });
    expect(d.memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([w.G, w.KA].sort());
    // The admin also gets the organization's guideline: the filter is the grant, not the data.
    const all = await ok(h, null, MEMORY, { s: w.SA });
    expect(all.memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id).sort()).toEqual([w.G, w.GO, w.KA].sort());
  });

  it('with GRANTS_READ_GLOBAL off, a grant below global does not read the global scope', async () => {
    const strict = createApp({ database: h.database, access: { globalReadable: false } });
    const response = await strict.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agentA.key}` },
      body: JSON.stringify({ query: MEMORY, variables: { s: w.SA } }),
    });
    const d = (await response.json()) as { data: { memoryQuery: { edges: { node: { id: string } }[] } } };
    await strict.stop();
    expect(d.data.memoryQuery.edges.map((e) => e.node.id)).toEqual([w.KA]);
  });

  it('nested fields do not lead from A into B: context links, task dependencies, parents, organizations', async () => {
    const conv = await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: w.SA });
    const convId = conv.startConversation.conversation.id;
    await ok(h, null, `mutation($c: ID!, $a: ID!, $b: ID!) { linkConversationEntries(input: { conversation: $c, usedEntries: [{ entry: $a }, { entry: $b }] }) { __typename } }`, {
      c: convId,
      a: w.KA,
      b: w.KB,
    });
    const task = await ok(h, null, `mutation($s: ID!, $d: ID!) { createTask(input: { scope: $s, title: "needs B", dependsOn: [$d] }) { ... on CreateTaskSuccess { task { id } } } }`, {
      s: w.A,
      d: w.TB,
    });
    const d = await ok(
      h,
      agentA.key,
      `query($c: ID!, $t: ID!, $a: ID!, $g: ID!) {
        c: node(id: $c) { ... on Conversation { context { totalCount edges { node { entry { id } } } } } }
        t: node(id: $t) { ... on Task { dependsOn { id } blocked } }
        a: node(id: $a) { ... on Project { organization { id } parent { id } ancestors { id } } }
        g: node(id: $g) { ... on GlobalScope { organizations { totalCount } children { totalCount } } }
      }`,
      { c: convId, t: task.createTask.task.id, a: w.A, g: (await ok(h, null, `{ globalScope { id } }`)).globalScope.id },
    );
    expect(d).toEqual({
      c: { context: { totalCount: 1, edges: [{ node: { entry: { id: w.KA } } }] } },
      t: { dependsOn: [], blocked: true },
      a: { organization: null, parent: null, ancestors: [{ id: expect.any(String) }] },
      g: { organizations: { totalCount: 0 }, children: { totalCount: 0 } },
    });
    // Completing it is refused for the dependency in B, which the refusal counts but does not name.
    const done = `mutation($id: ID!) { updateTask(input: { id: $id, status: DONE }) { ... on UnmetDependenciesError { message blockingTaskIds } } }`;
    const refused = await ok(h, agentA.key, done, { id: task.createTask.task.id });
    expect(refused.updateTask).toEqual({ message: 'The task depends on 1 task not done yet', blockingTaskIds: [] });
    expect((await ok(h, null, done, { id: task.createTask.task.id })).updateTask.blockingTaskIds).toEqual([w.TB]);
  });

  it('relations to entries the caller cannot read are not shown', async () => {
    const d = await ok(h, agentA.key, `query($id: ID!) { entry(id: $id) { outgoingRelations { id } } }`, { id: w.KA });
    expect(d.entry.outgoingRelations).toEqual([]);
    const admin = await ok(h, null, `query($id: ID!) { entry(id: $id) { outgoingRelations { id } } }`, { id: w.KA });
    expect(admin.entry.outgoingRelations).toEqual([{ id: w.relAB }]);
  });

  it('writes into B answer exactly like writes to what does not exist; READ cannot write', async () => {
    const intoB = await as(h, agentA.key, ADD_KNOWLEDGE, { s: w.B, t: 'x', c: 'y' });
    const intoNothing = await as(h, agentA.key, ADD_KNOWLEDGE, { s: MISSING_PROJECT, t: 'x', c: 'y' });
    expect(intoB).toEqual(intoNothing);
    expect(intoB.data!.addKnowledge).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'scope'] });
    const updateB = await as(h, agentA.key, UPDATE_KNOWLEDGE, { id: w.KB, c: 'pwned' });
    expect(updateB).toEqual(await as(h, agentA.key, UPDATE_KNOWLEDGE, { id: MISSING_KNOWLEDGE, c: 'pwned' }));
    expect(updateB.data!.updateKnowledge.__typename).toBe('NotFoundError');
    const relate = await as(h, agentA.key, `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: DEPENDS_ON }) { __typename } }`, {
      s: w.KA,
      t: w.KB,
    });
    expect(relate.data!.createRelation.__typename).toBe('NotFoundError');
    const readOnly = await as(h, readerA.key, ADD_KNOWLEDGE, { s: w.A, t: 'x', c: 'y' });
    expect(readOnly.data!.addKnowledge).toMatchObject({ __typename: 'PermissionDeniedError', code: 'FORBIDDEN' });
    const written = await ok(h, agentA.key, ADD_KNOWLEDGE, { s: w.A, t: 'agent-wrote', c: 'ok' });
    expect(written.addKnowledge.__typename).toBe('AddKnowledgeSuccess');
    // Nothing of B changed.
    const kb = await ok(h, null, `query($id: ID!) { entry(id: $id) { latestVersion } }`, { id: w.KB });
    expect(kb.entry.latestVersion).toBe(3);
  });

  it('grants: ADMIN on A manages grants at and below A only; a revoked grant stops at once', async () => {
    const newcomer = await principal(h, 'newcomer');
    const onB = await as(h, adminA.key, `mutation($p: ID!, $s: ID!) { grantRole(input: { principal: $p, scope: $s, role: READ }) { __typename } }`, {
      p: newcomer.id,
      s: w.B,
    });
    expect(onB.data!.grantRole.__typename).toBe('NotFoundError');
    const byWriter = await as(h, agentA.key, `mutation($p: ID!, $s: ID!) { grantRole(input: { principal: $p, scope: $s, role: READ }) { __typename } }`, {
      p: newcomer.id,
      s: w.A,
    });
    expect(byWriter.data!.grantRole.__typename).toBe('PermissionDeniedError');
    const grantId = await grant(h, adminA.key, newcomer.id, w.SA, 'READ');
    // A scope admin meets the principal through the grant, but not its keys.
    const seen = await ok(h, adminA.key, `query($id: ID!) { node(id: $id) { id } viewer { principal { keys { name } grants { role } } } }`, { id: w.SA });
    expect(seen.viewer.principal).toEqual({ keys: [{ name: 'test' }], grants: [{ role: 'ADMIN' }] });
    const given = await ok(h, adminA.key, `mutation($p: ID!, $s: ID!) { grantRole(input: { principal: $p, scope: $s, role: READ }) {
      ... on GrantRoleSuccess { grant { role principal { name keys { name } } } } } }`, { p: newcomer.id, s: w.SA });
    expect(given.grantRole.grant).toEqual({ role: 'READ', principal: { name: 'newcomer', keys: [] } });
    expect((await ok(h, newcomer.key, `{ sessions { totalCount } projects { totalCount } }`)).sessions.totalCount).toBe(1);
    expect((await ok(h, newcomer.key, `{ projects { totalCount } }`)).projects.totalCount).toBe(0);
    const revoked = await ok(h, adminA.key, `mutation($id: ID!) { revokeGrant(input: { id: $id }) { __typename } }`, { id: grantId });
    expect(revoked.revokeGrant.__typename).toBe('RevokeGrantSuccess');
    expect(codes(await as(h, newcomer.key, `{ sessions { totalCount } }`))).toEqual(['FORBIDDEN']);
  });

  it('state: user: keys belong to their user; project: writes need ADMIN on the project', async () => {
    const alice = await principal(h, 'alice', { kind: 'USER', grants: [[w.A, 'READ']] });
    const read = `query($s: ID!) { node(id: $s) { ... on Session { state(key: "user:token") { value } } } }`;
    expect((await ok(h, alice.key, read, { s: w.SA })).node.state).toEqual({ value: 'alice-token' });
    expect((await ok(h, agentA.key, read, { s: w.SA })).node.state).toBeNull();
    const setUser = `mutation($s: ID!) { setState(input: { owner: { session: $s }, key: "user:token", value: "stolen" }) { __typename } }`;
    expect((await ok(h, agentA.key, setUser, { s: w.SA })).setState.__typename).toBe('PermissionDeniedError');
    const setProject = `mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:build", value: "make" }) { __typename } }`;
    expect((await ok(h, agentA.key, setProject, { p: w.A })).setState.__typename).toBe('PermissionDeniedError');
    expect((await ok(h, adminA.key, setProject, { p: w.A })).setState.__typename).toBe('SetStateSuccess');
    const setB = `mutation($s: ID!) { setState(input: { owner: { session: $s }, key: "session:x", value: 1 }) { __typename } }`;
    expect((await ok(h, agentA.key, setB, { s: w.SB })).setState.__typename).toBe('NotFoundError');
    expect((await ok(h, agentA.key, setB, { s: w.SA })).setState.__typename).toBe('SetStateSuccess');
  });

  it('actors: a principal writes as itself; naming another is refused unless it is a service allowed to act for others', async () => {
    const createdBy = `mutation($s: ID!, $t: String!, $a: String) { addKnowledge(input: { scope: $s, title: $t, content: "c", author: $a }) {
      __typename ... on AddKnowledgeSuccess { knowledge { currentVersion { createdBy } } } ... on UserError { code path } } }`;
    const own = await ok(h, agentA.key, createdBy, { s: w.A, t: 'by-default' });
    expect(own.addKnowledge.knowledge.currentVersion.createdBy).toBe('agent:agent-a');
    const spoofHeader = await as(h, agentA.key, createdBy, { s: w.A, t: 'spoof-1' }, { 'x-engram-actor': 'agent:owner' });
    expect([spoofHeader.status, codes(spoofHeader), spoofHeader.data ?? null]).toEqual([403, ['FORBIDDEN'], null]);
    const spoofAuthor = await ok(h, agentA.key, createdBy, { s: w.A, t: 'spoof-2', a: 'agent:owner' });
    expect(spoofAuthor.addKnowledge).toEqual({ __typename: 'PermissionDeniedError', code: 'FORBIDDEN', path: ['input', 'author'] });
    const event = `mutation($s: ID!) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:owner", content: "hi" }) { __typename } }`;
    expect((await ok(h, agentA.key, event, { s: w.SA })).appendSessionEvent.__typename).toBe('PermissionDeniedError');

    const relay = await principal(h, 'relay', { kind: 'SERVICE', actsForOthers: true, grants: [[w.A, 'WRITE']] });
    const forAgent = await ok(h, relay.key, createdBy, { s: w.A, t: 'relayed', a: 'agent:agent-a' });
    expect(forAgent.addKnowledge.knowledge.currentVersion.createdBy).toBe('agent:agent-a');
    const viaHeader = await as(h, relay.key, createdBy, { s: w.A, t: 'relayed-2' }, { 'x-engram-actor': 'agent:agent-a' });
    expect(viaHeader.data!.addKnowledge.knowledge.currentVersion.createdBy).toBe('agent:agent-a');
    const nobodyThere = await as(h, relay.key, createdBy, { s: w.A, t: 'relayed-3' }, { 'x-engram-actor': 'agent:ghost' });
    expect(codes(nobodyThere)).toEqual(['FORBIDDEN']);
    const plain = await principal(h, 'plain-service', { kind: 'SERVICE', grants: [[w.A, 'WRITE']] });
    expect(codes(await as(h, plain.key, createdBy, { s: w.A, t: 'relayed-4' }, { 'x-engram-actor': 'agent:agent-a' }))).toEqual(['FORBIDDEN']);
  });

  it('a principal without grants gets FORBIDDEN from lists and null from lookups', async () => {
    expect(codes(await as(h, nobody.key, `{ knowledge { totalCount } }`))).toEqual(['FORBIDDEN']);
    expect((await ok(h, nobody.key, `query($id: ID!) { viewer { principal { name } } }`.replace('($id: ID!)', ''))).viewer.principal.name).toBe('nobody');
  });
});
