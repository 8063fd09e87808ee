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
