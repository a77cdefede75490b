/**
 * Keyboard only: sign in, create a ticket with an image, send a message, and open and close every modal,
 * with Tab, Shift+Tab, Enter, arrows and Esc; no clicks. Every Tab stop must show the focus ring, and a closed
 * modal gives focus back to the control that opened it. The one exception is the file chooser: the test focuses
 * the file input by keyboard and hands it the file (playwright's setInputFiles), as the OS dialog would.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useBrowser, WIDE } from './browser';
import { createOwnRecords, DEMO, demoLogin, gone, makePng, shown, unique } from './helpers';

const chromium = useBrowser();

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** The focused element, described for a failure message, and whether it shows an outline (the focus ring). */
function focusRing(page: Page): Promise<{ what: string; ring: boolean } | null> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    return { what: el.outerHTML.slice(0, 100), ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
  });
}

/** Presses Tab (or Shift+Tab) until `target` has focus; every stop on the way must show the focus ring. */
async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focused = await focusRing(page);
    if (focused) expect(focused.ring, `no focus ring on ${focused.what}`).toBe(true);
    if (await isFocused(target)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Enter on `opener` (reached by Tab) opens the modal `name`; Esc (or `close`) closes it; focus is back on `opener`. */
async function modalRoundTrip(page: Page, opener: Locator, name: string, close: string = 'Escape'): Promise<void> {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name });
  await shown(dialog);
  await page.waitForFunction(() => document.activeElement?.closest('dialog') != null);
  if (close === 'Escape') {
    await page.keyboard.press('Escape');
  } else {
    await tabTo(page, dialog.getByRole('button', { name: close, exact: true }));
    await page.keyboard.press('Enter');
  }
  await gone(dialog);
  expect(await isFocused(opener), `focus back on the opener of ${name}`).toBe(true);
}

describe('keyboard only at 1440 px', () => {
  it('signs in from the menu through the Log In modal', async () => {
    const { page, context } = await chromium.open(WIDE);
    await page.goto('/');
    await shown(page.getByRole('heading', { name: 'Balance Your Work' }));
    await tabTo(page, page.getByRole('button', { name: 'Sign In' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.locator('.menu-dropdown').getByRole('button', { name: 'Log In' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Log In' });
    await shown(dialog);
    // Focus moved into the modal, on its first field.
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'email');
    await page.keyboard.type(DEMO.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/view/tickets/all');
    await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));
    await context.close();
  });

  it('creates a ticket with an image, then sends a message from the Message Center modal', async () => {
    const { page, context } = await chromium.open(WIDE);
    await demoLogin(page);
    const title = unique('Keyboard ticket');

    await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Ticket' }));
    await page.keyboard.press('Enter');
    await shown(page.getByRole('heading', { name: 'Create Ticket' }));
    await tabTo(page, page.getByLabel('Title'));
    await page.keyboard.type(title);
    // The requester is a combobox that searches customers on the server: open it, wait for the options, pick one.
    const requester = page.getByRole('combobox', { name: 'Requester' });
    await tabTo(page, requester);
    await page.keyboard.press('ArrowDown');
    await page.getByRole('listbox', { name: 'Requester' }).getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => requester.inputValue()).not.toBe('');
    await tabTo(page, page.getByLabel('Description'));
    await page.keyboard.type('Filed without touching the mouse.');
    await tabTo(page, page.getByLabel('Image'));
    await page.locator(':focus').setInputFiles({ name: 'keyboard.png', mimeType: 'image/png', buffer: makePng(24, 24, [30, 160, 90]) });
    await shown(page.locator('.image-preview img'));
    await tabTo(page, page.locator('main').getByRole('button', { name: 'Create Ticket' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/view/tickets/all');
    await shown(page.locator('tr.ticket-row', { hasText: title }));

    const text = unique('Sent by keyboard');
    const opener = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Message Center/ });
    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Message Center' });
    await shown(dialog);
    const composer = dialog.locator('.composer textarea');
    await shown(composer);
    await tabTo(page, composer);
    await page.keyboard.type(text);
    await tabTo(page, dialog.getByRole('button', { name: 'Send' }));
    await page.keyboard.press('Enter');
    await shown(dialog.locator('.message-mine', { hasText: text }));
    await page.keyboard.press('Escape');
    await gone(dialog);
    expect(await isFocused(opener)).toBe(true);
    await context.close();
  });

  it('opens and closes every modal signed out; focus returns to the menu button', async () => {
    const { page, context } = await chromium.open(WIDE);
    await page.goto('/');
    const menuButton = page.getByRole('button', { name: 'Sign In' });
    await shown(menuButton);
    for (const [item, name] of [
      ['Log In', 'Log In'],
      ['Sign Up', 'Sign Up'],
    ]) {
      await tabTo(page, menuButton);
      await page.keyboard.press('Enter');
      await tabTo(page, page.locator('.menu-dropdown').getByRole('button', { name: item }));
      await page.keyboard.press('Enter');
      await shown(page.getByRole('dialog', { name }));
      await page.keyboard.press('Escape');
      await gone(page.getByRole('dialog', { name }));
      expect(await isFocused(menuButton), `focus back on the menu button after ${name}`).toBe(true);
    }
    // Esc in the open menu closes it and keeps focus on its button.
    await page.keyboard.press('Enter');
    await tabTo(page, page.locator('.menu-dropdown').getByRole('button', { name: 'Sign Up' }));
    await page.keyboard.press('Escape');
    await gone(page.locator('.menu-dropdown'));
    expect(await isFocused(menuButton)).toBe(true);
    await context.close();
  });

  it('opens and closes every modal signed in; focus returns to its opener', async () => {
    const { page, context } = await chromium.open(WIDE);
    await demoLogin(page);
    const own = await createOwnRecords(page, 'Kb');
    await page.reload();
    await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));

    const nav = page.getByRole('navigation', { name: 'Main' });
    await modalRoundTrip(page, nav.getByRole('button', { name: 'Create Customer' }), 'Create Customer');
    await modalRoundTrip(page, nav.getByRole('button', { name: 'Create Macro' }), 'Create Macro', 'Cancel');
    await modalRoundTrip(page, nav.getByRole('button', { name: /Message Center/ }), 'Message Center', 'Close');

    // A ticket's Delete confirm: "No" has focus, Enter closes.
    await tabTo(page, page.locator('tr.ticket-row a.ticket-subject').first());
    await page.keyboard.press('Enter');
    await shown(page.getByRole('heading', { name: 'Ticket Details' }));
    const deleteTicket = page.locator('main').getByRole('button', { name: 'Delete', exact: true });
    await tabTo(page, deleteTicket);
    await page.keyboard.press('Enter');
    await shown(page.getByRole('dialog', { name: 'Delete Ticket' }));
    expect(await isFocused(page.getByRole('dialog').getByRole('button', { name: 'No' }))).toBe(true);
    await page.keyboard.press('Enter');
    await gone(page.getByRole('dialog'));
    expect(await isFocused(deleteTicket)).toBe(true);

    for (const { noun, list, record } of [
      { noun: 'Customer', list: 'Customers', record: own.customer },
      { noun: 'Macro', list: 'Macros', record: own.macro },
    ]) {
      await tabTo(page, nav.getByRole('link', { name: list }), { back: true });
      await page.keyboard.press('Enter');
      await shown(page.getByRole('heading', { name: new RegExp(`^\\(\\d+\\) ${list}$`) }));
      await modalRoundTrip(page, page.locator('main').getByRole('button', { name: `Create ${noun}` }), `Create ${noun}`);
      await modalRoundTrip(page, page.getByRole('button', { name: `Edit ${record}` }), `Edit ${noun}`, 'Cancel');
      await modalRoundTrip(page, page.getByRole('button', { name: `Delete ${record}` }), `Delete ${noun}`, 'No');
    }
    await context.close();
  });
});
