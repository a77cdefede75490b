/**
 * What a browser is sent for the landing page: every script and stylesheet compressed (brotli or gzip, as Chromium
 * asks), `Vary: Accept-Encoding`, a year of caching for the hashed /assets/ files and revalidation for the page
 * itself, and far fewer bytes on the wire than the files' size. Sizes come from Chromium's own count of the body
 * bytes it received (the same count bench scenario 6 reports).
 */
import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { useBrowser } from './browser';
import { shown } from './helpers';

const chromium = useBrowser();

describe('the landing page over the wire', () => {
  it('scripts and styles arrive compressed with Vary and a year of caching; index.html is revalidated; sent is under a third of raw', async () => {
    const { page, context } = await chromium.open();
    const finished: Request[] = [];
    page.on('requestfinished', (request) => void finished.push(request));
    await page.goto('/', { waitUntil: 'networkidle' });
    await shown(page.getByRole('button', { name: 'Demo Login' }));

    const document = finished.find((r) => r.resourceType() === 'document');
    expect((await document!.response())!.headers()['cache-control']).toBe('no-cache');

    const assets = finished.filter((r) => ['script', 'stylesheet'].includes(r.resourceType()) && new URL(r.url()).pathname.startsWith('/assets/'));
    expect(assets.some((r) => r.resourceType() === 'script')).toBe(true);
    expect(assets.some((r) => r.resourceType() === 'stylesheet')).toBe(true);
    let raw = 0;
    let sent = 0;
    for (const request of assets) {
      const response = (await request.response())!;
      const headers = await response.allHeaders();
      const body = await response.body();
      const { responseBodySize } = await request.sizes();
      const where = new URL(request.url()).pathname;
      if (body.length >= 1024) {
        // The build compresses every file of 1 KiB or more; smaller ones gain nothing and go as they are.
        expect(headers['content-encoding'], where).toMatch(/^(br|gzip)$/);
        expect(headers.vary, where).toMatch(/Accept-Encoding/i);
        expect(responseBodySize, where).toBeLessThan(body.length);
      }
      expect(headers['cache-control'], where).toBe('public, max-age=31536000, immutable');
      raw += body.length;
      sent += responseBodySize;
    }
    expect(raw).toBeGreaterThan(100_000);
    expect(sent).toBeLessThan(raw / 3);
    await context.close();
  });
});
