/**
 * Launches Debian's Chromium (/usr/bin/chromium) through playwright-core with a fresh temp profile
 * (playwright creates one per launch).
 * Never `npx playwright install`: scripts/ensureSystemPackages.sh installs the system package when it is missing.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { baseURL, demoLogin } from './helpers';

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

export type Viewport = { width: number; height: number };

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A fresh context (own cookies) at the given size; page errors and failed console errors are collected. */
export async function openPage(browser: Browser, baseURL: string, viewport: Viewport = WIDE): Promise<OpenedPage> {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { context, page, errors };
}

export interface FileBrowser {
  /** The file's browser (only inside tests and hooks: it is launched in beforeAll). */
  readonly browser: Browser;
  /** A fresh context on the test gateway (own cookies) at the given size. */
  open(viewport?: Viewport): Promise<OpenedPage>;
}

/**
 * The set-up every browser test file shares: one browser for the file, launched before its tests and closed after
 * them (closing it closes every context opened on it). Call once at the top level of the file.
 */
export function useBrowser(): FileBrowser {
  let launched: E2EBrowser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => launched?.close());
  const browser = (): Browser => {
    if (!launched) throw new Error('the browser is launched in beforeAll: use it inside tests and hooks');
    return launched.browser;
  };
  return {
    get browser() {
      return browser();
    },
    open: (viewport) => openPage(browser(), baseURL(), viewport),
  };
}

/**
 * One browser and one page for the whole file, the tests taking turns on it (signed in as Demo through the landing
 * page unless `signIn: false`). `ready` receives the page once it is open, before the file's own beforeAll hooks.
 */
export function useSharedPage(ready: (opened: OpenedPage) => void, { signIn = true }: { signIn?: boolean } = {}): FileBrowser {
  const file = useBrowser();
  beforeAll(async () => {
    const opened = await file.open();
    if (signIn) await demoLogin(opened.page);
    ready(opened);
  });
  return file;
}
