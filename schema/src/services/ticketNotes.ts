/**
 * A ticket's internal notes, written: add, edit (the text before is kept as a revision) and delete (the text and
 * every revision's text are removed; the row stays as a tombstone). Only the author edits or deletes a note, on a
 * ticket they may change (services/ticketAccess.ts). Each write is an event of the ticket's record in the write's
 * transaction (services/changeLog.ts); the notes are read with the timeline (services/ticketTimeline.ts).
 */
import { AppError } from '../errors.js';
import { TicketNote, TicketNoteRevision, User } from '../entities/index.js';
import { hasErrors, validateTicketNote } from '../validation/rules.js';
import { toDate } from '../records/index.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { flushWithEvents, ticketEventOnly } from './changeLog.js';
import * as ticketAccess from './ticketAccess.js';
import type { TicketNoteRecord } from './ticketTimeline.js';

function checkedBody(body: unknown): string {
  const fields = validateTicketNote({ body });
  if (hasErrors(fields)) throw AppError.validation(fields);
  return body as string;
}

function noteRecord(note: TicketNote, seq: number, at: Date): TicketNoteRecord {
  return {
    entry: 'note',
    id: note.id,
    ticketId: note.ticket.id,
    seq,
    at,
    authorId: note.author.id,
    body: note.body ?? null,
    editedAt: note.editedAt ?? null,
    deletedAt: note.deletedAt ?? null,
  };
}

/** A note of the viewer's, on a ticket they may change, not deleted; NOT_FOUND otherwise. */
async function findOwnNote(ctx: ServiceContext, rawId: unknown): Promise<TicketNote> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const note = id
    ? await ctx.em.findOne(
        TicketNote,
        { id, author: viewerId, deletedAt: null, ticket: ticketAccess.changeFilter(await ticketAccess.scopeOf(ctx)) },
        { populate: ['ticket'] },
      )
    : null;
  if (!note) throw AppError.notFound('Note');
  return note;
}

/** Who hears of a note's edit or deletion: the ticket's audience (its assignee and team), as for every change. */
function noteAudience(note: TicketNote): { assigneeId: number; teamId: number | null } {
  return { assigneeId: ticketAccess.audienceOwner(note.ticket), teamId: ticketAccess.audienceTeam(note.ticket) };
}

/** Where a note sits in the timeline: its creation event's seq and time (one indexed read). */
async function creationOf(ctx: ServiceContext, note: TicketNote): Promise<{ seq: number; at: Date }> {
  const [row] = await ctx.em
    .getConnection()
    .execute<{ seq: number | string; at: unknown }[]>("select seq, at from ticket_events where ticket_id = ? and kind = 'NOTE_ADDED' and note_id = ?", [
      note.ticket.id,
      note.id,
    ]);
  return row ? { seq: Number(row.seq), at: toDate(row.at) } : { seq: 0, at: note.createdAt };
}

/** Adds an internal note to one of the viewer's tickets; its creation is an event (NOTE_ADDED) and a webhook event. */
export async function addTicketNote(ctx: ServiceContext, rawTicketId: unknown, body: unknown): Promise<TicketNoteRecord> {
  const viewerId = requireViewer(ctx);
  const text = checkedBody(body);
  const ticket = await ticketAccess.findForChange(ctx, rawTicketId);
  const note = ctx.em.create(TicketNote, { ticket, author: ctx.em.getReference(User, viewerId), body: text, createdAt: new Date() });
  const appended = await flushWithEvents(ctx, () => ({
    type: 'TICKET_NOTE_ADDED',
    audience: ticketAccess.audience(ticket),
    // The note's text stays out of the outbox: a deleted note's text must be gone from every surface.
    data: { id: note.id, ticketId: ticket.id, authorId: viewerId, createdAt: note.createdAt },
    ticketEvent: {
      ticketId: ticket.id,
      kind: 'NOTE_ADDED',
      changes: [],
      noteId: note.id,
      // The ticket's audience (its assignee, its team's members, the admins) hears of a note as of any other change.
      assigneeId: ticketAccess.audienceOwner(ticket),
      teamId: ticketAccess.audienceTeam(ticket),
    },
  }));
  return noteRecord(note, appended[0].seq, appended[0].at);
}

/** Edits one of the viewer's notes; the text before is kept as a revision, and the edit is an event (NOTE_EDITED). */
export async function editTicketNote(ctx: ServiceContext, rawId: unknown, body: unknown): Promise<TicketNoteRecord> {
  const viewerId = requireViewer(ctx);
  const text = checkedBody(body);
  const note = await findOwnNote(ctx, rawId);
  if (note.body !== text) {
    ctx.em.create(TicketNoteRevision, { note, editor: ctx.em.getReference(User, viewerId), body: note.body ?? '', createdAt: new Date() });
    note.body = text;
    note.editedAt = new Date();
    await flushWithEvents(ctx, () => ticketEventOnly({ ticketId: note.ticket.id, kind: 'NOTE_EDITED', changes: [], noteId: note.id, ...noteAudience(note) }));
  }
  const { seq, at } = await creationOf(ctx, note);
  return noteRecord(note, seq, at);
}

/**
 * Deletes one of the viewer's notes: its text and every revision's text are removed, its row stays as the tombstone
 * (body null, deletedAt set), and the deletion is an event (NOTE_DELETED).
 */
export async function deleteTicketNote(ctx: ServiceContext, rawId: unknown): Promise<TicketNoteRecord> {
  const note = await findOwnNote(ctx, rawId);
  for (const revision of await ctx.em.find(TicketNoteRevision, { note: note.id })) ctx.em.remove(revision);
  note.body = null;
  note.deletedAt = new Date();
  await flushWithEvents(ctx, () => ticketEventOnly({ ticketId: note.ticket.id, kind: 'NOTE_DELETED', changes: [], noteId: note.id, ...noteAudience(note) }));
  const { seq, at } = await creationOf(ctx, note);
  return noteRecord(note, seq, at);
}
