import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSharedPage } from './browser';
import { gone, shown, unique, pickRequester } from './helpers';

let page: Page;
let errors: string[];
useSharedPage((opened) => ({ page, errors } = opened));

/** The directory is paged (50 at a time, newest first; other files add customers): load every page. */
async function loadAllCustomers(): Promise<void> {
  const more = page.getByRole('button', { name: 'Load more customers' });
  while ((await more.count()) > 0) {
    const before = await page.locator('tbody tr').count();
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('tbody tr').length > n, before);
  }
}

async function customerCount(): Promise<number> {
  const text = await page.getByRole('heading', { name: /^\(\d+\) Customers$/ }).innerText();
  return Number(/\((\d+)\)/.exec(text)![1]);
}

describe('customers', () => {
  const name = unique('Wanda Maximoff');
  const email = `wanda.${Date.now()}@example.com`;
  const renamed = unique('Wanda Vision');

  it('lists customers with the spec columns', async () => {
    await page.goto('/view/customers');
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/ }));
    const headers = (await page.locator('thead th').allInnerTexts()).map((text) => text.toLowerCase());
    expect(headers).toEqual(['id #', 'assignee #', 'name', 'email', 'options']);
    expect(await page.locator('tbody tr').count()).toBe(Math.min(await customerCount(), 50)); // the first page
    await loadAllCustomers();
    expect(await page.locator('tbody tr').count()).toBe(await customerCount());
    // Shared directory: another agent's customer cannot be changed from here.
    const othersRow = page
      .locator('tbody tr')
      .filter({ has: page.locator('td:nth-child(2)', { hasText: /^Assignee #\s*2$/i }) })
      .first();
    await shown(othersRow);
    expect(await othersRow.getByRole('button', { name: /^Edit / }).isDisabled()).toBe(true);
    expect(await othersRow.getByRole('button', { name: /^Delete / }).isDisabled()).toBe(true);
  });

  it('keeps Create disabled with the hint until both fields are filled, then validates', async () => {
    await page.getByRole('button', { name: 'Create Customer' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Customer' });
    await shown(dialog);
    // Focus moved into the modal.
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    const submit = dialog.getByRole('button', { name: 'Create Customer' });
    await shown(dialog.getByText('Please provide name and email.'));
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('W');
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Email').fill('not-an-email');
    expect(await submit.isDisabled()).toBe(false);
    expect(await dialog.getByText('Please provide name and email.').count()).toBe(0);
    await submit.click();
    await shown(dialog.getByText('Name must be between 2 and 50 characters.'));
    await shown(dialog.getByText('Please provide a valid email'));
    // Esc closes the modal.
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
  });

  it('refuses an email that already exists ("Email Already Exists")', async () => {
    const taken = await page.locator('tbody tr').first().locator('td').nth(3).innerText();
    await page.getByRole('button', { name: 'Create Customer' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Customer' });
    await dialog.getByLabel('Name').fill('Someone Else');
    await dialog.getByLabel('Email').fill(taken.replace(/^Email\s*/i, '').trim());
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await shown(dialog.getByText('Email Already Exists'));
    await dialog.getByRole('button', { name: 'Close' }).click();
    await gone(page.getByRole('dialog'));
  });

  it('creates a customer through the modal; the list updates without a reload', async () => {
    const before = await customerCount();
    await page.getByRole('button', { name: 'Create Customer' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Customer' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await gone(page.getByRole('dialog'));
    await shown(page.getByRole('heading', { name: `(${before + 1}) Customers` }));
    const row = page.locator('tbody tr', { hasText: email });
    await shown(row);
    expect(await row.innerText()).toContain(name);
    expect(await row.locator('td').nth(1).innerText()).toContain('1'); // owner: the demo user, id 1

    // The new customer is found by the ticket form's requester search at once.
    await page.goto('/create/ticket');
    expect(await pickRequester(page, email)).toBe(name);
    expect(await page.getByRole('combobox', { name: 'Requester' }).inputValue()).toBe(`${name} (${email})`);
    await page.goto('/view/customers');
    await shown(page.getByRole('heading', { name: /^\(\d+\) Customers$/ }));
  });

  it('edits the customer through the "Edit Customer" modal', async () => {
    const row = page.locator('tbody tr', { hasText: email });
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Customer' });
    await shown(dialog);
    expect(await dialog.getByLabel('Name').inputValue()).toBe(name);
    expect(await dialog.getByLabel('Email').inputValue()).toBe(email);
    await dialog.getByLabel('Name').fill('');
    await shown(dialog.getByText('Please provide name and email.'));
    expect(await dialog.getByRole('button', { name: 'Save Customer' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill(renamed);
    await dialog.getByRole('button', { name: 'Save Customer' }).click();
    await gone(page.getByRole('dialog'));
    await shown(page.locator('tbody tr', { hasText: renamed }));
    await page.reload();
    await shown(page.locator('tbody tr', { hasText: renamed }));
  });

  it('deletes the customer through the confirm modal', async () => {
    const before = await customerCount();
    const row = page.locator('tbody tr', { hasText: email });
    await row.getByRole('button', { name: `Delete ${renamed}` }).click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText('Are you sure you would like to delete this customer?'));
    await shown(dialog.getByRole('button', { name: 'No', exact: true }));
    await dialog.getByRole('button', { name: 'Delete Customer' }).click();
    await gone(page.getByRole('dialog'));
    await shown(page.getByRole('heading', { name: `(${before - 1}) Customers` }));
    expect(await page.locator('tbody tr', { hasText: email }).count()).toBe(0);
    await page.reload();
    await shown(page.getByRole('heading', { name: `(${before - 1}) Customers` }));
  });

  it('shows the refusal when the customer is still the requester of tickets', async () => {
    // Ada Lovelace requests a seeded ticket of the demo account.
    await loadAllCustomers();
    const row = page.locator('tbody tr', { hasText: 'Ada Lovelace' });
    await row.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete Customer' }).click();
    await shown(dialog.getByRole('alert'));
    expect(await dialog.getByRole('alert').innerText()).toMatch(/ticket/i);
    await dialog.getByRole('button', { name: 'No', exact: true }).click();
    await shown(page.locator('tbody tr', { hasText: 'Ada Lovelace' }));
  });

  it('creates a customer on the customer/create page and goes to the dashboard', async () => {
    await page.goto('/customer/create');
    await page.getByLabel('Name').fill(unique('Page Customer'));
    await page.getByLabel('Email').fill(`page.${Date.now()}@example.com`);
    await page.locator('main').getByRole('button', { name: 'Create Customer' }).click();
    await page.waitForURL('**/view/tickets/all');
  });

  it('threw no page errors', () => {
    expect(errors).toEqual([]);
  });
});
