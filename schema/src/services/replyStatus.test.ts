/**
 * "Send and set Pending/Solved": a reply with `setStatus` changes the ticket's status in the reply's transaction,
 * one history entry each; a refused status writes nothing (no reply, no entry, no status change). A real database
 * (SQLite, or PostgreSQL + Redis in the second pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGES, TICKET_STATUSES } from '../validation/rules.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { createTicket } from './tickets.js';
import { ticketTimeline } from './ticketTimeline.js';
import { replyToRequester } from './requesterReplies.js';

let kit: ServiceKit;
beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const newTicket = async (agent: number) => createTicket(kit.as(agent), { title: 'Send and set', requesterId: 1, description: 'Needs an answer.' });

const statusOf = async (id: number) => (await kit.rows<{ status: string }>('select status from tickets where id = ?', [id]))[0]?.status;

describe('replyToRequester with setStatus', () => {
  it('writes the reply and the status change together: one entry each, the change after the reply', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const reply = await replyToRequester(kit.as(agent), ticket.id, 'Fixed, closing it.', null, 'SOLVED');
    expect(await statusOf(ticket.id)).toBe('SOLVED');
    const entries = (await ticketTimeline(kit.as(agent), ticket.id, {})).nodes;
    const newest = entries.slice(0, 2).map((e) => (e.entry === 'change' ? [e.entry, e.changes] : [e.entry, e.id]));
    expect(newest).toEqual([
      ['change', [{ field: 'status', from: 'OPEN', to: 'SOLVED' }]],
      ['reply', reply.id],
    ]);
    const [row] = await kit.rows<{ n: number | string }>('select count(*) as n from ticket_events where ticket_id = ?', [ticket.id]);
    expect(Number(row.n)).toBe(3); // created, reply, status
  });

  it('the same status adds only the reply', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    await replyToRequester(kit.as(agent), ticket.id, 'Still open.', null, 'OPEN');
    const [row] = await kit.rows<{ n: number | string }>('select count(*) as n from ticket_events where ticket_id = ?', [ticket.id]);
    expect(Number(row.n)).toBe(2);
  });

  it('a refused status leaves no reply, no entry and the status as it was (any non-status value)', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.integer(), fc.constant('solved'), fc.constant('CLOSED')).filter((s) => !(TICKET_STATUSES as readonly unknown[]).includes(s)),
        async (status) => {
          const error = await refused(replyToRequester(kit.as(agent), ticket.id, 'Never sent.', null, status));
          expect(error.code).toBe('BAD_USER_INPUT');
          expect(error.fields).toEqual({ setStatus: [MESSAGES.ticketStatus] });
        },
      ),
      { numRuns: 25 },
    );
    expect(await kit.rows('select id from ticket_replies where ticket_id = ?', [ticket.id])).toEqual([]);
    const [row] = await kit.rows<{ n: number | string }>('select count(*) as n from ticket_events where ticket_id = ?', [ticket.id]);
    expect(Number(row.n)).toBe(1);
    expect(await statusOf(ticket.id)).toBe('OPEN');
  });

  it("another agent's ticket: NOT_FOUND, its status untouched", async () => {
    const [owner, other] = [await kit.newAgent(), await kit.newAgent()];
    const ticket = await newTicket(owner);
    expect((await refused(replyToRequester(kit.as(other), ticket.id, 'Not mine.', null, 'SOLVED'))).code).toBe('NOT_FOUND');
    expect(await statusOf(ticket.id)).toBe('OPEN');
  });
});
