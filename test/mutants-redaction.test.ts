// Rules of redaction.service.ts and secrets.ts that mutation testing (npm run mutate) found
// unchecked: which values of a write are screened (one secret among nulls and absent fields, JSON
// walked through arrays, objects and nulls), the shortest secret, each kind's marker, overlapping
// findings, REFUSE's message (each kind once) and the path of each refused field, and that a clean
// write under REFUSE goes through.
import { describe, expect, it } from 'vitest';
import { as, codes, ok } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
let n = 0;
const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
const m = (query: string, variables: Record<string, unknown> = {}) => ok(h, null, query, variables);

async function project(policy: string | null = null): Promise<string> {
  const p = (await m(`mutation($n: String!) { createProject(input: { name: $n }) { ... on CreateProjectSuccess { project { id } } } }`, { n: `mred-${++n}` })).createProject.project.id as string;
  if (policy) await m(`mutation($s: ID!, $p: SecretPolicy) { setSecretPolicy(input: { scope: $s, policy: $p }) { __typename } }`, { s: p, p: policy });
  return p;
}
const ADD = `mutation($s: ID!, $t: String!, $c: String!) { addKnowledge(input: { scope: $s, title: $t, content: $c }) {
  __typename ... on AddKnowledgeSuccess { knowledge { currentVersion { ... on KnowledgeVersion { content } } } } ... on ValidationError { issues { path message } } } }`;
async function stored(text: string, scope?: string): Promise<string> {
  const answer = (await m(ADD, { s: scope ?? (await project()), t: `t-${++n}`, c: text })).addKnowledge;
  if (answer.__typename !== 'AddKnowledgeSuccess') throw new Error(JSON.stringify(answer));
  return answer.knowledge.currentVersion.content;
}

describe(`secrets found and redacted (${DB_KIND})`, () => {
  it('finds a secret of eight characters, the shortest there is; names bearer tokens and credentials by kind', async () => {
    expect(await stored('pwd=abcd')).toBe('[REDACTED:credential]');
    expect(await stored('pwd=abc')).toBe('pwd=abc');
    expect(await stored('Authorization: Bearer abcdefghijklmnop1234')).toBe('Authorization: [REDACTED:bearer-token]');
    expect(await stored(`${GITHUB} password=zzzzzz;`)).toBe('[REDACTED:GITHUB_TOKEN] [REDACTED:credential];');
  });

  it("an AWS secret access key is redacted whole, wherever its name's run of spaces puts it, and so is the same key written again", async () => {
    // secretlint's rule reports the key's length from where the variable's name starts.
    const key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzorblax123';
    expect(await stored(`prefix AWS_SECRET_ACCESS_KEY=${key} suffix`)).toBe('prefix [REDACTED:AWSSecretAccessKey] suffix');
    expect(await stored(`aws_secret_access_key = "${key}"`)).toBe('[REDACTED:AWSSecretAccessKey]"');
    const spaced = await stored(`AWS_SECRET_ACCESS_KEY${' '.repeat(40)}= ${key} and later ${key} again`);
    expect(spaced).not.toContain('bPxRfiCY');
    expect(spaced.endsWith('[REDACTED:AWSSecretAccessKey] and later [REDACTED:AWSSecretAccessKey] again')).toBe(true);
  });

  it('a bare token is a credential as `token: value` or `token=value`, not in prose', async () => {
    expect(await stored('token: zorblaxqwerty9')).toBe('[REDACTED:credential]');
    expect(await stored('use token=zorblaxqwerty9 here')).toBe('use [REDACTED:credential] here');
    expect(await stored('the token is refreshed hourly')).toBe('the token is refreshed hourly');
  });

  it('finds what secretlint\'s preset misses: short and EC private keys, AWS key ids alone, and providers it has no rule for', async () => {
    const b64 = (n: number) => 'Qk9yZ2xheDEyMzQ1Njc4OWFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(3).slice(0, n);
    const ed25519 = `-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI${b64(43)}\n-----END PRIVATE KEY-----`;
    const ec = `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI${b64(55)}\n${b64(64)}\n${b64(36)}\n-----END EC PRIVATE KEY-----`;
    const samples: [string, string][] = [
      [ed25519, 'private-key'],
      [ec, 'private-key'],
      [`-----BEGIN PRIVATE KEY-----\n${b64(60)}`, 'private-key'], // no END line: to the end of the base64 run
      ['AKIA2E0A8F3B244C9986', 'AWSAccessKeyID'],
      [`sk-proj-${b64(40)}`, 'openai-key'],
      [`SG.${b64(9)}-a-${b64(10)}.${b64(20)}-b-${b64(20)}`, 'sendgrid-key'],
      [`sk_live_${b64(24)}`, 'stripe-key'],
      [`AIzaSy${b64(33)}`, 'google-api-key'],
      [`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${b64(43)}`, 'jwt'],
      [`glpat-${b64(20)}`, 'gitlab-token'],
      [`hf_${b64(34)}`, 'huggingface-token'],
    ];
    for (const [secret, kind] of samples) expect(await stored(`before ${secret} after`)).toBe(`before [REDACTED:${kind}] after`);
    const azure = await stored(`DefaultEndpointsProtocol=https;AccountName=a;AccountKey=${b64(86)}==;EndpointSuffix=core.windows.net`);
    expect(azure).toBe('DefaultEndpointsProtocol=https;AccountName=a;[REDACTED:azure-key];EndpointSuffix=core.windows.net');
    // A key's block in a JSON string (escaped newlines) is taken whole, and so is a key in prose between its markers.
    expect(await stored(`{"private_key": "${ed25519.replaceAll('\n', '\\n')}\\n"}`)).toBe('{"private_key": "[REDACTED:private-key]\\n"}');
    // AWS's documentation example and words that only look like a prefix are left.
    expect(await stored('AKIAIOSFODNN7EXAMPLE, sk-proj-short, the SG.1 release, a hf_ token')).toBe('AKIAIOSFODNN7EXAMPLE, sk-proj-short, the SG.1 release, a hf_ token');
  });

  it('findings that touch without overlapping keep a marker each', async () => {
    // The basic-auth URL ends at the `)` (its host part takes parentheses), where the bearer token begins.
    expect(await stored('https://user:pa55word@example.co)Bearer abcdefghijklmnop1234')).toBe('[REDACTED:BasicAuth][REDACTED:bearer-token]');
  });

  it('a secret inside another finding is redacted once, with the outer kind', async () => {
    expect(await stored(`password is ${GITHUB}; done`)).toBe('[REDACTED:credential]; done');
  });

  it('screens a value even when the other values of the write are null or absent', async () => {
    const p = await project();
    const task = (await m(`mutation($s: ID!, $t: String!) { createTask(input: { scope: $s, title: $t }) { ... on CreateTaskSuccess { task { id title description } } } }`, {
      s: p,
      t: `rotate ${GITHUB}`,
    })).createTask.task;
    expect([task.title, task.description]).toEqual(['rotate [REDACTED:GITHUB_TOKEN]', null]);
    const updated = (await m(`mutation($id: ID!, $t: String!) { updateTask(input: { id: $id, title: $t }) { ... on UpdateTaskSuccess { task { title description } } } }`, {
      id: task.id,
      t: `again pwd=${GITHUB}`,
    })).updateTask.task;
    expect(updated).toEqual({ title: 'again [REDACTED:credential]', description: null });
    // A write of nothing but nulls skips the scan and keeps them: the description is cleared.
    await m(`mutation($id: ID!) { updateTask(input: { id: $id, description: "to clear" }) { __typename } }`, { id: task.id });
    const cleared = (await m(`mutation($id: ID!) { updateTask(input: { id: $id, description: null }) { ... on UpdateTaskSuccess { task { description } } } }`, { id: task.id })).updateTask.task;
    expect(cleared).toEqual({ description: null });
  });

  it('walks JSON values: strings in arrays and objects are redacted, numbers, booleans and nulls kept', async () => {
    const p = await project();
    const s = (await m(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const content = { list: [`t ${GITHUB}`, 3, null, true, ['secret: hunter22']], nested: { deep: { key: GITHUB } }, none: null, plain: 'hello' };
    const event = (await m(`mutation($s: ID!, $c: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "user", content: $c }) {
      ... on AppendSessionEventSuccess { appended { event { content } } } } }`, { s, c: content })).appendSessionEvent.appended.event.content;
    expect(event).toEqual({
      list: ['t [REDACTED:GITHUB_TOKEN]', 3, null, true, ['[REDACTED:credential]']],
      nested: { deep: { key: '[REDACTED:GITHUB_TOKEN]' } },
      none: null,
      plain: 'hello',
    });
    const tool = (await m(`mutation($s: ID!, $p: JSON, $e: JSON) { addTool(input: { scope: $s, name: "t", description: "d", parameters: $p, examples: $e }) {
      ... on AddToolSuccess { tool { currentVersion { ... on ToolVersion { parameters examples } } } } } }`, {
      s: p,
      p: { type: 'object', default: GITHUB },
      e: [`curl -H "Authorization: Bearer abcdefghijklmnop1234"`],
    })).addTool.tool.currentVersion;
    expect(tool).toEqual({ parameters: { type: 'object', default: '[REDACTED:GITHUB_TOKEN]' }, examples: ['curl -H "Authorization: [REDACTED:bearer-token]"'] });
  });
});

describe(`REFUSE (${DB_KIND})`, () => {
  it('names each kind once, and each refused field by its path; a write without secrets goes through', async () => {
    const p = await project('REFUSE');
    expect(await stored('nothing to hide here', p)).toBe('nothing to hide here');
    const refused = (await m(ADD, { s: p, t: 'x', c: `password: hunter22 and ${GITHUB} and ${GITHUB}` })).addKnowledge;
    expect(refused).toEqual({ __typename: 'ValidationError', issues: [{ path: ['input', 'content'], message: 'holds a secret (credential, GITHUB_TOKEN); this scope refuses secrets' }] });
    const tool = (await m(`mutation($s: ID!) { addTool(input: { scope: $s, name: "t", description: "pwd=hunter22", constraints: "${GITHUB}" }) {
      __typename ... on ValidationError { issues { path message } } } }`, { s: p })).addTool;
    expect(tool).toEqual({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'description'], message: 'holds a secret (credential); this scope refuses secrets' },
        { path: ['input', 'constraints'], message: 'holds a secret (GITHUB_TOKEN); this scope refuses secrets' },
      ],
    });
    const imported = (await m(`mutation($s: ID!) { importEntries(input: { entries: [
      { kind: KNOWLEDGE, scope: $s, name: "clean", content: "fine" },
      { kind: KNOWLEDGE, scope: $s, name: "dirty", content: "token ${GITHUB}" } ] }) { __typename ... on ValidationError { issues { path message } } } }`, { s: p })).importEntries;
    expect(imported).toEqual({
      __typename: 'ValidationError',
      issues: [{ path: ['input', 'entries', '1', 'content'], message: 'holds a secret (GITHUB_TOKEN); this scope refuses secrets' }],
    });
  });
});

describe(`names, reasons and scope texts (${DB_KIND})`, () => {
  const NAME_REFUSED = 'holds a secret (GITHUB_TOKEN); a name is not redacted, write it without the secret';
  const issuesOf = (answer: { __typename: string; issues?: unknown }) => [answer.__typename, answer.issues];

  it('a name holding a secret is refused under REDACT, never written as a marker; ALLOW keeps it', async () => {
    const p = await project();
    const added = (await m(`mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) {
      __typename ... on ValidationError { issues { path message } } } }`, { s: p, t: `deploy ${GITHUB}` })).addKnowledge;
    expect(issuesOf(added)).toEqual(['ValidationError', [{ path: ['input', 'title'], message: NAME_REFUSED }]]);
    const tool = (await m(`mutation($s: ID!, $n: String!) { addTool(input: { scope: $s, name: $n, description: "d" }) {
      __typename ... on ValidationError { issues { path message } } } }`, { s: p, n: GITHUB })).addTool;
    expect(issuesOf(tool)).toEqual(['ValidationError', [{ path: ['input', 'name'], message: NAME_REFUSED }]]);
    const imported = (await m(`mutation($s: ID!, $n: String!) { importEntries(input: { entries: [{ kind: KNOWLEDGE, scope: $s, name: $n, content: "c" }] }) {
      __typename ... on ValidationError { issues { path message } } } }`, { s: p, n: `x ${GITHUB}` })).importEntries;
    expect(issuesOf(imported)).toEqual(['ValidationError', [{ path: ['input', 'entries', '0', 'name'], message: NAME_REFUSED }]]);
    const id = (await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "clean", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: p }))
      .addKnowledge.knowledge.id;
    const renamed = (await m(`mutation($id: ID!, $n: String!) { renameEntry(input: { id: $id, name: $n }) { __typename ... on ValidationError { issues { path message } } } }`, {
      id,
      n: GITHUB,
    })).renameEntry;
    expect(issuesOf(renamed)).toEqual(['ValidationError', [{ path: ['input', 'name'], message: NAME_REFUSED }]]);
    const names = (await m(`query($s: ID!) { memoryQuery(input: { scope: $s, kinds: [KNOWLEDGE] }) { edges { node { name } } } }`, { s: p })).memoryQuery.edges;
    expect(names).toEqual([{ node: { name: 'clean' } }]);
    const open = await project('ALLOW');
    const kept = (await m(`mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "c" }) { ... on AddKnowledgeSuccess { knowledge { name } } } }`, {
      s: open,
      t: GITHUB,
    })).addKnowledge.knowledge;
    expect(kept).toEqual({ name: GITHUB });
  });

  it("a change's reason, a flag's reason and a conversation's title are redacted; REFUSE refuses a reason", async () => {
    const p = await project();
    const id = (await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "k", content: "v1" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: p }))
      .addKnowledge.knowledge.id;
    const UPDATE = `mutation($id: ID!, $r: String!) { updateKnowledge(input: { id: $id, content: "v2", changeReason: $r }) {
      __typename ... on UpdateKnowledgeSuccess { update { version { changeReason } } } ... on ValidationError { issues { path message } } } }`;
    expect((await m(UPDATE, { id, r: `rotated to ${GITHUB}` })).updateKnowledge.update.version).toEqual({ changeReason: 'rotated to [REDACTED:GITHUB_TOKEN]' });
    const back = (await m(`mutation($id: ID!, $r: String!) { rollbackEntry(input: { id: $id, version: 1, changeReason: $r }) {
      ... on RollbackEntrySuccess { update { version { changeReason } } } } }`, { id, r: `undo pwd=hunter22` })).rollbackEntry.update.version;
    expect(back).toEqual({ changeReason: 'undo [REDACTED:credential]' });
    const flag = (await m(`mutation($s: ID!, $r: String!) { flagAgent(input: { scope: $s, agent: "a1", reason: $r }) { ... on FlagAgentSuccess { flag { reason } } } }`, {
      s: p,
      r: `leaked ${GITHUB}`,
    })).flagAgent.flag;
    expect(flag).toEqual({ reason: 'leaked [REDACTED:GITHUB_TOKEN]' });
    const conversation = (await m(`mutation($s: ID!, $t: String!) { startConversation(input: { scope: $s, title: $t }) { ... on StartConversationSuccess { conversation { title } } } }`, {
      s: p,
      t: `about ${GITHUB}`,
    })).startConversation.conversation;
    expect(conversation).toEqual({ title: 'about [REDACTED:GITHUB_TOKEN]' });
    const strict = await project('REFUSE');
    const sid = (await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "k", content: "v1" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: strict }))
      .addKnowledge.knowledge.id;
    const refused = (await m(UPDATE, { id: sid, r: GITHUB })).updateKnowledge;
    expect(issuesOf(refused)).toEqual(['ValidationError', [{ path: ['input', 'changeReason'], message: 'holds a secret (GITHUB_TOKEN); this scope refuses secrets' }]]);
  });

  it("a scope's description, purpose and metadata are redacted under the policy where it is; its name is refused", async () => {
    const org = (await m(`mutation($n: String!, $meta: JSON) { createOrganization(input: { name: $n, description: "pwd=hunter22", metadata: $meta }) {
      ... on CreateOrganizationSuccess { organization { id description metadata } } } }`, { n: `org-${++n}`, meta: { key: GITHUB } })).createOrganization.organization;
    expect([org.description, org.metadata]).toEqual(['[REDACTED:credential]', { key: '[REDACTED:GITHUB_TOKEN]' }]);
    const CREATE = `mutation($o: ID, $n: String!, $d: String) { createProject(input: { organization: $o, name: $n, description: $d }) {
      __typename ... on CreateProjectSuccess { project { id description } } ... on ValidationError { issues { path message } } } }`;
    const named = (await m(CREATE, { o: org.id, n: `p ${GITHUB}` })).createProject;
    expect(issuesOf(named)).toEqual(['ValidationError', [{ path: ['input', 'name'], message: NAME_REFUSED }]]);
    const p = (await m(CREATE, { o: org.id, n: `p-${++n}`, d: `key ${GITHUB}` })).createProject.project;
    expect(p.description).toBe('key [REDACTED:GITHUB_TOKEN]');
    const updated = (await m(`mutation($id: ID!) { updateProject(input: { id: $id, description: "secret: hunter22" }) { ... on UpdateProjectSuccess { project { description } } } }`, { id: p.id }))
      .updateProject.project;
    expect(updated).toEqual({ description: '[REDACTED:credential]' });
    const session = (await m(`mutation($p: ID!, $u: String!, $meta: JSON) { startSession(input: { project: $p, purpose: $u, metadata: $meta }) {
      ... on StartSessionSuccess { session { id purpose metadata } } } }`, { p: p.id, u: `use ${GITHUB}`, meta: { token: GITHUB } })).startSession.session;
    expect([session.purpose, session.metadata]).toEqual(['use [REDACTED:GITHUB_TOKEN]', { token: '[REDACTED:GITHUB_TOKEN]' }]);
    const renamed = (await m(`mutation($id: ID!, $n: String!) { updateSession(input: { id: $id, name: $n }) { __typename ... on ValidationError { issues { path message } } } }`, {
      id: session.id,
      n: GITHUB,
    })).updateSession;
    expect(issuesOf(renamed)).toEqual(['ValidationError', [{ path: ['input', 'name'], message: NAME_REFUSED }]]);
    const orgUpdated = (await m(`mutation($id: ID!, $meta: JSON) { updateOrganization(input: { id: $id, metadata: $meta }) { ... on UpdateOrganizationSuccess { organization { metadata } } } }`, {
      id: org.id,
      meta: { note: `pwd=hunter22` },
    })).updateOrganization.organization;
    expect(orgUpdated).toEqual({ metadata: { note: '[REDACTED:credential]' } });
  });
});

describe(`keys that records are found by (${DB_KIND})`, () => {
  const REFUSED = 'holds a secret (GITHUB_TOKEN); a name is not redacted, write it without the secret';
  const ERR = `__typename ... on ValidationError { issues { path message } }`;
  const refusal = (answer: { __typename: string; issues?: unknown }, path: string[]) =>
    expect([answer.__typename, answer.issues]).toEqual(['ValidationError', [{ path, message: REFUSED }]]);

  it("a task's assignee, a state key, a lease's resource and an outcome's keys are refused under REDACT", async () => {
    const p = await project();
    refusal((await m(`mutation($s: ID!, $a: String) { createTask(input: { scope: $s, title: "t", assignee: $a }) { ${ERR} } }`, { s: p, a: GITHUB })).createTask, ['input', 'assignee']);
    const task = (await m(`mutation($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }`, { s: p })).createTask.task.id;
    refusal((await m(`mutation($id: ID!, $a: String) { updateTask(input: { id: $id, assignee: $a }) { ${ERR} } }`, { id: task, a: `agent ${GITHUB}` })).updateTask, ['input', 'assignee']);
    const s = (await m(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    refusal((await m(`mutation($s: ID!, $k: String!) { setState(input: { owner: { session: $s }, key: $k, value: 1 }) { ${ERR} } }`, { s, k: `session:${GITHUB}` })).setState, ['input', 'key']);
    refusal((await m(`mutation($s: ID!, $r: String!) { checkoutLease(input: { scope: $s, resource: $r, ttlSeconds: 60 }) { ${ERR} } }`, { s: p, r: `file:${GITHUB}` })).checkoutLease, ['input', 'resource']);
    const outcome = (key: string) =>
      m(`mutation($s: ID!, $v: String!) { recordOutcome(input: { scope: $s, subtaskType: ${key === 'subtaskType' ? '$v' : '"parse"'}, success: false, durationMs: 5,
        ${key === 'subtaskType' ? '' : `${key}: $v`} }) { ${ERR} } }`, { s: p, v: GITHUB });
    for (const key of ['subtaskType', 'itemKey', 'agent', 'errorKind']) refusal((await outcome(key)).recordOutcome, ['input', key]);
    const batch = (await m(`mutation($s: ID!, $v: String!) { recordOutcomes(input: { scope: $s, outcomes: [
      { subtaskType: "parse", success: true, durationMs: 1 }, { subtaskType: "parse", success: false, durationMs: 2, errorKind: $v }] }) { ${ERR} } }`, { s: p, v: GITHUB })).recordOutcomes;
    refusal(batch, ['input', 'outcomes', '1', 'errorKind']);
    // Nothing of them was written.
    const state = (await m(`query($s: ID!) { node(id: $s) { ... on Session { stateEntries { edges { node { key } } } } } }`, { s })).node.stateEntries.edges;
    expect(state).toEqual([]);
    // Clean keys go through.
    expect((await m(`mutation($s: ID!) { setState(input: { owner: { session: $s }, key: "session:plan", value: 1 }) { __typename } }`, { s })).setState.__typename).toBe('SetStateSuccess');
  });

  it("a tag's name is refused wherever it is given (an entry's tags, attachTags, createTag); a tag's description is redacted", async () => {
    const p = await project();
    refusal((await m(`mutation($s: ID!, $t: [String!]) { addGuideline(input: { scope: $s, name: "g", content: "c", tags: $t }) { ${ERR} } }`, { s: p, t: ['ok', GITHUB] })).addGuideline, ['input', 'tags', '1']);
    refusal((await m(`mutation($s: ID!, $t: [String!]) { importEntries(input: { entries: [{ kind: KNOWLEDGE, scope: $s, name: "k", content: "c", tags: $t }] }) { ${ERR} } }`, { s: p, t: [GITHUB] })).importEntries, ['input', 'entries', '0', 'tags', '0']);
    const id = (await m(`mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "clean", content: "c" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, { s: p })).addKnowledge.knowledge.id;
    refusal((await m(`mutation($id: ID!, $t: [String!]!) { attachTags(input: { entry: $id, tags: $t }) { ${ERR} } }`, { id, t: [GITHUB] })).attachTags, ['input', 'tags', '0']);
    refusal((await m(`mutation($n: String!) { createTag(input: { name: $n }) { ${ERR} } }`, { n: GITHUB })).createTag, ['input', 'name']);
    const tag = (await m(`mutation($d: String) { createTag(input: { name: "mred-described", description: $d }) { ... on CreateTagSuccess { tag { description } } } }`, { d: `uses ${GITHUB}` })).createTag.tag;
    expect(tag).toEqual({ description: 'uses [REDACTED:GITHUB_TOKEN]' });
    const tags = (await m(`{ tags(first: 100) { edges { node { name } } } }`)).tags.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(tags.filter((name: string) => name.includes('ghp_'))).toEqual([]);
  });

  it("an actor a trusted caller names (the X-Engram-Actor header, an author, an event's agent) is refused", async () => {
    const p = await project();
    const add = `mutation($s: ID!, $t: String!, $a: String) { addKnowledge(input: { scope: $s, title: $t, content: "c", author: $a }) {
      ${ERR} ... on AddKnowledgeSuccess { knowledge { createdBy } } } }`;
    const header = await as(h, null, add, { s: p, t: 'mred-by-header' }, { 'x-engram-actor': `agent:${GITHUB}` });
    expect([header.status, codes(header), header.errors?.[0]?.message]).toEqual([400, ['BAD_REQUEST'], `X-Engram-Actor: ${REFUSED}`]);
    refusal((await m(add, { s: p, t: 'mred-by-author', a: `user:${GITHUB}` })).addKnowledge, ['input', 'author']);
    const s = (await m(`mutation($p: ID!) { startSession(input: { project: $p }) { ... on StartSessionSuccess { session { id } } } }`, { p })).startSession.session.id;
    const append = `mutation($s: ID!, $a: String!) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: $a, content: "hi" }) { ${ERR} ... on AppendSessionEventSuccess { appended { event { actor } } } } }`;
    refusal((await m(append, { s, a: `agent:${GITHUB}` })).appendSessionEvent, ['input', 'actor']);
    // Nothing of them was written; a clean actor goes through.
    const titles = (await m(`query($s: ID!) { memoryQuery(input: { scope: $s, kinds: [KNOWLEDGE] }) { edges { node { name } } } }`, { s: p })).memoryQuery.edges;
    expect(titles).toEqual([]);
    const clean = await as(h, null, add, { s: p, t: 'mred-clean' }, { 'x-engram-actor': 'agent:planner' });
    expect(clean.data?.addKnowledge).toEqual({ __typename: 'AddKnowledgeSuccess', knowledge: { createdBy: 'agent:planner' } });
    expect((await m(append, { s, a: 'agent:planner' })).appendSessionEvent.appended.event.actor).toBe('agent:planner');
  });

  it("a principal's and an API key's names are refused", async () => {
    refusal((await m(`mutation($n: String!) { createPrincipal(input: { name: $n, kind: AGENT }) { ${ERR} } }`, { n: GITHUB })).createPrincipal, ['input', 'name']);
    const principal = (await m(`mutation { createPrincipal(input: { name: "mred-agent", kind: AGENT }) { ... on CreatePrincipalSuccess { principal { id } } } }`)).createPrincipal.principal.id;
    refusal((await m(`mutation($p: ID!, $n: String!) { createApiKey(input: { principal: $p, name: $n }) { ${ERR} } }`, { p: principal, n: `ci ${GITHUB}` })).createApiKey, ['input', 'name']);
  });
});
