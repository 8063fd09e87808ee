import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, SCREENSHOTS, haveChromium, launchChromium, offlineContext } from './support/browser.ts';
import { as, ok, principal } from './support/access.ts';
import { useHarness } from './support/harness.ts';
import { tcpProxy } from './support/tcp-proxy.ts';

/**
 * The dashboard at /ui, in a real headless Chromium with every outside request refused: a conflict
 * caused through the API shows up live, is resolved from the page, and the entry changes; session
 * events and state arrive live; an entry's history shows its diffs. Screenshots go to
 * reports/screenshots (the README's comes from there).
 */
if (!haveChromium) {
  console.warn(`\n[engram] Skipping the dashboard browser test: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).\n`);
}

const root = join(import.meta.dirname, '..');
const h = useHarness({ listen: true });
const base = () => `http://127.0.0.1:${h.port}`;

/** A GraphQL call over HTTP as an agent would make it; fails the test on any error. */
async function api(query: string, variables: Record<string, unknown> = {}, actor = 'agent:7'): Promise<any> {
  const response = await fetch(`${base()}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-actor': actor },
    body: JSON.stringify({ query, variables }),
  });
  const answer: any = await response.json();
  expect(answer.errors).toBeUndefined();
  return answer.data;
}

async function project(name: string): Promise<string> {
  const data = await api('mutation ($name: String!) { createProject(input: { name: $name }) { ... on CreateProjectSuccess { project { id } } } }', { name });
  return data.createProject.project.id;
}

async function guideline(scope: string, name: string, content: string): Promise<string> {
  const data = await api(
    'mutation ($input: AddGuidelineInput!) { addGuideline(input: $input) { ... on AddGuidelineSuccess { guideline { id } } } }',
    { input: { scope, name, content, category: 'security' } },
  );
  return data.addGuideline.guideline.id;
}

/** Two agents update from version 1: the second write is behind and becomes a conflict. */
async function conflictOn(id: string, mine: string, theirs: string): Promise<void> {
  const update = 'mutation ($input: UpdateGuidelineInput!) { updateGuideline(input: $input) { __typename ... on UpdateGuidelineSuccess { update { conflicted } } } }';
  const first = await api(update, { input: { id, content: mine, expectedVersion: 1 } }, 'agent:alice');
  expect(first.updateGuideline.update.conflicted).toBe(false);
  const second = await api(update, { input: { id, content: theirs, expectedVersion: 1 } }, 'agent:bob');
  expect(second.updateGuideline.update.conflicted).toBe(true);
}

async function currentContent(id: string): Promise<{ content: string; conflicts: number }> {
  const data = await api('query ($id: ID!) { entry(id: $id) { unresolvedConflictCount currentVersion { ... on GuidelineVersion { content } } } }', { id });
  return { content: data.entry.currentVersion.content, conflicts: data.entry.unresolvedConflictCount };
}

describe('the dashboard bundle', () => {
  it('is built from the current ui/ sources (npm install and npm run build:ui build it)', async () => {
    const { sourceDigest } = await import('../scripts/build-ui.mjs');
    const built = readFileSync(join(root, 'dist', 'ui', 'source.sha256'), 'utf8').trim();
    expect(built, 'ui/ changed after dist/ui was built: run npm run build:ui').toBe(sourceDigest());
  });

  it('is served from /ui with a strict content policy, cached by hash, compressed', async () => {
    const redirect = await fetch(`${base()}/ui`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/ui/');
    // As a browser asks for it: GraphiQL's delivery must not take over other HTML pages.
    const page = await fetch(`${base()}/ui/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /src="(assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base()}/ui/${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-encoding')).toBe('br');
    const again = await fetch(`${base()}/ui/${script}`, { headers: { 'if-none-match': asset.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${base()}/ui/assets/nothing.js`)).status).toBe(404);
    expect((await fetch(`${base()}/ui/`, { method: 'POST' })).status).toBe(405);
  });
});

describe.skipIf(!haveChromium)('the dashboard in headless Chromium, offline', () => {
  let browser: Browser;
  let page: Page;
  const outside: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await offlineContext(browser, `127.0.0.1:${h.port}`, outside);
    page = await context.newPage();
    // Script errors and refusals by the content policy show up here.
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}-${process.env.ENGRAM_TEST_DB ?? 'sqlite'}.png`), fullPage: true });

  it('shows a conflict within a second of the write, and resolves it with a merge', { timeout: 60_000 }, async () => {
    const web = await project('web');
    const id = await guideline(web, 'no-secrets', 'Never commit credentials.\nUse the vault.');
    await page.goto(`${base()}/ui/#/conflicts/${web}`);
    await page.getByText('No conflicts here').waitFor();
    await page.locator('.link.live').waitFor();

    await conflictOn(id, 'Never commit credentials.\nUse the vault for every secret.', 'Never commit credentials or tokens.\nUse the vault.');
    // Live: the subscription delivers it, no reload.
    await page.locator('[data-conflict]', { hasText: 'no-secrets' }).waitFor({ timeout: 1_000 });
    await page.locator('[data-conflict]').click();
    await page.locator('.diff td.removed', { hasText: 'Use the vault for every secret.' }).waitFor();
    await page.locator('.diff td.added', { hasText: 'Never commit credentials or tokens.' }).waitFor();
    await shot('conflict');

    await page.getByRole('button', { name: 'Merge…' }).click();
    const merged = 'Never commit credentials or tokens.\nUse the vault for every secret.';
    await page.locator('textarea[name=content]').fill(merged);
    await page.getByPlaceholder('Note (optional)').fill('both were right');
    await page.getByRole('button', { name: 'Save merged version' }).click();
    await page.getByText('Resolved: the entry is now at version 4.').waitFor();
    await page.locator('.resolved', { hasText: 'Merged by user' }).waitFor();
    await shot('resolved');

    expect(await currentContent(id)).toEqual({ content: merged, conflicts: 0 });
    const data = await api('query ($scope: ID!) { conflicts(filter: { scope: $scope }) { edges { node { resolution resolvedBy note } } } }', { scope: web });
    expect(data.conflicts.edges).toEqual([{ node: { resolution: 'MERGED', resolvedBy: 'user', note: 'both were right' } }]);
  });

  it('keeps the current version, and drops a conflict another client resolved', { timeout: 60_000 }, async () => {
    const api2 = await project('api');
    const first = await guideline(api2, 'retries', 'Retry twice.');
    const second = await guideline(api2, 'timeouts', 'Time out after 5 s.');
    await page.goto(`${base()}/ui/#/conflicts/${api2}`);
    await page.locator('.link.live').waitFor();
    await conflictOn(first, 'Retry three times.', 'Never retry.');
    await conflictOn(second, 'Time out after 10 s.', 'Time out after 1 s.');
    await page.locator('[data-conflict]').nth(1).waitFor({ timeout: 1_000 });

    await page.locator('[data-conflict]', { hasText: 'retries' }).click();
    await page.getByRole('button', { name: 'Keep current' }).click();
    // Version 3 (the incoming one) was current: keeping version 2 writes it again as version 4.
    await page.getByText('Resolved: the entry is now at version 4.').waitFor();
    expect(await currentContent(first)).toEqual({ content: 'Retry three times.', conflicts: 0 });

    // Resolved elsewhere (an agent through the API): it leaves the open list live.
    const open = await api('query ($scope: ID!) { conflicts(filter: { scope: $scope, resolved: false }) { edges { node { id entry { name } } } } }', { scope: api2 });
    expect(open.conflicts.edges.map((e: any) => e.node.entry.name)).toEqual(['timeouts']);
    await api('mutation ($id: ID!) { resolveConflict(input: { id: $id, strategy: TAKE_INCOMING }) { __typename } }', { id: open.conflicts.edges[0].node.id });
    await page.locator('[data-conflict]', { hasText: 'timeouts' }).waitFor({ state: 'detached', timeout: 1_000 });
    expect(await currentContent(second)).toEqual({ content: 'Time out after 1 s.', conflicts: 0 });
  });

  it('follows a session: events and state arrive live', { timeout: 60_000 }, async () => {
    const web = await project('agents');
    const started = await api(
      'mutation ($project: ID!) { startSession(input: { project: $project, name: "fix-login", agentId: "coder" }) { ... on StartSessionSuccess { session { id } } } }',
      { project: web },
    );
    const session = started.startSession.session.id;
    await page.goto(`${base()}/ui/#/sessions/${web}/${session}`);
    await page.locator('.link.live').waitFor();
    await page.getByRole('heading', { name: /fix-login/ }).waitFor();
    // The project was made after the page loaded: the picker reads the scopes again and names it.
    await page.locator('select[aria-label=Scope] option:checked', { hasText: 'agents' }).waitFor({ state: 'attached' });

    const append = 'mutation ($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }';
    await api(append, { input: { session, type: 'ACTION', actor: 'agent:coder', content: { step: 'read login.ts' }, stateDelta: { 'session:step': 1 } } });
    await page.locator('.events li', { hasText: 'read login.ts' }).waitFor({ timeout: 1_000 });
    await page.locator('.state th', { hasText: 'session:step' }).waitFor({ timeout: 2_000 });
    await api(append, { input: { session, type: 'MESSAGE', actor: 'user', content: { text: 'looks good' } } });
    await page.locator('.events li', { hasText: 'looks good' }).waitFor({ timeout: 1_000 });
    // The project's session list follows the same stream.
    await page.locator('.list button', { hasText: '3 events' }).waitFor({ timeout: 2_000 });
    await shot('session');
  });

  it("browses an entry's history with what each version changed", { timeout: 60_000 }, async () => {
    const docs = await project('docs');
    const id = await guideline(docs, 'style', 'Short sentences.');
    await api('mutation ($id: ID!) { updateGuideline(input: { id: $id, content: "Short sentences.\\nActive voice." }) { __typename } }', { id });
    await page.goto(`${base()}/ui/#/entries/${docs}/${id}`);
    await page.getByText('2 versions').waitFor();
    await page.locator('.version').first().locator('td.added', { hasText: 'Active voice.' }).waitFor();
    // A new entry written by an agent appears in the list without a reload.
    await guideline(docs, 'naming', 'Name things for what they do.');
    await page.locator('.list button', { hasText: 'naming' }).waitFor({ timeout: 2_000 });
    await shot('entries');

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('after its connection drops, the events written meanwhile arrive by replay from their cursor, with no reload', { timeout: 60_000 }, async () => {
    // The page talks to the server through a proxy the test cuts.
    const closers: Array<() => unknown> = [];
    const proxy = await tcpProxy(h.port, (close) => closers.push(close));
    const at = `127.0.0.1:${new URL(proxy.url).port}`;
    const context = await offlineContext(browser, at, outside);
    try {
      const resumed = await context.newPage();
      let detailReads = 0;
      resumed.on('request', (request) => void (request.postData()?.includes('query DashboardSession(') && detailReads++));
      const web = await project('resume');
      const started = await api('mutation ($project: ID!) { startSession(input: { project: $project, name: "long-run" }) { ... on StartSessionSuccess { session { id } } } }', { project: web });
      const session = started.startSession.session.id;
      const append = (text: string) => api('mutation ($input: AppendSessionEventInput!) { appendSessionEvent(input: $input) { __typename } }', { input: { session, type: 'MESSAGE', actor: 'agent:coder', content: { text } } });
      await resumed.goto(`http://${at}/ui/#/sessions/${web}/${session}`);
      await resumed.locator('.link.live').waitFor();
      await append('before the drop');
      await resumed.locator('.events li', { hasText: 'before the drop' }).waitFor({ timeout: 2_000 });
      const reads = detailReads;

      proxy.cut();
      await resumed.locator('.link.reconnecting').waitFor();
      await append('while away 1');
      await append('while away 2');
      proxy.restore();
      await resumed.locator('.link.live').waitFor({ timeout: 20_000 });
      await resumed.locator('.events li', { hasText: 'while away 2' }).waitFor({ timeout: 5_000 });
      await append('after');
      await resumed.locator('.events li', { hasText: 'after' }).last().waitFor({ timeout: 2_000 });
      const texts = await resumed.locator('.events li').allInnerTexts();
      expect(texts.filter((t) => /before the drop|while away|after/.test(t)).map((t) => /(before the drop|while away \d|after)/.exec(t)![1])).toEqual([
        'before the drop',
        'while away 1',
        'while away 2',
        'after',
      ]);
      // Replayed, not reloaded: the session was read once.
      expect(detailReads).toBe(reads);
    } finally {
      await context.close();
      for (const close of closers.reverse()) await close();
    }
  });
});

describe.skipIf(!haveChromium)('the dashboard in protected mode', () => {
  // A server of its own: once a key exists, callers over the network need one.
  const p = useHarness({ listen: true });
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('asks for a key, then reads and writes as that key allows', { timeout: 60_000 }, async () => {
    const made = await ok(p, null, 'mutation { createProject(input: { name: "secure" }) { ... on CreateProjectSuccess { project { id } } } }');
    const scope = made.createProject.project.id as string;
    const reader = await principal(p, 'dashboard-reader', { kind: 'USER', grants: [[scope, 'READ']] });
    const added = await ok(p, null, `mutation { addGuideline(input: { scope: "${scope}", name: "audit", content: "Log access." }) { ... on AddGuidelineSuccess { guideline { id } } } }`);
    const id = added.addGuideline.guideline.id as string;

    const outside: string[] = [];
    const page = await (await offlineContext(browser, `127.0.0.1:${p.port}`, outside)).newPage();
    await page.goto(`http://127.0.0.1:${p.port}/ui/#/conflicts/${scope}`);
    await page.locator('.problem code', { hasText: 'UNAUTHENTICATED' }).first().waitFor();

    await page.getByRole('button', { name: 'API key' }).click();
    await page.getByLabel('API key').fill(reader.key);
    await page.getByRole('button', { name: 'Use' }).click();
    await page.getByText('No conflicts here').waitFor();
    await page.getByRole('button', { name: 'Key: dashboard-reader' }).waitFor();
    await page.locator('.link.live').waitFor();

    // The live stream runs under the key too: a conflict made by the admin shows up.
    const update = `mutation ($content: String!) { updateGuideline(input: { id: "${id}", content: $content, expectedVersion: 1 }) { __typename } }`;
    await as(p, null, update, { content: 'Log every access.' }, { 'x-engram-actor': 'agent:a' });
    await as(p, null, update, { content: 'Log writes.' }, { 'x-engram-actor': 'agent:b' });
    await page.locator('[data-conflict]', { hasText: 'audit' }).waitFor({ timeout: 1_000 });

    // READ may not resolve: the page shows the server's refusal and nothing changes.
    await page.locator('[data-conflict]').click();
    await page.getByRole('button', { name: 'Take incoming' }).click();
    await page.locator('.detail .problem code', { hasText: 'FORBIDDEN' }).waitFor();
    const entry = await ok(p, null, `{ entry(id: "${id}") { latestVersion unresolvedConflictCount } }`);
    expect(entry.entry).toEqual({ latestVersion: 3, unresolvedConflictCount: 1 });
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-forbidden-${process.env.ENGRAM_TEST_DB ?? 'sqlite'}.png`), fullPage: true });
    expect(outside).toEqual([]);
  });
});

