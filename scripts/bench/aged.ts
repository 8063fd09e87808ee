// Issue #13's check: the same memory aged as a year of use would age it, then the query shapes
// again (decay and expiry now decide between entries), then a purge of 10 % of the entries. Every
// entry's last change is spread over the past year; every tenth (knowledge, i % 10 == 9) is an
// EPISODIC note 91-365 days old (past the default 90-day retention: the purge's 10 %); one
// knowledge entry in fifty expired yesterday; importance is spread over 0-1.
import { performance } from 'node:perf_hooks';
import { settleAfterBulkLoad, type Database } from '../../src/infra/database.ts';
import { iterations, record, summarize, timed, type Ask } from './common.ts';
import { shape } from './shapes.ts';
import type { Workload } from './workload.ts';

const DAY = 86_400_000;

export async function agedMemory(w: Workload, database: Database, ask: Ask): Promise<void> {
  const t0 = performance.now();
  const episodes = await age(w, database);
  console.log(`  aged the memory over a year                  ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const shapes = ['tagWord', 'tagOnly', 'context2'].map(shape);
  const samples = new Map(shapes.map((s) => [s.key, [] as number[]]));
  for (let i = 0; i < iterations + 20; i++) {
    for (const s of shapes) await timed(i < 20 ? [] : samples.get(s.key)!, () => ask(s.query, s.variables(w, i)));
  }
  for (const s of shapes) summarize('memory', w.kind, `N=${w.n} aged: ${s.label}`, samples.get(s.key)!);
  await purge(w, database, ask, episodes);
}

/** Ages the rows as described above; answers the number of episodes past their retention. */
async function age(w: Workload, database: Database): Promise<number> {
  const now = Date.now();
  const byDay = new Map<number, string[]>();
  const byImportance = new Map<number, string[]>();
  const episodes: string[] = [];
  const expired: string[] = [];
  const add = (map: Map<number, string[]>, key: number, id: string) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  w.ids.forEach((id, i) => {
    const episode = i % 10 === 9;
    add(byDay, episode ? 91 + ((i * 37) % 275) : (i * 7919) % 365, id);
    if (episode) episodes.push(id);
    if (i % 50 === 8) expired.push(id);
    add(byImportance, ((i * 13) % 11) / 10, id);
  });
  const inChunks = async (list: string[], run: (chunk: string[]) => Promise<unknown>) => {
    for (let i = 0; i < list.length; i += 5_000) await run(list.slice(i, i + 5_000));
  };
  const db = database.prisma;
  // (Prisma sets updatedAt on every update: the ages go last.)
  for (const [importance, list] of byImportance) await inChunks(list, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { importance } }));
  await inChunks(episodes, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { memoryType: 'EPISODIC' } }));
  await inChunks(expired, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { validUntil: new Date(now - DAY) } }));
  for (const [day, list] of byDay) await inChunks(list, (chunk) => db.entry.updateMany({ where: { id: { in: chunk } }, data: { updatedAt: new Date(now - day * DAY - 3_600_000) } }));
  await settleAfterBulkLoad(db, w.kind);
  return episodes.length;
}

/** A dry run of the purge, then the purge: both timed; it must erase exactly the old episodes. */
async function purge(w: Workload, database: Database, ask: Ask, episodes: number): Promise<void> {
  const purgeRun = 'mutation($d: Boolean) { purgeMemory(input: { dryRun: $d }) { __typename ... on PurgeMemorySuccess { run { receipts { counts } } } } }';
  const erased = (data: unknown) =>
    (data as { purgeMemory: { run: { receipts: Array<{ counts: { Entry?: number } }> } } }).purgeMemory.run.receipts.reduce((sum, r) => sum + (r.counts.Entry ?? 0), 0);
  let t = performance.now();
  const wouldGo = erased(await ask(purgeRun, { d: true }));
  const dryMs = performance.now() - t;
  t = performance.now();
  const gone = erased(await ask(purgeRun, { d: false }));
  const purgeMs = performance.now() - t;
  const left = await database.prisma.entry.count();
  console.log(`  purge dry run: ${wouldGo.toLocaleString('en')} entries would go            ${(dryMs / 1000).toFixed(1)} s`);
  console.log(`  purge: erased ${gone.toLocaleString('en')} of ${w.n.toLocaleString('en')} entries (${((gone / w.n) * 100).toFixed(1)} %) with receipts   ${(purgeMs / 1000).toFixed(1)} s (${Math.round(gone / (purgeMs / 1000)).toLocaleString('en')} entries/s); ${left.toLocaleString('en')} left`);
  if (gone !== episodes) throw new Error(`the purge erased ${gone} entries, expected the ${episodes} episodes past their retention`);
  record('memory', w.kind, `N=${w.n} purge of 10 %`, purgeMs, 'ms');
}
