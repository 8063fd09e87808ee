import { Prisma } from '../../generated/sqlite/client.ts';
import type { Db } from '../../infra/database.ts';
import { log } from '../../infra/log.ts';
import { countKnownReads } from './known-rows.ts';

/** How often buffered reads are written (default). */
export const ACCESS_FLUSH_MS = 2_000;
/**
 * Entries written per statement. On SQLite a statement runs on the event loop, and each entry is a
 * page written to the WAL (~30 µs here): under 16 clients a flush of ~900 entries as two statements
 * of up to 500 held every request for 24-44 ms every two seconds. A hundred is ~3 ms.
 */
const CHUNK = 100;
/** A buffer this large is written at once rather than waiting for the timer. */
const MAX_BUFFERED = 20_000;

/**
 * Counts reads of entries (memoryQuery, context, node) without turning a read into a write: reads
 * add to an in-memory buffer, written every ACCESS_FLUSH_MS as one UPDATE per CHUNK entries read
 * the same number of times (`accessCount` += n, `lastAccessedAt` = the flush time). One count per
 * statement instead of a `CASE "id" WHEN …` per entry, which compared every row with every id. A
 * crash loses at most one interval of counts, which only feed ranking hints. Raw SQL, so
 * `updatedAt` (recency) is not touched.
 */
export class AccessTracker {
  private buffer = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs = ACCESS_FLUSH_MS,
    /** Off: reads are not counted (the bench compares). */
    // Stryker disable next-line BooleanLiteral: equivalent, the app always passes `trackAccess ?? true`; the default is never used
    private readonly enabled = true,
  ) {}

  record(entryIds: Iterable<string>): void {
    if (!this.enabled) return;
    for (const id of entryIds) this.buffer.set(id, (this.buffer.get(id) ?? 0) + 1);
    if (this.buffer.size >= MAX_BUFFERED) void this.flush();
    // Stryker disable next-line LogicalOperator: equivalent, `||` starts one more interval per read while one runs; each flushes the one buffer, so the same counts are written (only timers leak)
    if (!this.timer && this.buffer.size > 0) {
      this.timer = setInterval(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (serialized: one flush at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Writes the rest and stops the timer (before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.buffer.size === 0) return;
    const byCount = idsByCount(this.buffer);
    this.buffer = new Map();
    const at = new Date();
    for (const [n, ids] of byCount) {
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        try {
          // The rows kept for updates count them too (an update's answer reports them), first: no
          // answer may then count fewer reads than the database already shows.
          countKnownReads(this.db, chunk, n, at);
          await this.db.$executeRaw`UPDATE "Entry" SET "accessCount" = "accessCount" + CAST(${n} AS INTEGER), "lastAccessedAt" = ${at}
            WHERE "id" IN (${Prisma.join(chunk)})`;
        } catch (error) {
          // Counts are hints: losing a batch must not fail anything else.
          log.warn({ err: error }, 'Recording entry reads failed');
        }
        // SQLite writes on the event loop: requests waiting run between two statements.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}

/** The buffered entries by how many reads they add: one statement adds one count to each of its ids. */
function idsByCount(buffer: ReadonlyMap<string, number>): Map<number, string[]> {
  const byCount = new Map<number, string[]>();
  for (const [id, n] of buffer) {
    const ids = byCount.get(n);
    if (ids) ids.push(id);
    else byCount.set(n, [id]);
  }
  return byCount;
}
