/**
 * The customers and macros pages load more on demand (a keyboard-operable button, a visible count and a busy
 * state), and the ticket form's requester picker searches customers on the server as the agent types.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './browser';
import { gone, gql, shown } from './helpers';

const chromium = useBrowser();
const stamp = Date.now().toString(36);

/** A fresh agent (no macros of their own) signed in on a fresh page. */
async function freshAgent(): Promise<Page> {
  const { page } = await chromium.open();
  await page.goto('/');
  await gql(page, 'mutation($input: SignupInput!) { signup(input: $input) { id } }', {
    input: {
      email: `paging.${stamp}.${Math.random().toString(36).slice(2, 7)}@example.com`,
      username: `pg${Math.random().toString(36).slice(2, 10)}`,
      password: 'secret123',
    },
  });
  return page;
}

/**
 * Watches the page for the busy "Load more" button from now on: true once the focused element has read "Loading..."
 * with aria-busy. A MutationObserver sees every commit React makes, and its callback runs before any network answer
 * can be handled, so the busy state cannot be missed however fast the page arrives. (The test used to hold the
 * request in a page.route and look while it was held; CI runs, 1 in many, saw the page load with no request reaching
 * the route or the page's request events, and the busy state was over before it was looked at.)
 */
async function watchBusy(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const watched = window as unknown as { busySeen?: boolean; busyObserver?: MutationObserver };
    watched.busyObserver?.disconnect();
    watched.busySeen = false;
    watched.busyObserver = new MutationObserver(() => {
      const focused = document.activeElement;
      if (focused?.textContent === 'Loading...' && focused.getAttribute('aria-busy') === 'true') watched.busySeen = true;
    });
    watched.busyObserver.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { busySeen?: boolean }).busySeen === true);
}

/** What the page sends and logs from now on (GraphQL operations with their variables, sockets, console), for a failure's message. */
function watchPage(page: Page): string[] {
  const seen: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const body = (request.postData() ?? '').replace(/,"query":.*$/s, '');
    seen.push(`${at()} POST ${request.url().replace(/^https?:\/\/[^/]+/, '')} ${body.slice(0, 160)}`);
  });
  page.on('requestfinished', (request) => {
    if (request.method() === 'POST') seen.push(`${at()} answered ${(request.postData() ?? '').slice(0, 60)}`);
  });
  page.on('websocket', (socket) => {
    seen.push(`${at()} socket opened`);
    socket.on('close', () => seen.push(`${at()} socket closed`));
  });
  page.on('console', (message) => seen.push(`${at()} console.${message.type()} ${message.text().slice(0, 300)}`));
  page.on('pageerror', (error) => seen.push(`${at()} page error ${error.message.slice(0, 300)}`));
  return seen;
}

/** Loads pages with the keyboard (Enter on the focused button) until the button is gone; returns the counts seen. */
async function loadAllWithKeyboard(page: Page, noun: string, rows: () => Promise<number>): Promise<number[]> {
  const button = page.getByRole('button', { name: `Load more ${noun}` });
  const happened = watchPage(page);
  const seen = [await rows()];
  for (let i = 0; (await button.count()) > 0; i++) {
    expect(i).toBeLessThan(10);
    await button.focus();
    const busySeen = await watchBusy(page);
    const before = seen.at(-1)!;
    await page.keyboard.press('Enter');
    // The page arrived: more rows than before (the count is read once they are there, not at the first paint).
    await expect.poll(rows).toBeGreaterThan(before);
    seen.push(await rows());
    // While it loaded, the button said so and kept the focus (aria-disabled, not disabled).
    expect(await busySeen(), `the focused button read "Loading..." with aria-busy\nsince the list opened:\n${happened.join('\n')}`).toBe(true);
  }
  // The last page took the button away: focus went to the count, not to the page's start.
  await page.waitForFunction(() => document.activeElement?.className === 'load-more-count');
  return seen;
}

describe('customers page', () => {
  it('shows 50, then loads more on demand until all are shown', async () => {
    const page = await freshAgent();
    for (let i = 0; i < 60; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          gql(page, 'mutation($i: CustomerInput!) { createCustomer(input: $i) { id } }', {
            i: { name: `Paged ${stamp} ${i + j}`, email: `paged.${stamp}.${i + j}@example.com` },
          }),
        ),
      );
    }
    await page.goto('/view/customers');
    const heading = page.getByRole('heading', { name: /^\(\d+\) Customers$/ });
    await shown(heading);
    const total = Number(/\((\d+)\)/.exec(await heading.innerText())![1]);
    expect(total).toBeGreaterThanOrEqual(60);
    const rows = () => page.locator('tbody tr').count();
    expect(await rows()).toBe(50);
    await shown(page.getByRole('status').filter({ hasText: `Showing 50 of ${total} customers` }));
    const seen = await loadAllWithKeyboard(page, 'customers', rows);
    expect(seen[1]).toBe(Math.min(100, total));
    expect(seen.at(-1)).toBe(total);
    await shown(page.getByRole('status').filter({ hasText: `Showing ${total} of ${total} customers` }));
  });
});

describe('macros page', () => {
  it("pages the agent's macros (and macro 1), with the total in the heading", async () => {
    const page = await freshAgent();
    await Promise.all(
      Array.from({ length: 54 }, (_, i) =>
        gql(page, 'mutation($i: MacroInput!) { createMacro(input: $i) { id } }', { i: { name: `Macro ${i}`, description: 'canned' } }),
      ),
    );
    await page.goto('/view/macros');
    await shown(page.getByRole('heading', { name: '(55) Macros' }));
    const cards = () => page.locator('.macro-grid > *').count();
    expect(await cards()).toBe(50);
    const seen = await loadAllWithKeyboard(page, 'macros', cards);
    expect(seen).toEqual([50, 55]);
    await shown(page.getByText('No Macro'));
  });

  it('offers every macro in the ticket forms, beyond the first page of 100', async () => {
    const page = await freshAgent();
    for (let i = 0; i < 120; i += 40)
      await Promise.all(
        Array.from({ length: 40 }, (_, j) =>
          gql(page, 'mutation($i: MacroInput!) { createMacro(input: $i) { id } }', { i: { name: `Many ${i + j}`, description: 'canned' } }),
        ),
      );
    const oldest = await gql<{ macros: { nodes: { id: number }[] } }>(page, '{ macros(first: 100) { nodes { id } } }');
    await page.goto('/create/ticket');
    const select = page.getByLabel('Apply Macro');
    await shown(select);
    const options = select.locator('option');
    expect(await options.count()).toBe(121); // 120 macros and "No Macro" (macro 1)
    expect(await options.first().innerText()).toBe('No Macro');
    expect(await options.allInnerTexts()).toContain('Many 0'); // the oldest, on the second page

    // The edit form too: a ticket whose macro is on the second page shows it selected.
    const manyZero = (await options.filter({ hasText: /^Many 0$/ }).getAttribute('value'))!;
    expect(oldest.macros.nodes.map((m) => String(m.id))).not.toContain(manyZero);
    const { createCustomer } = await gql<{ createCustomer: { id: number } }>(page, 'mutation($i: CustomerInput!) { createCustomer(input: $i) { id } }', {
      i: { name: `Requester ${stamp}`, email: `requester.many.${stamp}@example.com` },
    });
    const ticket = await page.request.post('/api/tickets/create', {
      data: { title: 'Macro on page two', description: 'Uses a macro from the second page.', requester: createCustomer.id, apply_macro: Number(manyZero) },
    });
    expect(ticket.status(), await ticket.text()).toBeLessThan(300);
    const { id } = (await ticket.json()) as { id: number };
    await page.goto(`/edit/ticket/${id}`);
    await shown(page.getByLabel('Apply Macro'));
    expect(await page.getByLabel('Apply Macro').inputValue()).toBe(manyZero);
  });
});

describe('requester picker', () => {
  it('searches customers on the server as the agent types (debounced), and is operated by keyboard', async () => {
    const page = await freshAgent();
    const name = `Zelda Picker ${stamp}`;
    await gql(page, 'mutation($i: CustomerInput!) { createCustomer(input: $i) { id } }', { i: { name, email: `zelda.${stamp}@example.com` } });
    const searches: (string | null)[] = [];
    page.on('request', (request) => {
      const body = request.postData();
      if (request.url().endsWith('/graphql') && body?.includes('RequesterSearch'))
        searches.push((request.postDataJSON() as { variables: { search?: string } }).variables.search ?? null);
    });
    await page.goto('/create/ticket');
    await shown(page.getByRole('heading', { name: 'Create Ticket', level: 1 }));
    // Opening the form loads no customer directory.
    expect(searches).toEqual([]);

    await page.getByLabel('Title').fill('Picker check');
    await page.getByLabel('Title').press('Tab'); // to Assignee, Type, Priority, Apply Macro, Requester
    const box = page.getByRole('combobox', { name: 'Requester' });
    await box.focus();
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await box.pressSequentially(`zelda picker ${stamp}`, { delay: 20 });
    await shown(page.getByRole('status').filter({ hasText: `1 customer matching "zelda picker ${stamp}"` }));
    const listbox = page.getByRole('listbox', { name: 'Requester' });
    const option = listbox.getByRole('option', { name: new RegExp(name) });
    await shown(option);
    expect(await listbox.getByRole('option').count()).toBe(1);
    // Typed quickly: one search for the whole text (after the one opening the list made), not one per key.
    expect(searches).toEqual(['', `zelda picker ${stamp}`]);
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe(`${name} (zelda.${stamp}@example.com)`);
    await gone(listbox.getByRole('option'));

    // No match: said so; typing over a choice clears it, and the form asks for a requester again.
    await box.fill('no-such-customer-anywhere');
    await shown(page.getByText('No customer matches "no-such-customer-anywhere".'));
    await page.getByLabel('Description').fill('Checking the picker.');
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await shown(page.getByText('Requester is required.'));
  });
});
