import { AppError } from '../errors.js';
import { Customer, Macro, Ticket, TicketImage, User } from '../entities/index.js';
import {
  DEFAULT_TICKET_PRIORITY,
  DEFAULT_TICKET_TYPE,
  MESSAGES,
  hasErrors,
  validateTicket,
  type FieldErrors,
  type TicketPriority,
  type TicketType,
} from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { checkImage, type CheckedImage } from './images.js';
import { resolveUsableMacroId } from './macros.js';
import { toDate, type CustomerRecord, type MacroRecord, type TicketImageRecord, type TicketRecord, type UserRecord } from './records.js';

export interface TicketInput {
  title: unknown;
  type?: unknown;
  priority?: unknown;
  /** Fixed to the caller; another agent's id is refused. */
  assignee?: unknown;
  requester: unknown;
  /** apply_macro: null or missing means macro 1. */
  applyMacro?: unknown;
  description: unknown;
}

/** Page sizes are capped, so no request can ask for the whole table. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

export interface TicketPage {
  nodes: TicketRecord[];
  totalCount: number;
  endCursor: string | null;
  hasNextPage: boolean;
}

export function encodeCursor(id: number): string {
  return Buffer.from(`ticket:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): number | null {
  if (!cursor) return null;
  const match = /^ticket:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw AppError.validation({ after: ['Invalid cursor.'] });
  return Number(match[1]);
}

interface TicketRow {
  id: number; title: string; type: TicketType; priority: TicketPriority; assignee_id: number; requester_id: number; macro_id: number;
  description: string; created_at: unknown; updated_at: unknown;
  image_id: number | null; image_mime_type: string | null; image_byte_size: number | null; image_width: number | null; image_height: number | null;
}

function rowToRecord(row: TicketRow): TicketRecord {
  const image: TicketImageRecord | null = row.image_id
    ? { id: Number(row.image_id), ticketId: Number(row.id), mimeType: row.image_mime_type!, byteSize: Number(row.image_byte_size), width: Number(row.image_width), height: Number(row.image_height) }
    : null;
  return {
    id: Number(row.id), title: row.title, type: row.type, priority: row.priority, assigneeId: Number(row.assignee_id),
    requesterId: Number(row.requester_id), macroId: Number(row.macro_id), description: row.description, image,
    createdAt: toDate(row.created_at), updatedAt: toDate(row.updated_at),
  };
}

/**
 * Tickets are read with one SQL statement (tickets left-joined to their image's metadata), without entity
 * hydration: the dashboard's hot path. The image bytes are never read here.
 */
function ticketQuery(ctx: ServiceContext) {
  return ctx.em
    .getKnex()
    .from('tickets as t')
    .leftJoin('ticket_images as i', 'i.ticket_id', 't.id')
    .select('t.id', 't.title', 't.type', 't.priority', 't.assignee_id', 't.requester_id', 't.macro_id', 't.description', 't.created_at', 't.updated_at')
    .select({ image_id: 'i.id', image_mime_type: 'i.mime_type', image_byte_size: 'i.byte_size', image_width: 'i.width', image_height: 'i.height' });
}

async function loadTickets(ctx: ServiceContext, where: (qb: ReturnType<typeof ticketQuery>) => unknown): Promise<TicketRecord[]> {
  const qb = ticketQuery(ctx);
  where(qb);
  const rows = await ctx.em.getConnection().execute<TicketRow[]>(qb as never);
  return rows.map(rowToRecord);
}

/**
 * The requester, macro and assignee read with a page's tickets, keyed by the very record objects listTickets
 * returned (a WeakMap: nothing outlives the request). The GraphQL field resolvers use them to answer
 * synchronously; graphql-js then completes each row without a promise per relation.
 */
export const pageRelations = new WeakMap<TicketRecord, { requester: CustomerRecord | null; macro: MacroRecord | null; assignee: UserRecord | null }>();

interface PageRow extends TicketRow {
  total_count: number | string;
  c_id: number | null; c_name: string; c_email: string; c_owner_id: number; c_created_at: unknown;
  m_id: number | null; m_name: string; m_description: string; m_owner_id: number | null; m_created_at: unknown;
  u_id: number | null; u_username: string; u_email: string; u_created_at: unknown;
}

/**
 * The caller's tickets, newest first, one page at a time (cursor = last id seen). One SQL statement: the page
 * walks the (assignee_id, id) index backwards from the cursor (keyset pagination: the cost of a page does not grow
 * with the table or the page's depth), joined to image metadata, requester, macro and assignee by primary key, and
 * the total comes from a scalar subquery counted on the same index (covering: the table is not read for it).
 */
export async function listTickets(ctx: ServiceContext, page: { first?: number | null; after?: string | null } = {}): Promise<TicketPage> {
  const viewerId = requireViewer(ctx);
  const first = Math.min(Math.max(page.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const afterId = decodeCursor(page.after);
  const knex = ctx.em.getKnex();
  const qb = ticketQuery(ctx)
    .leftJoin('customers as c', 'c.id', 't.requester_id')
    .leftJoin('macros as m', 'm.id', 't.macro_id')
    .leftJoin('users as u', 'u.id', 't.assignee_id')
    .select({ c_id: 'c.id', c_name: 'c.name', c_email: 'c.email', c_owner_id: 'c.owner_id', c_created_at: 'c.created_at' })
    .select({ m_id: 'm.id', m_name: 'm.name', m_description: 'm.description', m_owner_id: 'm.owner_id', m_created_at: 'm.created_at' })
    .select({ u_id: 'u.id', u_username: 'u.username', u_email: 'u.email', u_created_at: 'u.created_at' })
    .select(knex.raw('(select count(*) from tickets as tc where tc.assignee_id = ?) as total_count', [viewerId]))
    .where('t.assignee_id', viewerId);
  if (afterId) qb.andWhere('t.id', '<', afterId);
  qb.orderBy('t.id', 'desc').limit(first + 1);
  const rows = await ctx.em.getConnection().execute<PageRow[]>(qb as never);
  // An empty page has no row to carry the total: only then is it counted on its own (past the last page).
  const totalCount = rows.length ? Number(rows[0].total_count) : afterId ? await countTickets(ctx, viewerId) : 0;
  const customers = new Map<number, CustomerRecord>();
  const macros = new Map<number, MacroRecord>();
  const users = new Map<number, UserRecord>();
  for (const row of rows.slice(0, first)) {
    if (row.c_id != null) customers.set(Number(row.c_id), { id: Number(row.c_id), name: row.c_name, email: row.c_email, ownerId: Number(row.c_owner_id), createdAt: toDate(row.c_created_at) });
    if (row.m_id != null) macros.set(Number(row.m_id), { id: Number(row.m_id), name: row.m_name, description: row.m_description, ownerId: row.m_owner_id == null ? null : Number(row.m_owner_id), createdAt: toDate(row.m_created_at) });
    if (row.u_id != null) users.set(Number(row.u_id), { id: Number(row.u_id), username: row.u_username, email: row.u_email, createdAt: toDate(row.u_created_at) });
  }
  const nodes = rows.slice(0, first).map((row) => {
    const record = rowToRecord(row);
    // Each node's relations, for resolvers that can then answer without a promise (see pageRelations).
    pageRelations.set(record, {
      requester: customers.get(Number(row.c_id)) ?? null,
      macro: macros.get(Number(row.m_id)) ?? null,
      assignee: users.get(Number(row.u_id)) ?? null,
    });
    return record;
  });
  return { nodes, totalCount, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1].id) : null };
}

/** Every ticket of the caller (the REST list, which the contract fixes as a bare array). */
export async function listAllTickets(ctx: ServiceContext): Promise<TicketRecord[]> {
  const viewerId = requireViewer(ctx);
  return loadTickets(ctx, (qb) => qb.where('t.assignee_id', viewerId).orderBy('t.id', 'desc'));
}

async function countTickets(ctx: ServiceContext, viewerId: number): Promise<number> {
  const [row] = await ctx.em.getConnection().execute<{ n: number | string }[]>(ctx.em.getKnex().from('tickets').where('assignee_id', viewerId).count({ n: '*' }) as never);
  return Number(row?.n ?? 0);
}

/** A ticket the caller may see (their own); anything else is "not found", so ids leak nothing. */
export async function getTicket(ctx: ServiceContext, rawId: unknown): Promise<TicketRecord> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const [ticket] = id ? await loadTickets(ctx, (qb) => qb.where('t.id', id).andWhere('t.assignee_id', viewerId)) : [];
  if (!ticket) throw AppError.notFound('Ticket');
  return ticket;
}

async function findOwnTicketEntity(ctx: ServiceContext, rawId: unknown): Promise<Ticket> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const ticket = id ? await ctx.em.findOne(Ticket, { id, assignee: viewerId }, { populate: ['image'] }) : null;
  if (!ticket) throw AppError.notFound('Ticket');
  return ticket;
}

interface ValidTicket { title: string; type: TicketType; priority: TicketPriority; requesterId: number; macroId: number; description: string }

/** Every rule of a ticket body, with all field errors at once. */
async function validateTicketInput(ctx: ServiceContext, input: TicketInput): Promise<ValidTicket> {
  const viewerId = requireViewer(ctx);
  const type = input.type ?? DEFAULT_TICKET_TYPE;
  const priority = input.priority ?? DEFAULT_TICKET_PRIORITY;
  const fields: FieldErrors = validateTicket({ title: input.title, requester: input.requester, description: input.description, type, priority });
  const assigneeId = input.assignee === undefined || input.assignee === null || input.assignee === '' ? viewerId : parseId(input.assignee);
  if (assigneeId !== viewerId) fields.assignee = ['Tickets can only be assigned to yourself.'];
  let requesterId: number | null = null;
  if (!fields.requester) {
    requesterId = parseId(input.requester);
    if (!requesterId || (await ctx.em.count(Customer, { id: requesterId })) === 0) fields.requester = [MESSAGES.ticketRequesterUnknown];
  }
  const macroId = await resolveUsableMacroId(ctx, input.applyMacro);
  if (!macroId) fields.applyMacro = [MESSAGES.ticketMacro];
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { title: String(input.title), type: type as TicketType, priority: priority as TicketPriority, requesterId: requesterId!, macroId: macroId!, description: String(input.description) };
}

function assignFields(ctx: ServiceContext, ticket: Ticket, data: ValidTicket): void {
  ctx.em.assign(ticket, {
    title: data.title, type: data.type, priority: data.priority, description: data.description,
    requester: ctx.em.getReference(Customer, data.requesterId), macro: ctx.em.getReference(Macro, data.macroId),
  });
}

function attachImage(ctx: ServiceContext, ticket: Ticket, image: CheckedImage): void {
  if (ticket.image) ctx.em.remove(ticket.image);
  ticket.image = ctx.em.create(TicketImage, { ticket, ...image, createdAt: new Date() });
}

async function validateImageField(image: Buffer | null | undefined, required: boolean, fields: FieldErrors): Promise<CheckedImage | null> {
  if (image == null) {
    if (required) fields.image = [MESSAGES.ticketImage];
    return null;
  }
  try {
    return await checkImage(image);
  } catch (error) {
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw error;
    if (error instanceof AppError && error.fields) Object.assign(fields, error.fields);
    else throw error;
    return null;
  }
}

async function validateAll(ctx: ServiceContext, input: TicketInput, image: Buffer | null | undefined, imageRequired: boolean) {
  const fields: FieldErrors = {};
  const checkedImage = await validateImageField(image, imageRequired, fields);
  let data: ValidTicket | null = null;
  try {
    data = await validateTicketInput(ctx, input);
  } catch (error) {
    if (error instanceof AppError && error.fields) Object.assign(fields, error.fields);
    else throw error;
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { data: data!, checkedImage };
}

async function publishTicket(ctx: ServiceContext, kind: 'CREATED' | 'UPDATED', id: number): Promise<TicketRecord> {
  const record = await getTicket(ctx, id);
  ctx.deps.bus.publish('ticket', record.assigneeId, { kind, id, record });
  return record;
}

/**
 * Creates a ticket and its image in one transaction: both are stored or neither is. The image is required
 * (SPEC: "Image is Required") except for the legacy REST flow, which creates the ticket and then adds the image
 * with a second call (REST-CONTRACT: POST /tickets/create, then /add-image).
 */
export async function createTicket(ctx: ServiceContext, input: TicketInput, image: Buffer | null | undefined, options: { imageRequired: boolean } = { imageRequired: true }): Promise<TicketRecord> {
  const viewerId = requireViewer(ctx);
  const { data, checkedImage } = await validateAll(ctx, input, image, options.imageRequired);
  const ticket = ctx.em.create(Ticket, {
    title: data.title, type: data.type, priority: data.priority, description: data.description,
    assignee: ctx.em.getReference(User, viewerId), requester: ctx.em.getReference(Customer, data.requesterId), macro: ctx.em.getReference(Macro, data.macroId),
    createdAt: new Date(), updatedAt: new Date(),
  });
  if (checkedImage) attachImage(ctx, ticket, checkedImage);
  await ctx.em.flush();
  return publishTicket(ctx, 'CREATED', ticket.id);
}

/** Edits the fields; a new image replaces the old one, no image keeps it ("noImage"). One transaction. */
export async function updateTicket(ctx: ServiceContext, rawId: unknown, input: TicketInput, image?: Buffer | null): Promise<TicketRecord> {
  const ticket = await findOwnTicketEntity(ctx, rawId);
  const { data, checkedImage } = await validateAll(ctx, input, image, false);
  assignFields(ctx, ticket, data);
  ticket.updatedAt = new Date();
  if (checkedImage) attachImage(ctx, ticket, checkedImage);
  await ctx.em.flush();
  return publishTicket(ctx, 'UPDATED', ticket.id);
}

/** Adds or replaces the ticket's one image (REST add-image and edit-image). */
export async function setTicketImage(ctx: ServiceContext, rawId: unknown, image: Buffer | null | undefined): Promise<TicketImageRecord> {
  const ticket = await findOwnTicketEntity(ctx, rawId);
  const fields: FieldErrors = {};
  const checkedImage = await validateImageField(image, true, fields);
  if (hasErrors(fields) || !checkedImage) throw AppError.validation(fields);
  attachImage(ctx, ticket, checkedImage);
  ticket.updatedAt = new Date();
  await ctx.em.flush();
  const record = await publishTicket(ctx, 'UPDATED', ticket.id);
  return record.image!;
}

export async function deleteTicket(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const ticket = await findOwnTicketEntity(ctx, rawId);
  const { id } = ticket;
  const assigneeId = ticket.assignee.id;
  // The image row goes with it (ON DELETE CASCADE, and removed here too so the identity map agrees).
  if (ticket.image) ctx.em.remove(ticket.image);
  await ctx.em.remove(ticket).flush();
  ctx.deps.bus.publish('ticket', assigneeId, { kind: 'DELETED', id });
  return id;
}

/** The bytes of an image, for the caller's own tickets only. */
export async function getTicketImageData(ctx: ServiceContext, rawImageId: unknown): Promise<{ mimeType: string; data: Buffer; ticketId: number }> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawImageId);
  const image = id ? await ctx.em.findOne(TicketImage, { id, ticket: { assignee: viewerId } }, { populate: ['data'] }) : null;
  if (!image) throw AppError.notFound('Image');
  return { mimeType: image.mimeType, data: image.data, ticketId: image.ticket.id };
}
