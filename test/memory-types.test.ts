// Memory types, importance and access tracking (issue #13).
import { describe, expect, it } from 'vitest';
import { as, ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness({ app: { accessFlushMs: 50 } });

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
const QUERY = `query($s: ID!, $t: [MemoryType!]) { memoryQuery(input: { scope: $s, inherit: false, memoryTypes: $t }) { edges { node { id memoryType } } } }`;

describe(`memory types (${DB_KIND})`, () => {
  it('are fixed where the item says it, chosen where not, and filter memoryQuery and context', async () => {
    const p = await project('types');
    const tool = await ok(h, null, `mutation($s: ID!) { addTool(input: { scope: $s, name: "t", description: "d", importance: 0.9 }) { ... on AddToolSuccess { tool { id memoryType importance } } } }`, { s: p });
    expect(tool.addTool.tool).toMatchObject({ memoryType: 'PROCEDURAL', importance: 0.9 });
    const guideline = await ok(h, null, `mutation($s: ID!) { addGuideline(input: { scope: $s, name: "g", content: "c" }) { ... on AddGuidelineSuccess { guideline { id memoryType importance } } } }`, { s: p });
    expect(guideline.addGuideline.guideline).toMatchObject({ memoryType: 'PROCEDURAL', importance: 0.5 });
    const add = `mutation($s: ID!, $t: String!, $m: MemoryType) { addKnowledge(input: { scope: $s, title: $t, content: "c", memoryType: $m }) {
      __typename ... on AddKnowledgeSuccess { knowledge { id memoryType } } ... on ValidationError { issues { path message } } } }`;
    const fact = (await ok(h, null, add, { s: p, t: 'fact' })).addKnowledge.knowledge;
    const incident = (await ok(h, null, add, { s: p, t: 'incident', m: 'EPISODIC' })).addKnowledge.knowledge;
    expect([fact.memoryType, incident.memoryType]).toEqual(['SEMANTIC', 'EPISODIC']);
    const wrong = await ok(h, null, add, { s: p, t: 'todo', m: 'PROSPECTIVE' });
    expect(wrong.addKnowledge).toEqual({ __typename: 'ValidationError', issues: [{ path: ['input', 'memoryType'], message: 'a knowledge entry is SEMANTIC or EPISODIC or PROCEDURAL' }] });
    const toolType = await ok(h, null, `mutation($s: ID!) { importEntries(input: { entries: [{ kind: TOOL, scope: $s, name: "t2", memoryType: EPISODIC }] }) { __typename } }`, { s: p });
    expect(toolType.importEntries.__typename).toBe('ValidationError');

    const ids = async (types: string[] | null) =>
      (await ok(h, null, QUERY, { s: p, t: types })).memoryQuery.edges.map((e: { node: { id: string } }) => e.node.id).sort();
    expect(await ids(['EPISODIC'])).toEqual([incident.id]);
    expect(await ids(['PROCEDURAL'])).toEqual([tool.addTool.tool.id, guideline.addGuideline.guideline.id].sort());
    expect(await ids(null)).toHaveLength(4);
    const ctx = await ok(h, null, `query($s: ID!) { context(input: { scope: $s, memoryTypes: [SEMANTIC, EPISODIC] }) { knowledge { node { id } } tools { node { id } } } }`, { s: p });
    expect(ctx.context.tools).toEqual([]);
    expect(ctx.context.knowledge).toHaveLength(2);
    // An update may change the type and the importance; the rest stays.
    const changed = await ok(h, null, `mutation($id: ID!) { updateKnowledge(input: { id: $id, memoryType: EPISODIC, importance: 1 }) { ... on UpdateKnowledgeSuccess { update { entry { memoryType importance } } } } }`, { id: fact.id });
    expect(changed.updateKnowledge.update.entry).toEqual({ memoryType: 'EPISODIC', importance: 1 });
    expect(await ids(['EPISODIC'])).toEqual([fact.id, incident.id].sort());
    const bad = await as(h, null, `mutation($id: ID!) { updateKnowledge(input: { id: $id, importance: 1.5 }) { __typename } }`, { id: fact.id });
    expect(bad.data!.updateKnowledge.__typename).toBe('ValidationError');
  });

  it('tasks are prospective, session events episodic, temp:/session: state working', async () => {
    const p = await project('types-2');
    const task = await ok(h, null, `mutation($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { memoryType } } } }`, { s: p });
    expect(task.createTask.task.memoryType).toBe('PROSPECTIVE');
    const s = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "u" }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const event = await ok(h, null, `mutation($s: ID!, $d: JSON) { appendSessionEvent(input: { session: $s, type: ACTION, actor: "system", stateDelta: $d }) {
      ... on AppendSessionEventSuccess { appended { event { memoryType } } } } }`, { s, d: { 'session:a': 1, 'user:b': 2 } });
    expect(event.appendSessionEvent.appended.event.memoryType).toBe('EPISODIC');
    const state = await ok(h, null, `query($s: ID!) { node(id: $s) { ... on Session { stateEntries { edges { node { key memoryType } } } } } }`, { s });
    expect(state.node.stateEntries.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { key: 'session:a', memoryType: 'WORKING' },
      { key: 'user:b', memoryType: 'SEMANTIC' },
    ]);
  });

  it('reads by memoryQuery, context and node are counted in batches, without touching recency', async () => {
    const p = await project('access');
    const k = (await ok(h, null, `mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "read-me", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id updatedAt } } } }`, { s: p }))
      .addKnowledge.knowledge;
    const read = `query($id: ID!) { node(id: $id) { ... on Knowledge { accessCount lastAccessedAt updatedAt } } }`;
    expect((await ok(h, null, `query($id: ID!) { entry(id: $id) { accessCount lastAccessedAt } }`, { id: k.id })).entry).toEqual({ accessCount: 0, lastAccessedAt: null });
    await ok(h, null, QUERY, { s: p });
    await ok(h, null, `query($s: ID!) { context(input: { scope: $s }) { tokensUsed } }`, { s: p });
    await ok(h, null, read, { id: k.id });
    let seen = { accessCount: 0, lastAccessedAt: null as string | null, updatedAt: '' };
    for (let i = 0; i < 100 && seen.accessCount < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = (await ok(h, null, `query($id: ID!) { entry(id: $id) { accessCount lastAccessedAt updatedAt } }`, { id: k.id })).entry;
    }
    expect(seen.accessCount).toBe(3);
    expect(seen.lastAccessedAt).not.toBeNull();
    expect(seen.updatedAt).toBe(k.updatedAt);
  });
});
