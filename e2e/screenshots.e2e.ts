/**
 * Saves the main screens at 1440 and 1024 px under docs/screenshots/ (shown in the README).
 * Only when asked, so `npm test` leaves the working tree clean:
 *   FULCRUM_SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts e2e/screenshots.e2e.ts
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { NARROW, useBrowser, WIDE } from './browser';
import { demoLogin, gql, shown } from './helpers';

const OUT = resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const chromium = useBrowser();
beforeAll(() => {
  mkdirSync(OUT, { recursive: true });
});

async function snap(page: Page, name: string, width: number): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(OUT, `${name}-${width}.png`) });
}

describe.skipIf(!process.env.FULCRUM_SCREENSHOTS)('screenshots', () => {
  for (const viewport of [WIDE, NARROW]) {
    it(`main screens at ${viewport.width} px`, async () => {
      const { page, context, errors } = await chromium.open(viewport);
      const w = viewport.width;
      await page.goto('/');
      await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
      await page.waitForFunction(() => (document.querySelector('.landing-art img') as HTMLImageElement)?.naturalWidth > 0);
      await snap(page, 'landing', w);

      await page.goto('/login');
      await shown(page.getByRole('heading', { name: 'Log In' }));
      await snap(page, 'login', w);

      await demoLogin(page);
      // The thumbnails on screen (the others load lazily, when scrolled to).
      await page.waitForFunction(() =>
        [...document.querySelectorAll('img.ticket-thumb')]
          .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
          .every((img) => (img as HTMLImageElement).naturalWidth > 0),
      );
      await snap(page, 'dashboard', w);

      await page.getByRole('button', { name: 'Menu' }).click();
      await shown(page.getByText('Hello, Demo'));
      await snap(page, 'profile-menu', w);
      await page.keyboard.press('Escape');

      await page.locator('.ticket-subject').first().click();
      await shown(page.getByRole('heading', { name: 'Ticket Details' }));
      // A conversation to show: a note and a change, as an agent leaves them (once per run's workspace).
      const ticketId = Number(new URL(page.url()).pathname.split('/').pop());
      if (w === WIDE.width) {
        await gql(page, 'mutation($id: Int!, $b: String!) { addTicketNote(ticketId: $id, body: $b) { id } }', {
          id: ticketId,
          b: 'Checked the **Okta** admin console: SAML is on their plan. Sending the setup guide.',
        });
        await gql(page, 'mutation($id: Int!) { setTicketStatus(id: $id, status: PENDING) { id } }', { id: ticketId });
        await page.reload();
      }
      await shown(page.locator('.timeline-note'));
      await page.waitForFunction(() => (document.querySelector('.ticket-detail-image img') as HTMLImageElement)?.naturalWidth > 0);
      await snap(page, 'ticket-detail', w);

      await page.getByRole('link', { name: 'Edit' }).click();
      await shown(page.getByLabel('Title'));
      await snap(page, 'ticket-edit', w);

      await page.goto('/view/customers');
      await shown(page.getByRole('heading', { name: /Customers$/ }));
      await snap(page, 'customers', w);
      await page.locator('main').getByRole('button', { name: 'Create Customer' }).click();
      await shown(page.getByRole('dialog', { name: 'Create Customer' }));
      await snap(page, 'modal-create-customer', w);
      await page.keyboard.press('Escape');

      await page.goto('/view/macros');
      await shown(page.getByRole('heading', { name: /Macros$/ }));
      await snap(page, 'macros', w);

      await page.goto('/message/center');
      await page.locator('.conversation-picker button', { hasText: 'Marnie' }).click();
      await shown(page.locator('.conversation-header', { hasText: 'Marnie' }));
      await snap(page, 'message-center', w);

      await page.goto('/no/such/page');
      await shown(page.getByText('No route matches URL'));
      await snap(page, 'not-found', w);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
