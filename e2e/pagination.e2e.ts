import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSharedPage } from './browser';
import { gone, gql, makePng, shown } from './helpers';

let page: Page;

const TOTAL = 53;
const PAGE_SIZE = 50;

/** createTicket as a GraphQL multipart request (the same shape apollo-upload-client sends). */
async function createTicketViaApi(page: Page, title: string, requesterId: number): Promise<void> {
  const operations = JSON.stringify({
    query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
    variables: { input: { title, requesterId, description: 'Made for the pagination test.' }, image: null },
  });
  // A FormData keeps the field order the spec requires (an object would put the key "0" first).
  const form = new FormData();
  form.append('operations', operations);
  form.append('map', JSON.stringify({ 0: ['variables.image'] }));
  form.append('0', new Blob([new Uint8Array(makePng(4, 4, [120, 120, 240]))], { type: 'image/png' }), 'tiny.png');
  const response = await page.request.post('/graphql', { headers: { 'Apollo-Require-Preflight': 'true' }, multipart: form });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

useSharedPage((opened) => ({ page } = opened), { signIn: false });

beforeAll(async () => {
  // A fresh agent (no seeded tickets) with exactly TOTAL tickets, set up through the API.
  const stamp = Date.now().toString(36);
  await page.goto('/');
  await gql(page, 'mutation($input: SignupInput!) { signup(input: $input) { id } }', {
    input: { email: `pages.${stamp}@example.com`, username: `pages${stamp}`, password: 'secret123' },
  });
  const { createCustomer } = await gql<{ createCustomer: { id: number } }>(page, 'mutation($input: CustomerInput!) { createCustomer(input: $input) { id } }', {
    input: { name: 'Paige Nation', email: `paige.${stamp}@example.com` },
  });
  for (let i = 1; i <= TOTAL; i++) await createTicketViaApi(page, `Paged ticket ${i}`, createCustomer.id);
});

describe('dashboard pagination', () => {
  it('counts every ticket, shows the first page, and appends the next page with "Load more"', async () => {
    await page.goto('/view/tickets/all');
    await shown(page.getByRole('heading', { name: `(${TOTAL}) Open Tickets` }));
    expect(await page.locator('tr.ticket-row').count()).toBe(PAGE_SIZE);
    expect(await page.locator('tr.ticket-row').first().innerText()).toContain(`Paged ticket ${TOTAL}`);
    await page.getByRole('button', { name: 'Load more' }).click();
    await shown(page.locator('tr.ticket-row').nth(TOTAL - 1));
    expect(await page.locator('tr.ticket-row').count()).toBe(TOTAL);
    await gone(page.locator('.load-more'));
    const titles = await page.locator('.ticket-subject').allInnerTexts();
    expect(new Set(titles).size).toBe(TOTAL); // no page twice
    expect(titles.at(-1)).toBe('Paged ticket 1');
    await shown(page.getByRole('heading', { name: `(${TOTAL}) Open Tickets` }));
  });
});
