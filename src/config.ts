import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './infra/start-up-errors.ts';
import { LOG_LEVELS, type LogLevel } from './infra/log.ts';
import { DEFAULT_READERS } from './infra/sqlite-readers.ts';
import { DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY } from './domain/limits.ts';
import type { AuthMode } from './server/authentication.ts';
import { DEFAULT_LIMITS, type OperationLimits } from './server/operation-limits.ts';
import type { RateLimits } from './server/rate-limit.ts';

/** Server configuration, read from the environment once at start-up. */
export interface Config {
  /** `file:<path>` (SQLite, the default) or `postgres(ql)://…`. */
  databaseUrl: string;
  port: number;
  host: string;
  /** Milliseconds that SIGTERM waits for open requests before closing connections. */
  shutdownGraceMs: number;
  /** GraphiQL on GET /graphql. */
  graphiql: boolean;
  production: boolean;
  /** Redis for subscription events across instances; in-process pub/sub when absent. */
  redisUrl: string | null;
  /** Without expectedVersion, writes by different writers this close together conflict. */
  conflictWindowMs: number;
  /** graphql-ws: operations in flight on one socket; one more is refused (TOO_MANY_SUBSCRIPTIONS). */
  wsMaxSubscriptionsPerSocket: number;
  /** graphql-ws: open connections of this instance; one more is closed with 1013. */
  wsMaxConnections: number;
  /** graphql-ws: of those, the ones whose connection_init is not accepted yet; one more is closed with 1013. */
  wsMaxPendingConnections: number;
  /** graphql-ws: of the waiting ones, those from one client address (loopback aside); one more is closed with 1013. */
  wsMaxPendingConnectionsPerAddress: number;
  /** Subscriptions open at once on the instance, over WebSockets and SSE; one more is refused (TOO_MANY_SUBSCRIPTIONS). */
  maxSubscriptions: number;
  /** Of those, the ones one API key may hold open on the instance; one more is refused (TOO_MANY_SUBSCRIPTIONS). */
  maxSubscriptionsPerKey: number;
  /** Bounds on one GraphQL operation (cost, depth, aliases, tokens, directives, time). */
  limits: OperationLimits;
  /** Browser origins other than the server's own allowed to call the API (CORS); empty: none. */
  corsOrigins: string[];
  /** `off` (AUTH=off): no API keys, no protected mode, for a trusted network. */
  auth: AuthMode;
  /** Per API key (or client address without one), per second; shared through Redis when configured. */
  rateLimits: Required<RateLimits>;
  /** GRANTS_READ_GLOBAL (default true): a principal with any grant reads the global scope's own entries. */
  grantsReadGlobal: boolean;
  /** PURGE_INTERVAL_MINUTES (default 60; 0 turns the scheduled retention purge off). */
  purgeIntervalMinutes: number;
  /** CHANGE_RETENTION_HOURS (default 168): how long the change feed keeps changes for subscribers to resume from. */
  changeRetentionHours: number;
  /** SQLITE_READERS: reader threads for slow reads (default: one per core, 2 to 4; 0: none). */
  sqliteReaders: number;
  /** SQLITE_CACHE_MB: the writing connection's page cache (default 256). */
  sqliteCacheMb: number;
  /** SQLITE_RANK_EXTENSION (default true): rank tag + word queries with the compiled engram_bm25 where it was built. */
  sqliteRankExtension: boolean;
  /** POSTGRES_PARALLEL_WORKERS: parallel workers one PostgreSQL statement may use (default 0: one core per statement). */
  postgresParallelWorkers: number;
  /** POSTGRES_UPKEEP_SECONDS: how often Engram vacuums its tables while the server's autovacuum is off (default 60; 0: never). */
  postgresUpkeepSeconds: number;
  /** EXHAUSTIVE_RANKING (default false): rank every candidate, no shortcut (to rule them out when a ranking looks wrong). */
  exhaustiveRanking: boolean;
  /** RANK_BEST_HITS_FROM: searchable entries from which a `context` ranks only its best text hits (default DEFAULT_RANK_BEST_HITS_FROM). */
  rankBestHitsFrom: number;
  /** LOG_LEVEL: debug, info (default), warn, error or silent. */
  logLevel: LogLevel;
  /** LOG_FORMAT: json or pretty; default pretty on a terminal, else JSON lines. */
  logPretty: boolean | undefined;
}

/**
 * The writing connection's page cache. Writes insert into indexes whose keys arrive in random
 * order (names, tag links by name and priority, the full-text index): once those outgrow the
 * cache, each insert reads its pages from the file again. Seeding 300K entries took 103 s with
 * 64 MiB and 63 s with 256 MiB (1M: ~1,270 s with 64 MiB, ~550 s with 256 MiB and the file
 * mapped). The cache fills only as pages are used.
 */
export const DEFAULT_SQLITE_CACHE_MB = 256;

/**
 * From how many searchable entries a `context` asked again ranks only the text hits that can reach
 * its page (SQLite with its ranking extension; memory-query.speculation.ts). Measured in turn: at 1M
 * entries its p50 41.5 -> 32.0 ms (two words), at 100K 8.9 -> 9.6 (where BM25 of every hit costs
 * less than finding the best). The same answers either way.
 */
export const DEFAULT_RANK_BEST_HITS_FROM = 250_000;

/**
 * PostgreSQL runs a large scan on parallel workers by default (2 per statement). Engram serves many
 * clients at once, and a statement that takes every core makes the others wait: on the 2-core
 * machine, while one memoryQuery ranked 100K entries (~50 ms), a create took 18.9 ms instead of 7.2
 * (p50), and 16 clients got 170 operations/s. With no parallel workers the ranking took as long
 * (50 ms), the create 6.7 ms and the 16 clients 192 operations/s (npm run bench, concurrency).
 */
export const DEFAULT_PARALLEL_WORKERS = 0;

export const DEFAULT_DATABASE_URL = 'file:./data/engram.db';

export { ConfigError };

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (!/^(file:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with file: (SQLite) or postgres:// / postgresql://');
  }
  // SQLite cannot open a directory (`file:` alone is the working directory), and said only "External error id#0".
  if (databaseUrl.startsWith('file:') && statSync(sqlitePath(databaseUrl), { throwIfNoEntry: false })?.isDirectory()) {
    throw new ConfigError(`DATABASE_URL names a directory (${sqlitePath(databaseUrl)}), not a SQLite database file`);
  }
  const production = env.NODE_ENV === 'production';
  return {
    databaseUrl,
    port: int(env, 'PORT', 4000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    graphiql: env.GRAPHIQL ? env.GRAPHIQL !== 'false' : true,
    production,
    redisUrl: env.REDIS_URL?.trim() || null,
    conflictWindowMs: int(env, 'CONFLICT_WINDOW_MS', 5_000, 0, 3_600_000),
    wsMaxSubscriptionsPerSocket: int(env, 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', 100, 1, 10_000),
    wsMaxConnections: int(env, 'WS_MAX_CONNECTIONS', 1_000, 1, 100_000),
    wsMaxPendingConnections: int(env, 'WS_MAX_PENDING_CONNECTIONS', 100, 1, 100_000),
    wsMaxPendingConnectionsPerAddress: int(env, 'WS_MAX_PENDING_CONNECTIONS_PER_ADDRESS', 50, 1, 100_000),
    maxSubscriptions: int(env, 'MAX_SUBSCRIPTIONS', DEFAULT_MAX_SUBSCRIPTIONS, 1, 1_000_000),
    maxSubscriptionsPerKey: int(env, 'MAX_SUBSCRIPTIONS_PER_KEY', DEFAULT_MAX_SUBSCRIPTIONS_PER_KEY, 1, 1_000_000),
    limits: {
      maxCost: int(env, 'MAX_QUERY_COST', DEFAULT_LIMITS.maxCost, 1, 100_000_000),
      maxDepth: int(env, 'MAX_QUERY_DEPTH', DEFAULT_LIMITS.maxDepth, 1, 1_000),
      maxAliases: int(env, 'MAX_ALIASES', DEFAULT_LIMITS.maxAliases, 0, 100_000),
      maxTokens: int(env, 'MAX_TOKENS', DEFAULT_LIMITS.maxTokens, 10, 1_000_000),
      maxDirectives: int(env, 'MAX_DIRECTIVES', DEFAULT_LIMITS.maxDirectives, 0, 100_000),
      // Beyond ~1,000 the parser itself would overflow the stack.
      maxNesting: int(env, 'MAX_NESTING', DEFAULT_LIMITS.maxNesting, 1, 1_000),
      operationTimeoutMs: int(env, 'OPERATION_TIMEOUT_MS', DEFAULT_LIMITS.operationTimeoutMs, 100, 3_600_000),
    },
    corsOrigins: origins(env.CORS_ORIGINS),
    auth: authMode(env.AUTH),
    rateLimits: {
      requestsPerSecond: int(env, 'RATE_LIMIT_REQUESTS_PER_SECOND', 100, 0, 1_000_000),
      writesPerSecond: int(env, 'RATE_LIMIT_WRITES_PER_SECOND', 20, 0, 1_000_000),
      redisUrl: env.REDIS_URL?.trim() || null,
    },
    grantsReadGlobal: bool(env, 'GRANTS_READ_GLOBAL', true),
    purgeIntervalMinutes: int(env, 'PURGE_INTERVAL_MINUTES', 60, 0, 10_080),
    changeRetentionHours: int(env, 'CHANGE_RETENTION_HOURS', 168, 1, 8_760),
    sqliteReaders: int(env, 'SQLITE_READERS', DEFAULT_READERS, 0, 16),
    sqliteCacheMb: int(env, 'SQLITE_CACHE_MB', DEFAULT_SQLITE_CACHE_MB, 2, 65_536),
    sqliteRankExtension: bool(env, 'SQLITE_RANK_EXTENSION', true),
    postgresParallelWorkers: int(env, 'POSTGRES_PARALLEL_WORKERS', DEFAULT_PARALLEL_WORKERS, 0, 64),
    postgresUpkeepSeconds: int(env, 'POSTGRES_UPKEEP_SECONDS', 60, 0, 86_400),
    exhaustiveRanking: bool(env, 'EXHAUSTIVE_RANKING', false),
    rankBestHitsFrom: int(env, 'RANK_BEST_HITS_FROM', DEFAULT_RANK_BEST_HITS_FROM, 0, 1_000_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logPretty: env.LOG_FORMAT ? oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json') === 'pretty' : undefined,
  };
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (!values.includes(raw as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${env[name]}"`);
  return raw as T;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
  return raw === 'true';
}

function authMode(raw: string | undefined): AuthMode {
  const value = raw?.trim().toLowerCase() || 'on';
  if (value !== 'on' && value !== 'off') throw new ConfigError(`AUTH must be on or off, got "${raw}"`);
  return value;
}

/** `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`), or `*`. */
function origins(raw: string | undefined): string[] {
  const list = (raw ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of list) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CORS_ORIGINS must list origins like https://app.example.com (no path), or *; got "${origin}"`);
    }
  }
  return list;
}

/** The filesystem path of a `file:` URL, resolved against the working directory. */
export function sqlitePath(url: string): string {
  return resolve(url.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
}
