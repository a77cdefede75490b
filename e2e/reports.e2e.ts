/**
 * Reports: the demo lead (an admin) opens Reports from the nav bar, picks the last 7 days by team,
 * sees the charts and their tables (a "Created" column and a total row), downloads the CSV and reads it (the same
 * rows as the table), and the page passes axe. Then, in another tab, a reply to the requester and a solve: after a
 * reload the report counts them (the test reloads until it does, bounded by the context's timeout).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { blocking, axeViolations } from './axe';
import { useSharedPage } from './browser';
import { createTicketApi, shown, unique } from './helpers';

let page: Page;
useSharedPage((opened) => ({ page } = opened));

const panel = (name: string) => page.getByRole('region', { name, exact: true });
const volumeTable = () => page.getByRole('table', { name: 'Tickets per period' });
const timesTable = () => page.getByRole('table', { name: 'Response and resolution times per period (hours)' });
/** The cells of a table's total row, as shown. */
const totalRow = async (table: ReturnType<typeof volumeTable>) =>
  (await table.locator('tfoot tr').first().locator('th, td').allTextContents()).map((s) => s.trim());

describe('reports', () => {
  let ticketId = 0;

  it('a lead opens Reports, picks the last 7 days by team, sees the charts with their tables and downloads the CSV', async () => {
    ticketId = await createTicketApi(page, { title: unique('Report').slice(0, 40), requesterId: 1, description: 'Counted in the report.' });
    await page.goto('/view/tickets/all');
    // The nav bar at this width (the profile menu holds the same link on narrower screens).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await shown(page.getByRole('heading', { name: 'Reports', level: 1 }));
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await page.getByLabel('Breakdown').selectOption('TEAM');
    await shown(panel('By team'));
    await shown(panel('Created, solved and reopened').locator('svg.recharts-surface').first());
    const table = volumeTable();
    await shown(table);
    expect(await table.locator('thead th').allTextContents()).toContain('Created');
    expect((await totalRow(table))[0]).toBe('Total');
    // Seven rows: the last 7 days including today.
    expect(await table.locator('tbody tr').count()).toBe(7);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel('Created, solved and reopened')
        .getByRole('button', { name: /^Download CSV/ })
        .click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Period starting,Created,Solved,Reopened,Backlog at end');
    const shownRows = await table
      .locator('tbody tr, tfoot tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim()).join(',')));
    expect(lines.slice(1)).toEqual(shownRows);

    const violations = blocking(await axeViolations(page));
    expect(violations).toEqual([]);
  });

  it('a reply and a solve in another tab are in the report after a reload', async () => {
    const before = await totalRow(volumeTable());
    const responsesBefore = Number((await totalRow(timesTable()))[2]);
    const other = await page.context().newPage();
    try {
      await other.goto(`/view/ticket/${ticketId}`);
      await other.getByRole('group', { name: 'Write' }).getByRole('button', { name: 'Reply to requester' }).click();
      await other.locator('.composer textarea').fill(unique('We are on it'));
      await other.getByRole('button', { name: 'Send', exact: true }).click();
      await shown(other.locator('.timeline-reply').first());
      await other.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Solved' }).click();
      await shown(other.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Solved', pressed: true }));
    } finally {
      await other.close();
    }
    const deadline = Date.now() + 15_000;
    let after = before;
    let responses = responsesBefore;
    while (Date.now() < deadline) {
      await page.reload();
      await shown(volumeTable());
      after = await totalRow(volumeTable());
      responses = Number((await totalRow(timesTable()))[2]);
      if (Number(after[2]) > Number(before[2]) && responses > responsesBefore) break;
    }
    expect(Number(after[2])).toBe(Number(before[2]) + 1);
    expect(responses).toBe(responsesBefore + 1);
  });
});
