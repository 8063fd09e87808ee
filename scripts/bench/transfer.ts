// Export and import (issue #15) at --transfer-size entries (default 100,000) of the issue #4
// workload: SQLite -> file -> PostgreSQL -> file -> SQLite, timing each step, with the peak RSS
// of this process, and a check that the three exports hold the same rows (an order-free digest
// of every row with its JSON keys sorted: PostgreSQL's jsonb reorders them).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { openDatabase } from '../../src/infra/database.ts';
import { exportMemory } from '../../src/modules/transfer/export.service.ts';
import { importMemory } from '../../src/modules/transfer/import.service.ts';
import { freshDatabase, opts, record, type Kind } from './common.ts';
import { seedWorkload } from './workload.ts';

export async function transferSuite(): Promise<void> {
  const n = Number(opts['transfer-size']);
  console.log(`\ntransfer: ${n.toLocaleString('en')} entries, SQLite -> PostgreSQL -> SQLite through JSON Lines files`);
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-transfer-'));
  const seeded = await seedWorkload('sqlite', n);
  const databases = [seeded];
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const first = await exported('sqlite', seeded.url, join(dir, 'first.jsonl'));
    const pgDb = await freshDatabase('postgresql');
    databases.push(pgDb as typeof seeded);
    await imported('postgresql', pgDb.url, first.file);
    const second = await exported('postgresql', pgDb.url, join(dir, 'second.jsonl'));
    const back = await freshDatabase('sqlite');
    databases.push(back as typeof seeded);
    await imported('sqlite', back.url, second.file);
    const third = await exported('sqlite', back.url, join(dir, 'third.jsonl'));
    const same = first.digest === second.digest && second.digest === third.digest;
    record('transfer', 'both', `the three exports hold the same ${first.rows.toLocaleString('en')} rows`, same ? 1 : 0, same ? 'yes' : 'NO');
    record('transfer', 'both', 'peak RSS of the exporting and importing process', peakRss / 1_048_576, 'MB');
  } finally {
    clearInterval(sampler);
    rmSync(dir, { recursive: true, force: true });
    for (const db of databases) await db.drop();
  }
}

async function exported(kind: Kind, url: string, file: string): Promise<{ file: string; rows: number; digest: string }> {
  const database = await openDatabase(url, { readers: 0 });
  const out = createWriteStream(file);
  const t0 = performance.now();
  try {
    const footer = await exportMemory(database.prisma, async (line) => {
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    });
    out.end();
    await once(out, 'finish');
    const ms = performance.now() - t0;
    const rows = Object.values(footer.counts).reduce((a, b) => a + (b ?? 0), 0);
    record('transfer', kind, `export (${(statSync(file).size / 1_048_576).toFixed(0)} MB)`, ms / 1000, `s (${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s)`);
    return { file, rows, digest: await digestOf(file) };
  } finally {
    await database.close();
  }
}

async function imported(kind: Kind, url: string, file: string): Promise<void> {
  const database = await openDatabase(url, { readers: 0 });
  const t0 = performance.now();
  try {
    const report = await importMemory(database, createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
    const ms = performance.now() - t0;
    const rows = Object.values(report.created).reduce((a, b) => a + (b ?? 0), 0);
    const refused = Object.values(report.refused).reduce((a, b) => a + (b ?? 0), 0);
    record('transfer', kind, `import (${refused} refused${report.complete ? '' : ', INCOMPLETE'})`, ms / 1000, `s (${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s)`);
  } finally {
    await database.close();
  }
}

/** An order-free digest of an export's rows (the sum of each canonical row's hash), header and footer left out. */
async function digestOf(file: string): Promise<string> {
  let sum = 0n;
  const seeded = (row: Record<string, unknown>) => row.id === 'global' || row.predefined === true;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const record = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (!record.table || !record.row) continue;
    // Rows every database seeds for itself keep that database's instants.
    if (seeded(record.row)) for (const column of ['createdAt', 'updatedAt']) delete record.row[column];
    const hash = createHash('sha256').update(JSON.stringify(sorted(record))).digest();
    sum = (sum + hash.readBigUInt64BE(0)) % (1n << 64n);
  }
  return sum.toString(16);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sorted(v)]));
}
