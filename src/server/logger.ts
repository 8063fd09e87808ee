import { format } from 'node:util';
import { findSecrets, redact } from '../modules/redaction/secrets.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/**
 * Yoga's logger, with every line passed through the same secret scanner as writes, so that an
 * error quoting what a caller sent (a Prisma error echoes its arguments) cannot put a key in the
 * logs. The scanner is asynchronous: lines are written in order through one queue.
 */
export function redactingLogger(level: Level) {
  let queue: Promise<void> = Promise.resolve();
  const log = (at: Level) => (...args: unknown[]) => {
    if (ORDER[at] < ORDER[level]) return;
    const line = format(...args);
    queue = queue
      .then(async () => {
        const found = await findSecrets(line);
        (at === 'error' ? console.error : at === 'warn' ? console.warn : console.log)(found.length ? redact(line, found) : line);
      })
      .catch(() => console.error('[a log line was dropped: it could not be checked for secrets]'));
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
