import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { shouldRenderGraphiQL, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import { projectRoot } from '../infra/migrations.ts';
import { log } from '../infra/log.ts';
import { serveBody, StaticBody } from './compression.ts';

/**
 * The README's "A first session in GraphiQL", opened as the first tab. Its first mutation is named:
 * an anonymous operation is only valid alone in a document (GraphQL's LoneAnonymousOperation rule).
 */
export const FIRST_SESSION = `# A first session (README): run CreateProject (the play button asks which operation), put
# the id it returns into Variables as { "project": "<id>" }, then run AddGuideline and Guidelines.
# The Headers tab names you as the author of writes.

mutation CreateProject {
  createProject(input: { name: "web" }) { ... on CreateProjectSuccess { project { id } } }
}

mutation AddGuideline($project: ID!) {
  addGuideline(input: { scope: $project, name: "no-secrets", category: "security", priority: 90,
                        content: "Never commit credentials.", tags: ["security", "git"] }) {
    __typename
    ... on AddGuidelineSuccess { guideline { id latestVersion tags { name } } }
    ... on UserError { code message path }
  }
}

query Guidelines($project: ID!) {
  guidelines(filter: { scope: $project, tag: "security" }, first: 20) {
    totalCount
    edges { node { name priority currentVersion { content } } }
  }
}
`;

/** Preset request headers: writes made from GraphiQL are authored by `user` (see Context.actor). */
export const GRAPHIQL_HEADERS = { 'x-engram-actor': 'user' };

export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: 'Engram',
  // graphql-ws on /graphql. Used by Yoga's own fetcher only, when dist/ui/graphiql.js (ours) is not built.
  subscriptionsProtocol: 'WS',
  // The first tab, when the browser has no saved tabs yet; new tabs get defaultHeaders.
  defaultTabs: [
    {
      query: FIRST_SESSION,
      headers: JSON.stringify(GRAPHIQL_HEADERS, null, 2),
    },
  ],
  defaultHeaders: JSON.stringify(GRAPHIQL_HEADERS, null, 2),
};

/** The rendered page: its text (for Yoga) and, as served, its bytes, ETag and compressed forms. */
class Page extends StaticBody {
  constructor(readonly text: string) {
    super(Buffer.from(text), { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
  }
}

/**
 * Yoga's page with our fetcher (ui/src/graphiql.ts, built into dist/ui/graphiql.js) inlined and
 * given to GraphiQL: it sends the Headers tab in each subscription's connection_init payload, where
 * Engram authenticates sockets, and shows a refused socket's reason in the result pane.
 */
export function renderPage(fetcherScript = join(projectRoot(), 'dist', 'ui', 'graphiql.js')): string {
  const html = renderGraphiQL(GRAPHIQL_OPTIONS);
  if (!existsSync(fetcherScript)) {
    // Subscriptions then work only while no API key exists (protected mode).
    log.warn({ fetcherScript }, 'GraphiQL runs with Yoga\'s fetcher: its subscriptions cannot carry an API key. Run `npm run build:ui` (npm install does it).');
    return html;
  }
  const script = readFileSync(fetcherScript, 'utf8');
  const render = 'YogaGraphiQL.renderYogaGraphiQL(';
  const options = JSON.stringify(GRAPHIQL_OPTIONS);
  // Yoga's template calls renderYogaGraphiQL(root, <options as JSON>): a new template fails here, not in the browser.
  if (!html.includes(render) || !html.includes(options)) throw new Error('@graphql-yoga/render-graphiql renders a page Engram does not know: update renderPage');
  // Replacer functions: the minified script may hold `$&` or `$'`, which a replacement string would expand.
  return html
    .replace(options, () => `{ ...${options}, fetcher: EngramGraphiQL.createFetcher(location.pathname) }`)
    .replace(render, () => `${script};\n${render}`);
}

// One page per process, made on first demand: apps that nobody opens GraphiQL on (tests) pay nothing.
let page: Page | undefined;
const thePage = () => (page ??= new Page(renderPage()));

/** createYoga options: GraphiQL at GET /graphql (served by useGraphiQLDelivery), or none. */
export function graphiqlOptions(enabled: boolean): { graphiql: GraphiQLOptions | false; renderGraphiQL?: () => string } {
  return enabled ? { graphiql: GRAPHIQL_OPTIONS, renderGraphiQL: () => thePage().text } : { graphiql: false };
}

/**
 * Serves the GraphiQL page Yoga renders (with no outside request: @graphql-yoga/render-graphiql
 * inlines CSS, bundle, Monaco workers and favicon, ~9 MB) compressed and revalidated: br or gzip
 * by Accept-Encoding, compressed once per process (not per request, as useContentEncoding would,
 * which would also compress, and so buffer, every GraphQL and SSE response), an ETag and
 * `Cache-Control: no-cache`, so a reload costs a 304 and a new release is picked up at once.
 */
export function useGraphiQLDelivery(): Plugin {
  return {
    // Not async: a promise from every response's hook would put the hooks after it on Yoga's
    // promise path (as for the dashboard's onRequest).
    onResponse({ request, response, setResponse, fetchAPI }) {
      if (!shouldRenderGraphiQL(request) || response.status !== 200) return;
      // Other HTML pages (the dashboard at /ui) pass through this hook too.
      if (!/^\/graphql\/?$/.test(new URL(request.url).pathname)) return;
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      return serveBody(request, thePage(), fetchAPI).then(setResponse);
    },
  };
}
