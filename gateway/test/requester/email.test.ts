/**
 * Replies to the requester through a real gateway and a real SMTP server on 127.0.0.1: the mail's
 * headers, threading, text and HTML and its link; the requester page from that link (the reply, never a note; no
 * cookie), the requester's answer reaching the agent's timeline live; retries after a temporary failure; without
 * SMTP_URL the reply is NOT_CONFIGURED and the page still works. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { openLive, type Live } from '../../src/testing/wsClient.js';
import { startSmtp, type TestSmtp } from '../../src/testing/smtp.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
const lives: Live[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  gw = await startTestGateway({ mail: { smtpUrl: smtp.url, from: 'Fulcrum Help <help@fulcrum.test>', retryDelaysMs: [200, 200] } });
  demo = await gw.as(0);
}, 60_000);
afterAll(async () => {
  await Promise.all(lives.map((l) => l.dispose()));
  await gw?.destroy();
  await smtp?.close();
});

async function newTicket(client: TestClient, title = 'Printer jam'): Promise<number> {
  const data = dataOf(
    await client.gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title, requesterId: 1, description: 'The tray is stuck.' } },
      'image',
      { data: PNG },
    ),
  );
  return data.createTicket.id as number;
}

const REPLY = 'mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id seq body author { id } delivery { state attempts } } }';
const reply = async (client: TestClient, ticketId: number, body: string) => dataOf(await client.gql(REPLY, { id: ticketId, body })).replyToRequester;

const linkIn = (text: string) => /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];

describe('replies by email', () => {
  it('one mail per reply: From, To, Subject, our Message-ID, threading, text + HTML with the requester link; delivery SENT (live)', async () => {
    const ticketId = await newTicket(demo, 'Mail me');
    await demo.gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "NOTE-never-mailed") { id } }', { id: ticketId });
    const live = openLive(gw.url, demo.cookieHeader);
    lives.push(live);
    const deliveries = live.subscribe(`subscription { replyDeliveryEvents(ticketId: ${ticketId}) { id delivery { state attempts lastResponse } } }`);
    await live.connected;
    const first = await reply(demo, ticketId, 'Hello <there>,\n\nwe are on it.');
    expect(first.delivery).toEqual({ state: 'QUEUED', attempts: 0 });
    const [mail] = await smtp.waitFor(1, (m) => m.parsed.subject === `Re: Mail me [#${ticketId}]`);
    const requester = dataOf(await demo.gql('{ customer(id: 1) { email } }')).customer as { email: string };
    expect(mail.envelopeTo).toEqual([requester.email]);
    expect(mail.parsed.from?.text).toBe('"Fulcrum Help" <help@fulcrum.test>');
    expect(mail.parsed.messageId).toMatch(/^<reply-[0-9a-f]{24}@127\.0\.0\.1>$/);
    // The thread root: the ticket id and its 128-bit thread token (schema/src/mail/threadRoot.ts).
    expect(mail.parsed.inReplyTo).toMatch(new RegExp(`^<ticket-${ticketId}\\.[0-9a-f]{32}@127\\.0\\.0\\.1>$`));
    expect(mail.parsed.text).toContain('Hello <there>,');
    expect(mail.parsed.html).toContain('Hello &lt;there&gt;,');
    expect(mail.raw).not.toContain('NOTE-never-mailed');
    const link = linkIn(mail.parsed.text ?? '')!;
    expect(link.startsWith(`${gw.url}/r/`)).toBe(true);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    const sent = await deliveries.waitFor((d) => d.replyDeliveryEvents.delivery.state === 'SENT', 10_000);
    expect(sent.data.replyDeliveryEvents).toMatchObject({ id: first.id, delivery: { state: 'SENT', attempts: 1 } });

    const second = await reply(demo, ticketId, 'Second');
    const [, next] = await smtp.waitFor(2, (m) => m.parsed.subject === `Re: Mail me [#${ticketId}]`);
    expect(next.parsed.inReplyTo).toBe(mail.parsed.messageId);
    expect(next.parsed.references).toEqual([mail.parsed.inReplyTo, mail.parsed.messageId]);
    const timeline = dataOf(
      await demo.gql(
        `{ ticket(id: ${ticketId}) { requesterLink timeline(filter: REPLIES) { nodes { __typename ... on TicketReply { id delivery { state } } } } } }`,
      ),
    ).ticket;
    expect(timeline.requesterLink).toBe(link);
    expect(timeline.timeline.nodes.map((n: { id: number }) => n.id)).toEqual([second.id, first.id]);
  });

  it('a temporary failure is retried: the mail arrives on the next attempt, the delivery counts both', async () => {
    const ticketId = await newTicket(demo, 'Retry me');
    smtp.failNext(1);
    const made = await reply(demo, ticketId, 'Patience');
    await smtp.waitFor(1, (m) => m.parsed.subject === `Re: Retry me [#${ticketId}]`);
    const deadline = Date.now() + 10_000;
    let delivery: { state: string; attempts: number; lastResponse: string | null } | undefined;
    while (Date.now() < deadline) {
      const node = dataOf(
        await demo.gql(
          `{ ticket(id: ${ticketId}) { timeline(filter: REPLIES) { nodes { ... on TicketReply { id delivery { state attempts lastResponse } } } } } }`,
        ),
      ).ticket.timeline.nodes[0];
      delivery = node.delivery;
      if (delivery?.state === 'SENT') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(made.id).toBeGreaterThan(0);
    expect(delivery).toMatchObject({ state: 'SENT', attempts: 2 });
  });
});

describe('the requester page, opened from the mailed link', () => {
  it('shows the reply and never a note, sets no cookie; the answer appears live in the agent timeline and reopens a solved ticket', async () => {
    const ticketId = await newTicket(demo, 'Page me');
    await demo.gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "NOTE-secret-text") { id } }', { id: ticketId });
    await reply(demo, ticketId, 'Please try again & tell us.');
    await demo.gql(`mutation { setTicketStatus(id: ${ticketId}, status: SOLVED) { id } }`);
    const [mail] = await smtp.waitFor(1, (m) => m.parsed.subject === `Re: Page me [#${ticketId}]`);
    const link = linkIn(mail.parsed.text ?? '')!;
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Page me');
    expect(html).toContain('Please try again &amp; tell us.');
    expect(html).toContain('Solved');
    expect(html).not.toContain('NOTE-secret-text');
    expect(html).not.toMatch(/@demo|fulcrum\.test/);

    const live = openLive(gw.url, demo.cookieHeader);
    lives.push(live);
    const events = live.subscribe(
      `subscription { ticketTimelineEvents(ticketId: ${ticketId}) { __typename ... on RequesterMessage { body via held } ... on TicketChange { kind actor { kind } via } } }`,
    );
    await live.connected;
    await new Promise((r) => setTimeout(r, 200));
    const answer = await fetch(link, { method: 'POST', body: new URLSearchParams({ body: 'It <still> jams.' }), redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(/\/r\/[A-Za-z0-9_-]{43}\?sent=1$/);
    const message = await events.waitFor((d) => d.ticketTimelineEvents.__typename === 'RequesterMessage', 10_000);
    expect(message.data.ticketTimelineEvents).toEqual({ __typename: 'RequesterMessage', body: 'It <still> jams.', via: 'REQUESTER_PAGE', held: false });
    const reopened = await events.waitFor((d) => d.ticketTimelineEvents.__typename === 'TicketChange', 10_000);
    expect(reopened.data.ticketTimelineEvents).toEqual({ __typename: 'TicketChange', kind: 'UPDATED', actor: { kind: 'REQUESTER' }, via: 'REQUESTER_PAGE' });
    const after = await (await fetch(link)).text();
    expect(after).toContain('It &lt;still&gt; jams.');
    expect(after).toContain('Open');

    const empty = await fetch(link, { method: 'POST', body: new URLSearchParams({ body: '   ' }) });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Your message must be between 1 and 10,000 characters.');
  });

  it('a wrong or revoked link shows no ticket data (404)', async () => {
    const ticketId = await newTicket(demo, 'Revoke me');
    const { requesterLink } = dataOf(await demo.gql(`{ ticket(id: ${ticketId}) { requesterLink } }`)).ticket;
    expect((await fetch(requesterLink)).status).toBe(200);
    const fresh = dataOf(await demo.gql(`mutation { revokeRequesterLink(ticketId: ${ticketId}) }`)).revokeRequesterLink;
    expect(fresh).not.toBe(requesterLink);
    const old = await fetch(requesterLink);
    expect(old.status).toBe(404);
    expect(await old.text()).not.toContain('Revoke me');
    expect((await fetch(fresh)).status).toBe(200);
    expect((await fetch(`${gw.url}/r/not-a-token`)).status).toBe(404);
    const post = await fetch(requesterLink, { method: 'POST', body: new URLSearchParams({ body: 'hi' }) });
    expect(post.status).toBe(404);
  });
});

describe('without a mail server', () => {
  let bare: TestGateway;
  beforeAll(async () => {
    bare = await startTestGateway();
  }, 60_000);
  afterAll(() => bare?.destroy());

  it('the reply is kept as NOT_CONFIGURED and the requester page still shows it', async () => {
    const agent = await bare.as(0);
    const ticketId = await newTicket(agent, 'No mail');
    const made = await reply(agent, ticketId, 'Kept, not mailed');
    expect(made.delivery).toEqual({ state: 'NOT_CONFIGURED', attempts: 0 });
    const { requesterLink } = dataOf(await agent.gql(`{ ticket(id: ${ticketId}) { requesterLink } }`)).ticket;
    expect(requesterLink.startsWith(`${bare.url}/r/`)).toBe(true);
    expect(await (await fetch(requesterLink)).text()).toContain('Kept, not mailed');
  });
});
