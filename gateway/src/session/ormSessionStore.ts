import session from 'express-session';
import { forkEm, hotRead, Session, toDate, type Orm } from '@fulcrum/schema';

/**
 * express-session's store, kept in our own database through MikroORM, so sessions survive a restart and are
 * shared by every gateway on the same PostgreSQL. Hand-written because no maintained store targets
 * MikroORM 6, and a second database client (e.g. connect-sqlite3 on the slower sqlite3 driver) beside
 * the ORM would split the data. Each call uses its own em.fork().
 */
export class OrmSessionStore extends session.Store {
  constructor(
    private readonly orm: Orm,
    private readonly fallbackTtlMs: number,
  ) {
    super();
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

  /** One indexed read through a prepared statement (no entity hydration): every signed-in request starts here. */
  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    hotRead<{ data: string; expires_at: unknown }>(forkEm(this.orm), 'session_by_sid', 'select data, expires_at from sessions where sid = ? limit 1', [
      sid,
    ]).then((rows) => {
      const row = rows[0];
      const expiresAt = row ? toDate(row.expires_at).getTime() : 0;
      if (!row || expiresAt <= Date.now()) return callback(null, null);
      this.remember(sid, expiresAt);
      callback(null, JSON.parse(row.data) as session.SessionData);
    }, callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const row = { sid, data: JSON.stringify(data), userId: (data as { userId?: number }).userId ?? null, expiresAt: this.expiry(data) };
    this.orm.em
      .fork()
      .upsert(Session, row)
      .then(
        () => {
          this.remember(sid, row.expiresAt.getTime());
          callback?.();
        },
        (err) => callback?.(err),
      );
  }

  override touch(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const expiresAt = this.expiry(data);
    const last = this.lastWrittenExpiry.get(sid);
    // The stored expiry is less than a minute behind: the idle timeout (hours) loses nothing by skipping this write.
    if (last !== undefined && expiresAt.getTime() - last < OrmSessionStore.TOUCH_EVERY_MS) return callback?.();
    this.orm.em
      .fork()
      .nativeUpdate(Session, { sid }, { expiresAt })
      .then(
        () => {
          this.remember(sid, expiresAt.getTime());
          callback?.();
        },
        (err) => callback?.(err),
      );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.lastWrittenExpiry.delete(sid);
    this.orm.em
      .fork()
      .nativeDelete(Session, { sid })
      .then(
        () => callback?.(),
        (err) => callback?.(err),
      );
  }

  /** Removes expired sessions; the gateway calls this periodically. */
  async prune(): Promise<number> {
    return this.orm.em.fork().nativeDelete(Session, { expiresAt: { $lte: new Date() } });
  }

  /** Of these session ids, the ones still stored and unexpired, with their data (one query). */
  async findLive(sids: string[]): Promise<Map<string, session.SessionData>> {
    if (sids.length === 0) return new Map();
    const rows = await this.orm.em.fork().find(Session, { sid: { $in: sids }, expiresAt: { $gt: new Date() } });
    return new Map(rows.map((row) => [row.sid, JSON.parse(row.data) as session.SessionData]));
  }

  /** Loads a session without a request (websocket handshakes). Not `load`: that is express-session's own Store API. */
  loadData(sid: string): Promise<session.SessionData | null> {
    return new Promise((resolve, reject) =>
      this.get(sid, (err, data) => (err ? reject(err instanceof Error ? err : new Error('session store failed', { cause: err })) : resolve(data ?? null))),
    );
  }
}
