/**
 * The rules of a ticket body: every field checked, with all field errors at once (the shared validation module's
 * checks and messages, the requester and macro lookups, the assignee through the ticket-access policy, the image).
 */
import { AppError } from '../errors.js';
import {
  DEFAULT_TICKET_PRIORITY,
  DEFAULT_TICKET_TYPE,
  MESSAGES,
  hasErrors,
  validateTicket,
  type FieldErrors,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../validation/rules.js';
import { preparedRead } from '../database.js';
import * as ticketAccess from './ticketAccess.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { checkImage, type CheckedImage } from './images.js';
import { resolveUsableMacroId } from './macros.js';

/** A ticket body, under the domain's names (GraphQL's TicketInput passes straight through; REST maps its own). */
export interface TicketInput {
  title: unknown;
  type?: unknown;
  priority?: unknown;
  /** OPEN, PENDING or SOLVED; missing keeps the ticket's status (OPEN for a new one). */
  status?: unknown;
  /** The customer who asked: a number or a numeric string. */
  requesterId: unknown;
  /** Null or missing means macro 1, "No Macro". */
  macroId?: unknown;
  /** Fixed to the caller; another agent's id is refused. Missing means the caller. */
  assigneeId?: unknown;
  description: unknown;
}

/**
 * Whether the requester exists: one indexed read through a statement prepared once (preparedRead), not an ORM count,
 * which builds, inlines and prepares its SQL on every write (8% of a ticket create's CPU in the profile). The
 * foreign key still refuses a requester deleted between this check and the insert.
 */
async function customerExists(ctx: ServiceContext, id: number): Promise<boolean> {
  return (await preparedRead(ctx.em, 'customer_exists', 'select 1 as found from customers where id = ? limit 1', [id])).length > 0;
}

export interface ValidTicket {
  title: string;
  type: TicketType;
  priority: TicketPriority;
  requesterId: number;
  macroId: number;
  description: string;
  status: TicketStatus | undefined;
}

/** Every rule of a ticket body: its field errors, all at once, or the valid ticket. Writes nothing. */
async function checkTicketBody(ctx: ServiceContext, input: TicketInput): Promise<{ fields: FieldErrors; data: ValidTicket | null }> {
  const viewerId = requireViewer(ctx);
  const type = input.type ?? DEFAULT_TICKET_TYPE;
  const priority = input.priority ?? DEFAULT_TICKET_PRIORITY;
  const fields: FieldErrors = validateTicket({
    title: input.title,
    requesterId: input.requesterId,
    description: input.description,
    type,
    priority,
    status: input.status,
  });
  // Missing or empty: the caller. Whether the caller may assign it is the policy's (mayAssign), not decided here.
  const given = input.assigneeId;
  const assigneeId = given === undefined || given === null || given === '' ? viewerId : parseId(given);
  if (!ticketAccess.mayAssign(viewerId, assigneeId)) fields.assigneeId = [MESSAGES.ticketAssignee];
  let requesterId: number | null = null;
  if (!fields.requesterId) {
    requesterId = parseId(input.requesterId);
    if (!requesterId || !(await customerExists(ctx, requesterId))) fields.requesterId = [MESSAGES.ticketRequesterUnknown];
  }
  const macroId = await resolveUsableMacroId(ctx, input.macroId);
  if (!macroId) fields.macroId = [MESSAGES.ticketMacro];
  if (hasErrors(fields)) return { fields, data: null };
  return {
    fields,
    data: {
      title: String(input.title),
      type: type as TicketType,
      priority: priority as TicketPriority,
      requesterId: requesterId!,
      macroId: macroId!,
      description: String(input.description),
      status: input.status == null ? undefined : (input.status as TicketStatus),
    },
  };
}

/**
 * The field errors of a ticket body ({} when it is valid), without writing anything: for a transport that adds a
 * rule of its own (GraphQL's create requires the image) and must still report every field at once.
 */
export async function checkTicketInput(ctx: ServiceContext, input: TicketInput): Promise<FieldErrors> {
  return (await checkTicketBody(ctx, input)).fields;
}

/** An image, if one was given: its metadata, or its field errors added to `fields` (a too-large one is thrown). */
export async function validateImageField(image: Buffer | null | undefined, fields: FieldErrors): Promise<CheckedImage | null> {
  if (image == null) return null;
  try {
    return await checkImage(image);
  } catch (error) {
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw error;
    if (error instanceof AppError && error.fields) Object.assign(fields, error.fields);
    else throw error;
    return null;
  }
}

/** A ticket body and its optional image, every field error at once (the image's first). */
export async function validateAll(ctx: ServiceContext, input: TicketInput, image: Buffer | null | undefined) {
  const fields: FieldErrors = {};
  const checkedImage = await validateImageField(image, fields);
  const body = await checkTicketBody(ctx, input);
  Object.assign(fields, body.fields);
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { data: body.data!, checkedImage };
}
