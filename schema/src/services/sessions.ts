/**
 * The sessions table, for the gateway's express-session store (gateway/src/session/ormSessionStore.ts): the store
 * keeps its cache and the protocol between gateways; the SQL and the ORM stay here, in the schema package, like
 * every other table's.
 */
import { preparedRead, type Orm } from '../database.js';
import { Session } from '../entities/index.js';
import { toDate } from '../records/index.js';

/** A stored session: its JSON as written, and when it expires (ms since the epoch). */
export interface StoredSession {
  data: string;
  expiresAt: number;
}

/**
 * One indexed read through a prepared statement (no entity hydration, no em.fork()): every signed-in request whose
 * session is not cached starts here. Null when no such session is stored; an expired one is returned as stored.
 */
export async function readSession(orm: Orm, sid: string): Promise<StoredSession | null> {
  const [row] = await preparedRead<{ data: string; expires_at: unknown }>(
    orm.em,
    'session_by_sid',
    'select data, expires_at from sessions where sid = ? limit 1',
    [sid],
  );
  return row ? { data: row.data, expiresAt: toDate(row.expires_at).getTime() } : null;
}

/** Writes a session (insert or replace), each write in its own em.fork(). */
export async function saveSession(orm: Orm, row: { sid: string; data: string; userId: number | null; expiresAt: Date }): Promise<void> {
  await orm.em.fork().upsert(Session, row);
}

/** Moves a session's expiry (a rolling session). */
export async function touchSession(orm: Orm, sid: string, expiresAt: Date): Promise<void> {
  await orm.em.fork().nativeUpdate(Session, { sid }, { expiresAt });
}

/** Deletes a session; resolves to how many rows went (0 or 1). */
export function deleteSession(orm: Orm, sid: string): Promise<number> {
  return orm.em.fork().nativeDelete(Session, { sid });
}

/** Deletes the expired sessions; resolves to how many went. */
export function pruneSessions(orm: Orm): Promise<number> {
  return orm.em.fork().nativeDelete(Session, { expiresAt: { $lte: new Date() } });
}

/** Of these session ids, the ones still stored and unexpired, with their JSON (one query). */
export async function liveSessions(orm: Orm, sids: string[]): Promise<Map<string, string>> {
  if (sids.length === 0) return new Map();
  const rows = await orm.em.fork().find(Session, { sid: { $in: sids }, expiresAt: { $gt: new Date() } });
  return new Map(rows.map((row) => [row.sid, row.data]));
}
