/**
 * Talking to the requester in Chromium: the agent replies from the ticket page and the test's SMTP
 * server receives the mail; the requester page, opened from the mailed link in a browser context with no session,
 * shows the reply and never a note, passes axe, and the requester's answer appears in the agent's timeline (live);
 * the requester attaches an image to an answer and the agent sees it; the composer's two modes keep their own
 * drafts and the mode sticks; the ticket's macro fills the reply. Waits are bounded by the context's timeout (and
 * the SMTP wait by its own).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PNG } from '../gateway/src/testing/fixtures';
import { startSmtp, type TestSmtp } from '../gateway/src/testing/smtp';
import { blocking, axeViolations } from './axe';
import { useBrowser } from './browser';
import { createTicketApi, gql, shown, unique } from './helpers';
import { DEMO, liveConnected, signedIn, type Agent } from './liveHelpers';

const chromium = useBrowser();
let smtp: TestSmtp;
let demo: Agent;
let ticketId: number;
let title: string;
let requesterEmail: string;

beforeAll(async () => {
  smtp = await startSmtp(inject('smtpPort'));
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
  title = unique('Mailed');
  ticketId = await createTicketApi(demo.page, { title, requesterId: 1, description: 'Please answer me.' });
  requesterEmail = (await gql<{ customer: { email: string } }>(demo.page, '{ customer(id: 1) { email } }')).customer.email;
  await demo.page.goto(`/view/ticket/${ticketId}`);
  await liveConnected(demo.page);
});
afterAll(async () => {
  await smtp?.close();
});

const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });
const composerBox = (page: Page) => page.locator('.composer textarea');
const modeButton = (page: Page, name: 'Reply to requester' | 'Internal note') => page.getByRole('group', { name: 'Write' }).getByRole('button', { name });

describe('replies to the requester', () => {
  let link = '';
  const secret = unique('NOTE only agents see');
  const replyText = unique('We replaced the tray');

  it('an internal note stays in the timeline; a reply is sent to the requester and the SMTP server receives it', async () => {
    const page = demo.page;
    await modeButton(page, 'Internal note').click();
    await composerBox(page).fill(secret);
    await page.getByRole('button', { name: 'Add internal note' }).click();
    await shown(timeline(page).locator('.note-body', { hasText: secret }));

    await modeButton(page, 'Reply to requester').click();
    await expect.poll(() => page.locator('.composer').getAttribute('class')).toContain('composer-reply');
    await composerBox(page).fill(replyText);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = timeline(page).locator('.timeline-reply', { hasText: replyText });
    await shown(reply);
    const [mail] = await smtp.waitFor(1, (m) => m.parsed.subject === `Re: ${title} [#${ticketId}]`, 20_000);
    expect(mail.envelopeTo).toEqual([requesterEmail]);
    expect(mail.parsed.text).toContain(replyText);
    expect(mail.raw).not.toContain(secret);
    link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? '')![0];
    // The delivery's new state arrives live.
    await shown(reply.locator('[data-delivery="SENT"]', { hasText: 'Emailed to the requester' }));
  });

  it('the requester page (mailed link, no session) shows the reply and no note, passes axe; its answer reaches the agent live', async () => {
    const context = await chromium.browser.newContext();
    try {
      const requester = await context.newPage();
      await requester.goto(link);
      await shown(requester.getByRole('heading', { name: title }));
      await shown(requester.getByText(replyText));
      expect(await requester.content()).not.toContain(secret);
      expect(await context.cookies()).toEqual([]);
      expect(blocking(await axeViolations(requester))).toEqual([]);

      const answer = unique('Thanks, it works');
      await requester.getByLabel('Your message').fill(answer);
      await requester.getByRole('button', { name: 'Send' }).click();
      await shown(requester.getByRole('status').filter({ hasText: 'Your message was sent.' }));
      await shown(requester.getByText(answer));
      expect(blocking(await axeViolations(requester))).toEqual([]);
      await shown(timeline(demo.page).locator('.timeline-message', { hasText: answer }));
      // The dashboard shows that the ticket awaits a reply.
      await demo.page.goto('/view/tickets/all');
      await shown(demo.page.locator('.ticket-row', { hasText: title }).getByText('Awaiting reply'));
      await demo.page.goto(`/view/ticket/${ticketId}`);
      await liveConnected(demo.page);
    } finally {
      await context.close();
    }
  });
});

describe('attachments', () => {
  it('the agent attaches an image to a reply: listed with a remove button, mailed as an attachment, shown in the timeline and inline on the requester page', async () => {
    const page = demo.page;
    await modeButton(page, 'Reply to requester').click();
    const text = unique('Here is the screenshot');
    await composerBox(page).fill(text);
    const input = page.getByLabel(/Attach files/);
    await input.setInputFiles([
      { name: 'screenshot.png', mimeType: 'image/png', buffer: PNG },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain text') },
    ]);
    // The text file cannot be sent: said in words, and left out of the list.
    await shown(page.getByRole('alert').filter({ hasText: 'notes.txt: Attachments must be PNG, JPEG, GIF or WebP images, or PDF files.' }));
    const chosen = page.getByRole('list', { name: 'Files to send' });
    await shown(chosen.getByText('screenshot.png'));
    await shown(chosen.getByRole('button', { name: 'Remove screenshot.png' }));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const reply = timeline(page).locator('.timeline-reply', { hasText: text });
    await shown(reply.getByRole('img', { name: 'screenshot.png' }));
    await expect.poll(() => page.getByRole('list', { name: 'Files to send' }).count()).toBe(0);

    const [mail] = await smtp.waitFor(1, (m) => m.parsed.text?.includes(text) ?? false, 20_000);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['screenshot.png', 'image/png']]);
    const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? '')![0];

    const context = await chromium.browser.newContext();
    try {
      const requester = await context.newPage();
      await requester.goto(link);
      const image = requester.getByRole('img', { name: 'screenshot.png' });
      await shown(image);
      await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(blocking(await axeViolations(requester))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the requester's images", () => {
  it('the requester attaches an image to their answer on the page; the agent sees it in the timeline (live)', async () => {
    const link = (await gql<{ ticket: { requesterLink: string } }>(demo.page, `{ ticket(id: ${ticketId}) { requesterLink } }`)).ticket.requesterLink;
    const context = await chromium.browser.newContext();
    try {
      const requester = await context.newPage();
      await requester.goto(link);
      const text = unique('A photo of the tray');
      await requester.getByLabel('Your message').fill(text);
      await requester.getByLabel('Images', { exact: true }).setInputFiles([{ name: 'tray.png', mimeType: 'image/png', buffer: PNG }]);
      await requester.getByRole('button', { name: 'Send' }).click();
      await shown(requester.getByRole('status').filter({ hasText: 'Your message was sent.' }));
      const mine = requester.getByRole('img', { name: 'tray.png' });
      await shown(mine);
      await expect.poll(() => mine.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(blocking(await axeViolations(requester))).toEqual([]);
      // The agent's open ticket page hears of the message and shows its image (bounded by the context's timeout).
      const message = timeline(demo.page).locator('.timeline-message', { hasText: text });
      const image = message.getByRole('img', { name: 'tray.png' });
      await shown(image);
      await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});

describe('the composer', () => {
  it('keeps a draft per mode (a note draft never becomes a reply), and its mode sticks across a reload', async () => {
    const page = demo.page;
    const noteDraft = unique('note draft');
    const replyDraft = unique('reply draft');
    await modeButton(page, 'Internal note').click();
    await composerBox(page).fill(noteDraft);
    await modeButton(page, 'Reply to requester').click();
    expect(await composerBox(page).inputValue()).toBe('');
    await composerBox(page).fill(replyDraft);
    await shown(page.getByRole('button', { name: 'Send', exact: true }));
    await modeButton(page, 'Internal note').click();
    expect(await composerBox(page).inputValue()).toBe(noteDraft);
    await shown(page.getByRole('button', { name: 'Add internal note' }));
    expect(await page.locator('.composer').getAttribute('class')).toContain('composer-note');
    await modeButton(page, 'Reply to requester').click();
    expect(await composerBox(page).inputValue()).toBe(replyDraft);
    await page.reload();
    await shown(page.getByRole('button', { name: 'Send', exact: true }));
    expect(await modeButton(page, 'Reply to requester').getAttribute('aria-pressed')).toBe('true');
  });

  it("the ticket's macro is offered as a suggestion and fills the reply composer only when chosen", async () => {
    const page = demo.page;
    const text = unique('Hello! Restart the printer, then');
    const macro = (
      await gql<{ createMacro: { id: number } }>(page, 'mutation ($d: String!) { createMacro(input: { name: "Restart", description: $d }) { id } }', {
        d: text,
      })
    ).createMacro;
    const withMacro = await createTicketApi(page, { title: unique('Macro'), requesterId: 1, description: 'Uses a macro.', macroId: macro.id });
    await page.goto(`/view/ticket/${withMacro}`);
    await modeButton(page, 'Reply to requester').click();
    const suggestion = page.getByRole('button', { name: 'Suggested macro: Restart' });
    await shown(suggestion);
    expect(await composerBox(page).inputValue()).toBe('');
    await suggestion.click();
    await expect.poll(() => composerBox(page).inputValue()).toBe(text);
  });
});
