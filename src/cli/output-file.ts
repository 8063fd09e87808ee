// Where `engram export --out PATH` writes, such that a failed export never costs what PATH was.
// A regular file (or none yet) is written as a temporary file beside it and renamed into place only
// once whole: a failed export leaves the old file as it was. Anything else (a FIFO, /dev/full, a
// terminal) is written as it is and never removed: a failure removed such paths (rmSync), device
// nodes included.
import { accessSync, constants, createWriteStream, fchmodSync, lstatSync, openSync, realpathSync, renameSync, rmSync, type Stats, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { reason, UsageError } from './exit.ts';

export interface OutputFile {
  stream: WriteStream;
  /** Once the stream has finished: the export takes the destination's place (a no-op when written directly). */
  commit(): void;
  /** After a failure: the temporary file goes; the destination is left as it was. */
  discard(): void;
}

/**
 * Opens where `path` is written now, so that a missing directory or a refused permission is told
 * before the export runs (as a usage mistake). A symlink is followed: the file it names is replaced,
 * and the link keeps naming it.
 */
export function outputFile(path: string): OutputFile {
  try {
    const target = resolved(path);
    // lstat: a link that leads nowhere is written through (direct), not replaced by a file.
    const existing = lstatSync(target, { throwIfNoEntry: false }) ?? null;
    return !existing || existing.isFile() ? replacing(target, existing) : direct(target);
  } catch (error) {
    throw new UsageError(`--out ${path} cannot be written (${reason(error)})`);
  }
}

/** The file a symlink (chain) leads to; `path` itself when it is no link or one that leads nowhere. */
function resolved(path: string): string {
  if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return path;
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** A temporary file beside `target`, renamed over it by commit; it keeps an existing file's permissions. */
function replacing(target: string, existing: Stats | null): OutputFile {
  // A read-only file stays refused, as when it was opened for writing.
  if (existing) accessSync(target, constants.W_OK);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'wx', existing ? existing.mode & 0o7777 : 0o666);
  if (existing) fchmodSync(fd, existing.mode & 0o7777);
  const stream = createWriteStream(temporary, { fd });
  return {
    stream,
    commit: () => renameSync(temporary, target),
    discard: () => {
      stream.destroy();
      rmSync(temporary, { force: true });
    },
  };
}

/** A FIFO, a device, a dangling link: written as it is, and left there whatever happens. */
function direct(target: string): OutputFile {
  const stream = createWriteStream(target, { fd: openSync(target, 'w') });
  return { stream, commit: () => {}, discard: () => stream.destroy() };
}
