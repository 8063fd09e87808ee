// First: NODE_ENV before anything that reads it as it loads (see node-env.ts).
import './infra/node-env.ts';
import { performance } from 'node:perf_hooks';
import type { App } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import type { Database } from './infra/database.ts';
import type { EventBus } from './infra/events.ts';
import { applyMigrations } from './infra/migrations.ts';
import { ConfigError, DatabaseError } from './infra/start-up-errors.ts';
import { sqliteAddonProblemFor } from './infra/native-check.ts';
import { configureLogging, flushLogs, log } from './infra/log.ts';
import { startTelemetry, type Telemetry } from './infra/telemetry.ts';
import type { AuthMode } from './server/authentication.ts';

const config = loadConfigOrExit();
configureLogging({ level: config.logLevel, pretty: config.logPretty });
const redacted = config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@');

const running: { app?: App; database?: Database; bus?: EventBus; telemetry?: Telemetry | null } = {};
let stopping = false;

// Handlers first: a supervisor may send SIGTERM at any moment, even during migrations.
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: finishing open requests, then stopping`);
  await running.app?.stop(config.shutdownGraceMs);
  await running.bus?.close();
  await running.database?.close();
  await running.telemetry?.shutdown();
  await flushLogs();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Before migrations, which load SQLite first: a better-sqlite3 built for another Node would fail
// there as "External error id#0".
const sqliteProblem = sqliteAddonProblemFor(config.databaseUrl);
if (sqliteProblem) {
  log.fatal(sqliteProblem);
  // The line is written once the secret scanner has read it.
  await flushLogs();
  process.exit(1);
}
// One line per migration as it starts: one that rewrites every row can take minutes on a large database.
const { applied } = await applyMigrations(config.databaseUrl, {
  // Written before the migration starts (a SQLite migration holds the event loop while it runs).
  onMigration: (name, index, total) => {
    log.info({ migration: name }, `Applying migration ${index}/${total}: ${name}`);
    return flushLogs();
  },
}).catch(exitIfDatabaseError);
// Before the database opens, so that Prisma's calls are traced.
const telemetry = (running.telemetry = await startTelemetry());
// The rest of the server loads once the database is open: SQLite's reader threads, which load
// modules of their own, then start on the other core while this thread loads the GraphQL layer.
const { openDatabase } = await import('./infra/database.ts');
const database = (running.database = await openDatabase(config.databaseUrl, { readers: config.sqliteReaders, cacheMb: config.sqliteCacheMb, rankExtension: config.sqliteRankExtension, parallelWorkers: config.postgresParallelWorkers }));
if (!stopping) {
  const [{ createApp }, { createEventBus }] = await Promise.all([import('./app.ts'), import('./infra/events.ts')]);
  const bus = (running.bus = createEventBus({ redisUrl: config.redisUrl }));
  // Redis down at start-up is an outage like any other: reads, writes and subscriptions go on (the
  // instances poll the change feed) until it answers. The wait only spares the first events' delay.
  await bus.ready(5_000).catch((error: Error) => log.warn(`${error.message}: starting without Redis until it answers (instances poll the change feed meanwhile)`));
  const settings = { conflictWindowMs: config.conflictWindowMs };
  const webSocket = {
    maxSubscriptionsPerSocket: config.wsMaxSubscriptionsPerSocket,
    maxConnections: config.wsMaxConnections,
    maxPendingConnections: config.wsMaxPendingConnections,
    maxPendingConnectionsPerAddress: config.wsMaxPendingConnectionsPerAddress,
  };
  const app = (running.app = createApp({ database, bus, settings, graphiql: config.graphiql, webSocket, maxSubscriptions: config.maxSubscriptions, maxSubscriptionsPerKey: config.maxSubscriptionsPerKey, limits: config.limits, corsOrigins: config.corsOrigins, auth: config.auth, access: { globalReadable: config.grantsReadGlobal }, exhaustiveRanking: config.exhaustiveRanking, rankBestHitsFrom: config.rankBestHitsFrom, ...(telemetry ? { tracing: telemetry.plugin } : {}),
    ...(config.purgeIntervalMinutes > 0 ? { purge: { intervalMs: config.purgeIntervalMinutes * 60_000 } } : {}),
    upkeepIntervalMs: config.postgresUpkeepSeconds * 1000, rateLimits: config.rateLimits,
    changeRetentionHours: config.changeRetentionHours }));
  // SQLite's reader threads start beside the rest of start-up. Answering before they have would
  // run the first requests on the one reader that started, beside the others still loading: at
  // 100K entries a require/exclude query took 10-34 ms for its first ~35 asks instead of 6.
  await database.readersStarted();
  const port = await app.start(config.port, config.host);
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  // performance.now() counts from process start, module loading included.
  log.info(
    { port, provider: database.provider, migrationsApplied: applied.length, readyMs: Math.round(performance.now()), nodeEnv: process.env.NODE_ENV },
    `Engram listening on http://${shownHost}:${port}/graphql (${database.provider}: ${redacted}; ` +
      `${applied.length} migration(s) applied; NODE_ENV=${process.env.NODE_ENV}; ready in ${Math.round(performance.now())} ms)`,
  );
  await announceAuthentication(config.auth, database);
}

/** The settings; a wrong one is told in its line alone (no logger yet: its settings are among them), exit code 2. */
function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/** A database that cannot be reached or migrated is the operator's to see to: one fatal line, exit code 1, no stack. */
async function exitIfDatabaseError(error: unknown): Promise<never> {
  if (!(error instanceof DatabaseError)) throw error;
  log.fatal(error.message);
  await flushLogs();
  process.exit(1);
}

/** Says how callers are let in: loudly when nobody is checked, and how to leave protected mode. */
async function announceAuthentication(auth: AuthMode, db: Database): Promise<void> {
  if (auth === 'off') {
    log.warn('WARNING: AUTH=off: every caller that reaches this port may read and write everything. Use it only on a trusted network.');
    return;
  }
  // Loaded with the GraphQL layer by now (imported late, as that layer is).
  const { anyUsableKey } = await import('./modules/identity/keys.service.ts');
  if (!(await anyUsableKey(db.prisma))) {
    log.info('Protected mode: no API key exists yet, so only this machine is answered. Create one with `npm run keys -- create --admin --name <name>`.');
  }
}
