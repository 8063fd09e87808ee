import { print, type ExecutionResult } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { App } from '../../src/app.ts';

/** Results of one subscription, collected as they arrive. */
export class Collector<R> {
  readonly results: ExecutionResult<R>[] = [];
  readonly errors: unknown[] = [];
  private waiters: Array<() => void> = [];

  push(result: ExecutionResult<R>): void {
    this.results.push(result);
    for (const wake of this.waiters.splice(0)) wake();
  }

  fail(error: unknown): void {
    this.errors.push(error);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `predicate` holds over what arrived, or rejects after `timeoutMs`. */
  async until(predicate: (results: ExecutionResult<R>[]) => boolean, timeoutMs = 5_000): Promise<ExecutionResult<R>[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.results)) {
      if (this.errors.length) throw new Error(`subscription failed: ${JSON.stringify(this.errors)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; received ${JSON.stringify(this.results)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.results;
  }
}

export interface WsSubscription<R> {
  collector: Collector<R>;
  client: Client;
  close(): Promise<void>;
}

/** One more subscription on an open graphql-ws `client` (several share its socket), its results collected. */
export function collectOn<R, V>(client: Client, doc: TypedDocumentNode<R, V>, variables: V): { collector: Collector<R>; unsubscribe: () => void } {
  const collector = new Collector<R>();
  const unsubscribe = client.subscribe<R>(
    { query: print(doc), variables: variables as Record<string, unknown> },
    { next: (r) => collector.push(r as ExecutionResult<R>), error: (e) => collector.fail(e), complete: () => undefined },
  );
  return { collector, unsubscribe };
}

/** A real graphql-ws client on the app's port. */
export function wsSubscribe<R, V>(
  port: number,
  doc: TypedDocumentNode<R, V>,
  variables: V,
  connectionParams: Record<string, string> = {},
): WsSubscription<R> {
  const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  const { collector, unsubscribe } = collectOn(client, doc, variables);
  return {
    collector,
    client,
    async close() {
      unsubscribe();
      await client.dispose();
    },
  };
}

/**
 * An SSE subscription (Yoga's built-in Server-Sent Events transport): through `yoga.fetch`, or
 * over a real socket with `port` (and `headers`, e.g. a key).
 */
export async function sseSubscribe<R, V>(app: App, doc: TypedDocumentNode<R, V>, variables: V, options: { port?: number; headers?: Record<string, string> } = {}) {
  const abort = new AbortController();
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    body: JSON.stringify({ query: print(doc), variables }),
    signal: abort.signal,
  };
  const response = options.port ? await fetch(`http://127.0.0.1:${options.port}/graphql`, init) : await app.yoga.fetch('http://engram.test/graphql', init);
  const collector = new Collector<R>();
  let completed = false;
  let onComplete = () => {};
  const completion = new Promise<void>((resolve) => (onComplete = resolve));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: complete')) {
            completed = true;
            onComplete();
            continue;
          }
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data) collector.push(JSON.parse(data) as ExecutionResult<R>);
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) collector.fail(error);
    }
  })();
  return {
    collector,
    contentType: response.headers.get('content-type'),
    /** Whether the server ended the stream (`event: complete`). */
    completed: () => completed,
    /**
     * Whether the server ends the stream within `ms`. The last result and `event: complete` can
     * come in two reads (Node 26 writes them apart), so a test that has just seen the result waits.
     */
    completedWithin: (ms: number) =>
      Promise.race([completion.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(completed), ms))]),
    close() {
      abort.abort();
      // In-process (yoga.fetch) the abort alone leaves the server's stream open: cancelling it is
      // what a closed connection does over HTTP, and ends the subscription on the server.
      void reader.cancel().catch(() => undefined);
    },
  };
}

/**
 * Subscriptions register asynchronously: cause probe events until one arrives, so that what the
 * test does next is seen. Probe events are recognised by the caller and ignored.
 */
export async function untilListening<R>(collector: Collector<R>, probe: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const before = collector.results.length;
    await probe();
    try {
      await collector.until((r) => r.length > before, 200);
      return;
    } catch (error) {
      // A failed subscription is a failure, not "not listening yet".
      if (collector.errors.length > 0) throw error;
    }
  }
  throw new Error(`subscription never started listening (${collector.results.length} results, errors: ${JSON.stringify(collector.errors)})`);
}

/**
 * engram_subscription_events_total by execution (`own`: executed for one subscriber, `shared`: a
 * result executed for another subscriber of the same operation, variables and caller), read from
 * /metrics of the server on `port` (`headers` carry an admin key where AUTH is on).
 */
export async function eventsDelivered(port: number, headers: Record<string, string> = {}): Promise<{ own: number; shared: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers })).text();
  const count = (execution: string) => Number(new RegExp(`^engram_subscription_events_total\\{execution="${execution}"\\} (\\S+)$`, 'm').exec(text)?.[1]);
  return { own: count('own'), shared: count('shared') };
}

/** engram_subscriptions_open, from the server's metrics (AUTH=off: they answer anyone). */
export async function subscriptionsOpen(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^engram_subscriptions_open (\S+)$/m.exec(text)?.[1]);
}
