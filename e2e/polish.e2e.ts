/**
 * The rough edges found walking every screen, each checked in the browser: forms (limits with a
 * counter, one validation rule for every form), layout at 1440 and 1024 px (radios and checkboxes beside their
 * labels, the deliveries caption, the message center's composer on screen, the sticky header), and consistency
 * (one date format in the viewer's locale, a refused delivery said once).
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WEBHOOK_EVENT_TYPES } from '@fulcrum/schema/validation';
import { openPage, useBrowser, type Viewport } from './browser';
import { baseURL, DEMO, gql, makePng, shown, gone, unique } from './helpers';

const chromium = useBrowser();

const LAPTOP = { width: 1440, height: 900 };
const SMALL = { width: 1024, height: 768 };

/** A fresh context signed in as Demo (through the API: the login page is not what these tests are about). */
async function demo(viewport: Viewport, options: { locale?: string; timezoneId?: string } = {}) {
  const opened = options.locale
    ? await (async () => {
        const context = await chromium.browser.newContext({ baseURL: baseURL(), viewport, ...options });
        context.setDefaultTimeout(15_000);
        return { context, page: await context.newPage() };
      })()
    : await openPage(chromium.browser, baseURL(), viewport);
  await gql(opened.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', DEMO);
  return opened;
}

/** A port nothing listens on (taken from the system, then released). */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

async function createWebhook(page: Page, url: string): Promise<number> {
  const data = await gql<{ createWebhook: { webhook: { id: number } } }>(
    page,
    'mutation($input: WebhookInput!) { createWebhook(input: $input) { webhook { id } } }',
    { input: { url, events: ['TICKET_CREATED'] } },
  );
  return data.createWebhook.webhook.id;
}

describe('forms: limits, and one rule for when errors show', () => {
  it('ticket form: 40 characters at most with a counter; after a submit, shown errors follow the fields live and go when fixed', async () => {
    const { page, context } = await demo(LAPTOP);
    await page.goto('/create/ticket');
    const title = page.getByLabel('Title');
    await shown(title);
    expect(await title.getAttribute('maxlength')).toBe('40');
    await shown(page.getByText('0 / 40 characters'));
    await title.fill('Printer');
    await shown(page.getByText('7 / 40 characters'));
    await title.fill('y'.repeat(45));
    expect(await title.inputValue()).toBe('y'.repeat(40));
    await shown(page.getByText('40 / 40 characters'));
    // The counter is the field's description for screen readers.
    expect(await page.locator(`#${await title.getAttribute('aria-describedby')}`).innerText()).toBe('40 / 40 characters');
    expect(await page.getByLabel('Description').getAttribute('maxlength')).toBe('2000');

    // Before a submit nothing complains, whatever is typed.
    await title.fill('');
    await page.getByLabel('Description').fill('ab');
    expect(await page.locator('.field-errors').count()).toBe(0);

    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const titleError = page.getByText('Title must be between 1 and 40 characters.');
    const descriptionError = page.getByText('Description must be between 3 and 2000 characters.');
    const requesterError = page.getByText('Requester is required.');
    await shown(titleError);
    await shown(descriptionError);
    await shown(requesterError);
    await shown(page.getByText('Image is Required'));

    // Fixing a field clears its error at once, without another submit; the others stay until fixed.
    await page.getByLabel('Description').fill('abc');
    await gone(descriptionError);
    await shown(titleError);
    await page.getByLabel('Description').fill('a');
    await shown(descriptionError); // broken again: it has shown an error, so it is still checked live
    await page.getByLabel('Description').fill('A real description.');
    await gone(descriptionError);
    await title.fill('Paper jam');
    await gone(titleError);
    await shown(requesterError);

    // The image error follows the chosen file: a text file says so, a valid PNG clears it.
    await page.getByLabel('Image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await shown(page.getByText('Image must be a PNG, JPEG, GIF or WebP file.'));
    await gone(page.getByText('Image is Required'));
    await page.getByLabel('Image').setInputFiles({ name: 'ok.png', mimeType: 'image/png', buffer: makePng(8, 8, [10, 120, 200]) });
    await gone(page.getByText('Image must be a PNG, JPEG, GIF or WebP file.'));
    expect(await page.locator('.field-errors').allInnerTexts()).toEqual(['Requester is required.']);
    expect(await page.getByRole('button', { name: 'Loading...' }).count()).toBe(0);
    await context.close();
  });

  it('customer and macro modals: the same rule, and the same counters', async () => {
    const { page, context } = await demo(LAPTOP);
    await page.goto('/view/tickets/all');
    const nav = page.getByRole('navigation', { name: 'Main' });

    await nav.getByRole('button', { name: 'Create Customer' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create Customer' });
    await dialog.getByLabel('Name').fill('W');
    await dialog.getByLabel('Email').fill('not-an-email');
    expect(await dialog.getByLabel('Name').getAttribute('maxlength')).toBe('50');
    await shown(dialog.getByText('1 / 50 characters'));
    expect(await dialog.locator('.field-errors').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await shown(dialog.getByText('Name must be between 2 and 50 characters.'));
    await shown(dialog.getByText('Please provide a valid email'));
    await dialog.getByLabel('Name').fill('Wanda');
    await gone(dialog.getByText('Name must be between 2 and 50 characters.'));
    await shown(dialog.getByText('Please provide a valid email'));
    await dialog.getByLabel('Email').fill('wanda@example.com');
    await gone(dialog.getByText('Please provide a valid email'));
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));

    await nav.getByRole('button', { name: 'Create Macro' }).click();
    dialog = page.getByRole('dialog', { name: 'Create Macro' });
    await dialog.getByLabel('Name').fill('A');
    await dialog.getByLabel('Description').fill('d');
    await shown(dialog.getByText('1 / 2,000 characters'));
    expect(await dialog.locator('.field-errors').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create Macro' }).click();
    await shown(dialog.getByText('Name must be between 2 and 50 characters.'));
    await dialog.getByLabel('Name').fill('Ab');
    await gone(dialog.getByText('Name must be between 2 and 50 characters.'));
    await page.keyboard.press('Escape');
    await gone(page.getByRole('dialog'));
    await context.close();
  });
});

/** For every radio and checkbox in a form's fieldsets: its width, and the gap between it and its label's text. */
async function choiceGaps(page: Page, form: string) {
  return page.locator(form).evaluate((root) =>
    [...root.querySelectorAll<HTMLInputElement>('fieldset input[type="radio"], fieldset input[type="checkbox"]')].map((input) => {
      const label = input.closest('label')!;
      const range = document.createRange();
      range.setStartAfter(input);
      range.setEndAfter(label.lastChild!);
      const text = [...range.getClientRects()].find((r) => r.width > 0)!;
      const box = input.getBoundingClientRect();
      return { name: label.textContent.trim(), width: box.width, gap: text.left - box.right, sameLine: Math.abs(text.top - box.top) < box.height + 4 };
    }),
  );
}

for (const viewport of [LAPTOP, SMALL]) {
  describe(`layout at ${viewport.width} px`, () => {
    it('radios and checkboxes sit right beside their labels (API token and webhook forms)', async () => {
      const { page, context } = await demo(viewport);
      for (const [path, form, count] of [
        ['/settings/api-tokens', '.token-form', 3], // READ, WRITE, WEBHOOKS
        ['/settings/webhooks', '.token-form', WEBHOOK_EVENT_TYPES.length], // a checkbox for every WebhookEventType
      ] as const) {
        await page.goto(path);
        await shown(page.locator(`${form} fieldset`).first());
        const gaps = await choiceGaps(page, form);
        expect(gaps).toHaveLength(count);
        for (const choice of gaps) {
          expect(choice.width, choice.name).toBeLessThan(24);
          expect(choice.gap, choice.name).toBeGreaterThanOrEqual(0);
          expect(choice.gap, choice.name).toBeLessThan(16);
          expect(choice.sameLine, choice.name).toBe(true);
        }
      }
      await context.close();
    });

    it('the deliveries caption spans the log (two lines at most), and a refused delivery names ECONNREFUSED once', async () => {
      const { page, context } = await demo(viewport);
      const port = await closedPort();
      const id = await createWebhook(page, `http://127.0.0.1:${port}/hook`);
      await page.goto(`/settings/webhooks/${id}`);
      const caption = page.locator('.webhook-log caption');
      await shown(caption);
      await page.getByRole('button', { name: 'Send test' }).click();
      const row = page.locator('.webhook-log tbody tr', { hasText: 'ECONNREFUSED' });
      await shown(row);
      expect((await row.innerText()).match(/ECONNREFUSED/g)).toHaveLength(1);

      const { height, lineHeight, width, tableWidth } = await caption.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
        width: el.getBoundingClientRect().width,
        tableWidth: el.closest('.table-card')!.getBoundingClientRect().width,
      }));
      expect(width).toBeGreaterThan(tableWidth * 0.8);
      // Padding plus at most two lines of text.
      expect(height).toBeLessThan(24 + 2.5 * lineHeight);
      await gql(page, 'mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
      await context.close();
    });

    it('message center: under a long conversation the composer, Send and the Ctrl+Enter hint are on screen (page and modal); Ctrl+Enter sends', async () => {
      // 768 px high at both widths: the smallest common laptop screen.
      const height = 768;
      const { page, context } = await demo({ width: viewport.width, height });
      // A partner of this test's own, so no other test's conversation changes.
      const name = unique('Pat').replace(/\W/g, '').slice(0, 24);
      const other = await chromium.browser.newContext({ baseURL: baseURL() });
      const signup = await other.request.post('/graphql', {
        data: {
          query: 'mutation($input: SignupInput!) { signup(input: $input) { id } }',
          variables: { input: { username: name, email: `${name.toLowerCase()}@example.com`, password: 'secret-pass' } },
        },
      });
      const partnerId = (await signup.json()).data.signup.id as number;
      await other.close();
      for (let i = 1; i <= 30; i++) {
        await gql(page, 'mutation($to: Int!, $text: String!) { sendMessage(receiverId: $to, text: $text) { id } }', {
          to: partnerId,
          text: `Line ${i} of a long conversation`,
        });
      }

      const onScreen = async (root: Page | ReturnType<Page['locator']>) => {
        const composer = root.getByRole('textbox', { name: `Message to ${name}` });
        const send = root.getByRole('button', { name: 'Send', exact: true });
        const hint = root.getByText('Enter (⌘+Enter on a Mac) sends.');
        await shown(send);
        for (const part of [composer, send, hint]) {
          const box = (await part.boundingBox())!;
          expect(box.y).toBeGreaterThanOrEqual(0);
          expect(box.y + box.height).toBeLessThanOrEqual(height);
        }
        const describedBy = await composer.getAttribute('aria-describedby');
        expect(await page.locator(`#${describedBy}`).innerText()).toMatch(/^Ctrl\+Enter \(⌘\+Enter on a Mac\) sends\.$/);
        return composer;
      };

      await page.goto('/message/center');
      await page.locator('.conversation-picker .conversation', { hasText: name }).click();
      await shown(page.getByText('Line 30 of a long conversation'));
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const composer = await onScreen(page);
      const text = unique('Sent with Ctrl+Enter');
      await composer.fill(text);
      await composer.press('Control+Enter');
      await shown(page.locator('.message-text', { hasText: text }));
      // The card may come first (the live event can beat the mutation's answer); the composer empties on the answer.
      await expect.poll(() => composer.inputValue()).toBe('');

      // The modal opens from the navigation bar, which is there from 1400 px (below, the menu links to the page).
      if (viewport === SMALL) return void (await context.close());
      await page.goto('/view/tickets/all');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: /^Message Center/ })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Message Center' });
      await shown(dialog);
      await dialog.locator('.conversation-picker .conversation', { hasText: name }).click();
      await shown(dialog.getByText(text));
      await onScreen(dialog);
      await context.close();
    });

    it('sticky header: scrolled, the navigation stays whole under the top bar, and focus scrolls below both', async () => {
      // 600 px high, so the 20 seeded customers make a page that scrolls well past the header.
      const { page, context } = await demo({ width: viewport.width, height: 600 });
      await page.goto('/view/customers');
      const rows = page.locator('main tbody tr');
      await shown(rows.nth(15));
      expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeGreaterThan(400);
      const topbar = page.locator('header.topbar');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const wide = viewport === LAPTOP;
      expect(await nav.isVisible()).toBe(wide);

      for (const y of [37, 120, 400]) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await page.waitForFunction((to) => Math.abs(window.scrollY - to) < 1, y);
        const bar = (await topbar.boundingBox())!;
        expect(bar.y).toBe(0);
        if (wide) {
          const navBox = (await nav.boundingBox())!;
          expect(navBox.y).toBeGreaterThanOrEqual(bar.y + bar.height - 0.5);
          // Every pill of the bar (the active one included) whole below the top bar.
          for (const pill of await nav.locator('a, button').all()) {
            const box = (await pill.boundingBox())!;
            expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
          }
        }
      }

      // Scrolled to the bottom, keyboard focus moving back up lands on a control below the header, not behind it.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const target = page.locator('main tbody tr button:not([disabled])').first();
      await target.focus();
      const headerBottom = wide ? (await nav.boundingBox())!.y + (await nav.boundingBox())!.height : (await topbar.boundingBox())!.height;
      expect((await target.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom);
      await context.close();
    });
  });
}

describe('consistency', () => {
  it("every date in one format, in the viewer's locale (de-DE here): ticket, message, token, delivery", async () => {
    const { page, context } = await demo(LAPTOP, { locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    /** Each <time> on the page: its text (a relative time's tooltip), and the text each of the app's three styles would give for its datetime. */
    const times = () =>
      page.locator('main time, dialog time').evaluateAll((nodes) =>
        nodes.map((node) => {
          const at = new Date(node.getAttribute('datetime')!);
          const style = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, o).format(at);
          // A relative time ("vor 2 Min.", the timeline's) carries the one format in its tooltip: that is what is compared.
          const title = node.getAttribute('title');
          return {
            text: title ?? node.textContent.replace(/ · edited$/, ''),
            minutes: style({ dateStyle: 'medium', timeStyle: 'short' }),
            seconds: style({ dateStyle: 'medium', timeStyle: 'medium' }),
            day: style({ dateStyle: 'medium' }),
          };
        }),
      );
    // de-DE medium: "26.11.2026, 14:05" (with seconds "26.11.2026, 14:05:09"; a day "26.11.2026").
    const GERMAN = /^\d{2}\.\d{2}\.\d{4}(, \d{2}:\d{2}(:\d{2})?)?$/;

    const { tickets } = await gql<{ tickets: { nodes: { id: number }[] } }>(page, '{ tickets(first: 1) { nodes { id } } }');
    await page.goto(`/view/ticket/${tickets.nodes[0].id}`);
    await shown(page.locator('main time').first());
    for (const t of await times()) {
      expect(t.text).toBe(t.minutes);
      expect(t.text).toMatch(GERMAN);
    }

    await gql(page, 'mutation($to: Int!, $text: String!) { sendMessage(receiverId: $to, text: $text) { id } }', { to: 2, text: unique('Dated') });
    await page.goto('/message/center');
    await page.locator('.conversation-picker .conversation', { hasText: 'Marnie' }).click();
    await shown(page.locator('.message-card time').first());
    const messageTimes = await times();
    expect(messageTimes.length).toBeGreaterThan(0);
    for (const t of messageTimes) expect(t.text).toBe(t.minutes);

    await gql(page, 'mutation($input: ApiTokenInput!) { createApiToken(input: $input) { secret } }', {
      input: { name: unique('Dated token').slice(0, 40), scopes: ['READ'], expiresInDays: 30 },
    });
    await page.goto('/settings/api-tokens');
    await shown(page.locator('main time').first());
    for (const t of await times()) {
      expect(t.text).toBe(t.day);
      expect(t.text).toMatch(GERMAN);
    }

    const id = await createWebhook(page, `http://127.0.0.1:${await closedPort()}/hook`);
    await page.goto(`/settings/webhooks/${id}`);
    await page.getByRole('button', { name: 'Send test' }).click();
    await shown(page.locator('.webhook-log time').first());
    for (const t of await times()) {
      expect(t.text).toBe(t.seconds);
      expect(t.text).toMatch(GERMAN);
    }
    await gql(page, 'mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
    await context.close();
  });
});
