import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useSharedPage } from './browser';
import { gone, gql, shown, unique } from './helpers';

let page: Page;
let errors: string[];
const stranger = `stranger${Date.now().toString(36)}`;
const file = useSharedPage((opened) => ({ page, errors } = opened));

beforeAll(async () => {
  // A fourth agent, whose login the demo helper does not know (signed up in a context of its own).
  const other = await file.open();
  await gql(other.page, 'mutation($input: SignupInput!) { signup(input: $input) { id } }', {
    input: { email: `${stranger}@example.com`, username: stranger, password: 'secret123' },
  });
  await other.context.close();
});

describe('message center', () => {
  const text = unique('Lunch at noon?');
  const edited = unique('Lunch at one?');

  it('lists every user with the current user disabled', async () => {
    await page.goto('/message/center');
    await shown(page.locator('.conversation-picker'));
    const names = await page.locator('.conversation-picker .conversation-name').allInnerTexts();
    expect(names.map((n) => n.replace(' (you)', ''))).toEqual(expect.arrayContaining(['Demo', 'Marnie', 'Bobbie', stranger]));
    expect(await page.locator('.conversation-picker button', { hasText: 'Demo' }).isDisabled()).toBe(true);
    expect(await page.locator('.conversation-picker button', { hasText: 'Marnie' }).isDisabled()).toBe(false);
  });

  it('sends a message to Marnie and shows it at once', async () => {
    await page.locator('.conversation-picker button', { hasText: 'Marnie' }).click();
    await page.getByLabel('Message to Marnie').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('.message-card', { hasText: text });
    await shown(card);
    // The card may come first (the live event can beat the mutation's answer); the composer empties on the answer.
    await expect.poll(() => page.getByLabel('Message to Marnie').inputValue()).toBe('');
    // Own messages have Edit and Delete; Marnie's seeded messages (if any) do not.
    await shown(card.getByRole('button', { name: 'Edit' }));
    await shown(card.getByRole('button', { name: 'Delete' }));
    const theirs = page.locator('.message-card:not(.message-mine)');
    for (let i = 0; i < (await theirs.count()); i++) {
      expect(await theirs.nth(i).getByRole('button').count()).toBe(0);
    }
  });

  it('edits it: Save shown, other Edit/Delete disabled, 1 to 2000 characters checked', async () => {
    // A second own message, to see its buttons disabled while the first is edited.
    await page.getByLabel('Message to Marnie').fill(unique('Second'));
    await page.getByRole('button', { name: 'Send' }).click();
    await shown(page.locator('.message-mine').nth(1));

    const card = page.locator('.message-card', { hasText: text });
    await card.getByRole('button', { name: 'Edit' }).click();
    await shown(card.getByRole('button', { name: 'Save' }));
    const others = page.locator('.message-mine').filter({ hasNot: page.getByRole('button', { name: 'Save' }) });
    expect(await others.count()).toBeGreaterThan(0);
    for (let i = 0; i < (await others.count()); i++) {
      for (const name of ['Edit', 'Delete']) {
        const button = others.nth(i).getByRole('button', { name, exact: true });
        if (await button.count()) expect(await button.isDisabled()).toBe(true);
      }
    }
    const box = page.getByLabel('Edit message');
    await box.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByText('Message must be between 1 and 2000 characters.'));
    await box.fill('z'.repeat(2001));
    await page.getByRole('button', { name: 'Save' }).click();
    await shown(page.getByText('Message must be between 1 and 2000 characters.'));
    await box.fill(edited);
    await page.getByRole('button', { name: 'Save' }).click();
    await shown(page.locator('.message-card', { hasText: edited }));
    await gone(page.getByRole('button', { name: 'Save' }));
    await page.reload();
    await page.locator('.conversation-picker button', { hasText: 'Marnie' }).click();
    await shown(page.locator('.message-card', { hasText: edited }));
  });

  it('deletes it after "Yes Delete?" ("NO! Cancel!" keeps it)', async () => {
    const card = page.locator('.message-card', { hasText: edited });
    await card.getByRole('button', { name: 'Delete' }).click();
    await shown(card.getByRole('button', { name: 'Yes Delete?' }));
    await card.getByRole('button', { name: 'NO! Cancel!' }).click();
    await shown(card.getByRole('button', { name: 'Edit' }));
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Yes Delete?' }).click();
    await gone(page.locator('.message-card', { hasText: edited }));
    await page.reload();
    await page.locator('.conversation-picker button', { hasText: 'Marnie' }).click();
    await shown(page.locator('.conversation-header', { hasText: 'Marnie' }));
    expect(await page.locator('.message-card', { hasText: edited }).count()).toBe(0);
  });

  it('demo helper: "Your Partner\'s Login Is Not Saved" for a fourth agent', async () => {
    await page.locator('.conversation-picker button', { hasText: stranger }).click();
    await shown(page.getByText("Your Partner's Login Is Not Saved"));
  });

  it('demo helper: one-click login as Marnie, from the message center modal', async () => {
    await page.goto('/view/tickets/all');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Message Center' }).click();
    const dialog = page.getByRole('dialog', { name: 'Message Center' });
    await shown(dialog);
    await dialog.locator('.conversation-picker button', { hasText: 'Marnie' }).click();
    await dialog.getByRole('button', { name: 'Log in as Marnie' }).click();
    await page.waitForURL('**/message/center');
    await page.getByRole('button', { name: 'Menu' }).click();
    await shown(page.getByText('Hello, Marnie'));
    await page.keyboard.press('Escape');
    // Now Demo is a partner, Marnie is disabled, and the helper offers Demo.
    expect(await page.locator('.conversation-picker button', { hasText: 'Marnie' }).isDisabled()).toBe(true);
    await page.locator('.conversation-picker button', { hasText: 'Demo' }).click();
    await shown(page.getByRole('button', { name: 'Log in as Demo' }));
  });

  it('threw no page errors', () => {
    expect(errors).toEqual([]);
  });
});
