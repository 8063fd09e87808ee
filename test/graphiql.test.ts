import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SESSION, renderPage } from '../src/server/graphiql.ts';
import { CHROMIUM, haveChromium, launchChromium, offlineContext } from './support/browser.ts';
import { useHarness } from './support/harness.ts';
import { principalWithKey } from './support/keys.ts';

/**
 * GraphiQL at GET /graphql: served entirely by Engram (no outside request), compressed and
 * revalidatable, with the README's first session and the actor header preset; driven in a real
 * headless Chromium (Debian's `chromium`) with every outside request blocked.
 */
if (!haveChromium) {
  console.warn(`\n[engram] Skipping the GraphiQL browser test: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).\n`);
}

const h = useHarness({ listen: true });
const endpoint = () => `http://127.0.0.1:${h.port}/graphql`;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET /graphql as a browser navigation, bytes as they come off the wire (Node's fetch would decompress). */
function getPage(headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(endpoint(), { headers: { accept: 'text/html', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GraphiQL first tab', () => {
  it("is the README's first session, operation for operation", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /### A first session in GraphiQL[\s\S]*?```graphql\n([\s\S]*?)```/.exec(readme)?.[1];
    const operations = (text: string) => text.split('\n').filter((line) => !line.startsWith('#')).join('\n').trim();
    expect(block).toBeDefined();
    expect(operations(FIRST_SESSION)).toBe(operations(block!));
  });
});

describe('GraphiQL page', () => {
  it("falls back to Yoga's fetcher when the fetcher is not built", () => {
    const html = renderPage('/nonexistent/graphiql.js');
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL(');
    expect(html).not.toContain('EngramGraphiQL');
  });
});

describe('GraphiQL page delivery', () => {
  it('is compressed with the best encoding the browser accepts, else sent as is', async () => {
    const plain = await getPage({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body.toString();
    expect(html).toContain('<title>Engram</title>');
    // GraphiQL gets Engram's fetcher, as built now (dist/ui/graphiql.js; the dashboard test checks it is of the current ui/).
    expect(html).toContain(readFileSync(new URL('../dist/ui/graphiql.js', import.meta.url), 'utf8'));
    expect(html).toContain('fetcher: EngramGraphiQL.createFetcher(location.pathname)');

    const br = await getPage({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // ~9 MB as sent by Yoga, ~2 MB compressed.
    expect(br.body.length).toBeLessThan(plain.body.length / 3);

    const gzip = await getPage({ 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(br.headers.vary).toBe('Accept-Encoding');
  });

  it('is revalidated with its ETag: a reload is a 304 without a body', async () => {
    const first = await getPage({ 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await getPage({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await getPage({ 'if-none-match': 'W/"other"' })).status).toBe(200);
  });

  it('leaves GraphQL responses alone (not compressed, so streams are not buffered)', async () => {
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

/** Writes through the real HTTP endpoint, as another agent. */
async function addToolOverHttp(scope: string, name: string): Promise<void> {
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-actor': 'agent:7' },
    body: JSON.stringify({
      query: 'mutation ($input: AddToolInput!) { addTool(input: $input) { __typename } }',
      variables: { input: { scope, name } },
    }),
  });
  expect(await response.json()).toEqual({ data: { addTool: { __typename: 'AddToolSuccess' } } });
}

/** Who wrote the current version of each guideline of `scope`, over HTTP. */
async function guidelineAuthors(scope: string): Promise<(string | null)[]> {
  const response = await fetch(endpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query ($scope: ID!) { guidelines(filter: { scope: $scope }) { edges { node { currentVersion { createdBy } } } } }',
      variables: { scope },
    }),
  });
  const { data } = (await response.json()) as { data: { guidelines: { edges: { node: { currentVersion: { createdBy: string | null } } }[] } } };
  return data.guidelines.edges.map((e) => e.node.currentVersion.createdBy);
}

/** What the result pane shows, without the line breaks Monaco wraps long strings with. */
const resultPane = async (page: Page) => (await page.locator('.result-window').innerText()).replace(/\s+/g, '');

/** Waits until the result pane shows `text` (Monaco splits it over several elements). */
const paneShows = (page: Page, text: string, timeout?: number) =>
  page.locator('.result-window', { hasText: text }).waitFor({ timeout });

/** Replaces the text of a visible Monaco editor (insertText: no auto-closed brackets). */
async function setEditorText(page: Page, container: string, text: string): Promise<void> {
  await page.locator(`${container} .monaco-editor:visible`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** Runs one operation of the active tab: the execute button lists them when there are several. */
async function runOperation(page: Page, name: string): Promise<unknown> {
  const response = page.waitForResponse((r) => r.request().method() === 'POST' && (r.request().postData() ?? '').includes(name));
  await page.locator('.graphiql-execute-button').click();
  await page.getByRole('menuitem', { name, exact: true }).click();
  return (await response).json();
}

describe.skipIf(!haveChromium)('GraphiQL in headless Chromium, offline', () => {
  let browser: Browser;
  let page: Page;
  const outside: string[] = [];
  const sockets: WebSocket[] = [];
  /** Every WebSocket message the page sent. */
  const sentFrames: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await offlineContext(browser, `127.0.0.1:${h.port}`, outside);
    page = await context.newPage();
    page.on('websocket', (ws) => {
      sockets.push(ws);
      ws.on('framesent', (frame) => sentFrames.push(String(frame.payload)));
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('runs the README first session and a subscription from the page', { timeout: 90_000 }, async () => {
    // GraphiQL's own introspection must pass the server's operation limits.
    const introspection = page.waitForResponse((r) => (r.request().postData() ?? '').includes('IntrospectionQuery'));
    const navigation = await page.goto(endpoint());
    expect(navigation?.headers()['content-encoding']).toBe('br');
    expect(await page.title()).toBe('Engram');
    // By the load event the page has asked for its styles, scripts and icon: none from elsewhere.
    expect(outside).toEqual([]);
    const schema = (await (await introspection).json()) as { data?: { __schema?: unknown }; errors?: unknown };
    expect(schema.errors).toBeUndefined();
    expect(schema.data?.__schema).toBeDefined();
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Loading');

    // The first tab holds the README's first session; the Headers tab names the actor.
    // Monaco renders spaces as no-break spaces.
    const query = (await page.locator('.graphiql-query-editor').innerText()).replace(/\u00a0/g, ' ');
    for (const operation of ['mutation CreateProject', 'mutation AddGuideline($project: ID!)', 'query Guidelines($project: ID!)']) {
      expect(query).toContain(operation);
    }
    await page.locator('button[data-name=headers]').click();
    expect((await page.locator('.graphiql-editor-tool').innerText()).replace(/\s+/g, '')).toContain('{"x-engram-actor":"user"}');

    const created = (await runOperation(page, 'CreateProject')) as { data: { createProject: { project: { id: string } } } };
    const project = created.data.createProject.project.id;
    await paneShows(page, '"createProject"');
    expect(await resultPane(page)).toContain(project);

    // The rest of the first session, with the project as variable.
    await page.locator('button[data-name=variables]').click();
    await setEditorText(page, '.graphiql-editor-tool', JSON.stringify({ project }));
    const added = (await runOperation(page, 'AddGuideline')) as { data: { addGuideline: { __typename: string } } };
    expect(added.data.addGuideline.__typename).toBe('AddGuidelineSuccess');
    await paneShows(page, '"AddGuidelineSuccess"');
    await runOperation(page, 'Guidelines');
    await paneShows(page, '"Never commit credentials."');
    const guidelines = await resultPane(page);
    expect(guidelines).toContain('"totalCount":1');
    expect(guidelines).toContain('"name":"no-secrets"');
    // The preset header made `user` the author of GraphiQL's write.
    expect(await guidelineAuthors(project)).toEqual(['user']);

    // A second tab subscribes to the project's entries over graphql-ws.
    await page.locator('.graphiql-tab-add').click();
    await setEditorText(page, '.graphiql-query-editor', `subscription { entryChanged(scope: "${project}") { type actor entry { name } } }`);
    // On a busy machine the click can land before the editor has taken the text: press the play
    // button until the subscribe message has gone out over the socket.
    const subscribed = () => sentFrames.some((f) => f.includes('"subscribe"') && f.includes('entryChanged'));
    for (let attempt = 1; !subscribed(); attempt++) {
      expect(attempt).toBeLessThan(5);
      await page.locator('.graphiql-execute-button').click();
      await expect.poll(subscribed, { timeout: 5_000 }).toBe(true).catch(() => undefined);
    }
    // Subscriptions register asynchronously: write until one event shows in the result pane.
    for (let n = 1; ; n++) {
      await addToolOverHttp(project, `http-tool-${n}`);
      const shown = await paneShows(page, `"http-tool-${n}"`, 1_000).then(() => true, () => false);
      if (shown) break;
      expect(n).toBeLessThan(30);
    }
    const pane = await resultPane(page);
    expect(pane).toContain('"type":"CREATED"');
    expect(pane).toContain('"actor":"agent:7"');

    expect(sockets.map((ws) => new URL(ws.url()).host)).toEqual([`127.0.0.1:${h.port}`]);
    expect(outside).toEqual([]);
  });
});

/**
 * Once an API key exists, GraphiQL's Headers tab is how a browser user authenticates: its
 * subscriptions must carry the key too, and a missing or wrong one must show an error in the
 * result pane (not an empty pane while the client retries in the background).
 */
describe.skipIf(!haveChromium)('GraphiQL with an API key in the Headers tab', () => {
  const keyed = useHarness({ listen: true });
  const keyedEndpoint = () => `http://127.0.0.1:${keyed.port}/graphql`;
  let browser: Browser;
  let page: Page;
  let key: string;
  const outside: string[] = [];
  const sentFrames: string[] = [];

  /** An operation over HTTP with `authorization`, as another client would send it. */
  async function overHttp<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const response = await fetch(keyedEndpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query, variables }),
    });
    const result = (await response.json()) as { data?: T; errors?: unknown };
    expect(result.errors).toBeUndefined();
    return result.data!;
  }

  /** Puts `headers` in the Headers tab of the active tab. */
  async function setHeaders(headers: Record<string, string>): Promise<void> {
    await page.locator('button[data-name=headers]').click();
    await setEditorText(page, '.graphiql-editor-tool', JSON.stringify(headers));
    // Monaco's JSON editor may have auto-closed a quote or brace after the inserted text.
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
  }

  beforeAll(async () => {
    key = (await principalWithKey(keyed.app, 'graphiql-user')).key;
    browser = await launchChromium();
    const context = await offlineContext(browser, `127.0.0.1:${keyed.port}`, outside);
    page = await context.newPage();
    page.on('websocket', (ws) => ws.on('framesent', (frame) => sentFrames.push(String(frame.payload))));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('runs a subscription with the key; a wrong or missing key shows an error', { timeout: 90_000 }, async () => {
    const created = await overHttp<{ createProject: { project: { id: string } } }>(
      'mutation { createProject(input: { name: "keyed" }) { ... on CreateProjectSuccess { project { id } } } }',
      {},
    );
    const project = created.createProject.project.id;
    await page.goto(keyedEndpoint());
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();

    await setHeaders({ authorization: `Bearer ${key}` });
    await setEditorText(page, '.graphiql-query-editor', `subscription { entryChanged(scope: "${project}") { type entry { name } } }`);
    // The play button starts the subscription; while it runs, the button stops it.
    const stop = page.locator('.graphiql-execute-button[aria-label*="Stop"]');
    for (let attempt = 1; !(await stop.isVisible()); attempt++) {
      expect(attempt).toBeLessThan(5);
      await page.locator('.graphiql-execute-button').click();
      await stop.waitFor({ timeout: 5_000 }).catch(() => undefined);
    }
    // Subscriptions register asynchronously: write until one event shows in the result pane.
    for (let n = 1; ; n++) {
      await overHttp('mutation ($input: AddToolInput!) { addTool(input: $input) { __typename } }', { input: { scope: project, name: `keyed-tool-${n}` } });
      const shown = await paneShows(page, `"keyed-tool-${n}"`, 1_000).then(() => true, () => false);
      if (shown) break;
      expect(n).toBeLessThan(30);
    }
    expect(await resultPane(page)).toContain('"type":"CREATED"');
    await stop.click();

    // The key went in connection_init's payload, where Engram authenticates sockets.
    expect(sentFrames.find((f) => f.includes('"connection_init"'))).toContain(`"authorization":"Bearer ${key}"`);

    // A wrong key, then none: the pane says why at once (graphql-ws would retry 4403 for half a minute).
    for (const [headers, message] of [
      [{ authorization: 'Bearer egk_wrong' }, 'The API key is unknown, revoked or expired'],
      [{}, 'An API key is required'],
    ] as const) {
      await setHeaders(headers);
      await page.locator('.graphiql-execute-button').click();
      await paneShows(page, message, 5_000);
      expect(await resultPane(page)).toContain('"closeCode":4403');
    }
    expect(outside).toEqual([]);
  });
});
