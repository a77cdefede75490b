/**
 * Triage, where it lives: listTickets' filters (status, priority, type, requester), its orders and
 * their cursors, the per-status counts (services/tickets.ts) and the per-agent counters the database keeps by
 * trigger (migration 20261123140000, `ticket_counts`). Checked against a model of the same tickets, on a real
 * database through the schema package's kit; no gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TICKET_ORDERS, TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES, MESSAGES } from '../validation/rules.js';
import type { TicketRecord } from '../records/index.js';
import { openServiceKit, refused, uniqueWord, type ServiceKit } from '../testing/services.js';
import { createCustomer } from './customers.js';
import { createTicket, deleteTicket, listTickets, setTicketStatus, updateTicket, type TicketFilter } from './tickets.js';

let kit: ServiceKit;
let agent: number;
let requester: number;
/** The agent's tickets, oldest first, as created below. */
let tickets: TicketRecord[];

const statuses = [...TICKET_STATUSES];
const priorities = [...TICKET_PRIORITIES];
const types = [...TICKET_TYPES];

beforeAll(async () => {
  kit = await openServiceKit();
  // A fresh agent: every ticket of theirs is made here.
  agent = await kit.newAgent();
  requester = (await createCustomer(kit.as(agent), { name: 'Filter Requester', email: `${uniqueWord()}@triage.test` })).id;
  tickets = [];
  for (let i = 0; i < 26; i++) {
    const input = {
      title: `Filter ${i}`,
      priority: priorities[(i * 3) % 4],
      type: types[i % 4],
      requesterId: i % 5 === 0 ? requester : 1,
      description: 'triage',
    };
    let ticket = await createTicket(kit.as(agent), input);
    if (i % 3) ticket = await setTicketStatus(kit.as(agent), ticket.id, statuses[i % 3]);
    tickets.push(ticket);
  }
});
afterAll(() => kit?.close());

/** Every page of a list, following the cursors; the total is the same on every page and matches what was read. */
async function walk(filter: TicketFilter, orderBy?: string, first = 3): Promise<TicketRecord[]> {
  const nodes: TicketRecord[] = [];
  let after: string | null = null;
  let total: number | null = null;
  for (;;) {
    const page = await listTickets(kit.as(agent), { first, after, filter, orderBy });
    if (total !== null) expect(page.totalCount).toBe(total);
    total = page.totalCount;
    nodes.push(...page.nodes);
    if (!page.hasNextPage) break;
    after = page.endCursor;
  }
  expect(nodes).toHaveLength(total);
  return nodes;
}

const keeps = (f: TicketFilter, withStatus: boolean) => (t: TicketRecord) =>
  (!withStatus || !f.status?.length || f.status.includes(t.status)) &&
  (!f.priority?.length || f.priority.includes(t.priority)) &&
  (!f.type?.length || f.type.includes(t.type)) &&
  (f.requesterId == null || t.requesterId === f.requesterId);

const subset = <T>(values: T[]) => fc.subarray(values);

describe('filters', () => {
  it('any combination of filters lists exactly the matching tickets, newest first, with exact totals and per-status counts (property)', async () => {
    const filters = fc.record({ status: subset(statuses), priority: subset(priorities), type: subset(types), requesterId: fc.option(fc.constant(requester)) });
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        const expected = tickets.filter(keeps(filter, true)).map((t) => t.id);
        expect((await walk(filter)).map((t) => t.id)).toEqual(expected.reverse());
        // Counts per status under the rest of the filter: what the status tabs show.
        const rest = tickets.filter(keeps(filter, false));
        const page = await listTickets(kit.as(agent), { first: 1, filter });
        expect(page.statusCounts).toEqual(Object.fromEntries(statuses.map((s) => [s, rest.filter((t) => t.status === s).length])));
      }),
      { numRuns: 30, seed: 20261126 },
    );
  });

  it('refuses unknown statuses, priorities, types and requesters with the shared messages', async () => {
    const cases: [TicketFilter, Record<string, string[]>][] = [
      [{ status: ['CLOSED'] }, { status: [MESSAGES.ticketStatus] }],
      [{ priority: ['Now'] }, { priority: [MESSAGES.ticketPriority] }],
      [{ type: ['Bug'] }, { type: [MESSAGES.ticketType] }],
      [{ requesterId: 'abc' }, { requesterId: [MESSAGES.ticketRequesterUnknown] }],
    ];
    for (const [filter, fields] of cases) expect((await refused(listTickets(kit.as(agent), { filter }))).fields, JSON.stringify(filter)).toEqual(fields);
  });
});

describe('orders', () => {
  it('every order pages through the same set in its order, filtered or not; a cursor is only good for its own order', async () => {
    const rank = (p: string) => priorities.indexOf(p as (typeof priorities)[number]);
    const current = await walk({});
    const expected: Record<string, TicketRecord[]> = {
      NEWEST: [...current].sort((a, b) => b.id - a.id),
      OLDEST: [...current].sort((a, b) => a.id - b.id),
      PRIORITY: [...current].sort((a, b) => rank(b.priority) - rank(a.priority) || b.id - a.id),
      UPDATED: [...current].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id - a.id),
      // Without a search, relevance is the newest first.
      RELEVANCE: [...current].sort((a, b) => b.id - a.id),
    };
    expect(Object.keys(expected).sort()).toEqual([...TICKET_ORDERS].sort());
    for (const [orderBy, nodes] of Object.entries(expected)) {
      expect(
        (await walk({}, orderBy, 4)).map((t) => t.id),
        orderBy,
      ).toEqual(nodes.map((t) => t.id));
      const unsolved = (await walk({ status: ['OPEN', 'PENDING'] }, orderBy, 2)).map((t) => t.id);
      expect(unsolved, orderBy).toEqual(nodes.filter((t) => t.status !== 'SOLVED').map((t) => t.id));
    }
    const priorityCursor = (await listTickets(kit.as(agent), { first: 2, orderBy: 'PRIORITY' })).endCursor;
    for (const orderBy of ['NEWEST', 'OLDEST', 'UPDATED']) {
      expect((await refused(listTickets(kit.as(agent), { orderBy, after: priorityCursor }))).fields, orderBy).toEqual({ after: [MESSAGES.pageCursor] });
    }
  });
});

describe('counters', () => {
  it('stay equal to the tickets under concurrent creates, status changes, edits and deletes of two agents', async () => {
    const [a, b] = [await kit.newAgent(), await kit.newAgent()];
    const owner = (i: number) => (i % 2 ? a : b);
    const made = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        createTicket(kit.as(owner(i)), {
          title: `Counter ${i}`,
          priority: ['Low', 'High'][i % 2],
          type: types[i % 3],
          requesterId: 1,
          description: 'count me',
        }),
      ),
    );
    const outcomes = await Promise.allSettled(
      made.flatMap((t, i) => [
        setTicketStatus(kit.as(owner(i)), t.id, statuses[i % 3]),
        updateTicket(kit.as(owner(i)), t.id, {
          title: `Counter ${i}`,
          requesterId: 1,
          description: 'edited',
          type: 'Problem',
          priority: ['Urgent', 'Medium'][i % 2],
        }),
        i % 3 === 0 ? deleteTicket(kit.as(owner(i)), t.id) : Promise.resolve(0),
      ]),
    );
    // A change that lost the race to its ticket's delete finds no ticket; nothing else may fail.
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'NOT_FOUND' });
    for (const id of [a, b]) {
      const key = "status || '|' || priority || '|' || type as k";
      const actual = await kit.rows<{ k: string; n: number }>(
        `select ${key}, count(*) as n from tickets where assignee_id = ? group by status, priority, type`,
        [id],
      );
      const counters = await kit.rows<{ k: string; n: number }>(`select ${key}, n from ticket_counts where assignee_id = ? and n <> 0`, [id]);
      const map = (rows: { k: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
      expect(map(counters)).toEqual(map(actual));
      const page = await listTickets(kit.as(id), { first: 1 });
      const sum = (status: string) => actual.filter((r) => r.k.startsWith(`${status}|`)).reduce((n, r) => n + Number(r.n), 0);
      expect(page.statusCounts).toEqual({ OPEN: sum('OPEN'), PENDING: sum('PENDING'), SOLVED: sum('SOLVED') });
      expect(page.totalCount).toBe(5); // 8 each, 3 each deleted
    }
  });
});
