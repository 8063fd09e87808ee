import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addTool, createProject } from './support/ops.ts';

const h = useHarness();

const CreateOrganization = graphql(`
  mutation IsolationCreateOrganization($name: String!) {
    createOrganization(input: { name: $name }) { __typename }
  }
`);

const DoomedUpdate = graphql(`
  mutation IsolationDoomedUpdate($id: ID!) {
    updateTool(input: { id: $id, description: "never", expectedVersion: 999 }) { __typename }
  }
`);

const Organizations = graphql(`
  query IsolationOrganizations { organizations(first: 100) { edges { node { name } } } }
`);

describe('isolation between concurrent requests', () => {
  it('a write that succeeds is kept while other requests roll their transactions back', async () => {
    const p = await createProject(h, 'isolation');
    const tool = await addTool(h, p, 'doomed');
    const writes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 === 0 ? h.ok(DoomedUpdate, { id: tool }) : h.ok(CreateOrganization, { name: `iso-${i}` }),
      ),
    );
    const created = writes.filter((w) => 'createOrganization' in w && w.createOrganization.__typename === 'CreateOrganizationSuccess');
    const refused = writes.filter((w) => 'updateTool' in w && w.updateTool.__typename === 'ValidationError');
    expect(created).toHaveLength(15);
    expect(refused).toHaveLength(15);
    const names = (await h.ok(Organizations)).organizations.edges.flatMap((e) => (e.node.name?.startsWith('iso-') ? [e.node.name] : []));
    expect(names.sort()).toEqual(Array.from({ length: 15 }, (_, i) => `iso-${2 * i + 1}`).sort());
  });
});
