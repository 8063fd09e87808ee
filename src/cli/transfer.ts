// `engram export` and `engram import`: memory as JSON Lines, streamed both ways.
import { createReadStream, createWriteStream, ReadStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { Database } from '../infra/database.ts';
import { exportMemory } from '../modules/transfer/export.service.ts';
import { importMemory, type ImportReport } from '../modules/transfer/import.service.ts';
import { entriesAsDocument, type DocumentFormat } from '../modules/transfer/documents.ts';
import { EXIT, UsageError } from './exit.ts';
import { progress, progressBar } from './progress.ts';

export interface ExportCommandOptions {
  scope?: string;
  out?: string;
  format: 'jsonl' | DocumentFormat;
}

export async function exportCommand(database: Database, options: ExportCommandOptions): Promise<number> {
  const out: Writable = options.out ? createWriteStream(options.out) : process.stdout;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const scope = options.scope ? scopeIdOf(options.scope) : null;
  const shown = progress('exported');
  if (options.format === 'jsonl') {
    const footer = await exportMemory(database.prisma, (line) => write(`${line}\n`), { scope, onProgress: (counts) => shown.update(counts) });
    shown.done(footer.counts);
  } else {
    const written = await entriesAsDocument(database.prisma, options.format, write, { scope, onProgress: (n) => shown.update({ entries: n }) });
    shown.done({ entries: written });
  }
  if (options.out) {
    out.end();
    await once(out, 'finish');
  }
  return EXIT.ok;
}

export async function importCommand(database: Database, file: string, json: boolean): Promise<number> {
  const input = file === '-' ? process.stdin : createReadStream(file);
  const lines = createInterface({ input, crlfDelay: Infinity });
  const shown = progress('created');
  // From a file the total is known: a bar over its bytes; from stdin, the count of rows alone.
  const bar = input instanceof ReadStream ? progressBar('importing', statSync(file).size) : null;
  const report = await importMemory(database, lines, (r) => (bar ? bar.update(input.bytesRead, r.created) : shown.update(r.created)));
  bar?.stop();
  shown.done(report.created);
  if (json) console.log(JSON.stringify(report));
  else printReport(report);
  return report.complete && !Object.keys(report.refused).length ? EXIT.ok : EXIT.failed;
}

function printReport(report: ImportReport): void {
  const tables = [...new Set([...Object.keys(report.created), ...Object.keys(report.skipped), ...Object.keys(report.refused)])] as (keyof ImportReport['created'])[];
  console.log(`${'table'.padEnd(22)}${'created'.padStart(9)}${'skipped'.padStart(9)}${'refused'.padStart(9)}`);
  for (const t of tables) {
    console.log(`${t.padEnd(22)}${String(report.created[t] ?? 0).padStart(9)}${String(report.skipped[t] ?? 0).padStart(9)}${String(report.refused[t] ?? 0).padStart(9)}`);
  }
  for (const r of report.refusals) console.log(`refused ${r.table} ${r.key}: ${r.reason}`);
  if (!report.complete) console.log('The file did not end with its footer, or held other counts than it says: it may be cut off.');
}

/** A scope's id from its GraphQL ID (`base64("Project:<id>")`) or as it is stored. */
export function scopeIdOf(given: string): string {
  const decoded = Buffer.from(given, 'base64').toString('utf8');
  const match = /^(GlobalScope|Organization|Project|Session):(.+)$/.exec(decoded);
  if (match) return match[2]!;
  if (!/^[\w-]{1,100}$/.test(given)) throw new UsageError(`--scope must be a scope's ID, got "${given}"`);
  return given;
}
