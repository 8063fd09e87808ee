// Redaction of secrets on write (issue #13): by policy per scope a secret is replaced by a marker
// naming its kind, or the write is refused naming the field; the stored text never holds it.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
const TEXT = `the prod password is hunter2, token ${GITHUB}, db postgres://app:s3cr3t@db.internal:5432/prod, ask bob@example.com`;

async function project(name: string): Promise<string> {
  return (await ok(h, null, `mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: name })).createProject.project.id;
}
const ADD = `mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c }) {
  __typename ... on AddKnowledgeSuccess { knowledge { id currentVersion { ... on KnowledgeVersion { content } } } } ... on ValidationError { issues { path message } } } }`;
const POLICY = `mutation($s: ID!, $p: SecretPolicy) { setSecretPolicy(input: { scope: $s, policy: $p }) { __typename ... on SetSecretPolicySuccess { scope { secretPolicy effectiveSecretPolicy } } } }`;

describe(`redaction of secrets (${DB_KIND})`, () => {
  it('by default secrets are replaced by markers naming their kind, in entries, events, state, messages and tasks', async () => {
    const p = await project('redact');
    const added = await ok(h, null, ADD, { s: p, t: 'creds', c: TEXT });
    expect(added.addKnowledge.knowledge.currentVersion.content).toBe(
      'the prod [REDACTED:credential], token [REDACTED:GITHUB_TOKEN], db [REDACTED:PostgreSQLConnection] ask bob@example.com',
    );
    const updated = await ok(h, null, `mutation($id: ID!, $c: String!) { updateKnowledge(input: { id: $id, content: $c }) { ... on UpdateKnowledgeSuccess { update { version { ... on KnowledgeVersion { content } } } } } }`, {
      id: added.addKnowledge.knowledge.id,
      c: `api_key=sk_live_abcdef123456 is new`,
    });
    expect(updated.updateKnowledge.update.version.content).toBe('[REDACTED:credential] is new');
    const session = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const event = await ok(h, null, `mutation($s: ID!, $c: JSON, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "user", content: $c, stateDelta: $d }) {
      ... on AppendSessionEventSuccess { appended { event { content } } } } }`, { s: session, c: { text: `use ${GITHUB}`, n: 3 }, d: { 'session:tok': GITHUB } });
    expect(event.appendSessionEvent.appended.event.content).toEqual({ text: 'use [REDACTED:GITHUB_TOKEN]', n: 3 });
    const state = await ok(h, null, `query($s: ID!) { node(id: $s) { ... on Session { state(key: "session:tok") { value } } } }`, { s: session });
    expect(state.node.state.value).toBe('[REDACTED:GITHUB_TOKEN]');
    const task = await ok(h, null, `mutation($s: ID!) { createTask(input: { scope: $s, title: "rotate", description: "old one was password: hunter22" }) { ... on CreateTaskSuccess { task { description } } } }`, { s: p });
    expect(task.createTask.task.description).toBe('old one was [REDACTED:credential]');
    const conv = (await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, { s: session })).startConversation
      .conversation.id;
    const message = await ok(h, null, `mutation($c: ID!, $t: String!) { addMessage(input: { conversation: $c, role: USER, content: $t }) { ... on AddMessageSuccess { added { content } } } }`, {
      c: conv,
      t: `here: ${GITHUB}`,
    });
    expect(message.addMessage.added.content).toBe('here: [REDACTED:GITHUB_TOKEN]');
    // Nothing of the secret is searchable either.
    const search = await ok(h, null, `query($s: ID!) { memoryQuery(input: { scope: $s, search: "hunter2" }) { edges { node { id } } } }`, { s: p });
    expect(search.memoryQuery.edges).toEqual([]);
  });

  it('REFUSE refuses the write naming the field and the kind, and writes nothing; ALLOW stores as written; policies inherit', async () => {
    const p = await project('refuse');
    const set = await ok(h, null, POLICY, { s: p, p: 'REFUSE' });
    expect(set.setSecretPolicy.scope).toEqual({ secretPolicy: 'REFUSE', effectiveSecretPolicy: 'REFUSE' });
    const refused = await ok(h, null, ADD, { s: p, t: 'creds', c: `token ${GITHUB}` });
    expect(refused.addKnowledge).toEqual({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'content'], message: 'holds a secret (GITHUB_TOKEN); this scope refuses secrets' }],
    });
    expect(JSON.stringify(refused)).not.toContain(GITHUB);
    const none = await ok(h, null, `query($s: ID!) { knowledge(filter: { scope: $s }) { totalCount } }`, { s: p });
    expect(none.knowledge.totalCount).toBe(0);
    // A session below inherits REFUSE.
    const session = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id secretPolicy effectiveSecretPolicy } } } }`, { p }))
      .startSession.session;
    expect([session.secretPolicy, session.effectiveSecretPolicy]).toEqual([null, 'REFUSE']);
    await ok(h, null, POLICY, { s: p, p: 'ALLOW' });
    const allowed = await ok(h, null, ADD, { s: p, t: 'creds', c: `token ${GITHUB}` });
    expect(allowed.addKnowledge.knowledge.currentVersion.content).toBe(`token ${GITHUB}`);
    const cleared = await ok(h, null, POLICY, { s: p, p: null });
    expect(cleared.setSecretPolicy.scope).toEqual({ secretPolicy: null, effectiveSecretPolicy: 'REDACT' });
  });

  it('findings that overlap are redacted together, named by the first: no part of either is left in clear', async () => {
    // The credential pattern takes "Bearer" for the value and ends there; the bearer token starts
    // inside it and runs on. Dropping the second finding left the token in clear (and the
    // credential was named bearer-token because its matched text said "Bearer").
    const p = await project('overlap');
    for (const [i, [text, kept]] of [
      ['access_token: Bearer abcdefghijklmnop1234 end', '[REDACTED:credential] end'],
      [`secret is Bearer ${GITHUB} end`, '[REDACTED:credential] end'],
      [`password is ${GITHUB}; done`, '[REDACTED:credential]; done'],
    ].entries()) {
      expect((await ok(h, null, ADD, { s: p, t: `overlap-${i}`, c: text })).addKnowledge.knowledge.currentVersion.content).toBe(kept);
    }
  });

  it('a secretlint-disable comment in the text does not turn the scanner off', async () => {
    // secretlint's preset honours such comments in the files it lints; in a memory they would let
    // any writer store secrets in clear (and pass a REFUSE policy).
    const p = await project('disable-comment');
    for (const [i, [text, kept]] of [
      ['<!-- secretlint-disable --> pwd=hunter22', '<!-- secretlint-disable --> [REDACTED:credential]'],
      [`// secretlint-disable-next-line\ntoken ${GITHUB}`, '// secretlint-disable-next-line\ntoken [REDACTED:GITHUB_TOKEN]'],
    ].entries()) {
      expect((await ok(h, null, ADD, { s: p, t: `disable-${i}`, c: text })).addKnowledge.knowledge.currentVersion.content).toBe(kept);
    }
    await ok(h, null, POLICY, { s: p, p: 'REFUSE' });
    const refused = (await ok(h, null, ADD, { s: p, t: 'disable-refused', c: 'secretlint-disable\npassword: hunter22' })).addKnowledge;
    expect(refused).toEqual({ __typename: 'ValidationError', issues: [{ path: ['input', 'content'], message: 'holds a secret (credential); this scope refuses secrets' }] });
  });

  it('scanning leaves nothing behind in the process: no performance marks or measures pile up write after write', async () => {
    // secretlint's profiler marked every rule of every scan in Node's global timeline, kept until
    // cleared: memory grew with every write and each scan got slower.
    const p = await project('no-marks');
    performance.clearMarks();
    performance.clearMeasures();
    for (let i = 0; i < 5; i++) {
      const added = await ok(h, null, ADD, { s: p, t: `creds ${i}`, c: `${TEXT} ${i}` });
      expect(added.addKnowledge.knowledge.currentVersion.content).toContain('[REDACTED:GITHUB_TOKEN]');
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(performance.getEntriesByType('mark')).toEqual([]);
    expect(performance.getEntriesByType('measure')).toEqual([]);
  });
});
