/**
 * Incoming mail that tries to pass for the requester or for another mail (docs/email.md "Threading", "Held mail",
 * "One entry per mail"), through the real SMTP listener and mailauth with fixed DNS (support.ts): a second From
 * address, a forged reply that names only the thread root, a reused or malformed Message-ID, mailed images that fail
 * the image checks, and file names with bidi controls. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { generateKeyPairSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { JPEG, PNG } from '../../src/testing/fixtures.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { FIXED_DNS, freshId, incomingRows, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let port: number;
/** The DKIM key of `signed.test` (selector `s1`), a domain with no SPF and no DMARC record. */
let dkimKey: string;

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  FIXED_DNS['TXT s1._domainkey.signed.test'] = [[`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]];
  ({ smtp, gw, demo } = await startMailDesk());
  port = gw.smtp!.port;
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { id status image { url }
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { id body held heldReason attachments { filename mimeType } } } } } }`;
const ticketOf = async (id: number) => dataOf(await demo.gql(TICKET, { id })).ticket;
const messagesOf = async (id: number): Promise<Data[]> => (await ticketOf(id)).timeline.nodes.filter((n: Data) => n.__typename === 'RequesterMessage');
const setStatus = async (id: number, status: string) =>
  dataOf(await demo.gql('mutation ($id: Int!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { status } }', { id, s: status }));

/** A new ticket of `from`, an agent's reply to it, and the reply's mail as the requester received it. */
async function ticketWithReply(from: string) {
  const opening = freshId('open');
  const sent = await sendTo(port, { from, subject: 'Help', text: 'Please help.', messageId: opening });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  let id = ticketIn(sent)!;
  if (!id) {
    // A p=reject domain's mail from 127.0.0.1 is held on its new ticket (docs/email.md "Forged mail"): an agent accepts it.
    const [row] = await incomingRows(gw.orm, opening);
    dataOf(await demo.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: row.requester_message_id }));
    id = row.ticket_id!;
  }
  const body = `Reply ${freshId('body')}`;
  dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body }));
  const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
  const root = [mail.parsed.references ?? []].flat()[0];
  return { id, mail, root, replyId: mail.parsed.messageId! };
}

/** A mail written out by hand (header lines, then the text), sent as is. */
const raw = (envelopeFrom: string, headers: string[], text: string) =>
  sendTo(port, { envelope: { from: envelopeFrom, to: ['help@fulcrum.test'] }, raw: `${headers.join('\r\n')}\r\n\r\n${text}\r\n` });

describe('mail that tries to pass for the requester', () => {
  it('a second From address is refused at the end of DATA (554 5.6.0) and never joins the thread', async () => {
    const { id, replyId } = await ticketWithReply('kim@bank.test');
    await setStatus(id, 'SOLVED');
    const before = (await messagesOf(id)).length;
    const date = new Date().toUTCString();
    for (const from of [['From: kim@bank.test', 'From: mallory@good.test'], ['From: kim@bank.test, mallory@good.test']]) {
      const messageId = freshId('twofrom');
      const sent = await raw(
        'mallory@good.test',
        [...from, 'To: help@fulcrum.test', 'Subject: Re: Help', `Date: ${date}`, `Message-ID: ${messageId}`, `In-Reply-To: ${replyId}`],
        'Pay to my new account.',
      );
      expect(sent.ok).toBe(false);
      expect(sent.ok ? 0 : sent.code).toBe(554);
      expect(sent.response).toMatch(/5\.6\.0 .*exactly one From/);
      expect(await incomingRows(gw.orm, messageId)).toEqual([]);
    }
    expect((await messagesOf(id)).length).toBe(before);
    expect((await ticketOf(id)).status).toBe('SOLVED');
    // One From, the same forgery: held for DMARC, as before.
    const one = freshId('onefrom');
    await raw(
      'mallory@good.test',
      ['From: kim@bank.test', 'Subject: Re: Help', `Date: ${date}`, `Message-ID: ${one}`, `In-Reply-To: ${replyId}`],
      'Pay to my new account.',
    );
    expect((await incomingRows(gw.orm, one))[0]).toMatchObject({ outcome: 'HELD', reason: 'DMARC', ticket_id: id });
  });

  it('a reply naming only the thread root is held UNVERIFIED unless DKIM or DMARC vouch for its sender; a real reference threads', async () => {
    // plain.test has no DNS at all: SPF none, DMARC none, so anyone can write as zoe@plain.test.
    const { id, root, replyId } = await ticketWithReply('zoe@plain.test');
    expect(root).toMatch(new RegExp(`^<ticket-${id}\\.[0-9a-f]{32}@127\\.0\\.0\\.1>$`));
    await setStatus(id, 'SOLVED');
    const forged = async (references: string[]) => {
      const messageId = freshId('forged');
      const sent = await sendTo(port, {
        from: 'zoe@plain.test',
        subject: 'Re: Help',
        text: 'Send the files to me.',
        messageId,
        inReplyTo: references[0],
        references,
      });
      expect(sent.ok, JSON.stringify(sent)).toBe(true);
      return (await incomingRows(gw.orm, messageId))[0];
    };
    // The root, and the old sequential root: held, the ticket stays solved, the requester side never sees them.
    for (const refs of [[root], [`<ticket-${id}@127.0.0.1>`]])
      expect(await forged(refs)).toMatchObject({ outcome: 'HELD', reason: 'UNVERIFIED', ticket_id: id });
    expect((await messagesOf(id)).slice(0, 2)).toEqual([
      expect.objectContaining({ held: true, heldReason: 'UNVERIFIED' }),
      expect.objectContaining({ held: true, heldReason: 'UNVERIFIED' }),
    ]);
    expect((await ticketOf(id)).status).toBe('SOLVED');
    // A guessed token names no ticket: a new ticket of its own.
    const guessed = await forged([`<ticket-${id}.${'0'.repeat(32)}@127.0.0.1>`]);
    expect(guessed.outcome).toBe('TICKET');
    expect(guessed.ticket_id).not.toBe(id);
    // A reference to a held mail is no better than the root.
    const held = await forged([root]);
    expect(await forged([held.message_id])).toMatchObject({ outcome: 'HELD', reason: 'UNVERIFIED', ticket_id: id });
    // One of our replies' Message-IDs is proof enough: it threads and reopens.
    expect(await forged([root, replyId])).toMatchObject({ outcome: 'THREAD', reason: null, ticket_id: id });
    expect((await ticketOf(id)).status).toBe('OPEN');
  });

  it('a root-only reply with a DKIM signature aligned with its From domain threads; an unaligned signature does not', async () => {
    const { id, root } = await ticketWithReply('sig@signed.test');
    const signedBy = async (domainName: string) => {
      const messageId = freshId('signed');
      const sent = await sendTo(port, {
        from: 'sig@signed.test',
        subject: 'Re: Help',
        text: `Signed by ${domainName}.`,
        messageId,
        inReplyTo: root,
        references: [root],
        dkim: { domainName, keySelector: 's1', privateKey: dkimKey },
      });
      expect(sent.ok, JSON.stringify(sent)).toBe(true);
      return (await incomingRows(gw.orm, messageId))[0];
    };
    const aligned = await signedBy('signed.test');
    expect(aligned).toMatchObject({ outcome: 'THREAD', ticket_id: id });
    expect(JSON.parse(aligned.auth!)).toMatchObject({ dkim: 'pass', dmarc: 'none', dkimAligned: true });
    // Signed for another domain (no key there: the signature fails, and would not align anyway).
    expect(await signedBy('other.test')).toMatchObject({ outcome: 'HELD', reason: 'UNVERIFIED', ticket_id: id });
  });
});

describe('one entry per mail', () => {
  const date = new Date();
  const base = (messageId: string, text: string) => ({ from: 'uma@good.test', subject: 'Ids', text, messageId, date });

  it('the same mail twice is one entry; another mail with its Message-ID is an entry of its own', async () => {
    const messageId = freshId('same');
    const first = await sendTo(port, base(messageId, 'The first mail.'));
    const again = await sendTo(port, { ...base(messageId, 'The first mail.'), headers: { Received: 'from relay.test by mx.test; today' } });
    expect(ticketIn(first)).not.toBeNull();
    expect(again).toMatchObject({ ok: true, response: expect.stringContaining('Accepted before') });
    expect(await incomingRows(gw.orm, messageId)).toHaveLength(1);
    // The same Message-ID on a different mail (a sender that reuses ids, or one who pre-empts the next id).
    const other = await sendTo(port, base(messageId, 'A different mail.'));
    expect(ticketIn(other)).not.toBeNull();
    expect(ticketIn(other)).not.toBe(ticketIn(first));
    expect(await incomingRows(gw.orm, messageId)).toHaveLength(2);
  });

  it('a malformed Message-ID is no Message-ID: it collides with nothing, and the same mail twice is still one entry', async () => {
    const inner = freshId('inner');
    const headers = (id: string) => ['From: uma@good.test', 'Subject: Malformed', `Date: ${date.toUTCString()}`, `Message-ID: ${id}`];
    const malformed = await raw('uma@good.test', headers(`junk ${inner}`), 'Malformed id.');
    expect(ticketIn(malformed)).not.toBeNull();
    const twice = await raw('uma@good.test', headers(`junk ${inner}`), 'Malformed id.');
    expect(twice).toMatchObject({ ok: true, response: expect.stringContaining('Accepted before') });
    const proper = await raw('uma@good.test', headers(inner), 'Proper id.');
    expect(ticketIn(proper)).not.toBeNull();
    expect(await incomingRows(gw.orm, inner)).toHaveLength(1);
  });
});

/** The PNG fixture claiming another size (its IHDR rewritten, CRC and all): 12000 x 12000 is 144 megapixels. */
function pngClaiming(width: number, height: number): Buffer {
  const png = Buffer.from(PNG);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

describe('mailed files', () => {
  it('every image is checked as an upload is: one that fails is kept as a download, not shown inline; names lose bidi controls', async () => {
    const appended = Buffer.concat([PNG, Buffer.from('<html><script>alert(1)</script></html>')]);
    const sent = await sendTo(port, {
      from: 'ivy@good.test',
      subject: 'Pictures',
      text: 'Four pictures.',
      messageId: freshId('images'),
      attachments: [
        { filename: 'first.png', content: PNG, contentType: 'image/png' },
        { filename: 'appended.png', content: appended, contentType: 'image/png' },
        { filename: 'huge.png', content: pngClaiming(12000, 12000), contentType: 'image/png' },
        { filename: 'photo.jpg', content: JPEG, contentType: 'image/jpeg' },
        { filename: 'invoice\u202efdp.exe', content: PNG, contentType: 'image/png' },
      ],
    });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const ticket = await ticketOf(ticketIn(sent)!);
    expect(ticket.image.url).toBeTruthy();
    expect(ticket.timeline.nodes[0].attachments).toEqual([
      { filename: 'appended.png', mimeType: 'application/octet-stream' },
      { filename: 'huge.png', mimeType: 'application/octet-stream' },
      { filename: 'photo.jpg', mimeType: 'image/jpeg' },
      { filename: 'invoicefdp.exe', mimeType: 'image/png' },
    ]);
  });
});
