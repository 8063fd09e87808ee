// Applies, inspects and creates Prisma migrations without Prisma's native schema engine (which the
// CLI downloads and which is unavailable offline): the WebAssembly build of the same engine runs
// in-process and reaches the database through the app's own driver adapters. Migrations live per
// provider in prisma/<provider>/migrations and are recorded in `_prisma_migrations` exactly as the
// native engine records them, so `prisma migrate deploy/status` elsewhere agree with this module.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import { DEFAULT_ADMIN_URL, createScratchDatabase } from './scratch-database.ts';

export type MigrationProvider = 'sqlite' | 'postgresql';

export const PROVIDERS: readonly MigrationProvider[] = ['sqlite', 'postgresql'];

export interface ApplyMigrationsResult {
  /** Names of the migrations applied by this call, oldest first (empty when up to date). */
  applied: string[];
}

export interface MigrationStatus {
  provider: MigrationProvider;
  /** Absolute path of the migrations folder that was compared with the database. */
  migrationsDir: string;
  /** Whether the database has a `_prisma_migrations` table (false for a new database). */
  hasMigrationsTable: boolean;
  /** Local migrations recorded as applied in the database. */
  applied: string[];
  /** Local migrations not applied yet. */
  pending: string[];
  /** Migrations that started but did not finish (they block further deploys). */
  failed: string[];
  /** Applied migrations whose migration.sql changed since (checksum mismatch). */
  modified: string[];
  /** Migrations recorded in the database but missing from the migrations folder. */
  missingLocally: string[];
  /** True when nothing is pending, failed, modified or missing. */
  upToDate: boolean;
}

export interface CreatedMigration {
  sqlite?: string;
  postgresql?: string;
}

const MIGRATION_FILE = 'migration.sql';
const LOCK_FILE = 'migration_lock.toml';
/**
 * Tables the hand-written full-text-search migration creates and Prisma's schema does not
 * describe: diffs leave them alone instead of dropping them.
 */
export const EXTERNAL_TABLES = [
  'EntrySearch',
  'EntrySearchFts',
  'EntrySearchFts_config',
  'EntrySearchFts_data',
  'EntrySearchFts_docsize',
  'EntrySearchFts_idx',
];
const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };
/** PostgreSQL wants schema-qualified names. */
const externalFilter = (provider: MigrationProvider): SchemaFilter => ({
  externalTables: EXTERNAL_TABLES.map((t) => (provider === 'postgresql' ? `public.${t}` : t)),
  externalEnums: [],
});

// ---------------------------------------------------------------------------------------------
// URLs and paths

/** The provider of a database URL: `file:` is SQLite, `postgres://` / `postgresql://` PostgreSQL. */
export function providerOf(url: string): MigrationProvider {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(
    `Unsupported database URL "${redactUrl(url)}": expected file:<path> (SQLite) or postgres:// / postgresql:// (PostgreSQL)`,
  );
}

/** Filesystem path of a `file:` URL; relative paths resolve against the process's cwd. */
function sqliteFilePath(url: string): string {
  return resolve(url.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
}

/** A URL safe for messages: no password. */
function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

let projectRootCache: string | undefined;

/**
 * The project root: the nearest ancestor of this module's directory that holds package.json and
 * prisma/. Works from src/infra (tsx) and from dist/src/infra (compiled) alike.
 */
export function projectRoot(): string {
  if (projectRootCache) return projectRootCache;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && isDirectory(join(dir, 'prisma'))) {
      projectRootCache = dir;
      return dir;
    }
    if (dirname(dir) === dir) break;
  }
  throw new Error(`Cannot locate the project root (a directory with package.json and prisma/) above ${start}`);
}

export function migrationsDir(provider: MigrationProvider): string {
  return join(projectRoot(), 'prisma', provider, 'migrations');
}

function schemaPath(provider: MigrationProvider): string {
  return join(projectRoot(), 'prisma', provider, 'schema.prisma');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The migrations folder in the shape the engine expects (what Prisma's CLI passes it). */
function readMigrationList(dir: string): MigrationList {
  let lockContent: string | null = null;
  try {
    lockContent = readFileSync(join(dir, LOCK_FILE), 'utf8');
  } catch {
    lockContent = null;
  }
  const names = isDirectory(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort((a, b) => a.localeCompare(b))
    : [];
  return {
    baseDir: dir,
    lockfile: { path: LOCK_FILE, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: names.map((name) => {
      let content: { tag: 'ok'; value: string } | { tag: 'error'; value: string };
      try {
        content = { tag: 'ok', value: readFileSync(join(dir, name, MIGRATION_FILE), 'utf8') };
      } catch (error) {
        content = { tag: 'error', value: error instanceof Error ? error.message : String(error) };
      }
      return { path: name, migrationFile: { path: MIGRATION_FILE, content } };
    }),
  };
}

function requireMigrationsDir(provider: MigrationProvider): string {
  const dir = migrationsDir(provider);
  if (!isDirectory(dir)) {
    throw new Error(`No migrations folder for ${provider} at ${dir}`);
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------
// The WebAssembly engine. The compiled module is cached per process (also across re-evaluations
// of this file, as test runners do), the instance per copy of the JS bindings (they keep it in a
// module-level variable, so one instance serves every engine created through them).

interface InstanceState {
  ready: Promise<void>;
  active: number;
  /** A trap (Rust panic) may leave the instance inconsistent: replace it once it is idle. */
  poisoned: boolean;
  /**
   * Timers the engine started. It never cancels them (e.g. the 10 s timeout around PostgreSQL's
   * advisory lock stays armed after the lock is taken), and each would keep the process alive for
   * its full duration; they are cleared whenever no engine is in use.
   */
  timers: Set<ReturnType<typeof setTimeout>>;
}

/** The part of the WebAssembly global used here (typed locally: the project's lib has no DOM types). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: Record<string, object>): Promise<{ exports: Record<string, unknown> }>;
  RuntimeError: abstract new (...args: never[]) => Error;
}
type WasmModule = { readonly __wasmModule: unique symbol };
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface WasmCache {
  module?: Promise<WasmModule>;
  instances: WeakMap<object, InstanceState>;
}

const CACHE_KEY = Symbol.for('engram.migrations.schema-engine-wasm');

function wasmCache(): WasmCache {
  const holder = globalThis as typeof globalThis & { [CACHE_KEY]?: WasmCache };
  holder[CACHE_KEY] ??= { instances: new WeakMap() };
  return holder[CACHE_KEY];
}

function compiledModule(): Promise<WasmModule> {
  const cache = wasmCache();
  if (!cache.module) {
    const require = createRequire(import.meta.url);
    const bindingsPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = join(dirname(bindingsPath), 'schema_engine_bg.wasm');
    const compiling = wasmApi.compile(readFileSync(wasmPath));
    compiling.catch(() => {
      if (cache.module === compiling) cache.module = undefined;
    });
    cache.module = compiling;
    return compiling;
  }
  return cache.module;
}

async function acquireWasm(): Promise<InstanceState> {
  const cache = wasmCache();
  let state = cache.instances.get(wasmBindings);
  if (!state || (state.poisoned && state.active === 0)) {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const fresh: InstanceState = {
      active: 0,
      poisoned: false,
      timers,
      ready: (async () => {
        const module = await compiledModule();
        const imports: Record<string, unknown> = { ...wasmBindings };
        const setTimeoutImport = Object.keys(imports).find((key) => key.startsWith('__wbg_setTimeout_'));
        if (setTimeoutImport) {
          imports[setTimeoutImport] = (callback: () => void, ms: number) => {
            const handle = setTimeout(() => {
              timers.delete(handle);
              callback();
            }, ms >>> 0);
            timers.add(handle);
            return handle;
          };
        }
        const instance = await wasmApi.instantiate(module, { './schema_engine_bg.js': imports });
        wasmBindings.__wbg_set_wasm(instance.exports);
        (instance.exports.__wbindgen_start as () => void)();
      })(),
    };
    fresh.ready.catch(() => {
      if (cache.instances.get(wasmBindings) === fresh) cache.instances.delete(wasmBindings);
    });
    cache.instances.set(wasmBindings, fresh);
    state = fresh;
  }
  state.active++;
  try {
    await state.ready;
  } catch (error) {
    state.active--;
    throw error;
  }
  return state;
}

// ---------------------------------------------------------------------------------------------
// Database connections for the engine

interface EngineTarget {
  provider: MigrationProvider;
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Closes every connection the engine opened (idempotent). */
  close(): Promise<void>;
}

/**
 * A pg pool pinned to ONE session. The engine takes PostgreSQL's session-level advisory lock
 * (`pg_advisory_lock(72707369)`, as the native engine does) through the adapter, and a normal pool
 * could run the lock, the migration and the unlock on different connections, or drop the locked
 * connection after a failing statement. Also reports the `char` (18) and `name` (19) columns of
 * the catalog queries as text: the adapter cannot map them, and `diff` reads them.
 */
class SessionPool extends pg.Pool {
  #session: Promise<pg.PoolClient> | undefined;
  #sessionClient: pg.PoolClient | undefined;

  #getSession(): Promise<pg.PoolClient> {
    this.#session ??= super.connect().then((client) => {
      client.on('error', () => {
        // A broken connection surfaces as a failing query; without a listener it would crash.
      });
      this.#sessionClient = client;
      return client;
    });
    return this.#session;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as (e: unknown, r?: unknown) => void) : undefined;
    const result = this.#getSession()
      .then((client) => Reflect.apply(client.query, client, args) as Promise<unknown>)
      .then((res) => {
        for (const part of Array.isArray(res) ? res : [res]) {
          const fields = (part as Partial<pg.QueryResult> | undefined)?.fields;
          for (const field of fields ?? []) {
            if (field.dataTypeID === 18 || field.dataTypeID === 19) field.dataTypeID = 25;
          }
        }
        return res;
      });
    if (!callback) return result;
    result.then(
      (res) => callback(undefined, res),
      (error: unknown) => callback(error),
    );
    return undefined;
  }

  /** Interactive transactions run on the same session; releasing it is a no-op. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override connect(...args: any[]): any {
    const callback = typeof args[0] === 'function' ? (args[0] as (e: unknown, c?: unknown, d?: () => void) => void) : undefined;
    const result = this.#getSession().then(
      (client) =>
        new Proxy(client, {
          get: (target, prop) => (prop === 'release' ? () => undefined : Reflect.get(target, prop, target) as unknown),
        }),
    );
    if (!callback) return result;
    result.then(
      (client) => callback(undefined, client, () => undefined),
      (error: unknown) => callback(error),
    );
    return undefined;
  }

  async close(): Promise<void> {
    if (this.#session) {
      await this.#session.catch(() => undefined);
      this.#sessionClient?.release();
    }
    await this.end();
  }
}

function postgresTarget(url: string): EngineTarget {
  const pool = new SessionPool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: 15_000,
    application_name: 'engram-migrations',
  });
  pool.on('error', () => {
    // Idle-client errors are reported by the next query instead.
  });
  const inner = new PrismaPg(pool);
  return trackedTarget('postgresql', inner, (adapter) => {
    // The adapter splits scripts on every ";" (breaking string literals that contain one) and runs
    // the pieces as separate autocommitted statements. Send the whole migration as one simple-
    // protocol query instead, as the native engine does: atomic per migration, literals intact.
    adapter.executeScript = async (script: string) => {
      await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
    };
    return adapter;
  }, () => pool.close());
}

function sqliteTarget(url: string, createIfMissing: boolean): EngineTarget {
  const path = sqliteFilePath(url);
  if (createIfMissing) mkdirSync(dirname(path), { recursive: true });
  // The engine holds the file in EXCLUSIVE locking mode until its connection closes; a second
  // migrator (another process) waits this long for it instead of failing at once.
  const inner = new PrismaBetterSqlite3({ url: path, timeout: 30_000, fileMustExist: !createIfMissing });
  return trackedTarget('sqlite', inner, (adapter) => adapter, async () => undefined);
}

/**
 * Wraps an adapter factory to remember the connections the engine opens: freeing the engine does
 * NOT close them (an open SQLite connection keeps its exclusive lock), so they are disposed here.
 */
function trackedTarget(
  provider: MigrationProvider,
  inner: SqlMigrationAwareDriverAdapterFactory,
  prepare: (adapter: SqlDriverAdapter) => SqlDriverAdapter,
  afterDispose: () => Promise<void>,
): EngineTarget {
  const opened: SqlDriverAdapter[] = [];
  let closed: Promise<void> | undefined;
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = prepare(await inner.connect());
      opened.push(adapter);
      return adapter;
    },
    async connectToShadowDb() {
      throw new Error('The engine shadow database is not used here (createMigration makes its own scratch database)');
    },
  };
  return {
    provider,
    factory,
    close() {
      closed ??= (async () => {
        const errors: unknown[] = [];
        for (const adapter of opened.splice(0)) {
          await adapter.dispose().catch((error: unknown) => errors.push(error));
        }
        await afterDispose().catch((error: unknown) => errors.push(error));
        if (errors.length > 0) throw errors[0];
      })();
      return closed;
    },
  };
}

function openTarget(url: string, createIfMissing: boolean): EngineTarget {
  return providerOf(url) === 'sqlite' ? sqliteTarget(url, createIfMissing) : postgresTarget(url);
}

/** Runs `fn` with an engine on `target`; always frees the engine and closes the connections. */
async function withEngine<T>(target: EngineTarget, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  let engine: SchemaEngine | undefined;
  let wasm: InstanceState | undefined;
  try {
    wasm = await acquireWasm();
    engine = await wasmBindings.SchemaEngine.new(
      { datamodels: undefined },
      () => {
        // Engine logs (JSON lines) are not needed: errors come back as exceptions.
      },
      bindMigrationAwareSqlAdapterFactory(target.factory),
    );
    return await fn(engine);
  } catch (error) {
    if (wasm && error instanceof wasmApi.RuntimeError) wasm.poisoned = true;
    throw error;
  } finally {
    try {
      engine?.free();
    } finally {
      if (wasm && --wasm.active === 0) {
        for (const timer of wasm.timers) clearTimeout(timer);
        wasm.timers.clear();
      }
      await target.close();
    }
  }
}

function engineError(action: string, url: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${action} (${redactUrl(url)}) failed: ${message}`, { cause: error });
}

// One migrator per SQLite file at a time within this process: the engine's exclusive lock plus
// better-sqlite3's synchronous busy wait would otherwise block the event loop holding the lock.
const sqliteQueues = new Map<string, Promise<unknown>>();

function serialized<T>(url: string, fn: () => Promise<T>): Promise<T> {
  if (providerOf(url) !== 'sqlite') return fn();
  const key = sqliteFilePath(url);
  const previous = sqliteQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  sqliteQueues.set(key, tail);
  void tail.then(() => {
    if (sqliteQueues.get(key) === tail) sqliteQueues.delete(key);
  });
  return run;
}

// ---------------------------------------------------------------------------------------------
// Public operations

type Diagnosis = Awaited<ReturnType<SchemaEngine['diagnoseMigrationHistory']>>;

/** diagnoseMigrationHistory, except that a database without `_prisma_migrations` is not an error. */
async function diagnose(engine: SchemaEngine, list: MigrationList): Promise<Diagnosis> {
  try {
    return await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTER });
  } catch (error) {
    // On SQLite the engine reports a missing migrations table as P1014 instead of hasMigrationsTable.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (code === 'P1014' && String(message).includes('_prisma_migrations')) {
      return {
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: false,
        history: null,
      };
    }
    throw error;
  }
}

/**
 * Applies the committed, not yet applied migrations of the URL's provider. Creates a missing SQLite
 * file (and its directory). Throws, with the engine's message, when a migration fails, when an
 * earlier migration is recorded as failed, or when an applied migration was modified since.
 */
export function applyMigrations(url: string, options: { onMigration?: MigrationProgress } = {}): Promise<ApplyMigrationsResult> {
  const provider = providerOf(url);
  return serialized(url, async () => {
    const list = readMigrationList(requireMigrationsDir(provider));
    try {
      return await withEngine(openTarget(url, true), async (engine) => {
        // `migrate deploy` itself ignores edited migrations; refuse them rather than drift.
        const diagnosis = await diagnose(engine, list);
        if (diagnosis.editedMigrationNames.length > 0) {
          throw new Error(
            `The following migration(s) were modified after they were applied: ${diagnosis.editedMigrationNames.join(', ')}. ` +
              'Restore their migration.sql (the database records its checksum) and add a new migration instead.',
          );
        }
        if (!options.onMigration) {
          const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList: list, filters: NO_FILTER });
          return { applied: appliedMigrationNames };
        }
        return { applied: await applyOneByOne(engine, list, diagnosis, options.onMigration) };
      });
    } catch (error) {
      throw engineError(`Applying ${provider} migrations`, url, error);
    }
  });
}

/** The migrations of the folder (`local`) the database has not applied, by the engine's diagnosis. */
function pendingNames(diagnosis: Diagnosis, local: string[]): string[] {
  if (!diagnosis.hasMigrationsTable) return local;
  const history = diagnosis.history;
  return history?.diagnostic === 'databaseIsBehind' || history?.diagnostic === 'historiesDiverge' ? history.unappliedMigrationNames : [];
}

/** Told before each pending migration is applied: its name, its place among them (from 1), how many. */
export type MigrationProgress = (name: string, index: number, total: number) => void;

/**
 * Applies the pending migrations one engine call each (a longer prefix of the list every time; the
 * engine skips what is applied), so the caller can say which one is running: a migration that
 * rewrites every row can take minutes on a large database.
 */
async function applyOneByOne(engine: SchemaEngine, list: MigrationList, diagnosis: Diagnosis, onMigration: MigrationProgress): Promise<string[]> {
  const all = list.migrationDirectories;
  const pending = new Set(pendingNames(diagnosis, all.map((m) => m.path)));
  const applied: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const name = all[i]!.path;
    if (!pending.has(name)) continue;
    onMigration(name, applied.length + 1, pending.size);
    const prefix = { ...list, migrationDirectories: all.slice(0, i + 1) };
    applied.push(...(await engine.applyMigrations({ migrationsList: prefix, filters: NO_FILTER })).appliedMigrationNames);
  }
  return applied;
}

/** Compares the migrations folder with the database. Does not create a missing SQLite file. */
export function migrationStatus(url: string): Promise<MigrationStatus> {
  const provider = providerOf(url);
  return serialized(url, async () => {
    const dir = migrationsDir(provider);
    const list = readMigrationList(dir);
    const local = list.migrationDirectories.map((migration) => migration.path);
    if (provider === 'sqlite' && !existsSync(sqliteFilePath(url))) {
      return summarize(provider, dir, local, false, local, [], [], []);
    }
    try {
      const diagnosis = await withEngine(openTarget(url, false), (engine) => diagnose(engine, list));
      const history = diagnosis.history;
      const pending = pendingNames(diagnosis, local);
      const missing =
        history?.diagnostic === 'migrationsDirectoryIsBehind' || history?.diagnostic === 'historiesDiverge'
          ? history.unpersistedMigrationNames
          : [];
      return summarize(
        provider,
        dir,
        local,
        diagnosis.hasMigrationsTable,
        pending,
        diagnosis.failedMigrationNames,
        diagnosis.editedMigrationNames,
        missing,
      );
    } catch (error) {
      throw engineError(`Reading the ${provider} migration status`, url, error);
    }
  });
}

function summarize(
  provider: MigrationProvider,
  dir: string,
  local: string[],
  hasMigrationsTable: boolean,
  pending: string[],
  failed: string[],
  modified: string[],
  missingLocally: string[],
): MigrationStatus {
  const notApplied = new Set([...pending, ...failed]);
  return {
    provider,
    migrationsDir: dir,
    hasMigrationsTable,
    applied: hasMigrationsTable ? local.filter((name) => !notApplied.has(name)) : [],
    pending: pending.filter((name) => !failed.includes(name)),
    failed,
    modified,
    missingLocally,
    upToDate: pending.length + failed.length + modified.length + missingLocally.length === 0,
  };
}

/**
 * For developers: writes a new migration per provider that takes a database from the committed
 * migrations to prisma/<provider>/schema.prisma. Each provider's current state is built in a
 * scratch database (a temporary SQLite file; a temporary `engram_shadow_*` database created through
 * SHADOW_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres, and dropped
 * afterwards). Both providers share one timestamp; a provider without changes gets no migration.
 * Nothing is written unless both diffs succeed.
 */
export async function createMigration(name: string): Promise<CreatedMigration> {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (!slug) throw new Error(`Invalid migration name "${name}": use letters, digits and underscores`);

  const scripts = new Map<MigrationProvider, string>();
  for (const provider of PROVIDERS) {
    const script = await diffFromMigrations(provider);
    if (script !== null) scripts.set(provider, script);
  }

  const created: CreatedMigration = {};
  if (scripts.size === 0) return created;
  const folder = `${migrationTimestamp()}_${slug}`;
  for (const [provider, script] of scripts) {
    const dir = migrationsDir(provider);
    const target = join(dir, folder);
    if (existsSync(target)) throw new Error(`The migration directory already exists: ${target}`);
    mkdirSync(target, { recursive: true });
    const file = join(target, MIGRATION_FILE);
    writeFileSync(file, script, 'utf8');
    writeFileSync(
      join(dir, LOCK_FILE),
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${provider}"\n`,
      'utf8',
    );
    created[provider] = file;
  }
  return created;
}

/** UTC yyyyMMddHHmmss, later than every existing migration of either provider. */
function migrationTimestamp(): string {
  const format = (date: Date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  let latest = '';
  for (const provider of PROVIDERS) {
    for (const migration of readMigrationList(migrationsDir(provider)).migrationDirectories) {
      const stamp = /^(\d{14})_/.exec(migration.path)?.[1];
      if (stamp && stamp > latest) latest = stamp;
    }
  }
  let now = new Date();
  while (format(now) <= latest) now = new Date(now.getTime() + 1000);
  return format(now);
}

/** The SQL from the committed migrations to the schema, or null when they already match. */
async function diffFromMigrations(provider: MigrationProvider): Promise<string | null> {
  const file = schemaPath(provider);
  if (!existsSync(file)) {
    throw new Error(`${file} does not exist: run \`node scripts/prisma-generate.mjs\` first`);
  }
  const schema = readFileSync(file, 'utf8');
  const models = join(projectRoot(), 'prisma', 'models.prisma');
  if (existsSync(models) && !schema.endsWith(readFileSync(models, 'utf8'))) {
    throw new Error(`${file} is older than prisma/models.prisma: run \`node scripts/prisma-generate.mjs\` first`);
  }
  const list = readMigrationList(migrationsDir(provider));
  const scratch = await createScratchDatabase(provider, {
    adminUrl: process.env.SHADOW_DATABASE_URL?.trim() || DEFAULT_ADMIN_URL,
    prefix: 'engram_shadow',
  });
  try {
    return await withEngine(openTarget(scratch.url, true), async (engine) => {
      await engine.applyMigrations({ migrationsList: list, filters: NO_FILTER });
      const result = await engine.diff({
        from: { tag: 'schemaDatasource', files: [{ path: file, content: schema }], configDir: dirname(file) },
        to: { tag: 'schemaDatamodel', files: [{ path: file, content: schema }] },
        script: true,
        exitCode: true,
        filters: externalFilter(provider),
      });
      // With exitCode requested, the engine answers 2 for a non-empty diff and 0 for none.
      return result.exitCode === 2 ? (result.stdout ?? '') : null;
    });
  } catch (error) {
    throw new Error(`Computing the ${provider} migration failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  } finally {
    await scratch.drop();
  }
}
