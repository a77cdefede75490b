import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import QuickLRU from 'quick-lru';
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

/** Requests served by the fast lane, each with the way to hand it to express-session (a sign-in or sign-out). */
const upgrades = new WeakMap<Request, () => Promise<void>>();

export function createSessions(
  orm: Orm,
  secret: string,
  secureCookies: boolean,
  cache: SessionCacheOptions = {},
  log: (error: unknown, context: string) => void = () => {},
): Sessions {
  const store = new OrmSessionStore(orm, SESSION_IDLE_MS, cache);
  /** The cookie's attributes, for express-session and for the fast lane's rolling header alike. */
  const cookieOptions = { httpOnly: true, sameSite: 'lax', secure: secureCookies, path: '/' } as const;
  const base = session({
    name: SESSION_COOKIE,
    secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    unset: 'destroy',
    cookie: { ...cookieOptions, maxAge: SESSION_IDLE_MS },
  });
  const full: RequestHandler = (req, res, next) => {
    base(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (isExpiredAbsolutely(req.session)) {
        return req.session.destroy(() => next());
      }
      next();
    });
  };
  /** Cookie values already verified (the HMAC) and each session's signed value: both fixed for a given secret. */
  const verified = new QuickLRU<string, string>({ maxSize: 10_000 });
  const signedValues = new QuickLRU<string, string>({ maxSize: 10_000 });
  /** The session id a Cookie header names, once its signature is checked; false without a valid one. */
  const sidOf = (cookieHeader: string | undefined): string | false => {
    const raw = cookieHeader ? parseCookie(cookieHeader)[SESSION_COOKIE] : undefined;
    if (!raw) return false;
    const known = verified.get(raw);
    if (known) return known;
    const sid = raw.startsWith('s:') && signature.unsign(raw.slice(2), secret);
    if (sid) verified.set(raw, sid);
    return sid;
  };
  /**
   * The fast lane: a request whose cookie names a session this gateway holds in memory gets it without
   * express-session, which for every request verified the cookie's HMAC, built its Session and Cookie objects, hashed
   * the session twice (SHA-1) to see whether it changed, signed the cookie again and wrapped res.end. Here the
   * cookie is verified once per value, the session is the store's copy, and the rolling cookie is the same header
   * express-session sends (its signed value kept per session). Everything else (no cookie, a session not in memory,
   * past its absolute timeout) goes through express-session as before; so does a sign-in or sign-out on a fast
   * request: sessionPort() hands the request to express-session first (upgrade), since a new or ended session
   * needs its cookie and end handling.
   */
  const middleware: RequestHandler = (req, res, next) => {
    const sid = sidOf(req.headers.cookie);
    if (!sid) return full(req, res, next);
    const serve = () => {
      const data = store.cachedData(sid);
      if (!data?.userId || isExpiredAbsolutely(data)) return full(req, res, next);
      req.sessionID = sid;
      // express-session gave the store its generate() when `base` was made, and its Session class is public in
      // JavaScript (express-session exports it; its types call the constructor private).
      req.sessionStore = store as unknown as typeof req.sessionStore;
      req.session = new (session.Session as unknown as new (req: Request, data: session.SessionData) => typeof req.session)(req, data);
      const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
      store.renew(sid, expiresAt, (err) => {
        if (err) log(err, 'session renewal');
      });
      // rolling: true, as express-session does it (a cookie flagged Secure only over HTTPS).
      let rolled: string | undefined;
      if (!secureCookies || req.secure) {
        let signed = signedValues.get(sid);
        if (!signed) signedValues.set(sid, (signed = `s:${signature.sign(sid, secret)}`));
        rolled = serializeCookie(SESSION_COOKIE, signed, { ...cookieOptions, expires: expiresAt });
        res.setHeader('Set-Cookie', rolled);
      }
      upgrades.set(req, () => {
        upgrades.delete(req);
        if (rolled && res.getHeader('Set-Cookie') === rolled) res.removeHeader('Set-Cookie');
        delete (req as { session?: unknown }).session;
        return new Promise<void>((resolve, reject) =>
          full(req, res, (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error('session store failed', { cause: err })) : resolve())),
        );
      });
      next();
    };
    // With several gateways, answered on the next turn of the event loop like the store's get() (see there).
    if (store.shared) setImmediate(serve);
    else serve();
  };
  return {
    middleware,
    store,
    async fromCookieHeader(cookieHeader) {
      const sid = sidOf(cookieHeader);
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
    signIn: async (userId) => {
      await upgrades.get(req)?.();
      return new Promise<boolean>((resolve, reject) =>
        req.session.regenerate((err) => {
          if (err) return reject(err as Error);
          req.session.userId = userId;
          req.session.signedInAt = Date.now();
          req.session.save((saveErr) => (saveErr ? reject(saveErr as Error) : resolve(announced())));
        }),
      );
    },
    signOut: async () => {
      await upgrades.get(req)?.();
      return new Promise<boolean>((resolve, reject) => {
        req.res?.clearCookie(SESSION_COOKIE, { path: '/' });
        if (!req.session) return resolve(false);
        req.session.destroy((err) => (err ? reject(err as Error) : resolve(announced())));
      });
    },
  };
}
