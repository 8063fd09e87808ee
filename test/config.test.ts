import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_URL, loadConfig, type Config } from '../src/config.ts';
import { DEFAULT_LIMITS } from '../src/server/operation-limits.ts';
import { DEFAULT_READERS } from '../src/infra/sqlite-readers.ts';
import { ROOT, START_DEADLINE_MS } from './support/server-process.ts';

/** Every integer setting: its variable, its range, and where loadConfig puts it. */
const INTEGER_SETTINGS: Array<{ name: string; min: number; max: number; read: (c: Config) => number }> = [
  { name: 'PORT', min: 0, max: 65_535, read: (c) => c.port },
  { name: 'SHUTDOWN_GRACE_MS', min: 0, max: 600_000, read: (c) => c.shutdownGraceMs },
  { name: 'CONFLICT_WINDOW_MS', min: 0, max: 3_600_000, read: (c) => c.conflictWindowMs },
  { name: 'WS_MAX_SUBSCRIPTIONS_PER_SOCKET', min: 1, max: 10_000, read: (c) => c.wsMaxSubscriptionsPerSocket },
  { name: 'WS_MAX_CONNECTIONS', min: 1, max: 100_000, read: (c) => c.wsMaxConnections },
  { name: 'WS_MAX_PENDING_CONNECTIONS', min: 1, max: 100_000, read: (c) => c.wsMaxPendingConnections },
  { name: 'WS_MAX_PENDING_CONNECTIONS_PER_ADDRESS', min: 1, max: 100_000, read: (c) => c.wsMaxPendingConnectionsPerAddress },
  { name: 'MAX_SUBSCRIPTIONS', min: 1, max: 1_000_000, read: (c) => c.maxSubscriptions },
  { name: 'MAX_SUBSCRIPTIONS_PER_KEY', min: 1, max: 1_000_000, read: (c) => c.maxSubscriptionsPerKey },
  { name: 'MAX_QUERY_COST', min: 1, max: 100_000_000, read: (c) => c.limits.maxCost },
  { name: 'MAX_QUERY_DEPTH', min: 1, max: 1_000, read: (c) => c.limits.maxDepth },
  { name: 'MAX_ALIASES', min: 0, max: 100_000, read: (c) => c.limits.maxAliases },
  { name: 'MAX_TOKENS', min: 10, max: 1_000_000, read: (c) => c.limits.maxTokens },
  { name: 'MAX_DIRECTIVES', min: 0, max: 100_000, read: (c) => c.limits.maxDirectives },
  { name: 'MAX_NESTING', min: 1, max: 1_000, read: (c) => c.limits.maxNesting },
  { name: 'OPERATION_TIMEOUT_MS', min: 100, max: 3_600_000, read: (c) => c.limits.operationTimeoutMs },
  { name: 'RATE_LIMIT_REQUESTS_PER_SECOND', min: 0, max: 1_000_000, read: (c) => c.rateLimits.requestsPerSecond },
  { name: 'RATE_LIMIT_WRITES_PER_SECOND', min: 0, max: 1_000_000, read: (c) => c.rateLimits.writesPerSecond },
];

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('defaults: SQLite file, port 4000, 5 s conflict window, GraphiQL on, no Redis, no CORS origins', () => {
    expect(loadConfig({})).toEqual({
      databaseUrl: DEFAULT_DATABASE_URL,
      port: 4000,
      host: '0.0.0.0',
      shutdownGraceMs: 10_000,
      graphiql: true,
      production: false,
      redisUrl: null,
      conflictWindowMs: 5_000,
      wsMaxSubscriptionsPerSocket: 100,
      wsMaxConnections: 1_000,
      wsMaxPendingConnections: 100,
      wsMaxPendingConnectionsPerAddress: 50,
      maxSubscriptions: 10_000,
      maxSubscriptionsPerKey: 1_000,
      limits: DEFAULT_LIMITS,
      corsOrigins: [],
      auth: 'on',
      rateLimits: { requestsPerSecond: 100, writesPerSecond: 20, redisUrl: null },
      grantsReadGlobal: true,
      purgeIntervalMinutes: 60,
      changeRetentionHours: 168,
      sqliteReaders: DEFAULT_READERS,
      sqliteCacheMb: 256,
      sqliteRankExtension: true,
      postgresParallelWorkers: 0,
      postgresUpkeepSeconds: 60,
      exhaustiveRanking: false,
      rankBestHitsFrom: 250_000,
      logLevel: 'info',
      logPretty: undefined,
    });
  });

  it('POSTGRES_PARALLEL_WORKERS is 0 (the default) to 64', () => {
    expect(loadConfig({ POSTGRES_PARALLEL_WORKERS: '2' }).postgresParallelWorkers).toBe(2);
    expect(() => loadConfig({ POSTGRES_PARALLEL_WORKERS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ POSTGRES_PARALLEL_WORKERS: '65' })).toThrow(ConfigError);
  });

  it('POSTGRES_UPKEEP_SECONDS is 0 (never) to a day', () => {
    expect(loadConfig({ POSTGRES_UPKEEP_SECONDS: '0' }).postgresUpkeepSeconds).toBe(0);
    expect(loadConfig({ POSTGRES_UPKEEP_SECONDS: '86400' }).postgresUpkeepSeconds).toBe(86_400);
    expect(() => loadConfig({ POSTGRES_UPKEEP_SECONDS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ POSTGRES_UPKEEP_SECONDS: '86401' })).toThrow(ConfigError);
  });

  it('CHANGE_RETENTION_HOURS is an hour to a year', () => {
    expect(loadConfig({ CHANGE_RETENTION_HOURS: '1' }).changeRetentionHours).toBe(1);
    expect(() => loadConfig({ CHANGE_RETENTION_HOURS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHANGE_RETENTION_HOURS: '8761' })).toThrow(ConfigError);
  });

  it('PURGE_INTERVAL_MINUTES is 0 (off) to a week', () => {
    expect(loadConfig({ PURGE_INTERVAL_MINUTES: '0' }).purgeIntervalMinutes).toBe(0);
    expect(() => loadConfig({ PURGE_INTERVAL_MINUTES: '10081' })).toThrow(ConfigError);
  });

  it('GRANTS_READ_GLOBAL is true or false, anything else a ConfigError', () => {
    expect(loadConfig({ GRANTS_READ_GLOBAL: 'FALSE' }).grantsReadGlobal).toBe(false);
    expect(loadConfig({ GRANTS_READ_GLOBAL: 'true' }).grantsReadGlobal).toBe(true);
    expect(() => loadConfig({ GRANTS_READ_GLOBAL: 'yes' })).toThrow(ConfigError);
  });

  it('SQLITE_RANK_EXTENSION is true or false, anything else a ConfigError', () => {
    expect(loadConfig({ SQLITE_RANK_EXTENSION: 'false' }).sqliteRankExtension).toBe(false);
    expect(loadConfig({ SQLITE_RANK_EXTENSION: 'true' }).sqliteRankExtension).toBe(true);
    expect(() => loadConfig({ SQLITE_RANK_EXTENSION: 'off' })).toThrow(ConfigError);
  });

  it('RANK_BEST_HITS_FROM is a count of entries, 250,000 by default', () => {
    expect(loadConfig({}).rankBestHitsFrom).toBe(250_000);
    expect(loadConfig({ RANK_BEST_HITS_FROM: '0' }).rankBestHitsFrom).toBe(0);
    expect(loadConfig({ RANK_BEST_HITS_FROM: '1000000' }).rankBestHitsFrom).toBe(1_000_000);
    expect(() => loadConfig({ RANK_BEST_HITS_FROM: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ RANK_BEST_HITS_FROM: 'many' })).toThrow(ConfigError);
  });

  it('EXHAUSTIVE_RANKING is true or false, anything else a ConfigError', () => {
    expect(loadConfig({ EXHAUSTIVE_RANKING: 'true' }).exhaustiveRanking).toBe(true);
    expect(loadConfig({ EXHAUSTIVE_RANKING: 'false' }).exhaustiveRanking).toBe(false);
    expect(() => loadConfig({ EXHAUSTIVE_RANKING: 'on' })).toThrow(ConfigError);
  });

  it('LOG_LEVEL and LOG_FORMAT take their listed values, anything else a ConfigError', () => {
    expect(loadConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logPretty).toBe(true);
    expect(loadConfig({ LOG_FORMAT: 'json' }).logPretty).toBe(false);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(ConfigError);
  });

  it('AUTH is on or off (any case), anything else a ConfigError', () => {
    expect(loadConfig({ AUTH: 'OFF' }).auth).toBe('off');
    expect(loadConfig({ AUTH: ' on ' }).auth).toBe('on');
    expect(configError({ AUTH: 'no' }).message).toBe('AUTH must be on or off, got "no"');
  });

  it.each(INTEGER_SETTINGS)('$name takes integers from $min to $max, and an empty value means the default', ({ name, min, max, read }) => {
    expect(read(loadConfig({ [name]: String(min) }))).toBe(min);
    expect(read(loadConfig({ [name]: String(max) }))).toBe(max);
    expect(read(loadConfig({ [name]: '' }))).toBe(read(loadConfig({})));
  });

  it.each(INTEGER_SETTINGS)('$name out of range or not an integer is a ConfigError naming it and its range', ({ name, min, max }) => {
    for (const bad of [String(min - 1), String(max + 1), '1.5', 'ten', '1e3x']) {
      const error = configError({ [name]: bad });
      expect(error.message).toBe(`${name} must be an integer between ${min} and ${max}, got "${bad}"`);
    }
  });

  it('reads the other settings: database URL, host, GraphiQL, production, Redis', () => {
    const config = loadConfig({
      DATABASE_URL: ' postgresql://engram@db:5432/engram ',
      HOST: ' 127.0.0.1 ',
      GRAPHIQL: 'false',
      NODE_ENV: 'production',
      REDIS_URL: ' redis://cache:6379 ',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgresql://engram@db:5432/engram',
      host: '127.0.0.1',
      graphiql: false,
      production: true,
      redisUrl: 'redis://cache:6379',
      rateLimits: { requestsPerSecond: 100, writesPerSecond: 20, redisUrl: 'redis://cache:6379' },
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).databaseUrl).toBe('postgres://x@h/db');
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBe(DEFAULT_DATABASE_URL);
    expect(loadConfig({ GRAPHIQL: 'true' }).graphiql).toBe(true);
    expect(configError({ DATABASE_URL: 'mysql://x@h/db' }).message).toMatch(/^DATABASE_URL must start with file:/);
  });

  it('the server process refuses to start on a bad CONFLICT_WINDOW_MS, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      // loadConfig runs before the database is touched: this URL is never opened.
      env: { ...process.env, CONFLICT_WINDOW_MS: '-1', DATABASE_URL: 'file:./never-created.db', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), START_DEADLINE_MS);
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    clearTimeout(deadline);
    // A setting's mistake: exit code 2, its line alone (no stack), as the command line tells it.
    expect(code, output).toBe(2);
    expect(output).toBe('CONFLICT_WINDOW_MS must be an integer between 0 and 3600000, got "-1"\n');
    expect(output).not.toMatch(/listening/);
  });
});
