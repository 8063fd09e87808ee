import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** The pages Engram serves itself (GraphiQL, the dashboard): compressed once per process, revalidated by ETag. */
export type Encoding = 'br' | 'gzip';

/**
 * Which of our encodings the client takes, best first. Hand-written because neither Yoga nor
 * @whatwg-node offers Accept-Encoding negotiation with q-values (useContentEncoding picks the first
 * listed name and ignores `;q=0`).
 */
export function acceptedEncodings(header: string | null): Encoding[] {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const wildcard = accepted.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((e) => (accepted.get(e) ?? wildcard) > 0);
}

export const compressors: Record<Encoding, (html: Buffer) => Promise<Buffer>> = {
  // Quality 5: 9.0 MB -> 1.95 MB in ~0.8 s (11, the default, gives 1.7 MB in ~19 s).
  br: (html) =>
    promisify(brotliCompress)(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length },
    }),
  gzip: (html) => promisify(gzip)(html), // level 6: 2.4 MB in ~0.3 s
};


/** A file or page served as is: its bytes, a weak ETag, and its compressed forms, made on first demand and kept. */
export class StaticBody {
  readonly etag: string;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(
    readonly bytes: Buffer,
    readonly headers: Record<string, string>,
  ) {
    // Weak: one validator for every encoding of the same bytes.
    this.etag = `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  }

  encodedAs(encoding: Encoding): Promise<Buffer> {
    let body = this.encoded.get(encoding);
    if (!body) {
      body = compressors[encoding](this.bytes);
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * The response for `body` to `request`: 304 when the browser's copy is current (If-None-Match),
 * else the bytes in the best encoding it accepts; HEAD gets the headers alone.
 */
export async function serveBody(request: Request, body: StaticBody, fetchAPI: { Response: typeof Response }): Promise<Response> {
  const headers: Record<string, string> = { ...body.headers, etag: body.etag, vary: 'Accept-Encoding', 'x-content-type-options': 'nosniff' };
  const validators = request.headers.get('if-none-match')?.split(',').map((s) => s.trim());
  if (validators?.includes(body.etag) || validators?.includes('*')) return new fetchAPI.Response(null, { status: 304, headers });
  const [encoding] = acceptedEncodings(request.headers.get('accept-encoding'));
  if (encoding) headers['content-encoding'] = encoding;
  const bytes = encoding ? await body.encodedAs(encoding) : body.bytes;
  // A Buffer is a Uint8Array; @types/node types its store as ArrayBufferLike, BodyInit wants ArrayBuffer.
  return new fetchAPI.Response(request.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers });
}
