// Prisma's schema engine (its WebAssembly build) and the connections it migrates through. Loaded
// only when a database needs it: a start whose database already records every migration never
// compiles the engine (see `recordsEveryMigration` in migrations.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import type { MigrationProvider } from './migrations.ts';

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

export interface EngineTarget {
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

function sqliteTarget(path: string, createIfMissing: boolean): EngineTarget {
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

/**
 * The engine's connections to a database: `path` is the SQLite file (created, with its directory,
 * when `createIfMissing`), or the PostgreSQL URL.
 */
export function openTarget(provider: MigrationProvider, path: string, createIfMissing: boolean): EngineTarget {
  return provider === 'sqlite' ? sqliteTarget(path, createIfMissing) : postgresTarget(path);
}

/** Runs `fn` with an engine on `target`; always frees the engine and closes the connections. */
export async function withEngine<T>(target: EngineTarget, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
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
