/**
 * Launches Debian's Chromium (/usr/bin/chromium) through playwright-core with a fresh temp profile
 * (playwright creates one per launch).
 * Never `npx playwright install`: scripts/ensureSystemPackages.sh installs the system package when it is missing.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2EBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<E2EBrowser> {
  // chromium.launch() always starts on a fresh temporary user-data-dir of its own and deletes it on close
  // (passing --user-data-dir is refused: that is launchPersistentContext's job).
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return { browser, close: () => browser.close() };
}

export const WIDE = { width: 1440, height: 900 };
export const NARROW = { width: 1024, height: 800 };

/** A fresh context (own cookies) at the given size; page errors and failed console errors are collected. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = WIDE,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { context, page, errors };
}
