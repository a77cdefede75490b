import type { RequestHandler } from 'express';

/**
 * State-changing GETs (the /delete routes and logout) are refused cross-site. Browsers send Sec-Fetch-Site;
 * where it is missing we compare Origin, then Referer, with the request's own host. A request with none of
 * them is a non-browser client (curl, an integration), which no page can forge.
 */
export function isSameOrigin(headers: Record<string, string | string[] | undefined>, host: string | undefined): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const source = (headers.origin as string | undefined) ?? (headers.referer as string | undefined);
  if (!source) return true;
  try {
    return new URL(source).host === host;
  } catch {
    return false;
  }
}

export const requireSameOrigin: RequestHandler = (req, res, next) => {
  if (isSameOrigin(req.headers, req.headers.host)) return next();
  res.status(403).json({ errors: { message: 'Cross-site request refused' } });
};
