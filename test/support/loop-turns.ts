import type { Harness } from './harness.ts';

/** A timer's view of `work`, read afterwards with a pattern (global) of the statements to count. */
export interface LoopTurns<T> {
  result: T;
  /** Each time the event loop turned while `work` ran: how many times the pattern occurred in the statements logged so far. */
  seen(pattern: RegExp): number[];
  /** How many times the pattern occurred in all the statements `work` logged. */
  total(pattern: RegExp): number;
}

/**
 * Runs `work` with a timer on the event loop. On SQLite a transaction runs on the event loop,
 * first statement to last, unless it gives the loop back (better-sqlite3 answers at once): the
 * timer then sees none of its middle.
 */
export async function loopTurns<T>(h: Harness, work: () => Promise<T>): Promise<LoopTurns<T>> {
  h.resetStatements();
  const logged: number[] = [];
  const timer = setInterval(() => logged.push(h.statements.length), 0);
  try {
    const result = await work();
    const statements = [...h.statements];
    const occurrences = (pattern: RegExp, n: number) => statements.slice(0, n).reduce((sum, sql) => sum + (sql.match(pattern)?.length ?? 0), 0);
    return { result, seen: (pattern) => logged.map((n) => occurrences(pattern, n)), total: (pattern) => occurrences(pattern, statements.length) };
  } finally {
    clearInterval(timer);
  }
}
