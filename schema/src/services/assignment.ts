/**
 * Assignment: who a ticket belongs to, changed by compare-and-set. `assignTicket` and `takeTicket` name
 * the version the caller saw; the change is made only while the ticket still has it, so of two agents taking one
 * ticket at once exactly one succeeds and the other gets CONFLICT with the ticket's current version and assignee
 * (`extensions.currentVersion`, `extensions.assigneeId`). Every assignment is an event of the ticket's record
 * and a TICKET_UPDATED webhook event (services/changeLog.ts), heard live by whoever could read the ticket before
 * or can read it now.
 */
import type { Knex } from '@mikro-orm/knex';
import { AppError } from '../errors.js';
import { Team, Ticket, User } from '../entities/index.js';
import { MESSAGES, hasErrors, type FieldErrors } from '../validation/rules.js';
import { ticketRecordOf, type TicketRecord } from '../records/index.js';
import type { Em } from '../database.js';
import * as ticketAccess from './ticketAccess.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { eventAudience, facetsOf, recordEvents, ticketData, webhookEvent, type WebhookEventDraft } from './changeLog.js';
import type { TicketFacets } from '../realtime/events.js';

/** A nullable id column or argument as a number or null. */
const optionalId = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function expectedVersionOf(value: unknown): number {
  const n = typeof value === 'number' ? value : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw AppError.validation({ expectedVersion: [MESSAGES.expectedVersion] });
  return n;
}

/** The CONFLICT of a compare-and-set that lost: what the ticket holds now. */
async function conflict(ctx: ServiceContext, id: number): Promise<AppError> {
  const [row] = await ctx.em
    .getConnection()
    .execute<{ version: number; assignee: number | null }[]>('select version, assignee_id as assignee from tickets where id = ?', [id]);
  if (!row) return AppError.notFound('Ticket');
  return new AppError('CONFLICT', MESSAGES.versionConflict, {
    details: { currentVersion: Number(row.version), assigneeId: optionalId(row.assignee) },
  });
}

/**
 * Claims the ticket's version in the open transaction: `version = version + 1` while it is still `expected` (the row
 * lock makes a concurrent claim wait, then find the version moved). False when another change came first.
 */
async function claimVersion(em: Em, id: number, expected: number): Promise<boolean> {
  const trx = em.getTransactionContext<Knex.Transaction>();
  const rows = await em
    .getConnection()
    .execute<{ version: number }[]>('update tickets set version = version + 1 where id = ? and version = ? returning version', [id, expected], 'all', trx);
  return rows.length === 1;
}

/**
 * Moves a ticket to `teamId` (null: no team) and `assigneeId` (null: unassigned, only within a team) if it still
 * has `expectedVersion`. In one transaction with its event; the caller's access was checked by findForChange.
 */
async function moveTicket(ctx: ServiceContext, ticket: Ticket, teamId: number | null, assignTo: number | null, expectedVersion: number): Promise<TicketRecord> {
  if (ticket.version !== expectedVersion) throw await conflict(ctx, ticket.id);
  // Already where it is asked to go: nothing to write, and no event.
  if ((ticket.team?.id ?? null) === teamId && ticketAccess.audienceOwner(ticket) === (assignTo ?? 0)) return ticketRecordOf(ticket);
  const audienceBefore = await ticketAccess.audienceOf(ctx.em, ticket);
  const before = ticketData(ticket);
  const previous = facetsOf(ticket);
  let draft: WebhookEventDraft | undefined;
  let record!: TicketRecord;
  const lost = new Error('version moved');
  try {
    await ctx.em.transactional(async (em) => {
      if (!(await claimVersion(em, ticket.id, expectedVersion))) throw lost;
      const t = await em.findOneOrFail(Ticket, ticket.id, { populate: ['image'] });
      t.team = teamId == null ? null : em.getReference(Team, teamId);
      t.assignee = assignTo === null ? null : em.getReference(User, assignTo);
      t.version = expectedVersion + 1;
      t.updatedAt = new Date();
      await em.flush();
      draft = webhookEvent.ticket('UPDATED', t, before);
      await recordEvents(ctx, em, [draft], () => {
        record = ticketRecordOf(t);
        ticketAccess.publish(ctx.deps.bus, eventAudience(draft, audienceBefore), { kind: 'UPDATED', id: t.id, record, previous });
      });
    });
  } catch (error) {
    ctx.em.clear();
    // Read once the transaction has ended: what the ticket holds now.
    throw error === lost ? await conflict(ctx, ticket.id) : error;
  }
  return record ?? ticketRecordOf(ticket);
}

/**
 * Gives a ticket the caller may change to a team and/or an agent: `teamId` null means no team (then an assignee
 * is required), `assigneeId` null an unassigned ticket of the team. The assignee must be a member of the team; the
 * team must exist. Compare-and-set on `expectedVersion`.
 */
export async function assignTicket(
  ctx: ServiceContext,
  rawId: unknown,
  args: { teamId?: unknown; assigneeId?: unknown; expectedVersion: unknown },
): Promise<TicketRecord> {
  requireViewer(ctx);
  const expected = expectedVersionOf(args.expectedVersion);
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const fields: FieldErrors = {};
  const givenTeam = optionalId(args.teamId) !== null;
  const givenAgent = optionalId(args.assigneeId) !== null;
  const teamId = givenTeam ? parseId(args.teamId) : null;
  const agentId = givenAgent ? parseId(args.assigneeId) : null;
  if (givenTeam && (!teamId || !(await ctx.em.count(Team, { id: teamId })))) fields.teamId = [MESSAGES.teamUnknown];
  if (givenAgent && (!agentId || !(await ctx.em.count(User, { id: agentId })))) fields.assigneeId = [MESSAGES.userUnknown];
  if (!hasErrors(fields)) {
    const refusal = await ticketAccess.checkAssignee(ctx.em, teamId, agentId);
    if (refusal === 'member') fields.assigneeId = [MESSAGES.assigneeNotMember];
    if (refusal === 'owner') fields.assigneeId = [MESSAGES.assignmentNeedsOwner];
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  return moveTicket(ctx, ticket, teamId, agentId, expected);
}

/** The caller takes a ticket of one of their teams (it stays in the team). Compare-and-set on `expectedVersion`. */
export async function takeTicket(ctx: ServiceContext, rawId: unknown, rawExpectedVersion: unknown): Promise<TicketRecord> {
  const viewerId = requireViewer(ctx);
  const expected = expectedVersionOf(rawExpectedVersion);
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const teamId = ticket.team?.id ?? null;
  if ((await ticketAccess.checkAssignee(ctx.em, teamId, viewerId)) !== null) throw AppError.validation({ assigneeId: [MESSAGES.assigneeNotMember] });
  return moveTicket(ctx, ticket, teamId, viewerId, expected);
}

/**
 * Unassigns `userId`'s tickets of `teamId` (they stay in the team), each as its own event, in the open transaction
 * `em` (the removal of a member from the team, services/teams.ts). Returns the live announcements to make after
 * the commit.
 */
export async function unassignMemberTickets(ctx: ServiceContext, em: Em, teamId: number, userId: number): Promise<() => void> {
  const owned = await em.find(Ticket, ticketAccess.memberTicketsFilter(teamId, userId), { populate: ['image'] });
  const drafts: { draft: WebhookEventDraft; ticket: Ticket; before: Record<string, unknown>; previous: TicketFacets }[] = [];
  for (const ticket of owned) {
    const before = ticketData(ticket);
    ticket.assignee = null;
    ticket.version += 1;
    ticket.updatedAt = new Date();
    drafts.push({ draft: undefined as unknown as WebhookEventDraft, ticket, before, previous: facetsOf(ticket) });
  }
  await em.flush();
  for (const d of drafts) d.draft = webhookEvent.ticket('UPDATED', d.ticket, d.before);
  await recordEvents(
    ctx,
    em,
    drafts.map((d) => d.draft),
  );
  return () => {
    for (const d of drafts) {
      const record = ticketRecordOf(d.ticket);
      ticketAccess.publish(ctx.deps.bus, eventAudience(d.draft, [userId]), { kind: 'UPDATED', id: record.id, record, previous: d.previous });
    }
  };
}
