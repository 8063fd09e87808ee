// What every command needs to end: exit codes, the caller's mistakes, and how an error is told.
// Apart from common.ts (the database and the config): the commands that ask a running server load
// neither (their start was ~1.3 s longer with them).
import { inspect } from 'node:util';
import { DomainError } from '../domain/errors.ts';
import { ConfigError, DatabaseError } from '../infra/start-up-errors.ts';

/** Exit codes scripts can rely on. */
export const EXIT = {
  ok: 0,
  /** The command ran and failed (database unreachable, a write refused for a runtime reason). */
  failed: 1,
  /** The command line, or what it asked for, is wrong (unknown option, no such key, bad value). */
  usage: 2,
} as const;

/** A mistake of the caller: its message is shown alone, with EXIT.usage. */
export class UsageError extends Error {}

/** A failure of the world, not of the caller nor of Engram (a server or database unreachable): its message alone, with EXIT.failed. */
export class Failure extends Error {}

/** Set DEBUG (any value) to see the stack of an unexpected error. */
const debugging = () => Boolean(process.env.DEBUG);

/** The exit code for an error that ended a command, after saying what went wrong on stderr. */
export function reported(error: unknown): number {
  if (error instanceof UsageError || error instanceof DomainError || error instanceof ConfigError) {
    console.error(error.message);
    return EXIT.usage;
  }
  if (error instanceof Failure || error instanceof DatabaseError || isSystemError(error)) {
    // The engines' messages go on with advice and their own details: the first line says it.
    console.error(error instanceof DatabaseError ? firstLine(error.message) : error.message);
    if (debugging()) console.error(error.stack);
    return EXIT.failed;
  }
  // A bug: one line that says so, the stack only on request (Prisma's messages alone can fill a screen).
  const what = error instanceof Error ? `${error.name}: ${firstLine(error.message)}` : `a thrown ${typeof error} (${firstLine(inspect(error, { depth: 0 }))})`;
  console.error(`engram: unexpected error, ${what}`);
  console.error(debugging() ? (error instanceof Error ? error.stack : inspect(error)) : 'Run again with DEBUG=1 to see where it happened.');
  return EXIT.failed;
}

/** Node's errors of the system (a file, a socket): their message names the call and the path, which is all a person needs. */
function isSystemError(error: unknown): error is Error {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!) && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** The first line of a message, at most 300 characters. */
export function firstLine(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** A file system error as people say it. */
export function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const said: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'it is a directory', ENOTDIR: 'a part of the path is not a directory', EROFS: 'read-only file system' };
  return (code && said[code]) ?? (error instanceof Error ? error.message : String(error));
}
