import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fulcrum</title></head>
<body><h1>fulcrum</h1><p>The web app is not built yet. Run <code>npm start</code> (it builds it) or <code>npm run build -w web</code>.</p></body></html>`;

/** Serves the built web app, with index.html for every client-side route (the router shows its own 404). */
export function createWebAppRouter(webDist: string): Router {
  const router = Router();
  const index = join(webDist, 'index.html');
  router.use(
    express.static(webDist, {
      index: false,
      maxAge: '1h',
      setHeaders: (res, path) => {
        if (path.includes(`${join(webDist, 'assets')}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  router.get(/^(?!\/(api|graphql|images)(\/|$)).*/, (req, res) => {
    if (!req.accepts('html')) return void res.status(404).end();
    res.setHeader('Cache-Control', 'no-cache');
    if (existsSync(index)) res.sendFile(index);
    else res.type('html').send(PLACEHOLDER);
  });
  return router;
}
