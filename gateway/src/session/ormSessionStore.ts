import session from 'express-session';
import QuickLRU from 'quick-lru';
import { sessions, type EventBus, type Orm } from '@fulcrum/schema';

/** A session as stored: its JSON (parsed again for every request: express-session mutates what it gets) and expiry. */
interface CachedSession {
  json: string;
  expiresAt: number;
}

export interface SessionCacheOptions {
  /**
   * The event bus. Every gateway removes a session from its cache when `sessionEnded` arrives; with `shared`, a
   * destroyed session is published there and destroy() returns once the bus has delivered it back.
   */
  bus?: EventBus;
  /** Several gateways share the sessions (PostgreSQL + Redis): see get() and destroy(). */
  shared?: boolean;
  /** How long a session is answered from memory before the database is asked again (ms). */
  ttlMs?: number;
  /** Sessions kept in memory, least recently used out first. */
  max?: number;
}

/** How long destroy() waits for the bus to deliver its `sessionEnded` (Redis unreachable: logout still completes). */
const END_DELIVERY_TIMEOUT_MS = 1000;

/**
 * express-session's store, kept in our own database through MikroORM, so sessions survive a restart and are
 * shared by every gateway on the same PostgreSQL. Hand-written because no maintained store targets
 * MikroORM 6, and a second database client (e.g. connect-sqlite3 on the slower sqlite3 driver) beside
 * the ORM would split the data. The SQL is the schema package's (services/sessions.ts); this class keeps the
 * cache and the protocol between gateways.
 *
 * Reads are answered from a small in-process cache (quick-lru, bounded, `ttlMs`) so that a signed-in request costs
 * no database read at all most of the time. Correctness never rests on the TTL alone: a session's data never
 * changes after sign-in (signing in again makes a new session id), so the only thing a cache can miss is a session
 * that ended. destroy() (logout, the previous session at sign-in, the absolute timeout) removes it here at once,
 * and `sessionEnded` on the bus removes it on every other gateway. With several gateways (`shared`), destroy()
 * publishes that event itself and answers only once the bus has delivered it back: Redis has then written it to
 * every gateway's subscriber socket, so a request sent after the logout's answer finds it gone (see get()).
 * The idle expiry is checked on every hit; a Redis reconnect clears the cache (events may have been lost).
 */
export class OrmSessionStore extends session.Store {
  private readonly cache: QuickLRU<string, CachedSession>;
  /** Several gateways share the sessions (see get()). */
  readonly shared: boolean;
  private readonly bus: EventBus | undefined;
  /** Bumped by every write and eviction: a read that started before one does not fill the cache. */
  private epoch = 0;
  private readonly endWaiters = new Map<string, (() => void)[]>();
  private readonly ended: AsyncIterableIterator<{ sid: string }> | undefined;

  constructor(
    private readonly orm: Orm,
    private readonly fallbackTtlMs: number,
    options: SessionCacheOptions = {},
  ) {
    super();
    this.shared = options.shared ?? false;
    this.bus = options.bus;
    this.cache = new QuickLRU({ maxSize: options.max ?? 10_000, maxAge: options.ttlMs ?? 15_000 });
    if (this.bus) {
      const ended = this.bus.subscribe('sessionEnded');
      this.ended = ended;
      void (async () => {
        for await (const { sid } of ended) this.evict(sid);
      })();
    }
  }

  /** True when destroy() announces the session's end on the bus itself (several gateways share the sessions). */
  get announcesEnds(): boolean {
    return this.shared && this.bus !== undefined;
  }

  /** Drops one session from the cache; a read already under way for it will not put it back (epoch). */
  private forget(sid: string): void {
    this.epoch++;
    this.cache.delete(sid);
  }

  /** Forgets one session here (an end event from any gateway), and wakes a destroy() waiting for that event. */
  private evict(sid: string): void {
    this.forget(sid);
    const waiters = this.endWaiters.get(sid);
    this.endWaiters.delete(sid);
    waiters?.forEach((wake) => wake());
  }

  /** Forgets every cached session (the bus reconnected: end events may have been lost meanwhile). */
  forgetAll(): void {
    this.epoch++;
    this.cache.clear();
  }

  /** Stops listening to the bus (gateway shutdown). */
  async dispose(): Promise<void> {
    await this.ended?.return?.();
  }

  private expiry(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : null;
    return cookieExpiry ?? new Date(Date.now() + this.fallbackTtlMs);
  }

  /**
   * The expiry last written per session id, so a rolling session is written back at most once a minute instead of
   * on every request (the UPDATE was half the cost of a request). Only an optimisation: a gateway without the
   * entry just writes. Bounded, oldest first out.
   */
  private readonly lastWrittenExpiry = new Map<string, number>();
  private static readonly TOUCH_EVERY_MS = 60_000;
  private static readonly REMEMBERED = 50_000;

  private remember(sid: string, expiresAt: number): void {
    this.lastWrittenExpiry.delete(sid);
    this.lastWrittenExpiry.set(sid, expiresAt);
    if (this.lastWrittenExpiry.size > OrmSessionStore.REMEMBERED) {
      this.lastWrittenExpiry.delete(this.lastWrittenExpiry.keys().next().value as string);
    }
  }

  /**
   * From the cache, or one indexed read through a prepared statement (sessions.readSession): every signed-in
   * request starts here. With several gateways a hit is answered on the next turn of the event loop
   * (setImmediate), after the I/O callbacks of this turn: a `sessionEnded` that reached this gateway's Redis socket
   * before the request did is then applied first (see the class comment).
   */
  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    if (!this.cache.has(sid)) return this.read(sid, callback);
    const answer = () => {
      const cached = this.cache.get(sid);
      // Past the expiry this gateway knows of: another gateway may have renewed it, so the database decides.
      if (!cached || cached.expiresAt <= Date.now()) return this.read(sid, callback);
      callback(null, JSON.parse(cached.json) as session.SessionData);
    };
    if (this.shared) setImmediate(answer);
    else answer();
  }

  private read(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    const epoch = this.epoch;
    sessions.readSession(this.orm, sid).then((row) => {
      if (!row || row.expiresAt <= Date.now()) return callback(null, null);
      const expiresAt = row.expiresAt;
      this.remember(sid, expiresAt);
      if (epoch === this.epoch) this.cache.set(sid, { json: row.data, expiresAt });
      callback(null, JSON.parse(row.data) as session.SessionData);
    }, callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const row = { sid, data: JSON.stringify(data), userId: (data as { userId?: number }).userId ?? null, expiresAt: this.expiry(data) };
    sessions.saveSession(this.orm, row).then(
      () => {
        this.remember(sid, row.expiresAt.getTime());
        // Cached by the next read, not here: a session is only ever answered from memory once it was read back.
        this.forget(sid);
        callback?.();
      },
      (err) => callback?.(err),
    );
  }

  /**
   * A live session held in memory, with no read and no wait: the data, or undefined when this gateway does not hold
   * it (or holds it past the expiry it knows of). The sessions' fast lane (sessions.ts) asks this; with several
   * gateways it asks on the next turn of the event loop, as get() answers (see there).
   */
  cachedData(sid: string): session.SessionData | undefined {
    const cached = this.cache.get(sid);
    if (!cached || cached.expiresAt <= Date.now()) return undefined;
    return JSON.parse(cached.json) as session.SessionData;
  }

  override touch(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    this.renew(sid, this.expiry(data), callback);
  }

  /** Moves a session's idle expiry to `expiresAt`: in memory at once, in the database at most once a minute. */
  renew(sid: string, expiresAt: Date, callback?: (err?: unknown) => void): void {
    const cached = this.cache.peek(sid);
    if (cached) cached.expiresAt = Math.max(cached.expiresAt, expiresAt.getTime());
    const last = this.lastWrittenExpiry.get(sid);
    // The stored expiry is less than a minute behind: the idle timeout (hours) loses nothing by skipping this write.
    if (last !== undefined && expiresAt.getTime() - last < OrmSessionStore.TOUCH_EVERY_MS) return callback?.();
    // Remembered before the write is answered: the requests of the same session that arrive meanwhile (the fast
    // lane does not wait for the write) do not write it again; a failed write is forgotten, so the next one retries.
    this.remember(sid, expiresAt.getTime());
    sessions.touchSession(this.orm, sid, expiresAt).then(
      () => callback?.(),
      (err) => {
        if (this.lastWrittenExpiry.get(sid) === expiresAt.getTime()) this.lastWrittenExpiry.delete(sid);
        callback?.(err);
      },
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.lastWrittenExpiry.delete(sid);
    const wasCached = this.cache.has(sid);
    this.evict(sid);
    sessions
      .deleteSession(this.orm, sid)
      // Announced only when something ended: express-session destroys a logged-out session a second time at the
      // end of the response (unset: 'destroy'), and a sign-in destroys the unsaved anonymous session it replaces.
      .then((deleted) => (this.announcesEnds && (deleted > 0 || wasCached) ? this.announceEnd(sid) : undefined))
      .then(
        () => callback?.(),
        (err) => callback?.(err),
      );
  }

  /** Publishes the end on the bus; resolves once it came back, or after a timeout (Redis unreachable). */
  private announceEnd(sid: string): Promise<void> {
    const bus = this.bus;
    if (!bus) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const delivered = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const waiters = this.endWaiters.get(sid)?.filter((w) => w !== delivered);
        if (waiters?.length) this.endWaiters.set(sid, waiters);
        else this.endWaiters.delete(sid);
        resolve();
      }, END_DELIVERY_TIMEOUT_MS);
      this.endWaiters.set(sid, [...(this.endWaiters.get(sid) ?? []), delivered]);
      bus.publish('sessionEnded', { sid });
    });
  }

  /** Removes expired sessions; the gateway calls this periodically. */
  async prune(): Promise<number> {
    return sessions.pruneSessions(this.orm);
  }

  /** Of these session ids, the ones still stored and unexpired, with their data (one query). */
  async findLive(sids: string[]): Promise<Map<string, session.SessionData>> {
    const live = await sessions.liveSessions(this.orm, sids);
    return new Map([...live].map(([sid, json]) => [sid, JSON.parse(json) as session.SessionData]));
  }

  /** Loads a session without a request (websocket handshakes). Not `load`: that is express-session's own Store API. */
  loadData(sid: string): Promise<session.SessionData | null> {
    return new Promise((resolve, reject) =>
      this.get(sid, (err, data) => (err ? reject(err instanceof Error ? err : new Error('session store failed', { cause: err })) : resolve(data ?? null))),
    );
  }
}
