/**
 * The ticket event record: every ticket write appends its events in its own transaction, through the
 * change log, with the actor, the door and the field changes in GraphQL spelling; seqs 1, 2, 3... per ticket
 * without gaps, also under concurrent writers; the table refuses UPDATE and DELETE in the database itself.
 * A real database (SQLite, or PostgreSQL + Redis in the second pass) through the schema package's kit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_MACRO_ID } from '../validation/rules.js';
import { demoTicketImage } from '../seed/demoImages.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { createMacro, deleteMacro } from './macros.js';
import { createTicket, deleteTicket, setTicketImage, setTicketStatus, updateTicket } from './tickets.js';

let kit: ServiceKit;
beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

interface EventRow {
  seq: number;
  kind: string;
  actor_kind: string;
  actor_id: number | null;
  actor_name: string;
  via: string;
  changes: string;
  assignee_id: number;
}

const eventsOf = async (ticketId: number) =>
  (
    await kit.rows<EventRow>(
      'select seq, kind, actor_kind, actor_id, actor_name, via, changes, assignee_id from ticket_events where ticket_id = ? order by seq',
      [ticketId],
    )
  ).map((r) => ({
    ...r,
    seq: Number(r.seq),
    actor_id: r.actor_id == null ? null : Number(r.actor_id),
    assignee_id: Number(r.assignee_id),
    changes: JSON.parse(r.changes),
  }));

const body = (overrides: Record<string, unknown> = {}) => ({ title: 'Printer jam', requesterId: 1, description: 'The tray is stuck.', ...overrides });

async function usernameOf(id: number): Promise<string> {
  const [row] = await kit.rows<{ username: string }>('select username from users where id = ?', [id]);
  return row.username;
}

describe('the event record', () => {
  it("the demo seed's tickets each start with their creation, by the system, at the ticket's own creation time", async () => {
    const tickets = await kit.rows<{ id: number; created_at: unknown; event_seq: number }>('select id, created_at, event_seq from tickets order by id');
    expect(tickets.length).toBeGreaterThan(0);
    const events = await kit.rows<EventRow & { ticket_id: number; at: unknown }>(
      'select ticket_id, seq, kind, actor_kind, actor_id, actor_name, via, changes, at from ticket_events where ticket_id <= ? order by ticket_id, seq',
      [Math.max(...tickets.map((t) => Number(t.id)))],
    );
    for (const t of tickets) {
      const [first] = events.filter((e) => Number(e.ticket_id) === Number(t.id));
      expect(first, `ticket ${t.id}`).toMatchObject({ kind: 'CREATED', actor_kind: 'SYSTEM', actor_id: null, actor_name: 'System', via: 'SYSTEM' });
      expect(Number(first.seq)).toBe(1);
      expect(new Date(first.at as string | number).getTime()).toBe(new Date(t.created_at as string | number).getTime());
      const fields = (JSON.parse(first.changes) as { field: string; to: string | null }[]).map((c) => c.field);
      expect(fields).toEqual(['title', 'type', 'priority', 'status', 'requesterId', 'macroId', 'assigneeId', 'description', 'image']);
    }
  });

  it('create, edit, status, image and delete each append one event: actor, door, GraphQL field names and spellings', async () => {
    const agent = await kit.newAgent();
    const name = await usernameOf(agent);
    const created = await createTicket(kit.as(agent, 'WEB'), body(), demoTicketImage(1));
    await updateTicket(kit.as(agent, 'REST'), created.id, body({ priority: 'High', title: 'Printer on fire' }));
    await setTicketStatus(kit.as(agent, 'API_TOKEN'), created.id, 'SOLVED');
    await setTicketStatus(kit.as(agent, 'WEB'), created.id, 'SOLVED'); // no change, no event
    const image = await setTicketImage(kit.as(agent, 'REST'), created.id, demoTicketImage(2));
    await deleteTicket(kit.as(agent, 'WEB'), created.id);

    const events = await eventsOf(created.id);
    expect(events.map((e) => [e.seq, e.kind, e.via])).toEqual([
      [1, 'CREATED', 'WEB'],
      [2, 'UPDATED', 'REST'],
      [3, 'UPDATED', 'API_TOKEN'],
      [4, 'UPDATED', 'REST'],
      [5, 'DELETED', 'WEB'],
    ]);
    for (const e of events)
      expect({ kind: e.actor_kind, id: e.actor_id, name: e.actor_name, assignee: e.assignee_id }).toEqual({ kind: 'AGENT', id: agent, name, assignee: agent });
    expect(events[0].changes).toEqual([
      { field: 'title', from: null, to: 'Printer jam' },
      { field: 'type', from: null, to: 'Question' },
      { field: 'priority', from: null, to: 'Low' },
      { field: 'status', from: null, to: 'OPEN' },
      { field: 'requesterId', from: null, to: '1' },
      { field: 'macroId', from: null, to: String(NO_MACRO_ID) },
      { field: 'assigneeId', from: null, to: String(agent) },
      { field: 'description', from: null, to: 'The tray is stuck.' },
      { field: 'image', from: null, to: String(created.image!.id) },
    ]);
    expect(events[1].changes).toEqual([
      { field: 'title', from: 'Printer jam', to: 'Printer on fire' },
      { field: 'priority', from: 'Low', to: 'High' },
    ]);
    expect(events[2].changes).toEqual([{ field: 'status', from: 'OPEN', to: 'SOLVED' }]);
    expect(events[3].changes).toEqual([{ field: 'image', from: String(created.image!.id), to: String(image.id) }]);
    expect(events[4].changes).toEqual([]);
  });

  it('TICKET_UPDATED carries the same field changes as the record', async () => {
    const agent = await kit.newAgent();
    const created = await createTicket(kit.as(agent), body(), demoTicketImage(1));
    await updateTicket(kit.as(agent), created.id, body({ priority: 'Urgent', description: 'Smoke now.' }));
    const [event] = await kit.rows<{ changes: string }>("select changes from ticket_events where ticket_id = ? and kind = 'UPDATED'", [created.id]);
    // This kit runs no delivery engine: the outbox rows stay as written.
    const payloads = await kit.rows<{ payload: string }>("select payload from webhook_events where type = 'TICKET_UPDATED'");
    const payload = payloads.map((p) => JSON.parse(p.payload) as { data: { id: number }; changes: unknown }).find((p) => p.data.id === created.id)!;
    expect(payload.changes).toEqual([
      { field: 'priority', from: 'Low', to: 'Urgent' },
      { field: 'description', from: 'The tray is stuck.', to: 'Smoke now.' },
    ]);
    expect(payload.changes).toEqual(JSON.parse(event.changes));
  });

  it('an API token is its own kind of actor, acting as its agent', async () => {
    const agent = await kit.newAgent();
    const ctx = { ...kit.as(agent, 'API_TOKEN'), token: { tokenId: 1, userId: agent, scopes: ['WRITE' as const] } };
    const created = await createTicket(ctx, body(), demoTicketImage(1));
    expect((await eventsOf(created.id)).map((e) => [e.actor_kind, e.actor_id, e.via])).toEqual([['API_TOKEN', agent, 'API_TOKEN']]);
  });

  it('deleting a macro moves its tickets to macro 1, each with its event in the same transaction', async () => {
    const agent = await kit.newAgent();
    const macro = await createMacro(kit.as(agent), { name: 'Reboot', description: 'Turn it off and on.' });
    const a = await createTicket(kit.as(agent), body({ macroId: macro.id }), demoTicketImage(1));
    const b = await createTicket(kit.as(agent), body({ macroId: macro.id }), demoTicketImage(2));
    await deleteMacro(kit.as(agent, 'REST'), macro.id);
    for (const t of [a, b]) {
      const events = await eventsOf(t.id);
      expect(events.map((e) => [e.seq, e.kind, e.via, e.actor_id])).toEqual([
        [1, 'CREATED', 'WEB', agent],
        [2, 'UPDATED', 'REST', agent],
      ]);
      expect(events[1].changes).toEqual([{ field: 'macroId', from: String(macro.id), to: String(NO_MACRO_ID) }]);
    }
  });

  it('a refused write appends nothing', async () => {
    const [agent, other] = [await kit.newAgent(), await kit.newAgent()];
    const created = await createTicket(kit.as(agent), body(), demoTicketImage(1));
    expect((await refused(updateTicket(kit.as(agent), created.id, body({ title: '' })))).code).toBe('BAD_USER_INPUT');
    expect((await refused(setTicketStatus(kit.as(other), created.id, 'SOLVED'))).code).toBe('NOT_FOUND');
    expect((await refused(deleteTicket(kit.as(other), created.id))).code).toBe('NOT_FOUND');
    expect((await eventsOf(created.id)).map((e) => e.seq)).toEqual([1]);
  });

  it('concurrent writers of one ticket get seqs 1..n without gaps or duplicates', async () => {
    const agent = await kit.newAgent();
    const created = await createTicket(kit.as(agent), body(), demoTicketImage(1));
    const statuses = ['OPEN', 'PENDING', 'SOLVED'];
    const writes = Array.from({ length: 12 }, (_, i) =>
      i % 2 ? setTicketStatus(kit.as(agent), created.id, statuses[i % 3]) : updateTicket(kit.as(agent), created.id, body({ title: `Title ${i}` })),
    );
    await Promise.all(writes);
    const events = await eventsOf(created.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const [counter] = await kit.rows<{ event_seq: number }>('select event_seq from tickets where id = ?', [created.id]);
    expect(Number(counter.event_seq)).toBe(events.length);
  });

  it('the table is append-only in the database: raw UPDATE, DELETE (and TRUNCATE on PostgreSQL) are refused', async () => {
    const agent = await kit.newAgent();
    const created = await createTicket(kit.as(agent), body(), demoTicketImage(1));
    const refusedSql = async (sql: string, params: unknown[] = []) => {
      const error = await kit.rows(sql, params).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/append-only/);
    };
    await refusedSql("update ticket_events set actor_name = 'someone else' where ticket_id = ?", [created.id]);
    await refusedSql('delete from ticket_events where ticket_id = ?', [created.id]);
    if (kit.kind === 'postgresql') await refusedSql('truncate ticket_events');
    const events = await eventsOf(created.id);
    expect(events.map((e) => [e.seq, e.actor_id])).toEqual([[1, agent]]);
  });

  it('the history outlives the ticket: no foreign key, the rows stay after the delete', async () => {
    const agent = await kit.newAgent();
    const created = await createTicket(kit.as(agent), body(), demoTicketImage(1));
    await deleteTicket(kit.as(agent), created.id);
    expect(await kit.rows('select id from tickets where id = ?', [created.id])).toEqual([]);
    expect((await eventsOf(created.id)).map((e) => e.kind)).toEqual(['CREATED', 'DELETED']);
  });
});
