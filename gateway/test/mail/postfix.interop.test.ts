/**
 * Fulcrum behind a real Postfix (docs/email.md "Tested behind Postfix"): a private Postfix instance (postfix.ts) on
 * 127.0.0.1 relays the help desk's domain to the SMTP listener by a transport map, as production is set up, and
 * delivers the gateway's replies (its SMTP_URL points at that Postfix) into the requesters' Maildir. Mail is sent
 * to Postfix, never to the listener: every shape of postfixShapes.ts and postfixServerShapes.ts, two distinct mails reusing one
 * Message-ID, and the reply round trip (our reply read from the Maildir, answered through Postfix, threaded, the
 * ticket reopened), and a reply whose recipient's server refuses it, so Postfix's own DSN marks it BOUNCED.
 * Skipped with a message where Postfix cannot run (no binary, not root). SQLite, or PostgreSQL + Redis.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { fixedResolver, freshId, incomingRows, sendTo, type IncomingRow } from './support.js';
import { freePort, postfixUnavailable, startPostfix, type Postfix } from './postfix.js';
import { CLIENT_SHAPES, type Shape } from './postfixShapes.js';
import { SERVER_SHAPES } from './postfixServerShapes.js';

const unavailable = postfixUnavailable();
if (unavailable) console.warn(`postfix.interop.test.ts skipped: ${unavailable}`);
const suite = describe.skipIf(unavailable !== null);

let gw: TestGateway;
let demo: TestClient;
let postfix: Postfix;

beforeAll(async () => {
  if (unavailable) return;
  const postfixPort = await freePort();
  gw = await startTestGateway({
    admin: true,
    mail: { smtpUrl: `smtp://127.0.0.1:${postfixPort}`, from: 'Fulcrum Help <help@fulcrum.test>', retryDelaysMs: [200] },
    incomingMail: { listen: '127.0.0.1:0', defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver, trustedRelays: ['127.0.0.1'] },
  });
  demo = await gw.as(0);
  postfix = await startPostfix({
    port: postfixPort,
    deskDomain: 'fulcrum.test',
    listenerPort: gw.smtp!.port,
    mailboxDomains: ['good.test'],
    refusingDomain: 'gone.test',
  });
}, 60_000);
afterAll(async () => {
  await postfix?.stop();
  await gw?.destroy();
});

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { id title description status requester { name email } image { url }
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { id body via held heldReason fromEmail attachments { filename mimeType } }
  ... on TicketReply { id delivery { state lastResponse } } } } } }`;
const ticketOf = async (id: number) => dataOf(await demo.gql(TICKET, { id })).ticket as Data;
const gql = async (query: string, variables: Data) => dataOf(await demo.gql(query, variables));

/** Sends raw mail to Postfix (never to the listener), to the help desk. */
async function throughPostfix(sender: string, raw: Buffer) {
  const sent = await sendTo(postfix.port, { envelope: { from: sender, to: ['help@fulcrum.test'] }, raw });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
}

/** The listener's records of a Message-ID once `count` of them arrived through Postfix (its log on time-out). */
async function arrived(messageId: string, count = 1): Promise<IncomingRow[]> {
  const deadline = Date.now() + 20_000;
  for (let attempt = 1; ; attempt++) {
    const rows = await incomingRows(gw.orm, messageId);
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`${messageId} did not reach the listener through Postfix:\n${(await postfix.log()).slice(-4000)}`);
    // Mail the listener deferred (451) is retried at once rather than after Postfix's backoff.
    if (attempt % 10 === 0) await postfix.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The mail in the requesters' Maildir whose text contains `needle`. */
async function delivered(needle: string): Promise<{ raw: string; parsed: ParsedMail }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const raw = (await postfix.maildir()).find((m) => m.includes(needle));
    if (raw) return { raw, parsed: await simpleParser(raw) };
    if (Date.now() > deadline) throw new Error(`no mail with "${needle}" in the Maildir:\n${(await postfix.log()).slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

suite('client shapes through Postfix', () => {
  it.each([...CLIENT_SHAPES, ...SERVER_SHAPES].map((shape) => [shape.name, shape] as [string, Shape]))('%s', async (_name, shape) => {
    const messageId = freshId('interop');
    await throughPostfix(shape.sender, shape.raw(messageId));
    const [row] = await arrived(messageId);
    const { expected } = shape;
    expect(row.outcome).toBe(expected.outcome);
    if (expected.outcome === 'LOOP') {
      expect(row.ticket_id).toBeNull();
      // Listed for admins with its cause.
      const listed = await gql('query { notTicketedMail(first: 100) { nodes { id reason } } }', {});
      expect(listed.notTicketedMail.nodes.find((n: Data) => n.id === row.id)).toEqual({ id: row.id, reason: expected.reason });
      return;
    }
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.title).toBe(expected.title);
    expect(ticket.description).toBe(expected.description);
    expect(ticket.status).toBe('OPEN');
    if (expected.requester) expect(ticket.requester).toEqual(expected.requester);
    else expect(ticket.requester.email).toBe(shape.sender);
    expect(Boolean(ticket.image)).toBe(expected.image ?? false);
    const [first] = ticket.timeline.nodes;
    expect(first).toMatchObject({ __typename: 'RequesterMessage', via: 'EMAIL', held: false });
    expect(first.attachments).toEqual(expected.files ?? []);
    // Through the trusted relay, SPF judges the client Postfix received the mail from (127.0.0.1: good.test's).
    expect(JSON.parse(row.auth!)).toMatchObject({ spf: 'pass', dmarc: 'pass' });
  });

  it('two distinct mails reusing one Message-ID are both kept, each a ticket of its own', async () => {
    const messageId = freshId('reused');
    const mail = (subject: string, text: string) =>
      Buffer.from(
        [
          `From: Lee <lee@good.test>`,
          'To: help@fulcrum.test',
          `Subject: ${subject}`,
          `Message-ID: ${messageId}`,
          'Date: Mon, 7 Dec 2026 10:00:00 +0000',
          '',
          text,
          '',
        ].join('\r\n'),
      );
    await throughPostfix('lee@good.test', mail('Monitor flickers', 'The monitor flickers.'));
    await arrived(messageId);
    await throughPostfix('lee@good.test', mail('Keyboard missing keys', 'Two keys fell off.'));
    const rows = await arrived(messageId, 2);
    expect(rows.map((r) => r.outcome)).toEqual(['TICKET', 'TICKET']);
    expect(new Set(rows.map((r) => r.ticket_id)).size).toBe(2);
    const titles = await Promise.all(rows.map(async (r) => (await ticketOf(r.ticket_id!)).title));
    expect(titles.sort()).toEqual(['Keyboard missing keys', 'Monitor flickers']);
  });
});

suite('Postfix relays nothing outside', () => {
  it('mail for a domain of no test is refused at RCPT, never queued for the world', async () => {
    const sent = await sendTo(postfix.port, { from: 'gia@good.test', to: 'someone@example.com', subject: 'Out', text: 'Out.', messageId: freshId('out') });
    expect(sent).toMatchObject({ ok: false, code: 550 });
    expect(sent.response).toContain('5.7.1');
    expect(await postfix.log()).toMatch(/NOQUEUE: reject: RCPT .* to=<someone@example\.com>/);
  });
});

suite('the reply round trip through Postfix', () => {
  it('our reply lands in the Maildir threaded on the requester’s mail; their answer comes back, threads and reopens', async () => {
    const first = freshId('rt');
    await throughPostfix(
      'rita@good.test',
      Buffer.from(
        [
          'From: Rita Jones <rita@good.test>',
          'To: help@fulcrum.test',
          'Subject: Refund for order 9',
          `Message-ID: ${first}`,
          'Date: Mon, 7 Dec 2026 11:00:00 +0000',
          'User-Agent: Mozilla Thunderbird',
          'Content-Type: text/plain; charset=UTF-8; format=flowed',
          '',
          'Where is my refund for order 9?',
          '',
        ].join('\r\n'),
      ),
    );
    const id = (await arrived(first))[0].ticket_id!;
    const secret = `NOTE-SECRET-${id}`;
    await gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', { id, body: secret });
    const body = `We sent the refund for ticket ${id} today.`;
    const reply = (await gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body })).replyToRequester
      .id as number;

    const { raw, parsed } = await delivered(body);
    expect(raw).toMatch(/^Delivered-To: rita@good\.test$/m);
    expect(raw).toMatch(/^Received: from \[127\.0\.0\.1\] .*\n\s+by mx\.interop\.test \(Postfix\)/m);
    expect(parsed.from?.value[0].address).toBe('help@fulcrum.test');
    expect(parsed.subject).toBe(`Re: Refund for order 9 [#${id}]`);
    expect(parsed.messageId).toMatch(/^<reply-[0-9a-f]{24}@[^>]+>$/);
    expect(parsed.inReplyTo).toBe(first);
    const references = [parsed.references ?? []].flat();
    expect(references[0]).toMatch(new RegExp(`^<ticket-${id}\\.[A-Za-z0-9_-]+@`));
    expect(references.at(-1)).toBe(first);
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain('demo@fulcrum.app');
    const replyNode = async () => (await ticketOf(id)).timeline.nodes.find((n: Data) => n.__typename === 'TicketReply' && n.id === reply);
    await expect.poll(async () => (await replyNode()).delivery.state, { timeout: 10_000 }).toBe('SENT');

    // The requester's client answers it (Gmail's shape: quoted history under an attribution line), through Postfix.
    await gql('mutation ($id: Int!) { setTicketStatus(id: $id, status: PENDING) { status } }', { id });
    const answer = freshId('rt-answer');
    await throughPostfix(
      'rita@good.test',
      Buffer.from(
        [
          'From: Rita Jones <rita@good.test>',
          'To: Fulcrum Help <help@fulcrum.test>',
          `Subject: Re: ${parsed.subject}`,
          `Message-ID: ${answer}`,
          `In-Reply-To: ${parsed.messageId}`,
          `References: ${[...references, parsed.messageId].join(' ')}`,
          'Date: Tue, 8 Dec 2026 08:00:00 +0000',
          'Content-Type: text/plain; charset="UTF-8"',
          '',
          'Thanks, it arrived!',
          '',
          `On Mon, Dec 7, 2026 at 12:00 PM Fulcrum Help <help@fulcrum.test> wrote:`,
          `> ${body}`,
          '',
        ].join('\r\n'),
      ),
    );
    expect((await arrived(answer))[0]).toMatchObject({ outcome: 'THREAD', ticket_id: id });
    const ticket = await ticketOf(id);
    expect(ticket.status).toBe('OPEN');
    expect(ticket.timeline.nodes.find((n: Data) => n.__typename === 'RequesterMessage' && n.body === 'Thanks, it arrived!')).toMatchObject({
      via: 'EMAIL',
      held: false,
      fromEmail: 'rita@good.test',
    });
  });

  it('a reply the recipient’s server refuses comes back as Postfix’s DSN and is marked BOUNCED', async () => {
    const first = freshId('gone');
    const opening = ['From: Kim <kim@gone.test>', 'To: help@fulcrum.test', 'Subject: Account closed?', `Message-ID: ${first}`, '', 'Is my account closed?', ''];
    await throughPostfix('kim@gone.test', Buffer.from(opening.join('\r\n')));
    const id = (await arrived(first))[0].ticket_id!;
    const reply = (await gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body: 'It is open.' }))
      .replyToRequester.id as number;
    const node = async () => (await ticketOf(id)).timeline.nodes.find((n: Data) => n.__typename === 'TicketReply' && n.id === reply);
    await expect.poll(async () => (await node()).delivery.state, { timeout: 20_000, interval: 200 }).toBe('BOUNCED');
    expect((await node()).delivery.lastResponse).toMatch(/^550 5\.1\.1 .*User unknown/);
    const ticket = await ticketOf(id);
    expect(ticket.status).toBe('OPEN');
    const held = ticket.timeline.nodes.filter((n: Data) => n.__typename === 'RequesterMessage' && n.held);
    expect(held).toEqual([expect.objectContaining({ heldReason: 'LOOP' })]);
    expect(await postfix.log()).toMatch(/to=<kim@gone\.test>.*status=bounced/);
  });
});
