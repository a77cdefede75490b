/**
 * The timeline service: notes with revisions and tombstones, the timeline newest first with its filter
 * and cursors, the history after deletion, ownership (another agent gets NOT_FOUND everywhere), the note body rules
 * (fast-check: stored exactly, NUL refused as BAD_USER_INPUT with the shared message). A real database (SQLite,
 * or PostgreSQL + Redis in the second pass) through the schema package's kit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LIMITS, MESSAGES } from '../validation/rules.js';
import { demoTicketImage } from '../seed/demoImages.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { createTicket, deleteTicket, setTicketStatus } from './tickets.js';
import { addTicketNote, deleteTicketNote, editTicketNote } from './ticketNotes.js';
import { noteRevisions, ticketHistory, ticketTimeline, timelineEntriesAfter } from './ticketTimeline.js';

let kit: ServiceKit;
beforeAll(async () => {
  kit = await openServiceKit();
});
afterAll(() => kit?.close());

const newTicket = async (agent: number) =>
  createTicket(kit.as(agent), { title: 'Printer jam', requesterId: 1, description: 'The tray is stuck.' }, demoTicketImage(1));

describe('notes', () => {
  it('add, edit (revisions newest first), delete (tombstone: body and revisions really gone), each an entry of the timeline', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const note = await addTicketNote(kit.as(agent), ticket.id, 'First **try**');
    expect(note).toMatchObject({ entry: 'note', ticketId: ticket.id, seq: 2, authorId: agent, body: 'First **try**', editedAt: null, deletedAt: null });
    const edited = await editTicketNote(kit.as(agent), note.id, 'Second try');
    await editTicketNote(kit.as(agent), note.id, 'Third try');
    expect(edited).toMatchObject({ id: note.id, seq: 2, body: 'Second try' });
    expect(edited.editedAt).toBeInstanceOf(Date);
    const revisions = (await noteRevisions(kit.as(agent), [note.id])).get(note.id)!;
    expect(revisions.map((r) => [r.body, r.editorId])).toEqual([
      ['Second try', agent],
      ['First **try**', agent],
    ]);

    const deleted = await deleteTicketNote(kit.as(agent), note.id);
    expect(deleted).toMatchObject({ id: note.id, seq: 2, body: null });
    expect(deleted.deletedAt).toBeInstanceOf(Date);
    expect((await noteRevisions(kit.as(agent), [note.id])).get(note.id)).toEqual([]);
    // The text is gone from the database, not hidden.
    expect(await kit.rows('select id from ticket_note_revisions where note_id = ?', [note.id])).toEqual([]);
    const [row] = await kit.rows<{ body: string | null }>('select body from ticket_notes where id = ?', [note.id]);
    expect(row.body).toBeNull();
    const [events] = await kit.rows<{ n: number }>("select count(*) as n from ticket_events where ticket_id = ? and changes like '%try%'", [ticket.id]);
    expect(Number(events.n)).toBe(0);

    const page = await ticketTimeline(kit.as(agent), ticket.id, {});
    expect(page.nodes.map((e) => [e.seq, e.entry === 'change' ? e.kind : 'NOTE'])).toEqual([
      [5, 'NOTE_DELETED'],
      [4, 'NOTE_EDITED'],
      [3, 'NOTE_EDITED'],
      [2, 'NOTE'],
      [1, 'CREATED'],
    ]);
    expect(page.nodes[3]).toMatchObject({ entry: 'note', id: note.id, body: null });
    expect(page.nodes[0]).toMatchObject({ entry: 'change', noteId: note.id, changes: [], actor: { kind: 'AGENT', userId: agent } });
    // Deleted notes are not edited or deleted again.
    expect((await refused(editTicketNote(kit.as(agent), note.id, 'Back'))).code).toBe('NOT_FOUND');
    expect((await refused(deleteTicketNote(kit.as(agent), note.id))).code).toBe('NOT_FOUND');
  });

  it('TICKET_NOTE_ADDED goes to the outbox with the note id, never its text', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const note = await addTicketNote(kit.as(agent), ticket.id, 'Secret remedy');
    // This kit runs no delivery engine: the outbox rows stay as written.
    const rows = await kit.rows<{ payload: string; audience: string }>("select payload, audience from webhook_events where type = 'TICKET_NOTE_ADDED'");
    const mine = rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as { data: Record<string, unknown> } })).find((r) => r.payload.data.id === note.id)!;
    expect(mine.audience).toBe(String(agent));
    expect(mine.payload.data).toMatchObject({ id: note.id, ticketId: ticket.id, authorId: agent });
    expect(JSON.stringify(mine.payload)).not.toContain('Secret remedy');
  });

  it('an edit to the same text keeps no revision and writes no event', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const note = await addTicketNote(kit.as(agent), ticket.id, 'Same');
    await editTicketNote(kit.as(agent), note.id, 'Same');
    expect((await ticketTimeline(kit.as(agent), ticket.id, {})).totalCount).toBe(2);
  });

  it('any body up to 10,000 characters (Markdown, HTML, scripts, emoji, right-to-left) is stored exactly; the rest is BAD_USER_INPUT (property)', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    const samples = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.constantFrom(
        '<script>alert(document.cookie)</script>',
        '<img src=x onerror=alert(1)>',
        '[x](javascript:alert(1)) **bold** `code`\n\n- item\n> quote',
        'مرحبا بالعالم — שלום עולם \u202Eevil\u202C',
        '👩‍👩‍👧‍👦🏳️‍🌈 e\u0301',
        'x'.repeat(LIMITS.ticketNote.max),
        'x'.repeat(LIMITS.ticketNote.max + 1),
        'nul\u0000byte',
        '   ',
      ),
    );
    await fc.assert(
      fc.asyncProperty(samples, async (body) => {
        const valid = body.length >= 1 && body.length <= LIMITS.ticketNote.max && body.trim().length > 0 && !body.includes('\u0000');
        if (!valid) {
          const error = await refused(addTicketNote(kit.as(agent), ticket.id, body));
          expect({ code: error.code, fields: error.fields }).toEqual({ code: 'BAD_USER_INPUT', fields: { body: [MESSAGES.ticketNote] } });
          return;
        }
        const note = await addTicketNote(kit.as(agent), ticket.id, body);
        const [row] = await kit.rows<{ body: string }>('select body from ticket_notes where id = ?', [note.id]);
        expect(row.body).toBe(body);
        const [entry] = (await ticketTimeline(kit.as(agent), ticket.id, { first: 1, filter: 'NOTES' })).nodes;
        expect(entry).toMatchObject({ id: note.id, body });
      }),
      { numRuns: 60 },
    );
  });
});

describe('the timeline', () => {
  it('pages newest first by cursor, with the filter, and a total per filter', async () => {
    const agent = await kit.newAgent();
    const ticket = await newTicket(agent);
    for (let i = 0; i < 6; i++) {
      await addTicketNote(kit.as(agent), ticket.id, `Note ${i}`);
      await setTicketStatus(kit.as(agent), ticket.id, i % 2 ? 'OPEN' : 'PENDING');
    }
    const walk = async (filter: 'ALL' | 'NOTES' | 'CHANGES', first: number) => {
      const seqs: number[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await ticketTimeline(kit.as(agent), ticket.id, { first, after, filter });
        seqs.push(...page.nodes.map((n) => n.seq));
        if (!page.hasNextPage) return { seqs, total: page.totalCount };
        after = page.endCursor;
      }
    };
    expect(await walk('ALL', 5)).toEqual({ seqs: [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1], total: 13 });
    expect(await walk('NOTES', 4)).toEqual({ seqs: [12, 10, 8, 6, 4, 2], total: 6 });
    expect(await walk('CHANGES', 100)).toEqual({ seqs: [13, 11, 9, 7, 5, 3, 1], total: 7 });
    // Another list's cursor, and a bad page size, are refused.
    const tickets = Buffer.from('ticket:5').toString('base64url');
    expect((await refused(ticketTimeline(kit.as(agent), ticket.id, { after: tickets, first: 0 }))).fields).toEqual({
      first: [MESSAGES.pageSize],
      after: [MESSAGES.pageCursor],
    });
    expect((await timelineEntriesAfter(kit.as(agent), ticket.id, 10, 100)).map((e) => e.seq)).toEqual([11, 12, 13]);
  });

  it("another agent's ticket and note are NOT_FOUND on every read and write", async () => {
    const [agent, other] = [await kit.newAgent(), await kit.newAgent()];
    const ticket = await newTicket(agent);
    const note = await addTicketNote(kit.as(agent), ticket.id, 'Mine');
    const calls = [
      () => ticketTimeline(kit.as(other), ticket.id, {}),
      () => ticketHistory(kit.as(other), ticket.id, {}),
      () => timelineEntriesAfter(kit.as(other), ticket.id, 0, 10),
      () => addTicketNote(kit.as(other), ticket.id, 'Yours?'),
      () => editTicketNote(kit.as(other), note.id, 'Yours?'),
      () => deleteTicketNote(kit.as(other), note.id),
      () => ticketTimeline(kit.as(agent), 999_999_999, {}),
    ];
    for (const call of calls) expect((await refused(call())).code).toBe('NOT_FOUND');
    expect((await refused(ticketTimeline(kit.as(null), ticket.id, {}))).code).toBe('UNAUTHENTICATED');
    expect((await ticketTimeline(kit.as(agent), ticket.id, {})).totalCount).toBe(2);
  });

  it('the history outlives the ticket: its agent still reads it, ending with DELETED; nobody else does', async () => {
    const [agent, other] = [await kit.newAgent(), await kit.newAgent()];
    const ticket = await newTicket(agent);
    await addTicketNote(kit.as(agent), ticket.id, 'Tried a restart');
    await setTicketStatus(kit.as(agent), ticket.id, 'SOLVED');
    await deleteTicket(kit.as(agent, 'REST'), ticket.id);
    const history = await ticketHistory(kit.as(agent), ticket.id, {});
    expect(history.nodes.map((c) => [c.seq, c.kind, c.via])).toEqual([
      [4, 'DELETED', 'REST'],
      [3, 'UPDATED', 'WEB'],
      [1, 'CREATED', 'WEB'],
    ]);
    expect(history.totalCount).toBe(3);
    expect((await refused(ticketHistory(kit.as(other), ticket.id, {}))).code).toBe('NOT_FOUND');
    expect((await refused(ticketTimeline(kit.as(agent), ticket.id, {}))).code).toBe('NOT_FOUND');
  });
});
