/**
 * Reading a ticket's timeline through a real gateway: the timeline and history as the schema names them (entries,
 * filters, pages, revisions, a deleted ticket's history), another agent's ticket NOT_FOUND on every timeline field
 * and mutation, and note bodies over GraphQL (a fast-check property: exactly back, or BAD_USER_INPUT on `body`).
 * The shared gateway is testing/timelineGateway.ts. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PNG } from '../testing/fixtures.js';
import { DEMO, TICKET_INPUT, closeTimelineGateway, demo, marnie, ok, openTimelineGateway } from '../testing/timelineGateway.js';

beforeAll(openTimelineGateway);
afterAll(closeTimelineGateway);

const ENTRY = `
  __typename
  ... on TicketNote { id seq at body editedAt deletedAt author { id username } revisions { id body at editor { id } } }
  ... on TicketChange { seq at via kind noteId actor { kind name user { id } } changes { field from to } }
`;

describe('reading the timeline', () => {
  it('the timeline and history as the schema names them; another agent gets NOT_FOUND on every new field and mutation', async () => {
    const ticket = ok(
      await demo.gqlUpload(
        'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
        { input: TICKET_INPUT },
        'image',
        { data: PNG },
      ),
    ).createTicket as { id: number };
    const note = ok(await demo.gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "First") { id seq body } }', { id: ticket.id })).addTicketNote;
    expect(note).toMatchObject({ seq: 2, body: 'First' });
    ok(await demo.gql('mutation ($id: Int!) { editTicketNote(id: $id, body: "Second") { id } }', { id: note.id }));
    ok(await demo.gql('mutation ($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { id } }', { id: ticket.id }));

    const page = ok(
      await demo.gql(`query ($id: Int!) { ticket(id: $id) { timeline(first: 10) { totalCount pageInfo { hasNextPage endCursor } nodes { ${ENTRY} } } } }`, {
        id: ticket.id,
      }),
    ).ticket.timeline;
    expect(page.totalCount).toBe(4);
    const [status, edit, noteEntry, created] = page.nodes;
    expect(status).toMatchObject({
      __typename: 'TicketChange',
      seq: 4,
      kind: 'UPDATED',
      via: 'WEB',
      actor: { kind: 'AGENT', name: 'Demo', user: { id: DEMO } },
      changes: [{ field: 'status', from: 'OPEN', to: 'SOLVED' }],
    });
    expect(edit).toMatchObject({ __typename: 'TicketChange', seq: 3, kind: 'NOTE_EDITED', noteId: note.id, changes: [] });
    expect(noteEntry).toMatchObject({
      __typename: 'TicketNote',
      id: note.id,
      seq: 2,
      body: 'Second',
      deletedAt: null,
      author: { id: DEMO },
      revisions: [{ body: 'First', editor: { id: DEMO } }],
    });
    expect(typeof noteEntry.editedAt).toBe('string');
    expect(created).toMatchObject({ __typename: 'TicketChange', seq: 1, kind: 'CREATED' });
    expect(new Date(created.at).toISOString()).toBe(created.at);

    const notes = ok(await demo.gql(`query ($id: Int!) { ticket(id: $id) { timeline(filter: NOTES) { totalCount nodes { ${ENTRY} } } } }`, { id: ticket.id }))
      .ticket.timeline;
    expect(notes.nodes.map((n: { seq: number }) => n.seq)).toEqual([2]);

    // Marnie: NOT_FOUND everywhere, never FORBIDDEN.
    const refusals = [
      await marnie.gql('query ($id: Int!) { ticketHistory(ticketId: $id) { totalCount } }', { id: ticket.id }),
      await marnie.gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "Mine now") { id } }', { id: ticket.id }),
      await marnie.gql('mutation ($id: Int!) { editTicketNote(id: $id, body: "Mine now") { id } }', { id: note.id }),
      await marnie.gql('mutation ($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: note.id }),
      await marnie.gql('query ($id: Int!) { ticket(id: $id) { timeline { totalCount } } }', { id: ticket.id }),
    ];
    for (const r of refusals) expect(r.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    // Bad input: NUL and blank bodies, with the field.
    const nul = await demo.gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', {
      id: ticket.id,
      body: 'a\u0000b',
    });
    expect(nul.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(nul.errors?.[0]?.extensions?.fields).toEqual({ body: ['Note must be between 1 and 10,000 characters.'] });

    // History after deletion: the agent still reads it.
    ok(await demo.gql('mutation ($id: Int!) { deleteTicket(id: $id) }', { id: ticket.id }));
    const history = ok(
      await demo.gql(`query ($id: Int!) { ticketHistory(ticketId: $id, first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { seq kind } } }`, {
        id: ticket.id,
      }),
    ).ticketHistory;
    expect(history).toMatchObject({
      totalCount: 4,
      pageInfo: { hasNextPage: true },
      nodes: [
        { seq: 5, kind: 'DELETED' },
        { seq: 4, kind: 'UPDATED' },
      ],
    });
    const older = ok(
      await demo.gql(`query ($id: Int!, $after: String) { ticketHistory(ticketId: $id, after: $after) { nodes { seq kind } } }`, {
        id: ticket.id,
        after: history.pageInfo.endCursor,
      }),
    ).ticketHistory;
    expect(older.nodes).toEqual([
      { seq: 3, kind: 'NOTE_EDITED' },
      { seq: 1, kind: 'CREATED' },
    ]);
    expect((await marnie.gql('query ($id: Int!) { ticketHistory(ticketId: $id) { totalCount } }', { id: ticket.id })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('note bodies over GraphQL', () => {
  it('any body (Markdown, HTML, scripts, 10,000 characters, emoji, right-to-left) comes back exactly or is BAD_USER_INPUT on `body`, never a 500 (property)', async () => {
    const ticket = ok(
      await demo.gqlUpload(
        'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
        { input: TICKET_INPUT },
        'image',
        {
          data: PNG,
        },
      ),
    ).createTicket as { id: number };
    const bodies = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 100 }),
      fc.constantFrom(
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '# Title\n\n[link](javascript:alert(1))',
        'שלום \u202Eevil',
        '🧑‍💻🏳️‍⚧️',
        'y'.repeat(10_000),
        'y'.repeat(10_001),
        'a\u0000b',
      ),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await demo.gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id body } }', { id: ticket.id, body });
        expect(res.status).toBe(200);
        if (res.errors) {
          expect(res.errors[0].extensions?.code).toBe('BAD_USER_INPUT');
          expect(Object.keys(res.errors[0].extensions?.fields ?? {})).toEqual(['body']);
          return;
        }
        expect(res.data!.addTicketNote.body).toBe(body);
        const read = await demo.gql('query ($id: Int!) { ticket(id: $id) { timeline(first: 1, filter: NOTES) { nodes { ... on TicketNote { body } } } } }', {
          id: ticket.id,
        });
        expect(read.data!.ticket.timeline.nodes[0].body).toBe(body);
      }),
      { numRuns: 40 },
    );
  });
});
