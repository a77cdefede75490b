/**
 * A bounce of our reply (docs/email.md "Bounces"): a DSN (multipart/report with the returned mail's headers) or a
 * plain bounce quoting our mail, sent with the empty envelope sender through the real listener, marks the reply
 * BOUNCED with the Diagnostic-Code (else the Status), is held (LOOP) on the reply's ticket, never reopens it, and
 * sends one TICKET_REPLY_BOUNCED webhook event. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { createWebhook, startReceiver, type Receiver } from '../webhooks/support.js';
import { freshId, incomingRows, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';
import { sendRaw } from './rawSmtp.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ smtp, gw, demo } = await startMailDesk({}, { webhooks: { allowHosts: '127.0.0.1', retryDelaysMs: [200], pollMs: 200 } }));
  await createWebhook(demo, receiver.url, ['TICKET_REPLY_BOUNCED', 'TICKET_UPDATED', 'TICKET_REPLY_ADDED', 'TICKET_REQUESTER_MESSAGE_ADDED']);
}, 60_000);
afterAll(async () => {
  await stopMailDesk({ gw, smtp });
  await receiver?.close();
});

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { status timeline(filter: REPLIES) { nodes { __typename
  ... on TicketReply { id delivery { state lastResponse } }
  ... on RequesterMessage { id body held heldReason fromEmail } } } } }`;
const ticketOf = async (id: number) => dataOf(await demo.gql(TICKET, { id })).ticket as Data;

/** A ticket from `from`, and our reply to it as the requester's mail server received it. */
async function repliedTicket(from: string, body: string) {
  const sent = await sendTo(gw.smtp!.port, { from, subject: 'Broken login', text: 'I cannot log in.', messageId: freshId('b') });
  const id = ticketIn(sent)!;
  const reply = dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body }))
    .replyToRequester.id as number;
  const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
  await expect
    .poll(async () => (await ticketOf(id)).timeline.nodes.find((n: Data) => n.id === reply && n.__typename === 'TicketReply')?.delivery.state)
    .toBe('SENT');
  return { id, reply, messageId: mail.parsed.messageId!, to: from };
}

const fold = (text: string) => (text.indexOf(' ', 25) > 0 ? text.indexOf(' ', 25) : text.length);

function dsn(originalId: string, to: string, diagnostic: string | null, bounceId: string): string {
  const boundary = 'dsn-boundary-42';
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.good.test>',
    'To: help@fulcrum.test',
    'Subject: Undelivered Mail Returned to Sender',
    `Message-ID: ${bounceId}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.good.test. Your message could not be delivered.',
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.good.test',
    '',
    `Final-Recipient: rfc822; ${to}`,
    'Action: failed',
    'Status: 5.1.1',
    // Folded at a space, as MTAs write a long one.
    ...(diagnostic ? [`Diagnostic-Code: smtp; ${diagnostic.slice(0, fold(diagnostic))}`, `    ${diagnostic.slice(fold(diagnostic) + 1)}`] : []),
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    'From: Fulcrum Help <help@fulcrum.test>',
    `To: ${to}`,
    'Subject: Re: Broken login',
    `Message-ID: ${originalId}`,
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

describe('bounces of our replies', () => {
  it('a DSN marks the reply BOUNCED with its Diagnostic-Code, is held LOOP on the ticket, never reopens it, one webhook event', async () => {
    const t = await repliedTicket('gone@good.test', 'Please try the reset link.');
    dataOf(await demo.gql('mutation ($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { status } }', { id: t.id }));
    const diagnostic = '550 5.1.1 <gone@good.test>: Recipient address rejected: User unknown';
    const bounceId = freshId('dsn');
    expect(await sendRaw(gw.smtp!.port, '', dsn(t.messageId, t.to, diagnostic, bounceId))).toMatch(/^250/);
    const ticket = await ticketOf(t.id);
    expect(ticket.status).toBe('SOLVED');
    const reply = ticket.timeline.nodes.find((n: Data) => n.__typename === 'TicketReply' && n.id === t.reply);
    expect(reply.delivery).toEqual({ state: 'BOUNCED', lastResponse: diagnostic });
    const held = ticket.timeline.nodes.find((n: Data) => n.__typename === 'RequesterMessage' && n.held);
    expect(held).toMatchObject({ held: true, heldReason: 'LOOP' });
    expect((await incomingRows(gw.orm, bounceId))[0]).toMatchObject({ outcome: 'LOOP', ticket_id: t.id });
    const [event] = await receiver.waitFor(1, (r) => r.json.type === 'TICKET_REPLY_BOUNCED');
    expect(event.json.data).toEqual({ id: t.reply, ticketId: t.id, delivery: { state: 'BOUNCED', lastResponse: diagnostic } });
    // The same reply bounced again (another DSN): held again, no second event, the state as it was.
    expect(await sendRaw(gw.smtp!.port, '', dsn(t.messageId, t.to, '550 5.7.1 another', freshId('dsn')))).toMatch(/^250/);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.filter((r) => r.json.type === 'TICKET_REPLY_BOUNCED' && r.json.data.id === t.reply)).toHaveLength(1);
    expect(receiver.received.filter((r) => r.json.type === 'TICKET_UPDATED' && r.json.data.id === t.id).length).toBeLessThanOrEqual(1);
    expect((await ticketOf(t.id)).timeline.nodes.find((n: Data) => n.id === t.reply && n.__typename === 'TicketReply').delivery.lastResponse).toBe(diagnostic);
  });

  it('a DSN without a Diagnostic-Code gives its Status; a plain bounce quoting our mail is matched too', async () => {
    const a = await repliedTicket('nobody@good.test', 'Your code is ready.');
    await sendRaw(gw.smtp!.port, '', dsn(a.messageId, a.to, null, freshId('dsn')));
    expect((await ticketOf(a.id)).timeline.nodes.find((n: Data) => n.id === a.reply && n.__typename === 'TicketReply').delivery).toEqual({
      state: 'BOUNCED',
      lastResponse: 'Status 5.1.1',
    });
    const b = await repliedTicket('full@good.test', 'The invoice is attached.');
    const plain = [
      'From: postmaster@good.test',
      'To: help@fulcrum.test',
      'Subject: Delivery failure',
      `Message-ID: ${freshId('plain')}`,
      '',
      'Your mail could not be delivered: mailbox full.',
      '',
      '------ Original message ------',
      `Message-ID: ${b.messageId}`,
      'Subject: Re: Broken login',
      '',
    ].join('\r\n');
    await sendRaw(gw.smtp!.port, 'postmaster@good.test', plain);
    const ticket = await ticketOf(b.id);
    expect(ticket.timeline.nodes.find((n: Data) => n.id === b.reply && n.__typename === 'TicketReply').delivery.state).toBe('BOUNCED');
    expect(ticket.timeline.nodes.find((n: Data) => n.__typename === 'RequesterMessage' && n.held)).toMatchObject({ heldReason: 'LOOP' });
  });

  it('a bounce of mail that is not ours is recorded as not ticketed; an out-of-office quoting our id marks nothing', async () => {
    const t = await repliedTicket('ooo@good.test', 'We will call you.');
    const stranger = freshId('stranger');
    await sendRaw(gw.smtp!.port, '', dsn('<somebody-else@elsewhere.test>', 'x@good.test', '550 5.1.1 unknown', stranger));
    expect((await incomingRows(gw.orm, stranger))[0]).toMatchObject({ outcome: 'LOOP', ticket_id: null });
    await sendTo(gw.smtp!.port, {
      from: 'ooo@good.test',
      subject: 'Out of office',
      text: `I am away.\n\nMessage-ID: ${t.messageId}`,
      messageId: freshId('ooo'),
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect((await ticketOf(t.id)).timeline.nodes.find((n: Data) => n.id === t.reply && n.__typename === 'TicketReply').delivery.state).toBe('SENT');
  });
});

describe('conversation webhook events', () => {
  it('TICKET_REPLY_ADDED once per reply with its delivery then; TICKET_REQUESTER_MESSAGE_ADDED for mail (held too), never the text', async () => {
    const t = await repliedTicket('convo@good.test', 'CONVO-REPLY-TEXT we are on it.');
    const first = await receiver.waitFor(1, (r) => r.json.type === 'TICKET_REQUESTER_MESSAGE_ADDED' && r.json.data.ticketId === t.id);
    expect(first[0].json.data).toMatchObject({ ticketId: t.id, via: 'EMAIL', held: false, heldReason: null });
    const [added] = await receiver.waitFor(1, (r) => r.json.type === 'TICKET_REPLY_ADDED' && r.json.data.ticketId === t.id);
    expect(added.json.data).toMatchObject({ id: t.reply, ticketId: t.id, delivery: { state: 'QUEUED' } });
    expect(added.body).not.toContain('CONVO-REPLY-TEXT');
    // Another sender on the thread: held, and said so.
    await sendTo(gw.smtp!.port, { from: 'other@good.test', subject: 'Re', text: 'CONVO-HELD-TEXT', messageId: freshId('h'), inReplyTo: t.messageId });
    const messages = await receiver.waitFor(2, (r) => r.json.type === 'TICKET_REQUESTER_MESSAGE_ADDED' && r.json.data.ticketId === t.id);
    expect(messages[1].json.data).toMatchObject({ ticketId: t.id, via: 'EMAIL', held: true, heldReason: 'SENDER' });
    expect(messages[1].body).not.toContain('CONVO-HELD-TEXT');
    // The delivery's later change (SENT) is not a second TICKET_REPLY_ADDED.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.filter((r) => r.json.type === 'TICKET_REPLY_ADDED' && r.json.data.id === t.reply)).toHaveLength(1);
  });
});
