// Default deny (issue #12): every root field states an access rule, and a principal without grants
// gets nothing from any of them. A new field without a rule fails here.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../src/graphql/schema.ts';
import { as, ok, principal, type Principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();
const schema = getSchema();
const roots = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!];

/** Rules a root field may state; `authenticated` (anyone with a valid key) only for "who am I". */
const OPEN_TO_ANY_CALLER = new Set(['Query.viewer']);

function ruleOf(field: GraphQLField<unknown, unknown>): unknown {
  return (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes;
}

/** IDs of real rows, so that a field answering without a rule would have something to show. */
const ids: Record<string, string> = {};
let nobody: Principal;

function idFor(name: string): string {
  const n = name.toLowerCase();
  if (n === 'conflict.id') return ids.conflict!;
  if (n === 'question' || n === 'votequestion.id') return ids.voteQuestion!;
  if (n === 'scope.id') return ids.project!;
  if (n.includes('session')) return ids.session!;
  if (n.includes('project')) return ids.project!;
  if (n.includes('organization')) return ids.organization!;
  if (n.includes('scope') || n === 'target') return ids.project!;
  if (n.includes('conversation')) return ids.conversation!;
  if (n.includes('principal')) return ids.principal!;
  if (n.includes('task') || n === 'parent' || n === 'dependson') return ids.task!;
  if (n.includes('conflict')) return ids.conflict ?? ids.entry!;
  return ids.entry!;
}

/** A value for a required input: real IDs, plain scalars, the first enum value, required fields only. */
function valueFor(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, name);
  if (isListType(type)) return [valueFor(type.ofType, name)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, f.name)]));
  }
  if (isScalarType(type)) {
    const scalars: Record<string, unknown> = { ID: idFor(name.replace(/^.*\.(?=[^.]+\.[^.]+$)/, '')), String: 'x', Int: 1, Float: 0.5, Boolean: false, DateTime: new Date(Date.now() + 86_400_000).toISOString(), JSON: {} };
    return scalars[type.name];
  }
  throw new Error(`no value for ${String(type)}`);
}

/** One document calling `field` with its required arguments as variables. */
function documentFor(root: GraphQLObjectType, field: GraphQLField<unknown, unknown>): { query: string; variables: Record<string, unknown> } {
  const required = field.args.filter((a) => isNonNullType(a.type));
  const decl = required.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const pass = required.map((a) => `${a.name}: $${a.name}`).join(', ');
  const named = getNamedType(field.type);
  const selection = isScalarType(named) || isEnumType(named) ? '' : '{ __typename }';
  const op = root.name === 'Query' ? 'query' : root.name === 'Mutation' ? 'mutation' : 'subscription';
  return {
    query: `${op}${decl ? `(${decl})` : ''} { ${field.name}${pass ? `(${pass})` : ''} ${selection} }`,
    variables: Object.fromEntries(required.map((a) => [a.name, valueFor(a.type, `${field.name}.${a.name}`)])),
  };
}

/** A subscription's first result over SSE, in-process. */
async function firstEvent(key: string, query: string, variables: Record<string, unknown>): Promise<{ data?: unknown; errors?: { extensions: { code: string } }[] }> {
  const response = await h.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const reader = response.body!.getReader();
  let text = '';
  while (!text.includes('\n\n') || !/data: /.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return JSON.parse(/data: (.*)/.exec(text)![1]!) as { errors?: { extensions: { code: string } }[] };
}

beforeAll(async () => {
  const org = await ok(h, null, `mutation { createOrganization(input: { name: "walk" }) { ... on CreateOrganizationSuccess { organization { id } } } }`);
  ids.organization = org.createOrganization.organization.id;
  const project = await ok(h, null, `mutation($o: ID!) { createProject(input: { name: "walk", organization: $o }) { ... on CreateProjectSuccess { project { id } } } }`, {
    o: ids.organization,
  });
  ids.project = project.createProject.project.id;
  const session = await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "u", appName: "a" }) { ... on StartSessionSuccess { session { id } } } }`, {
    p: ids.project,
  });
  ids.session = session.startSession.session.id;
  const entry = await ok(h, null, `mutation($s: ID!) { addKnowledge(input: { scope: $s, title: "secret", content: "hunter2" }) { ... on AddKnowledgeSuccess { knowledge { id } } } }`, {
    s: ids.project,
  });
  ids.entry = entry.addKnowledge.knowledge.id;
  const update = `mutation($id: ID!, $a: String!) { updateKnowledge(input: { id: $id, content: $a, author: $a }) { __typename } }`;
  await ok(h, null, update, { id: ids.entry, a: 'agent:x' });
  await ok(h, null, update, { id: ids.entry, a: 'agent:y' });
  ids.conflict = (await ok(h, null, `{ conflicts { edges { node { id } } } }`)).conflicts.edges[0].node.id;
  const task = await ok(h, null, `mutation($s: ID!) { createTask(input: { scope: $s, title: "t" }) { ... on CreateTaskSuccess { task { id } } } }`, { s: ids.project });
  ids.task = task.createTask.task.id;
  const conversation = await ok(h, null, `mutation($s: ID!) { startConversation(input: { scope: $s }) { ... on StartConversationSuccess { conversation { id } } } }`, {
    s: ids.session,
  });
  ids.conversation = conversation.startConversation.conversation.id;
  const question = await ok(h, null, `mutation($s: ID!) { openVoteQuestion(input: { scope: $s, key: "walk", k: 2 }) { ... on OpenVoteQuestionSuccess { question { id } } } }`, { s: ids.project });
  ids.voteQuestion = question.openVoteQuestion.question.id;
  nobody = await principal(h, 'nobody');
  // The admin's walk manages this one (grants, keys), never `nobody`.
  ids.principal = (await principal(h, 'someone')).id;
});

describe(`default deny (${DB_KIND})`, () => {
  it('every root field states an access rule', () => {
    const missing = roots.flatMap((root) => Object.values(root.getFields()).filter((f) => !ruleOf(f)).map((f) => `${root.name}.${f.name}`));
    expect(missing).toEqual([]);
    const open = roots.flatMap((root) =>
      Object.values(root.getFields())
        .filter((f) => (ruleOf(f) as { authenticated?: boolean } | undefined)?.authenticated)
        .map((f) => `${root.name}.${f.name}`),
    );
    expect(open).toEqual([...OPEN_TO_ANY_CALLER]);
  });

  it('a principal without grants gets nothing from any root field', async () => {
    const leaks: string[] = [];
    for (const root of roots) {
      for (const field of Object.values(root.getFields())) {
        const name = `${root.name}.${field.name}`;
        if (OPEN_TO_ANY_CALLER.has(name)) continue;
        const { query, variables } = documentFor(root, field);
        const answer = root.name === 'Subscription' ? await firstEvent(nobody.key, query, variables) : await as(h, nobody.key, query, variables);
        const value = (answer.data as Record<string, unknown> | null | undefined)?.[field.name];
        const typename = (value as { __typename?: string } | null | undefined)?.__typename;
        const refused = value === null || value === undefined || (typename !== undefined && /Error$/.test(typename));
        if (!refused) leaks.push(`${name} answered ${JSON.stringify(value)}`);
        // Null without an error is a lookup answering "no such thing"; an error must be the refusal itself.
        const codesSeen = answer.errors?.map((e) => e.extensions.code) ?? [];
        if (codesSeen.some((c) => !['FORBIDDEN', 'NOT_FOUND'].includes(c))) leaks.push(`${name} failed with ${codesSeen.join()}, not a refusal`);
      }
    }
    expect(leaks.join('\n')).toBe('');
  });

  it('an admin asking any root field for only __typename never gets INTERNAL_SERVER_ERROR', async () => {
    const failures: string[] = [];
    for (const root of roots.slice(0, 2)) {
      for (const field of Object.values(root.getFields())) {
        const { query, variables } = documentFor(root, field);
        const answer = await as(h, null, query, variables);
        const internal = answer.errors?.filter((e) => e.extensions.code === 'INTERNAL_SERVER_ERROR') ?? [];
        if (internal.length) failures.push(`${root.name}.${field.name}: ${internal.map((e) => e.message).join()}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('viewer tells a principal without grants only who it is', async () => {
    const d = await ok(h, nobody.key, `{ viewer { local authentication principal { name admin grants { id } } } }`);
    expect(d.viewer).toEqual({ local: false, authentication: true, principal: { name: 'nobody', admin: false, grants: [] } });
  });
});
