/**
 * A requester's answer reopens a PENDING ticket as it reopens a SOLVED one (docs/email.md "Threading"), by mail or
 * on the requester page; an out-of-office reply or a bounce never does. Real mail through the SMTP listener;
 * SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';
import { sendRaw } from './rawSmtp.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk());
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

const statusOf = async (id: number) =>
  dataOf(await demo.gql('query ($id: Int!) { ticket(id: $id) { status awaitingReply } }', { id })).ticket as { status: string; awaitingReply: boolean };
const setStatus = async (id: number, status: string) =>
  dataOf(await demo.gql('mutation ($id: Int!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { status } }', { id, s: status }));

/** A ticket from `from`, our reply to it (as received), and the ticket set PENDING. */
async function pendingTicket(from: string) {
  const id = ticketIn(await sendTo(gw.smtp!.port, { from, subject: 'Refund', text: 'Where is my refund?', messageId: freshId('p') }))!;
  const body = `We asked the bank (${id}).`;
  dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body }));
  const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
  await setStatus(id, 'PENDING');
  return { id, mail };
}

describe('a requester’s answer on a PENDING ticket', () => {
  it('by mail reopens it; an out-of-office and a bounce on the thread do not', async () => {
    const { id, mail } = await pendingTicket('rita@good.test');
    await sendTo(gw.smtp!.port, {
      from: 'rita@good.test',
      subject: 'Automatic reply: Refund',
      text: 'I am out of the office until Monday.',
      messageId: freshId('ooo'),
      inReplyTo: mail.parsed.messageId,
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    const bounce = [
      'From: MAILER-DAEMON@mx.good.test',
      'To: help@fulcrum.test',
      'Subject: Undelivered Mail Returned to Sender',
      `Message-ID: ${freshId('dsn')}`,
      '',
      'Status: 4.2.2',
      `Message-ID: ${mail.parsed.messageId}`,
      '',
    ].join('\r\n');
    expect(await sendRaw(gw.smtp!.port, '', bounce)).toMatch(/^250/);
    expect((await statusOf(id)).status).toBe('PENDING');
    await sendTo(gw.smtp!.port, {
      from: 'Rita <rita@good.test>',
      subject: `Re: ${mail.parsed.subject}`,
      text: 'The bank says it never got it.',
      messageId: freshId('answer'),
      inReplyTo: mail.parsed.messageId,
    });
    expect(await statusOf(id)).toEqual({ status: 'OPEN', awaitingReply: true });
  });

  it('on the requester page reopens it', async () => {
    const { id, mail } = await pendingTicket('page@good.test');
    const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? '')![0];
    const answer = await fetch(link, { method: 'POST', body: new URLSearchParams({ body: 'Any news?' }), redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect((await statusOf(id)).status).toBe('OPEN');
  });
});
