/**
 * Incoming mail in Chromium: the test mails the help desk through the gateway's SMTP listener (nodemailer)
 * and the ticket appears on the agent's dashboard; the agent opens it and replies (part 1: the test's SMTP server
 * receives the mail); the test answers by SMTP with In-Reply-To to that mail, and the answer appears in the agent's
 * timeline, live. Waits are bounded by the context's timeout (and the SMTP wait by its own).
 */
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../gateway/src/testing/smtp';
import { useBrowser } from './browser';
import { gone, shown, unique } from './helpers';
import { DEMO, liveConnected, signedIn, type Agent } from './liveHelpers';

const chromium = useBrowser();
let smtp: TestSmtp;
let demo: Agent;

beforeAll(async () => {
  smtp = await startSmtp(inject('smtpPort'));
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
});
afterAll(async () => {
  await smtp?.close();
});

/** Mails the help desk through the gateway's listener; resolves with the listener's answer. */
async function mailHelpDesk(mail: SendMailOptions): Promise<string> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inject('mailPort'), secure: false, ignoreTLS: true });
  try {
    const info = (await transport.sendMail({ to: 'help@fulcrum.test', ...mail })) as { response: string };
    return info.response;
  } finally {
    transport.close();
  }
}

const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });
/** The agent's mail the requester answered (the first test's), for the held mail's thread. */
let agentMail: { messageId: string; subject: string } | undefined;

describe('mail to the help desk', () => {
  it('a mail becomes a ticket on the dashboard; the agent replies; the mailed answer appears in the timeline', async () => {
    const page = demo.page;
    const title = unique('Mailed in').slice(0, 40);
    const address = `${unique('quinn')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}@example.test`;
    const firstText = unique('My badge stopped working');
    const accepted = await mailHelpDesk({ from: `"Quinn Mailer" <${address}>`, subject: title, text: firstText });
    const ticketId = Number(/ticket #(\d+)/.exec(accepted)?.[1]);
    expect(ticketId).toBeGreaterThan(0);

    // The dashboard lists it (Demo owns mail from new addresses: FULCRUM_MAIL_DEFAULT_AGENT).
    await page.goto('/view/tickets/all');
    const row = page.locator('.ticket-row', { hasText: title });
    await shown(row);
    await page.goto(`/view/ticket/${ticketId}`);
    await liveConnected(page);
    await shown(timeline(page).locator('.timeline-message', { hasText: firstText }));

    const replyText = unique('Please hold it to the reader for 5 seconds');
    await page.getByRole('group', { name: 'Write' }).getByRole('button', { name: 'Reply to requester' }).click();
    await page.locator('.composer textarea').fill(replyText);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await shown(timeline(page).locator('.timeline-reply', { hasText: replyText }));
    const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(replyText), 20_000);
    expect(mail.envelopeTo).toEqual([address]);
    agentMail = { messageId: mail.parsed.messageId!, subject: mail.parsed.subject ?? '' };

    const answer = unique('That worked, thank you');
    await mailHelpDesk({
      from: `"Quinn Mailer" <${address}>`,
      subject: `Re: ${mail.parsed.subject}`,
      text: `${answer}\n\nOn Monday, Support wrote:\n> ${replyText}\n`,
      inReplyTo: mail.parsed.messageId,
      references: [mail.parsed.messageId!],
    });
    const message = timeline(page).locator('.timeline-message', { hasText: answer });
    await shown(message);
    // Quoted history stripped, the full original a click away.
    expect(await message.locator('.timeline-public-body').innerText()).toBe(answer);
    await message.getByText('Show the full original').click();
    await shown(message.locator('.timeline-original-text', { hasText: replyText }));
  });

  it('a mail on the thread from another address is held: the agent sees why, and accepts it', async () => {
    const page = demo.page;
    const text = unique('I am her colleague, please also tell me');
    await mailHelpDesk({ from: 'colleague@example.test', subject: `Re: ${agentMail!.subject}`, text, inReplyTo: agentMail!.messageId });
    const message = timeline(page).locator('.timeline-message', { hasText: text });
    await shown(message);
    const held = message.getByRole('group', { name: 'Held mail' });
    await shown(held.getByText("Held: it came from an address other than the requester's."));
    await held.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => held.count()).toBe(0);
    expect(await message.locator('.timeline-public-head').innerText()).not.toContain('held for review');
    await shown(timeline(page).getByText('accepted a held mail'));
  });

  it('a held mail discarded through the confirm loses its text, and the timeline records the discard', async () => {
    const page = demo.page;
    const text = unique('Buy cheap watches here');
    await mailHelpDesk({ from: 'stranger@example.test', subject: `Re: ${agentMail!.subject}`, text, inReplyTo: agentMail!.messageId });
    const message = timeline(page).locator('.timeline-message', { hasText: text });
    await shown(message);
    const held = message.getByRole('group', { name: 'Held mail' });
    await held.getByRole('button', { name: 'Discard' }).click();
    // Asked first; "No" keeps it.
    const dialog = page.getByRole('dialog', { name: 'Discard this mail?' });
    await shown(dialog);
    await dialog.getByRole('button', { name: 'No' }).click();
    await gone(dialog);
    await shown(held);
    await held.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog', { name: 'Discard this mail?' }).getByRole('button', { name: 'Discard' }).click();
    await shown(timeline(page).getByText('discarded a held mail'));
    // The text is gone from the page (and from the server: the entry is read again after a reload).
    await expect.poll(() => timeline(page).getByText(text).count()).toBe(0);
    await page.reload();
    await shown(timeline(page).getByText('discarded a held mail'));
    expect(await timeline(page).getByText(text).count()).toBe(0);
  });
});
