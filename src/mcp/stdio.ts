import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApp } from '../app.ts';
import { UsageError } from '../cli/exit.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../infra/database.ts';
import { createEventBus } from '../infra/events.ts';
import { configureLogging } from '../infra/log.ts';
import { applyMigrations } from '../infra/migrations.ts';
import { sqliteAddonProblemFor } from '../infra/native-check.ts';
import { MAX_REQUEST_BODY_BYTES } from '../domain/limits.ts';
import { connectChecked, createMcpServer, executeThrough } from './server.ts';
import { BoundedLines, tooLongAnswer, unreadableAnswer } from './stdio-lines.ts';

export interface StdioOptions {
  /** An API key: tools act as its principal. Without one they act as this machine's admin, as in-process calls do. */
  apiKey?: string;
  /** X-Engram-Actor for every call (who writes, as the API records it). */
  actor?: string;
}

/**
 * MCP over stdin/stdout for an agent runtime that starts Engram itself: the embedded database of
 * DATABASE_URL (migrated first), the same app as the server (not listening), one MCP session until
 * stdin closes. With REDIS_URL, subscribers of a server on the same database see these writes.
 */
export async function serveMcpOverStdio(options: StdioOptions): Promise<void> {
  // stdout carries the protocol: every log line of this process goes to stderr.
  console.log = console.info = console.debug = console.error;
  const config = loadConfig();
  configureLogging({ level: config.logLevel, pretty: config.logPretty, stderr: true });
  const problem = sqliteAddonProblemFor(config.databaseUrl);
  if (problem) throw new Error(problem);
  await applyMigrations(config.databaseUrl);
  const database = await openDatabase(config.databaseUrl, { readers: config.sqliteReaders, cacheMb: config.sqliteCacheMb, rankExtension: config.sqliteRankExtension, parallelWorkers: config.postgresParallelWorkers });
  const bus = createEventBus({ redisUrl: config.redisUrl });
  const app = createApp({
    database,
    bus,
    graphiql: false,
    settings: { conflictWindowMs: config.conflictWindowMs },
    limits: config.limits,
    auth: config.auth,
    access: { globalReadable: config.grantsReadGlobal },
    exhaustiveRanking: config.exhaustiveRanking,
    rankBestHitsFrom: config.rankBestHitsFrom,
  });
  const headers: Record<string, string> = {};
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (options.actor) headers['x-engram-actor'] = options.actor;
  const execute = executeThrough((url, init) => app.yoga.fetch(url, init), headers);
  const server = createMcpServer(execute);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.stop(1_000);
      await bus.close();
      await database.close();
    })());
  if (options.apiKey) {
    // A key refused now refuses every call: say so at start, as HTTP refuses `initialize`.
    const refused = (await execute('{ __typename }', {})).errors?.find((error) => error.extensions?.code === 'UNAUTHENTICATED');
    if (refused) {
      await close();
      throw new UsageError(`The API key of --key or ENGRAM_API_KEY is refused: ${refused.message}`);
    }
  }
  server.onclose = () => void close().then(() => process.exit(0));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void close().then(() => process.exit(0)));
  let transport: StdioServerTransport | undefined = undefined;
  const lines = new BoundedLines(MAX_REQUEST_BODY_BYTES, () => void transport?.send(tooLongAnswer(MAX_REQUEST_BODY_BYTES)));
  // Each line reaches the transport whole and bounded (its own buffer's limit is never met).
  transport = new StdioServerTransport(process.stdin.pipe(lines), process.stdout, { maxBufferSize: 2 * MAX_REQUEST_BODY_BYTES });
  // The transport stops reading on close but does not notice that stdin ended (the client went away).
  lines.once('end', () => void transport.close());
  await connectChecked(server, transport);
  // A line that is not JSON, or not JSON-RPC, is reported to `onerror` and otherwise dropped
  // unanswered: a client would wait for an answer that never comes.
  const reported = transport.onerror;
  transport.onerror = (error) => {
    const refused = unreadableAnswer(error);
    if (refused) void transport.send(refused);
    reported?.(error);
  };
}
