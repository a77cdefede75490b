/**
 * The ticket timeline through a real gateway: every mutation of the schema and every REST route that changes a
 * ticket commits its events (right actor, door and fields), walked through every door (GraphQL with a session,
 * GraphQL with an API token, REST); TICKET_UPDATED carries the record's field changes. Reading the timeline is
 * tested in timelineReading.test.ts; the shared gateway is testing/timelineGateway.ts. SQLite, or PostgreSQL + Redis
 * in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { PNG, JPEG, validTicket } from '../testing/fixtures.js';
import { DEMO, TICKET_INPUT, bearer, closeTimelineGateway, demo, gw, ok, openTimelineGateway } from '../testing/timelineGateway.js';

beforeAll(openTimelineGateway);
afterAll(closeTimelineGateway);

const rows = <T>(sql: string, params: unknown[] = []) => gw.orm.em.fork().getConnection().execute<T[]>(sql, params);

/** The ticket-visible state: every ticket's tracked fields (GraphQL names) and its notes. */
async function ticketState(): Promise<Map<number, Record<string, string | null>>> {
  const tickets = await rows<Record<string, unknown>>(
    'select t.id, t.title, t.type, t.priority, t.status, t.requester_id, t.macro_id, t.team_id, t.assignee_id, t.description, i.id as image_id from tickets t left join ticket_images i on i.ticket_id = t.id',
  );
  const notes = await rows<Record<string, unknown>>('select id, ticket_id, body, deleted_at from ticket_notes order by id');
  const replies = await rows<Record<string, unknown>>('select id, ticket_id from ticket_replies order by id');
  const state = new Map<number, Record<string, string | null>>();
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  for (const t of tickets)
    state.set(Number(t.id), {
      title: str(t.title),
      type: str(t.type),
      priority: str(t.priority),
      status: str(t.status),
      requesterId: str(t.requester_id),
      macroId: str(t.macro_id),
      teamId: str(t.team_id),
      assigneeId: str(t.assignee_id),
      description: str(t.description),
      image: str(t.image_id),
      notes: notes
        .filter((n) => Number(n.ticket_id) === Number(t.id))
        .map((n) => `${String(n.id)}:${str(n.body)}:${n.deleted_at ? 'deleted' : ''}`)
        .join('|'),
      replies: replies
        .filter((r) => Number(r.ticket_id) === Number(t.id))
        .map((r) => String(r.id))
        .join('|'),
    });
  return state;
}

interface EventRow {
  id: number;
  ticket_id: number;
  seq: number;
  kind: string;
  actor_kind: string;
  actor_id: number | null;
  via: string;
  changes: string;
}
const lastEventId = async () => Number((await rows<{ n: number | null }>('select max(id) as n from ticket_events'))[0]?.n ?? 0);
const eventsSince = async (id: number) =>
  (await rows<EventRow>('select id, ticket_id, seq, kind, actor_kind, actor_id, via, changes from ticket_events where id > ? order by id', [id])).map((e) => ({
    ...e,
    ticket_id: Number(e.ticket_id),
    actor_id: e.actor_id == null ? null : Number(e.actor_id),
    changes: JSON.parse(e.changes) as { field: string; from: string | null; to: string | null }[],
  }));

type Door = 'WEB' | 'API_TOKEN' | 'REST';

/**
 * Runs one write and checks the record against the state: every ticket whose fields or notes changed has new
 * events by the caller through `door` whose field changes are exactly the fields that changed (values in GraphQL
 * spelling), and no unchanged ticket has any; a ticket that vanished ends with DELETED.
 */
async function checked(door: Door, run: () => Promise<unknown>): Promise<{ changedTickets: number[] }> {
  const before = await ticketState();
  const since = await lastEventId();
  await run();
  const after = await ticketState();
  const events = await eventsSince(since);
  const ids = new Set([...before.keys(), ...after.keys()]);
  const changedTickets: number[] = [];
  for (const id of ids) {
    const [b, a] = [before.get(id), after.get(id)];
    const mine = events.filter((e) => e.ticket_id === id);
    if (JSON.stringify(b) === JSON.stringify(a)) {
      expect(mine, `ticket ${id} did not change but has events`).toEqual([]);
      continue;
    }
    changedTickets.push(id);
    expect(mine.length, `ticket ${id} changed without its event`).toBeGreaterThan(0);
    for (const e of mine)
      expect({ via: e.via, actor: e.actor_kind, actorId: e.actor_id }).toEqual({
        via: door,
        actor: door === 'API_TOKEN' ? 'API_TOKEN' : 'AGENT',
        actorId: DEMO,
      });
    if (!a) expect(mine[mine.length - 1].kind).toBe('DELETED');
    else {
      const fieldChanges = mine.flatMap((e) => e.changes);
      const expected = Object.keys(a)
        .filter((f) => f !== 'notes' && f !== 'replies' && (b?.[f] ?? null) !== a[f])
        .map((f) => ({ field: f, from: b?.[f] ?? null, to: a[f] }));
      expect(fieldChanges.map((c) => ({ field: c.field, from: c.from, to: c.to }))).toEqual(expected);
      if (b && b.notes !== a.notes) expect(mine.some((e) => e.kind.startsWith('NOTE_'))).toBe(true);
      if (b && b.replies !== a.replies) expect(mine.some((e) => e.kind === 'REPLY_ADDED')).toBe(true);
    }
    // Seqs continue the ticket's record without a gap.
    const seqs = (await rows<{ seq: number }>('select seq from ticket_events where ticket_id = ? order by seq', [id])).map((r) => Number(r.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  }
  return { changedTickets };
}

/** How each door makes a GraphQL call: the session client, or a signed-out client with the API token. */
function graphqlDoor(door: 'WEB' | 'API_TOKEN') {
  const client = door === 'WEB' ? demo : gw.client();
  const headers: Record<string, string> = door === 'WEB' ? {} : { authorization: `Bearer ${bearer}` };
  return {
    gql: <T = Record<string, any>>(query: string, variables: Record<string, unknown> = {}) => client.gql<T>(query, variables, headers),
    upload: <T = Record<string, any>>(query: string, variables: Record<string, unknown>) =>
      client.gqlUpload<T>(query, variables, 'image', { data: PNG }, headers),
  };
}

/**
 * Every mutation of the schema, by name, with a call through a door. The ones that change tickets are the subject;
 * the others run too, and `checked` proves they change no ticket (and so need no event). A mutation added to the
 * schema without an entry here fails the walk.
 */
function mutationCalls(door: 'WEB' | 'API_TOKEN'): Record<string, (ctx: { ticketId: number; noteId: number; macroId: number }) => Promise<unknown>> {
  const { gql, upload } = graphqlDoor(door);
  return {
    createTicket: async () =>
      ok(await upload('mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }', { input: TICKET_INPUT })),
    updateTicket: async ({ ticketId }) =>
      ok(
        await upload('mutation ($id: Int!, $input: TicketInput!, $image: Upload) { updateTicket(id: $id, input: $input, image: $image) { id } }', {
          id: ticketId,
          input: { ...TICKET_INPUT, title: `Walked ${door}`, priority: 'Urgent', type: 'Task' },
        }),
      ),
    setTicketStatus: async ({ ticketId }) => ok(await gql('mutation ($id: Int!) { setTicketStatus(id: $id, status: PENDING) { id } }', { id: ticketId })),
    addTicketNote: async ({ ticketId }) => ok(await gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "A **note**") { id } }', { id: ticketId })),
    editTicketNote: async ({ noteId }) => ok(await gql('mutation ($id: Int!) { editTicketNote(id: $id, body: "An edited note") { id } }', { id: noteId })),
    deleteTicketNote: async ({ noteId }) => ok(await gql('mutation ($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: noteId })),
    replyToRequester: async ({ ticketId }) =>
      ok(await gql('mutation ($id: Int!) { replyToRequester(ticketId: $id, body: "A public reply") { id } }', { id: ticketId })),
    deleteMacro: async ({ macroId }) => ok(await gql('mutation ($id: Int!) { deleteMacro(id: $id) { id movedTicketIds } }', { id: macroId })),
    deleteTicket: async ({ ticketId }) => ok(await gql('mutation ($id: Int!) { deleteTicket(id: $id) }', { id: ticketId })),
    // Demo is a plain agent here (the harness): giving a private ticket to its own assignee, and taking it, change
    // nothing, so they write nothing (assignments that change are the subject of gateway/test/security/teams.test.ts).
    assignTicket: async ({ ticketId }) => {
      const { ticket } = ok(await gql<{ ticket: { version: number } }>('query ($id: Int!) { ticket(id: $id) { version } }', { id: ticketId }));
      return ok(
        await gql('mutation ($id: Int!, $v: Int!) { assignTicket(id: $id, teamId: null, assigneeId: 1, expectedVersion: $v) { id } }', {
          id: ticketId,
          v: ticket.version,
        }),
      );
    },
    takeTicket: async ({ ticketId }) => {
      const { ticket } = ok(await gql<{ ticket: { version: number } }>('query ($id: Int!) { ticket(id: $id) { version } }', { id: ticketId }));
      return ok(await gql('mutation ($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id } }', { id: ticketId, v: ticket.version }));
    },
    // Admin mutations (FORBIDDEN to Demo here): they leave tickets alone.
    createTeam: () => gql('mutation { createTeam(name: "Walkers") { id } }'),
    addTeamMember: () => gql('mutation { addTeamMember(teamId: 1, userId: 2) { id } }'),
    removeTeamMember: () => gql('mutation { removeTeamMember(teamId: 1, userId: 2) { id } }'),
    setUserRole: () => gql('mutation { setUserRole(userId: 2, role: ADMIN) { id } }'),
    setTeamAutoAssign: () => gql('mutation { setTeamAutoAssign(teamId: 1, enabled: true) { id } }'),
    // Turning mail not ticketed into a ticket is a ticket write (gateway/test/mail/notTicketed.test.ts); FORBIDDEN here.
    ticketFromMail: () => gql('mutation { ticketFromMail(id: 999999) { id } }'),
    // Held mail: accepting or discarding one is a ticket write of its own (gateway/test/mail/incoming.test.ts
    // proves its HELD_ACCEPTED / HELD_DISCARDED events); a message that is not there changes nothing.
    acceptRequesterMessage: () => gql('mutation { acceptRequesterMessage(id: 999999) { id } }'),
    discardRequesterMessage: () => gql('mutation { discardRequesterMessage(id: 999999) { id } }'),
    // Not ticket writes: run to prove they leave tickets (and the record) alone.
    createView: () => gql('mutation { createView(input: { name: "Walk view ' + door + '", scope: ALL }) { id } }'),
    updateView: () => gql('mutation { updateView(id: 999999, input: { name: "Walk view", scope: ALL }) { id } }'),
    deleteView: () => gql('mutation { deleteView(id: 999999) }'),
    createMacro: () => gql('mutation { createMacro(input: { name: "Walker", description: "x" }) { id } }'),
    revokeRequesterLink: ({ ticketId }) => gql('mutation ($id: Int!) { revokeRequesterLink(ticketId: $id) }', { id: ticketId }),
    updateMacro: ({ macroId }) => gql('mutation ($id: Int!) { updateMacro(id: $id, input: { name: "Walker 2", description: "y" }) { id } }', { id: macroId }),
    createCustomer: () => gql('mutation { createCustomer(input: { name: "Walker", email: "walker-' + door + '@example.test" }) { id } }'),
    updateCustomer: () => gql('mutation { updateCustomer(id: 999999, input: { name: "Walker", email: "w@example.test" }) { id } }'),
    deleteCustomer: () => gql('mutation { deleteCustomer(id: 1) }'),
    sendMessage: () => gql('mutation { sendMessage(receiverId: 2, text: "hello") { id } }'),
    editMessage: () => gql('mutation { editMessage(id: 999999, text: "x") { id } }'),
    deleteMessage: () => gql('mutation { deleteMessage(id: 999999) }'),
    markConversationRead: () => gql('mutation { markConversationRead(partnerId: 2) { unreadCount } }'),
    notifyTyping: () => gql('mutation { notifyTyping(partnerId: 2) }'),
    createApiToken: () => gql('mutation { createApiToken(input: { name: "x", scopes: [READ] }) { secret } }'),
    revokeApiToken: () => gql('mutation { revokeApiToken(id: 999999) }'),
    createWebhook: () => gql('mutation { createWebhook(input: { url: "https://example.invalid/hook", events: [TICKET_UPDATED] }) { secret } }'),
    updateWebhook: () => gql('mutation { updateWebhook(id: 999999, input: { url: "https://example.invalid/hook", events: [TICKET_UPDATED] }) { id } }'),
    deleteWebhook: () => gql('mutation { deleteWebhook(id: 999999) }'),
    rotateWebhookSecret: () => gql('mutation { rotateWebhookSecret(id: 999999) { secret } }'),
    sendTestWebhook: () => gql('mutation { sendTestWebhook(id: 999999) { id } }'),
    redeliverWebhookDelivery: () => gql('mutation { redeliverWebhookDelivery(id: 999999) { id } }'),
    login: () => gw.client().gql('mutation { login(email: "nobody@example.test", password: "wrong-password") { id } }'),
    signup: () =>
      gw
        .client()
        .gql('mutation { signup(input: { email: "walker-' + door + '@example.test", username: "walker' + door.length + '", password: "secret12" }) { id } }'),
    logout: () => gw.client().gql('mutation { logout }'),
  };
}

describe('every ticket write commits its event, through every door', () => {
  it('the walk covers every mutation of the schema', async () => {
    const schema = await buildFulcrumSchema();
    expect(Object.keys(schema.getMutationType()!.getFields()).sort()).toEqual(Object.keys(mutationCalls('WEB')).sort());
  });

  for (const door of ['WEB', 'API_TOKEN'] as const)
    it(`every GraphQL mutation through ${door}`, async () => {
      const calls = mutationCalls(door);
      const macro = ok(await demo.gql('mutation { createMacro(input: { name: "Doomed", description: "Goes away" }) { id } }')).createMacro as { id: number };
      const created = await checked(door, () => calls.createTicket({ ticketId: 0, noteId: 0, macroId: 0 }));
      const ticketId = Math.max(...created.changedTickets);
      // A ticket on the doomed macro, so that deleting it moves one.
      const onMacro = ok(
        await demo.gqlUpload(
          'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
          { input: { ...TICKET_INPUT, macroId: macro.id } },
          'image',
          {
            data: PNG,
          },
        ),
      ).createTicket as { id: number };
      const ids = { ticketId, noteId: 0, macroId: macro.id };
      await checked(door, () => calls.updateTicket(ids));
      await checked(door, () => calls.setTicketStatus(ids));
      const added = await checked(door, async () => {
        const data = (await calls.addTicketNote(ids)) as { addTicketNote: { id: number } };
        ids.noteId = data.addTicketNote.id;
      });
      expect(added.changedTickets).toEqual([ticketId]);
      await checked(door, () => calls.editTicketNote(ids));
      await checked(door, () => calls.deleteTicketNote(ids));
      expect((await checked(door, () => calls.replyToRequester(ids))).changedTickets).toEqual([ticketId]);
      expect((await checked(door, () => calls.deleteMacro(ids))).changedTickets).toEqual([onMacro.id]);
      expect((await checked(door, () => calls.deleteTicket(ids))).changedTickets).toEqual([ticketId]);
      const writes = new Set([
        'createTicket',
        'updateTicket',
        'setTicketStatus',
        'addTicketNote',
        'editTicketNote',
        'deleteTicketNote',
        'replyToRequester',
        'deleteMacro',
        'deleteTicket',
      ]);
      const spare = { ticketId: onMacro.id, noteId: 0, macroId: macro.id };
      for (const [name, call] of Object.entries(calls)) {
        if (writes.has(name)) continue;
        expect((await checked(door, () => call(spare))).changedTickets, name).toEqual([]);
      }
    });

  it('every REST route that changes a ticket (create, add-image, edit, edit-image, delete, macro delete)', async () => {
    const macro = (await demo.post('/api/macro/create', { name: 'Rest doomed', description: 'Goes away' })).body as { id: number };
    let id = 0;
    const created = await checked('REST', async () => {
      const res = await demo.post('/api/tickets/create', validTicket());
      expect(res.status).toBe(201);
      id = res.body.id;
    });
    expect(created.changedTickets).toEqual([id]);
    await checked('REST', async () => expect((await demo.upload('POST', `/api/tickets/${id}/add-image`, { data: PNG })).status).toBe(201));
    await checked('REST', async () =>
      expect((await demo.put(`/api/tickets/${id}/edit`, { ...validTicket(), title: 'Rest edit', apply_macro: macro.id })).status).toBe(200),
    );
    await checked('REST', async () => expect((await demo.upload('PUT', `/api/tickets/${id}/edit-image`, { data: JPEG, type: 'image/jpeg' })).status).toBe(201));
    expect(
      (
        await checked('REST', async () =>
          expect((await demo.get(`/api/macro/${macro.id}/delete`, { origin: gw.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200),
        )
      ).changedTickets,
    ).toEqual([id]);
    await checked('REST', async () =>
      expect((await demo.get(`/api/tickets/${id}/delete`, { origin: gw.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200),
    );
    const kinds = (await rows<{ kind: string; via: string }>('select kind, via from ticket_events where ticket_id = ? order by seq', [id])).map(
      (r) => `${r.kind}/${r.via}`,
    );
    expect(kinds).toEqual(['CREATED/REST', 'UPDATED/REST', 'UPDATED/REST', 'UPDATED/REST', 'UPDATED/REST', 'DELETED/REST']);
  });
});
