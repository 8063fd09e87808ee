import { describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addGuideline, addTool, createProject } from './support/ops.ts';

// Rules of conflicts.service.ts that mutation testing (npm run mutate) found unchecked: the argument
// and message of each refusal (and that a refusal settles nothing), the author and change reason of
// the version a resolution writes, and that merged content is checked as an update, not a creation.

const h = useHarness();

const UpdateTool = graphql(`
  mutation MutantConflictUpdateTool($input: UpdateToolInput!) {
    updateTool(input: $input) { __typename ... on UpdateToolSuccess { update { conflict { id } } } }
  }
`);

const UpdateGuideline = graphql(`
  mutation MutantConflictUpdateGuideline($input: UpdateGuidelineInput!) {
    updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflict { id } } } }
  }
`);

const Resolve = graphql(`
  mutation MutantResolve($input: ResolveConflictInput!) {
    resolveConflict(input: $input) {
      __typename
      ... on ResolveConflictSuccess {
        resolution {
          conflict { resolution resolvedBy }
          version {
            version
            createdBy
            changeReason
            ... on ToolVersion { description }
            ... on GuidelineVersion { content rationale }
          }
        }
      }
      ... on ValidationError { issues { path message } }
      ... on UserError { code message path }
    }
  }
`);

const ConflictState = graphql(`
  query MutantConflictState($id: ID!) {
    conflict(id: $id) { resolved resolution note resolvedBy }
  }
`);

const missingConflict = Buffer.from('Conflict:0190a0a0-0000-7000-8000-000000000000').toString('base64');

/** A conflict on a new tool: v2 "mine" by agent:a, v3 "theirs" by agent:b, both based on v1. */
async function toolConflict(name: string) {
  const p = await createProject(h, name);
  const id = await addTool(h, p, 't', { description: 'base', author: 'agent:a' });
  await h.ok(UpdateTool, { input: { id, description: 'mine', expectedVersion: 1, author: 'agent:a' } });
  const r = (await h.ok(UpdateTool, { input: { id, description: 'theirs', expectedVersion: 1, author: 'agent:b' } })).updateTool;
  if (r.__typename !== 'UpdateToolSuccess' || !r.update.conflict) throw new Error(JSON.stringify(r));
  return r.update.conflict.id;
}

async function resolve(input: Record<string, unknown>) {
  return (await h.ok(Resolve, { input: input as never })).resolveConflict;
}

describe('resolveConflict refusals', () => {
  it('names the argument of each invalid value and settles nothing', async () => {
    const conflict = await toolConflict('refusals');
    expect(await resolve({ id: conflict, strategy: 'KEEP_CURRENT', note: 'n'.repeat(1_001) })).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'input.note: must be at most 1000 characters (got 1001)',
      path: ['input', 'note'],
      issues: [{ path: ['input', 'note'], message: 'must be at most 1000 characters (got 1001)' }],
    });
    expect(await resolve({ id: conflict, strategy: 'KEEP_CURRENT', resolvedBy: 'r'.repeat(201) })).toMatchObject({
      message: 'input.resolvedBy: must be at most 200 characters (got 201)',
      path: ['input', 'resolvedBy'],
    });
    expect(await resolve({ id: conflict, strategy: 'MERGE' })).toMatchObject({
      message: 'input.merged: is required for MERGE',
      path: ['input', 'merged'],
    });
    expect(await resolve({ id: conflict, strategy: 'KEEP_CURRENT', merged: { description: 'x' } })).toMatchObject({
      message: 'input.merged: is only for MERGE',
      path: ['input', 'merged'],
    });
    expect(await resolve({ id: conflict, strategy: 'TAKE_INCOMING', merged: { description: 'x' } })).toMatchObject({
      path: ['input', 'merged'],
    });
    expect((await h.ok(ConflictState, { id: conflict })).conflict).toEqual({ resolved: false, resolution: null, note: null, resolvedBy: null });
  });

  it('an unknown conflict is NOT_FOUND, a settled one INVALID_STATE, both naming input.id', async () => {
    expect(await resolve({ id: missingConflict, strategy: 'KEEP_CURRENT' })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      message: 'No conflict has this id',
      path: ['input', 'id'],
    });
    const conflict = await toolConflict('settled');
    await resolve({ id: conflict, strategy: 'TAKE_INCOMING', note: 'first' });
    expect(await resolve({ id: conflict, strategy: 'KEEP_CURRENT', note: 'second' })).toEqual({
      __typename: 'InvalidStateError',
      code: 'INVALID_STATE',
      message: 'The conflict is already resolved',
      path: ['input', 'id'],
    });
    expect((await h.ok(ConflictState, { id: conflict })).conflict).toEqual({ resolved: true, resolution: 'TOOK_INCOMING', note: 'first', resolvedBy: null });
  });
});

describe('the version a resolution writes', () => {
  it('KEEP_CURRENT: written by the resolver, saying which version it adopted', async () => {
    const conflict = await toolConflict('keep-author');
    expect(await resolve({ id: conflict, strategy: 'KEEP_CURRENT', resolvedBy: 'human:keeper' })).toEqual({
      __typename: 'ResolveConflictSuccess',
      resolution: {
        conflict: { resolution: 'KEPT_CURRENT', resolvedBy: 'human:keeper' },
        version: { version: 4, createdBy: 'human:keeper', changeReason: 'Resolved a conflict by adopting version 2', description: 'mine' },
      },
    });
  });

  it('MERGE: written by the resolver, naming both versions it merged', async () => {
    const conflict = await toolConflict('merge-author');
    expect(await resolve({ id: conflict, strategy: 'MERGE', merged: { description: 'both' }, resolvedBy: 'human:merger' })).toEqual({
      __typename: 'ResolveConflictSuccess',
      resolution: {
        conflict: { resolution: 'MERGED', resolvedBy: 'human:merger' },
        version: { version: 4, createdBy: 'human:merger', changeReason: 'Resolved a conflict between versions 2 and 3 by merging', description: 'both' },
      },
    });
  });

  it('MERGE of a guideline needs no content: merged fields are an update of the incoming version', async () => {
    const p = await createProject(h, 'merge-guideline');
    const id = await addGuideline(h, p, 'g', { content: 'base', author: 'agent:a' });
    await h.ok(UpdateGuideline, { input: { id, content: 'mine', expectedVersion: 1, author: 'agent:a' } });
    const r = (await h.ok(UpdateGuideline, { input: { id, content: 'theirs', expectedVersion: 1, author: 'agent:b' } })).updateGuideline;
    const conflict = r.__typename === 'UpdateGuidelineSuccess' ? r.update.conflict?.id : undefined;
    expect(conflict).toBeDefined();
    expect(await resolve({ id: conflict, strategy: 'MERGE', merged: { rationale: 'why' } })).toMatchObject({
      __typename: 'ResolveConflictSuccess',
      resolution: { version: { version: 4, content: 'theirs', rationale: 'why', createdBy: null } },
    });
  });
});
