/**
 * Accessibility: axe-core on every screen of SPEC section 2, signed out and signed in, at 1440 and
 * 1024 px, with every modal, the profile menu, form errors and the message center's edit and delete states
 * open. WCAG 2.1 A and AA: 0 serious or critical violations. The figures per screen are printed at the end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, blocking, type AxeViolation } from './axe';
import { NARROW, useBrowser, WIDE, type Viewport } from './browser';
import { createOwnRecords, demoLogin, gone, gql, shown } from './helpers';

const chromium = useBrowser();

interface Scan {
  width: number;
  screen: string;
  violations: AxeViolation[];
}
const scans: Scan[] = [];

/** Scans the page as it is now and records the result under `screen`. */
async function scan(page: Page, screen: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  scans.push({ width, screen, violations: await axeViolations(page) });
}

/** Everything serious or critical the scans of one width found, readable in a failure message. */
function failuresAt(width: number): string[] {
  return scans
    .filter((entry) => entry.width === width)
    .flatMap((entry) => blocking(entry.violations).map((v) => `${entry.screen}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.join('\n    ')}`));
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

async function closeDialog(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Escape');
  await gone(dialog(page, name));
}

async function openMenu(page: Page): Promise<void> {
  await page.locator('.menu-button').click();
  await shown(page.locator('.menu-dropdown'));
}

async function signedOutScreens(page: Page): Promise<void> {
  await page.goto('/');
  await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
  await scan(page, 'landing');
  await openMenu(page);
  await scan(page, 'profile menu');
  await page.locator('.menu-dropdown').getByRole('button', { name: 'Log In' }).click();
  await shown(dialog(page, 'Log In'));
  await scan(page, 'Log In modal');
  await dialog(page, 'Log In').getByRole('button', { name: 'Log In', exact: true }).click();
  await shown(dialog(page, 'Log In').locator('.field-errors').first());
  await scan(page, 'Log In modal, errors');
  await dialog(page, 'Log In').getByRole('button', { name: 'Sign Up' }).click();
  await shown(dialog(page, 'Sign Up'));
  await scan(page, 'Sign Up modal');
  await closeDialog(page, 'Sign Up');

  await page.goto('/login');
  await shown(page.getByRole('heading', { name: 'Log In' }));
  await scan(page, 'login');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong-password');
  await page.locator('main').getByRole('button', { name: 'Log In', exact: true }).click();
  await shown(page.getByText('Email or password is incorrect.'));
  await scan(page, 'login, server error');

  await page.goto('/signup');
  await shown(page.getByRole('heading', { name: 'Sign Up' }));
  await scan(page, 'signup');
  await page.locator('main').getByRole('button', { name: 'Sign Up' }).click();
  await shown(page.locator('.field-errors').first());
  await scan(page, 'signup, errors');

  await page.goto('/view/tickets/all');
  await shown(page.getByRole('heading', { name: 'Sign in to continue' }));
  await scan(page, 'sign-in prompt');

  await page.goto('/no/such/route');
  await shown(page.getByRole('heading', { name: 'Unexpected Application Error!' }));
  await scan(page, '404');
}

async function signedInScreens(page: Page, viewport: Viewport): Promise<void> {
  await demoLogin(page);
  const own = await createOwnRecords(page, 'Axe');
  await gql(page, 'mutation { sendMessage(receiverId: 2, text: "Checking accessibility") { id } }');

  await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));
  await scan(page, 'dashboard');
  await openMenu(page);
  await scan(page, 'profile menu');
  await page.keyboard.press('Escape');

  await page.goto('/');
  await shown(page.getByRole('link', { name: 'Open Dashboard' }));
  await scan(page, 'landing');

  await page.goto('/create/ticket');
  await shown(page.getByRole('heading', { name: 'Create Ticket' }));
  await scan(page, 'create ticket');
  await page.locator('main').getByRole('button', { name: 'Create Ticket' }).click();
  await shown(page.getByText('Image is Required'));
  await scan(page, 'create ticket, errors');

  await page.goto('/view/tickets/all');
  const firstTicket = page.locator('tr.ticket-row a.ticket-subject').first();
  await shown(firstTicket);
  const href = await firstTicket.getAttribute('href');
  await page.goto(href!);
  await shown(page.getByRole('heading', { name: 'Ticket Details' }));
  await scan(page, 'view ticket');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await shown(dialog(page, 'Delete Ticket'));
  await scan(page, 'Delete Ticket modal');
  await closeDialog(page, 'Delete Ticket');
  await page.goto(href!.replace('/view/', '/edit/'));
  await shown(page.getByRole('heading', { name: /^Edit Ticket #/ }));
  await scan(page, 'edit ticket');
  await page.goto('/view/ticket/999999999');
  await shown(page.getByRole('heading', { name: 'Not found' }));
  await scan(page, 'ticket not found');

  // The two list screens and their modals (Create from the page's button, Edit and Delete from a row of Demo's).
  for (const { noun, path, record } of [
    { noun: 'Customer', path: '/view/customers', record: own.customer },
    { noun: 'Macro', path: '/view/macros', record: own.macro },
  ]) {
    await page.goto(path);
    await shown(page.getByRole('heading', { name: new RegExp(`^\\(\\d+\\) ${noun}s$`) }));
    await scan(page, `${noun.toLowerCase()}s`);
    await page
      .locator('main')
      .getByRole('button', { name: `Create ${noun}` })
      .click();
    await shown(dialog(page, `Create ${noun}`));
    await scan(page, `Create ${noun} modal`);
    await closeDialog(page, `Create ${noun}`);
    await page.getByRole('button', { name: `Edit ${record}` }).click();
    const edit = dialog(page, `Edit ${noun}`);
    await shown(edit);
    await scan(page, `Edit ${noun} modal`);
    await edit.getByLabel('Name').fill('x');
    await edit.getByRole('button', { name: `Save ${noun}` }).click();
    await shown(edit.locator('.field-errors').first());
    await scan(page, `Edit ${noun} modal, errors`);
    await closeDialog(page, `Edit ${noun}`);
    await page.getByRole('button', { name: `Delete ${record}` }).click();
    await shown(dialog(page, `Delete ${noun}`));
    await scan(page, `Delete ${noun} modal`);
    await closeDialog(page, `Delete ${noun}`);
  }

  await page.goto('/customer/create');
  await shown(page.getByRole('heading', { name: 'Create Customer' }));
  await scan(page, 'create customer page');
  await page.goto('/macro/create');
  await shown(page.getByRole('heading', { name: 'Create Macro' }));
  await scan(page, 'create macro page');

  await page.goto('/message/center');
  await shown(page.getByRole('heading', { name: 'Message Center' }));
  await page
    .locator('.conversation-picker')
    .getByRole('button', { name: /Marnie/ })
    .click();
  const mine = page.locator('.message-mine', { hasText: 'Checking accessibility' }).last();
  await shown(mine);
  await scan(page, 'message center');
  await mine.getByRole('button', { name: 'Edit' }).click();
  await shown(page.getByRole('button', { name: 'Save' }));
  await scan(page, 'message center, editing');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await mine.getByRole('button', { name: 'Delete' }).click();
  await shown(page.getByRole('button', { name: 'Yes Delete?' }));
  await scan(page, 'message center, confirming delete');
  await page.getByRole('button', { name: 'NO! Cancel!' }).click();

  // The nav bar (1400 px and wider) opens the Message Center modal; narrower screens link to the page, so there
  // the modal is opened wide and the window then narrowed.
  await page.goto('/view/tickets/all');
  await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));
  if (viewport.width < 1400) await page.setViewportSize(WIDE);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /Message Center/ })
    .click();
  await shown(dialog(page, 'Message Center'));
  await page.setViewportSize(viewport);
  await shown(dialog(page, 'Message Center').getByRole('button', { name: 'Send' }));
  await scan(page, 'Message Center modal');
  await closeDialog(page, 'Message Center');
}

for (const viewport of [WIDE, NARROW]) {
  describe(`axe, WCAG 2.1 AA, at ${viewport.width} px`, () => {
    it('signed out: landing, menu, Log In and Sign Up (modal and page, with errors), sign-in prompt, 404', async () => {
      const { page, context } = await chromium.open(viewport);
      await signedOutScreens(page);
      await context.close();
    });

    it('signed in: every route, the menu, every modal, form errors and message states', async () => {
      const { page, context } = await chromium.open(viewport);
      await signedInScreens(page, viewport);
      await context.close();
    });

    it('finds 0 serious or critical violations', () => {
      expect(scans.filter((entry) => entry.width === viewport.width).length).toBeGreaterThan(20);
      expect(failuresAt(viewport.width)).toEqual([]);
    });
  });
}

afterAll(() => {
  // The figures: violations per screen and width, by impact (minor and moderate are reported, not failed).
  const rows = scans.map(({ width, screen, violations }) => {
    const count = (impact: string) => violations.filter((v) => v.impact === impact).length;
    const ids = violations.map((v) => `${v.id}(${v.impact})`).join(' ');
    return `${String(width).padEnd(5)} ${screen.padEnd(36)} critical ${count('critical')}  serious ${count('serious')}  moderate ${count('moderate')}  minor ${count('minor')}  ${ids}`;
  });
  console.log(`axe-core, WCAG 2.1 A+AA: ${scans.length} scans\n${rows.join('\n')}`);
});
