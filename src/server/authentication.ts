import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Db } from '../infra/database.ts';
import type { Caller } from '../modules/identity/caller.ts';
import { anyUsableKey, hashKey, principalOfKey, touchKey, type AuthenticatedKey } from '../modules/identity/keys.service.ts';
import { log } from '../infra/log.ts';
import { TtlCache } from '../infra/ttl-cache.ts';
import { refusedUnread } from './body-limit.ts';

export type { Caller };

/** `off` (AUTH=off): no authentication at all, for a trusted network. */
export type AuthMode = 'on' | 'off';

/** Addresses of this machine's loopback interface (Redis' protected mode takes the same two). */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether a client address is this machine's loopback (a keyless caller there acts as an admin). */
export const isLoopback = (address: string): boolean => LOOPBACK.has(address);
/**
 * Whether a request's Host names this machine. Keyless loopback callers act as admins, and a page
 * on another site can reach 127.0.0.1 by rebinding its own name there (DNS rebinding): the browser
 * then sends that name as Host. Browsers always send Host; a client that sends none is not one.
 */
function addressedToThisMachine(host: string | null | undefined): boolean {
  if (!host) return true;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The server's authentication of a request by its Authorization header, socket address and Host. */
type Authenticate = (authorization: string | null, address: string | undefined, host: string | null) => Promise<Caller>;

/** How long a validated key, or the answer to "does any key exist", is reused by this instance. */
const CACHE_MS = 1_000;

const refuse = (message: string, code: string, status: number) =>
  new GraphQLError(message, { extensions: { code, http: { status, headers: status === 401 ? { 'www-authenticate': 'Bearer' } : {} } } });

/**
 * Authenticates requests by `Authorization: Bearer egk_…`. While no usable key exists (protected
 * mode), requests from the loopback interface act as a local admin and all others are refused;
 * once a key exists, every request over the network needs one. Calls from inside the process
 * (`remoteAddress` undefined: yoga.fetch) act as a local admin. Validated keys are reused for CACHE_MS: a key revoked through this instance stops at
 * once (`forget`), through another instance within CACHE_MS.
 */
export class Authenticator {
  private keys = new Map<string, { key: AuthenticatedKey; until: number }>();
  // The promise is kept, not its value: every subscription asks again every 2 s, and at 10,000 of
  // them each call that came while the answer was being read sent its own statement.
  private readonly keysExist = new TtlCache<Promise<boolean>>(CACHE_MS, 1);
  private keyReads = new Map<string, Promise<AuthenticatedKey | null>>();
  /** Counts `forget` calls: a read begun before one is not kept (the key may be revoked since). */
  private generation = 0;

  constructor(
    private readonly db: Db,
    readonly mode: AuthMode,
  ) {}

  async authenticate(authorization: string | null | undefined, remoteAddress: string | undefined, host: string | null | undefined): Promise<Caller> {
    if (this.mode === 'off') return { principal: null, local: false, unchecked: true };
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (secret) {
      const key = await this.keyOf(secret);
      return { principal: key.principal, keyId: key.keyId, local: false, unchecked: false };
    }
    if (authorization) throw refuse('The Authorization header must be "Bearer <API key>"', 'UNAUTHENTICATED', 401);
    // Only code in this process can call it in-process (yoga.fetch): it needs no key.
    if (remoteAddress === undefined) return { principal: null, local: true, unchecked: false };
    if (await this.anyKey()) throw refuse('An API key is required (Authorization: Bearer egk_…)', 'UNAUTHENTICATED', 401);
    if (isLoopback(remoteAddress)) {
      if (addressedToThisMachine(host)) return { principal: null, local: true, unchecked: false };
      throw refuse(
        `Engram is in protected mode and answers keyless requests only when they are addressed to this machine (localhost, 127.0.0.1, [::1]), not to "${host?.slice(0, 100)}": ` +
          'a web page that rebound its own name to 127.0.0.1 would look like this. Use http://localhost:<port>, or create an API key.',
        'PROTECTED_MODE',
        403,
      );
    }
    throw refuse(
      'Engram is in protected mode: no API key exists yet, so it answers only on this machine. Create one with ' +
        '`npm run keys -- create --admin --name <name>` on the server (or set AUTH=off on a trusted network).',
      'PROTECTED_MODE',
      403,
    );
  }

  /** Drops what this instance remembers about keys (after a key is created or revoked here). */
  forget(): void {
    this.keys.clear();
    this.keyReads.clear();
    this.keysExist.clear();
    this.generation++;
  }

  private async keyOf(secret: string): Promise<AuthenticatedKey> {
    const hash = hashKey(secret);
    const now = Date.now();
    const cached = this.keys.get(hash);
    if (cached && cached.until > now && (!cached.key.expiresAt || cached.key.expiresAt.getTime() > now)) return cached.key;
    const key = await this.readKey(hash, secret);
    if (!key) throw refuse('The API key is unknown, revoked or expired', 'UNAUTHENTICATED', 401);
    return key;
  }

  /** One read of a key at a time: the callers that come while it is read share it (and its one touch). */
  private readKey(hash: string, secret: string): Promise<AuthenticatedKey | null> {
    let read = this.keyReads.get(hash);
    if (!read) {
      const generation = this.generation;
      read = principalOfKey(this.db, secret)
        .then((key) => {
          if (generation !== this.generation) return key;
          if (!key) {
            this.keys.delete(hash);
            return null;
          }
          if (this.keys.size > 10_000) this.keys.clear();
          this.keys.set(hash, { key, until: Date.now() + CACHE_MS });
          touchKey(this.db, key).catch((error: unknown) => log.warn({ err: error }, 'Recording an API key use failed'));
          return key;
        })
        .finally(() => this.keyReads.get(hash) === read && this.keyReads.delete(hash));
      this.keyReads.set(hash, read);
    }
    return read;
  }

  private anyKey(): Promise<boolean> {
    return this.keysExist.getOrLoad('any', () => anyUsableKey(this.db));
  }
}

/** Why an HTTP endpoint other than GraphQL's (/mcp, /metrics) refuses a caller: what GraphQL would answer. */
export interface HttpRefusal {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
}

/**
 * The caller of a plain HTTP request by its Authorization header and socket address (Yoga's
 * server context holds Node's request), or the refusal GraphQL would answer it with.
 */
export async function httpCaller(authenticate: Authenticate, request: Request, serverContext: unknown): Promise<{ caller: Caller } | { refused: HttpRefusal }> {
  const address = (serverContext as { req?: IncomingMessage }).req?.socket.remoteAddress;
  try {
    return { caller: await authenticate(request.headers.get('authorization'), address, request.headers.get('host')) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const http = error.extensions.http;
    return { refused: { status: http?.status ?? 401, code: String(error.extensions.code), message: error.message, headers: http?.headers ?? {} } };
  }
}

/**
 * Authenticates an HTTP GraphQL request before its body is read, and keeps the caller for the
 * context (`callerOf`), which authenticated once the body was parsed: a caller without a key made
 * the server parse whatever it sent first (a 16.8 MB body of a million variable keys held the
 * event loop 2 s before its 401). Requests Yoga gets in-process (yoga.fetch) have no socket and
 * are authenticated as before, in the context.
 */
export function authenticationFirst(authenticate: Authenticate, maxRequestBodyBytes: number): { plugin: Plugin; callerOf: (request: Request | undefined) => Caller | undefined } {
  const callers = new WeakMap<Request, Caller>();
  const plugin: Plugin = {
    async onRequestParse({ request, serverContext }) {
      const req = (serverContext as { req?: IncomingMessage }).req;
      if (!req) return;
      const authorization = request.headers.get('authorization');
      const caller = await authenticate(authorization, req.socket.remoteAddress, req.headers.host ?? request.headers.get('host')).catch(async (error: unknown) => {
        throw error instanceof GraphQLError ? await refusedUnread(request, error, maxRequestBodyBytes) : error;
      });
      callers.set(request, caller);
    },
  };
  return { plugin, callerOf: (request) => (request ? callers.get(request) : undefined) };
}
