// Settings of the server's own database connections. On PostgreSQL a statement runs on one core
// by default (POSTGRES_PARALLEL_WORKERS, default 0): parallel workers let one slow ranking take
// every core of a small machine while other clients' writes wait (see DEFAULT_PARALLEL_WORKERS).
// JIT compilation is off: it took longer than the ranking statements it compiled.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/infra/database.ts';
import { DB_KIND, useHarness } from './support/harness.ts';

const h = useHarness();

describe(`database connections (${DB_KIND})`, () => {
  it.runIf(DB_KIND === 'postgresql')('every pooled PostgreSQL connection has max_parallel_workers_per_gather as configured (0 by default) and JIT off', async () => {
    for (const [options, expected] of [[{}, '0'], [{ parallelWorkers: 3 }, '3']] as const) {
      const database = await openDatabase(h.url, { ...options, poolSize: 4 });
      try {
        // Four at once: four connections of the pool, each set before its first statement.
        const settings = await Promise.all(
          Array.from({ length: 4 }, () =>
            database.prisma.$transaction(async (tx) => {
              const [row] = await tx.$queryRawUnsafe<Array<{ max_parallel_workers_per_gather: string }>>('SHOW max_parallel_workers_per_gather');
              const [jit] = await tx.$queryRawUnsafe<Array<{ jit: string }>>('SHOW jit');
              await tx.$executeRawUnsafe('SELECT pg_sleep(0.05)');
              return `${row!.max_parallel_workers_per_gather} jit ${jit!.jit}`;
            }),
          ),
        );
        expect(settings).toEqual(Array.from({ length: 4 }, () => `${expected} jit off`));
      } finally {
        await database.close();
      }
    }
  });
});
