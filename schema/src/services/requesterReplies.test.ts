/**
 * Talking to the requester, in the service layer: replies (NOT_CONFIGURED without a mail server, QUEUED
 * with their mail-outbox row in the reply's transaction otherwise), the timeline's new entries and its REPLIES
 * filter, requester links (stable, revocable, only for the ticket's agents), the requester's view and answers (a
 * SOLVED ticket reopens, actor REQUESTER, via REQUESTER_PAGE), wrong tokens (NOT_FOUND, rate-limited) and the
 * body rules (fast-check). A real database (SQLite, or PostgreSQL + Redis in the second pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGES } from '../validation/rules.js';
import { demoTicketImage } from '../seed/demoImages.js';
import { createAuthLimiter, DEFAULT_AUTH_LIMITS } from './authLimiter.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { createTicket, setTicketStatus } from './tickets.js';
import { addTicketNote } from './ticketNotes.js';
import { ticketHistory, ticketTimeline } from './ticketTimeline.js';
import { awaitingReply, replyRecord, replyToRequester } from './requesterReplies.js';
import { requesterLink, revokeRequesterLink } from './requesterLinks.js';
import { postRequesterMessage, requesterView } from './requesterView.js';
import type { OutboundMail } from '../mail/compose.js';

let kit: ServiceKit;
beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const newTicket = async (agent: number, title = 'Printer jam') =>
  createTicket(kit.as(agent), { title, requesterId: 1, description: 'The tray is stuck.' }, demoTicketImage(1));
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/r/') + 3);
const requester = () => ({ ...kit.as(null, 'REQUESTER_PAGE'), clientIp: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

describe('replies', () => {
  it('without a mail server: kept as NOT_CONFIGURED, a TicketReply entry of the timeline, no mail queued', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const reply = await replyToRequester(kit.as(agent), ticket.id, 'We are on it.');
    expect(reply).toMatchObject({
      entry: 'reply',
      ticketId: ticket.id,
      seq: 2,
      authorId: agent,
      body: 'We are on it.',
      delivery: { state: 'NOT_CONFIGURED', attempts: 0 },
    });
    const page = await ticketTimeline(kit.as(agent), ticket.id, {});
    expect(page.nodes[0]).toMatchObject({ entry: 'reply', id: reply.id, seq: 2, body: 'We are on it.' });
    expect(await kit.rows('select id from mail_outbox where reply_id = ?', [reply.id])).toEqual([]);
    expect(await replyRecord(kit.as(agent), reply.id)).toMatchObject({ id: reply.id, seq: 2, delivery: { state: 'NOT_CONFIGURED' } });
  });

  it('with a mail server: QUEUED, its mail in the outbox (threaded, with the requester link), committed with the reply', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent, 'Threaded');
    kit.deps.mail!.configured = true;
    try {
      const first = await replyToRequester(kit.as(agent), ticket.id, 'First <b>answer</b>');
      const second = await replyToRequester(kit.as(agent), ticket.id, 'Second answer');
      expect(first.delivery.state).toBe('QUEUED');
      const rows = await kit.rows<{ reply_id: number; message: string; state: string }>(
        'select reply_id, message, state from mail_outbox where reply_id in (?, ?) order by id',
        [first.id, second.id],
      );
      expect(rows.map((r) => [Number(r.reply_id), r.state])).toEqual([
        [first.id, 'pending'],
        [second.id, 'pending'],
      ]);
      const [m1, m2] = rows.map((r) => JSON.parse(r.message) as OutboundMail);
      const link = await requesterLink(kit.as(agent), ticket.id);
      expect(m1).toMatchObject({ from: kit.deps.mail!.from, subject: `Re: Threaded [#${ticket.id}]` });
      expect(m1.to).toContain('<');
      expect(m1.text).toContain(link);
      expect(m1.html).toContain('First &lt;b&gt;answer&lt;/b&gt;');
      expect(m1.html).not.toContain('<b>answer');
      // The thread root: the ticket id and its 128-bit thread token (mail/threadRoot.ts), the same in every mail.
      expect(m1.references).toEqual([expect.stringMatching(new RegExp(`^<ticket-${ticket.id}\\.[0-9a-f]{32}@127\\.0\\.0\\.1>$`))]);
      expect(m2.references).toEqual([m1.references[0], m1.messageId]);
      expect(m2.inReplyTo).toBe(m1.messageId);
      expect(m1.messageId).not.toBe(m2.messageId);
      // A third reply names both earlier ones, oldest first, and answers the latest.
      const third = await replyToRequester(kit.as(agent), ticket.id, 'Third answer');
      const [row3] = await kit.rows<{ message: string }>('select message from mail_outbox where reply_id = ?', [third.id]);
      const m3 = JSON.parse(row3.message) as OutboundMail;
      expect(m3.references).toEqual([m1.references[0], m1.messageId, m2.messageId]);
      expect(m3.inReplyTo).toBe(m2.messageId);
      expect(m3.text).toContain(link);
    } finally {
      kit.deps.mail!.configured = false;
    }
  });

  it('another agent: NOT_FOUND on reply, link, revoke and the reply record; bad bodies are BAD_USER_INPUT with the shared message', async () => {
    const agent = await kit.newAgent();
    const other = await kit.newAgent();
    const ticket = await newTicket(agent);
    const reply = await replyToRequester(kit.as(agent), ticket.id, 'Hello');
    for (const call of [
      () => replyToRequester(kit.as(other), ticket.id, 'Hi'),
      () => requesterLink(kit.as(other), ticket.id),
      () => revokeRequesterLink(kit.as(other), ticket.id),
      () => replyRecord(kit.as(other), reply.id),
      () => replyToRequester(kit.as(agent), 99_999_999, 'Hi'),
    ])
      expect((await refused(call())).code).toBe('NOT_FOUND');
    expect((await refused(replyToRequester(kit.as(null), ticket.id, 'Hi'))).code).toBe('UNAUTHENTICATED');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(''), fc.constant('   '), fc.string({ minLength: 10_001, maxLength: 10_005 }), fc.constant('a\u0000b'), fc.integer()),
        async (body) => {
          const error = await refused(replyToRequester(kit.as(agent), ticket.id, body));
          expect(error.code).toBe('BAD_USER_INPUT');
          expect(error.fields).toEqual({ body: [MESSAGES.ticketReply] });
        },
      ),
      { numRuns: 15 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 300, unit: 'binary' }).filter((s) => s.trim().length > 0 && !s.includes('\u0000')),
        async (body) => {
          const made = await replyToRequester(kit.as(agent), ticket.id, body);
          expect((await replyRecord(kit.as(agent), made.id)).body).toBe(body);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('the timeline filter REPLIES holds replies and requester messages; CHANGES and the history hold neither', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    await addTicketNote(kit.as(agent), ticket.id, 'internal');
    await replyToRequester(kit.as(agent), ticket.id, 'public');
    const token = tokenOf(await requesterLink(kit.as(agent), ticket.id));
    await postRequesterMessage(requester(), token, 'thanks');
    const replies = await ticketTimeline(kit.as(agent), ticket.id, { filter: 'REPLIES' });
    expect(replies.nodes.map((e) => e.entry)).toEqual(['requesterMessage', 'reply']);
    expect(replies.totalCount).toBe(2);
    expect(replies.nodes[0]).toMatchObject({
      entry: 'requesterMessage',
      fromEmail: expect.stringContaining('@'),
      body: 'thanks',
      via: 'REQUESTER_PAGE',
      held: false,
    });
    const changes = await ticketTimeline(kit.as(agent), ticket.id, { filter: 'CHANGES' });
    expect(changes.nodes.map((e) => e.entry)).toEqual(['change']);
    const history = await ticketHistory(kit.as(agent), ticket.id, {});
    expect(history.nodes.map((e) => e.kind)).toEqual(['CREATED']);
  });
});

describe('the requester link and page', () => {
  it('is stable until revoked; the revoked token finds nothing; another ticket has another link', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const other = await newTicket(agent);
    const link = await requesterLink(kit.as(agent), ticket.id);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:4000\/r\/[A-Za-z0-9_-]{43}$/);
    expect(await requesterLink(kit.as(agent), ticket.id)).toBe(link);
    expect(await requesterLink(kit.as(agent), other.id)).not.toBe(link);
    // Never stored in plain text.
    const stored = await kit.rows<Record<string, unknown>>('select * from requester_links where ticket_id = ?', [ticket.id]);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));
    expect((await requesterView(requester(), tokenOf(link))).title).toBe('Printer jam');
    const fresh = await revokeRequesterLink(kit.as(agent), ticket.id);
    expect(fresh).not.toBe(link);
    expect(await requesterLink(kit.as(agent), ticket.id)).toBe(fresh);
    expect((await refused(requesterView(requester(), tokenOf(link)))).code).toBe('NOT_FOUND');
    expect((await requesterView(requester(), tokenOf(fresh))).title).toBe('Printer jam');
  });

  it('shows the title, status and public entries in order, never a note; the answer reopens a SOLVED ticket as the REQUESTER', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    await addTicketNote(kit.as(agent), ticket.id, 'SECRET internal note');
    await replyToRequester(kit.as(agent), ticket.id, 'Try turning it off and on.');
    await setTicketStatus(kit.as(agent), ticket.id, 'SOLVED');
    const token = tokenOf(await requesterLink(kit.as(agent), ticket.id));
    const heard = kit.listen('timeline', agent);
    const tickets = kit.listen('ticket', agent);
    try {
      await postRequesterMessage(requester(), token, 'It still jams.');
      const view = await requesterView(requester(), token);
      expect(view.status).toBe('OPEN');
      expect(view.entries.map((e) => [e.kind, e.body])).toEqual([
        ['reply', 'Try turning it off and on.'],
        ['message', 'It still jams.'],
      ]);
      expect(JSON.stringify(view)).not.toContain('SECRET');
      const page = await ticketTimeline(kit.as(agent), ticket.id, {});
      const [reopened, message] = page.nodes;
      expect(message).toMatchObject({ entry: 'requesterMessage', body: 'It still jams.', via: 'REQUESTER_PAGE' });
      expect(reopened).toMatchObject({
        entry: 'change',
        kind: 'UPDATED',
        via: 'REQUESTER_PAGE',
        actor: { kind: 'REQUESTER', userId: null },
        changes: [{ field: 'status', from: 'SOLVED', to: 'OPEN' }],
      });
      // Live: both entries reach the agent, and the dashboard hears of the status. Over Redis the signals of the
      // writes before (the solve, seq 4) can still arrive after the listeners subscribed: the answer's are the ones
      // from its message on, and the status event the one from SOLVED.
      let signals = await heard.waitFor(2);
      const answer = () => signals.filter((s) => s.seq >= message.seq);
      while (answer().length < 2) signals = await heard.waitFor(signals.length + 1);
      expect(answer().map((s) => s.seq)).toEqual([message.seq, reopened.seq]);
      let statuses = await tickets.waitFor(1);
      const reopenEvent = () => statuses.filter((e) => e.previous?.status === 'SOLVED');
      while (!reopenEvent().length) statuses = await tickets.waitFor(statuses.length + 1);
      expect(reopenEvent()[0]).toMatchObject({ kind: 'UPDATED', id: ticket.id, previous: { status: 'SOLVED' } });
    } finally {
      heard.stop();
      tickets.stop();
    }
    expect((await refused(postRequesterMessage(requester(), token, '  '))).fields).toEqual({ body: [MESSAGES.requesterMessage] });
  });

  it("awaits a reply while the requester's message is the last public entry (notes and changes do not answer it)", async () => {
    const agent = await kit.newAgent();
    const quiet = await newTicket(agent);
    const ticket = await newTicket(agent);
    const token = tokenOf(await requesterLink(kit.as(agent), ticket.id));
    const waiting = async () => (await awaitingReply(kit.as(agent), [ticket.id, quiet.id])).get(ticket.id);
    expect(await waiting()).toBe(false);
    await postRequesterMessage(requester(), token, 'Hello?');
    expect(await waiting()).toBe(true);
    await addTicketNote(kit.as(agent), ticket.id, 'looking into it');
    await setTicketStatus(kit.as(agent), ticket.id, 'PENDING');
    expect(await waiting()).toBe(true);
    await replyToRequester(kit.as(agent), ticket.id, 'Here you go.');
    expect(await waiting()).toBe(false);
    expect((await awaitingReply(kit.as(agent), [quiet.id])).get(quiet.id)).toBe(false);
  });

  it('any answer up to 10,000 characters is stored exactly and shown to the requester as it was sent; the rest is BAD_USER_INPUT (property)', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const token = tokenOf(await requesterLink(kit.as(agent), ticket.id));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }),
          fc.constantFrom('<script>alert(1)</script>', '**bold**', 'שלום 🙂', 'x'.repeat(10_000)),
        ),
        async (body) => {
          if (body.trim().length === 0 || body.includes('\u0000')) {
            expect((await refused(postRequesterMessage(requester(), token, body))).fields).toEqual({ body: [MESSAGES.requesterMessage] });
            return;
          }
          await postRequesterMessage(requester(), token, body);
          const view = await requesterView(requester(), token);
          expect(view.entries[view.entries.length - 1]).toMatchObject({ kind: 'message', body });
        },
      ),
      { numRuns: 25 },
    );
    for (const bad of ['', 'x'.repeat(10_001), 'a\u0000b', 42, null])
      expect((await refused(postRequesterMessage(requester(), token, bad))).code).toBe('BAD_USER_INPUT');
  });

  it('wrong tokens: NOT_FOUND whatever their shape, and RATE_LIMITED once the address has spent its guesses', async () => {
    const limited = { ...kit.deps, limiter: createAuthLimiter({ ...DEFAULT_AUTH_LIMITS, tokenFailuresPerIp: 3 }) };
    const ctx = () => ({ ...kit.as(null, 'REQUESTER_PAGE'), deps: limited, clientIp: '10.200.0.1' });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.constant(null)), async (token) => {
        expect((await refused(requesterView({ ...kit.as(null, 'REQUESTER_PAGE'), clientIp: `10.${Math.random()}` }, token))).code).toBe('NOT_FOUND');
      }),
      { numRuns: 30 },
    );
    for (let i = 0; i < 3; i++) expect((await refused(requesterView(ctx(), 'x'.repeat(43)))).code).toBe('NOT_FOUND');
    expect((await refused(requesterView(ctx(), 'y'.repeat(43)))).code).toBe('RATE_LIMITED');
  });
});
