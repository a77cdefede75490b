import session from 'express-session';
import { Session, type Orm } from '@fulcrum/schema';

/**
 * express-session's store, kept in our own database through MikroORM, so sessions survive a restart and are
 * shared by every gateway on the same PostgreSQL. Hand-written because no maintained store targets
 * MikroORM 6, and a second database client (e.g. connect-sqlite3 on the slower sqlite3 driver) beside
 * the ORM would split the data. Each call uses its own em.fork().
 */
export class OrmSessionStore extends session.Store {
  constructor(private readonly orm: Orm, private readonly fallbackTtlMs: number) {
    super();
  }

  private expiry(data: session.SessionData): Date {
    const cookieExpiry = data.cookie?.expires ? new Date(data.cookie.expires) : null;
    return cookieExpiry ?? new Date(Date.now() + this.fallbackTtlMs);
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    this.orm.em
      .fork()
      .findOne(Session, { sid })
      .then((row) => {
        if (!row || row.expiresAt.getTime() <= Date.now()) return callback(null, null);
        callback(null, JSON.parse(row.data) as session.SessionData);
      }, callback);
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    const row = { sid, data: JSON.stringify(data), userId: (data as { userId?: number }).userId ?? null, expiresAt: this.expiry(data) };
    this.orm.em
      .fork()
      .upsert(Session, row)
      .then(() => callback?.(), (err) => callback?.(err));
  }

  override touch(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    this.orm.em
      .fork()
      .nativeUpdate(Session, { sid }, { expiresAt: this.expiry(data) })
      .then(() => callback?.(), (err) => callback?.(err));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.orm.em
      .fork()
      .nativeDelete(Session, { sid })
      .then(() => callback?.(), (err) => callback?.(err));
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

  /** Loads a session without a request (websocket handshakes). */
  load(sid: string): Promise<session.SessionData | null> {
    return new Promise((resolve, reject) => this.get(sid, (err, data) => (err ? reject(err) : resolve(data ?? null))));
  }
}
