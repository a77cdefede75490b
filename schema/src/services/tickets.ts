/**
 * The ticket service: writes (create, edit, status, image, delete: each in one transaction with its webhook event,
 * then its live event) here; reading in ticketReads.ts, the rows it reads in recordColumns.ts, the rules of a ticket
 * body in ticketRules.ts. This module is the service's public face: it re-exports the reads.
 */
import { raw } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Customer, Macro, Team, Ticket, TicketImage, User } from '../entities/index.js';
import { DEFAULT_TICKET_STATUS, MESSAGES, hasErrors, isTicketStatus, type FieldErrors } from '../validation/rules.js';
import * as ticketAccess from './ticketAccess.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import type { CheckedImage } from './images.js';
import { eventAudience, facetsOf, flushWithEvents, recordEvents, ticketData, webhookEvent, type WebhookEventDraft } from './changeLog.js';

export { facetsOf } from './changeLog.js';
import * as autoAssign from './autoAssign.js';
import type { Em } from '../database.js';
import type { TicketFacets } from '../realtime/events.js';
import { ticketRecordOf, type TicketImageRecord, type TicketRecord } from '../records/index.js';
import { validateAll, validateImageField, type TicketInput, type ValidTicket } from './ticketRules.js';
import { redrawLinks } from './requesterLinks.js';

export { checkTicketInput, type TicketInput } from './ticketRules.js';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  getTicket,
  getTicketImageData,
  listAllTickets,
  listTickets,
  type PageRelations,
  type TicketFilter,
} from './ticketReads.js';
export type { TicketRelations } from './recordColumns.js';

function assignFields(ctx: ServiceContext, ticket: Ticket, data: ValidTicket): void {
  ctx.em.assign(ticket, {
    title: data.title,
    type: data.type,
    priority: data.priority,
    description: data.description,
    requester: ctx.em.getReference(Customer, data.requesterId),
    macro: ctx.em.getReference(Macro, data.macroId),
  });
  if (data.status) ticket.status = data.status;
}

function attachImage(em: Em, ticket: Ticket, image: CheckedImage): void {
  if (ticket.image) em.remove(ticket.image);
  ticket.image = em.create(TicketImage, { ticket, ...image, createdAt: new Date() });
}

/**
 * Announces a ticket change live to `audience` (the draft's, read in the write's transaction by the change log,
 * plus whoever could read the ticket before: a reassignment away is heard by the agent who lost it).
 */
export function publishTicket(
  ctx: ServiceContext,
  kind: 'CREATED' | 'UPDATED',
  ticket: Ticket,
  audience: readonly number[],
  previous?: TicketFacets,
): TicketRecord {
  const record = ticketRecordOf(ticket);
  ticketAccess.publish(ctx.deps.bus, audience, { kind, id: record.id, record, ...(previous ? { previous } : {}) });
  return record;
}

/** The next version of a ticket written by the ORM: `version + 1` in the UPDATE itself (reloaded after the flush). */
function bumpVersion(ticket: Ticket): void {
  ticket.version = raw('version + 1');
}

/** Where a new ticket goes: `teamId` and `assigneeId` as given (both omitted: no team, the caller). */
export interface TicketPlacement {
  teamId?: unknown;
  assigneeId?: unknown;
}

/**
 * The team and assignee of a new ticket, checked: the team must exist and the caller may only place a ticket in a
 * team of theirs (an admin anywhere); the assignee must be a member of it (or, without a team, the caller).
 */
async function placementOf(ctx: ServiceContext, placement: TicketPlacement): Promise<{ team: number | null; agent: number | null }> {
  const viewerId = requireViewer(ctx);
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!given(placement.teamId) && !given(placement.assigneeId)) return { team: null, agent: viewerId };
  const fields: FieldErrors = {};
  const team = given(placement.teamId) ? parseId(placement.teamId) : null;
  const assignee = given(placement.assigneeId) ? parseId(placement.assigneeId) : null;
  if (given(placement.teamId) && !team) fields.teamId = [MESSAGES.teamUnknown];
  if (given(placement.assigneeId) && !assignee) fields.assigneeId = [MESSAGES.userUnknown];
  if (team) {
    const scope = await ticketAccess.scopeOf(ctx);
    const exists = await ctx.em.count(Team, { id: team });
    if (!exists || !ticketAccess.mayRead(scope, { assigneeId: null, teamId: team })) fields.teamId = [MESSAGES.teamUnknown];
  } else if (assignee && !ticketAccess.mayAssign(viewerId, assignee)) fields.assigneeId = [MESSAGES.ticketAssignee];
  if (!fields.teamId && !fields.assigneeId) {
    const refusal = await ticketAccess.checkAssignee(ctx.em, team, assignee);
    if (refusal === 'member') fields.assigneeId = [MESSAGES.assigneeNotMember];
    if (refusal === 'owner') fields.assigneeId = [MESSAGES.assignmentNeedsOwner];
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { team, agent: assignee };
}

/** A new ticket entity in `em`, placed in `team` (null: none) and assigned to `agent` (null: unassigned). */
function newTicket(em: Em, data: ValidTicket, team: number | null, agent: number | null): Ticket {
  return em.create(Ticket, {
    title: data.title,
    type: data.type,
    priority: data.priority,
    description: data.description,
    status: data.status ?? DEFAULT_TICKET_STATUS,
    assignee: agent === null ? null : em.getReference(User, agent),
    team: team == null ? null : em.getReference(Team, team),
    requester: em.getReference(Customer, data.requesterId),
    macro: em.getReference(Macro, data.macroId),
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}

/**
 * A new unassigned ticket of a team that auto-assigns (services/autoAssign.ts): in one transaction, the team's lock,
 * the choice of the least-loaded member online, the ticket (CREATED, the creator's event) and, when someone was
 * chosen, its assignment (UPDATED, the system's event). Announced live once, as created, with the final record.
 */
async function createAutoAssigned(
  ctx: ServiceContext,
  data: ValidTicket,
  checkedImage: CheckedImage | null | undefined,
  teamId: number,
): Promise<TicketRecord> {
  // Presence is read before the transaction (a Redis round trip with the multi-gateway setup): the lock is not held over it.
  const online = await ctx.deps.presence.onlineUserIds();
  let record: TicketRecord | undefined;
  let created: Ticket | undefined;
  await ctx.em.transactional(async (em) => {
    const chosen = await autoAssign.chooseAssignee(em, teamId, online);
    const ticket = (created = newTicket(em, data, teamId, null));
    if (checkedImage) attachImage(em, ticket, checkedImage);
    await em.flush();
    const createdDraft = webhookEvent.ticket('CREATED', ticket);
    const announce = () => (record = publishTicket(ctx, 'CREATED', ticket, eventAudience(createdDraft)));
    if (chosen === null) return void (await recordEvents(ctx, em, [createdDraft], announce));
    await recordEvents(ctx, em, [createdDraft]);
    await autoAssign.recordAssignment(ctx, em, ticket, chosen, (assignedDraft) => {
      record = publishTicket(ctx, 'CREATED', ticket, eventAudience(assignedDraft, eventAudience(createdDraft)));
    });
  });
  return record ?? ticketRecordOf(created!);
}

/**
 * Creates a ticket, and its image when one is given, in one transaction: both are stored or neither is. Whether a
 * create must carry an image is the transport's rule (GraphQL's createTicket requires one, "Image is Required";
 * the legacy REST flow creates the ticket, then adds the image with a second call: REST-CONTRACT).
 */
export async function createTicket(ctx: ServiceContext, input: TicketInput, image?: Buffer | null, placement: TicketPlacement = {}): Promise<TicketRecord> {
  requireViewer(ctx);
  const { data, checkedImage } = await validateAll(ctx, input, image);
  const { team, agent } = await placementOf(ctx, placement);
  if (team != null && agent == null && (await autoAssign.isOn(ctx, team))) return createAutoAssigned(ctx, data, checkedImage, team);
  const ticket = newTicket(ctx.em, data, team, agent);
  if (checkedImage) attachImage(ctx.em, ticket, checkedImage);
  let record!: TicketRecord;
  let draft: WebhookEventDraft | undefined;
  await flushWithEvents(
    ctx,
    () => (draft = webhookEvent.ticket('CREATED', ticket)),
    () => (record = publishTicket(ctx, 'CREATED', ticket, eventAudience(draft))),
  );
  return record;
}

/**
 * Edits the fields; a new image replaces the old one, no image keeps it ("noImage"). One transaction. The team and
 * assignee stay as they are (an `assigneeId` in the input is ignored).
 */
export async function updateTicket(ctx: ServiceContext, rawId: unknown, input: TicketInput, image?: Buffer | null): Promise<TicketRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const before = ticketData(ticket);
  const previous = facetsOf(ticket);
  // An edit never moves the ticket (assignTicket and takeTicket do): a legacy body's `assignee` is ignored.
  const { data, checkedImage } = await validateAll(ctx, { ...input, assigneeId: undefined }, image);
  assignFields(ctx, ticket, data);
  ticket.updatedAt = new Date();
  bumpVersion(ticket);
  if (checkedImage) attachImage(ctx.em, ticket, checkedImage);
  // A new requester gets a new link, starting at this change, in its transaction: the old requester's link finds
  // nothing, and the new one does not show what was said to the old one (services/requesterLinks.ts).
  const newRequester = previous.requesterId !== data.requesterId;
  return flushTicketUpdate(ctx, ticket, before, previous, [], newRequester ? () => redrawLinks(ctx, ctx.em, [ticket.id], true) : undefined);
}

/**
 * An edited ticket's change: its webhook event in the transaction and, once it commits, its live event (the change
 * log). `before` is the webhook's previous data, `previous` the facets the live event reports as changed from.
 */
async function flushTicketUpdate(
  ctx: ServiceContext,
  ticket: Ticket,
  before: ReturnType<typeof ticketData>,
  previous: TicketFacets,
  audienceBefore: readonly number[] = [],
  afterFlush?: () => Promise<void>,
): Promise<TicketRecord> {
  let record!: TicketRecord;
  let draft: WebhookEventDraft | undefined;
  await flushWithEvents(
    ctx,
    () => (draft = webhookEvent.ticket('UPDATED', ticket, before)),
    () => (record = publishTicket(ctx, 'UPDATED', ticket, eventAudience(draft, audienceBefore), previous)),
    afterFlush,
  );
  return record;
}

/** The one-click status change of the ticket page (also live in the agent's other tabs). */
export async function setTicketStatus(ctx: ServiceContext, rawId: unknown, status: unknown): Promise<TicketRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  if (!isTicketStatus(status)) throw AppError.validation({ status: [MESSAGES.ticketStatus] });
  const previous = facetsOf(ticket);
  if (ticket.status !== status) {
    const before = ticketData(ticket);
    ticket.status = status;
    ticket.updatedAt = new Date();
    bumpVersion(ticket);
    return flushTicketUpdate(ctx, ticket, before, previous);
  }
  // Nothing changed: the other tabs still hear of it (they may hold an older status).
  return publishTicket(ctx, 'UPDATED', ticket, await ticketAccess.audienceOf(ctx.em, ticket), previous);
}

/** Adds or replaces the ticket's one image (REST add-image and edit-image). */
export async function setTicketImage(ctx: ServiceContext, rawId: unknown, image: Buffer | null | undefined): Promise<TicketImageRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const fields: FieldErrors = image == null ? { image: [MESSAGES.ticketImage] } : {};
  const checkedImage = await validateImageField(image, fields);
  if (hasErrors(fields) || !checkedImage) throw AppError.validation(fields);
  const before = ticketData(ticket);
  attachImage(ctx.em, ticket, checkedImage);
  ticket.updatedAt = new Date();
  bumpVersion(ticket);
  const record = await flushTicketUpdate(ctx, ticket, before, facetsOf(ticket));
  return record.image!;
}

export async function deleteTicket(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const { id } = ticket;
  const audience = await ticketAccess.audienceOf(ctx.em, ticket);
  const previous = facetsOf(ticket);
  // The image row goes with it (ON DELETE CASCADE, and removed here too so the identity map agrees).
  const event = webhookEvent.ticket('DELETED', ticket);
  if (ticket.image) ctx.em.remove(ticket.image);
  ctx.em.remove(ticket);
  await flushWithEvents(
    ctx,
    () => event,
    () => ticketAccess.publish(ctx.deps.bus, audience, { kind: 'DELETED', id, previous }),
  );
  return id;
}
