/**
 * Mail from an agent's own address outside any thread (docs/email.md "Mail from an agent's address"): an agent
 * forwards a customer's mail to the help desk. With the agent's address authenticated (here a DKIM signature aligned
 * with fulcrum.app, the agents' domain, through mailauth and fixed DNS) the ticket is the agent's, its requester the
 * forwarded customer (an inline forward's first From, or an attached message's); without, or with no requester to
 * read, the mail is held on a new ticket. No customer is ever made of an agent's address. Real mail through the SMTP
 * listener; SQLite, or PostgreSQL + Redis in the second pass.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { FIXED_DNS, freshId, incomingRows, sendTo, startMailDesk, stopMailDesk } from './support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let demoId: number;
let dkimKey: string;
const AGENT = 'demo@fulcrum.app';

beforeAll(async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  FIXED_DNS['TXT s1._domainkey.fulcrum.app'] = [[`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]];
  ({ smtp, gw, demo } = await startMailDesk({}, { admin: true }));
  demoId = dataOf(await demo.gql('{ me { id } }')).me.id;
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { id assigneeId requester { email name }
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { id body held heldReason } } } } }`;
const ticketOf = async (id: number): Promise<Data> => dataOf(await demo.gql(TICKET, { id })).ticket;

const sql = <T>(query: string, params: unknown[]) => gw.orm.em.fork().getConnection().execute<T[]>(query, params);
const customersWith = async (email: string) => (await sql<{ id: number }>('select id from customers where lower(email) = ?', [email])).length;
/** The actors of a ticket's history: kind, agent id and door, oldest first. */
const actorsOf = async (id: number) =>
  (
    await sql<{ actor_kind: string; actor_id: number | null; via: string; kind: string }>(
      'select actor_kind, actor_id, via, kind from ticket_events where ticket_id = ? order by seq',
      [id],
    )
  ).map((e) => ({ kind: e.kind, actor: e.actor_kind, userId: e.actor_id == null ? null : Number(e.actor_id), via: e.via }));

const inline = (customer: string) =>
  [
    'FYI, this came to my own inbox.',
    '',
    '---------- Forwarded message ---------',
    `From: Kim Lee <${customer}>`,
    'Date: Mon, 7 Dec 2026 at 09:00',
    'Subject: The printer jams',
    `To: ${AGENT}`,
    '',
    'The printer jams on every second page.',
  ].join('\n');

/** An agent's mail, DKIM-signed for fulcrum.app when `signed`; its incoming_mails row. */
async function agentMail(text: string, signed: boolean, extra: Record<string, unknown> = {}) {
  const messageId = freshId('agent');
  const sent = await sendTo(gw.smtp!.port, {
    from: `Demo Agent <${AGENT}>`,
    subject: 'Fwd: The printer jams',
    text,
    messageId,
    ...(signed ? { dkim: { domainName: 'fulcrum.app', keySelector: 's1', privateKey: dkimKey } } : {}),
    ...extra,
  });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  const [row] = await incomingRows(gw.orm, messageId);
  expect(row.ticket_id).not.toBeNull();
  return row;
}

describe("mail from an agent's address", () => {
  it('authenticated, an inline forward is a ticket by the agent whose requester is the forwarded customer', async () => {
    const customer = `kim.${Date.now()}@customer.test`;
    const row = await agentMail(inline(customer), true);
    expect(row).toMatchObject({ outcome: 'TICKET', reason: null });
    expect(JSON.parse(row.auth!)).toMatchObject({ dkim: 'pass', dkimAligned: true });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.requester).toEqual({ email: customer, name: 'Kim Lee' });
    const [first] = ticket.timeline.nodes;
    expect(first).toMatchObject({ held: false, heldReason: null });
    expect(first.body).toContain('The printer jams on every second page.');
    const actors = await actorsOf(row.ticket_id!);
    expect(actors.slice(0, 2)).toEqual([
      { kind: 'CREATED', actor: 'AGENT', userId: demoId, via: 'EMAIL' },
      { kind: 'MESSAGE_RECEIVED', actor: 'AGENT', userId: demoId, via: 'EMAIL' },
    ]);
    expect(await customersWith(AGENT)).toBe(0);
  });

  it('authenticated, an attached message (message/rfc822) names the requester by its From', async () => {
    const customer = `ana.${Date.now()}@customer.test`;
    const original = `From: Ana Ruiz <${customer}>\r\nTo: ${AGENT}\r\nSubject: Refund\r\n\r\nPlease refund my order.\r\n`;
    const row = await agentMail('See the attached mail.', true, {
      attachments: [{ filename: 'refund.eml', content: original, contentType: 'message/rfc822' }],
    });
    expect(row).toMatchObject({ outcome: 'TICKET', reason: null });
    expect((await ticketOf(row.ticket_id!)).requester).toEqual({ email: customer, name: 'Ana Ruiz' });
    expect(await customersWith(AGENT)).toBe(0);
  });

  it('unauthenticated, the same forward is held on a new ticket (UNVERIFIED); an agent accepts it', async () => {
    const customer = `lee.${Date.now()}@customer.test`;
    const row = await agentMail(inline(customer), false);
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'UNVERIFIED' });
    expect(JSON.parse(row.auth!)).toMatchObject({ dkim: 'none', dmarc: 'none' });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.timeline.nodes[0]).toMatchObject({ held: true, heldReason: 'UNVERIFIED' });
    // Not the agent's doing: nothing vouches for the sender.
    expect((await actorsOf(row.ticket_id!))[0]).toMatchObject({ kind: 'CREATED', actor: 'REQUESTER', userId: null });
    expect(await customersWith(AGENT)).toBe(0);
    const accepted = dataOf(await demo.gql('mutation ($id: Int!) { acceptRequesterMessage(id: $id) { held } }', { id: row.requester_message_id }));
    expect(accepted.acceptRequesterMessage.held).toBe(false);
    expect(await customersWith(AGENT)).toBe(0);
  });

  it('authenticated but naming no requester, it is held (SENDER) on a ticket of the unknown requester, never of the agent', async () => {
    const row = await agentMail('Please look at the printer on floor 2.', true);
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'SENDER' });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.requester.email).toBe('unknown-requester@fulcrum.invalid');
    expect(ticket.timeline.nodes[0]).toMatchObject({ held: true, heldReason: 'SENDER' });
    expect(await customersWith(AGENT)).toBe(0);
    // A forward of another agent's mail names no requester either.
    const other = await agentMail(inline(AGENT), true);
    expect(other).toMatchObject({ outcome: 'HELD', reason: 'SENDER' });
    expect(await customersWith(AGENT)).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("an admin's ticket of an agent's automatic mail (not ticketed) is the unknown requester's, never the agent's", async () => {
    const messageId = freshId('bulk');
    const sent = await sendTo(gw.smtp!.port, { from: AGENT, subject: 'Digest', text: inline('zed@customer.test'), messageId, headers: { Precedence: 'bulk' } });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const [listed] = await incomingRows(gw.orm, messageId);
    expect(listed).toMatchObject({ outcome: 'LOOP', ticket_id: null });
    const made = dataOf(await demo.gql('mutation ($id: Int!) { ticketFromMail(id: $id) { requester { email } } }', { id: listed.id })).ticketFromMail;
    expect(made.requester.email).toBe('unknown-requester@fulcrum.invalid');
    expect(await customersWith(AGENT)).toBe(0);
  });
});
