/**
 * Auto-assignment: a team setting (`teams.auto_assign`, off by default) that gives each new ticket of the
 * team created without an assignee to the team's least-loaded member online.
 *
 * - Online: an agent with at least one open signed-in socket on any gateway, as the message center shows it
 *   (realtime/presence.ts through `ctx.deps.presence`: a map in one process, a Redis sorted set across gateways).
 *   API-token sockets are integrations, not an agent at a screen, and do not count.
 * - Load: the member's unsolved (OPEN or PENDING) tickets assigned to them in that team, read from the counters the
 *   triage triggers keep (ticket_counts, keyed by assignee, team, status, priority and type): a handful of rows,
 *   however many tickets the team has.
 * - Ties: the lowest user id (deterministic; with equal loads the team fills in id order, round after round).
 * - Nobody of the team online: the ticket stays unassigned in the team.
 *
 * Concurrency: the choice is made in the creating transaction, after taking the team's row lock on PostgreSQL
 * (`for no key update`: it excludes another auto-assigning create of the same team, but not the key-share locks that
 * foreign keys to the team take, so other writes of the team's tickets never wait for it). A second create of the
 * team waits there until the first commits, then (read committed) reads the loads with the first's ticket counted.
 * On SQLite the one connection serialises every write transaction already. So concurrent creates choose exactly as
 * a serial run would.
 *
 * History: the create is the creator's event (CREATED, unassigned in the team); the assignment is a second event in
 * the same transaction by the SYSTEM actor through the SYSTEM door (UPDATED, assigneeId null → the member), so the
 * history says the system chose, not the creator.
 */
import type { Knex } from '@mikro-orm/knex';
import { emKind, type Em } from '../database.js';
import { Ticket, User } from '../entities/index.js';
import type { ServiceContext } from './context.js';
import { recordEvents, ticketData, webhookEvent, type WebhookEventDraft } from './changeLog.js';

/** Whether the team auto-assigns now (read outside the create's transaction; the choice re-reads it under the lock). */
export async function isOn(ctx: ServiceContext, teamId: number): Promise<boolean> {
  const [row] = await ctx.em.getConnection().execute<{ on: unknown }[]>('select auto_assign as "on" from teams where id = ?', [teamId]);
  return truthy(row?.on);
}

const truthy = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

/**
 * In the create's open transaction `em`: takes the team's lock (PostgreSQL), then picks the member of `teamId` in
 * `online` with the fewest unsolved tickets of the team (ties: lowest id). Null when the setting is off (turned off
 * meanwhile) or no member is online.
 */
export async function chooseAssignee(em: Em, teamId: number, online: ReadonlySet<number>): Promise<number | null> {
  const trx = em.getTransactionContext<Knex.Transaction>();
  const connection = em.getConnection();
  const lock = emKind(em) === 'postgresql' ? ' for no key update' : '';
  const [team] = await connection.execute<{ on: unknown }[]>(`select auto_assign as "on" from teams where id = ?${lock}`, [teamId], 'all', trx);
  if (!team || !truthy(team.on) || !online.size) return null;
  const members = await connection.execute<{ id: number }[]>('select user_id as id from team_members where team_id = ? order by user_id', [teamId], 'all', trx);
  const candidates = members.map((m) => Number(m.id)).filter((id) => online.has(id));
  if (!candidates.length) return null;
  const rows = await connection.execute<{ id: number; n: number | string }[]>(
    `select assignee_id as id, sum(n) as n from ticket_counts where team_id = ? and status <> 'SOLVED' and assignee_id <> 0 group by assignee_id`,
    [teamId],
    'all',
    trx,
  );
  const load = new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
  let best: number | null = null;
  for (const id of candidates) if (best === null || (load.get(id) ?? 0) < (load.get(best) ?? 0)) best = id;
  return best;
}

/** The actor of the assignment event: the system, through the SYSTEM door (services/context.ts actorOf). */
function systemContext(ctx: ServiceContext): ServiceContext {
  return { ...ctx, viewerId: null, token: undefined, requester: undefined, via: 'SYSTEM' };
}

/**
 * In the creating transaction `em`, after the new ticket's insert and its CREATED record: gives it to `chosen`
 * (chooseAssignee's answer) as the system's event (UPDATED, assigneeId null → chosen; the version moves), with its
 * webhook event; `publish` runs once the transaction has committed. Every door that creates tickets of a team
 * (GraphQL's createTicket now, incoming mail later) calls chooseAssignee before its insert and this after it.
 */
export async function recordAssignment(
  ctx: ServiceContext,
  em: Em,
  ticket: Ticket,
  chosen: number,
  publish: (draft: WebhookEventDraft) => void,
): Promise<void> {
  const before = ticketData(ticket);
  ticket.assignee = em.getReference(User, chosen);
  ticket.version += 1;
  await em.flush();
  const draft = webhookEvent.ticket('UPDATED', ticket, before);
  await recordEvents(systemContext(ctx), em, [draft], () => publish(draft));
}
