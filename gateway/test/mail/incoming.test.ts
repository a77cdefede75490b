/**
 * Incoming mail through the real SMTP listener: nodemailer sends to the gateway on 127.0.0.1, mailauth
 * checks the sender against fixed DNS answers (support.ts), and the mail becomes a ticket, a message on its thread,
 * a held message or a recorded loop. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { connect } from 'node:net';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { figure } from '../../src/testing/measure.js';
import { demoTicketImage } from '@fulcrum/schema';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, incomingRows, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';

const MAX_BYTES = 300_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let port: number;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk({ maxBytes: MAX_BYTES }));
  port = gw.smtp!.port;
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { id title description status assignee { email } requester { name email } image { url }
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { id body via held fromEmail attachments { filename mimeType } } } } } }`;
const ticketOf = async (id: number) => dataOf(await demo.gql(TICKET, { id })).ticket;
const messagesOf = async (id: number) => (await ticketOf(id)).timeline.nodes.filter((n: Data) => n.__typename === 'RequesterMessage');
const setStatus = async (id: number, status: string) =>
  dataOf(await demo.gql('mutation ($id: Int!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { status } }', { id, s: status }));

/** An agent's reply by mail to the ticket's requester; resolves with the mail as the requester received it. */
async function agentReply(ticketId: number, body: string) {
  dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id: ticketId, body }));
  const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
  return mail;
}

async function newTicketFrom(from: string, subject = 'Help needed'): Promise<number> {
  const messageId = freshId();
  const sent = await sendTo(port, { from, subject, text: 'The printer on floor 2 jams again.', messageId });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  if (ticketIn(sent)) return ticketIn(sent)!;
  // A p=reject domain's mail from 127.0.0.1 is held on its new ticket (docs/email.md "Forged mail"): an agent accepts it.
  const [row] = await incomingRows(gw.orm, messageId);
  expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
  dataOf(await demo.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: row.requester_message_id }));
  return row.ticket_id!;
}

describe('mail to the help desk', () => {
  it('a new address: a new customer and ticket (title cut to 40, description, first image, other files on the first entry), SPF/DMARC pass', async () => {
    const subject = 'My laptop will not start after the update of yesterday evening';
    const messageId = freshId('new');
    const sent = await sendTo(port, {
      from: '"Zed Example" <Zed@Good.test>',
      envelope: { from: 'zed@good.test', to: ['help@fulcrum.test'] },
      subject,
      text: 'It shows a black screen.\n\nWhat can I do?',
      messageId,
      attachments: [
        { filename: 'notes.pdf', content: PDF, contentType: 'application/pdf' },
        { filename: 'screen.png', content: PNG, contentType: 'image/png' },
      ],
    });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const id = ticketIn(sent)!;
    const ticket = await ticketOf(id);
    expect(ticket.title).toBe(subject.slice(0, 40).trim());
    expect(ticket.description).toBe('It shows a black screen.\n\nWhat can I do?');
    expect(ticket.status).toBe('OPEN');
    expect(ticket.requester).toEqual({ name: 'Zed Example', email: 'zed@good.test' });
    expect(ticket.assignee.email).toBe('demo@fulcrum.app');
    expect(ticket.image.url).toBeTruthy();
    const [first] = ticket.timeline.nodes;
    expect(first).toMatchObject({ __typename: 'RequesterMessage', via: 'EMAIL', held: false, fromEmail: 'zed@good.test' });
    expect(first.attachments).toEqual([{ filename: 'notes.pdf', mimeType: 'application/pdf' }]);
    const [row] = await incomingRows(gw.orm, messageId);
    expect(row).toMatchObject({ outcome: 'TICKET', ticket_id: id });
    expect(JSON.parse(row.auth!)).toMatchObject({ spf: 'pass', dmarc: 'pass' });
    // A mail of a known address belongs to the customer's owner; an empty subject and text get placeholders.
    const again = ticketIn(await sendTo(port, { from: 'zed@good.test', subject: '', text: '', messageId: freshId() }))!;
    expect(await ticketOf(again)).toMatchObject({ title: '(no subject)', description: '(no text)', requester: { email: 'zed@good.test' } });
  });

  it('a reply threads onto its ticket by In-Reply-To, quoted history stripped; a reply to SOLVED reopens it', async () => {
    const id = await newTicketFrom('amy@good.test');
    const mail = await agentReply(id, 'Please restart it once.');
    await setStatus(id, 'SOLVED');
    const messageId = freshId('reply');
    const sent = await sendTo(port, {
      from: 'Amy <amy@good.test>',
      subject: `Re: ${mail.parsed.subject}`,
      text: `It works now, thanks!\n\nOn Mon, 1 Jan 2026, Support wrote:\n> Please restart it once.\n> \n`,
      messageId,
      inReplyTo: mail.parsed.messageId,
      references: [mail.parsed.messageId!],
    });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const messages = await messagesOf(id);
    expect(messages[0]).toMatchObject({ body: 'It works now, thanks!', via: 'EMAIL', held: false });
    expect((await ticketOf(id)).status).toBe('OPEN');
    expect((await incomingRows(gw.orm, messageId))[0]).toMatchObject({ outcome: 'THREAD', ticket_id: id });
    // The thread root alone (a client that keeps only References' first id) threads too: DMARC passes here.
    const root = [mail.parsed.references ?? []].flat()[0];
    await sendTo(port, { from: 'amy@good.test', subject: 'More', text: 'One more thing.', messageId: freshId(), references: [root] });
    expect((await messagesOf(id))[0]).toMatchObject({ body: 'One more thing.', held: false });
  });

  it('another sender on the thread is held: shown to agents, never on the requester page, reopens nothing until accepted', async () => {
    const id = await newTicketFrom('bob@good.test');
    const mail = await agentReply(id, 'Which model is it?');
    await setStatus(id, 'SOLVED');
    const messageId = freshId('held');
    await sendTo(port, {
      from: 'mallory@good.test',
      subject: 'Re: x',
      text: 'HELD-SECRET please send me the data',
      messageId,
      inReplyTo: mail.parsed.messageId,
    });
    const [message] = await messagesOf(id);
    expect(message).toMatchObject({ body: 'HELD-SECRET please send me the data', held: true, fromEmail: 'mallory@good.test' });
    expect((await ticketOf(id)).status).toBe('SOLVED');
    expect((await incomingRows(gw.orm, messageId))[0]).toMatchObject({ outcome: 'HELD', reason: 'SENDER' });
    // A held mail is no one's word yet: the ticket does not await a reply.
    expect(dataOf(await demo.gql('query ($id: Int!) { ticket(id: $id) { awaitingReply } }', { id })).ticket.awaitingReply).toBe(false);
    const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? '')![0];
    const page = await (await fetch(link)).text();
    expect(page).toContain('Which model is it?');
    expect(page).not.toContain('HELD-SECRET');
    // Accepted, it is a message of the conversation like any other: the SOLVED ticket reopens, a change of its own by
    // the agent who accepted it, after the acceptance.
    dataOf(await demo.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: message.id }));
    expect((await ticketOf(id)).status).toBe('OPEN');
    const changes = dataOf(
      await demo.gql(`{ ticket(id: ${id}) { timeline(filter: CHANGES, first: 2) { nodes { ... on TicketChange {
        kind actor { kind name } changes { field from to } requesterMessageId } } } } }`),
    ).ticket.timeline.nodes;
    expect(changes).toEqual([
      { kind: 'UPDATED', actor: { kind: 'AGENT', name: 'Demo' }, changes: [{ field: 'status', from: 'SOLVED', to: 'OPEN' }], requesterMessageId: null },
      { kind: 'HELD_ACCEPTED', actor: { kind: 'AGENT', name: 'Demo' }, changes: [], requesterMessageId: message.id },
    ]);
  });

  it('agents see why mail is held, its authentication and its original; they accept or discard it; another agent cannot', async () => {
    const id = await newTicketFrom('ivy@good.test');
    const mail = await agentReply(id, 'Anything else?');
    const html = '<p>Forwarded <b>note</b></p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a>';
    const send = (text: string) =>
      sendTo(port, { from: 'boss@good.test', subject: 'Re: about Ivy', text, html, messageId: freshId('held'), inReplyTo: mail.parsed.messageId });
    await send('ACCEPT-ME\n\n> quoted history');
    await send('DISCARD-ME');
    const HELD = `query ($id: Int!) { ticket(id: $id) { timeline(filter: REPLIES) { nodes { ... on RequesterMessage {
      id body held heldReason discardedAt subject authentication { spf dkim dmarc } original { subject text html } } } } } }`;
    const [discardMe, acceptMe] = dataOf(await demo.gql(HELD, { id })).ticket.timeline.nodes as Data[];
    expect(acceptMe).toMatchObject({ body: 'ACCEPT-ME', held: true, heldReason: 'SENDER', subject: 'Re: about Ivy', discardedAt: null });
    expect(acceptMe.authentication).toMatchObject({ spf: 'pass', dmarc: 'pass' });
    expect(acceptMe.original.text).toContain('> quoted history');
    expect(acceptMe.original.html).toContain('<b>note</b>');
    expect(acceptMe.original.html).not.toMatch(/script|onerror|javascript:/);
    const marnie = await gw.as(1);
    const refused = await marnie.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: acceptMe.id });
    expect((refused.errors as Data[])[0].extensions.code).toBe('NOT_FOUND');
    const stranger = await marnie.gql('query ($id: Int!) { mailOriginal(messageId: $id) { text } }', { id: acceptMe.id });
    expect((stranger.errors as Data[])[0].extensions.code).toBe('NOT_FOUND');
    const accepted = dataOf(await demo.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id held } }', { id: acceptMe.id }));
    expect(accepted.acceptRequesterMessage).toEqual({ id: acceptMe.id, held: false });
    const discarded = dataOf(await demo.gql('mutation ($id: Int!) { discardRequesterMessage(id: $id) { id held body discardedAt } }', { id: discardMe.id }));
    expect(discarded.discardRequesterMessage).toMatchObject({ id: discardMe.id, held: true, body: '' });
    expect(discarded.discardRequesterMessage.discardedAt).toBeTruthy();
    const again = await demo.gql('mutation ($id: Int!) { discardRequesterMessage(id: $id) { id } }', { id: acceptMe.id });
    expect((again.errors as Data[])[0].extensions.code).toBe('NOT_FOUND');
    const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? '')![0];
    const page = await (await fetch(link)).text();
    expect(page).toContain('ACCEPT-ME');
    expect(page).not.toContain('DISCARD-ME');
    // Each settling is an entry of its own that names its message.
    const changes = dataOf(
      await demo.gql(`{ ticket(id: ${id}) { timeline(filter: CHANGES) { nodes { ... on TicketChange { kind requesterMessageId noteId } } } } }`),
    ).ticket.timeline.nodes;
    expect(changes.slice(0, 2)).toEqual([
      { kind: 'HELD_DISCARDED', requesterMessageId: discardMe.id, noteId: null },
      { kind: 'HELD_ACCEPTED', requesterMessageId: acceptMe.id, noteId: null },
    ]);
    const history = dataOf(await demo.gql(`{ ticketHistory(ticketId: ${id}, first: 2) { nodes { kind requesterMessageId } } }`)).ticketHistory.nodes;
    expect(history).toEqual([
      { kind: 'HELD_DISCARDED', requesterMessageId: discardMe.id },
      { kind: 'HELD_ACCEPTED', requesterMessageId: acceptMe.id },
    ]);
  });

  it('DMARC fail: the requester’s own address from a host its domain does not allow is held on the thread', async () => {
    const id = await newTicketFrom('carol@bank.test');
    const mail = await agentReply(id, 'Your statement is attached.');
    const messageId = freshId('dmarc');
    await sendTo(port, { from: 'carol@bank.test', subject: 'Re: statement', text: 'Send it to my new account.', messageId, inReplyTo: mail.parsed.messageId });
    const [row] = await incomingRows(gw.orm, messageId);
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
    expect(JSON.parse(row.auth!)).toMatchObject({ spf: 'fail', dmarc: 'fail' });
    expect((await messagesOf(id))[0]).toMatchObject({ held: true });
  });

  it('auto-replies and bounces are recorded, never answered, never reopen; outside a thread they make no ticket', async () => {
    const id = await newTicketFrom('dan@good.test');
    const mail = await agentReply(id, 'Done, closing.');
    await setStatus(id, 'SOLVED');
    const mailsBefore = smtp.received.length;
    const auto = freshId('auto');
    await sendTo(port, {
      from: 'dan@good.test',
      subject: 'Out of office',
      text: 'I am away until Monday.',
      messageId: auto,
      inReplyTo: mail.parsed.messageId,
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    const bounce = freshId('bounce');
    await sendTo(port, {
      from: 'MAILER-DAEMON@good.test',
      envelope: { from: '', to: ['help@fulcrum.test'] },
      subject: 'Undelivered Mail Returned to Sender',
      text: 'This is the mail system. Your message could not be delivered.',
      messageId: bounce,
      references: [mail.parsed.messageId!],
    });
    const bulk = freshId('bulk');
    const outside = await sendTo(port, {
      from: 'news@good.test',
      subject: 'Our newsletter',
      text: 'Big sale!',
      messageId: bulk,
      headers: { Precedence: 'bulk' },
    });
    // Our own reply coming back (a forwarding loop) is ours: recorded only.
    const echoed = await sendTo(port, { from: 'dan@good.test', subject: 'Re: loop', text: 'echo', messageId: mail.parsed.messageId });
    // Mail from our own address (FULCRUM_MAIL_FROM) opens nothing either.
    const self = freshId('self');
    expect(ticketIn(await sendTo(port, { from: 'Fulcrum Help <help@fulcrum.test>', subject: 'Ours', text: 'From us.', messageId: self }))).toBeNull();
    expect((await incomingRows(gw.orm, self))[0]).toMatchObject({ outcome: 'LOOP', ticket_id: null });
    expect(outside.ok && echoed.ok).toBe(true);
    expect(ticketIn(outside)).toBeNull();
    expect((await incomingRows(gw.orm, auto))[0]).toMatchObject({ outcome: 'LOOP', reason: 'LOOP', ticket_id: id });
    expect((await incomingRows(gw.orm, bounce))[0]).toMatchObject({ outcome: 'LOOP', ticket_id: id });
    expect((await incomingRows(gw.orm, bulk))[0]).toMatchObject({ outcome: 'LOOP', ticket_id: null });
    expect((await incomingRows(gw.orm, mail.parsed.messageId!))[0]).toMatchObject({ outcome: 'LOOP' });
    expect((await ticketOf(id)).status).toBe('SOLVED');
    const messages = await messagesOf(id);
    expect(messages.slice(0, 2).every((m: Data) => m.held)).toBe(true);
    // Nothing was sent back (no auto-acknowledgement, no answer to a loop).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(mailsBefore);
  });

  it('the same Message-ID twice is one entry', async () => {
    const messageId = freshId('dup');
    // The same mail: the same Date too (nodemailer would write the time of each send).
    const mail = { from: 'erin@good.test', subject: 'Twice', text: 'Sent twice by a retrying MTA.', messageId, date: new Date() };
    const first = await sendTo(port, mail);
    const second = await sendTo(port, mail);
    expect(first.ok && second.ok).toBe(true);
    expect(await incomingRows(gw.orm, messageId)).toHaveLength(1);
    expect(ticketIn(second)).toBeNull();
  });

  it('size: SIZE is advertised, a bigger mail is refused with 552, and the next one is accepted', async () => {
    const ehlo = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (text.startsWith('220') && !text.includes('EHLO sent')) {
          text += 'EHLO sent\n';
          socket.write('EHLO client.test\r\n');
        } else if (/\n250 [^\n]*\n?$/.test(text)) {
          socket.end('QUIT\r\n');
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(ehlo).toContain(`SIZE ${MAX_BYTES}`);
    const big = await sendTo(port, { from: 'fay@good.test', subject: 'Big', text: 'x'.repeat(MAX_BYTES + 1000), messageId: freshId() });
    expect(big).toMatchObject({ ok: false, code: 552 });
    // Just under the cap: accepted whole, its text cut to a message's 10,000 characters, the rest in the original.
    const near = await sendTo(port, { from: 'fay@good.test', subject: 'Near the cap', text: 'y'.repeat(MAX_BYTES - 20_000), messageId: freshId() });
    const nearId = ticketIn(near)!;
    expect((await messagesOf(nearId))[0].body).toHaveLength(10_000);
    expect(ticketIn(await sendTo(port, { from: 'fay@good.test', subject: 'Small', text: 'Fits.', messageId: freshId() }))).toBeGreaterThan(0);
  });

  it('hostile messages get an SMTP answer or an entry, never a crash; a normal mail afterwards becomes a ticket', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('Subject: a\r\nBcc: victim@good.test', 'x\u0000y', '=?utf-8?B?!!!?=', '=?x-unknown?Q?=FF=FE?=', '\r\n\r\n'),
    );
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom(
        'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64\r\n',
        'Content-Type: multipart/mixed; boundary=\r\n\r\n--\r\n--\r\n',
        'Content-Type: text/html\r\n\r\n<script>alert(1)</script><img src=x onerror=alert(1)>',
        '\u0000\u0000\u0000',
      ),
    );
    await fc.assert(
      fc.asyncProperty(header, header, body, async (subject, from, rest) => {
        const raw = `From: ${from}\r\nSubject: ${subject}\r\nMessage-ID: ${freshId('fuzz')}\r\n${rest}`;
        const sent = await sendTo(port, { envelope: { from: 'fuzz@good.test', to: ['help@fulcrum.test'] }, raw });
        if (!sent.ok) expect(sent.code, sent.response).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: Number(process.env.FULCRUM_MAIL_FUZZ_RUNS ?? 40) },
    );
    // A thousand attachments (beyond mailparser's 1,000 MIME parts): a ticket from the headers, the body in the original.
    const many = await sendTo(port, {
      from: 'gus@good.test',
      subject: 'Many files',
      text: 'See attached.',
      messageId: freshId(),
      attachments: Array.from({ length: 1000 }, (_, i) => ({ filename: `f${i}.txt`, content: `file ${i}` })),
    });
    const manyId = ticketIn(many)!;
    expect(await ticketOf(manyId)).toMatchObject({ title: 'Many files', requester: { email: 'gus@good.test' } });
    expect((await messagesOf(manyId))[0].body).toContain('could not be read in full');
    // Fifty: kept on the first entry, at most 20 (the rest in the original).
    const fifty = await sendTo(port, {
      from: 'gus@good.test',
      subject: 'Fifty files',
      text: 'See attached.',
      messageId: freshId(),
      attachments: Array.from({ length: 50 }, (_, i) => ({ filename: `f${i}.txt`, content: `file ${i}` })),
    });
    expect((await messagesOf(ticketIn(fifty)!))[0].attachments).toHaveLength(20);
    const after = await sendTo(port, { from: 'Hal <hal@good.test>', subject: 'Still there?', text: 'Normal mail.', messageId: freshId() });
    expect(await ticketOf(ticketIn(after)!)).toMatchObject({ title: 'Still there?', requester: { email: 'hal@good.test' } });
  }, 120_000);

  it('throughput: 100 kB mails with a 50 kB image at 10 connections, each readable over GraphQL once answered 250 (figures)', async () => {
    const image = demoTicketImage(3, 160, 120);
    const padding = Buffer.alloc(Math.max(0, 50_000 - image.length), 0).length;
    // A 50 kB PNG (the demo image and a private chunk of zeros: still a complete image) and ~50 kB of text.
    const png = padding ? withPrivateChunk(image, padding) : image;
    const text = 'The report is attached. '.repeat(2100);
    const total = 60;
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < total) {
          const i = next++;
          const sent = await sendTo(port, {
            from: `load${i}@good.test`,
            subject: `Load ${i}`,
            text,
            messageId: freshId('load'),
            attachments: [{ filename: 'chart.png', content: png }],
          });
          const acknowledged = performance.now();
          const id = ticketIn(sent)!;
          expect((await ticketOf(id)).title).toBe(`Load ${i}`);
          latencies.push(performance.now() - acknowledged);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    figure('incoming mail: messages per second (100 kB + 50 kB image, 10 connections)', (total / seconds).toFixed(1));
    figure('incoming mail: 250 -> readable over GraphQL, p99 ms', latencies[Math.ceil(latencies.length * 0.99) - 1].toFixed(0));
    expect(latencies).toHaveLength(total);
  }, 120_000);
});

/** A PNG with a private ancillary chunk of `size` zero bytes before IEND (decoders skip it; the image stays complete). */
function withPrivateChunk(png: Buffer, size: number): Buffer {
  const iend = png.length - 12;
  const type = Buffer.from('prVt');
  const data = Buffer.alloc(size);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(size);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])) >>> 0);
  return Buffer.concat([png.subarray(0, iend), length, type, data, crc, png.subarray(iend)]);
}
