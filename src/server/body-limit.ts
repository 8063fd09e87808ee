import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { MAX_REQUEST_BODY_BYTES } from '../domain/limits.ts';

/**
 * `close`: for a chunked body, whose unread rest (past what `drain` discards) would otherwise be
 * taken as the next request on the connection. A body with a Content-Length is read to its end
 * and discarded by Node, so its connection stays usable and the client, still sending, gets the
 * answer.
 */
const tooLarge = (limit: number, close: boolean) =>
  new GraphQLError(`Request body too large (at most ${limit} bytes)`, {
    extensions: { code: 'REQUEST_ENTITY_TOO_LARGE', http: { status: 413, headers: close ? { connection: 'close' } : {} } },
  });

/**
 * Refuses request bodies over `limit` bytes, replacing Yoga's own limit (`maxRequestBodySize:
 * false`). Yoga pipes every body through a counting TransformStream; the stream objects of each
 * request outlived the garbage collector's young generation (they were all promoted), which made
 * every minor collection take about 4 ms instead of 0.2. A body with a Content-Length cannot be
 * longer than it says (Node's HTTP parser reads exactly that many bytes), so the header alone
 * decides; only a body without one (chunked) is counted as it is read.
 */
export function useRequestBodyLimit(limit: number = MAX_REQUEST_BODY_BYTES): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const length = request.headers.get('content-length');
      if (length !== null) {
        if (!/^\d+$/.test(length)) {
          throw new GraphQLError('Content-Length header is invalid', { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
        }
        if (Number(length) > limit) throw tooLarge(limit, false);
        return;
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (req) => {
        const reader = req.body!.getReader();
        const chunks = await readUpTo(reader, limit);
        if (!chunks) {
          await drain(reader, limit);
          throw tooLarge(limit, true);
        }
        return parse(new fetchAPI.Request(req.url, { method: req.method, headers: req.headers, body: Buffer.concat(chunks) }));
      });
    },
  };
}

export type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** The body's chunks, or null once it is longer than `limit` bytes. */
export async function readUpTo(reader: Reader, limit: number): Promise<Uint8Array[] | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    total += value.byteLength;
    if (total > limit) return null;
    chunks.push(value);
  }
}

/**
 * `error` (a refusal answered before the body is read), to be answered on a connection with
 * nothing unread: a chunked body is read and discarded first (at most `budget` bytes; see drain)
 * and the connection closed after the answer, as the body limit does (see drain: closed with
 * bytes unread, the connection is reset and a client still sending can lose the answer). Node
 * reads and discards a body with a Content-Length itself, and its connection stays usable.
 */
export async function refusedUnread(request: Request, error: GraphQLError, budget: number): Promise<GraphQLError> {
  if (request.headers.has('content-length') || !request.body) return error;
  await drain(request.body.getReader(), budget);
  const http = (error.extensions.http ?? {}) as { status?: number; headers?: Record<string, string> };
  error.extensions.http = { ...http, headers: { ...http.headers, connection: 'close' } };
  return error;
}

/** How long a refused body's sender may pause before the answer goes out without the rest. */
const DRAIN_IDLE_MS = 1_000;

/**
 * Reads and discards the rest of a refused chunked body (at most `budget` more bytes, and only
 * while the client keeps sending), so that the 413 goes out on a connection with nothing unread.
 * Node closes a `connection: close` response's socket as soon as the answer is written; bytes
 * still unread then make the kernel reset the connection instead of closing it, and a client that
 * is still sending loses the 413 it had not read yet (seen under load). This is the lingering close
 * of RFC 9112 §9.6, done before answering because Node offers no hook after it.
 */
async function drain(reader: Reader, budget: number): Promise<void> {
  let left = budget;
  while (left > 0) {
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), DRAIN_IDLE_MS)));
    const next = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
    if (next === 'idle' || next.done) break;
    left -= next.value.byteLength;
  }
  // Not cancelled: cancelling the body while a read waits kept Yoga from ever sending the answer.
  // Node closes the connection after the 413 (connection: close), which ends the stream.
}
