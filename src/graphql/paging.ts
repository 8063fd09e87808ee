import { resolveCursorConnection } from '@pothos/plugin-relay';
import { EDGE_CURSOR, decodeCursor, encodeCursor, type CursorPage, type CursorShape } from '../domain/cursors.ts';
import { ValidationError } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';

/** Connection options shared by every list: a page larger than the limit is refused, not cut. */
export const PAGING = {
  maxSize: (args: { first?: number | null; last?: number | null }) => {
    for (const key of ['first', 'last'] as const) {
      const value = args[key];
      if (value != null && value > LIMITS.page.max) {
        throw new ValidationError([{ path: [key], message: `must be at most ${LIMITS.page.max}` }]);
      }
    }
    return LIMITS.page.max;
  },
};

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

interface PageInfo {
  startCursor?: string | null;
  endCursor?: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * A page's cursors as a client goes on from them. An empty page has no row to take a cursor from:
 * given a cursor, it sits there (Pothos' resolveCursorConnection answers that one); given none,
 * Pothos answers "" (not a cursor), which becomes EDGE_CURSOR where rows follow in that direction
 * (`first: 0` on a list that has rows) and null where none do, as on the API's other lists.
 */
export function edgeCursors<C extends { pageInfo: PageInfo }>(connection: C): C {
  const { pageInfo } = connection;
  const edge = (cursor: string | null | undefined, more: boolean) => (cursor === '' ? (more ? EDGE_CURSOR : null) : cursor);
  return {
    ...connection,
    pageInfo: { ...pageInfo, startCursor: edge(pageInfo.startCursor, pageInfo.hasPreviousPage), endCursor: edge(pageInfo.endCursor, pageInfo.hasNextPage) },
  };
}

/** A connection paged by `load` over rows whose keyset cursors (domain/cursors.ts) it gives: Pothos' resolveCursorConnection at the API's page sizes, with edgeCursors. */
export async function cursorConnection<T>(args: ConnectionArgs, toCursor: (row: T) => string, load: (page: CursorPage) => Promise<T[]>) {
  return edgeCursors(await resolveCursorConnection({ args, toCursor, defaultSize: LIMITS.page.default, maxSize: LIMITS.page.max }, load));
}

const NAMED: CursorShape = { numbers: 0, texts: 1 };

/**
 * A connection over rows ordered by a name (unique in the list): each row's cursor is the keyset
 * cursor of its name, and `load` is given the names a page goes on from (none at the list's edge).
 */
export function namedConnection<T>(args: ConnectionArgs, nameOf: (row: T) => string, load: (page: CursorPage) => Promise<T[]>) {
  // "" is no cursor, as Pothos reads it (and the other lists: analytics.paging.ts).
  const name = (cursor: string | null | undefined, path: string) => (cursor ? (decodeCursor(cursor, NAMED, path)?.[0] as string | undefined) : undefined);
  return cursorConnection(
    args,
    (row: T) => encodeCursor([nameOf(row)]),
    ({ after, before, limit, inverted }) => load({ after: name(after, 'after'), before: name(before, 'before'), limit, inverted }),
  );
}
