import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSharedPage } from './browser';
import { gone, gql, makePng, shown, unique, pickRequester } from './helpers';

let page: Page;
let errors: string[];
useSharedPage((opened) => ({ page, errors } = opened));

async function macroCount(): Promise<number> {
  const text = await page.getByRole('heading', { name: /^\(\d+\) Macros$/ }).innerText();
  return Number(/\((\d+)\)/.exec(text)![1]);
}

const card = (name: string) => page.locator('article.macro-card', { hasText: name });

describe('macros', () => {
  const name = unique('Shipping delay');
  const renamed = unique('Shipping update');

  it('lists macros as cards with id, owner, name, description, Edit and Delete', async () => {
    await page.goto('/view/macros');
    await shown(page.getByRole('heading', { name: /^\(\d+\) Macros$/ }));
    expect(await page.locator('article.macro-card').count()).toBe(await macroCount());
    const noMacro = card('No Macro');
    await shown(noMacro);
    expect(await noMacro.locator('.macro-meta').textContent()).toContain('Id #1');
    await shown(noMacro.getByRole('button', { name: 'Edit No Macro' }));
    await shown(noMacro.getByRole('button', { name: 'Delete No Macro' }));
    // The seeded replies send customers to nothing Fulcrum does not have (there is no "Forgot password" here).
    expect(await page.locator('article.macro-card', { hasText: 'Password reset' }).textContent()).not.toMatch(/forgot password/i);
  });

  it('validates the create form: hint and disabled submit until both are filled, then the rules', async () => {
    // Opened from the navigation bar this time.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Create Macro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Macro' });
    await shown(dialog);
    await shown(dialog.getByText('Please provide name and description.'));
    const submit = dialog.getByRole('button', { name: 'Create Macro' });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('A');
    // The description takes at most 2000 characters (maxLength), with a counter; the name's rule still speaks.
    await dialog.getByLabel('Description').fill('x'.repeat(2001));
    expect((await dialog.getByLabel('Description').inputValue()).length).toBe(2000);
    await shown(dialog.getByText('2,000 / 2,000 characters'));
    await submit.click();
    await shown(dialog.getByText('Name must be between 2 and 50 characters.'));
    expect(await dialog.getByText('Description must be between 1 and 2000 characters.').count()).toBe(0);
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
  });

  it('creates a macro through the modal; the list and the ticket form update without a reload', async () => {
    const before = await macroCount();
    await page.locator('main').getByRole('button', { name: 'Create Macro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Macro' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('Your parcel is delayed by a day. Sorry!');
    await dialog.getByRole('button', { name: 'Create Macro' }).click();
    await gone(page.getByRole('dialog'));
    await shown(page.getByRole('heading', { name: `(${before + 1}) Macros` }));
    await shown(card(name));
    expect(await card(name).locator('.macro-meta').textContent()).toContain('User #1');

    await page.goto('/create/ticket');
    await shown(page.getByLabel('Apply Macro'));
    const options = await page.getByLabel('Apply Macro').locator('option').allInnerTexts();
    expect(options[0]).toBe('No Macro');
    expect(options).toContain(name);
  });

  it('edits the macro through the "Edit Macro" modal', async () => {
    await page.goto('/view/macros');
    await card(name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit Macro' });
    await shown(dialog);
    expect(await dialog.getByLabel('Name').inputValue()).toBe(name);
    await dialog.getByLabel('Name').fill(renamed);
    await dialog.getByRole('button', { name: 'Save Macro' }).click();
    await gone(page.getByRole('dialog'));
    await shown(card(renamed));
    expect(await card(name).count()).toBe(0);
  });

  it('deletes the macro through the confirm modal; its tickets fall back to "No Macro"', async () => {
    // A ticket that uses the macro, made through the ticket form.
    const title = unique('Uses macro');
    await page.goto('/create/ticket');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Apply Macro').selectOption({ label: renamed });
    await pickRequester(page);
    await page.getByLabel('Description').fill('Please apply the macro.');
    await page.getByLabel('Image').setInputFiles({ name: 'm.png', mimeType: 'image/png', buffer: makePng(8, 8, [0, 160, 90]) });
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await page.waitForURL('**/view/tickets/all');
    await page.locator('tr.ticket-row', { hasText: title }).locator('.ticket-subject').click();
    await page.waitForURL('**/view/ticket/*');
    const ticketUrl = page.url();
    await shown(page.locator('.detail-list').getByText(renamed));

    // In-app navigation from here on: the cache (not a reload) must reflect the delete.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Macros' }).click();
    await page.waitForURL('**/view/macros');
    const before = await macroCount();
    await card(renamed)
      .getByRole('button', { name: `Delete ${renamed}` })
      .click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText('Are you sure you would like to delete this Macro?'));
    await shown(dialog.getByRole('button', { name: 'No', exact: true }));
    await dialog.getByRole('button', { name: 'Delete Macro' }).click();
    await gone(page.getByRole('dialog'));
    await shown(page.getByRole('heading', { name: `(${before - 1}) Macros` }));
    expect(await card(renamed).count()).toBe(0);
    // The cached ticket was moved to macro 1 by the mutation result (no reload), and the server agrees.
    await page.goBack();
    await page.waitForURL(ticketUrl);
    await shown(page.locator('.detail-list').getByText('No Macro'));
    await page.reload();
    await shown(page.locator('.detail-list').getByText('No Macro'));
  });

  it('macro 1: Edit and Delete are disabled with "This Option Is Permanent" shown; the server refuses both all the same', async () => {
    await page.goto('/view/macros');
    const noMacro = card('No Macro');
    for (const name of ['Edit No Macro', 'Delete No Macro']) {
      const button = noMacro.getByRole('button', { name });
      expect(await button.isDisabled()).toBe(true);
      // The reason is on screen and is the button's description for screen readers.
      const reasonId = await button.getAttribute('aria-describedby');
      expect(await page.locator(`#${reasonId}`).innerText()).toBe('This Option Is Permanent');
    }
    await shown(noMacro.getByText('This Option Is Permanent'));
    // A client that skips the page (or an old tab) gets the same answer from the server.
    await expect(gql(page, 'mutation { updateMacro(id: 1, input: { name: "Some Macro", description: "x" }) { id } }')).rejects.toThrow(
      'This Option Is Permanent',
    );
    await expect(gql(page, 'mutation { deleteMacro(id: 1) { id } }')).rejects.toThrow('This Option Is Permanent');
    await page.reload();
    await shown(card('No Macro'));
  });

  it('creates a macro on the macro/create page and goes to the dashboard', async () => {
    await page.goto('/macro/create');
    await page.getByLabel('Name').fill(unique('Page macro'));
    await page.getByLabel('Description').fill('Made on the page.');
    await page.locator('main').getByRole('button', { name: 'Create Macro' }).click();
    await page.waitForURL('**/view/tickets/all');
  });

  it('threw no page errors', () => {
    expect(errors).toEqual([]);
  });
});
