/**
 * How a ticket's event record is read as timeline entries: the columns and joins of one statement that brings each
 * event with its note, reply or requester message (each joined only for its own kind) and the agent it shows, the
 * row's shape, and the mapping of a row to its entry (a note's creation is its note, a reply its reply, a requester's
 * message its message, every other event a change). The statements themselves are in services/ticketTimeline.ts.
 */
import { toDate, type UserRecord } from '../records/index.js';
import { userOfRow, type UserRow } from './users.js';
import type { ActorKind, ChangeSource } from './context.js';
import type { FieldChange } from './changeLog.js';
import type { DeliveryState, RequesterMessageRecord } from './requesterReplies.js';
import type { TicketChangeRecord, TimelineEntryRecord } from './ticketTimeline.js';

export const EVENT_COLUMNS =
  'e.ticket_id, e.seq, e.at, e.actor_kind, e.actor_id, e.actor_name, e.via, e.kind, e.changes, e.note_id, n.author_id as n_author_id, n.body as n_body, n.edited_at as n_edited_at, n.deleted_at as n_deleted_at' +
  ', e.reply_id, r.author_id as r_author_id, r.body as r_body, r.delivery_state as r_state, r.delivery_attempts as r_attempts, r.delivery_last_response as r_response' +
  ', e.requester_message_id, m.from_email as m_from, m.body as m_body, m.via as m_via, m.held as m_held, m.discarded_at as m_discarded_at' +
  ', u.id as u_id, u.username as u_username, u.email as u_email, u.role as u_role, u.created_at as u_created_at';

/**
 * The event record with each entry's note, reply or requester message (each joined only for its own kind), and the
 * agent it shows (the note's or reply's author, else the actor): a page's people come with it, not in a statement of
 * their own (`people`).
 */
export const EVENT_FROM = `ticket_events e
  left join ticket_notes n on n.id = e.note_id and e.kind = 'NOTE_ADDED'
  left join ticket_replies r on r.id = e.reply_id and e.kind = 'REPLY_ADDED'
  left join requester_messages m on m.id = e.requester_message_id and e.kind = 'MESSAGE_RECEIVED'
  left join users u on u.id = coalesce(n.author_id, r.author_id, e.actor_id)`;

export interface EventRow {
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
export function peopleOf(rows: readonly EventRow[]): Map<number, UserRecord | null> {
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

export const optionalDate = (value: unknown) => (value === null || value === undefined ? null : toDate(value));

export function toEntry(r: EventRow): TimelineEntryRecord {
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
