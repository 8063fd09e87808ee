// `engram export` and `engram import`: memory as JSON Lines, streamed both ways.
import { createReadStream, fstatSync, openSync } from 'node:fs';
import { once } from 'node:events';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { Database } from '../infra/database.ts';
import { exportMemory } from '../modules/transfer/export.service.ts';
import { importMemory, linesOf, type ImportReport } from '../modules/transfer/import.service.ts';
import type { DocumentFormat } from '../modules/transfer/documents.ts';
import { EXIT, Failure, reason, UsageError } from './exit.ts';
import { outputFile } from './output-file.ts';
import { progress, progressBar } from './progress.ts';

export interface ExportCommandOptions {
  scope?: string;
  out?: string;
  format: 'jsonl' | DocumentFormat;
}

export async function exportCommand(database: Database, options: ExportCommandOptions): Promise<number> {
  // An empty --scope (a script's unset variable) is refused, not taken for no scope: that exports everything.
  const scope = options.scope !== undefined ? scopeIdOf(options.scope) : null;
  // Before anything is written: an unknown scope must neither start stdout with a header nor touch an existing --out file.
  if (scope && !(await database.prisma.scope.findUnique({ where: { id: scope }, select: { id: true } }))) throw new UsageError(`--scope ${options.scope}: no scope has this id`);
  // Ctrl-C mid-export: its temporary file goes too, and what was at --out stays (an export only
  // reads: nothing else needs finishing). Listened for before the file is made: a signal in between
  // would end the process by default, leaving it behind.
  let file: ReturnType<typeof outputFile> | null = null;
  const interrupted = options.out
    ? onStopSignals((name) => {
        file?.discard();
        console.error(`Interrupted (${name}): ${options.out} was left as it was.`);
        exitFor(name);
      })
    : null;
  try {
    // Opened before anything is read: a path that cannot be written fails before the export starts.
    file = options.out ? outputFile(options.out) : null;
  } catch (error) {
    interrupted?.();
    throw error;
  }
  const out = sink(file?.stream ?? process.stdout);
  const shown = progress('exported');
  let counts: Record<string, number | undefined>;
  try {
    counts = await writeExport(database, out.write, options.format, scope, shown.update);
    if (file) {
      file.stream.end();
      // Rejects with a write's error (a full disk): the count below is told only once the file holds the rows.
      await once(file.stream, 'finish');
      file.commit();
    }
  } catch (error) {
    // No file that looks like an export but is not a whole one; what was at --out stays as it was.
    file?.discard();
    if (error !== out.failed()) throw error;
    // The reader of stdout went away (`engram export | head`): nothing to tell it, and the export is not whole.
    if (!file && (error as NodeJS.ErrnoException).code === 'EPIPE') return EXIT.failed;
    throw new Failure(`writing ${options.out ?? 'stdout'} failed: ${(error as Error).message}`);
  } finally {
    interrupted?.();
  }
  shown.done(counts);
  return EXIT.ok;
}

/**
 * Writes to `out`, waiting when it is full; the first error of the stream (EPIPE, ENOSPC) is kept,
 * and every write after it rejects with it: a stream that failed emits no 'drain' to wait for.
 */
function sink(out: Writable): { write: (text: string) => Promise<void>; failed: () => Error | undefined } {
  let failed: Error | undefined;
  out.on('error', (error: Error) => (failed ??= error));
  return {
    write: async (text) => {
      if (failed) throw failed;
      if (!out.write(text)) await once(out, 'drain');
    },
    failed: () => failed,
  };
}

/** Writes the export with `write`; the rows (or entries) written, per table. */
async function writeExport(database: Database, write: (text: string) => Promise<void>, format: ExportCommandOptions['format'], scope: string | null, onProgress: (counts: Record<string, number | undefined>) => void): Promise<Record<string, number | undefined>> {
  if (format === 'jsonl') return (await exportMemory(database.prisma, (line) => write(`${line}\n`), { scope, onProgress })).counts;
  // Loaded here: the YAML writer is ~65 ms of a start that the JSON Lines export does not need.
  const { entriesAsDocument } = await import('../modules/transfer/documents.ts');
  return { entries: await entriesAsDocument(database.prisma, format, write, { scope, onProgress: (n) => onProgress({ entries: n }) }) };
}

/** What an import reads: stdin, or a file opened and checked before any database is opened. */
export interface ImportSource {
  stream: Readable;
  /** A file's size (the progress bar's total); null for stdin and what is read as a stream (a device, a pipe). */
  size: number | null;
  bytesRead: () => number;
}

export function importSource(file: string): ImportSource {
  if (file === '-') return { stream: process.stdin, size: null, bytesRead: () => 0 };
  let fd: number;
  let size: number | null;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
    // Anything else is read to its end as stdin is: /dev/null as an empty file, a pipe (<(…)) as it comes.
    size = stat.isFile() ? stat.size : null;
  } catch (error) {
    throw new UsageError(`${file} cannot be read (${reason(error)})`);
  }
  const stream = createReadStream(file, { fd });
  return { stream, size, bytesRead: () => stream.bytesRead };
}

export async function importCommand(database: Database, source: ImportSource, json: boolean): Promise<number> {
  const lines = linesOf(source.stream);
  const shown = progress('created');
  // From a file the total is known: a bar over its bytes; from stdin, the count of rows alone.
  const bar = source.size !== null ? progressBar('importing', source.size) : null;
  const interruption = untilSignal();
  let report: ImportReport;
  try {
    report = await importMemory(database, lines, (r) => (bar ? bar.update(source.bytesRead(), r.created) : shown.update(r.created)), interruption.signal);
  } finally {
    interruption.dispose();
  }
  bar?.stop();
  shown.done(report.created);
  if (json) console.log(JSON.stringify(report));
  else printReport(report);
  if (report.interrupted) {
    console.error(`Interrupted (${interruption.received}): the rows counted above were imported, and no entry was left without its current version. Import the file again to complete it: what is here is skipped.`);
    return 128 + osConstants.signals[interruption.received!];
  }
  if (report.stopped) {
    console.error(report.stopped.message);
    return EXIT.usage;
  }
  return report.complete && !Object.keys(report.refused).length ? EXIT.ok : EXIT.failed;
}

/**
 * SIGINT and SIGTERM while an import runs: the first asks it to stop reading (it then finishes
 * what it wrote: an entry's current version is written only once its versions are in, and an
 * entry left before that would fail every read); a second ends the process at once, with the
 * usual code (the next import of the file repairs what is left).
 */
function untilSignal(): { signal: AbortSignal; received: NodeJS.Signals | null; dispose: () => void } {
  const controller = new AbortController();
  const state = {
    signal: controller.signal,
    received: null as NodeJS.Signals | null,
    dispose: onStopSignals((name) => {
      if (state.received) exitFor(name);
      state.received = name;
      controller.abort();
    }),
  };
  return state;
}

/** Until the returned function is called, SIGINT and SIGTERM go to `handle` instead of ending the process. */
function onStopSignals(handle: (name: NodeJS.Signals) => void): () => void {
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
  return () => {
    process.off('SIGINT', handle);
    process.off('SIGTERM', handle);
  };
}

/** Ends the process with the usual code of a signal (130 for SIGINT, 143 for SIGTERM). */
function exitFor(name: NodeJS.Signals): never {
  process.exit(128 + osConstants.signals[name]);
}

function printReport(report: ImportReport): void {
  const tables = [...new Set([...Object.keys(report.created), ...Object.keys(report.skipped), ...Object.keys(report.refused)])] as (keyof ImportReport['created'])[];
  console.log(`${'table'.padEnd(22)}${'created'.padStart(9)}${'skipped'.padStart(9)}${'refused'.padStart(9)}`);
  for (const t of tables) {
    console.log(`${t.padEnd(22)}${String(report.created[t] ?? 0).padStart(9)}${String(report.skipped[t] ?? 0).padStart(9)}${String(report.refused[t] ?? 0).padStart(9)}`);
  }
  for (const r of report.refusals) console.log(`refused ${r.table} ${r.key}: ${r.reason}`);
  if (report.interrupted) console.log('Interrupted: the rows above were imported. Import the file again to complete it (rows already here are skipped).');
  else if (report.stopped) console.log(`Stopped at line ${report.stopped.line}, which is not valid: the rows above were imported. Fix it and import again (rows already here are skipped).`);
  else if (!report.complete) console.log('The file did not end with its footer, or held other counts than it says: it may be cut off.');
}

/** A scope's id from its GraphQL ID (`base64("Project:<id>")`) or as it is stored. */
export function scopeIdOf(given: string): string {
  const decoded = Buffer.from(given, 'base64').toString('utf8');
  const match = /^(GlobalScope|Organization|Project|Session):(.+)$/.exec(decoded);
  if (match) return match[2]!;
  if (!/^[\w-]{1,100}$/.test(given)) throw new UsageError(`--scope must be a scope's ID, got "${given}"`);
  return given;
}
