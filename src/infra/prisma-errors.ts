/** Prisma's error code for a unique constraint violation, duck-typed to stay provider neutral. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

/** Prisma's error code for a foreign key violation (a referenced row does not exist). */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2003';
}
