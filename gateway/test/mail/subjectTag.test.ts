/**
 * The subject tag `[#<id>]` (docs/email.md "Threading"): a mail that names no ticket by In-Reply-To or References
 * but carries a ticket's tag in its subject is on that ticket's thread, proven no better than by the thread root:
 * it joins when its sender is the requester and authenticated, and is held otherwise. Real mail through the SMTP
 * listener and mailauth with fixed DNS (support.ts); SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, incomingRows, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk());
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { status
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { body held heldReason } } } } }`;
const ticketOf = async (id: number) => dataOf(await demo.gql(TICKET, { id })).ticket as Data;
const messagesOf = async (id: number): Promise<Data[]> => (await ticketOf(id)).timeline.nodes.filter((n: Data) => n.__typename === 'RequesterMessage');

/** Opens a ticket of `from` by mail; its id. */
async function ticketOfMail(from: string): Promise<number> {
  const sent = await sendTo(gw.smtp!.port, { from, subject: 'Help', text: 'The printer jams.', messageId: freshId('open') });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  return ticketIn(sent)!;
}

/** A mail that names no ticket but by its subject; what it became. */
async function tagged(from: string, subject: string, text: string) {
  const messageId = freshId('tag');
  const sent = await sendTo(gw.smtp!.port, { from, subject, text, messageId });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  const [row] = await incomingRows(gw.orm, messageId);
  return row;
}

describe('the subject tag [#N]', () => {
  it('threads the requester’s authenticated mail onto N, in any status (a solved ticket reopens)', async () => {
    const id = await ticketOfMail('rita@good.test');
    dataOf(await demo.gql('mutation ($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { status } }', { id }));
    const row = await tagged('Rita <rita@good.test>', `Re: Help [#999999] [#${id}]`, 'It jams again.');
    expect(row).toMatchObject({ outcome: 'THREAD', ticket_id: id, reason: null });
    const ticket = await ticketOf(id);
    expect(ticket.status).toBe('OPEN');
    expect(ticket.timeline.nodes.find((n: Data) => n.body === 'It jams again.')).toMatchObject({ held: false });
  });

  it('holds the requester’s mail without aligned DKIM or a DMARC pass (UNVERIFIED), and another sender’s (SENDER), on N', async () => {
    const id = await ticketOfMail('kim@plain.test');
    expect(await tagged('kim@plain.test', `Re: Help [#${id}]`, 'Anyone can write this.')).toMatchObject({
      outcome: 'HELD',
      reason: 'UNVERIFIED',
      ticket_id: id,
    });
    expect(await tagged('mallory@good.test', `Fwd: [#${id}]`, 'Not the requester.')).toMatchObject({ outcome: 'HELD', reason: 'SENDER', ticket_id: id });
    const held = (await messagesOf(id)).filter((m) => m.held).map((m) => m.heldReason);
    expect(held.sort()).toEqual(['SENDER', 'UNVERIFIED']);
    expect((await ticketOf(id)).status).toBe('OPEN');
  });

  it('a tag of no ticket opens a new ticket, as mail without a tag does', async () => {
    const row = await tagged('rita@good.test', 'Question [#2147483000]', 'A new question.');
    expect(row.outcome).toBe('TICKET');
    expect(row.ticket_id).not.toBe(2147483000);
  });
});
