/**
 * The web app as the gateway sends it: scripts and styles compressed at build time (brotli, else gzip, else the
 * raw file for a client that accepts neither), `Vary: Accept-Encoding`, hashed assets cached for a year and
 * index.html revalidated on every visit. Real requests over HTTP to a gateway serving a fresh build of web/.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useGatewayOnFreshBuild } from '../testing/freshBuild.js';

/** web/vite.config.ts's compression threshold: smaller files get no compressed copy. */
const COMPRESSED_FROM = 1024;
const fresh = useGatewayOnFreshBuild('app');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body comes back exactly as sent (fetch would decompress it and hide what travelled). */
function get(path: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((done, fail) => {
    const headers: Record<string, string> = { Accept: '*/*' };
    if (acceptEncoding !== undefined) headers['Accept-Encoding'] = acceptEncoding;
    const req = request(new URL(path, fresh.gateway().url), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** The entry script and stylesheet index.html names (Vite's hashed /assets/ files). */
function entryAssets(html: string): string[] {
  const found = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  expect(found.length, 'index.html names its hashed script and stylesheet').toBeGreaterThanOrEqual(2);
  return found;
}

describe('the web app over HTTP', () => {
  it('index.html: revalidated on every visit (a redeploy is seen at once), for every client-side route', async () => {
    for (const path of ['/', '/view/tickets/all', '/view/ticket/12']) {
      const res = await get(path, 'br, gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('each hashed script and stylesheet: brotli when accepted, else gzip, else raw; the same bytes once decoded; cached for a year', async () => {
    const html = (await get('/', 'identity')).body.toString('utf8');
    for (const asset of entryAssets(html)) {
      const raw = readFileSync(join(fresh.webDist(), asset));
      const type = asset.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/;
      if (raw.length < COMPRESSED_FROM) {
        // Too small to gain (a runtime stub, a tiny shared chunk): sent as it is, whatever the client accepts.
        const small = await get(asset, 'gzip, deflate, br');
        expect(small.status).toBe(200);
        expect(small.headers['content-encoding']).toBeUndefined();
        expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(small.body.equals(raw)).toBe(true);
        continue;
      }

      const br = await get(asset, 'gzip, deflate, br');
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(type);
      expect(br.headers.vary).toMatch(/Accept-Encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);

      const gz = await get(asset, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toMatch(type);
      expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
      expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(gunzipSync(gz.body).equals(raw)).toBe(true);

      const plain = await get(asset, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
      expect(plain.body.equals(raw)).toBe(true);

      if (raw.length > 10_000) {
        // Scripts and styles shrink by far more than half; the main script is the landing page's largest part.
        expect(br.body.length).toBeLessThan(raw.length / 3);
        expect(gz.body.length).toBeLessThan(raw.length / 2.5);
        expect(br.body.length).toBeLessThanOrEqual(gz.body.length);
      }
    }
  });

  it('the landing page (index.html and everything it names) travels at under a third of its raw size', async () => {
    const html = await get('/', 'gzip, deflate, br');
    const assets = entryAssets(html.body.toString('utf8'));
    let sent = html.body.length;
    let raw = html.body.length;
    for (const asset of assets) {
      sent += (await get(asset, 'gzip, deflate, br')).body.length;
      raw += readFileSync(join(fresh.webDist(), asset)).length;
    }
    expect(sent).toBeLessThan(raw / 3);
  });

  it('a file that is not there is not answered with a compressed copy or a year of caching', async () => {
    const res = await get('/assets/nothing-here.js', 'br');
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
