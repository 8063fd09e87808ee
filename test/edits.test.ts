// Editing what was missing (issue #13): roll back and rename entries, update organizations and
// sessions, move projects, restore archived sessions. History is never rewritten.
import { describe, expect, it } from 'vitest';
import { as, ok, principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
let n = 0;

async function org(name = `org-${++n}`): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: name }))
    .createOrganization.organization.id;
}
async function project(organization: string | null, name = `p-${++n}`): Promise<string> {
  return (
    await ok(h, null, `mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, {
      n: name,
      o: organization,
    })
  ).createProject.project.id;
}
async function session(projectId: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p: projectId })).startSession
    .session.id;
}

const VERSIONS = `query($id: ID!) { entry(id: $id) { name latestVersion versions { edges { node { version changeReason ... on ToolVersion { description constraints } ... on KnowledgeVersion { content } } } } } }`;

describe(`editing entries and scopes (${DB_KIND})`, () => {
  it('rollbackEntry appends a version equal to version N, nulls included; history stays', async () => {
    const p = await project(null);
    const tool = (await ok(h, null, `mutation($s: ID!) { addTool(input: { scope: $s, name: "grep", description: "d1" }) { ... on AddToolSuccess { tool { id } } } }`, { s: p })).addTool.tool.id;
    await ok(h, null, `mutation($id: ID!) { updateTool(input: { id: $id, description: "d2", constraints: "no -r" }) { __typename } }`, { id: tool });
    const rolled = await ok(
      h,
      null,
      `mutation($id: ID!) { rollbackEntry(input: { id: $id, version: 1 }) { __typename ... on RollbackEntrySuccess { update { version { version changeReason } conflicted } } } }`,
      { id: tool },
    );
    expect(rolled.rollbackEntry).toEqual({ __typename: 'RollbackEntrySuccess', update: { version: { version: 3, changeReason: 'Rolled back to version 1' }, conflicted: false } });
    const history = (await ok(h, null, VERSIONS, { id: tool })).entry.versions.edges.map((e: { node: unknown }) => e.node);
    expect(history).toEqual([
      { version: 3, changeReason: 'Rolled back to version 1', description: 'd1', constraints: null },
      { version: 2, changeReason: null, description: 'd2', constraints: 'no -r' },
      { version: 1, changeReason: null, description: 'd1', constraints: null },
    ]);
    const missing = await ok(h, null, `mutation($id: ID!) { rollbackEntry(input: { id: $id, version: 9 }) { __typename ... on UserError { message path } } }`, { id: tool });
    expect(missing.rollbackEntry).toEqual({ __typename: 'NotFoundError', message: 'The entry has no version 9', path: ['input', 'version'] });
  });

  it('renameEntry records the rename in a version; the old name stops resolving; a taken name changes nothing', async () => {
    const p = await project(null);
    const add = `mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "zebra stripes" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`;
    const k = (await ok(h, null, add, { s: p, t: 'old-title' })).addKnowledge.knowledge.id;
    await ok(h, null, add, { s: p, t: 'taken' });
    const renamed = await ok(h, null, `mutation($id: ID!) { renameEntry(input: { id: $id, name: "new-title" }) { __typename ... on RenameEntrySuccess { update { entry { name } version { version changeReason } } } } }`, {
      id: k,
    });
    expect(renamed.renameEntry.update).toEqual({ entry: { name: 'new-title' }, version: { version: 2, changeReason: 'Renamed from "old-title" to "new-title"' } });
    const byName = `query($s: ID!, $n: String!) { entryByName(scope: $s, kind: KNOWLEDGE, name: $n) { id } }`;
    expect((await ok(h, null, byName, { s: p, n: 'old-title' })).entryByName).toBeNull();
    expect((await ok(h, null, byName, { s: p, n: 'new-title' })).entryByName).toEqual({ id: k });
    // The search index follows the name.
    const found = await ok(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s, search: "new-title", inherit: false }) { edges { node { id } } } }`, { s: p });
    expect(found.memoryQuery.edges).toEqual([{ node: { id: k } }]);
    const clash = await ok(h, null, `mutation($id: ID!) { renameEntry(input: { id: $id, name: "taken" }) { __typename ... on UserError { path } } }`, { id: k });
    expect(clash.renameEntry).toEqual({ __typename: 'AlreadyExistsError', path: ['input', 'name'] });
    expect((await ok(h, null, VERSIONS, { id: k })).entry).toMatchObject({ name: 'new-title', latestVersion: 2 });
  });

  it('updateOrganization and updateSession change their fields; names stay unique; an archived session is read-only', async () => {
    const o = await org('acme-edit');
    await org('taken-org');
    const updated = await ok(h, null, `mutation($id: ID!) { updateOrganization(input: { id: $id, name: "acme-2", description: "d" }) { ... on UpdateOrganizationSuccess { organization { name description } } } }`, {
      id: o,
    });
    expect(updated.updateOrganization.organization).toEqual({ name: 'acme-2', description: 'd' });
    const clash = await ok(h, null, `mutation($id: ID!) { updateOrganization(input: { id: $id, name: "taken-org" }) { __typename } }`, { id: o });
    expect(clash.updateOrganization.__typename).toBe('AlreadyExistsError');
    const s = await session(await project(o));
    const changed = await ok(h, null, `mutation($id: ID!) { updateSession(input: { id: $id, name: "run-1", purpose: "fix" }) { ... on UpdateSessionSuccess { session { name purpose } } } }`, {
      id: s,
    });
    expect(changed.updateSession.session).toEqual({ name: 'run-1', purpose: 'fix' });
    await ok(h, null, `mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: s });
    await ok(h, null, `mutation($id: ID!) { archiveSession(input: { id: $id }) { __typename } }`, { id: s });
    const archived = await ok(h, null, `mutation($id: ID!) { updateSession(input: { id: $id, purpose: "x" }) { __typename ... on InvalidStateError { currentState } } }`, { id: s });
    expect(archived.updateSession).toEqual({ __typename: 'InvalidStateError', currentState: 'ARCHIVED' });
  });

  it('restoreSession brings an archived session back as COMPLETED, writable again; only from ARCHIVED', async () => {
    const p = await project(null);
    const s = await session(p);
    const restore = `mutation($id: ID!) { restoreSession(input: { id: $id }) { __typename ... on RestoreSessionSuccess { transition { session { status archivedAt endedAt } event { content } } } ... on InvalidStateError { currentState } } }`;
    expect((await ok(h, null, restore, { id: s })).restoreSession).toEqual({ __typename: 'InvalidStateError', currentState: 'ACTIVE' });
    await ok(h, null, `mutation($id: ID!) { completeSession(input: { id: $id }) { __typename } }`, { id: s });
    await ok(h, null, `mutation($id: ID!) { archiveSession(input: { id: $id }) { __typename } }`, { id: s });
    const add = `mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "after", content: "c" }) { __typename } }`;
    expect((await ok(h, null, add, { s })).addKnowledge.__typename).toBe('InvalidStateError');
    const restored = (await ok(h, null, restore, { id: s })).restoreSession;
    expect(restored.transition.session).toMatchObject({ status: 'COMPLETED', archivedAt: null });
    expect(restored.transition.session.endedAt).not.toBeNull();
    expect(restored.transition.event.content).toEqual({ from: 'ARCHIVED', to: 'COMPLETED' });
    expect((await ok(h, null, add, { s })).addKnowledge.__typename).toBe('AddKnowledgeSuccess');
  });

  it('moveProject moves a project and its sessions: grants follow the tree at once', async () => {
    const x = await org('x-org');
    const y = await org('y-org');
    const p = await project(x, 'moving');
    const s = await session(p);
    const onX = await principal(h, 'on-x', { grants: [[x, 'READ']] });
    const onY = await principal(h, 'on-y', { grants: [[y, 'WRITE']] });
    const read = `query($id: ID!) { node(id: $id) { id } }`;
    expect((await ok(h, onX.key, read, { id: s })).node).toEqual({ id: s });
    expect((await ok(h, onY.key, read, { id: s })).node).toBeNull();
    // Moving needs ADMIN on the project: WRITE on the destination alone is not enough.
    const move = `mutation($id: ID!, $o: ID) { moveProject(input: { id: $id, organization: $o }) { __typename ... on MoveProjectSuccess { project { organization { id } } } } }`;
    expect((await ok(h, onY.key, move, { id: p, o: y })).moveProject.__typename).toBe('NotFoundError');
    const moved = await ok(h, null, move, { id: p, o: y });
    expect(moved.moveProject).toEqual({ __typename: 'MoveProjectSuccess', project: { organization: { id: y } } });
    expect((await ok(h, onX.key, read, { id: s })).node).toBeNull();
    expect((await ok(h, onY.key, read, { id: s })).node).toEqual({ id: s });
    await project(x, 'moving');
    const back = await as(h, null, move, { id: p, o: x });
    expect(back.data!.moveProject.__typename).toBe('AlreadyExistsError');
    const toGlobal = await ok(h, null, move, { id: p, o: null });
    expect(toGlobal.moveProject).toEqual({ __typename: 'MoveProjectSuccess', project: { organization: null } });
  });

  it('memoryQuery follows a move and a deletion at once (its cached chains are forgotten)', async () => {
    const x = await org('chain-x');
    const y = await org('chain-y');
    const p = await project(x, 'chain-moving');
    const s = await session(p);
    await ok(h, null, `mutation($s: ID!) { addTool(input: { scope: $s, name: "on-y", description: "only under y" }) { __typename } }`, { s: y });
    const chain = `query($s: ID!) { memoryQuery(input: { scope: $s }) { scopeChain { id } edges { node { name } } } }`;
    const ids = async () => (await ok(h, null, chain, { s })).memoryQuery.scopeChain.map((c: { id: string }) => c.id);
    expect((await ids()).slice(0, 3)).toEqual([s, p, x]);
    await ok(h, null, `mutation($id: ID!, $o: ID) { moveProject(input: { id: $id, organization: $o }) { __typename } }`, { id: p, o: y });
    expect((await ids()).slice(0, 3)).toEqual([s, p, y]);
    expect((await ok(h, null, chain, { s })).memoryQuery.edges).toEqual([{ node: { name: 'on-y' } }]);
    await ok(h, null, `mutation($id: ID!) { deleteSession(input: { id: $id }) { __typename } }`, { id: s });
    const gone = await as(h, null, chain, { s });
    expect(gone.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
