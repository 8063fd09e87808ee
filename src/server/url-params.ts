import { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';

/**
 * Parameters sent as URL parameters (a GET's query string, a form-encoded POST body) are read
 * here, so that `variables` or `extensions` that are not JSON get 400 BAD_REQUEST. Yoga's parsers
 * of these hand them to JSON.parse unguarded: the SyntaxError reached the error masking as an
 * unexpected error (INTERNAL_SERVER_ERROR with status 200), where its JSON body parser answers bad
 * JSON with 400. Listed before the body limit, which then wraps this parser.
 */
export function useStrictUrlParams(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method === 'GET') setRequestParser(() => paramsOf(new URL(request.url).searchParams));
      else if (request.method === 'POST' && isFormEncoded(request)) setRequestParser(async (req) => paramsOf(new URLSearchParams(await req.text())));
    },
  };
}

function isFormEncoded(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(',')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/x-www-form-urlencoded' || type.startsWith('application/x-www-form-urlencoded;');
}

function paramsOf(search: URLSearchParams): GraphQLParams {
  return {
    operationName: search.get('operationName') || undefined,
    query: search.get('query') || undefined,
    variables: jsonParameter(search, 'variables'),
    extensions: jsonParameter(search, 'extensions'),
  };
}

function jsonParameter(search: URLSearchParams, name: string): Record<string, unknown> | undefined {
  const text = search.get(name);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new GraphQLError(`The ${name} parameter is not JSON`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
  }
}
