/**
 * Prisma reports constraint violations as P2002/P2003 from model queries, and as P2010 ("raw query
 * failed") carrying the driver adapter's error kind from raw ones; direct batches see the
 * adapter's own error. These helpers accept all three and stay provider neutral. Other errors of a
 * model query carry the adapter's error too, under another code: SQLite's SQLITE_BUSY in a
 * transaction is P1008 ("Operation has timed out") with the adapter's `originalCode` in `meta`.
 */
interface PrismaLikeError {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; table?: unknown; originalCode?: unknown } } };
}

function adapterCause(error: unknown) {
  if (typeof error !== 'object' || error === null) return undefined;
  // Straight from a driver adapter (see direct-batch.ts).
  if ((error as { name?: unknown }).name === 'DriverAdapterError') {
    return (error as { cause?: { kind?: unknown; originalCode?: unknown } }).cause;
  }
  return (error as PrismaLikeError).meta?.driverAdapterError?.cause;
}

/** A unique constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return (error as PrismaLikeError).code === 'P2002' || adapterCause(error)?.kind === 'UniqueConstraintViolation';
}

/** Prisma found no row for an update or delete of one row (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as PrismaLikeError).code === 'P2025';
}

/** A foreign key violation (a referenced row does not exist). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return (error as PrismaLikeError).code === 'P2003' || adapterCause(error)?.kind === 'ForeignKeyConstraintViolation';
}

/** The database error code behind a failed raw query (`SQLITE_BUSY`, `40P01`, ...). */
export function rawErrorCode(error: unknown): string | undefined {
  const code = adapterCause(error)?.originalCode;
  return typeof code === 'string' ? code : undefined;
}

/**
 * PostgreSQL's codes of a connection that ended or could not start: class 08 (connection
 * exception), 57P01–57P03 (the server shutting down, crashed, or not yet taking connections) and
 * 53300 (too many connections).
 */
const UNAVAILABLE_CODE = /^(08\d\d\d|57P0[123]|53300)$/;
/** The adapters' kinds for the same (see @prisma/driver-adapter-utils). */
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Prisma's own: can't reach (P1001), timed out reaching (P1002), closed the connection (P1017), no pooled connection in time (P2024). */
const UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
/** What pg says, without a code, of a connection lost under a query or of a client broken by it. */
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/**
 * The database could not be reached or dropped the connection (a PostgreSQL server restarting, a
 * backend terminated, the network gone): nothing the caller sent is wrong, and asking again once
 * it is back can succeed. Looks through `cause` chains, where drivers and Prisma wrap each other.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const cause = adapterCause(e);
    const code = (e as { code?: unknown }).code;
    if (typeof cause?.kind === 'string' && UNAVAILABLE_KINDS.has(cause.kind)) return true;
    if (typeof cause?.originalCode === 'string' && UNAVAILABLE_CODE.test(cause.originalCode)) return true;
    if (typeof code === 'string' && (UNAVAILABLE_PRISMA.has(code) || UNAVAILABLE_CODE.test(code))) return true;
    if (e instanceof Error && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  }
  return false;
}
