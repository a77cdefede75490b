import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fulcrum</title></head>
<body><h1>fulcrum</h1><p>The web app is not built yet. Run <code>npm start</code> (it builds it) or <code>npm run build -w web</code>.</p></body></html>`;

/** Hashed build output (Vite names each file after its content): a changed file has a new name, so it never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app, with index.html for every client-side route (the router shows its own 404).
 * Scripts and styles are compressed at build time (web/vite.config.ts writes a .br and a .gz beside each file);
 * express-static-gzip picks the one the browser accepts (brotli first) and sends `Vary: Accept-Encoding`, so
 * nothing is compressed per request. It looks for the compressed files once, when the router is made: the web app
 * is built before the gateway starts (`npm start` does both in that order).
 */
export function createWebAppRouter(webDist: string): Router {
  const router = Router();
  const index = join(webDist, 'index.html');
  const assets = join(webDist, 'assets') + sep;
  router.use(
    expressStaticGzip(webDist, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        maxAge: '1h',
        setHeaders: (res, path) => {
          if (path.startsWith(assets)) res.setHeader('Cache-Control', IMMUTABLE);
        },
      },
    }),
  );
  // A hashed file that is not there (a tab older than the last deploy asking for a chunk that was replaced) is a
  // plain 404, not index.html: the page's import fails cleanly instead of parsing HTML as a script.
  router.get(/^\/assets\//, (_req, res) => void res.status(404).type('text/plain').send('Not found'));
  router.get(/^(?!\/(api|graphql|images|assets)(\/|$)).*/, (req, res) => {
    if (!req.accepts('html')) return void res.status(404).end();
    res.setHeader('Cache-Control', 'no-cache');
    if (existsSync(index)) res.sendFile(index);
    else res.type('html').send(PLACEHOLDER);
  });
  return router;
}
