import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import { parse as parseCookie } from 'cookie';
import signature from 'cookie-signature';
import type { Orm, SessionPort } from '@fulcrum/schema';
import { OrmSessionStore, type SessionCacheOptions } from './ormSessionStore.js';

declare module 'express-session' {
  interface SessionData {
    userId?: number;
    /** When the agent signed in (ms), for the absolute timeout. */
    signedInAt?: number;
  }
}

export const SESSION_COOKIE = 'fulcrum.sid';
/** Idle timeout: a session unused this long ends (rolling cookie). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Absolute timeout: a session ends this long after sign-in, however busy. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;

/** A random secret, kept in DATA_DIR so restarts keep sessions; several gateways must share SESSION_SECRET. */
export function loadSessionSecret(dataDir: string, explicit?: string): string {
  if (explicit) return explicit;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export interface Sessions {
  middleware: RequestHandler;
  store: OrmSessionStore;
  /** The signed-in user id behind a raw Cookie header (websocket handshakes), with the session id. */
  fromCookieHeader(cookieHeader: string | undefined): Promise<{ sid: string; userId: number } | null>;
  /** Of these session ids, the ones that are still signed in (not logged out, idle-expired or past the absolute timeout). */
  stillSignedIn(sids: string[]): Promise<Set<string>>;
}

function isExpiredAbsolutely(data: session.SessionData | null | undefined): boolean {
  return !!data?.signedInAt && Date.now() - data.signedInAt > SESSION_ABSOLUTE_MS;
}

export function createSessions(orm: Orm, secret: string, secureCookies: boolean, cache: SessionCacheOptions = {}): Sessions {
  const store = new OrmSessionStore(orm, SESSION_IDLE_MS, cache);
  const base = session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: { httpOnly: true, sameSite: 'lax', secure: secureCookies, maxAge: SESSION_IDLE_MS, path: '/' },
  });
  const middleware: RequestHandler = (req, res, next) => {
    base(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (isExpiredAbsolutely(req.session)) {
        return req.session.destroy(() => next());
      }
      next();
    });
  };
  return {
    middleware,
    store,
    async fromCookieHeader(cookieHeader) {
      const raw = cookieHeader ? parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
      if (!raw || !raw.startsWith('s:')) return null;
      const sid = signature.unsign(raw.slice(2), secret);
      if (!sid) return null;
      const data = await store.loadData(sid);
      if (!data?.userId || isExpiredAbsolutely(data)) return null;
      return { sid, userId: data.userId };
    },
    async stillSignedIn(sids) {
      const live = await store.findLive(sids);
      return new Set([...live].filter(([, data]) => data.userId && !isExpiredAbsolutely(data)).map(([sid]) => sid));
    },
  };
}

/**
 * The service layer's view of an Express session: sign in with a fresh id, sign out server-side. Both destroy a
 * session through the store, which announces the end on the bus itself when gateways share it (the answer says
 * so, and the service does not announce it a second time).
 */
export function sessionPort(req: Request): SessionPort {
  // Asked at sign-in and sign-out only: the port is made for every request.
  const announced = () => req.sessionStore instanceof OrmSessionStore && req.sessionStore.announcesEnds;
  return {
    get id() {
      return req.session?.userId ? req.sessionID : undefined;
    },
    signIn: (userId) =>
      new Promise<boolean>((resolve, reject) =>
        req.session.regenerate((err) => {
          if (err) return reject(err as Error);
          req.session.userId = userId;
          req.session.signedInAt = Date.now();
          req.session.save((saveErr) => (saveErr ? reject(saveErr as Error) : resolve(announced())));
        }),
      ),
    signOut: () =>
      new Promise<boolean>((resolve, reject) => {
        req.res?.clearCookie(SESSION_COOKIE, { path: '/' });
        if (!req.session) return resolve(false);
        req.session.destroy((err) => (err ? reject(err as Error) : resolve(announced())));
      }),
  };
}
