import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fulcrum GraphQL explorer</title></head>
<body><h1>GraphQL explorer</h1><p>The explorer is not built yet. Run <code>npm run build -w web</code>.</p></body></html>`;

/**
 * The GraphQL explorer (GraphiQL, built by web/explorer/vite.config.ts into web/dist/graphiql): its page at
 * /graphiql and its hashed assets under /graphiql/assets. Everything is served from here, so the gateway's CSP
 * (script, style and font sources 'self' only; connections to this host's /graphql over HTTP and websockets)
 * holds unchanged: no CDN, and it works offline.
 */
export function createExplorerRouter(webDist: string): Router {
  const root = join(webDist, 'graphiql');
  const page = join(root, 'index.html');
  const router = Router();
  router.use('/graphiql/assets', express.static(join(root, 'assets'), { index: false, immutable: true, maxAge: '1y', fallthrough: false }));
  router.get('/graphiql', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    if (existsSync(page)) res.sendFile(page);
    else res.status(503).type('html').send(NOT_BUILT);
  });
  return router;
}
