import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { shouldRenderGraphiQL, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
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
  // graphql-ws on /graphql. Queries and mutations still go over HTTP with the editor's headers; a
  // subscription carries them in its message's `extensions.headers` (connection_init payload is {}).
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

// One page per process, made on first demand: apps that nobody opens GraphiQL on (tests) pay nothing.
let page: Page | undefined;
const thePage = () => (page ??= new Page(renderGraphiQL(GRAPHIQL_OPTIONS)));

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
