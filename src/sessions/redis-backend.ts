import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { MultiAuthError } from '../core/errors.js';
import { redactedUrl } from '../core/urls.js';
import type { SignInResult } from '../runtime/index.js';
import { encodeCheckMark, isCheckedMark, RUN_MEMORY_MS } from './check-mark.js';
import { decodeFailure, encodeFailure } from './failure-memory.js';
import type { Sealer } from './seal.js';
import { sessionBody, sessionFilePath, sessionFromBody } from './session-file.js';
import type { SessionBackend } from './store-backend.js';

/** A Redis call (connecting included) that takes longer than this fails: a store that stops answering must not hang a run. */
const COMMAND_TIMEOUT_MS = 3_000;
/** A sign-in lock lives this long unless its holder renews it (every third of it): a killed holder's lock goes. */
const LOCK_TTL_MS = 15_000;
/** Waiting for a lock gives up after this long, as the file store's does. */
const LOCK_WAIT_MS = 180_000;
/** How long sessions without an expiry, failure memories and check marks are kept. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Releases a lock only for its owner, and renews it only for its owner. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/** The part of a node-redis client this store uses (the client is loaded only when a Redis store is asked for). */
interface RedisClient {
  connect(): Promise<unknown>;
  get(key: string): Promise<string | null>;
  mGet(keys: string[]): Promise<Array<string | null>>;
  set(key: string, value: string, options: { condition?: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<string | null>;
  del(key: string): Promise<number>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): void;
}

/** Options of {@link RedisBackend}. */
export interface RedisBackendOptions {
  /** `redis://[user:password@]host:port/db` or `rediss://...`. */
  url: string;
  /** `MULTIAUTH_STORE_PASSWORD`, when the URL has none. */
  password?: string;
  /** Seals every session (`MULTIAUTH_CACHE_KEY`); required unless `plaintext`. */
  sealer?: Sealer;
  /** `MULTIAUTH_STORE_PLAINTEXT=1`: sessions may be stored unsealed. */
  plaintext?: boolean;
  /** The per-machine store the run goes on with when Redis fails. */
  fallback: SessionBackend;
  /** Told once, when Redis fails and the fallback takes over. */
  warn: (text: string) => void;
  /** Key prefix; default `multiauth:`. */
  prefix?: string;
  lockTtlMs?: number;
  lockWaitMs?: number;
}

/**
 * Sessions in Redis, shared by every machine that reaches it (sharded CI runs): one sign-in per
 * user for all of them. Each session is a key that expires with the session, sealed with
 * `MULTIAUTH_CACHE_KEY`; the sign-in lock is Redis's own (`SET NX PX` with an owner token, renewed
 * while the sign-in runs, released only by its owner), so a killed holder's lock expires; the
 * failure memory and the check marks are keys too, sealed like the sessions under their own key's
 * name; a session older than the slot's newest (a replay) is refused. Every call is bounded,
 * connecting included, and closing never waits: when Redis fails (down, unreachable, too slow, or
 * silent), the run goes on with the per-machine `fallback` store after one warning.
 *
 * @throws MultiAuthError `SESSION_CACHE` at construction when no key is set and plaintext was not
 *   allowed, or the URL is not a Redis URL.
 * @example
 * const backend = new RedisBackend({ url: env.MULTIAUTH_STORE, sealer, fallback: new FileBackend({ dir }), warn });
 */
export class RedisBackend implements SessionBackend {
  private client?: Promise<RedisClient>;
  /** node-redis, loaded once: local work, not counted against the store's time to answer. */
  private library?: Promise<typeof import('@redis/client')>;
  /** The client as soon as it exists, connected or not: closing never waits for its handshake. */
  private made?: RedisClient;
  private closed = false;
  private failed = false;
  /** Slot -> the creation time of the newest session this process read or wrote there. */
  private readonly newest = new Map<string, number>();
  private readonly prefix: string;
  /** Slot -> the fallback's slot for the same user and key. */
  private readonly fallbackSlots = new Map<string, string>();

  constructor(private readonly options: RedisBackendOptions) {
    this.prefix = options.prefix ?? 'multiauth:';
    if (!/^rediss?:\/\//i.test(options.url)) {
      throw new MultiAuthError('SESSION_CACHE', `MULTIAUTH_STORE is not a Redis URL: ${redactedUrl(options.url)}`, {
        hint: 'Write redis://host:port/db (or rediss:// for TLS), with the password in the URL or in MULTIAUTH_STORE_PASSWORD.',
      });
    }
    if (!options.sealer && !options.plaintext) {
      throw new MultiAuthError('SESSION_CACHE', 'a Redis session store needs MULTIAUTH_CACHE_KEY: sessions would be stored in plaintext', {
        hint: 'Set MULTIAUTH_CACHE_KEY to 32 random bytes in base64 (`openssl rand -base64 32`) on every machine, or MULTIAUTH_STORE_PLAINTEXT=1 to store them unsealed.',
      });
    }
  }

  slot(user: string, key: string): string {
    const fallback = this.options.fallback.slot(user, key);
    const slot = basename(sessionFilePath('.', key, user), '.json');
    this.fallbackSlots.set(slot, fallback);
    return slot;
  }

  read(slot: string, key: string): Promise<SignInResult | undefined> {
    return this.guard(
      async (redis) => {
        const [body, newest] = await redis.mGet([this.sessionKey(slot), this.newestKey(slot)]);
        const found = sessionFromBody(body ?? null, key, slot, this.options.sealer);
        if (found === 'foreign' || found === undefined) return undefined;
        // A session older than the newest one written to the slot is a replay (an old sealed body
        // put back): refused, so the user signs in again rather than using a session that was replaced.
        const floor = Math.max(this.newest.get(slot) ?? 0, this.openNewest(newest ?? null, slot));
        if (found.createdAt < floor) return undefined;
        this.newest.set(slot, found.createdAt);
        return found;
      },
      (fallback) => fallback.read(this.fallbackSlot(slot), key),
    );
  }

  write(slot: string, key: string, session: SignInResult): Promise<void> {
    return this.guard(
      async (redis) => {
        const body = sessionBody(key, session, slot, this.options.sealer);
        const ttl = session.expiresAt === null ? DAY_MS : Math.max(1_000, session.expiresAt - Date.now() + 60_000);
        await redis.set(this.sessionKey(slot), JSON.stringify(body), { expiration: { type: 'PX', value: ttl } });
        await redis.set(this.newestKey(slot), this.sealNewest(session.createdAt, slot), { expiration: { type: 'PX', value: ttl + DAY_MS } });
        this.newest.set(slot, session.createdAt);
      },
      (fallback) => fallback.write(this.fallbackSlot(slot), key, session),
    );
  }

  remove(slot: string): Promise<void> {
    return this.guard(
      async (redis) => {
        await redis.del(this.sessionKey(slot));
        await redis.del(`${this.prefix}checked:${slot}`);
      },
      (fallback) => fallback.remove(this.fallbackSlot(slot)),
    );
  }

  async withLock<T>(slot: string, work: () => Promise<T>): Promise<T> {
    const lock = `${this.prefix}lock:${slot}`;
    const token = randomBytes(16).toString('hex');
    const ttl = this.options.lockTtlMs ?? LOCK_TTL_MS;
    const deadline = Date.now() + (this.options.lockWaitMs ?? LOCK_WAIT_MS);
    let held = false;
    while (!held) {
      const got = await this.guard(
        async (redis) => (await redis.set(lock, token, { condition: 'NX', expiration: { type: 'PX', value: ttl } })) === 'OK',
        async () => undefined,
      );
      // Redis failed while this process waited: the per-machine store's lock from here on.
      if (got === undefined) return this.options.fallback.withLock(this.fallbackSlot(slot), work);
      held = got;
      if (held) break;
      if (Date.now() > deadline) {
        throw new MultiAuthError('SESSION_CACHE', `timed out waiting for the session lock ${lock} in Redis`, {
          hint: 'Another process holds it and renews it: wait for it to finish. A killed holder\'s lock expires by itself.',
        });
      }
      await delay(100 + Math.floor(Math.random() * 150));
    }
    // Renewed while the sign-in runs (a slow browser sign-in keeps its lock); never by another owner.
    const renewal = setInterval(() => {
      void this.guard((redis) => redis.eval(RENEW, { keys: [lock], arguments: [token, String(ttl)] }), async () => undefined);
    }, Math.max(500, Math.floor(ttl / 3)));
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.guard((redis) => redis.eval(RELEASE, { keys: [lock], arguments: [token] }), async () => undefined);
    }
  }

  readFailure(slot: string, run: string): Promise<MultiAuthError | undefined> {
    return this.guard(
      async (redis) => {
        const key = `${this.prefix}failed:${slot}`;
        return decodeFailure(await redis.get(key), run, key, this.options.sealer);
      },
      (fallback) => fallback.readFailure(this.fallbackSlot(slot), run),
    );
  }

  writeFailure(slot: string, run: string, error: MultiAuthError, redact: (text: string) => string): Promise<void> {
    return this.guard(
      async (redis) => {
        const key = `${this.prefix}failed:${slot}`;
        await redis.set(key, encodeFailure(run, error, redact, key, this.options.sealer), { expiration: { type: 'PX', value: RUN_MEMORY_MS } });
      },
      (fallback) => fallback.writeFailure(this.fallbackSlot(slot), run, error, redact),
    );
  }

  forgetFailure(slot: string): Promise<void> {
    return this.guard(
      async (redis) => {
        await redis.del(`${this.prefix}failed:${slot}`);
      },
      (fallback) => fallback.forgetFailure(this.fallbackSlot(slot)),
    );
  }

  checkedInRun(slot: string, run: string, session: SignInResult): Promise<boolean> {
    return this.guard(
      async (redis) => {
        const key = `${this.prefix}checked:${slot}`;
        return isCheckedMark(await redis.get(key), run, session, key, this.options.sealer);
      },
      (fallback) => fallback.checkedInRun(this.fallbackSlot(slot), run, session),
    );
  }

  markChecked(slot: string, run: string, session: SignInResult): Promise<void> {
    return this.guard(
      async (redis) => {
        const key = `${this.prefix}checked:${slot}`;
        await redis.set(key, encodeCheckMark(run, session, key, this.options.sealer), { expiration: { type: 'PX', value: RUN_MEMORY_MS } });
      },
      (fallback) => fallback.markChecked(this.fallbackSlot(slot), run, session),
    );
  }

  /**
   * Drops the connection at once, without QUIT: a QUIT waits for an answer that a store that stopped
   * answering never gives, and the end of a worker must not wait on a dead store. Nothing is lost:
   * every write was answered before its call returned.
   */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.made;
    this.made = undefined;
    try {
      client?.destroy();
    } catch {
      // Closed already (Redis went away, or an earlier close): nothing left to release.
    }
  }

  private sessionKey(slot: string): string {
    return `${this.prefix}session:${slot}`;
  }

  /** Where the creation time of the slot's newest session is kept, sealed like the session. */
  private newestKey(slot: string): string {
    return `${this.prefix}newest:${slot}`;
  }

  private sealNewest(createdAt: number, slot: string): string {
    const text = String(createdAt);
    return this.options.sealer ? this.options.sealer.seal(text, `newest\0${this.newestKey(slot)}`) : text;
  }

  /** The creation time stored by {@link sealNewest}, or 0 when there is none or it does not open. */
  private openNewest(stored: string | null, slot: string): number {
    const text = this.options.sealer ? this.options.sealer.open(stored, `newest\0${this.newestKey(slot)}`) : stored;
    const value = Number(text ?? '');
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  }

  private fallbackSlot(slot: string): string {
    return this.fallbackSlots.get(slot) ?? slot;
  }

  /**
   * Runs `call` against Redis within {@link COMMAND_TIMEOUT_MS}; once Redis has failed (now or
   * earlier in this process) runs `otherwise` on the fallback store instead, after one warning.
   */
  private async guard<T>(call: (redis: RedisClient) => Promise<T>, otherwise: (fallback: SessionBackend) => Promise<T>): Promise<T> {
    if (!this.failed) {
      try {
        // Loading the client takes a second or more on a busy CI machine: only what the store does counts.
        this.library ??= import('@redis/client');
        await this.library;
        return await within(COMMAND_TIMEOUT_MS, (async () => call(await this.connect()))());
      } catch (error) {
        this.fail(error);
      }
    }
    return otherwise(this.options.fallback);
  }

  private connect(): Promise<RedisClient> {
    this.client ??= (async () => {
      const { createClient } = await (this.library ??= import('@redis/client'));
      if (this.closed) throw new Error('the store was closed');
      const client = createClient({
        url: this.options.url,
        ...(this.options.password === undefined ? {} : { password: this.options.password }),
        // No reconnecting and no offline queue: a call to a Redis that went away fails at once.
        socket: { connectTimeout: COMMAND_TIMEOUT_MS, reconnectStrategy: false },
        disableOfflineQueue: true,
      }) as unknown as RedisClient;
      client.on('error', (error) => this.fail(error));
      // Kept before connecting: a Redis that accepts the connection and never answers the handshake
      // leaves connect() pending, and close() must still be able to drop the socket.
      this.made = client;
      await client.connect();
      return client;
    })();
    return this.client;
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    this.options.warn(
      `playwright-multiauth: the Redis session store ${redactedUrl(this.options.url)} failed (${reason}); ` +
        'this process goes on with its own file store, so its users may sign in again.\n',
    );
    void this.close();
  }
}

/** `work`, or a rejection after `ms`. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
