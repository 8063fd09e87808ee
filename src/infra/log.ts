import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type { prettyFactory } from 'pino-pretty';
import { findSecrets, redact } from '../modules/redaction/secrets.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** What one request (HTTP) or operation (WebSocket) is, for every line logged while it runs. */
export interface RequestScope {
  requestId: string;
  operationName?: string;
  operationType?: string;
  principal?: string;
}

/** The request being served, wherever its work runs (services, Prisma, the masking of errors). */
export const requestScope = new AsyncLocalStorage<RequestScope>();

/** A caller's X-Request-ID when it is a sensible id (up to 128 visible ASCII characters), else a new UUID. */
export function requestIdFrom(header: string | null | undefined): string {
  return header && /^[\x21-\x7e]{1,128}$/.test(header) ? header : randomUUID();
}

interface Sink {
  write(text: string): void;
  pretty: ((line: string) => string) | null;
}

const sink: Sink = { write: (text) => void process.stdout.write(text), pretty: null };

/** The lines on their way through the secret scanner, in order. */
let queue: Promise<void> = Promise.resolve();

/** Resolves once every line logged so far is written (before the process exits). */
export function flushLogs(): Promise<void> {
  return queue;
}

/**
 * Lines are written in order after the secret scanner has read them (the scanner is asynchronous),
 * so an error quoting what a caller sent (a Prisma error echoes its arguments) cannot put a key
 * in the logs.
 */
function scanningDestination(): { write(line: string): void } {
  return {
    write(line) {
      queue = queue
        .then(async () => {
          const found = await findSecrets(line);
          const clean = found.length ? redact(line, found) : line;
          sink.write(sink.pretty ? sink.pretty(clean) : clean);
        })
        .catch(() => sink.write('{"level":50,"msg":"a log line was dropped: it could not be checked for secrets"}\n'));
    },
  };
}

function defaultLevel(): LogLevel {
  const wanted = process.env.LOG_LEVEL as LogLevel | undefined;
  if (wanted && LOG_LEVELS.includes(wanted)) return wanted;
  return process.env.NODE_ENV === 'test' ? 'error' : 'info';
}

/**
 * The process's logger: JSON lines (pino) with the request id of the request being served, pretty
 * only on a terminal. Every part of the server logs through it.
 */
export const log: Logger = pino(
  {
    level: defaultLevel(),
    base: { service: 'engram' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const scope = requestScope.getStore();
      return scope ? { requestId: scope.requestId } : {};
    },
  },
  scanningDestination(),
);

export interface LogSettings {
  level?: LogLevel;
  /** Human-readable lines (default: when the output is a terminal). */
  pretty?: boolean;
  /** Write to stderr (MCP over stdio, whose stdout carries the protocol). */
  stderr?: boolean;
}

/** pino-pretty, loaded only for a terminal: it is ~60 ms of every start that writes JSON lines. */
function prettyLines(): typeof prettyFactory {
  return (createRequire(import.meta.url)('pino-pretty') as { prettyFactory: typeof prettyFactory }).prettyFactory;
}

/** Chooses where and how lines go (the process's start-up does this once). */
export function configureLogging(settings: LogSettings = {}): void {
  const out = settings.stderr ? process.stderr : process.stdout;
  if (settings.level) log.level = settings.level;
  sink.write = (text) => void out.write(text);
  const pretty = settings.pretty ?? out.isTTY;
  sink.pretty = pretty ? prettyLines()({ colorize: out.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }) : null;
}

/** Test hook: where lines go (after the scanner), instead of stdout. */
export function captureLogs(write: (line: string) => void): () => void {
  const previous = { ...sink };
  sink.write = write;
  sink.pretty = null;
  return () => Object.assign(sink, previous);
}
