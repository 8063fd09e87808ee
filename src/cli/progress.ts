import { Presets, SingleBar } from 'cli-progress';

/**
 * A one-line count of rows done, redrawn on stderr while a long command runs, only when stderr is
 * a terminal (scripts and pipes get the final count alone). For work whose total is not known in
 * advance: a streamed export, an import from stdin (counting first would read everything twice).
 */
export function progress(verb: string, unit = 'rows'): { update(counts: Record<string, number | undefined>): void; done(counts: Record<string, number | undefined>): void } {
  const tty = process.stderr.isTTY;
  let last = 0;
  const line = (counts: Record<string, number | undefined>) => {
    const total = Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0);
    return `${verb} ${total.toLocaleString('en')} ${unit}`;
  };
  return {
    update(counts) {
      const now = Date.now();
      if (!tty || now - last < 200) return;
      last = now;
      process.stderr.write(`\r\x1b[2K${line(counts)}`);
    },
    done(counts) {
      if (tty) process.stderr.write(`\r\x1b[2K`);
      process.stderr.write(`${line(counts)}\n`);
    },
  };
}

/**
 * A bar over a known total (an import file's bytes), with the rows done beside it, drawn on stderr
 * by cli-progress only when stderr is a terminal (it draws nothing for scripts and pipes).
 */
export function progressBar(verb: string, totalBytes: number): { update(bytes: number, counts: Record<string, number | undefined>): void; stop(): void } {
  const megabytes = (n: number) => (n / 1e6).toFixed(1);
  const shown = new SingleBar(
    {
      stream: process.stderr,
      format: `${verb} {bar} {percentage}% | {done}/{total} MB | {rows} rows`,
      formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? megabytes(value) : String(value)),
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  shown.start(totalBytes, 0, { rows: '0', done: '0.0', total: megabytes(totalBytes) });
  return {
    update(bytes, counts) {
      const rows = Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0);
      shown.update(bytes, { rows: rows.toLocaleString('en'), done: megabytes(bytes) });
    },
    stop: () => shown.stop(),
  };
}

/** A bar over the pending migrations, naming the one running (a terminal only, as above). */
export function migrationBar(): { update(name: string, index: number, total: number): void; stop(): void } {
  const shown = new SingleBar({ stream: process.stderr, format: 'migrating {bar} {value}/{total} {name}', hideCursor: true, clearOnComplete: true }, Presets.shades_classic);
  let started = false;
  return {
    update(name, index, total) {
      if (!started) shown.start(total, index - 1, { name });
      started = true;
      shown.update(index - 1, { name });
    },
    stop: () => {
      if (started) shown.stop();
    },
  };
}
