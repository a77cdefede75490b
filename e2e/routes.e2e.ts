import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { demoLogin, shown } from './helpers';

const chromium = useBrowser();

describe('routes signed out', () => {
  it('renders the landing page with its name, headline, tagline, Demo Login, hero image and footer', async () => {
    const { page, context, errors } = await chromium.open();
    await page.goto('/');
    await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
    const wordmark = page.locator('.landing-wordmark');
    expect(await wordmark.locator('.landing-name').innerText()).toBe('fulcrum');
    expect((await wordmark.locator('.landing-subtitle').textContent())?.trim()).toBe('workspace');
    expect(await page.locator('.landing-tagline').innerText()).toMatch(/\w+/);
    await shown(page.getByRole('button', { name: 'Demo Login' }));
    const hero = page.locator('.landing-art img');
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await hero.elementHandle());
    const footer = page.locator('footer.landing-footer');
    await shown(footer.getByText('Fulcrum', { exact: true }));
    const links = footer.getByRole('link');
    expect(await links.count()).toBe(2);
    for (const href of await links.evaluateAll((els) => els.map((el) => (el as HTMLAnchorElement).href))) {
      expect(href).toMatch(/^https:\/\//);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('renders the full-page Log In and Sign Up', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/login');
    await shown(page.getByRole('heading', { name: 'Log In' }));
    await shown(page.getByLabel('Email'));
    await shown(page.getByLabel('Password'));
    await page.goto('/signup');
    await shown(page.getByRole('heading', { name: 'Sign Up' }));
    for (const label of ['Email', 'Username', 'Password', 'Confirm Password']) {
      await shown(page.getByLabel(label, { exact: true }));
    }
    await context.close();
  });

  it('shows "Unexpected Application Error!" and "No route matches URL" for an unknown route', async () => {
    const { page, context } = await chromium.open();
    const response = await page.goto('/no/such/screen');
    expect(response?.status()).toBe(200); // the SPA fallback serves the app; the router shows the 404
    await shown(page.getByRole('heading', { name: 'Unexpected Application Error!' }));
    await shown(page.getByText('404').first());
    await shown(page.getByText('No route matches URL "/no/such/screen"'));
    await context.close();
  });

  it('asks a signed-out visitor to sign in on a workspace screen', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/view/tickets/all');
    await shown(page.getByRole('heading', { name: 'Sign in to continue' }));
    expect(await page.getByRole('heading', { name: /Open Tickets/ }).count()).toBe(0);
    await context.close();
  });
});

describe('routes signed in', () => {
  it('renders every route of SPEC section 2 with its own heading', async () => {
    const { page, context, errors } = await chromium.open();
    await demoLogin(page);
    const firstTicketHref = await page.locator('.ticket-subject').first().getAttribute('href');
    const ticketId = Number(firstTicketHref?.split('/').pop());
    expect(ticketId).toBeGreaterThan(0);
    const subject = await page.locator('.ticket-subject').first().innerText();

    const screens: [string, string | RegExp][] = [
      ['/view/tickets/all', 'Dashboard'],
      ['/create/ticket', 'Create Ticket'],
      // The ticket's page is headed by its subject (its properties by "Ticket Details").
      [`/view/ticket/${ticketId}`, subject],
      [`/edit/ticket/${ticketId}`, `Edit Ticket #${ticketId}`],
      ['/customer/create', 'Create Customer'],
      ['/macro/create', 'Create Macro'],
      ['/view/customers', /^\(\d+\) Customers$/],
      ['/view/macros', /^\(\d+\) Macros$/],
      ['/message/center', 'Message Center'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    // The dashboard's second heading, and the edit form filled from the ticket.
    await page.goto(`/edit/ticket/${ticketId}`);
    expect(await page.getByLabel('Title').inputValue()).not.toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('redirects a signed-in agent from login and signup to /', async () => {
    const { page, context } = await chromium.open();
    await demoLogin(page);
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
      await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
    }
    await context.close();
  });
});
