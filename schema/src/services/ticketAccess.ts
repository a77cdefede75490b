/**
 * The ticket-access policy: who may see and change a ticket, in every form the rule takes. Today's rule is "an
 * agent sees and changes only the tickets assigned to them"; changing it (e.g. "team members may read") is an
 * edit of this module alone, and scripts/ticketAccess.test.ts fails when ticket access is decided anywhere else.
 *
 * The forms of the rule:
 * - SQL: the condition a statement applies for "may read" (`readSql`), over the tickets table and over the two
 *   tables the triage triggers keep per agent (`countsSql` over ticket_counts, `searchSql`/`searchToken` over
 *   ticket_search). Every change goes through the ORM (below); a hand-written SQL write would add its own
 *   "may change" fragment here. The hot list paths build their SQL by hand: they get the very
 *   fragment and bindings they wrote before (`t.assignee_id = ?`, the viewer's id), so their statements, their
 *   prepared-statement cache keys and their plans are unchanged.
 * - The ORM: the filter of a ticket (or of a ticket's image) the viewer may read (`readFilter`) or change
 *   (`changeFilter`; today the same tickets).
 * - One record: `findForChange` loads a ticket the viewer may change; anything else is NOT_FOUND, so an id
 *   leaks nothing (the same answer for another agent's ticket as for one that does not exist).
 * - The audience of a ticket event: the agents who may read it (`audience`: the webhook endpoints of those agents
 *   receive its webhook events), and the live bus: `publish` sends a change to the topic of every agent of the
 *   audience, `subscribe` is the topic one viewer listens on.
 * - Who a ticket may be assigned to (`mayAssign`).
 *
 * The triage migration (20261123140000) keys ticket_counts and ticket_search by the assignee in its triggers; a
 * migration is history and stays as written. A rule that stops following the assignee needs a migration for those
 * keys and the matching change of countsSql/searchSql/searchToken here.
 */
import type { ObjectQuery } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Ticket } from '../entities/index.js';
import type { EventBus, TicketChange, TimelineSignal } from '../realtime/events.js';
import type { ServiceContext } from './context.js';
import { parseId, requireViewer } from './context.js';

/** A statement fragment and its bindings, in order. */
export interface AccessSql {
  sql: string;
  bindings: unknown[];
}

/** A ticket as an entity (its assignee a reference) or as a record/event payload (its assignee's id). */
export type TicketOwner = { assignee: { id: number } } | { assigneeId: unknown };

function assigneeOf(ticket: TicketOwner): number {
  return 'assignee' in ticket ? ticket.assignee.id : Number(ticket.assigneeId);
}

/**
 * What the event record keeps of the rule with each event (ticket_events.assignee_id): enough to decide, once the
 * ticket is gone, who may read its history (`historyOwnerSql`).
 */
export function audienceOwner(ticket: TicketOwner): number {
  return assigneeOf(ticket);
}

/** "May read": the condition over the tickets table aliased `alias` (default `t`; null: the table unaliased). */
export function readSql(viewerId: number, alias: string | null = 't'): AccessSql {
  return { sql: `${alias ? `${alias}.` : ''}assignee_id = ?`, bindings: [viewerId] };
}

/** "May read" over the per-agent counters (ticket_counts, aliased `alias`): the rows that sum to the viewer's totals. */
export function countsSql(viewerId: number, alias = 'k'): AccessSql {
  return { sql: `${alias}.assignee_id = ?`, bindings: [viewerId] };
}

/** "May read" over the PostgreSQL search table (ticket_search, aliased `alias`). */
export function searchSql(viewerId: number, alias = 's'): AccessSql {
  return { sql: `${alias}.assignee_id = ?`, bindings: [viewerId] };
}

/**
 * "May read" in an SQLite FTS5 query: the `agent` column holds one token per ticket, `a<assignee id>` (written by
 * the triage migration's triggers), so the engine only walks the postings of the tickets the viewer may read.
 */
export function searchToken(viewerId: number): string {
  return `agent : "a${viewerId}"`;
}

/** "May read" as a MikroORM filter of tickets. */
export function readFilter(viewerId: number): ObjectQuery<Ticket> {
  return { assignee: viewerId };
}

/** "May change" as a MikroORM filter of tickets. */
export function changeFilter(viewerId: number): ObjectQuery<Ticket> {
  return readFilter(viewerId);
}

/** Whether the viewer may give a ticket to this agent (on create and edit): only to themselves. */
export function mayAssign(viewerId: number, assigneeId: number | null): boolean {
  return assigneeId === viewerId;
}

/** The agent a new ticket of the viewer's is assigned to. */
export function assigneeOnCreate(viewerId: number): number {
  return viewerId;
}

/** The agents who may read the ticket: its events' audience (bus topics, webhook endpoints of these agents). */
export function audience(ticket: TicketOwner): number[] {
  return [assigneeOf(ticket)];
}

/**
 * Sends a ticket change to the live topic of every agent who may read the ticket (its audience, taken before a
 * delete while the ticket is still at hand).
 */
export function publish(bus: EventBus, to: TicketOwner | readonly number[], change: TicketChange): void {
  const agents: readonly number[] = Array.isArray(to) ? (to as readonly number[]) : audience(to as TicketOwner);
  for (const agentId of agents) bus.publish('ticket', agentId, change);
}

/** Sends a ticket's new event-record seq to the live `timeline` topic of every agent who may read the ticket. */
export function publishTimeline(bus: EventBus, to: TicketOwner, entry: TimelineSignal): void {
  for (const agentId of audience(to)) bus.publish('timeline', agentId, entry);
}

/** Sends a reply's new delivery state to the live `replyDelivery` topic of every agent who may read the ticket. */
export function publishReplyDelivery(bus: EventBus, to: TicketOwner, change: { ticketId: number; replyId: number }): void {
  for (const agentId of audience(to)) bus.publish('replyDelivery', agentId, change);
}

/** The reply deliveries the viewer may hear of (the replyDeliveryEvents subscription's source). */
export function subscribeReplyDelivery(bus: EventBus, viewerId: number) {
  return bus.subscribe('replyDelivery', viewerId);
}

/** The event-record seqs the viewer may hear of (the ticketTimelineEvents subscription's source). */
export function subscribeTimeline(bus: EventBus, viewerId: number) {
  return bus.subscribe('timeline', viewerId);
}

/**
 * "May read the history" of one ticket, as one statement's condition with its bindings: the ticket's read rule
 * while it exists, and once it is gone, the rule as its last event recorded it (the assignee then). The statement
 * selects `1 as found` when the viewer may read it.
 */
export function historySql(viewerId: number, ticketId: number): AccessSql {
  return {
    sql: `select 1 as found where coalesce((select assignee_id from tickets where id = ?), (select e.assignee_id from ticket_events e where e.ticket_id = ? order by e.seq desc limit 1)) = ?`,
    bindings: [ticketId, ticketId, viewerId],
  };
}

/** The live ticket changes the viewer may see (the ticketEvents subscription's source). */
export function subscribe(bus: EventBus, viewerId: number) {
  return bus.subscribe('ticket', viewerId);
}

/**
 * The ticket (with its image) the caller may change, as an entity for a write; any other id is NOT_FOUND, as for a
 * ticket that does not exist.
 */
export async function findForChange(ctx: ServiceContext, rawId: unknown): Promise<Ticket> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const ticket = id ? await ctx.em.findOne(Ticket, { id, ...changeFilter(viewerId) }, { populate: ['image'] }) : null;
  if (!ticket) throw AppError.notFound('Ticket');
  return ticket;
}
