/**
 * A ticket's timeline, read: its event record (ticket_events, written by services/changeLog.ts in the transaction of
 * every ticket change) newest first, a page at a time, with the ticket's internal notes; its change history; a live
 * client's catch-up; the notes and revisions the entries are about. Every event is one entry: a note's creation
 * (NOTE_ADDED) is its TicketNote entry, every other event a change entry. A client holding every seq up to n holds
 * the whole timeline up to n. Who may read a ticket's timeline and history is decided by services/ticketAccess.ts
 * (the history also after the ticket is deleted). A row becomes an entry in services/timelineRows.ts; the notes are
 * written in services/ticketNotes.ts.
 */
import { AppError } from '../errors.js';
import { preparedRead, type Em } from '../database.js';
import { MESSAGES } from '../validation/rules.js';
import { toDate, type UserRecord } from '../records/index.js';
import { parseId, requireViewer, type ActorKind, type ChangeSource, type ServiceContext } from './context.js';
import { encodeCursor, pageSize, readCursor, type CursorKind, type Page, type PageArgs } from './connection.js';
import type { FieldChange, TicketEventKind } from './changeLog.js';
import * as ticketAccess from './ticketAccess.js';
import type { RequesterMessageRecord, TicketReplyRecord } from './requesterReplies.js';
import { EVENT_COLUMNS, EVENT_FROM, optionalDate, peopleOf, toEntry, type EventRow } from './timelineRows.js';

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
  const rows = await preparedRead<EventRow>(
    em,
    `timeline_page_${filter}${afterSeq === null ? '' : '_after'}`,
    `select ${EVENT_COLUMNS} from ${EVENT_FROM}
     where ${where}${afterSeq === null ? '' : ' and e.seq < ?'} order by e.seq desc limit ?`,
    afterSeq === null ? [ticketId, first + 1] : [ticketId, afterSeq, first + 1],
  );
  let totalCount: number;
  if (filter === 'ALL' && lastSeq !== null) totalCount = lastSeq;
  else {
    const [total] = await preparedRead<{ n: number | string | null }>(
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
