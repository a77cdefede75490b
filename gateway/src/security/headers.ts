import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import QuickLRU from 'quick-lru';

/** The helmet configuration: security headers on every response, with a CSP that fits the single-page app. */
export function helmetFor(secure: boolean) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // 'self' covers same-host websockets in current browsers; the explicit ws(s) origin covers older ones.
        connectSrc: [
          "'self'",
          (req) => `ws://${(req as { headers: { host?: string } }).headers.host ?? 'localhost'}`,
          (req) => `wss://${(req as { headers: { host?: string } }).headers.host ?? 'localhost'}`,
        ],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: secure ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
  });
}

/** The answer to a Host header that is no host name. */
export const INVALID_HOST = 'The Host header is not a valid host name: send the host name (and port) of this server.';

/** What helmet does to a response: the headers it sets and the ones it removes, in order. */
type HeaderSteps = { set: [string, string][]; remove: string[] };

/**
 * Security headers on every response. helmet decides them; its answer depends on nothing but the Host header (the
 * CSP's ws:/wss: origins), so it runs once per Host value against a recording response, and every request just
 * sets the recorded headers: the same headers, without walking helmet's dozen middlewares and rebuilding the CSP
 * string per request. Bounded (Host is the client's to choose). A Host helmet refuses (one that would be an invalid
 * CSP value, such as `a;b` or `a,b`: no real host name) is the client's error: it gets 400 with a clear message,
 * under the headers of a request without a Host, and nothing is logged.
 */
export function securityHeaders(secure: boolean): RequestHandler {
  const middleware = helmetFor(secure);
  const byHost = new QuickLRU<string, HeaderSteps>({ maxSize: 256 });
  let withoutHost: HeaderSteps | undefined;
  const apply = (res: ServerResponse, steps: HeaderSteps) => {
    for (const [name, value] of steps.set) res.setHeader(name, value);
    for (const name of steps.remove) res.removeHeader(name);
  };
  const record = (req: IncomingMessage): HeaderSteps | null => {
    const steps: HeaderSteps = { set: [], remove: [] };
    const recorder = {
      setHeader: (name: string, value: string) => void steps.set.push([name, value]),
      removeHeader: (name: string) => void steps.remove.push(name),
    } as unknown as ServerResponse;
    let ok = false;
    middleware({ headers: { host: req.headers.host } } as IncomingMessage, recorder, (err?: unknown) => void (ok = !err));
    return ok ? steps : null;
  };
  return (req, res, next) => {
    // A missing Host and an empty one give different CSPs ('localhost' and ''): keep them apart.
    const host = req.headers.host === undefined ? '\0' : `h${req.headers.host}`;
    let steps = byHost.get(host);
    if (!steps) {
      const recorded = record(req);
      if (!recorded) {
        apply(res, (withoutHost ??= record({ headers: {} } as IncomingMessage)!));
        res.status(400).json({ errors: [{ message: INVALID_HOST, extensions: { code: 'BAD_REQUEST' } }] });
        return;
      }
      byHost.set(host, (steps = recorded));
    }
    apply(res, steps);
    next();
  };
}
