// Rules of state-access.ts and actors.ts that mutation testing (npm run mutate) found unchecked:
// which principal reads and writes each state namespace through a session, and which actor names a
// principal may write under (itself by any spelling, another principal only as a service allowed
// to act for others), with the exact refusal.
import { beforeAll, describe, expect, it } from 'vitest';
import { as, ok, principal, type Principal } from './support/access.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();

let P: string;
let S: string;
let reader: Principal; // READ on P
let writer: Principal; // WRITE on P
let ana: Principal; // the session's user
let app1: Principal; // the session's application
let relay: Principal; // a service that acts for others
let agentz: Principal; // a user whose name starts like an actor prefix

beforeAll(async () => {
  P = (await ok(h, null, `mutation { createProject(input: { name: "state-rules" }) { ... on CreateProjectSuccess { project { id } } } }`)).createProject.project.id;
  S = (await ok(h, null, `mutation($p: ID!) { startSession(input: { project: $p, userId: "ana", appName: "app1" }) { ... on StartSessionSuccess { session { id } } } }`, { p: P }))
    .startSession.session.id;
  const values: Record<string, unknown> = { 'session:step': 1, 'temp:scratch': 2, 'user:lang': 'fr', 'app:theme': 'dark', 'project:build': 'make' };
  for (const [key, value] of Object.entries(values)) {
    const set = await ok(h, null, `mutation($s: ID!, $k: String!, $v: JSON!) { setState(input: { owner: { session: $s }, key: $k, value: $v }) { __typename } }`, { s: S, k: key, v: value });
    expect(set.setState.__typename).toBe('SetStateSuccess');
  }
  reader = await principal(h, 'st-reader', { grants: [[P, 'READ']] });
  writer = await principal(h, 'st-writer', { grants: [[P, 'WRITE']] });
  ana = await principal(h, 'ana', { kind: 'USER', grants: [[P, 'WRITE']] });
  app1 = await principal(h, 'app1', { kind: 'SERVICE', grants: [[P, 'READ']] });
  relay = await principal(h, 'st-relay', { kind: 'SERVICE', actsForOthers: true, grants: [[P, 'WRITE']] });
  agentz = await principal(h, 'agentz', { kind: 'USER', grants: [[P, 'WRITE']] });
});

const READ_ALL = `query($s: ID!) { node(id: $s) { ... on Session {
  session: state(key: "session:step") { value } temp: state(key: "temp:scratch") { value } user: state(key: "user:lang") { value }
  app: state(key: "app:theme") { value } project: state(key: "project:build") { value } } } }`;
const SET = `mutation($s: ID!, $k: String!) { setState(input: { owner: { session: $s }, key: $k, value: "v" }) { __typename } }`;
const value = (v: string | number) => ({ value: v });

describe(`state namespaces by principal (${DB_KIND})`, () => {
  it("READ on the project reads the session's temp:, session: and project: keys, not its user's or app's", async () => {
    const shared = { session: value(1), temp: value(2), project: value('make') };
    expect((await ok(h, reader.key, READ_ALL, { s: S })).node).toEqual({ ...shared, user: null, app: null });
    expect((await ok(h, ana.key, READ_ALL, { s: S })).node).toEqual({ ...shared, user: value('fr'), app: null });
    expect((await ok(h, app1.key, READ_ALL, { s: S })).node).toEqual({ ...shared, user: null, app: value('dark') });
  });

  it('temp: and session: writes need WRITE on the session', async () => {
    const results = async (key: string) => [
      (await ok(h, reader.key, SET, { s: S, k: key })).setState.__typename,
      (await ok(h, writer.key, SET, { s: S, k: key })).setState.__typename,
    ];
    expect(await results('session:x')).toEqual(['PermissionDeniedError', 'SetStateSuccess']);
    expect(await results('temp:x')).toEqual(['PermissionDeniedError', 'SetStateSuccess']);
  });
});

const ADD = `mutation($s: ID!, $t: String!, $a: String) { addKnowledge(input: { scope: $s, title: $t, content: "c", author: $a }) {
  __typename ... on AddKnowledgeSuccess { knowledge { currentVersion { createdBy } } } ... on UserError { code path message } } }`;
let n = 0;
async function author(who: Principal, named: string | null): Promise<unknown> {
  const d = await ok(h, who.key, ADD, { s: P, t: `by-${++n}`, a: named });
  return d.addKnowledge.__typename === 'AddKnowledgeSuccess' ? d.addKnowledge.knowledge.currentVersion.createdBy : d.addKnowledge;
}
const refused = (message: string) => ({ __typename: 'PermissionDeniedError', code: 'FORBIDDEN', path: ['input', 'author'], message });

describe(`actors by principal (${DB_KIND})`, () => {
  it('a principal names itself with or without its kind; another kind or principal is refused', async () => {
    expect(await author(writer, 'agent:st-writer')).toBe('agent:st-writer');
    expect(await author(writer, 'st-writer')).toBe('st-writer');
    const own = 'input.author may only name the caller itself (agent:st-writer)';
    expect(await author(writer, 'user:st-writer')).toEqual(refused(own));
    expect(await author(writer, 'agent:st-reader')).toEqual(refused(own));
    // A user writes as `user:<name>`; a bare name that looks like `agent` plus a letter is still its own.
    expect(await author(ana, null)).toBe('user:ana');
    expect(await author(agentz, 'agentz')).toBe('agentz');
  });

  it('the X-Engram-Actor header is refused with the same rule, naming the header', async () => {
    const spoof = await as(h, writer.key, ADD, { s: P, t: 'header' }, { 'x-engram-actor': 'agent:st-reader' });
    expect([spoof.status, spoof.errors?.map((e) => [e.extensions.code, e.message])]).toEqual([
      403,
      [['FORBIDDEN', 'X-Engram-Actor may only name the caller itself (agent:st-writer)']],
    ]);
  });

  it('a service acting for others names another principal by bare name or its own kind, never the wrong kind', async () => {
    expect(await author(relay, 'st-writer')).toBe('st-writer');
    expect(await author(relay, 'agent:st-writer')).toBe('agent:st-writer');
    expect(await author(relay, 'user:st-writer')).toEqual(
      refused('input.author may only name the caller itself (service:st-relay), or another principal when the service may act for others'),
    );
  });
});
