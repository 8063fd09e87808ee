/**
 * The iterator's next result, or 'aborted' when `signal` aborts first (its pending next() is then
 * left to settle unread). A listener per call, removed once it settles: a Promise.race against one
 * long-pending promise (a stream's end, an interruption) keeps a reaction per call, and with it
 * each call's result, until that promise settles. An open subscription kept every event it had
 * delivered that way (~500 bytes an event a subscriber, until it closed), and an import each line.
 */
export function nextUnlessAborted<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T> | 'aborted'> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve('aborted');
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    iterator
      .next()
      .finally(() => signal.removeEventListener('abort', onAbort))
      .then(resolve, (error: unknown) => reject(error as Error));
  });
}
