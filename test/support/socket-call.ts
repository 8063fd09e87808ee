// One GraphQL POST over a real socket, from a chosen loopback address (Node's http, since fetch
// cannot pick the local address): what callers on the network see, status and headers included.
import http from 'node:http';

export interface Answer {
  status: number;
  retryAfter: string | null;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions: Record<string, unknown> }[] };
}

export interface CallOptions {
  /** An API key's secret, sent as `Authorization: Bearer …`. */
  key?: string;
  /** The local address to send from (default 127.0.0.1). */
  from?: string;
  accept?: string;
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function call(port: number, query: string, { key, from = '127.0.0.1', accept = 'application/json', variables, headers: extra = {} }: CallOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', accept, ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
    const req = http.request({ host: '127.0.0.1', port, path: '/graphql', method: 'POST', localAddress: from, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        // An SSE answer is `event: next` / `data: {...}` frames; a refused one is one such frame.
        const json = accept === 'text/event-stream' ? (/^data: (.*)$/m.exec(text)?.[1] ?? '{}') : text;
        resolve({ status: res.statusCode ?? 0, retryAfter: (res.headers['retry-after']) ?? null, body: JSON.parse(json) as Answer['body'] });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
}
