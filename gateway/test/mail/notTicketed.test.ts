/**
 * No accepted mail ends where no agent can see it (docs/email.md "What is automatic", "Mail not ticketed"): a
 * person's mail carrying X-Auto-Response-Suppress is a ticket; automatic mail outside a thread is listed for admins
 * with its cause and original, turned into a ticket by hand, and removed after FULCRUM_MAIL_NOT_TICKETED_DAYS. Real
 * mail through the SMTP listener; SQLite, or PostgreSQL + Redis in the second pass.
 */
import fc from 'fast-check';
import { IncomingMail } from '@fulcrum/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { fixedResolver, freshId, incomingRows, sendTo, ticketIn } from './support.js';

let gw: TestGateway;
let admin: TestClient;
let agent: TestClient;
let port: number;

beforeAll(async () => {
  gw = await startTestGateway({
    admin: true,
    incomingMail: { listen: '127.0.0.1:0', defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver, notTicketedSweepMs: 200 },
  });
  [admin, agent] = [await gw.as(0), await gw.as(1)];
  port = gw.smtp!.port;
}, 60_000);
afterAll(() => gw?.destroy());

const LIST = `query ($search: String, $first: Int, $after: String) { notTicketedMail(search: $search, first: $first, after: $after) {
  totalCount nodes { id receivedAt fromEmail subject reason original { text html } } pageInfo { endCursor hasNextPage } } }`;
const FROM_MAIL = 'mutation ($id: Int!) { ticketFromMail(id: $id) { id title description status requester { email } } }';

describe('X-Auto-Response-Suppress', () => {
  it("a person's mail through an Exchange distribution list (X-Auto-Response-Suppress: All) opens a ticket", async () => {
    const messageId = freshId('dl');
    const sent = await sendTo(port, {
      from: 'Dana <dana@good.test>',
      subject: 'Invoice 4411 is wrong',
      text: 'The total counts the shipping twice.',
      messageId,
      headers: { 'X-Auto-Response-Suppress': 'All', 'X-MS-Exchange-Organization-AuthAs': 'Internal' },
    });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const id = ticketIn(sent);
    expect(id).not.toBeNull();
    expect((await incomingRows(gw.orm, messageId))[0]).toMatchObject({ outcome: 'TICKET', ticket_id: id });
    const ticket = dataOf(await admin.gql('query ($id: Int!) { ticket(id: $id) { description requester { email } } }', { id })).ticket;
    expect(ticket).toEqual({ description: 'The total counts the shipping twice.', requester: { email: 'dana@good.test' } });
  });
});

describe('mail not ticketed', () => {
  it('a list mail outside a thread is listed for admins with its cause and original, and an admin makes it a ticket', async () => {
    const messageId = freshId('list');
    const tag = `Weekly digest ${Date.now().toString(36)}`;
    const sent = await sendTo(port, {
      from: 'Newsletter <news@good.test>',
      subject: tag,
      text: 'Our customer wrote to the list: the export button does nothing.',
      html: '<p>Our customer wrote to the list: the <b>export</b> button does nothing.</p>',
      messageId,
      headers: { Precedence: 'list', 'List-Id': '<digest.good.test>' },
    });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    expect(ticketIn(sent)).toBeNull();
    const [row] = await incomingRows(gw.orm, messageId);
    expect(row).toMatchObject({ outcome: 'LOOP', ticket_id: null });

    const page = dataOf(await admin.gql(LIST, { search: tag })).notTicketedMail;
    expect(page.totalCount).toBe(1);
    expect(page.nodes[0]).toMatchObject({ id: row.id, fromEmail: 'news@good.test', subject: tag, reason: 'Precedence: list' });
    expect(page.nodes[0].original.text).toContain('the export button does nothing');
    expect(page.nodes[0].original.html).toContain('<b>export</b>');
    expect(Math.abs(Date.parse(page.nodes[0].receivedAt) - Date.now())).toBeLessThan(60_000);
    // Without a search, the newest first.
    expect(dataOf(await admin.gql(LIST, { first: 1 })).notTicketedMail.nodes[0].id).toBe(row.id);

    // Admins only.
    for (const [query, variables] of [
      [LIST, {}],
      [FROM_MAIL, { id: row.id }],
    ] as const)
      expect((await agent.gql(query, variables)).errors?.[0].extensions?.code, query).toBe('FORBIDDEN');

    const ticket = dataOf(await admin.gql(FROM_MAIL, { id: row.id })).ticketFromMail;
    expect(ticket).toMatchObject({ title: tag, status: 'OPEN', requester: { email: 'news@good.test' } });
    expect(ticket.description).toBe('Our customer wrote to the list: the export button does nothing.');
    expect((await incomingRows(gw.orm, messageId))[0]).toMatchObject({ outcome: 'TICKET', ticket_id: ticket.id });
    expect(dataOf(await admin.gql(LIST, { search: tag })).notTicketedMail.totalCount).toBe(0);
    // Once only: the mail is no longer one not ticketed.
    expect((await admin.gql(FROM_MAIL, { id: row.id })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await admin.gql(FROM_MAIL, { id: 999_999 })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('pages with cursors; any search is a page or a clear BAD_USER_INPUT, never a server error', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (
          await sendTo(port, {
            from: 'bot@good.test',
            subject: `Pager ${i}`,
            text: 'x',
            messageId: freshId('pg'),
            headers: { 'Auto-Submitted': 'auto-generated' },
          })
        ).ok,
      ).toBe(true);
    const first = dataOf(await admin.gql(LIST, { search: 'Pager', first: 2 })).notTicketedMail;
    expect(first.nodes.map((n: { subject: string }) => n.subject)).toEqual(['Pager 2', 'Pager 1']);
    expect(first.nodes[0].reason).toBe('Auto-Submitted: auto-generated');
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = dataOf(await admin.gql(LIST, { search: 'Pager', first: 2, after: first.pageInfo.endCursor })).notTicketedMail;
    expect(second.nodes.map((n: { subject: string }) => n.subject)).toEqual(['Pager 0']);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 260 }), async (search) => {
        const result = await admin.gql(LIST, { search, first: 5 });
        if (result.errors) expect(result.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
        else expect(result.data!.notTicketedMail.totalCount).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 25 },
    );
  });

  it('is kept FULCRUM_MAIL_NOT_TICKETED_DAYS days (default 30): older mail is removed, newer stays', async () => {
    const [oldId, newId] = [freshId('old'), freshId('new')];
    for (const messageId of [oldId, newId])
      await sendTo(port, { from: 'bot@good.test', subject: 'Old', text: 'x', messageId, headers: { Precedence: 'bulk' } });
    const old = (await incomingRows(gw.orm, oldId))[0];
    await gw.orm.em.fork().nativeUpdate(IncomingMail, { id: old.id }, { createdAt: new Date(Date.now() - 31 * 24 * 3600 * 1000) });
    await expect.poll(async () => (await incomingRows(gw.orm, oldId)).length, { timeout: 10_000 }).toBe(0);
    expect(await incomingRows(gw.orm, newId)).toHaveLength(1);
  });
});
