/**
 * `round` every `intervalMs` (and once `firstMs` after start, when given), one at a time: a tick
 * while a round runs is skipped. The timers do not keep the process alive. `stop` clears them,
 * calls `onStop` while a round is running (to cut it short), then waits for that round. `round`
 * reports its own failures: it must not reject.
 */
export function periodic(
  intervalMs: number,
  round: () => Promise<void>,
  options: { firstMs?: number; onStop?: () => Promise<void> } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= round().finally(() => (running = null));
  };
  const timer = setInterval(tick, intervalMs).unref();
  const first = options.firstMs === undefined ? undefined : setTimeout(tick, options.firstMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      if (running) await options.onStop?.();
      await running;
    },
  };
}
