import { createHash } from 'node:crypto';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { shouldRenderGraphiQL, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import { acceptedEncodings, compressors, type Encoding } from './compression.ts';

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

/** The rendered page, its ETag and, made on first demand and kept, its compressed forms. */
class Page {
  readonly text: string;
  readonly html: Buffer;
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(options: GraphiQLOptions) {
    this.text = renderGraphiQL(options);
    this.html = Buffer.from(this.text);
    // Weak: one validator for every encoding of the same page.
    this.etag = `W/"${createHash('sha256').update(this.html).digest('base64url').slice(0, 27)}"`;
  }

  body(encoding: Encoding): Promise<Buffer> {
    let body = this.encoded.get(encoding);
    if (!body) {
      body = compressors[encoding](this.html);
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

// One page per process, made on first demand: apps that nobody opens GraphiQL on (tests) pay nothing.
let page: Page | undefined;
const thePage = () => (page ??= new Page(GRAPHIQL_OPTIONS));

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
    async onResponse({ request, response, setResponse, fetchAPI }) {
      if (!shouldRenderGraphiQL(request) || response.status !== 200) return;
      // Other HTML pages (the dashboard at /ui) pass through this hook too.
      if (!/^\/graphql\/?$/.test(new URL(request.url).pathname)) return;
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      const page = thePage();
      const headers = new fetchAPI.Headers({
        'content-type': 'text/html; charset=utf-8',
        etag: page.etag,
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
      });
      const validators = request.headers.get('if-none-match')?.split(',').map((s) => s.trim());
      if (validators?.includes(page.etag) || validators?.includes('*')) {
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      const [encoding] = acceptedEncodings(request.headers.get('accept-encoding'));
      if (encoding) headers.set('content-encoding', encoding);
      const body = encoding ? await page.body(encoding) : page.html;
      // A Buffer is a Uint8Array; @types/node types its store as ArrayBufferLike, BodyInit wants ArrayBuffer.
      setResponse(new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers }));
    },
  };
}
