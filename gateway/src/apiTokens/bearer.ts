/**
 * Bearer authentication for POST /graphql (docs/integrators.md, "Authentication"). A request that carries an
 * Authorization header is decided by it alone: the session cookie is not even read, so a browser session cannot
 * lend a broken token its rights, and a token cannot renew or end a session. Anything but a valid token is a 401
 * with `WWW-Authenticate: Bearer error="invalid_token"` that never says which of unknown, expired or revoked.
 *
 * /api does not look at Authorization: the REST facade serves the legacy browser client under a fixed contract,
 * and keeping tokens to GraphQL keeps their scopes, cost and budget in one place (see docs/integrators.md).
 */
import type { Request, RequestHandler, Response } from 'express';
import { apiTokens, isAppError, type ApiCredential, type ServiceDeps } from '@fulcrum/schema';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the request authenticated with an API token. */
    apiToken?: ApiCredential;
  }
}

export type Authorization = { kind: 'none' } | { kind: 'bearer'; secret: string } | { kind: 'malformed' };

/** RFC 6750 section 2.1: `Bearer` (any case), one or more spaces, a token68. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function parseAuthorization(header: string | string[] | undefined): Authorization {
  if (header === undefined) return { kind: 'none' };
  if (typeof header !== 'string') return { kind: 'malformed' };
  const match = BEARER.exec(header);
  return match ? { kind: 'bearer', secret: match[1] } : { kind: 'malformed' };
}

/** The paths a bearer token authenticates: GraphQL over HTTP (websockets send it in connectionParams). */
export function acceptsBearer(req: Request): boolean {
  return req.path === '/graphql' || req.path === '/graphql/';
}

function refuse(res: Response, status: number, code: string, message: string, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).json({ errors: [{ message, extensions: { code } }] });
}

/**
 * In front of the session middleware: GraphQL requests with an Authorization header are authenticated by the
 * token (and skip the session); everything else goes through `sessions` as before.
 */
export function bearerOrSession(sessions: RequestHandler, deps: ServiceDeps): RequestHandler {
  return (req, res, next) => {
    const authorization = acceptsBearer(req) ? parseAuthorization(req.headers.authorization) : { kind: 'none' as const };
    if (authorization.kind === 'none') return sessions(req, res, next);
    if (authorization.kind === 'malformed') {
      return refuse(res, 401, 'UNAUTHENTICATED', 'Send the token as "Authorization: Bearer <token>".', {
        'WWW-Authenticate': 'Bearer error="invalid_request"',
      });
    }
    apiTokens.authenticateToken(deps, authorization.secret, req.ip ?? 'unknown').then(
      (credential) => {
        req.apiToken = credential;
        next();
      },
      (error: unknown) => {
        if (isAppError(error) && error.code === 'UNAUTHENTICATED') {
          return refuse(res, 401, 'UNAUTHENTICATED', error.message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
        }
        if (isAppError(error) && error.code === 'RATE_LIMITED') {
          return refuse(res, 429, 'RATE_LIMITED', error.message, { 'Retry-After': String(error.retryAfter ?? 60) });
        }
        next(error);
      },
    );
  };
}
