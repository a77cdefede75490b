/**
 * Triage in a real browser: solving a ticket on its page takes it out of the open list in the agent's
 * other tab (live, with the counts); search and filter chips live in the URL (reload and Back keep them); an
 * empty result offers to clear the filters; a result found by its conversation says where, with the word marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './browser';
import { axeViolations, blocking } from './axe';
import { gone, gql, shown, createTicketApi } from './helpers';
import { anotherTab, DEMO, markDocument, sameDocument, signedIn, type Agent } from './liveHelpers';

const chromium = useBrowser();
let demo: Agent;
let tabB: Page;
/** Words no other test uses, so every search here finds only this file's tickets. */
const tag = `tri${Date.now()
  .toString(36)
  .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;

beforeAll(async () => {
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
  tabB = await anotherTab(demo, '/view/tickets/all');
});
afterAll(async () => {
  await tabB?.close();
  await demo?.context.close();
});

async function openCount(page: Page): Promise<number> {
  const text = await page.getByRole('heading', { name: /^\(\d+\) Open Tickets$/ }).innerText();
  return Number(/\((\d+)\)/.exec(text)![1]);
}

const chip = (page: Page, group: string, name: RegExp | string) => page.getByRole('group', { name: group }).getByRole('button', { name });
const row = (page: Page, title: string) => page.locator('tr.ticket-row', { hasText: title });

describe('status', () => {
  it('solving a ticket on its page takes it out of the open list in the other tab, counts follow', async () => {
    const title = `Solve me ${tag}`;
    const id = await createTicket(demo.page, title, 'Low');
    await shown(row(tabB, title));
    const before = await openCount(tabB);
    const solvedBefore = Number(/\((\d+)\)/.exec(await chip(tabB, 'Status', /^Solved/).innerText())![1]);

    await demo.page.goto(`/view/ticket/${id}`);
    const status = demo.page.getByRole('group', { name: 'Status' });
    expect(await status.getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');
    await status.getByRole('button', { name: 'Solved' }).click();
    await demo.page.waitForFunction(() => document.querySelector('.segment-solved')?.getAttribute('aria-pressed') === 'true');

    await gone(row(tabB, title));
    await shown(tabB.getByRole('heading', { name: `(${before - 1}) Open Tickets` }));
    await shown(chip(tabB, 'Status', new RegExp(`^Solved \\(${solvedBefore + 1}\\)`)));

    // Reopened: back in the list, in its place (newest first).
    await status.getByRole('button', { name: 'Open' }).click();
    await shown(row(tabB, title));
    await shown(tabB.getByRole('heading', { name: `(${before}) Open Tickets` }));
    expect(await tabB.locator('tr.ticket-row').first().innerText()).toContain(title);
  });
});

describe('search and filters', () => {
  it('a ticket created elsewhere joins a searched list in the priority order: the list is fetched again, no reload', async () => {
    const low = `Joins low ${tag}`;
    const urgent = `Joins urgent ${tag}`;
    await createTicket(demo.page, low, 'Low');
    await tabB.goto(`/view/tickets/all?q=${tag}&order=PRIORITY`);
    await shown(row(tabB, low));
    await markDocument(tabB);

    // The browser does not run the search or the order: the server's answer puts the urgent ticket first.
    await createTicket(demo.page, urgent, 'Urgent');
    await shown(row(tabB, urgent));
    expect(await tabB.locator('tr.ticket-row').first().innerText()).toContain(urgent);
    expect(await sameDocument(tabB)).toBe(true);
    await tabB.goto('/view/tickets/all');
  });

  it('searches as you type (debounced), filters by chips; the URL keeps it across a reload and Back', async () => {
    const word = `${tag}srch`;
    const urgent = `Urgent printer ${word}`;
    const low = `Quiet scanner ${word}`;
    await createTicket(demo.page, urgent, 'Urgent');
    await createTicket(demo.page, low, 'Low');
    const page = tabB;
    await page.goto('/view/tickets/all');
    await shown(row(page, low));

    // "/" focuses the search box.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ticket-search');
    await page.keyboard.type(word, { delay: 20 });
    await page.waitForURL((url) => url.searchParams.get('q') === word);
    await shown(page.getByRole('heading', { name: '(2) Matching Tickets' }));
    await shown(row(page, urgent));
    await shown(row(page, low));
    expect(await page.locator('tr.ticket-row').count()).toBe(2);

    await chip(page, 'Priority', 'Urgent').click();
    await page.waitForURL((url) => url.searchParams.get('priority') === 'Urgent');
    await gone(row(page, low));
    await shown(row(page, urgent));
    expect(await chip(page, 'Priority', 'Urgent').getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await shown(page.getByRole('heading', { name: '(1) Matching Ticket' }));
    await shown(row(page, urgent));
    expect(await page.locator('tr.ticket-row').count()).toBe(1);
    expect(await page.locator('#ticket-search').inputValue()).toBe(word);
    expect(await chip(page, 'Priority', 'Urgent').getAttribute('aria-pressed')).toBe('true');

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('priority') === null && url.searchParams.get('q') === word);
    await shown(row(page, low));
    expect(await chip(page, 'Priority', 'Urgent').getAttribute('aria-pressed')).toBe('false');

    // Two words narrow it; a word in no ticket says so and offers to clear the filters.
    await page.locator('#ticket-search').fill(`${word} scan`);
    await page.waitForURL((url) => url.searchParams.get('q') === `${word} scan`);
    await gone(row(page, urgent));
    await shown(row(page, low));
    await page.locator('#ticket-search').fill(`${word} nosuchwordatall`);
    await shown(page.getByText('No tickets match'));
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((url) => url.search === '');
    expect(await page.locator('#ticket-search').inputValue()).toBe('');
    await shown(page.getByRole('heading', { name: /^\(\d+\) Open Tickets$/ }));
    await shown(row(page, low));
  });

  it('the Solved chip shows solved tickets; a shared link opens the same list', async () => {
    const title = `Solved already ${tag}`;
    const id = await createTicket(demo.page, title, 'High');
    await demo.page.request.post('/graphql', { data: { query: 'mutation($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { id } }', variables: { id } } });
    const page = tabB;
    await page.goto(`/view/tickets/all?q=${encodeURIComponent(tag)}&status=SOLVED`);
    await shown(row(page, title));
    expect(await page.locator('tr.ticket-row').count()).toBe(1);
    expect(await chip(page, 'Status', /^Solved/).getAttribute('aria-pressed')).toBe('true');
    expect(await chip(page, 'Status', /^Open/).getAttribute('aria-pressed')).toBe('false');
  });

  it('a ticket found by a word only in its note says "Matched in a note" with the word marked; axe clean', async () => {
    const word = `${tag}nte`;
    const title = `Found by its note ${tag}`;
    const id = await createTicket(demo.page, title, 'Medium');
    await gql(demo.page, 'mutation($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', {
      id,
      body: `Called the vendor about the <b>fuser</b>: ${word} is the part number they need.`,
    });
    const page = tabB;
    await page.goto(`/view/tickets/all?q=${word}`);
    const found = row(page, title);
    await shown(found);
    expect(await page.locator('tr.ticket-row').count()).toBe(1);
    const line = found.locator('.search-match');
    await shown(line);
    expect(await line.innerText()).toMatch(/^Matched in a note: .*<b>fuser<\/b>: .*part number/);
    // The matched word is the one <mark>, built as an element (the note's "<b>" stays text).
    expect(await line.locator('mark').allInnerTexts()).toEqual([word]);
    expect(await line.locator('b').count()).toBe(0);
    expect(blocking(await axeViolations(page))).toEqual([]);

    // Without the search, the same row has no line.
    await page.goto('/view/tickets/all');
    await shown(row(page, title));
    expect(await row(page, title).locator('.search-match').count()).toBe(0);
  });

  it('threw no page errors', () => {
    expect(demo.errors).toEqual([]);
  });
});

/** A ticket of the demo agent's with this title and priority, through the API. */
function createTicket(page: Page, title: string, priority: string): Promise<number> {
  return createTicketApi(page, { title, requesterId: 1, priority, description: 'Made for the triage browser test.' }, [20, 120, 200]);
}
