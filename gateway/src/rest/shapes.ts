/**
 * The snake_case wire shapes of REST-CONTRACT.md, mapped from the service records, and the ticket body's legacy
 * names mapped to the domain's on the way in (and its field errors back to the wire's on the way out).
 */
import fastJson from 'fast-json-stringify';
import {
  AppError,
  imageUrl,
  type tickets,
  type CustomerRecord,
  type MacroRecord,
  type MessageRecord,
  type TicketImageRecord,
  type TicketRecord,
  type UserRecord,
} from '@fulcrum/schema';

export const restUser = (u: UserRecord) => ({ id: u.id, username: u.username, email: u.email });

export const restImage = (i: TicketImageRecord) => ({ id: i.id, ticket_id: i.ticketId, image: imageUrl(i.id) });

export const restTicket = (t: TicketRecord) => ({
  id: t.id,
  title: t.title,
  type: t.type,
  priority: t.priority,
  assignee: t.assigneeId,
  requester: t.requesterId,
  apply_macro: t.macroId,
  description: t.description,
  tickets_images: t.image ? [restImage(t.image)] : [],
});

/** The ticket fields REST calls by its own names (REST-CONTRACT.md): domain name -> wire name. */
const TICKET_WIRE_NAMES = { assigneeId: 'assignee', requesterId: 'requester', macroId: 'apply_macro' } as const;

/** A create or edit body under the domain's names. REST sends no status: an edit keeps it, a create makes it OPEN. */
export const ticketInputOf = (b: Record<string, unknown>): tickets.TicketInput => ({
  title: b.title,
  type: b.type,
  priority: b.priority,
  assigneeId: b.assignee,
  requesterId: b.requester,
  macroId: b.apply_macro,
  description: b.description,
});

/** A ticket refusal with its field errors under the body's own names (`requester`, `apply_macro`, as sent). */
export const restTicketError = (error: unknown): unknown => (error instanceof AppError ? error.withFieldNames(TICKET_WIRE_NAMES) : error);

export const restCustomer = (c: CustomerRecord) => ({ id: c.id, user_id: c.ownerId, name: c.name, email: c.email });

export const restMacro = (m: MacroRecord) => ({ id: m.id, user_id: m.ownerId, name: m.name, description: m.description });

export const restMessage = (m: MessageRecord) => ({ id: m.id, sender_id: m.senderId, receiver_id: m.receiverId, message: m.text });

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

/**
 * The ticket list's body, serialised by a function compiled once from the shape's JSON schema (fast-json-stringify)
 * instead of JSON.stringify walking 50 objects per request. Same bytes as `JSON.stringify(tickets.map(restTicket))`:
 * the properties in restTicket's order, strings escaped by JSON.stringify's rules (shapes.test.ts checks both on
 * arbitrary text).
 */
const TICKET_LIST_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: integer,
      title: string,
      type: string,
      priority: string,
      assignee: integer,
      requester: integer,
      apply_macro: integer,
      description: string,
      tickets_images: { type: 'array', items: { type: 'object', properties: { id: integer, ticket_id: integer, image: string } } },
    },
  },
} as const;

let compiledTicketList: ((tickets: unknown[]) => string) | undefined;

/**
 * Compiled at the first list, not at start. fast-json-stringify is imported like any other module: graphql-jit
 * loads it at start anyway, and in the bundle the import is the bundle's own copy (a require at run time loaded a
 * second copy, and its ajv, from node_modules).
 */
export function stringifyTicketList(tickets: unknown[]): string {
  compiledTicketList ??= fastJson(TICKET_LIST_SCHEMA);
  return compiledTicketList(tickets);
}
