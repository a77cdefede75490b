/**
 * API tokens in the web app: reached from the profile menu, a token is created with a name, access and
 * lifetime, its secret is shown once with a copy button, and the secret then lists tickets through a plain HTTP
 * request outside the browser; revoking it (with a confirmation) refuses the next request.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, blocking } from './axe';
import { useSharedPage } from './browser';
import { baseURL, gone, shown, unique } from './helpers';

let page: Page;
let errors: string[];
useSharedPage((opened) => ({ page, errors } = opened));

const listTickets = (secret: string) =>
  fetch(`${baseURL()}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ tickets(first: 10) { totalCount nodes { id title } } }' }),
  });

describe('API tokens page', () => {
  const name = unique('Nightly export');
  let secret = '';

  it('is reached from the profile menu and validates the form with the shared messages', async () => {
    await page.goto('/view/tickets/all');
    await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'API Tokens' }).click();
    await shown(page.getByRole('heading', { name: 'API Tokens', level: 1 }));
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Expires after (days)').fill('400');
    await form.getByRole('button', { name: 'Create token' }).click();
    await shown(form.getByText('Name must be between 1 and 50 characters.'));
    await shown(form.getByText('Expiry must be a whole number of days from 1 to 366.'));
    expect(blocking(await axeViolations(page))).toEqual([]);
  });

  it('creates a token and shows its secret once, with a copy button; the secret lists tickets over HTTP', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel(/Read \(READ\)/).check();
    await form.getByLabel('Expires after (days)').fill('30');
    await form.getByRole('button', { name: 'Create token' }).click();
    const shownSecret = page.getByRole('textbox', { name: 'New token' });
    await shown(shownSecret);
    secret = await shownSecret.inputValue();
    expect(secret).toMatch(/^fulcrum_pat_[0-9A-Za-z]{38}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await shown(page.getByRole('status').getByText(/Copied|Could not copy/));
    // The list has the new token by name and hint, never its secret.
    const row = page.getByRole('row', { name: new RegExp(name) });
    await shown(row);
    expect(await row.innerText()).toContain(secret.slice(-4));
    expect(await page.locator('table').innerText()).not.toContain(secret);
    expect(blocking(await axeViolations(page))).toEqual([]);

    // Outside the browser: a plain HTTP request with the token lists the agent's tickets.
    const res = await listTickets(secret);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { tickets: { totalCount: number; nodes: unknown[] } } };
    expect(body.data.tickets.totalCount).toBeGreaterThan(0);
    expect(body.data.tickets.nodes.length).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);

    // Done: the secret is gone from the page for good.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await gone(page.getByRole('textbox', { name: 'New token' }));
    expect(await page.content()).not.toContain(secret);
  });

  it('revokes the token after a confirmation; the next request with it is refused', async () => {
    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Token' });
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Revoke Token' }).click();
    await gone(dialog);
    await gone(page.getByRole('row', { name: new RegExp(name) }));
    const res = await listTickets(secret);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(errors).toEqual([]);
  });
});
