import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './gql/index.ts';
import { useHarness, useVariant } from './support/harness.ts';
import { addGuideline, addKnowledge, addTool, createProject, globalScopeId, startSession } from './support/ops.ts';
import { tagToken } from '../src/modules/search/memory-query.dialect.ts';

const h = useHarness();
// The same database ranked with no shortcut: the reference every shortcut must agree with.
const exhaustive = useVariant(h, { exhaustiveRanking: true });

const Query = graphql(`
  query Memory($input: MemoryQueryInput!, $first: Int, $after: String) {
    memoryQuery(input: $input, first: $first, after: $after) {
      edges {
        cursor
        score
        estimatedTokens
        breakdown { relation tags scope text priority recency decay }
        node { __typename id name scope { id } }
      }
      pageInfo { hasNextPage endCursor }
      meta { totalCount returnedCount truncated hasMore estimatedTokens tokenBudget }
      scopeChain { id kind }
    }
  }
`);

const CreateOrg = graphql(`
  mutation MemoryOrg($name: String!) { createOrganization(input: { name: $name }) { __typename ... on CreateOrganizationSuccess { organization { id } } } }
`);
const Relate = graphql(`
  mutation MemoryRelate($input: CreateRelationInput!) { createRelation(input: $input) { __typename } }
`);
const Deactivate = graphql(`
  mutation MemoryDeactivate($id: ID!) { deactivateEntry(input: { id: $id }) { __typename } }
`);

const ids: Record<string, string> = {};
let org = '';
let project = '';
let session = '';

beforeAll(async () => {
  const g = await globalScopeId(h);
  const o = await h.ok(CreateOrg, { name: 'mq-org' });
  org = o.createOrganization.__typename === 'CreateOrganizationSuccess' ? o.createOrganization.organization.id : '';
  project = await createProject(h, 'mq-project', org);
  session = await startSession(h, project, 'mq-session');
  ids.globalStyle = await addGuideline(h, g, 'style', { content: 'Indent with tabs everywhere.', priority: 10, tags: ['code_style'] });
  ids.projectStyle = await addGuideline(h, project, 'style', { content: 'Indent with two spaces in this project.', priority: 90, tags: ['code_style', 'typescript'] });
  ids.deploy = await addTool(h, org, 'deploy', { description: 'Ships the organization services to production.', tags: ['devops'] });
  ids.lint = await addTool(h, project, 'lint', { description: 'Runs eslint over the typescript sources.', tags: ['typescript', 'testing'] });
  ids.notes = await addKnowledge(h, session, 'pipeline notes', { content: 'The pipeline flakes on large typescript builds; rerun it.', tags: ['devops', 'typescript'] });
  ids.pipeline = await addKnowledge(h, project, 'pipeline pipeline', { content: 'Pipeline: the pipeline runs lint, then the pipeline deploys.', tags: ['devops'] });
  ids.secret = await addGuideline(h, g, 'no-secrets', { content: 'Never commit secrets or tokens.', tags: ['security'] });
  await h.ok(Relate, { input: { source: ids.projectStyle, target: ids.lint, type: 'RELATED_TO' } });
  await h.ok(Relate, { input: { source: ids.secret, target: project, type: 'APPLIES_TO' } });
});

const names = (r: { memoryQuery: { edges: Array<{ node: { name: string } }> } }) => r.memoryQuery.edges.map((e) => e.node.name);

/**
 * SQLite: every tag's entries in the full-text index (its "tagTokens" column, which a text search
 * with tags and require/exclude's tag set intersect) are those whose search row keeps the tag id,
 * every entry has its search row, and the index is sound.
 */
async function tagTokensAgree(): Promise<void> {
  if (h.database.provider !== 'sqlite') return;
  const db = h.database.prisma;
  const unindexed = await db.$queryRawUnsafe<Array<{ n: number | bigint }>>(
    'SELECT COUNT(*) AS n FROM "Entry" e WHERE NOT EXISTS (SELECT 1 FROM "EntrySearch" s WHERE s."entryId" = e."id")',
  );
  expect(Number(unindexed[0]!.n)).toBe(0);
  const rowids = (rows: Array<{ rowid: number | bigint }>) => rows.map((r) => Number(r.rowid));
  for (const { id } of await db.$queryRawUnsafe<Array<{ id: string }>>('SELECT "id" FROM "Tag"')) {
    // The token the searches ask for (the dialect's) must be the one the migration's triggers index.
    const indexed = await db.$queryRawUnsafe<Array<{ rowid: number }>>('SELECT rowid FROM "EntrySearchFts" WHERE "EntrySearchFts" MATCH ? ORDER BY rowid', `tagTokens : ${tagToken(id)}`);
    const kept = await db.$queryRawUnsafe<Array<{ rowid: number }>>('SELECT rowid FROM "EntrySearch" WHERE instr("tagIds", ?) > 0 ORDER BY rowid', ` ${id} `);
    expect(rowids(indexed), id).toEqual(rowids(kept));
  }
  await db.$executeRawUnsafe(`INSERT INTO "EntrySearchFts"("EntrySearchFts", rank) VALUES ('integrity-check', 0)`);
}

describe('memoryQuery', () => {
  it('inherits session > project > organization > global, the nearest of a name winning', async () => {
    const r = await h.ok(Query, { input: { scope: session }, first: 50 });
    expect(r.memoryQuery.scopeChain.map((s) => s.kind)).toEqual(['SESSION', 'PROJECT', 'ORGANIZATION', 'GLOBAL']);
    expect(names(r).sort()).toEqual(['deploy', 'lint', 'no-secrets', 'pipeline notes', 'pipeline pipeline', 'style']);
    const style = r.memoryQuery.edges.find((e) => e.node.name === 'style');
    expect(style?.node.id).toBe(ids.projectStyle); // the global "style" is overridden
    const withOverridden = await h.ok(Query, { input: { scope: session, includeOverridden: true }, first: 50 });
    expect(withOverridden.memoryQuery.edges.filter((e) => e.node.name === 'style')).toHaveLength(2);
    const own = await h.ok(Query, { input: { scope: session, inherit: false } });
    expect(names(own)).toEqual(['pipeline notes']);
    expect(own.memoryQuery.scopeChain).toHaveLength(1);
    // From the organization, the project's entries are out of reach and the global style applies.
    const fromOrg = await h.ok(Query, { input: { scope: org, kinds: ['GUIDELINE'] } });
    expect(fromOrg.memoryQuery.edges.find((e) => e.node.name === 'style')?.node.id).toBe(ids.globalStyle);
  });

  it('a deactivated nearer entry no longer overrides the farther one of its name', async () => {
    // Were it still to override, deactivating a project guideline would hide the organization's too.
    const created = await h.ok(CreateOrg, { name: 'mq-override-org' });
    const ownOrg = created.createOrganization.__typename === 'CreateOrganizationSuccess' ? created.createOrganization.organization.id : '';
    const own = await createProject(h, 'mq-override', ownOrg);
    const orgRule = await addGuideline(h, ownOrg, 'indent', { content: 'Tabs across the organization.' });
    const projectRule = await addGuideline(h, own, 'indent', { content: 'Two spaces in this project.' });
    // The global guidelines of the other tests are in reach too: only "indent" matters here.
    const indentOf = (r: { memoryQuery: { edges: Array<{ node: { id: string; name: string } }> } }) =>
      r.memoryQuery.edges.filter((e) => e.node.name === 'indent').map((e) => e.node.id);
    const indent = async () => indentOf(await h.ok(Query, { input: { scope: own, kinds: ['GUIDELINE'] } }));
    expect(await indent()).toEqual([projectRule]);
    await h.ok(Deactivate, { id: projectRule });
    expect(await indent()).toEqual([orgRule]);
    const withInactive = await h.ok(Query, { input: { scope: own, kinds: ['GUIDELINE'], includeInactive: true } });
    // Listed when inactive entries are asked for, it still overrides nothing.
    expect(indentOf(withInactive).sort()).toEqual([orgRule, projectRule].sort());
  });

  it('scores: the breakdown adds up, nearer scopes and relations count, ties order by id', async () => {
    const r = await h.ok(Query, { input: { scope: session }, first: 50 });
    for (const edge of r.memoryQuery.edges) {
      const b = edge.breakdown;
      expect(b.relation + b.tags + b.scope + b.text + b.priority + b.recency + b.decay).toBeCloseTo(edge.score, 6);
    }
    const scoreOf = (name: string) => r.memoryQuery.edges.find((e) => e.node.name === name)!.breakdown;
    expect(scoreOf('pipeline notes').scope).toBeCloseTo(2.0); // session: full proximity
    expect(scoreOf('lint').scope).toBeCloseTo(1.5);
    expect(scoreOf('deploy').scope).toBeCloseTo(1.0);
    expect(scoreOf('no-secrets').scope).toBeCloseTo(0.5);
    expect(scoreOf('no-secrets').relation).toBe(5); // APPLIES_TO the project of the chain
    expect(scoreOf('style').priority).toBeCloseTo(1.35);
    const scores = r.memoryQuery.edges.map((e) => e.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('filters by tags: include any, require all, exclude none', async () => {
    const include = await h.ok(Query, { input: { scope: session, tags: { include: ['devops', 'security'] } } });
    expect(names(include).sort()).toEqual(['deploy', 'no-secrets', 'pipeline notes', 'pipeline pipeline']);
    const tagScore = include.memoryQuery.edges.find((e) => e.node.name === 'deploy')!.breakdown.tags;
    expect(tagScore).toBeCloseTo(1.5); // 1 of 2 include tags
    const require = await h.ok(Query, { input: { scope: session, tags: { require: ['devops', 'typescript'] } } });
    expect(names(require)).toEqual(['pipeline notes']);
    const exclude = await h.ok(Query, { input: { scope: session, tags: { exclude: ['typescript', 'devops'] } } });
    expect(names(exclude).sort()).toEqual(['no-secrets']);
  });

  it('answers tags that rule out every entry without a ranking statement', async () => {
    const ranking = () => h.statements.filter((sql) => sql.includes('WITH chain(scope_id, depth)')).length;
    const Totalled = graphql(`query RuleOut($input: MemoryQueryInput!) { memoryQuery(input: $input) { edges { node { id } } meta { totalCount } } }`);
    for (const tags of [
      { require: ['devops'], exclude: ['devops'] },
      { require: ['devops', 'typescript'], exclude: ['typescript'] },
      { require: ['no-such-tag'] },
      { include: ['devops', 'security'], exclude: ['security', 'devops'] },
      { include: ['devops', 'no-such-tag'], exclude: ['devops'] },
    ]) {
      h.resetStatements();
      const r = await h.ok(Totalled, { input: { scope: session, tags } });
      expect(r.memoryQuery.edges, JSON.stringify(tags)).toEqual([]);
      expect(r.memoryQuery.meta.totalCount).toBe(0);
      expect(ranking(), JSON.stringify(tags)).toBe(0);
    }
    // An excluded tag that leaves another included one: ranked as before.
    h.resetStatements();
    const some = await h.ok(Totalled, { input: { scope: session, tags: { include: ['devops', 'security'], exclude: ['devops'] } } });
    expect(some.memoryQuery.meta.totalCount).toBeGreaterThan(0);
    expect(ranking()).toBeGreaterThan(0);
  });

  it('looks a tag name up once it exists, and again while it does not', async () => {
    // Prisma's lookup: SELECT ... FROM `main`.`Tag` WHERE ... IN (SQLite), FROM "public"."Tag" (PostgreSQL).
    const tagLookups = () => h.statements.filter((sql) => /FROM\s+\S*Tag[`"]\s+WHERE/.test(sql)).length;
    const elsewhere = await createProject(h, 'mq-tag-lookups', org);
    await addTool(h, elsewhere, 'known', { description: 'Tagged before any query.', tags: ['known-tag'] });
    const ask = () => h.ok(Query, { input: { scope: elsewhere, tags: { include: ['known-tag', 'later-tag'] } } });
    await ask();
    h.resetStatements();
    expect(names(await ask())).toEqual(['known']);
    expect(tagLookups()).toBe(1); // 'later-tag' again; 'known-tag' is known
    await addKnowledge(h, elsewhere, 'later', { content: 'Tagged after a query asked for the tag.', tags: ['later-tag'] });
    expect(names(await ask()).sort()).toEqual(['known', 'later']);
    h.resetStatements();
    await ask();
    expect(tagLookups()).toBe(0);
  });

  it('searches text with prefixes, and a better match scores higher', async () => {
    const r = await h.ok(Query, { input: { scope: session, search: 'pipeline', kinds: ['KNOWLEDGE'] } });
    expect(names(r).sort()).toEqual(['pipeline notes', 'pipeline pipeline']);
    const text = (name: string) => r.memoryQuery.edges.find((e) => e.node.name === name)!.breakdown.text;
    // "pipeline" in the name and five times in the body beats one mention in each.
    expect(text('pipeline pipeline')).toBeCloseTo(1.0);
    expect(text('pipeline notes')).toBeGreaterThan(0);
    expect(text('pipeline notes')).toBeLessThan(text('pipeline pipeline'));
    const prefix = await h.ok(Query, { input: { scope: session, search: 'typesc' } });
    expect(names(prefix).sort()).toEqual(['lint', 'pipeline notes']);
    const none = await h.ok(Query, { input: { scope: session, search: 'kubernetes' } });
    expect(none.memoryQuery.meta.totalCount).toBe(0);
    const bad = await h.gql(Query, { input: { scope: session, search: '!!!' } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    // The index follows updates in the same transaction.
    const Update = graphql(`mutation MemoryUpdate($id: ID!) { updateTool(input: { id: $id, description: "Ships with kubernetes." }) { __typename } }`);
    await h.ok(Update, { id: ids.deploy! });
    expect(names(await h.ok(Query, { input: { scope: session, search: 'kubernetes' } }))).toEqual(['deploy']);
  });

  it('filters text matches by scope, kind, state and tags as they are now', async () => {
    // A search checks copies of these kept beside the text: every write that changes one counts.
    const Tags = graphql(`
      mutation MemoryTags($attach: TagsOfEntryInput!, $detach: TagsOfEntryInput!, $doAttach: Boolean!) {
        attachTags(input: $attach) @include(if: $doAttach) { __typename }
        detachTags(input: $detach) @skip(if: $doAttach) { __typename }
      }
    `);
    const Reactivate = graphql(`mutation MemoryReactivate($id: ID!) { reactivateEntry(input: { id: $id }) { __typename } }`);
    const StartScratch = graphql(`
      mutation MemoryScratch($project: ID!) { startSession(input: { project: $project, mode: SCRATCH }) { __typename ... on StartSessionSuccess { session { id } } } }
    `);
    const Complete = graphql(`
      mutation MemoryComplete($id: ID!, $promote: [ID!]) { completeSession(input: { id: $id, promote: $promote }) { __typename } }
    `);
    const own = await createProject(h, 'mq-filters');
    const scratch = await h.ok(StartScratch, { project: own });
    const sessionId = scratch.startSession.__typename === 'StartSessionSuccess' ? scratch.startSession.session.id : '';
    const found = async (scope: string, tags: Record<string, string[]> = {}, extra: Record<string, unknown> = {}) =>
      names(await h.ok(Query, { input: { scope, search: 'quokka', tags, ...extra } })).sort();
    const draft = await addKnowledge(h, sessionId, 'quokka draft', { content: 'A quokka note.', tags: ['ml'] });
    await addTool(h, own, 'quokka tool', { description: 'Feeds the quokka.', tags: ['ml', 'web'] });

    expect(await found(own)).toEqual(['quokka tool']); // the session's entry is below the project
    expect(await found(sessionId, { include: ['ml'] })).toEqual(['quokka draft', 'quokka tool']);
    expect(await found(sessionId, { include: ['web', 'nosuchtag'] })).toEqual(['quokka tool']);
    expect(await found(sessionId, { require: ['ml', 'web'] })).toEqual(['quokka tool']);
    expect(await found(sessionId, { require: ['nosuchtag'] })).toEqual([]);
    expect(await found(sessionId, { exclude: ['web'] })).toEqual(['quokka draft']);
    expect(await found(sessionId, { exclude: ['nosuchtag'] })).toEqual(['quokka draft', 'quokka tool']);
    expect(await found(sessionId, {}, { kinds: ['KNOWLEDGE'] })).toEqual(['quokka draft']);
    await tagTokensAgree();

    await h.ok(Tags, { attach: { entry: draft, tags: ['web'] }, detach: { entry: draft, tags: [] }, doAttach: true });
    expect(await found(sessionId, { require: ['ml', 'web'] })).toEqual(['quokka draft', 'quokka tool']);
    await tagTokensAgree();
    await h.ok(Tags, { attach: { entry: draft, tags: [] }, detach: { entry: draft, tags: ['ml'] }, doAttach: false });
    expect(await found(sessionId, { include: ['ml'] })).toEqual(['quokka tool']);
    await tagTokensAgree();
    expect(await found(sessionId, { include: ['web'] })).toEqual(['quokka draft', 'quokka tool']);

    await h.ok(Deactivate, { id: draft });
    expect(await found(sessionId)).toEqual(['quokka tool']);
    expect(await found(sessionId, {}, { includeInactive: true })).toEqual(['quokka draft', 'quokka tool']);
    await h.ok(Reactivate, { id: draft });
    expect(await found(sessionId, { include: ['web'] })).toEqual(['quokka draft', 'quokka tool']);

    // Promotion moves the entry to the project.
    await h.ok(Complete, { id: sessionId, promote: [draft] });
    expect(await found(own, { include: ['web'] })).toEqual(['quokka draft', 'quokka tool']);
    await tagTokensAgree();
  });

  it('ranks every query shape exactly as the exhaustive ranking does', async () => {
    // The engine's shortcuts (pruning a whole-chain query, starting from tags, relations or text
    // matches, leaving a task's common words out before ranking) against the same engine ranking
    // every entry of the chain with every filter checked per entry (EXHAUSTIVE_RANKING).
    const Import = graphql(`
      mutation RankImport($entries: [ImportEntryInput!]!) {
        importEntries(input: { entries: $entries }) { __typename }
      }
    `);
    const Bump = graphql(`mutation RankBump($id: ID!, $c: String!) { updateGuideline(input: { id: $id, content: $c }) { __typename } }`);
    const Ctx = graphql(`
      query RankContext($input: ContextInput!) {
        context(input: $input) { guidelines { score node { id } } tools { score node { id } } knowledge { score node { id } } }
      }
    `);
    const rankOrg = await h.ok(CreateOrg, { name: 'mq-ranking-org' });
    const org = rankOrg.createOrganization.__typename === 'CreateOrganizationSuccess' ? rankOrg.createOrganization.organization.id : '';
    const own = await createProject(h, 'mq-ranking', org);
    const sessionId = await startSession(h, own, 'mq-ranking-session');
    const word = (i: number) => ['alpha', 'bravo', 'charlie', 'delta'][i % 4];
    const entries = (scope: string, prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const kind = (['GUIDELINE', 'TOOL', 'KNOWLEDGE'] as const)[i % 3]!;
        return {
          scope,
          kind,
          // Every fifth name repeats across scopes: the nearer entry overrides the farther one.
          name: i % 5 === 0 ? `shared-${i}` : `${prefix}-${i}`,
          ...(kind === 'GUIDELINE' ? { content: `rule ${word(i)}`, priority: (i * 37) % 101 } : kind === 'TOOL' ? { description: `tool ${word(i)}` } : { content: `fact ${word(i)}` }),
          tags: ['everything', i % 2 ? 'odd' : 'even', ...(i % 7 === 0 ? ['seventh'] : [])],
        };
      });
    await h.ok(Import, { entries: entries(org, 'org', 60) });
    // Enough text matches in reach that context's page (100) leaves most of them out.
    await h.ok(Import, { entries: entries(own, 'project', 400) });
    // Created after the org's and the project's entries: a time range that splits the chain.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sessionImported = new Date().toISOString();
    await h.ok(Import, { entries: entries(sessionId, 'session', 45) });
    // Expired knowledge carrying the tags (validUntil passed): out unless includeExpired, in counts too.
    await h.ok(Import, {
      entries: Array.from({ length: 4 }, (_, i) => ({
        scope: i % 2 ? own : sessionId,
        kind: 'KNOWLEDGE' as const,
        name: `expired-${i}`,
        content: `fact ${word(i)}`,
        validUntil: '2020-01-01T00:00:00.000Z',
        tags: ['everything', i % 2 ? 'odd' : 'even'],
      })),
    });
    // Recency apart from creation order: some guidelines change later.
    const guidelines = await h.ok(Query, { input: { scope: own, inherit: false, kinds: ['GUIDELINE'] }, first: 30 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const edge of guidelines.memoryQuery.edges.slice(5, 12)) await h.ok(Bump, { id: edge.node.id, c: 'changed' });
    await h.ok(Deactivate, { id: guidelines.memoryQuery.edges[0]!.node.id });
    const hub = guidelines.memoryQuery.edges[20]!.node.id;
    await h.ok(Relate, { input: { source: hub, target: own, type: 'APPLIES_TO' } });
    for (const edge of guidelines.memoryQuery.edges.slice(21, 27)) await h.ok(Relate, { input: { source: edge.node.id, target: hub, type: 'RELATED_TO' } });
    await h.ok(Relate, { input: { source: hub, target: guidelines.memoryQuery.edges[28]!.node.id, type: 'DEPENDS_ON' } });

    // Ids in order, and scores (recency moves on ~2e-7 a second between the two queries, which a
    // loaded machine can run seconds apart: 4 places).
    const same = (a: Array<{ score: number; node: { id: string } }>, b: typeof a, label: string) => {
      expect(a.map((e) => e.node.id), label).toEqual(b.map((e) => e.node.id));
      a.forEach((e, i) => expect(e.score, label).toBeCloseTo(b[i]!.score, 4));
    };
    // Without the total, a query with an `include` tag is pruned too (with it, it ranks the tag's entries).
    const Ranked = graphql(`
      query RankNoTotal($input: MemoryQueryInput!, $first: Int) {
        memoryQuery(input: $input, first: $first) { edges { score node { id } } }
      }
    `);
    const cases = [
      { scope: sessionId },
      { scope: sessionId, kinds: ['TOOL', 'KNOWLEDGE'] as const },
      { scope: sessionId, kinds: ['GUIDELINE'] as const, includeInactive: true },
      { scope: own, tags: { exclude: ['odd'] } },
      { scope: sessionId, includeOverridden: true },
      { scope: sessionId, tags: { include: ['odd'] } },
      { scope: sessionId, tags: { include: ['seventh', 'even'] } },
      { scope: sessionId, tags: { include: ['no-such-tag'] } },
      { scope: sessionId, tags: { require: ['even', 'seventh'], exclude: ['odd'] } },
      { scope: sessionId, tags: { require: ['even'], exclude: ['even'] } },
      // One driving tag less the excluded ones (counted apart: see taggedCount).
      { scope: sessionId, tags: { include: ['even'], exclude: ['seventh'] } },
      { scope: sessionId, tags: { require: ['everything'], exclude: ['seventh', 'odd', 'no-such-tag'] } },
      { scope: sessionId, tags: { require: ['odd'], exclude: ['seventh'] }, includeInactive: true, kinds: ['GUIDELINE', 'TOOL'] as const },
      { scope: sessionId, tags: { include: ['everything'], exclude: ['even'] }, includeOverridden: true },
      { scope: sessionId, tags: { include: ['seventh', 'odd'], exclude: ['odd'] } },
      { scope: sessionId, tags: { include: ['odd', 'no-such-tag'], exclude: ['odd'] } },
      { scope: own, tags: { require: ['seventh'], exclude: ['no-such-tag'] }, kinds: ['GUIDELINE'] as const },
      // Tags with filters the tags' links check themselves (expiry), and with one they do not (time).
      { scope: sessionId, tags: { include: ['odd'] }, includeExpired: true },
      { scope: sessionId, tags: { require: ['everything'] }, includeExpired: true },
      { scope: sessionId, tags: { include: ['even'], exclude: ['seventh'] }, includeExpired: true },
      { scope: sessionId, tags: { include: ['odd'] }, createdAfter: sessionImported },
      { scope: sessionId, tags: { require: ['even'] }, createdBefore: sessionImported },
      { scope: sessionId, relatedTo: hub },
      { scope: sessionId, relatedTo: hub, relationType: 'RELATED_TO' as const },
      { scope: sessionId, relatedTo: own },
      { scope: sessionId, search: 'bravo', tags: { include: ['odd'] } },
      { scope: sessionId, search: 'rule charlie', tags: { exclude: ['seventh'] } },
    ];
    for (const input of cases) {
      for (const first of [1, 5, 30]) {
        const page = await h.ok(Query, { input: input as never, first });
        const full = await exhaustive.ok(Query, { input: input as never, first });
        same(page.memoryQuery.edges, full.memoryQuery.edges, JSON.stringify({ input, first }));
        expect(page.memoryQuery.meta.totalCount).toBe(full.memoryQuery.meta.totalCount);
        const untotalled = await h.ok(Ranked, { input: input as never, first });
        same(untotalled.memoryQuery.edges, full.memoryQuery.edges, `${JSON.stringify({ input, first })} without the total`);
      }
    }
    // context, whose task raises scores without filtering.
    // (A task whose words match nothing in reach is settled by pruning, as one without words.)
    for (const task of ['bravo rule', 'xylophone quasar']) {
      for (const tokenBudget of [300, 100_000]) {
        for (const tags of [{}, { include: ['odd'] }]) {
          const plain = (await h.ok(Ctx, { input: { scope: sessionId, task, tokenBudget, tags } })).context;
          const full = (await exhaustive.ok(Ctx, { input: { scope: sessionId, task, tokenBudget, tags } })).context;
          for (const kind of ['guidelines', 'tools', 'knowledge'] as const) {
            same(plain[kind], full[kind], `context ${task} ${kind} ${tokenBudget} ${JSON.stringify(tags)}`);
          }
        }
      }
    }
  });

  it('context ranks weak text matches of a nearer scope above strong ones of a farther scope, as the exhaustive ranking does', async () => {
    // The page then holds text matches that are neither among the best-ranked matches nor among
    // the most recent entries of their scope: the bound on text matches must let them in.
    const Import = graphql(`
      mutation CtxImport($entries: [ImportEntryInput!]!) { importEntries(input: { entries: $entries }) { __typename } }
    `);
    const Ctx = graphql(`
      query CtxTools($input: ContextInput!) { context(input: $input) { tools { score node { id } } } }
    `);
    const own = await createProject(h, 'mq-context-text');
    const sessionId = await startSession(h, own, 'mq-context-text-session');
    const filler = Array.from({ length: 40 }, (_, i) => `filler${i % 7}`).join(' ');
    const tools = (scope: string, prefix: string, n: number, text: (i: number) => string) =>
      Array.from({ length: n }, (_, i) => ({ scope, kind: 'TOOL' as const, name: `${prefix}-${i}`, description: text(i) }));
    await h.ok(Import, { entries: tools(own, 'strong', 300, (i) => `bravo bravo bravo ${i % 2 ? 'bravo' : ''}`) });
    await h.ok(Import, { entries: tools(own, 'super', 1, () => Array.from({ length: 30 }, () => 'bravo').join(' ')) });
    await h.ok(Import, { entries: tools(sessionId, 'weak', 300, (i) => `bravo ${filler}${i % 3 ? ` ${filler}` : ''}`) });
    const plain = (await h.ok(Ctx, { input: { scope: sessionId, task: 'bravo', kinds: ['TOOL'], tokenBudget: 1_000_000 } })).context.tools;
    const full = (await exhaustive.ok(Ctx, { input: { scope: sessionId, task: 'bravo', kinds: ['TOOL'], tokenBudget: 1_000_000 } })).context.tools;
    expect(plain).toHaveLength(100);
    expect(plain.map((e) => e.node.id)).toEqual(full.map((e) => e.node.id));
    // Recency moves with the clock (~2e-7 a second for a fresh entry): on a loaded machine the two
    // queries can be seconds apart, so the scores agree to 4 places, not 6.
    plain.forEach((e, i) => expect(e.score).toBeCloseTo(full[i]!.score, 4));
  });

  it('finds entries related to an entry or a scope, in either direction, optionally by type', async () => {
    const toLint = await h.ok(Query, { input: { scope: session, relatedTo: ids.lint } });
    expect(names(toLint)).toEqual(['style']);
    const fromStyle = await h.ok(Query, { input: { scope: session, relatedTo: ids.projectStyle } });
    expect(names(fromStyle)).toEqual(['lint']);
    const typed = await h.ok(Query, { input: { scope: session, relatedTo: ids.lint, relationType: 'DEPENDS_ON' } });
    expect(names(typed)).toEqual([]);
    const toProject = await h.ok(Query, { input: { scope: session, relatedTo: project } });
    expect(names(toProject)).toEqual(['no-secrets']);
  });

  it('pages with cursors that stay valid while entries are written', async () => {
    const first = await h.ok(Query, { input: { scope: session }, first: 2 });
    expect(first.memoryQuery.meta).toMatchObject({ totalCount: 6, returnedCount: 2, hasMore: true, truncated: false });
    const seen = names(first);
    await addKnowledge(h, session, 'written meanwhile');
    let after = first.memoryQuery.pageInfo.endCursor;
    for (;;) {
      const next = await h.ok(Query, { input: { scope: session }, first: 2, after: after ?? null });
      seen.push(...names(next));
      if (!next.memoryQuery.pageInfo.hasNextPage) break;
      after = next.memoryQuery.pageInfo.endCursor;
    }
    const original = ['deploy', 'lint', 'no-secrets', 'pipeline notes', 'pipeline pipeline', 'style'];
    for (const name of original) expect(seen.filter((n) => n === name)).toHaveLength(1);
    const bad = await h.gql(Query, { input: { scope: session }, after: 'nope' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('first: 0 (or a budget too small for one result) says hasMore with a cursor to continue from: the start', async () => {
    const input = { scope: project };
    const all = names(await h.ok(Query, { input, first: 100 }));
    expect(all.length).toBeGreaterThan(2);
    const zero = (await h.ok(Query, { input, first: 0 })).memoryQuery;
    expect(zero.edges).toEqual([]);
    expect(zero.meta).toMatchObject({ returnedCount: 0, hasMore: true });
    expect(zero.pageInfo.hasNextPage).toBe(true);
    expect(zero.pageInfo.endCursor).toEqual(expect.stringMatching(/^.+$/));
    // After it come the results from the first one.
    expect(names(await h.ok(Query, { input, first: 100, after: zero.pageInfo.endCursor }))).toEqual(all);
    expect(names(await h.ok(Query, { input, first: 2, after: zero.pageInfo.endCursor }))).toEqual(all.slice(0, 2));
    // Given a cursor, a page without results stays at it.
    const two = (await h.ok(Query, { input, first: 2 })).memoryQuery;
    const stay = (await h.ok(Query, { input, first: 0, after: two.pageInfo.endCursor })).memoryQuery;
    expect(stay.pageInfo).toEqual({ hasNextPage: true, endCursor: two.pageInfo.endCursor });
    // A budget the first result does not fit in is the same: nothing returned, more to come from the start.
    const tight = (await h.ok(Query, { input: { ...input, tokenBudget: 1 }, first: 10 })).memoryQuery;
    expect(tight.meta).toMatchObject({ returnedCount: 0, truncated: true, hasMore: true });
    expect(names(await h.ok(Query, { input, first: 100, after: tight.pageInfo.endCursor }))).toEqual(all);
    // Nothing to find: no cursor.
    const bare = await createProject(h, 'mq-first-0-bare');
    const nothing = (await h.ok(Query, { input: { scope: bare, inherit: false }, first: 0 })).memoryQuery;
    expect({ ...nothing.pageInfo, hasMore: nothing.meta.hasMore }).toEqual({ hasNextPage: false, endCursor: null, hasMore: false });
  });

  it('stops before the token budget and says so', async () => {
    const all = await h.ok(Query, { input: { scope: session, kinds: ['GUIDELINE', 'TOOL'] } });
    const [a, b] = all.memoryQuery.edges;
    const budget = a!.estimatedTokens + b!.estimatedTokens;
    const r = await h.ok(Query, { input: { scope: session, kinds: ['GUIDELINE', 'TOOL'], tokenBudget: budget } });
    expect(r.memoryQuery.meta).toMatchObject({ returnedCount: 2, truncated: true, hasMore: true, estimatedTokens: budget, tokenBudget: budget });
    const compact = await h.ok(Query, { input: { scope: session, kinds: ['GUIDELINE', 'TOOL'], compact: true } });
    expect(compact.memoryQuery.meta.estimatedTokens).toBeLessThan(all.memoryQuery.meta.estimatedTokens);
    // A compact result is 12 tokens of id, kind and score plus its name at 4 characters a token.
    const compactTokens = compact.memoryQuery.edges.map((e) => 12 + Math.ceil(e.node.name.length / 4));
    expect(compact.memoryQuery.edges.map((e) => e.estimatedTokens)).toEqual(compactTokens);
    expect(compact.memoryQuery.meta.estimatedTokens).toBe(compactTokens.reduce((a, b) => a + b, 0));
  });

  it('leaves deactivated entries out unless asked, and filters by time', async () => {
    const temp = await addKnowledge(h, session, 'temporary');
    await h.ok(Deactivate, { id: temp });
    expect(names(await h.ok(Query, { input: { scope: session, inherit: false } }))).not.toContain('temporary');
    expect(names(await h.ok(Query, { input: { scope: session, inherit: false, includeInactive: true } }))).toContain('temporary');
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await h.ok(Query, { input: { scope: session, createdAfter: future } })).memoryQuery.meta.totalCount).toBe(0);
    const everything = (await h.ok(Query, { input: { scope: session } })).memoryQuery.meta.totalCount;
    expect((await h.ok(Query, { input: { scope: session, createdBefore: future } })).memoryQuery.meta.totalCount).toBe(everything);
  });

  it('filters by creation and change time: after is inclusive, before exclusive', async () => {
    const Times = graphql(`
      query MemoryTimes($input: MemoryQueryInput!) { memoryQuery(input: $input, first: 50) { edges { node { name createdAt updatedAt } } } }
    `);
    const Touch = graphql(`mutation MemoryTouch($id: ID!) { updateTool(input: { id: $id, description: "changed" }) { __typename } }`);
    const own = await createProject(h, 'mq-times');
    const tick = () => new Promise((resolve) => setTimeout(resolve, 15));
    const changed = await addTool(h, own, 'changed later');
    await addTool(h, own, 'untouched');
    await tick();
    const mid = new Date().toISOString();
    await tick();
    await h.ok(Touch, { id: changed });
    await tick();
    await addTool(h, own, 'new');
    const found = async (times: Record<string, string>) =>
      (await h.ok(Times, { input: { scope: own, inherit: false, ...times } })).memoryQuery.edges.map((e) => e.node.name).sort();
    expect(await found({ createdAfter: mid })).toEqual(['new']);
    expect(await found({ createdBefore: mid })).toEqual(['changed later', 'untouched']);
    expect(await found({ updatedAfter: mid })).toEqual(['changed later', 'new']);
    expect(await found({ updatedBefore: mid })).toEqual(['untouched']);
    const all = (await h.ok(Times, { input: { scope: own, inherit: false } })).memoryQuery.edges.map((e) => e.node);
    const touched = all.find((n) => n.name === 'changed later')!;
    expect(Date.parse(touched.updatedAt)).toBeGreaterThan(Date.parse(mid));
    expect(Date.parse(touched.createdAt)).toBeLessThan(Date.parse(mid));
    expect(await found({ updatedAfter: touched.updatedAt, updatedBefore: touched.updatedAt })).toEqual([]);
    const newest = all.find((n) => n.name === 'new')!;
    expect(await found({ updatedAfter: touched.updatedAt, updatedBefore: newest.updatedAt })).toEqual(['changed later']);
  });

  it('context: the relevant entries of a task within a budget, grouped by kind', async () => {
    const Context = graphql(`
      query MemoryContext($input: ContextInput!) {
        context(input: $input) {
          guidelines { score node { name } }
          tools { score node { name } }
          knowledge { score breakdown { text } node { name } }
          scopeChain { kind }
          tokensUsed
          tokenBudget
          truncated
        }
      }
    `);
    const r = await h.ok(Context, { input: { scope: session, task: 'Why does the pipeline flake?' } });
    expect(r.context.scopeChain.map((s) => s.kind)).toEqual(['SESSION', 'PROJECT', 'ORGANIZATION', 'GLOBAL']);
    expect(r.context.guidelines.map((e) => e.node.name).sort()).toEqual(['no-secrets', 'style']);
    expect(r.context.tools.map((e) => e.node.name).sort()).toEqual(['deploy', 'lint']);
    // Matching the task raises knowledge about the pipeline; nothing is dropped for not matching.
    expect(r.context.knowledge[0]?.node.name).toBe('pipeline notes');
    // Relative to the best rank, which each database's full-text ranking decides.
    expect(r.context.knowledge[0]?.breakdown.text).toBeGreaterThan(0);
    expect(r.context).toMatchObject({ tokenBudget: 4000, truncated: false });
    // Everything in reach fits: the tokens are those memoryQuery estimates for all of it.
    const all = await h.ok(Query, { input: { scope: session }, first: 50 });
    expect(r.context.tokensUsed).toBe(all.memoryQuery.meta.estimatedTokens);
    const tokensOf = (name: string) => all.memoryQuery.edges.find((e) => e.node.name === name)!.estimatedTokens;
    // 60 tokens hold the best entry (no-secrets, related to the project: 35 tokens), not a second one.
    const tight = await h.ok(Context, { input: { scope: session, task: 'pipeline', tokenBudget: 60 } });
    expect(tight.context).toMatchObject({ guidelines: [{ node: { name: 'no-secrets' } }], tools: [], knowledge: [], truncated: true });
    expect(tight.context.tokensUsed).toBe(tokensOf('no-secrets'));
  });

  it("context refuses a task that is not Unicode text, or too long, as the task's mistake", async () => {
    const Context = graphql(`query MemoryContextTask($input: ContextInput!) { context(input: $input) { tokensUsed } }`);
    const refusal = async (task: string) => {
      const r = await h.gql(Context, { input: { scope: session, task } });
      return r.errors?.map((e) => [e.extensions?.code, e.message]);
    };
    // Half of a surrogate pair is no word, so the words alone would not see it.
    expect(await refusal('pipeline \ud800 flake')).toEqual([['VALIDATION_FAILED', expect.stringMatching(/input\.task: must be Unicode text/)]]);
    expect(await refusal('a'.repeat(100_001))).toEqual([['VALIDATION_FAILED', expect.stringMatching(/input\.task: must be at most 100000 characters/)]]);
    // A long task is free text: its words are what is searched, and they are held to a search's length.
    expect(await refusal(`${'pipeline '.repeat(1_000)}flake`)).toBeUndefined();
    expect(await refusal('a'.repeat(5_000))).toEqual([['VALIDATION_FAILED', expect.stringMatching(/input\.task: its first 16 different words must be at most 4000 characters together/)]]);
  });
});
