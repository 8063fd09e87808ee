import { afterEach, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness } from './support/harness.ts';
import { addTool, createProject } from './support/ops.ts';
import { sseSubscribe, untilListening } from './support/subscriptions.ts';

// Rules of tags.service.ts that mutation testing (npm run mutate) found unchecked: the paths of
// refusals, the per-entry tag limit counted inside the transaction, and which writes send events.

const h = useHarness();

const CreateTag = graphql(`
  mutation MutantCreateTag($input: CreateTagInput!) {
    createTag(input: $input) {
      __typename
      ... on CreateTagSuccess { tag { name category } }
      ... on UserError { code path message }
    }
  }
`);

const AttachTags = graphql(`
  mutation MutantAttachTags($input: TagsOfEntryInput!) {
    attachTags(input: $input) {
      __typename
      ... on AttachTagsSuccess { entry { tags { name } } }
      ... on UserError { code path message }
    }
  }
`);

const DetachTags = graphql(`
  mutation MutantDetachTags($input: TagsOfEntryInput!) {
    detachTags(input: $input) {
      __typename
      ... on DetachTagsSuccess { entry { tags { name } } }
      ... on UserError { code path }
    }
  }
`);

const OnEntryChanged = graphql(`
  subscription MutantOnEntryChanged($scope: ID!) {
    entryChanged(scope: $scope) { type entry { name } }
  }
`);

const missingEntry = Buffer.from('Tool:0190a0a0-0000-7000-8000-000000000000').toString('base64');
const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
/** The argument a refusal names (a refused tag name adds its index: input.tags.0). */
const argumentOf = (r: object) => ('path' in r && Array.isArray(r.path) ? r.path.slice(0, 2) : undefined);

describe('createTag', () => {
  it('names the argument it refuses', async () => {
    const badName = (await h.ok(CreateTag, { input: { name: 'semi;colon' } })).createTag;
    expect(badName.__typename).toBe('ValidationError');
    expect(argumentOf(badName)).toEqual(['input', 'name']);
    const longDescription = await h.ok(CreateTag, { input: { name: 'described', description: 'd'.repeat(4_001) } });
    expect(longDescription.createTag).toMatchObject({ __typename: 'ValidationError', path: ['input', 'description'] });
  });

  it('files a tag without a category as CUSTOM and names the duplicate', async () => {
    const created = await h.ok(CreateTag, { input: { name: 'no-category' } });
    expect(created.createTag).toEqual({ __typename: 'CreateTagSuccess', tag: { name: 'no-category', category: 'CUSTOM' } });
    const dup = (await h.ok(CreateTag, { input: { name: 'no-category' } })).createTag;
    expect(dup.__typename === 'AlreadyExistsError' && dup.message).toContain('"no-category"');
  });
});

describe('attachTags and detachTags', () => {
  it('name the argument they refuse', async () => {
    const p = await createProject(h, 'tag-paths');
    const tool = await addTool(h, p, 'tagged');
    const badName = (await h.ok(AttachTags, { input: { entry: tool, tags: ['semi;colon'] } })).attachTags;
    expect(badName.__typename).toBe('ValidationError');
    expect(argumentOf(badName)).toEqual(['input', 'tags']);
    const attachMissing = await h.ok(AttachTags, { input: { entry: missingEntry, tags: ['x'] } });
    expect(attachMissing.attachTags).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'entry'] });
    const detachMissing = await h.ok(DetachTags, { input: { entry: missingEntry, tags: ['x'] } });
    expect(detachMissing.detachTags).toMatchObject({ __typename: 'NotFoundError', path: ['input', 'entry'] });
  });

  it('attaching no tags changes nothing', async () => {
    const p = await createProject(h, 'tag-none');
    const tool = await addTool(h, p, 'untagged', { tags: ['python'] });
    const r = await h.ok(AttachTags, { input: { entry: tool, tags: [] } });
    expect(r.attachTags).toEqual({ __typename: 'AttachTagsSuccess', entry: { tags: [{ name: 'python' }] } });
  });

  it('counts the tags the entry already carries, and only its own, against the limit of 50', async () => {
    const p = await createProject(h, 'tag-limit');
    const full = await addTool(h, p, 'nearly-full');
    await h.ok(AttachTags, { input: { entry: full, tags: names(48, 'a') } });
    // 48 + 3 new (one already carried) = 51: refused inside the transaction, path input.tags.
    const over = (await h.ok(AttachTags, { input: { entry: full, tags: ['a-0', 'b-0', 'b-1', 'b-2'] } })).attachTags;
    expect(over).toMatchObject({ __typename: 'ValidationError', path: ['input', 'tags'] });
    expect(over.__typename === 'ValidationError' && over.message).toContain('at most 50 tags');
    // 48 + 2 new = exactly 50: taken.
    const exact = await h.ok(AttachTags, { input: { entry: full, tags: ['a-0', 'b-0', 'b-1'] } });
    expect(exact.attachTags.__typename === 'AttachTagsSuccess' && exact.attachTags.entry.tags).toHaveLength(50);
    // Another entry's tags are not this one's: a second entry still takes tags.
    const other = await addTool(h, p, 'other');
    const second = await h.ok(AttachTags, { input: { entry: other, tags: ['b-0'] } });
    expect(second.attachTags).toEqual({ __typename: 'AttachTagsSuccess', entry: { tags: [{ name: 'b-0' }] } });
  });
});

describe('tag events', () => {
  let close: () => void = () => undefined;
  afterEach(() => close());

  it('TAGGED and UNTAGGED only when a link was added or removed', async () => {
    const p = await createProject(h, 'tag-events');
    const tool = await addTool(h, p, 'watched');
    const sub = await sseSubscribe(h.app, OnEntryChanged, { scope: p });
    close = () => sub.close();
    let probes = 0;
    await untilListening(sub.collector, () => addTool(h, p, `probe-${probes++}`));
    // The watched entry's event types, with barrier entries marking where each step ended.
    const seen = () =>
      sub.collector.results
        .map((r) => r.data?.entryChanged)
        .filter((e) => e && (e.entry?.name === 'watched' || e.entry?.name.startsWith('barrier')))
        .map((e) => (e!.entry?.name === 'watched' ? e!.type : e!.entry?.name));
    const barrier = async (name: string) => {
      await addTool(h, p, name);
      await sub.collector.until((r) => r.some((x) => x.data?.entryChanged.entry?.name === name));
    };

    await h.ok(AttachTags, { input: { entry: tool, tags: ['one'] } });
    await h.ok(AttachTags, { input: { entry: tool, tags: ['one'] } }); // already carried: no event
    await barrier('barrier-1');
    await h.ok(DetachTags, { input: { entry: tool, tags: ['not-carried'] } }); // nothing removed: no event
    await barrier('barrier-2');
    await h.ok(DetachTags, { input: { entry: tool, tags: ['one'] } });
    await barrier('barrier-3');
    expect(seen()).toEqual(['TAGGED', 'barrier-1', 'barrier-2', 'UNTAGGED', 'barrier-3']);
  });
});
