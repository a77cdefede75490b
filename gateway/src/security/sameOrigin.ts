import type { RequestHandler } from 'express';

/**
 * Cross-site request refusal (CSRF), hand-written because it is a few lines over headers every browser sends,
 * and the maintained token-based packages (csrf-csrf, ...) would need the legacy client to send a token it does
 * not know about. Browsers send Sec-Fetch-Site; where it is missing we compare Origin, then Referer, with the
 * request's own host. A request with none of them is a non-browser client (curl, an integration), which no
 * page can forge.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, host: string | undefined): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  return originMatchesHost((headers.origin as string | undefined) ?? (headers.referer as string | undefined), host);
}

/** An Origin (or Referer) names the host the request went to; none at all is a non-browser client. */
export function originMatchesHost(source: string | undefined, host: string | undefined): boolean {
  if (!source) return true;
  try {
    return new URL(source).host === host;
  } catch {
    return false;
  }
}

const refuse: RequestHandler = (_req, res) => void res.status(403).json({ errors: { message: 'Cross-site request refused' } });

/** For the state-changing GETs (the /delete routes and logout). */
export const requireSameOrigin: RequestHandler = (req, res, next) => {
  if (isSameOrigin(req.headers, req.headers.host)) return next();
  refuse(req, res, next);
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * For every other write under /api (POST and PUT): a cross-site HTML form can send a "simple" POST
 * (urlencoded, multipart, text/plain) without a CORS preflight, and SameSite=Lax does not stop a same-site but
 * cross-origin page (a sibling subdomain). The legacy client's same-origin fetch always passes.
 */
export const refuseCrossSiteWrites: RequestHandler = (req, res, next) => {
  if (SAFE_METHODS.has(req.method) || isSameOrigin(req.headers, req.headers.host)) return next();
  refuse(req, res, next);
};
