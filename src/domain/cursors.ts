// Keyset cursors: a list ordered by sort values (numbers, then texts; together unique) gives each
// row the cursor of its values, JSON in base64url, so that a page continues after the last row
// seen. EDGE_CURSOR (no values) is the edge of a list, where an empty page that was given no cursor
// sits. Opaque to clients: a cursor that is not one of a list's is a ValidationError.
import { ValidationError } from './errors.ts';

/** How many numeric and text sort values a list's cursors hold (numbers first). */
export interface CursorShape {
  numbers: number;
  texts: number;
}

/** The page a keyset list is asked for (Pothos' resolveCursorConnection): rows after and before these bounds, `limit` of them, in reverse order when `inverted`. */
export interface CursorPage {
  after?: string | null;
  before?: string | null;
  limit: number;
  inverted: boolean;
}

/** The cursor of a row with these sort values. */
export const encodeCursor = (values: ReadonlyArray<number | string>): string => Buffer.from(JSON.stringify(values)).toString('base64url');

/**
 * The cursor of a list's edge (no sort values): after it the list starts at its first row, before
 * it at its last, as with no cursor at all. An empty page asked for without a cursor (`first: 0`)
 * answers it as its end cursor where rows follow, so that a client has a cursor to go on from.
 */
export const EDGE_CURSOR = encodeCursor([]);

/** The sort values of a cursor of a list of this shape; null for EDGE_CURSOR (no bound). */
export function decodeCursor(cursor: string, shape: CursorShape, path: string): Array<number | string> | null {
  const bad = () => new ValidationError([{ path: [path], message: 'is not a cursor of this list' }]);
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (Array.isArray(values) && values.length === 0) return null;
  const arity = shape.numbers + shape.texts;
  if (!Array.isArray(values) || values.length !== arity) throw bad();
  values.forEach((v, i) => {
    // A text with a NUL is no row's (PostgreSQL cannot even compare with one: an unexpected error).
    const ok = i < shape.numbers ? typeof v === 'number' && Number.isFinite(v) : typeof v === 'string' && v.length <= 1_000 && !v.includes('\u0000');
    if (!ok) throw bad();
  });
  return values as Array<number | string>;
}
