import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSharedPage } from './browser';
import { gone, loadedImageWidth, makePng, shown, unique, pickRequester } from './helpers';

let page: Page;
let errors: string[];
useSharedPage((opened) => ({ page, errors } = opened));

async function openTicketCount(): Promise<number> {
  const text = await page.getByRole('heading', { name: /^\(\d+\) Open Tickets$/ }).innerText();
  return Number(/\((\d+)\)/.exec(text)![1]);
}

function rowFor(title: string) {
  return page.locator('tr.ticket-row', { hasText: title });
}

describe('tickets', () => {
  const title = unique('Printer on fire');
  let ticketId = 0;
  let imageUrl = '';

  it('shows every ticket validation message for a bad create, and "Loading..." only after a valid submit', async () => {
    await page.goto('/create/ticket');
    await page.getByRole('heading', { name: 'Create Ticket', level: 1 }).waitFor();
    await page.getByLabel('Description').fill('ab');
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await shown(page.getByText('Title must be between 1 and 40 characters.'));
    await shown(page.getByText('Requester is required.'));
    await shown(page.getByText('Description must be between 3 and 2000 characters.'));
    await shown(page.getByText('Image is Required'));
    expect(await page.getByRole('button', { name: 'Loading...' }).count()).toBe(0);
    expect(page.url()).toMatch(/\/create\/ticket$/);

    // The title takes at most 40 characters (maxLength); a blank one is still refused with the spec's message.
    await page.getByLabel('Title').fill('x'.repeat(41));
    expect(await page.getByLabel('Title').inputValue()).toBe('x'.repeat(40));
    await page.getByLabel('Title').fill('   ');
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await shown(page.getByText('Title must be between 1 and 40 characters.'));
  });

  it('refuses a file that is not an image: in the browser, and on the server for a fake PNG', async () => {
    await page.goto('/create/ticket');
    await page.getByLabel('Title').fill('Image check');
    await pickRequester(page);
    await page.getByLabel('Description').fill('Checking the image rules.');
    const imageError = page.getByText('Image must be a PNG, JPEG, GIF or WebP file.');
    await page.getByLabel('Image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await shown(imageError);
    // Claims to be a PNG, so only the server (which reads the bytes) can tell: its field error shows under Image.
    await page.getByLabel('Image').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('definitely not a png') });
    const answered = page.waitForResponse(
      (r) => r.url().endsWith('/graphql') && r.request().method() === 'POST' && (r.request().headers()['content-type'] ?? '').includes('multipart'),
    );
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const body = await (await answered).json();
    expect(body.errors[0].extensions.fields.image).toEqual(['Image must be a PNG, JPEG, GIF or WebP file.']);
    await shown(imageError);
    expect(page.url()).toMatch(/\/create\/ticket$/);
  });

  it('offers "Me" as the assignee of a private ticket (Demo is in no team), the defaults and "No Macro" as the first macro option', async () => {
    await page.goto('/create/ticket');
    const assignee = page.getByLabel('Assignee');
    await shown(assignee);
    // A team would be preselected if Demo were in one; the seed puts Demo in none.
    expect(await page.getByLabel('Team').locator('option:checked').innerText()).toBe('No team (private)');
    expect(await assignee.locator('option').allInnerTexts()).toEqual(['Me (Demo)']);
    expect(await page.getByLabel('Type').inputValue()).toBe('Question');
    expect(await page.getByLabel('Priority').inputValue()).toBe('Low');
    expect(await page.getByLabel('Type').locator('option').allInnerTexts()).toEqual(['Question', 'Incident', 'Problem', 'Task']);
    expect(await page.getByLabel('Priority').locator('option').allInnerTexts()).toEqual(['Low', 'Medium', 'High', 'Urgent']);
    const macro = page.getByLabel('Apply Macro');
    expect(await macro.inputValue()).toBe('1');
    expect(await macro.locator('option').first().innerText()).toBe('No Macro');
    expect(await page.getByLabel('Image').getAttribute('accept')).toBe('image/*');
  });

  it('creates a ticket with an image and shows it on the dashboard', async () => {
    await page.goto('/view/tickets/all');
    const before = await openTicketCount();
    // In-app navigation: back on the dashboard, the cached list must already hold the new ticket.
    await page.locator('main').getByRole('link', { name: 'Create Ticket' }).click();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Type').selectOption('Incident');
    await page.getByLabel('Priority').selectOption('Urgent');
    const requesterName = await pickRequester(page);
    await page.getByLabel('Description').fill('Smoke everywhere, please advise.');
    await page.getByLabel('Image').setInputFiles({ name: 'fire.png', mimeType: 'image/png', buffer: makePng(40, 30, [230, 80, 20]) });
    await shown(page.locator('.image-preview img'));
    // Hold the request back a moment so the "Loading..." state is observable however fast the server is.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      if (route.request().postDataBuffer()?.includes('CreateTicket')) await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await shown(page.getByRole('button', { name: 'Loading...' }));
    release();
    await page.waitForURL('**/view/tickets/all');
    await page.unroute('**/graphql');

    const row = rowFor(title);
    await shown(row);
    expect(await openTicketCount()).toBe(before + 1);
    expect(await row.innerText()).toContain(requesterName);
    expect(await row.innerText()).toContain('Incident');
    expect(await row.innerText()).toContain('Urgent');
    expect(await loadedImageWidth(page, `tr.ticket-row:has-text("${title}") img.ticket-thumb`)).toBe(40);
    // Newest first: the new ticket is the first row.
    expect(await page.locator('tr.ticket-row').first().innerText()).toContain(title);
    ticketId = Number((await row.locator('.ticket-id').innerText()).replace('#', ''));
    imageUrl = (await row.locator('img.ticket-thumb').getAttribute('src'))!;
    expect(imageUrl).toMatch(/^\/images\//);
  });

  it('opens the read-only detail from the dashboard row', async () => {
    await rowFor(title).locator('td').nth(2).click();
    await page.waitForURL(`**/view/ticket/${ticketId}`);
    await shown(page.getByRole('heading', { name: title }));
    await shown(page.getByText('Smoke everywhere, please advise.'));
    await shown(page.getByRole('link', { name: 'Edit' }));
    await shown(page.getByRole('button', { name: 'Delete', exact: true }));
    expect(await loadedImageWidth(page, '.ticket-detail-image img')).toBe(40);
  });

  it('edits the ticket without a new image and keeps the old one', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/edit/ticket/${ticketId}`);
    expect(await page.getByLabel('Title').inputValue()).toBe(title);
    expect(await page.getByLabel('Priority').inputValue()).toBe('Urgent');
    await page.getByLabel('Priority').selectOption('High');
    await page.getByLabel('Description').fill('Smoke is gone; the paper tray still jams.');
    await page.getByRole('button', { name: 'Save Ticket' }).click();
    await page.waitForURL(`**/view/ticket/${ticketId}`);
    await shown(page.getByText('Smoke is gone; the paper tray still jams.'));
    expect(await page.locator('.ticket-detail-image img').getAttribute('src')).toBe(imageUrl);
    expect(await loadedImageWidth(page, '.ticket-detail-image img')).toBe(40);

    // The dashboard (cached list) shows the edit without a reload.
    await page
      .getByRole('link', { name: 'Dashboard' })
      .first()
      .click()
      .catch(async () => page.goto('/view/tickets/all'));
    await page.waitForURL('**/view/tickets/all');
    const row = rowFor(title);
    await shown(row);
    expect(await row.innerText()).toContain('High');
    expect(await row.locator('img.ticket-thumb').getAttribute('src')).toBe(imageUrl);
  });

  it('replaces the image when a new one is chosen on edit', async () => {
    await page.goto(`/edit/ticket/${ticketId}`);
    await page.getByLabel('Image').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: makePng(24, 24, [20, 120, 220]) });
    await page.getByRole('button', { name: 'Save Ticket' }).click();
    await page.waitForURL(`**/view/ticket/${ticketId}`);
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('.ticket-detail-image img')?.naturalWidth === 24);
  });

  it('deletes the ticket through the confirm modal and goes to the dashboard', async () => {
    await page.goto('/view/tickets/all');
    const before = await openTicketCount();
    await rowFor(title).locator('.ticket-subject').click();
    await page.waitForURL(`**/view/ticket/${ticketId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText('Are you sure you would like to delete this ticket?'));
    // "No" closes without deleting.
    await dialog.getByRole('button', { name: 'No', exact: true }).click();
    await gone(page.getByRole('dialog'));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Ticket' }).click();
    await page.waitForURL('**/view/tickets/all');
    await shown(page.getByRole('heading', { name: `(${before - 1}) Open Tickets` }));
    expect(await rowFor(title).count()).toBe(0);
    // And it is really gone on the server.
    await page.reload();
    await shown(page.getByRole('heading', { name: `(${before - 1}) Open Tickets` }));
    expect(await rowFor(title).count()).toBe(0);
    await page.goto(`/view/ticket/${ticketId}`);
    await shown(page.getByRole('heading', { name: 'Not found' }));
  });

  it('threw no page errors', () => {
    expect(errors).toEqual([]);
  });
});
