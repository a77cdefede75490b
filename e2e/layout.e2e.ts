import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { NARROW, useBrowser, WIDE } from './browser';
import { demoLogin, gone, shown } from './helpers';

const chromium = useBrowser();

const menuButton = (page: Page) => page.locator('.menu-button');
const navbar = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const NAV_ITEMS = ['Create Ticket', 'Create Customer', 'Create Macro', 'Customers', 'Macros', 'Message Center'];

describe('header and navigation at 1440 px', () => {
  it('signed out: brand to /, a "Sign In" button, the Log In / Sign Up dropdown that closes on an outside click', async () => {
    const { page, context } = await chromium.open(WIDE);
    await page.goto('/');
    expect(await page.locator('header .brand').getAttribute('href')).toBe('/');
    await shown(menuButton(page).getByText('Sign In'));
    expect(await page.locator('.menu-burger').isVisible()).toBe(false);
    expect(await navbar(page).count()).toBe(0);
    await menuButton(page).click();
    await shown(page.getByRole('button', { name: 'Log In' }));
    await shown(page.getByRole('button', { name: 'Sign Up' }));
    await page.getByRole('heading', { name: 'Balance Your Work' }).click();
    await gone(page.locator('.menu-dropdown'));
    await context.close();
  });

  it('signed in: brand to the dashboard, "Menu", the profile dropdown, and the navigation bar with its links and modals', async () => {
    const { page, context } = await chromium.open(WIDE);
    await demoLogin(page);
    expect(await page.locator('header .brand').getAttribute('href')).toBe('/view/tickets/all');
    await shown(menuButton(page).getByText('Menu'));
    await shown(navbar(page));
    for (const item of NAV_ITEMS) await shown(navbar(page).getByText(item, { exact: true }));

    await menuButton(page).click();
    await shown(page.getByText('Hello, Demo'));
    await shown(page.getByText('User id: 1'));
    await shown(page.locator('.menu-dropdown').getByText('demo@fulcrum.app'));
    await shown(page.getByRole('button', { name: 'Log Out' }));
    // The bar is there, so the dropdown does not repeat its links.
    expect(await page.locator('.menu-dropdown').getByRole('link', { name: 'Customers' }).isVisible()).toBe(false);
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await gone(page.locator('.menu-dropdown'));

    for (const [item, title] of [
      ['Create Customer', 'Create Customer'],
      ['Create Macro', 'Create Macro'],
      ['Message Center', 'Message Center'],
    ]) {
      await navbar(page).getByRole('button', { name: item }).click();
      await shown(page.getByRole('dialog', { name: title }));
      await page.keyboard.press('Escape');
      await gone(page.getByRole('dialog'));
    }
    for (const [item, path] of [
      ['Create Ticket', '/create/ticket'],
      ['Customers', '/view/customers'],
      ['Macros', '/view/macros'],
    ]) {
      await navbar(page).getByRole('link', { name: item, exact: true }).click();
      await page.waitForURL(`**${path}`);
    }
    await page.goto('/view/tickets/all');
    await shown(page.locator('.ticket-table thead'));
    expect(await page.locator('.ticket-table .cell-label').first().isVisible()).toBe(false);
    await context.close();
  });
});

describe('header and navigation at 1024 px', () => {
  it('signed out: the burger opens Log In / Sign Up', async () => {
    const { page, context } = await chromium.open(NARROW);
    await page.goto('/');
    await shown(page.locator('.menu-burger'));
    expect(await page.locator('.menu-label').evaluate((el) => el.getBoundingClientRect().width <= 1)).toBe(true);
    await page.getByRole('button', { name: 'Sign In' }).click(); // still its accessible name
    await shown(page.getByRole('button', { name: 'Log In' }));
    await context.close();
  });

  it('signed in: no navigation bar; the burger dropdown links every screen; the table shows inline labels', async () => {
    const { page, context } = await chromium.open(NARROW);
    await demoLogin(page);
    expect(await navbar(page).isVisible()).toBe(false);
    await shown(page.locator('.menu-burger'));
    await page.getByRole('button', { name: 'Menu' }).click();
    const dropdown = page.locator('.menu-dropdown');
    await shown(dropdown.getByText('Hello, Demo'));
    for (const item of NAV_ITEMS) await shown(dropdown.getByRole('link', { name: item, exact: true }));
    await dropdown.getByRole('link', { name: 'Macros', exact: true }).click();
    await page.waitForURL('**/view/macros');
    await gone(dropdown);

    await page.goto('/view/tickets/all');
    await shown(page.locator('.ticket-table'));
    expect(await page.locator('.ticket-table thead').isVisible()).toBe(false);
    const labels = await page.locator('.ticket-row').first().locator('.cell-label').allInnerTexts();
    expect(labels.map((l) => l.toLowerCase())).toEqual(['id', 'subject', 'requester', 'assignee', 'team', 'type', 'priority', 'image']);
    // The cells of a row side by side (a grid), inset from the card's edge, not stacked one under another.
    const cells = await page
      .locator('.ticket-row')
      .first()
      .locator('td')
      .evaluateAll((tds) => tds.map((td) => ({ top: td.getBoundingClientRect().top, left: td.getBoundingClientRect().left })));
    const rowBox = (await page.locator('.ticket-row').first().boundingBox())!;
    expect(new Set(cells.map((c) => Math.round(c.top))).size).toBe(1);
    expect(Math.min(...cells.map((c) => c.left))).toBeGreaterThan(rowBox.x + 8);
    await context.close();
  });

  it('between 1310 and 1400 px: "Menu" as text, but no navigation bar, so the dropdown has the links', async () => {
    const { page, context } = await chromium.open({ width: 1350, height: 900 });
    await demoLogin(page);
    await shown(menuButton(page).getByText('Menu'));
    expect(await page.locator('.menu-burger').isVisible()).toBe(false);
    expect(await navbar(page).isVisible()).toBe(false);
    await menuButton(page).click();
    await shown(page.locator('.menu-dropdown').getByRole('link', { name: 'Customers', exact: true }));
    await context.close();
  });
});
