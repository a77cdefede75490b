/**
 * The plain records services return. Both transports shape these: GraphQL object types read them directly,
 * REST maps them to the snake_case wire shapes of REST-CONTRACT.md (gateway/src/rest/shapes.ts). Records carry ids,
 * never HTTP paths: an image's address is built at the edge (graphql/urls.ts).
 */
import type { Ticket } from '../entities/index.js';
import type { TicketPriority, TicketStatus, TicketType } from '../validation/rules.js';

export interface UserRecord {
  id: number;
  username: string;
  email: string;
  createdAt: Date;
  /** ADMIN or AGENT; absent where a record was read without it (then AGENT). */
  role?: 'ADMIN' | 'AGENT';
}
export interface TeamRecord {
  id: number;
  name: string;
  createdAt: Date;
  memberIds: number[];
  /** New unassigned tickets of the team go to its least-loaded member online (services/autoAssign.ts). */
  autoAssign: boolean;
}
export interface CustomerRecord {
  id: number;
  name: string;
  email: string;
  ownerId: number;
  createdAt: Date;
}
export interface MacroRecord {
  id: number;
  name: string;
  description: string;
  ownerId: number | null;
  /** PRIVATE, TEAM (shared with `teamId`) or EVERYONE (services/macros.ts). */
  sharing: 'PRIVATE' | 'TEAM' | 'EVERYONE';
  teamId: number | null;
  createdAt: Date;
}
export interface TicketImageRecord {
  id: number;
  ticketId: number;
  mimeType: string;
  byteSize: number;
  width: number;
  height: number;
}
export interface TicketRecord {
  id: number;
  title: string;
  type: TicketType;
  priority: TicketPriority;
  status: TicketStatus;
  /** Null: an unassigned ticket of its team. */
  assigneeId: number | null;
  /** Null: no team (a private ticket of its assignee). */
  teamId: number | null;
  /** Grows with every change of the ticket's own fields, status, team or assignee (the compare-and-set of assignment). */
  version: number;
  requesterId: number;
  macroId: number;
  description: string;
  image: TicketImageRecord | null;
  createdAt: Date;
  updatedAt: Date;
}
export interface MessageRecord {
  id: number;
  senderId: number;
  receiverId: number;
  text: string;
  createdAt: Date;
  updatedAt: Date;
}

/** SQLite hands dates back as epoch milliseconds, PostgreSQL as Date objects: both become a Date. */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
}

/**
 * The record of a ticket entity just flushed: every column is what the unit of work wrote (ids assigned, the
 * onCreate/onUpdate dates set), so the write needs no read-back. The image is the metadata only, never the bytes.
 */
export function ticketRecordOf(t: Ticket): TicketRecord {
  const image = t.image
    ? { id: t.image.id, ticketId: t.id, mimeType: t.image.mimeType, byteSize: t.image.byteSize, width: t.image.width, height: t.image.height }
    : null;
  return {
    id: t.id,
    title: t.title,
    type: t.type,
    priority: t.priority,
    status: t.status,
    assigneeId: t.assignee?.id ?? null,
    teamId: t.team?.id ?? null,
    version: t.version,
    requesterId: t.requester.id,
    macroId: t.macro.id,
    description: t.description,
    image,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
