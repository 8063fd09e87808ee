import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { DB_KIND, fewestStatements, useHarness } from './support/harness.ts';
import { addTool, createProject, startSession } from './support/ops.ts';

const h = useHarness();

const countStatements = <T>(run: () => Promise<T>) => fewestStatements(h, run);

const CreateTask = graphql(`
  mutation BatchCreateTask($input: CreateTaskInput!) { createTask(input: $input) { __typename ... on CreateTaskSuccess { task { id } } } }
`);
const Tasks = graphql(`
  query BatchTasks($scope: ID!, $first: Int) {
    tasks(filter: { scope: $scope, topLevelOnly: true }, first: $first) {
      edges { node { title status blocked scope { id name } parent { id } dependsOn { title status } dependents { title } subtasks(first: 5) { edges { node { title } } } } }
    }
  }
`);
const Append = graphql(`
  mutation BatchAppend($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }
`);
const Events = graphql(`
  query BatchEvents($id: ID!, $first: Int) {
    node(id: $id) {
      ... on Session { events(first: $first) { edges { node { sequence type actor content stateDelta transition { to } session { id status } } } } }
    }
  }
`);
const History = graphql(`
  query BatchState($id: ID!, $first: Int) {
    node(id: $id) {
      ... on Session { stateEntries(first: $first) { edges { node { key value history(first: 3) { edges { node { version event { sequence } } } } } } } }
    }
  }
`);
const StartConversation = graphql(`
  mutation BatchStartConversation($scope: ID!) {
    startConversation(input: { scope: $scope }) { __typename ... on StartConversationSuccess { conversation { id } } }
  }
`);
const AddMessage = graphql(`
  mutation BatchAddMessage($input: AddMessageInput!) { addMessage(input: $input) { __typename } }
`);
const Messages = graphql(`
  query BatchMessages($id: ID!, $first: Int) {
    node(id: $id) {
      ... on Conversation { messages(first: $first) { edges { node { position content context { score entry { id name } } } } } }
    }
  }
`);

describe('session memory lists batch (no N+1)', () => {
  it('a page of 40 tasks with scope, parent, dependencies, dependents and subtasks costs what 4 cost', async () => {
    const seed = async (n: number, name: string) => {
      const p = await createProject(h, name);
      let previous: string | null = null;
      for (let i = 0; i < n; i++) {
        const r = await h.ok(CreateTask, { input: { scope: p, title: `t${i}`, dependsOn: previous ? [previous] : [] } });
        const id: string = r.createTask.__typename === 'CreateTaskSuccess' ? r.createTask.task.id : '';
        await h.ok(CreateTask, { input: { scope: p, title: `t${i}-sub`, parent: id } });
        previous = id;
      }
      return p;
    };
    const small = await seed(4, 'batch-tasks-4');
    const large = await seed(40, 'batch-tasks-40');
    const a = await countStatements(() => h.ok(Tasks, { scope: small, first: 50 }));
    const b = await countStatements(() => h.ok(Tasks, { scope: large, first: 50 }));
    expect(b.result.tasks.edges).toHaveLength(40);
    expect(b.result.tasks.edges[1]?.node).toMatchObject({ blocked: true, dependsOn: [{ title: 't0' }], dependents: [{ title: 't2' }], subtasks: { edges: [{ node: { title: 't1-sub' } }] } });
    console.log(`[${DB_KIND}] tasks page: ${a.count} statements for 4, ${b.count} for 40`);
    expect(b.count).toBe(a.count);
  });

  it('session events, state keys with history, and messages with their entries cost the same for 5 and 50', async () => {
    const p = await createProject(h, 'batch-session');
    const seed = async (n: number) => {
      const s = await startSession(h, p);
      for (let i = 0; i < n; i++) {
        await h.ok(Append, { input: { session: s, type: 'MESSAGE', actor: 'user', content: { i }, stateDelta: { [`session:k${String(i).padStart(3, '0')}`]: i } } });
      }
      const c = await h.ok(StartConversation, { scope: s });
      const conversation = c.startConversation.__typename === 'StartConversationSuccess' ? c.startConversation.conversation.id : '';
      const tool = await addTool(h, p, `tool-${n}`);
      for (let i = 0; i < n; i++) {
        await h.ok(AddMessage, { input: { conversation, role: 'USER', content: `m${i}`, usedEntries: [{ entry: tool, score: i }] } });
      }
      return { s, conversation };
    };
    const small = await seed(5);
    const large = await seed(50);
    for (const [doc, key] of [
      [Events, 's'],
      [History, 's'],
      [Messages, 'conversation'],
    ] as const) {
      const a = await countStatements(() => h.ok(doc as typeof Events, { id: small[key], first: 60 }));
      const b = await countStatements(() => h.ok(doc as typeof Events, { id: large[key], first: 60 }));
      const size = JSON.stringify(b.result).length;
      expect(size).toBeGreaterThan(JSON.stringify(a.result).length);
      console.log(`[${DB_KIND}] ${key === 's' ? (doc === Events ? 'events' : 'state') : 'messages'}: ${a.count} statements for 5, ${b.count} for 50`);
      expect(b.count).toBe(a.count);
    }
  });
});
