/**
 * The ticket pages' rows, read as arrays (preparedReadArrays): the columns each statement selects and one mapper per
 * record type (ticket, customer, macro, user) from a row position. Positional because building an object per
 * row cost as much as the read.
 */
import type { TicketPriority, TicketStatus, TicketType } from '../validation/rules.js';
import { toDate, type CustomerRecord, type MacroRecord, type TicketRecord, type UserRecord } from '../records/index.js';

/**
 * Tickets are read with one SQL statement (tickets left-joined to their image's metadata), without entity
 * hydration, prepared once (preparedRead): the REST list's and the ticket page's hot path. The image bytes are never
 * read here. `name` names the statement text (see preparedRead).
 */
const TICKET_SELECT_COLUMNS = `t.id, t.title, t.type, t.priority, t.status, t.assignee_id, t.requester_id, t.macro_id, t.description, t.created_at, t.updated_at,
    i.id as image_id, i.mime_type as image_mime_type, i.byte_size as image_byte_size, i.width as image_width, i.height as image_height,
    t.team_id, t.version`;
const TICKET_SELECT_FROM = 'from tickets t left join ticket_images i on i.ticket_id = t.id';
export const TICKET_SELECT = `select ${TICKET_SELECT_COLUMNS} ${TICKET_SELECT_FROM}`;
/** TICKET_SELECT with the ticket's event counter (its timeline's last seq) after its own columns, at TICKET_EVENT_SEQ. */
export const TICKET_SELECT_WITH_SEQ = `select ${TICKET_SELECT_COLUMNS}, t.event_seq ${TICKET_SELECT_FROM}`;
export const TICKET_EVENT_SEQ = 18;

/** The requester, macro and assignee read with one ticket of a page (absent: not read; null: none). */
export interface TicketRelations {
  requester?: CustomerRecord | null;
  macro?: MacroRecord | null;
  assignee?: UserRecord | null;
}

/** The page's own columns, always read, in this order (COL names their positions). */
const PAGE_COLUMN_NAMES = [
  'p.sk as sort_key',
  'k.open_count',
  'k.pending_count',
  'k.solved_count',
  't.id',
  't.title',
  't.type',
  't.priority',
  't.status',
  't.assignee_id',
  't.requester_id',
  't.macro_id',
  't.description',
  't.created_at',
  't.updated_at',
  'i.id as image_id',
  'i.mime_type as image_mime_type',
  'i.byte_size as image_byte_size',
  'i.width as image_width',
  'i.height as image_height',
  't.team_id',
  't.version',
] as const;
export const PAGE_COLUMNS = { sql: PAGE_COLUMN_NAMES.join(', '), count: PAGE_COLUMN_NAMES.length };
/** Positions of PAGE_COLUMN_NAMES in a row; the ticket's own columns start at `id`, in TICKET_SELECT's order. */
export const COL = { sortKey: 0, open: 1, pending: 2, solved: 3, id: 4 } as const;

/**
 * The ticket whose columns start at `from` in a row read as an array, in TICKET_SELECT's order (id, title, type,
 * priority, status, assignee, requester, macro, description, created, updated, then the image's id, type, size,
 * width and height, the team and version): the REST list's rows (from 0) and the dashboard page's (from COL.id).
 */
export function ticketRecordAt(r: unknown[], from: number): TicketRecord {
  const id = Number(r[from]);
  const imageId = r[from + 11];
  return {
    id,
    title: r[from + 1] as string,
    type: r[from + 2] as TicketType,
    priority: r[from + 3] as TicketPriority,
    status: r[from + 4] as TicketStatus,
    assigneeId: r[from + 5] == null ? null : Number(r[from + 5]),
    teamId: r[from + 16] == null ? null : Number(r[from + 16]),
    version: Number(r[from + 17] ?? 1),
    requesterId: Number(r[from + 6]),
    macroId: Number(r[from + 7]),
    description: r[from + 8] as string,
    image:
      imageId == null
        ? null
        : {
            id: Number(imageId),
            ticketId: id,
            mimeType: r[from + 12] as string,
            byteSize: Number(r[from + 13]),
            width: Number(r[from + 14]),
            height: Number(r[from + 15]),
          },
    createdAt: toDate(r[from + 9]),
    updatedAt: toDate(r[from + 10]),
  };
}

/** The related record whose columns start at `from`, built once per id; null when the left join found none. */
export function relation<T>(seen: Map<number, T>, row: unknown[], from: number, build: (row: unknown[], from: number) => T): T | null {
  if (row[from] == null) return null;
  const id = Number(row[from]);
  let record = seen.get(id);
  if (!record) seen.set(id, (record = build(row, from)));
  return record;
}
export const customerRecord = (r: unknown[], i: number): CustomerRecord => ({
  id: Number(r[i]),
  name: r[i + 1] as string,
  email: r[i + 2] as string,
  ownerId: Number(r[i + 3]),
  createdAt: toDate(r[i + 4]),
});
export const macroRecord = (r: unknown[], i: number): MacroRecord => ({
  id: Number(r[i]),
  name: r[i + 1] as string,
  description: r[i + 2] as string,
  ownerId: r[i + 3] == null ? null : Number(r[i + 3]),
  createdAt: toDate(r[i + 4]),
  sharing: r[i + 5] as MacroRecord['sharing'],
  teamId: r[i + 6] == null ? null : Number(r[i + 6]),
});
export const userRecord = (r: unknown[], i: number): UserRecord => ({
  id: Number(r[i]),
  username: r[i + 1] as string,
  email: r[i + 2] as string,
  createdAt: toDate(r[i + 3]),
});
