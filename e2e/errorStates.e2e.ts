/**
 * Error and loading states: what the built app shows when the server answers 502, does not answer, the
 * browser is offline, a screen's code is gone after a redeploy, an address matches no route, or loading is slow.
 * The failures are real responses given to the real app: Playwright's page.route() answers /graphql (or a chunk)
 * with a 502 or a 404, or aborts it as a stopped gateway would; every other request reaches the real gateway.
 * Each state keeps the shell (brand, and the menu when the session is known), says what happened and what to do, and
 * passes axe (WCAG 2.1 A+AA, no serious or critical violation). Slow loading is held, not timed: a held response is
 * released by the test once it has seen the loading state.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { axeViolations, blocking } from './axe';
import { useBrowser } from './browser';
import { demoLogin, gone, shown } from './helpers';

const chromium = useBrowser();

async function expectAxeClean(page: Page, screen: string): Promise<void> {
  const failures = blocking(await axeViolations(page)).map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join('\n    ')}`);
  expect(failures).toEqual([]);
}

/** The GraphQL operation a /graphql request carries (undefined for anything else, e.g. a multipart upload). */
function operationOf(route: Route): string | undefined {
  try {
    return (route.request().postDataJSON() as { operationName?: string } | null)?.operationName;
  } catch {
    return undefined;
  }
}

/** A proxy in front of a stopped gateway: 502 with an HTML body. */
const badGateway = (route: Route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });

/** Answers the named operations with `answer`; every other request goes on to the real gateway. */
async function failOperations(page: Page, operations: string[], answer: (route: Route) => Promise<void>): Promise<void> {
  await page.route('**/graphql', async (route) => {
    const operation = operationOf(route);
    if (operation && operations.includes(operation)) await answer(route);
    else await route.fallback();
  });
}

const alert = (page: Page) => page.getByRole('alert');
const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu' });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('the start fails', () => {
  it('answering 502: the brand stays, the page says the server had a problem, and Try again starts the app', async () => {
    const { page, context } = await chromium.open();
    await page.route('**/graphql', badGateway);
    await page.goto('/');
    await shown(alert(page).getByRole('heading', { name: 'The server had a problem' }));
    await shown(alert(page).getByText('The workspace could not be loaded: the server answered with an error (502).'));
    await shown(page.getByRole('link', { name: 'fulcrum workspace' }));
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await expectAxeClean(page, 'start, 502');

    await page.unroute('**/graphql');
    await alert(page).getByRole('button', { name: 'Try again' }).click();
    await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
    await gone(alert(page));
    await context.close();
  });

  it('with the gateway not answering: says the server could not be reached', async () => {
    const { page, context } = await chromium.open();
    await page.route('**/graphql', (route) => route.abort('connectionrefused'));
    await page.goto('/view/tickets/all');
    await shown(alert(page).getByRole('heading', { name: 'The server could not be reached' }));
    await shown(alert(page).getByText(/the server did not answer\. Check your connection/));
    await shown(page.getByRole('link', { name: 'fulcrum workspace' }));
    await expectAxeClean(page, 'start, unreachable');
    await context.close();
  });
});

describe('a screen whose data fails', () => {
  it('ticket: a 502 or no answer is not "not yours"; Try again loads it; only a missing ticket says "not yours"', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    const href = await page.locator('.ticket-subject').first().getAttribute('href');

    let answer: (route: Route) => Promise<void> = badGateway;
    await failOperations(page, ['ViewTicketPage'], (route) => answer(route));
    await page.goto(href!);
    await shown(alert(page).getByRole('heading', { name: 'The server had a problem' }));
    await shown(alert(page).getByText('The ticket could not be loaded: the server answered with an error (502).', { exact: false }));
    expect(await page.getByText('not yours').count()).toBe(0);
    await shown(menuButton(page));
    await shown(mainNav(page));
    await expectAxeClean(page, 'ticket, 502');

    answer = (route) => route.abort('connectionrefused');
    await alert(page).getByRole('button', { name: 'Try again' }).click();
    await shown(alert(page).getByRole('heading', { name: 'The server could not be reached' }));
    expect(await page.getByText('not yours').count()).toBe(0);
    await expectAxeClean(page, 'ticket, unreachable');

    await page.unroute('**/graphql');
    await alert(page).getByRole('button', { name: 'Try again' }).click();
    await shown(page.getByRole('heading', { name: 'Ticket Details' }));

    // The server's NOT_FOUND (no such ticket, or another agent's): the one case that reads "not yours".
    await page.goto('/view/ticket/2147483000');
    await shown(alert(page).getByText('This ticket does not exist, or it is not yours.'));
    await page.goto('/edit/ticket/2147483000');
    await shown(alert(page).getByText('This ticket does not exist, or it is not yours.'));
    await context.close();
  });

  it('every list (dashboard, customers, macros, webhooks, API tokens): says why, keeps the menu, and Try again loads it', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    const lists: [path: string, operation: string, what: string, heading: RegExp][] = [
      ['/view/tickets/all', 'DashboardPage', 'tickets', /^Dashboard$/],
      ['/view/customers', 'CustomersPage', 'customers', /^\(\d+\) Customers$/],
      ['/view/macros', 'MacrosPage', 'macros', /^\(\d+\) Macros$/],
      ['/settings/webhooks', 'WebhooksPage', 'webhooks', /^Webhooks$/],
      ['/settings/api-tokens', 'ApiTokensPage', 'API tokens', /^API Tokens$/],
    ];
    for (const [path, operation, what, heading] of lists) {
      await failOperations(page, [operation], badGateway);
      await page.goto(path);
      await shown(alert(page).getByText(`The ${what} could not be loaded: the server answered with an error (502).`, { exact: false }));
      await shown(menuButton(page));
      await shown(mainNav(page));
      await expectAxeClean(page, `${path}, 502`);
      await page.unroute('**/graphql');
      await alert(page).getByRole('button', { name: 'Try again' }).click();
      await shown(page.getByRole('heading', { name: heading, level: 1 }));
      await gone(alert(page));
    }
    await context.close();
  });
});

describe('offline', () => {
  it('a filter chip whose tickets cannot be loaded says so instead of keeping the old rows, and loads them when back online', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    expect(await page.locator('.ticket-row').count()).toBeGreaterThan(0);

    await context.setOffline(true);
    await page.getByRole('group', { name: 'Priority' }).getByRole('button', { name: 'High' }).click();
    await shown(alert(page).getByRole('heading', { name: 'You are offline' }));
    await shown(alert(page).getByText('The tickets for these filters could not be loaded', { exact: false }));
    // The rows and counts of the filters before are not shown under the new filters' heading.
    expect(await page.locator('.ticket-row').count()).toBe(0);
    await shown(page.getByRole('heading', { name: 'Matching Tickets', exact: true }));
    await expectAxeClean(page, 'dashboard, offline filter');

    await backOnline(context);
    await shown(page.getByRole('heading', { name: /^\(\d+\) Matching Tickets?$/ }));
    await gone(alert(page).getByRole('heading', { name: 'You are offline' }));
    await context.close();
  });
});

/** Ends the offline emulation; the app tries again by itself on the browser's "online" event. */
async function backOnline(context: BrowserContext): Promise<void> {
  await context.setOffline(false);
}

describe('unknown routes', () => {
  it('the 404 keeps the header and the menu, signed in and signed out', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/no/such/screen');
    await shown(page.getByRole('heading', { name: 'Unexpected Application Error!' }));
    await shown(page.getByText('No route matches URL "/no/such/screen"'));
    await shown(page.getByRole('button', { name: 'Sign In' }));
    await expectAxeClean(page, '404, signed out');

    await demoLogin(page);
    await page.goto('/no/such/screen');
    await shown(page.getByRole('heading', { name: 'Unexpected Application Error!' }));
    await shown(page.getByText('404 Not Found'));
    await shown(menuButton(page));
    await shown(mainNav(page));
    await expectAxeClean(page, '404, signed in');
    // The menu still leads on.
    await mainNav(page).getByRole('link', { name: 'Customers' }).click();
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/, level: 1 }));
    await context.close();
  });
});

describe('a stale tab after a redeploy', () => {
  const CUSTOMERS_CHUNK = /\/assets\/CustomersPage-[\w-]+\.js$/;

  /** Counts the page's full loads from now on (a reload is one). */
  function countLoads(page: Page): () => number {
    let loads = 0;
    page.on('load', () => (loads += 1));
    return () => loads;
  }

  it("reloads the app once when a screen's code is gone, and the screen then works", async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    const loads = countLoads(page);
    let asked = 0;
    // The old build's chunk is gone (404) for as long as the old document lives (the build may ask for it twice: a
    // modulepreload and the import); the reloaded document gets it. The reload's navigation request marks the
    // change (its load event comes only after the new document has asked for its chunks).
    let reloaded = false;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) reloaded = true;
    });
    await page.route(CUSTOMERS_CHUNK, async (route) => {
      asked += 1;
      if (!reloaded) await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
      else await route.fallback();
    });
    await mainNav(page).getByRole('link', { name: 'Customers' }).click();
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/, level: 1 }));
    expect(asked).toBeGreaterThanOrEqual(2);
    await expect.poll(loads).toBe(1);
    expect(page.url()).toMatch(/\/view\/customers$/);
    expect(await page.getByText('dynamically imported module').count()).toBe(0);
    await context.close();
  });

  it('when reloading once does not help: a clear message with a Reload button, in the shell, and no reload loop', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    const loads = countLoads(page);
    await page.route(CUSTOMERS_CHUNK, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }));
    await mainNav(page).getByRole('link', { name: 'Customers' }).click();
    await shown(alert(page).getByRole('heading', { name: 'This screen could not be loaded' }));
    // One automatic reload, then the message (the app decided not to reload again before it showed it).
    await expect.poll(loads).toBe(1);
    expect(await page.getByText('dynamically imported module').count()).toBe(0);
    await shown(menuButton(page));
    await shown(mainNav(page));
    await expectAxeClean(page, 'stale chunk, persistent');

    // The agent's Reload reloads once; still failing, the message comes back without another reload.
    await Promise.all([page.waitForEvent('load'), alert(page).getByRole('button', { name: 'Reload' }).click()]);
    await shown(alert(page).getByRole('heading', { name: 'This screen could not be loaded' }));
    expect(loads()).toBe(2);

    // The chunk is back: Reload brings the screen.
    await page.unroute(CUSTOMERS_CHUNK);
    await alert(page).getByRole('button', { name: 'Reload' }).click();
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/, level: 1 }));
    await expect.poll(loads).toBe(3);
    await context.close();
  });
});

describe("a stale tab: a modal's code", () => {
  it('a modal whose code stays missing says so in the modal, with Reload, and the shell stays', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.route(/\/assets\/CustomerForm-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }));
    // The first failure reloads the app once (a stale tab); the modal is asked for again after it.
    await Promise.all([page.waitForEvent('load'), mainNav(page).getByRole('button', { name: 'Create Customer' }).click()]);
    await shown(page.getByRole('heading', { name: /Open Tickets/ }));
    await mainNav(page).getByRole('button', { name: 'Create Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'This screen could not be loaded' });
    await shown(dialog.getByRole('alert'));
    await shown(dialog.getByRole('button', { name: 'Reload' }));
    expect(loads).toBe(1);
    await expectAxeClean(page, 'stale modal chunk');
    await page.keyboard.press('Escape');
    await gone(dialog);
    await shown(mainNav(page));
    await context.close();
  });
});

describe('slow loading', () => {
  /** Holds the named operations until release() (then they go on to the real gateway). */
  async function holdOperations(page: Page, operations: string[]): Promise<{ release: () => void; held: () => number }> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route('**/graphql', async (route) => {
      const operation = operationOf(route);
      if (operation && operations.includes(operation)) {
        held += 1;
        await released;
      }
      await route.fallback();
    });
    return { release, held: () => held };
  }

  const loadingStatus = (page: Page) => page.getByRole('status').filter({ hasText: 'Loading…' });

  it('a slow page keeps the header and menu and shows "Loading…" until its data is in', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    const hold = await holdOperations(page, ['CustomersPage']);
    await mainNav(page).getByRole('link', { name: 'Customers' }).click();
    await shown(loadingStatus(page).first());
    expect(hold.held()).toBe(1);
    await shown(menuButton(page));
    await shown(mainNav(page));
    // The page's own content waits for its data.
    expect(await page.getByRole('heading', { name: /Customers$/, level: 1 }).count()).toBe(0);
    await expectAxeClean(page, 'customers, loading');
    hold.release();
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/, level: 1 }));
    await expect.poll(() => loadingStatus(page).count()).toBe(0);
    await context.close();
  });

  it('a slow start shows the brand and "Loading…", then the app', async () => {
    const { page, context } = await chromium.open();
    const hold = await holdOperations(page, ['Root']);
    await page.goto('/');
    await shown(loadingStatus(page).first());
    await shown(page.getByRole('link', { name: 'fulcrum workspace' }));
    await expectAxeClean(page, 'start, loading');
    hold.release();
    await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
    await expect.poll(() => loadingStatus(page).count()).toBe(0);
    await context.close();
  });
});

describe('images keep their place while they load', () => {
  /** The box of the first element matching `selector`, rounded to the pixel. */
  async function box(page: Page, selector: string): Promise<{ width: number; height: number }> {
    const rect = await page
      .locator(selector)
      .first()
      .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    return { width: Math.round(rect.width), height: Math.round(rect.height) };
  }

  it('dashboard thumbnails and the ticket image have their size before their bytes arrive', async () => {
    const { page, context } = await chromium.open();
    // Every image request waits until release(): nothing of an image arrives before the boxes are measured.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let heldImages = 0;
    await page.route('**/images/**', async (route) => {
      heldImages += 1;
      await released;
      // The page may have moved on meanwhile (its request is gone then).
      await route.fallback().catch(() => undefined);
    });
    await demoLogin(page);
    const ticketHref = await page.locator('tr:has(img.ticket-thumb) .ticket-subject').first().getAttribute('href');
    expect(ticketHref).toBeTruthy();
    await shown(page.locator('img.ticket-thumb').first());
    expect(
      await page
        .locator('img.ticket-thumb')
        .first()
        .evaluate((el) => (el as HTMLImageElement).complete),
    ).toBe(false);
    const thumbBefore = await box(page, 'img.ticket-thumb');
    expect(thumbBefore.width).toBeGreaterThan(0);
    expect(thumbBefore.height).toBeGreaterThan(0);

    await page.locator(`a.ticket-subject[href="${ticketHref}"]`).click();
    await shown(page.getByRole('heading', { name: 'Ticket Details' }));
    const detail = '.ticket-detail-image img';
    expect(await page.locator(detail).evaluate((el) => (el as HTMLImageElement).complete)).toBe(false);
    const detailBefore = await box(page, detail);
    expect(detailBefore.height).toBeGreaterThan(0);
    expect(heldImages).toBeGreaterThan(0);

    release();
    await page.waitForFunction((selector) => {
      const image = document.querySelector<HTMLImageElement>(selector);
      return !!image && image.complete && image.naturalWidth > 0;
    }, detail);
    expect(await box(page, detail)).toEqual(detailBefore);

    await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('img.ticket-thumb');
      return !!image && image.complete && image.naturalWidth > 0;
    });
    expect(await box(page, 'img.ticket-thumb')).toEqual(thumbBefore);
    await context.close();
  });
});
