// Rules of entry-edits.service.ts and scope-edits.service.ts that mutation testing (npm run mutate)
// found unchecked: the argument and message of each refusal of rollbackEntry, renameEntry and
// moveProject, the reason and author a rollback or rename records, the trimmed new name, and that
// updateOrganization and updateSession only change their own kind of scope.
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
let n = 0;
const dbId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':').slice(1).join(':');
/** The database id `id` under another type's name: the API decodes it, the service must check the kind. */
const retyped = (type: string, id: string) => Buffer.from(`${type}:${id.includes('-') || id === 'global' ? id : dbId(id)}`).toString('base64');
const MISSING = '01900000-0000-7000-8000-000000000000';

async function org(): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createOrganization(input: { name: $n }) { ... on CreateOrganizationSuccess { organization { id } } } }`, { n: `medit-org-${++n}` }))
    .createOrganization.organization.id;
}
async function project(organization: string | null = null, name = `medit-${++n}`): Promise<string> {
  return (await ok(h, null, `mutation($n: String!, $o: ID) { createProject(input: { name: $n, organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name, o: organization }))
    .createProject.project.id;
}
async function session(p: string): Promise<string> {
  return (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
}
async function tool(scope: string, name: string, description = 'd1'): Promise<string> {
  return (await ok(h, null, `mutation($s: ID!, $n: String!, $d: String!) { addTool(input: { scope: $s, name: $n, description: $d }) { ... on AddToolSuccess { tool { id } } } }`, { s: scope, n: name, d: description }))
    .addTool.tool.id;
}

const ROLLBACK = `mutation($i: RollbackEntryInput!) { rollbackEntry(input: $i) { __typename
  ... on RollbackEntrySuccess { update { version { version changeReason createdBy ... on ToolVersion { description } } } }
  ... on ValidationError { issues { path message } } ... on UserError { message path } } }`;
const RENAME = `mutation($i: RenameEntryInput!) { renameEntry(input: $i) { __typename
  ... on RenameEntrySuccess { update { entry { name } version { version changeReason createdBy ... on ToolVersion { description } } } }
  ... on ValidationError { issues { path message } } ... on UserError { message path } } }`;
const MOVE = `mutation($id: ID!, $o: ID) { moveProject(input: { id: $id, organization: $o }) { __typename
  ... on MoveProjectSuccess { project { organization { id } } } ... on UserError { message path } } }`;

describe(`entry edits found by mutation testing (${DB_KIND})`, () => {
  it('rollbackEntry refuses a version below 1 and a long reason, both at once; a missing entry or version is NOT_FOUND', async () => {
    const id = await tool(await project(), 'rb');
    const bad = (await ok(h, null, ROLLBACK, { i: { id, version: 0, changeReason: 'x'.repeat(1001) } })).rollbackEntry;
    expect(bad).toMatchObject({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'version'], message: 'must be an integer between 1 and 2147483647' },
        { path: ['input', 'changeReason'], message: 'must be at most 1000 characters (got 1001)' },
      ],
    });
    expect((await ok(h, null, ROLLBACK, { i: { id, version: 1, changeReason: 'x'.repeat(1000) } })).rollbackEntry.__typename).toBe('RollbackEntrySuccess');
    expect((await ok(h, null, ROLLBACK, { i: { id: retyped('Tool', MISSING), version: 1 } })).rollbackEntry).toEqual({
      __typename: 'NotFoundError',
      message: 'No entry has this id',
      path: ['input', 'id'],
    });
  });

  it('rollbackEntry records the reason and author given', async () => {
    const id = await tool(await project(), 'rb-why');
    await ok(h, null, `mutation($id: ID!) { updateTool(input: { id: $id, description: "d2" }) { __typename } }`, { id });
    const rolled = (await ok(h, null, ROLLBACK, { i: { id, version: 1, changeReason: 'd2 was wrong', author: 'agent:undo' } })).rollbackEntry;
    expect(rolled.update.version).toEqual({ version: 3, changeReason: 'd2 was wrong', createdBy: 'agent:undo', description: 'd1' });
  });

  it('renameEntry trims the name, keeps the content and records the author; refuses a blank or long name; names the kind of a clash', async () => {
    const p = await project();
    const id = await tool(p, 'before', 'keep me');
    await tool(p, 'taken');
    const renamed = (await ok(h, null, RENAME, { i: { id, name: '  after  ', author: 'agent:namer' } })).renameEntry;
    expect(renamed.update).toEqual({
      entry: { name: 'after' },
      version: { version: 2, changeReason: 'Renamed from "before" to "after"', createdBy: 'agent:namer', description: 'keep me' },
    });
    expect((await ok(h, null, RENAME, { i: { id, name: '   ' } })).renameEntry).toMatchObject({ __typename: 'ValidationError', issues: [{ path: ['input', 'name'], message: 'must not be blank' }] });
    expect((await ok(h, null, RENAME, { i: { id, name: 'n'.repeat(201) } })).renameEntry).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'name'], message: 'must be at most 200 characters (got 201)' }],
    });
    expect((await ok(h, null, RENAME, { i: { id, name: ' taken ' } })).renameEntry).toEqual({
      __typename: 'AlreadyExistsError',
      message: 'The scope already has a tool named "taken"',
      path: ['input', 'name'],
    });
    expect((await ok(h, null, RENAME, { i: { id: retyped('Tool', MISSING), name: 'x' } })).renameEntry).toEqual({
      __typename: 'NotFoundError',
      message: 'No entry has this id',
      path: ['input', 'id'],
    });
    expect((await ok(h, null, `query($id: ID!) { entry(id: $id) { name latestVersion } }`, { id })).entry).toEqual({ name: 'after', latestVersion: 2 });
  });
});

describe(`entry edits settle no conflict (${DB_KIND})`, () => {
  it('a rollback or rename right after another writer\'s version is no conflict: they say what they do', async () => {
    const p = await project();
    const id = (await ok(h, null, `mutation($s: ID!) { addTool(input: { scope: $s, name: "contested", description: "d1", author: "agent:first" }) { ... on AddToolSuccess { tool { id } } } }`, { s: p }))
      .addTool.tool.id;
    await ok(h, null, `mutation($id: ID!) { updateTool(input: { id: $id, description: "d2", author: "agent:first" }) { __typename } }`, { id });
    const EDIT = `update { conflict { id } version { version conflictFlag } }`;
    const rolled = (await ok(h, null, `mutation($id: ID!) { rollbackEntry(input: { id: $id, version: 1, author: "agent:second" }) { ... on RollbackEntrySuccess { ${EDIT} } } }`, { id })).rollbackEntry;
    expect(rolled.update).toEqual({ conflict: null, version: { version: 3, conflictFlag: false } });
    await ok(h, null, `mutation($id: ID!) { updateTool(input: { id: $id, description: "d4", author: "agent:first" }) { __typename } }`, { id });
    const renamed = (await ok(h, null, `mutation($id: ID!) { renameEntry(input: { id: $id, name: "settled", author: "agent:second" }) { ... on RenameEntrySuccess { ${EDIT} } } }`, { id })).renameEntry;
    expect(renamed.update).toEqual({ conflict: null, version: { version: 5, conflictFlag: false } });
  });
});

describe(`scope edits found by mutation testing (${DB_KIND})`, () => {
  it('moveProject: only a project moves, only under an organization or global; each refusal names its argument', async () => {
    const o = await org();
    const p = await project(o, 'mover');
    const s = await session(p);
    expect((await ok(h, null, MOVE, { id: retyped('Project', s), o: null })).moveProject).toEqual({ __typename: 'NotFoundError', message: 'No project has this id', path: ['input', 'id'] });
    expect((await ok(h, null, MOVE, { id: retyped('Project', MISSING), o: null })).moveProject).toEqual({ __typename: 'NotFoundError', message: 'No project has this id', path: ['input', 'id'] });
    const other = await project();
    expect((await ok(h, null, MOVE, { id: p, o: retyped('Organization', other) })).moveProject).toEqual({
      __typename: 'InvalidPlacementError',
      message: 'A project goes under an organization or global, not a project',
      path: ['input', 'organization'],
    });
    expect((await ok(h, null, MOVE, { id: p, o: retyped('Organization', s) })).moveProject).toMatchObject({
      __typename: 'InvalidPlacementError',
      message: 'A project goes under an organization or global, not a session',
    });
    const missingOrg = (await ok(h, null, MOVE, { id: p, o: retyped('Organization', MISSING) })).moveProject;
    expect(missingOrg).toEqual({ __typename: 'NotFoundError', message: 'No scope has this id', path: ['input', 'organization'] });
    // Nothing moved; then under global, named explicitly, where a namesake makes it a clash.
    expect((await ok(h, null, `query($id: ID!) { node(id: $id) { ... on Project { organization { id } } } }`, { id: p })).node).toEqual({ organization: { id: o } });
    expect((await ok(h, null, MOVE, { id: p, o: retyped('GlobalScope', 'global') })).moveProject).toEqual({ __typename: 'MoveProjectSuccess', project: { organization: null } });
    await project(o, 'mover');
    expect((await ok(h, null, MOVE, { id: p, o })).moveProject).toEqual({
      __typename: 'AlreadyExistsError',
      message: 'The destination already has a project of this name',
      path: ['input', 'organization'],
    });
  });

  it('updateOrganization changes only organizations, updateSession only sessions', async () => {
    const p = await project();
    const s = await session(p);
    const o = await org();
    const updOrg = `mutation($id: ID!) { updateOrganization(input: { id: $id, description: "x" }) { __typename ... on UserError { message path } } }`;
    const updSession = `mutation($id: ID!) { updateSession(input: { id: $id, purpose: "x" }) { __typename ... on UserError { message path } } }`;
    expect((await ok(h, null, updOrg, { id: retyped('Organization', p) })).updateOrganization).toEqual({ __typename: 'NotFoundError', message: 'No organization has this id', path: ['input', 'id'] });
    expect((await ok(h, null, updSession, { id: retyped('Session', p) })).updateSession).toEqual({ __typename: 'NotFoundError', message: 'No session has this id', path: ['input', 'id'] });
    expect((await ok(h, null, updOrg, { id: o })).updateOrganization.__typename).toBe('UpdateOrganizationSuccess');
    expect((await ok(h, null, updSession, { id: s })).updateSession.__typename).toBe('UpdateSessionSuccess');
  });
});
