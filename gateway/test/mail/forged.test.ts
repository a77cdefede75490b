/**
 * A new mail forged from a domain that publishes DMARC `p=reject` (docs/email.md "Forged mail"): outside any thread
 * a DMARC failure under `p=reject` is held on a new ticket, in the default team and unassigned even with the team's
 * auto-assignment on and a member online, nothing mailed, until an agent accepts it (it is then the ticket's first
 * message, public). Under `p=none` the failure opens a ticket as before. Real mail through the SMTP listener and
 * mailauth with fixed DNS (support.ts: bank.test lets no one send, p=reject); SQLite, or PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@fulcrum/schema/validation';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { startSmtp, type TestSmtp } from '../../src/testing/smtp.js';
import { openLive } from '../../src/testing/wsClient.js';
import { FIXED_DNS, fixedResolver, freshId, incomingRows, sendTo } from './support.js';

const TEAM = `Forged queue ${Date.now().toString(36)}`;
let smtp: TestSmtp;
let gw: TestGateway;
let admin: TestClient;
let bobbie: TestClient;
let bobbieId: number;
let teamId: number;
let live: ReturnType<typeof openLive> | undefined;

type Data = Record<string, any>;
const data = async (client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<Data> => dataOf(await client.gql(query, variables));
const TICKET = `query ($id: Int!) { ticket(id: $id) { teamId assigneeId awaitingReply requester { email }
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { id body held heldReason } } } } }`;
const ticketOf = async (id: number): Promise<Data> => (await data(admin, TICKET, { id })).ticket;
const outboxRows = async () => Number((await gw.orm.em.fork().getConnection().execute<{ n: number | string }[]>('select count(*) as n from mail_outbox'))[0].n);

beforeAll(async () => {
  FIXED_DNS['TXT loose.test'] = [['v=spf1 -all']];
  FIXED_DNS['TXT _dmarc.loose.test'] = [['v=DMARC1; p=none']];
  smtp = await startSmtp();
  gw = await startTestGateway({
    admin: true,
    mail: { smtpUrl: smtp.url, from: 'Fulcrum Help <help@fulcrum.test>', retryDelaysMs: [200] },
    incomingMail: { listen: '127.0.0.1:0', defaultTeam: TEAM, resolver: fixedResolver },
  });
  [admin, bobbie] = [await gw.as(0), await gw.as(2)];
  bobbieId = (await data(bobbie, '{ me { id } }')).me.id;
  teamId = (await data(admin, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: TEAM })).createTeam.id;
  await data(admin, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: bobbieId });
  await data(admin, 'mutation($t: Int!) { setTeamAutoAssign(teamId: $t, enabled: true) { id } }', { t: teamId });
  live = openLive(gw.url, bobbie.cookieHeader);
  await live.connected;
}, 60_000);
afterAll(async () => {
  await live?.dispose();
  await gw?.destroy();
  await smtp?.close();
});

/** A mail from `from` (sent from 127.0.0.1, which no test domain but good.test lets send); its incoming_mails row. */
async function mailFrom(from: string, text: string) {
  const messageId = freshId('forged');
  const sent = await sendTo(gw.smtp!.port, { from, subject: 'Change of bank details', text, messageId });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  const [row] = await incomingRows(gw.orm, messageId);
  expect(row.ticket_id).not.toBeNull();
  return row;
}

describe('a new mail forged from a p=reject domain', () => {
  it('is held (DMARC) on a new ticket in the default team, unassigned though auto-assignment is on, nothing mailed', async () => {
    // The team's auto-assignment works: a genuine mail goes to the member online.
    await expect
      .poll(async () => (await ticketOf((await mailFrom(`real${Date.now()}@good.test`, 'Genuine.')).ticket_id!)).assigneeId, { timeout: 10_000 })
      .toBe(bobbieId);
    const outbox = await outboxRows();
    const row = await mailFrom('Kim <kim@bank.test>', 'Please pay my invoices to my new account.');
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
    expect(JSON.parse(row.auth!)).toMatchObject({ dmarc: 'fail', dmarcPolicy: 'reject' });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket).toMatchObject({ teamId, assigneeId: null, awaitingReply: false, requester: { email: 'kim@bank.test' } });
    expect(ticket.timeline.nodes).toEqual([expect.objectContaining({ __typename: 'RequesterMessage', held: true, heldReason: 'DMARC' })]);
    expect(await outboxRows()).toBe(outbox);
    expect(smtp.received).toHaveLength(0);

    // Accepted, it is the ticket's first message, like any mail's.
    const accepted = await data(admin, 'mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id held } }', { id: row.requester_message_id });
    expect(accepted.acceptRequesterMessage).toEqual({ id: row.requester_message_id, held: false });
    const after = await ticketOf(row.ticket_id!);
    expect(after.timeline.nodes).toEqual([
      expect.objectContaining({ id: row.requester_message_id, held: false, body: 'Please pay my invoices to my new account.' }),
    ]);
    expect(after.awaitingReply).toBe(true);
  });

  it('has no requester side until accepted: the requester page shows nothing and no reply is mailed', async () => {
    const row = await mailFrom('kim@bank.test', 'Forged, with a page.');
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
    const id = row.ticket_id!;
    const link = (await data(admin, '{ ticket(id: ' + id + ') { requesterLink } }')).ticket.requesterLink as string;
    const page = () => fetch(`${gw.url}${new URL(link).pathname}`, { redirect: 'manual' });
    const before = await page();
    expect(before.status).toBe(404);
    expect(await before.text()).not.toContain('Change of bank details');
    const REPLY = 'mutation ($id: Int!) { replyToRequester(ticketId: $id, body: "Done") { id } }';
    const refused = await admin.gql(REPLY, { id });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: { body: [MESSAGES.heldOpening] } });
    expect(await ticketOf(id)).toMatchObject({ awaitingReply: false });
    const outbox = await outboxRows();

    await data(admin, 'mutation ($id: Int!) { acceptRequesterMessage(id: $id) { id } }', { id: row.requester_message_id });
    const after = await page();
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Change of bank details');
    expect(dataOf(await admin.gql(REPLY, { id })).replyToRequester.id).toEqual(expect.any(Number));
    expect(await outboxRows()).toBe(outbox + 1);
  });

  it('discarded, the ticket stays for the agent to delete or solve', async () => {
    const row = await mailFrom('kim@bank.test', 'Another forgery.');
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
    await data(admin, 'mutation ($id: Int!) { discardRequesterMessage(id: $id) { id } }', { id: row.requester_message_id });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.timeline.nodes).toEqual([expect.objectContaining({ held: true, body: '' })]);
    expect(await data(admin, 'mutation ($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { status } }', { id: row.ticket_id })).toEqual({
      setTicketStatus: { status: 'SOLVED' },
    });
  });

  it('a DMARC failure under p=none opens the ticket as before (the result is shown on it)', async () => {
    const row = await mailFrom('lou@loose.test', 'Not forged, maybe.');
    expect(row).toMatchObject({ outcome: 'TICKET', reason: null });
    expect(JSON.parse(row.auth!)).toMatchObject({ dmarc: 'fail', dmarcPolicy: 'none' });
    const ticket = await ticketOf(row.ticket_id!);
    expect(ticket.timeline.nodes[0]).toMatchObject({ held: false });
    expect(ticket.teamId).toBe(teamId);
  });
});
