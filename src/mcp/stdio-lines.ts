import { Transform, type TransformCallback } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const NEWLINE = 0x0a;
const LINE_END = Buffer.of(NEWLINE);

/** Only bytes that String.prototype.trim drops from latin1 text: tab to carriage return, space, no-break space. */
const blank = (piece: Buffer): boolean => piece.every((byte) => (byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0);

/**
 * stdin cut into whole lines of at most `maxLineBytes` each, for the SDK's StdioServerTransport.
 * Written here because the SDK's ReadBuffer cannot do it (measured, SDK 1.32): a message over its
 * `maxBufferSize` makes it close the transport, which ends `engram mcp` (the client sees EPIPE),
 * and it cannot skip the rest of that line to go on; and it copies its whole buffer for each chunk
 * of stdin (a 24 MB message took ~9 s). Here a line reaches it as one chunk, and a longer line is
 * dropped up to its newline and told to `onTooLong` once, when it passes the limit. Blank lines
 * are no message and are skipped (the SDK would report each as unparsable JSON).
 */
export class BoundedLines extends Transform {
  private pieces: Buffer[] = [];
  private length = 0;
  private dropping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onTooLong: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.keep(chunk.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  private keep(piece: Buffer): void {
    if (this.dropping || piece.length === 0) return;
    this.length += piece.length;
    if (this.length <= this.maxLineBytes) {
      this.pieces.push(piece);
      return;
    }
    this.dropping = true;
    this.pieces = [];
    this.onTooLong();
  }

  private endLine(): void {
    // One copy of the line, with its newline; a blank line is told by its bytes, not turned into a string.
    if (!this.dropping && !this.pieces.every(blank)) this.push(Buffer.concat([...this.pieces, LINE_END]));
    this.pieces = [];
    this.length = 0;
    this.dropping = false;
  }
}

type ErrorAnswer = JSONRPCMessage;

/**
 * An error answer with `id: null`, as JSON-RPC asks when the request's id cannot be read (the
 * SDK's type has the id optional instead, hence the cast; its HTTP transport sends null too).
 */
const answer = (code: number, message: string): ErrorAnswer => ({ jsonrpc: '2.0', id: null, error: { code, message } }) as unknown as ErrorAnswer;

/** The answer to a line over the limit: what the SDK's HTTP transport answers (with 413) to a body over it. */
export const tooLongAnswer = (maxLineBytes: number): ErrorAnswer =>
  answer(-32000, `Payload Too Large: a message must not exceed ${maxLineBytes} bytes (this line was dropped)`);

/**
 * The answer to a line the transport could not read (its `onerror`), as the SDK's HTTP transport
 * answers such a body: JSON-RPC has no id to answer with, so `id: null`. Null for any other error
 * (stdin's own), which has no line to answer.
 */
export function unreadableAnswer(error: Error): ErrorAnswer | null {
  if (error instanceof SyntaxError) return answer(-32700, 'Parse error: Invalid JSON');
  if (error.name === 'ZodError') return answer(-32700, 'Parse error: Invalid JSON-RPC message');
  return null;
}
