// What every command needs to end: exit codes, the caller's mistakes, and how an error is told.
// Apart from common.ts (the database and the config): the commands that ask a running server load
// neither (their start was ~1.3 s longer with them).
import { DomainError } from '../domain/errors.ts';

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

/** The exit code for an error that ended a command, after saying what went wrong on stderr. */
export function reported(error: unknown): number {
  if (error instanceof UsageError || error instanceof DomainError) {
    console.error(error.message);
    return EXIT.usage;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  return EXIT.failed;
}
