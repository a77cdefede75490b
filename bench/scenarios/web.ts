/**
 * Scenario 6: the production build in headless Chromium against the gateway. The initial JavaScript of a route is
 * every script the browser fetches to show it (entry, preloads and the route's lazy chunks), counted as sent: the
 * encoded body bytes Chromium received (the gateway sends the brotli or gzip copy made at build time), beside their
 * raw size; the dashboard time is from navigation start to 50 rendered ticket rows.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { median } from '../../gateway/src/testing/measure.js';
import { rows, type Workspace } from '../context.js';
import { log, progress, ROOT } from '../lib.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A page signed in with `cookie` on `path` of `url`, its live socket connected (the browser rows 5c and 10e). */
export async function agentPage(browser: Browser, url: string, cookie: string, path: string, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, ...(viewport ? { viewport } : {}) });
  const [name, ...rest] = cookie.split('=');
  await context.addCookies([{ name, value: rest.join('='), url }]);
  const page = await context.newPage();
  await page.goto(path);
  await page.locator('[role="status"][data-live="connected"]').waitFor({ state: 'attached', timeout: 30_000 });
  return page;
}

type WebResult =
  | { measured: false; reason: string }
  | {
      measured: true;
      landing: { files: number; raw: number; sent: number };
      dashboard: { files: number; raw: number; sent: number };
      renderMs: number[];
      renderP50: number;
      renderMax: number;
    };

/**
 * The distinct ticket links on the page (each row links its id and its subject to the same address). A function,
 * not a string: the app's Content-Security-Policy forbids eval.
 */
const ROWS_RENDERED = () => new Set([...document.querySelectorAll('a[href*="/view/ticket/"]')].map((a) => a.getAttribute('href'))).size;
const RENDERED_AT = () =>
  new Set([...document.querySelectorAll('a[href*="/view/ticket/"]')].map((a) => a.getAttribute('href'))).size >= 50 ? performance.now() : 0;

async function measureWeb(url: string, sessionCookie: string, runs = 7): Promise<WebResult> {
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) return { measured: false, reason: 'web not built' };
  if (!existsSync(CHROMIUM)) return { measured: false, reason: `no Chromium at ${CHROMIUM}` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const [name, ...rest] = sessionCookie.split('=');
    const cookie = { name, value: rest.join('='), url };

    async function scripts(path: string, signedIn: boolean) {
      const context = await browser.newContext();
      if (signedIn) await context.addCookies([cookie]);
      const page = await context.newPage();
      // Per script: its decoded body (raw size) and the body bytes that crossed the wire (after Content-Encoding).
      const bodies = new Map<string, { raw: number; sent: number }>();
      const pending: Promise<void>[] = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        pending.push(
          Promise.all([request.response().then((r) => r?.body()), request.sizes()]).then(
            ([body, sizes]) => void (body && bodies.set(request.url(), { raw: body.length, sent: sizes.responseBodySize })),
            () => undefined,
          ),
        );
      });
      await page.goto(url + path, { waitUntil: 'networkidle' });
      await Promise.all(pending);
      await context.close();
      let raw = 0;
      let sent = 0;
      for (const body of bodies.values()) {
        raw += body.raw;
        sent += body.sent;
      }
      return { files: bodies.size, raw, sent };
    }

    const landing = await scripts('/', false);
    const dashboard = await scripts('/view/tickets/all', true);

    const renderMs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      // A fresh context each time: no HTTP cache, no Apollo cache; the browser process itself is warm.
      const context = await browser.newContext();
      await context.addCookies([cookie]);
      const page = await context.newPage();
      try {
        await page.goto(`${url}/view/tickets/all`, { waitUntil: 'commit' });
        // performance.now() in the page counts from navigation start.
        const handle = await page.waitForFunction(RENDERED_AT, undefined, { timeout: 15_000, polling: 'raf' });
        const ms = Number(await handle.jsonValue());
        if (i > 0) renderMs.push(ms); // the first run warms the gateway and the browser
      } catch (error) {
        const rows = await page.evaluate(ROWS_RENDERED).catch(() => 0);
        return { measured: false, reason: `dashboard did not render 50 tickets within 15 s (${rows} rows): ${(error as Error).message.split('\n')[0]}` };
      } finally {
        await context.close();
      }
    }
    return { measured: true, landing, dashboard, renderMs, renderP50: median(renderMs), renderMax: Math.max(...renderMs) };
  } finally {
    await browser.close();
  }
}

export async function web(ws: Workspace): Promise<void> {
  progress('  6. web: headless Chromium');
  const result = await measureWeb(ws.gw.url, ws.demo);
  if (!result.measured) {
    log(`  6. web: not measured: ${result.reason}`);
    rows.push({
      scenario: '6. Web: initial JS and time to a rendered dashboard',
      value: `not measured: ${result.reason}`,
      budget: '< 200 kB sent each, < 1 s',
      met: null,
    });
    return;
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  log(
    `  6. web: landing ${kb(result.landing.sent)} sent, dashboard ${kb(result.dashboard.sent)} sent, rendered in ${result.renderP50.toFixed(0)} ms (max ${result.renderMax.toFixed(0)})`,
  );
  rows.push({
    scenario: '6a. Web: landing page initial JS, as sent (compressed)',
    value: `${kb(result.landing.sent)} (${result.landing.files} files, ${kb(result.landing.raw)} raw)`,
    budget: '< 200 kB',
    met: result.landing.sent < 200 * 1024,
  });
  rows.push({
    scenario: '6b. Web: dashboard initial JS, as sent (compressed)',
    value: `${kb(result.dashboard.sent)} (${result.dashboard.files} files, ${kb(result.dashboard.raw)} raw)`,
    budget: '< 200 kB',
    met: result.dashboard.sent < 200 * 1024,
  });
  rows.push({
    scenario: '6c. Web: navigation → dashboard with 50 tickets rendered (headless Chromium, cold cache)',
    p50: result.renderP50,
    p99: result.renderMax,
    value: `median ${result.renderP50.toFixed(0)} ms, max ${result.renderMax.toFixed(0)} ms over ${result.renderMs.length} runs`,
    budget: '< 1 s',
    met: result.renderMax < 1000,
  });
}
