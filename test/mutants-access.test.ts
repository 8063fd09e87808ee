// Rules of access.service.ts and targets.ts that mutation testing (npm run mutate) found unchecked:
// the strongest role along a scope's chain, how far a grant reaches down the tree in lists, a READ
// grant on the global scope, GRANTS_READ_GLOBAL in lists, scope chains after a move (this instance
// at once, another within a second), and the scope of each kind of target (versions, messages,
// conflicts, relations, grants, conversations) with its not-found answer.
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { as, ok, principal, type Principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();

const w = {} as Record<'global' | 'O' | 'O2' | 'P' | 'S' | 'Q' | 'SQ' | 'M' | 'M2' | 'globalRule' | 'pRule' | 'KP' | 'KP2' | 'KQ' | 'versionP' | 'versionQ', string>;
const more = {} as Record<'conflictP' | 'relP' | 'conversation' | 'message', string>;
let mixed: Principal; // ADMIN on P, READ on O above it
let mixedUp: Principal; // READ on P, ADMIN on O above it
let orgReader: Principal; // READ on O
let org2Reader: Principal; // READ on O2
let globalReader: Principal; // READ on the global scope, not an admin
let pWriter: Principal; // WRITE on P
let pAdmin: Principal; // ADMIN on P

const missing = (type: string) => Buffer.from(`${type}:01900000-0000-7000-8000-000000000000`).toString('base64');
const ids = (list: { edges: { node: { id: string } }[] }) => list.edges.map((e) => e.node.id).sort();

async function org(name: string): Promise<string> {
  const d = await ok(h, null, `mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: name });
  return d.createOrganization.organization.id;
}
async function project(name: string, o: string | null = null): Promise<string> {
  const d = await ok(h, null, `mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name, o });
  return d.createProject.project.id;
}
async function session(p: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
}

async function knowledge(s: string, title: string): Promise<{ id: string; version: string }> {
  const d = await ok(h, null, `mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) {
    ... on AddKnowledgeSuccess { knowledge { id currentVersion { id } } } } }`, { s, t: title });
  return { id: d.addKnowledge.knowledge.id, version: d.addKnowledge.knowledge.currentVersion.id };
}
async function guideline(s: string, name: string): Promise<string> {
  const d = await ok(h, null, `mutation($s: ID!, $n: String!) { addGuideline(input: { scope: $s, name: $n, content: "c" }) { ... on AddGuidelineSuccess { guideline { id } } } }`, { s, n: name });
  return d.addGuideline.guideline.id;
}

beforeAll(async () => {
  w.global = (await ok(h, null, `{ globalScope { id } }`)).globalScope.id;
  w.O = await org('mut-org');
  w.O2 = await org('mut-org-2');
  w.P = await project('mut-p', w.O);
  w.S = await session(w.P);
  w.Q = await project('mut-q');
  w.SQ = await session(w.Q);
  w.M = await project('mut-moved');
  w.M2 = await project('mut-moved-elsewhere');
  w.globalRule = await guideline(w.global, 'mut-global-rule');
  w.pRule = await guideline(w.P, 'mut-p-rule');
  const kp = await knowledge(w.P, 'kp');
  [w.KP, w.versionP] = [kp.id, kp.version];
  w.KP2 = (await knowledge(w.P, 'kp2')).id;
  const kq = await knowledge(w.Q, 'kq');
  [w.KQ, w.versionQ] = [kq.id, kq.version];
  // Two writers within the conflict window: a conflict on KP.
  const update = `mutation($id: ID!, $a: String!) { updateKnowledge(input: { id: $id, content: $a, author: $a }) { __typename } }`;
  await ok(h, null, update, { id: w.KP, a: 'agent:x' });
  await ok(h, null, update, { id: w.KP, a: 'agent:y' });
  more.conflictP = (await ok(h, null, `{ conflicts { edges { node { id } } } }`)).conflicts.edges[0].node.id;
  more.relP = (
    await ok(h, null, `mutation($s: ID!, $t: ID!) { createRelation(input: { source: $s, target: $t, type: RELATED_TO }) { ... on CreateRelationSuccess { relation { id } } } }`, {
      s: w.KP,
      t: w.KP2,
    })
  ).createRelation.relation.id;
  more.conversation = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: w.S }))
    .startConversation.conversation.id;
  more.message = (await ok(h, null, `mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "hi" }) { ... on AddMessageSuccess { added { id } } } }`, { c: more.conversation }))
    .addMessage.added.id;

  mixed = await principal(h, 'mut-mixed', { grants: [[w.P, 'ADMIN'], [w.O, 'READ']] });
  mixedUp = await principal(h, 'mut-mixed-up', { grants: [[w.P, 'READ'], [w.O, 'ADMIN']] });
  orgReader = await principal(h, 'mut-org-reader', { grants: [[w.O, 'READ']] });
  org2Reader = await principal(h, 'mut-org2-reader', { grants: [[w.O2, 'READ']] });
  globalReader = await principal(h, 'mut-global-reader', { grants: [[w.global, 'READ']] });
  pWriter = await principal(h, 'mut-p-writer', { grants: [[w.P, 'WRITE']] });
  pAdmin = await principal(h, 'mut-p-admin', { grants: [[w.P, 'ADMIN']] });
});

const SET_PROJECT_STATE = `mutation($p: ID!, $v: JSON!) { setState(input: { owner: { project: $p }, key: "project:build", value: $v }) { __typename } }`;

describe(`access rules found by mutation testing (${DB_KIND})`, () => {
  it('the strongest role along the chain decides, whichever end of it holds it', async () => {
    // project: writes need ADMIN on the project: a nearer ADMIN beats a farther READ, and the reverse.
    expect((await ok(h, mixed.key, SET_PROJECT_STATE, { p: w.P, v: 'make' })).setState.__typename).toBe('SetStateSuccess');
    expect((await ok(h, mixedUp.key, SET_PROJECT_STATE, { p: w.P, v: 'ninja' })).setState.__typename).toBe('SetStateSuccess');
    expect((await ok(h, orgReader.key, SET_PROJECT_STATE, { p: w.P, v: 'cmake' })).setState.__typename).toBe('PermissionDeniedError');
  });

  it('a grant on an organization lists its projects and their sessions, nothing of other projects', async () => {
    const d = await ok(h, orgReader.key, `{ sessions { totalCount edges { node { id } } } projects { totalCount edges { node { id } } } }`);
    expect({ sessions: ids(d.sessions), projects: ids(d.projects), counts: [d.sessions.totalCount, d.projects.totalCount] }).toEqual({
      sessions: [w.S],
      projects: [w.P],
      counts: [1, 1],
    });
  });

  it('a READ grant on the global scope lists everything, sessions of projects in organizations included', async () => {
    const query = `{ sessions { totalCount edges { node { id } } } projects { totalCount } }`;
    const d = await ok(h, globalReader.key, query);
    expect(ids(d.sessions)).toEqual([w.S, w.SQ].sort());
    expect(d).toEqual(await ok(h, null, query));
    // It reads, but is no admin: a write is refused.
    expect((await ok(h, globalReader.key, SET_PROJECT_STATE, { p: w.Q, v: 'x' })).setState.__typename).toBe('PermissionDeniedError');
  });

  it('lists include the global scope entries only while GRANTS_READ_GLOBAL is on', async () => {
    const query = `{ guidelines { totalCount edges { node { id } } } }`;
    expect(ids((await ok(h, pWriter.key, query)).guidelines)).toEqual([w.globalRule, w.pRule].sort());
    const strict = createApp({ database: h.database, access: { globalReadable: false } });
    try {
      const response = await strict.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${pWriter.key}` },
        body: JSON.stringify({ query }),
      });
      const d = (await response.json()) as { data: { guidelines: { totalCount: number; edges: { node: { id: string } }[] } } };
      expect(d.data.guidelines).toEqual({ totalCount: 1, edges: [{ node: { id: w.pRule } }] });
    } finally {
      await strict.stop(1_000);
    }
  });

  it('a project moved through this instance is read under its new place at once', async () => {
    const read = `query($id: ID!) { node(id: $id) { id } }`;
    expect((await ok(h, org2Reader.key, read, { id: w.M })).node).toBeNull();
    const moved = await ok(h, null, `mutation($id: ID!, $o: ID!) { moveProject(input: { id: $id, organization: $o }) { __typename } }`, { id: w.M, o: w.O2 });
    expect(moved.moveProject.__typename).toBe('MoveProjectSuccess');
    expect((await ok(h, org2Reader.key, read, { id: w.M })).node).toEqual({ id: w.M });
  });

  it('a project moved through another instance is read under its new place within a second', async () => {
    const other = createApp({ database: h.database });
    const read = async () => {
      const response = await other.yoga.fetch('http://engram.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${org2Reader.key}` },
        body: JSON.stringify({ query: `query($id: ID!) { node(id: $id) { id } }`, variables: { id: w.M2 } }),
      });
      return ((await response.json()) as { data: { node: unknown } }).data.node;
    };
    try {
      expect(await read()).toBeNull();
      await ok(h, null, `mutation($id: ID!, $o: ID!) { moveProject(input: { id: $id, organization: $o }) { __typename } }`, { id: w.M2, o: w.O2 });
      await sleep(1_100);
      expect(await read()).toEqual({ id: w.M2 });
    } finally {
      await other.stop(1_000);
    }
  });
});

describe(`targets: the scope of each kind of row (${DB_KIND})`, () => {
  const NODE = `query($id: ID!) { node(id: $id) { id } }`;

  it('versions, messages, conflicts and relations are read by who reads their scope, and by nobody else', async () => {
    for (const id of [w.versionP, more.message, more.conflictP, more.relP]) {
      expect([id, (await ok(h, orgReader.key, NODE, { id })).node]).toEqual([id, { id }]);
      expect([id, (await ok(h, org2Reader.key, NODE, { id })).node]).toEqual([id, null]);
    }
    expect((await ok(h, orgReader.key, NODE, { id: w.versionQ })).node).toBeNull();
  });

  it('a missing conversation, relation or grant is NOT_FOUND for a principal, with the path it came from', async () => {
    const fields = `__typename ... on UserError { code path message }`;
    const message = await ok(h, pWriter.key, `mutation($c: ID!) { addMessage(input: { conversation: $c, role: USER, content: "x" }) { ${fields} } }`, {
      c: missing('Conversation'),
    });
    expect(message.addMessage).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'conversation'], message: 'No conversation has this id' });
    const relation = await ok(h, pWriter.key, `mutation($id: ID!) { deleteRelation(input: { id: $id }) { ${fields} } }`, { id: missing('Relation') });
    expect(relation.deleteRelation).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'id'], message: 'No relation has this id' });
    const grant = await ok(h, pAdmin.key, `mutation($id: ID!) { revokeGrant(input: { id: $id }) { ${fields} } }`, { id: missing('Grant') });
    expect(grant.revokeGrant).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', path: ['input', 'id'], message: 'No grant has this id' });
  });

  it('a refusal names the thing as the field calls it (a session, not a scope)', async () => {
    const del = await as(h, pAdmin.key, `mutation($id: ID!) { deleteSession(input: { id: $id }) { __typename ... on UserError { code message } } }`, { id: missing('Session') });
    expect(del.data!.deleteSession).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'No session has this id' });
  });
});
