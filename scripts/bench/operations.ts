// Single operations on small databases, in-process: the CRUD basics, and working memory on one
// session with 1,000 events.
import { createApp } from '../../src/app.ts';
import { openDatabase } from '../../src/infra/database.ts';
import { freshDatabase, inProcess, iterations, summarize, timed, type Kind } from './common.ts';

export async function crudSuite(kind: Kind) {
  console.log(`\ncrud (${kind}): GraphQL operations through yoga.fetch, 200 entries`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const app = createApp({ database, graphiql: false });
  const gql = inProcess(app);
  /** The global ID at `path` of a result. */
  const idAt = (data: unknown, ...path: string[]) =>
    path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], data) as string;
  try {
    const project = idAt(
      await gql('mutation { createProject(input: { name: "crud" }) { ... on CreateProjectSuccess { project { id } } } }', {}),
      'createProject',
      'project',
      'id',
    );
    const guidelines: string[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await gql(
        'mutation($s: ID!, $n: String!) { addGuideline(input: { scope: $s, name: $n, content: "Prefer small functions.", tags: ["typescript", "code_style"] }) { ... on AddGuidelineSuccess { guideline { id } } } }',
        { s: project, n: `g-${i}` },
      );
      guidelines.push(idAt(r, 'addGuideline', 'guideline', 'id'));
    }
    const get: number[] = [];
    const list: number[] = [];
    const create: number[] = [];
    const update: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const id = guidelines[i % guidelines.length]!;
      await timed(get, () =>
        gql('query($id: ID!) { entry(id: $id) { id name currentVersion { version ... on GuidelineVersion { content } } tags { name } } }', { id }),
      );
      await timed(list, () =>
        gql('query($s: ID!) { guidelines(filter: { scope: $s }, first: 20) { edges { node { id name priority currentVersion { version } tags { name } } } } }', {
          s: project,
        }),
      );
      await timed(create, () =>
        gql('mutation($s: ID!, $t: String!) { addKnowledge(input: { scope: $s, title: $t, content: "A fact.", tags: ["database"] }) { __typename } }', {
          s: project,
          t: `k-${i}`,
        }),
      );
      await timed(update, () =>
        gql('mutation($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }', { id, c: `v${i}` }),
      );
    }
    summarize('crud', kind, 'get by id', get);
    summarize('crud', kind, 'list 20 guidelines', list);
    summarize('crud', kind, 'create knowledge', create);
    summarize('crud', kind, 'update guideline', update);
  } finally {
    await app.stop();
    await database.close();
    await db.drop();
  }
}

export async function sessionSuite(kind: Kind) {
  console.log(`\nsession (${kind}): working memory through yoga.fetch, one session with 1,000 events`);
  const db = await freshDatabase(kind);
  const database = await openDatabase(db.url);
  const app = createApp({ database, graphiql: false });
  const gql = inProcess(app);
  const idAt = (data: unknown, ...path: string[]) =>
    path.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], data) as string;
  try {
    const project = idAt(
      await gql('mutation { createProject(input: { name: "session-bench" }) { ... on CreateProjectSuccess { project { id } } } }', {}),
      'createProject',
      'project',
      'id',
    );
    const session = idAt(
      await gql('mutation($p: ID!) { startSession(input: { project: $p, userId: "u1", appName: "ide" }) { ... on StartSessionSuccess { session { id } } } }', { p: project }),
      'startSession',
      'session',
      'id',
    );
    // (In-process calls carry no key: they are trusted as this machine's, so they may write project: state.)
    const set = await gql('mutation($p: ID!) { setState(input: { owner: { project: $p }, key: "project:model", value: "default" }) { __typename } }', { p: project });
    if ((set as { setState: { __typename: string } }).setState.__typename !== 'SetStateSuccess') throw new Error(`setState: ${JSON.stringify(set)}`);
    const append = 'mutation($s: ID!, $c: JSON, $d: JSON) { appendSessionEvent(input: { session: $s, type: MESSAGE, actor: "agent:bench", content: $c, stateDelta: $d }) { __typename } }';
    for (let i = 0; i < 1_000; i++) {
      await gql(append, { s: session, c: { text: `message ${i}` }, d: { [`session:k${i % 100}`]: i, 'user:last': i } });
    }
    const samples: Record<string, number[]> = { append: [], appendDelta: [], read: [], list: [], keys: [] };
    for (let i = 0; i < iterations; i++) {
      await timed(samples.append!, () => gql(append, { s: session, c: { text: `m${i}` }, d: null }));
      await timed(samples.appendDelta!, () => gql(append, { s: session, c: { text: `m${i}` }, d: { 'session:step': i, 'temp:draft': `d${i}` } }));
      await timed(samples.read!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { state(key: "model") { namespace value } } } }', { s: session }),
      );
      await timed(samples.list!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { events(first: 20, filter: { types: [MESSAGE] }) { edges { node { sequence actor content } } } } } }', { s: session }),
      );
      await timed(samples.keys!, () =>
        gql('query($s: ID!) { node(id: $s) { ... on Session { stateEntries(pattern: "k*", first: 20) { edges { node { key value } } } } } }', { s: session }),
      );
    }
    summarize('session', kind, 'append event', samples.append!);
    summarize('session', kind, 'append event with a 2-key state delta', samples.appendDelta!);
    summarize('session', kind, 'read a key through 5 namespaces', samples.read!);
    summarize('session', kind, 'list 20 events (type filter)', samples.list!);
    summarize('session', kind, 'list 20 state keys (pattern)', samples.keys!);
  } finally {
    await app.stop();
    await database.close();
    await db.drop();
  }
}
