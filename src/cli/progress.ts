/**
 * A one-line count of rows done, redrawn on stderr while a long command runs, only when stderr is
 * a terminal (scripts and pipes get nothing). Counts, not a bar: a streamed export or import does
 * not know its total in advance (counting first would read everything twice).
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
