/** The recorded security headers are exactly helmet's, for every Host, first request or hundredth. */
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetFor, securityHeaders } from './headers.js';

const servers: Server[] = [];
async function serve(middleware: express.RequestHandler): Promise<number> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => void res.json({ ok: true }));
  app.use(((_error, _req, res, _next) => void res.status(500).json({ error: true })) as express.ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Status and headers (without the per-response ones) of GET / sent with this Host header. */
function headersFor(port: number, host: string): Promise<{ status: number; headers: [string, string][] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      res.resume();
      const raw = res.rawHeaders;
      const headers: [string, string][] = [];
      for (let i = 0; i < raw.length; i += 2) {
        if (!/^(date|connection|keep-alive|content-length|etag)$/i.test(raw[i])) headers.push([raw[i].toLowerCase(), raw[i + 1]]);
      }
      res.on('end', () => resolve({ status: res.statusCode!, headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('securityHeaders', () => {
  const ports: Record<string, { ours: number; helmet: number }> = {};
  beforeAll(async () => {
    for (const secure of [false, true]) {
      ports[String(secure)] = { ours: await serve(securityHeaders(secure)), helmet: await serve(helmetFor(secure)) };
    }
  });
  afterAll(() => servers.forEach((s) => s.close()));

  it.each([false, true])('secure=%s: the same headers as helmet, in the same order, for each Host and on repeat', async (secure) => {
    const { ours, helmet } = ports[String(secure)];
    for (const host of ['127.0.0.1:4000', 'desk.example.com', '[::1]:8080', '127.0.0.1:4000', 'desk.example.com']) {
      const [a, b] = [await headersFor(ours, host), await headersFor(helmet, host)];
      expect(a, host).toEqual(b);
      expect(a.status).toBe(200);
      expect(a.headers.find(([n]) => n === 'content-security-policy')?.[1]).toContain(`ws://${host} wss://${host}`);
    }
  });

  it.each([false, true])('secure=%s: a Host helmet refuses (no host name) gets 400 with the headers of a request without one', async (secure) => {
    const { ours, helmet } = ports[String(secure)];
    for (const host of ['evil;script-src *', 'a;b', 'a,b', 'evil;script-src *']) {
      const a = await headersFor(ours, host);
      expect((await headersFor(helmet, host)).status, host).toBe(500);
      expect(a.status, host).toBe(400);
      const csp = a.headers.find(([n]) => n === 'content-security-policy')?.[1];
      expect(csp).toContain('ws://localhost wss://localhost');
      expect(csp).not.toContain(host);
      expect(a.headers).toContainEqual(['x-content-type-options', 'nosniff']);
    }
  });
});
