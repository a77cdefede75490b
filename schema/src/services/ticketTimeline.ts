/**
 * A ticket's timeline (issue 24): its event record (ticket_events, written by services/changeLog.ts in the
 * transaction of every ticket change) read newest first, with the ticket's internal notes, and the note writes.
 * Every event is one entry: a note's creation (NOTE_ADDED) is its TicketNote entry, every other event a change
 * entry. A client holding every seq up to n holds the whole timeline up to n. Who may read a ticket's timeline and
 * history is decided by services/ticketAccess.ts (the history also after the ticket is deleted).
 */
import { AppError } from '../errors.js';
import { hotRead, type Em } from '../database.js';
import { TicketNote, TicketNoteRevision, User } from '../entities/index.js';
import { MESSAGES, hasErrors, validateTicketNote } from '../validation/rules.js';
import { toDate, type UserRecord } from '../records/index.js';
import { userOfRow, type UserRow } from './users.js';
import { parseId, requireViewer, type ActorKind, type ChangeSource, type ServiceContext } from './context.js';
import { encodeCursor, pageSize, readCursor, type CursorKind, type Page, type PageArgs } from './connection.js';
import { flushWithEvents, ticketEventOnly, type FieldChange, type TicketEventKind } from './changeLog.js';
import * as ticketAccess from './ticketAccess.js';
import type { DeliveryState, RequesterMessageRecord, TicketReplyRecord } from './requesterReplies.js';

export const TIMELINE_FILTERS = ['ALL', 'NOTES', 'CHANGES', 'REPLIES'] as const;
export type TimelineFilter = (typeof TIMELINE_FILTERS)[number];

export interface TicketChangeRecord {
  entry: 'change';
  ticketId: number;
  seq: number;
  at: Date;
  actor: { kind: ActorKind; name: string; userId: number | null };
  via: ChangeSource;
  kind: Exclude<TicketEventKind, 'NOTE_ADDED' | 'REPLY_ADDED' | 'MESSAGE_RECEIVED'>;
  changes: FieldChange[];
  /** The note a NOTE_EDITED or NOTE_DELETED event is about. */
  noteId: number | null;
  /** The requester's message a HELD_ACCEPTED or HELD_DISCARDED event is about. */
  requesterMessageId: number | null;
}

export interface TicketNoteRecord {
  entry: 'note';
  id: number;
  ticketId: number;
  /** The seq of the note's creation event. */
  seq: number;
  at: Date;
  authorId: number;
  /** Null once deleted. */
  body: string | null;
  editedAt: Date | null;
  deletedAt: Date | null;
}

export type TimelineEntryRecord = TicketNoteRecord | TicketChangeRecord | TicketReplyRecord | RequesterMessageRecord;

export interface NoteRevisionRecord {
  id: number;
  noteId: number;
  editorId: number;
  /** The note's text before that edit. */
  body: string;
  at: Date;
}

const EVENT_COLUMNS =
  'e.ticket_id, e.seq, e.at, e.actor_kind, e.actor_id, e.actor_name, e.via, e.kind, e.changes, e.note_id, n.author_id as n_author_id, n.body as n_body, n.edited_at as n_edited_at, n.deleted_at as n_deleted_at' +
  ', e.reply_id, r.author_id as r_author_id, r.body as r_body, r.delivery_state as r_state, r.delivery_attempts as r_attempts, r.delivery_last_response as r_response' +
  ', e.requester_message_id, m.from_email as m_from, m.body as m_body, m.via as m_via, m.held as m_held, m.discarded_at as m_discarded_at' +
  ', u.id as u_id, u.username as u_username, u.email as u_email, u.role as u_role, u.created_at as u_created_at';

/**
 * The event record with each entry's note, reply or requester message (each joined only for its own kind), and the
 * agent it shows (the note's or reply's author, else the actor): a page's people come with it, not in a statement of
 * their own (`people`).
 */
const EVENT_FROM = `ticket_events e
  left join ticket_notes n on n.id = e.note_id and e.kind = 'NOTE_ADDED'
  left join ticket_replies r on r.id = e.reply_id and e.kind = 'REPLY_ADDED'
  left join requester_messages m on m.id = e.requester_message_id and e.kind = 'MESSAGE_RECEIVED'
  left join users u on u.id = coalesce(n.author_id, r.author_id, e.actor_id)`;

interface EventRow {
  ticket_id: number | string;
  seq: number | string;
  at: unknown;
  actor_kind: string;
  actor_id: number | string | null;
  actor_name: string;
  via: string;
  kind: string;
  changes: string;
  note_id: number | string | null;
  n_author_id: number | string | null;
  n_body: string | null;
  n_edited_at: unknown;
  n_deleted_at: unknown;
  reply_id: number | string | null;
  r_author_id: number | string | null;
  r_body: string | null;
  r_state: string | null;
  r_attempts: number | string | null;
  r_response: string | null;
  requester_message_id: number | string | null;
  m_from: string | null;
  m_body: string | null;
  m_via: string | null;
  m_held: boolean | number | null;
  m_discarded_at: unknown;
  u_id: number | string | null;
  u_username: string | null;
  u_email: string | null;
  u_role: string | null;
  u_created_at: unknown;
}

/** The agents a page's rows show, by id (null: the actor's account is gone), from the page's own join. */
function peopleOf(rows: readonly EventRow[]): Map<number, UserRecord | null> {
  const people = new Map<number, UserRecord | null>();
  for (const r of rows) {
    const id = r.n_author_id ?? r.r_author_id ?? r.actor_id;
    if (id === null || people.has(Number(id))) continue;
    people.set(
      Number(id),
      r.u_id === null
        ? null
        : userOfRow({ id: r.u_id, username: r.u_username!, email: r.u_email!, role: r.u_role as UserRow['role'], created_at: r.u_created_at }),
    );
  }
  return people;
}

const optionalDate = (value: unknown) => (value === null || value === undefined ? null : toDate(value));

function toEntry(r: EventRow): TimelineEntryRecord {
  const seq = Number(r.seq);
  const at = toDate(r.at);
  const ticketId = Number(r.ticket_id);
  if (r.kind === 'NOTE_ADDED' && r.note_id !== null)
    return {
      entry: 'note',
      id: Number(r.note_id),
      ticketId,
      seq,
      at,
      authorId: Number(r.n_author_id ?? r.actor_id),
      body: r.n_body,
      editedAt: optionalDate(r.n_edited_at),
      deletedAt: optionalDate(r.n_deleted_at),
    };
  if (r.kind === 'REPLY_ADDED' && r.reply_id !== null)
    return {
      entry: 'reply',
      id: Number(r.reply_id),
      ticketId,
      seq,
      at,
      authorId: Number(r.r_author_id ?? r.actor_id),
      body: r.r_body ?? '',
      delivery: { state: (r.r_state ?? 'NOT_CONFIGURED') as DeliveryState, attempts: Number(r.r_attempts ?? 0), lastResponse: r.r_response },
    };
  if (r.kind === 'MESSAGE_RECEIVED' && r.requester_message_id !== null)
    return {
      entry: 'requesterMessage',
      id: Number(r.requester_message_id),
      ticketId,
      seq,
      at,
      fromEmail: r.m_from ?? '',
      body: r.m_body ?? '',
      via: (r.m_via ?? r.via) as RequesterMessageRecord['via'],
      held: !!r.m_held,
      discardedAt: optionalDate(r.m_discarded_at),
    };
  return {
    entry: 'change',
    ticketId,
    seq,
    at,
    actor: { kind: r.actor_kind as ActorKind, name: r.actor_name, userId: r.actor_id === null ? null : Number(r.actor_id) },
    via: r.via as ChangeSource,
    kind: r.kind as TicketChangeRecord['kind'],
    changes: JSON.parse(r.changes) as FieldChange[],
    noteId: r.note_id === null ? null : Number(r.note_id),
    requesterMessageId: r.requester_message_id === null ? null : Number(r.requester_message_id),
  };
}

const KIND_SQL: Record<TimelineFilter, string> = {
  ALL: '',
  NOTES: " and e.kind = 'NOTE_ADDED'",
  CHANGES: " and e.kind not in ('NOTE_ADDED', 'REPLY_ADDED', 'MESSAGE_RECEIVED')",
  REPLIES: " and e.kind in ('REPLY_ADDED', 'MESSAGE_RECEIVED')",
};

/** Validated page arguments (both errors at once), read before any statement runs. */
function readArgs(kind: CursorKind, args: PageArgs): { first: number; afterSeq: number | null } {
  const fields: Record<string, string[]> = {};
  let first = 0;
  let afterSeq: number | null = null;
  try {
    first = pageSize(args.first);
  } catch (error) {
    Object.assign(fields, (error as AppError).fields);
  }
  try {
    const position = readCursor(kind, args.after);
    if (position?.sort) throw AppError.validation({ after: [MESSAGES.pageCursor] });
    afterSeq = position?.id ?? null;
  } catch (error) {
    Object.assign(fields, (error as AppError).fields);
  }
  if (Object.keys(fields).length) throw AppError.validation(fields);
  return { first, afterSeq };
}

/**
 * One page of a ticket's events newest first (the page joins its notes), and the total. Every entry: a ticket's
 * seqs run 1..n without a gap, so the unfiltered total is its last seq, which the caller passes when it has read it
 * (`lastSeq`: the ticket's counter, read with the access check); otherwise it is one step down the (ticket_id, seq)
 * index. A filter counts its entries. Hot reads: prepared once per process (database.ts).
 */
async function eventPage(
  em: Em,
  kind: CursorKind,
  ticketId: number,
  filter: TimelineFilter,
  args: PageArgs,
  lastSeq: number | null = null,
): Promise<TimelinePage<TimelineEntryRecord>> {
  const { first, afterSeq } = readArgs(kind, args);
  const where = `e.ticket_id = ?${KIND_SQL[filter]}`;
  const rows = await hotRead<EventRow>(
    em,
    `timeline_page_${filter}${afterSeq === null ? '' : '_after'}`,
    `select ${EVENT_COLUMNS} from ${EVENT_FROM}
     where ${where}${afterSeq === null ? '' : ' and e.seq < ?'} order by e.seq desc limit ?`,
    afterSeq === null ? [ticketId, first + 1] : [ticketId, afterSeq, first + 1],
  );
  let totalCount: number;
  if (filter === 'ALL' && lastSeq !== null) totalCount = lastSeq;
  else {
    const [total] = await hotRead<{ n: number | string | null }>(
      em,
      `timeline_total_${filter}`,
      filter === 'ALL' ? 'select max(e.seq) as n from ticket_events e where e.ticket_id = ?' : `select count(*) as n from ticket_events e where ${where}`,
      [ticketId],
    );
    totalCount = Number(total?.n ?? 0);
  }
  const shown = rows.slice(0, first);
  const nodes = shown.map(toEntry);
  return {
    nodes,
    people: peopleOf(shown),
    totalCount,
    hasNextPage: rows.length > first,
    endCursor: nodes.length ? encodeCursor(kind, nodes[nodes.length - 1].seq) : null,
  };
}

/** A page of entries with the agents they show (authors, actors), read with it: id -> record, null for an account gone. */
export type TimelinePage<T> = Page<T> & { people: Map<number, UserRecord | null> };

/** A page of one of the viewer's tickets' timeline, newest first (`filter`: every entry, the notes or the changes). */
export async function ticketTimeline(
  ctx: ServiceContext,
  rawTicketId: unknown,
  args: PageArgs & { filter?: TimelineFilter | null },
): Promise<TimelinePage<TimelineEntryRecord>> {
  const filter = args.filter ?? 'ALL';
  if (!(TIMELINE_FILTERS as readonly string[]).includes(filter)) throw AppError.validation({ filter: [MESSAGES.required] });
  readArgs('timeline', args);
  const ticket = await ticketAccess.readableTicket(ctx, rawTicketId);
  return eventPage(ctx.em, 'timeline', ticket.id, filter, args, ticket.eventSeq);
}

/**
 * A page of a ticket's change history (every event but the notes' creations), newest first; readable by whom the
 * access policy lets read it, also after the ticket's deletion (the rule as its last event recorded it).
 */
export async function ticketHistory(ctx: ServiceContext, rawTicketId: unknown, args: PageArgs): Promise<TimelinePage<TicketChangeRecord>> {
  requireViewer(ctx); // signed out is UNAUTHENTICATED whatever the arguments
  readArgs('history', args);
  const ticketId = await historyTicketId(ctx, rawTicketId);
  return eventPage(ctx.em, 'history', ticketId, 'CHANGES', args) as Promise<TimelinePage<TicketChangeRecord>>;
}

/** The ticket id, when the viewer may read its history (services/ticketAccess.ts); NOT_FOUND otherwise. */
async function historyTicketId(ctx: ServiceContext, rawTicketId: unknown): Promise<number> {
  const scope = await ticketAccess.scopeOf(ctx);
  const ticketId = parseId(rawTicketId);
  if (ticketId) {
    const access = ticketAccess.historySql(scope, ticketId);
    if ((await ctx.em.getConnection().execute(access.sql, access.bindings)).length) return ticketId;
  }
  throw AppError.notFound('Ticket');
}

/** The last seq of one of the viewer's tickets' record (0 for none yet); NOT_FOUND when the viewer may not read it. */
export async function lastTimelineSeq(ctx: ServiceContext, rawTicketId: unknown): Promise<number> {
  return (await ticketAccess.readableTicket(ctx, rawTicketId)).eventSeq;
}

/**
 * The entries of one of the viewer's tickets after `afterSeq`, oldest first, at most `limit` (a live client's
 * catch-up; after a deletion, up to its DELETED entry). NOT_FOUND when the viewer may not read the history.
 */
export async function timelineEntriesAfter(ctx: ServiceContext, rawTicketId: unknown, afterSeq: number, limit: number): Promise<TimelineEntryRecord[]> {
  const ticketId = await historyTicketId(ctx, rawTicketId);
  const rows = await ctx.em.getConnection().execute<EventRow[]>(
    `select ${EVENT_COLUMNS} from ${EVENT_FROM}
     where e.ticket_id = ? and e.seq > ? order by e.seq limit ?`,
    [ticketId, afterSeq, limit],
  );
  return rows.map(toEntry);
}

/**
 * The notes these entries of one ticket's timeline are about (NOTE_EDITED and NOTE_DELETED entries the caller has
 * read, so the ticket is one the caller may read), as they are now, with their creation's seq and time: one
 * statement. A note of another ticket is not returned.
 */
export async function notesOfTicket(ctx: ServiceContext, ticketId: number, noteIds: readonly number[]): Promise<Map<number, TicketNoteRecord>> {
  const found = new Map<number, TicketNoteRecord>();
  if (!noteIds.length) return found;
  const rows = await ctx.em
    .getConnection()
    .execute<
      { id: number | string; author_id: number | string; body: string | null; edited_at: unknown; deleted_at: unknown; seq: number | string; at: unknown }[]
    >(
      `select n.id, n.author_id, n.body, n.edited_at, n.deleted_at, e.seq, e.at from ticket_notes n
     join ticket_events e on e.ticket_id = n.ticket_id and e.kind = 'NOTE_ADDED' and e.note_id = n.id
     where n.ticket_id = ? and n.id in (${noteIds.map(() => '?').join(', ')})`,
      [ticketId, ...noteIds],
    );
  for (const r of rows)
    found.set(Number(r.id), {
      entry: 'note',
      id: Number(r.id),
      ticketId,
      seq: Number(r.seq),
      at: toDate(r.at),
      authorId: Number(r.author_id),
      body: r.body,
      editedAt: optionalDate(r.edited_at),
      deletedAt: optionalDate(r.deleted_at),
    });
  return found;
}

/** The revisions of these notes (of entries the caller has read), newest first per note: one statement. */
export async function noteRevisions(ctx: ServiceContext, noteIds: readonly number[]): Promise<Map<number, NoteRevisionRecord[]>> {
  const byNote = new Map<number, NoteRevisionRecord[]>(noteIds.map((id) => [id, []]));
  if (!noteIds.length) return byNote;
  const rows = await ctx.em
    .getConnection()
    .execute<{ id: number | string; note_id: number | string; editor_id: number | string; body: string; created_at: unknown }[]>(
      `select id, note_id, editor_id, body, created_at from ticket_note_revisions where note_id in (${noteIds.map(() => '?').join(', ')}) order by note_id, id desc`,
      [...noteIds],
    );
  for (const r of rows)
    byNote.get(Number(r.note_id))?.push({ id: Number(r.id), noteId: Number(r.note_id), editorId: Number(r.editor_id), body: r.body, at: toDate(r.created_at) });
  return byNote;
}

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
