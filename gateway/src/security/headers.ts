import helmet from 'helmet';

/** Security headers on every response (helmet), with a CSP that fits the single-page app. */
export function securityHeaders(secure: boolean) {
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
