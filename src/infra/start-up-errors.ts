// Failures that are no bug of Engram's but of its surroundings, told by their message alone (no
// stack) by the server's start and by the command line, each with an exit code of its own. Kept
// apart from config.ts and migrations.ts so that the command line's error reporting loads neither.

/** A setting of the environment is wrong (DATABASE_URL, PORT, a limit): the operator's to fix. Exit code 2. */
export class ConfigError extends Error {}

/** The database could not be reached, or its migrations read or applied (its own words say why). Exit code 1. */
export class DatabaseError extends Error {}
