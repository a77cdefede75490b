/**
 * The ticket-access policy: who may see and change a ticket, in every form the rule takes. The rule:
 * an agent may read and change a ticket assigned to them or belonging to one of their teams; an admin may read and
 * change every ticket. The legacy REST facade keeps the spec's rule exactly: only the tickets assigned to the
 * caller (its scope has no team and no admin, whoever calls). Changing the rule is an edit of this module alone,
 * and scripts/ticketAccess.test.ts fails when ticket access is decided anywhere else.
 *
 * Every decision starts from the viewer's scope (`scopeOf`): their id, whether they are an admin and their teams,
 * read from the database once per request (one indexed statement), so a demotion, a removal from a team or a
 * reassignment takes effect at the very next request or live event.
 *
 * The forms of the rule:
 * - SQL: the condition a statement applies for "may read" (`readSql`), over the tickets table and over the two
 *   tables the triage triggers keep (`countsSql` over ticket_counts, `searchSql`/`searchToken` over
 *   ticket_search), all three keyed by assignee and team since migration 20261126140000. For an agent in no team
 *   (the single-agent case) the fragment is the one the hot list paths always had (`t.assignee_id = ?`), so their
 *   statements, prepared-statement cache keys and plans are unchanged; a team member's adds `or t.team_id in
 *   (...)`; an admin's is `1 = 1`.
 * - The ORM: the filter of a ticket (or of a ticket's image) the viewer may read (`readFilter`) or change
 *   (`changeFilter`; the same tickets).
 * - One record: `findForChange` loads a ticket the viewer may change; anything else is NOT_FOUND, so an id
 *   leaks nothing (the same answer for another agent's ticket as for one that does not exist).
 * - The audience of a ticket event (`audienceOf`): the assignee, the members of its team and the admins, read in
 *   the write's transaction: the webhook endpoints of those agents receive its webhook events, and `publish`
 *   sends the live change to each of their topics (`subscribe` is the topic one viewer listens on; a subscription
 *   re-reads every ticket through the rule before sending it, so access lost since is honoured at once).
 * - The history of a ticket once it is gone (`historySql`): the rule as its last event recorded it (assignee and
 *   team, ticket_events.assignee_id / team_id).
 * - Who a ticket may be assigned to (`checkAssignee`: a member of the ticket's team, or anyone for a ticket without
 *   a team) and who may create it where (`mayAssign` for the legacy body field).
 *
 * A new surface that shows tickets takes `await scopeOf(ctx)` and applies one of these forms; it never compares an
 * assignee itself.
 */
import type { ObjectQuery } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Ticket } from '../entities/index.js';
import type { EventBus, TicketChange, TimelineSignal } from '../realtime/events.js';
import type { ServiceContext } from './context.js';
import { preparedRead, type Em } from '../database.js';
import { parseId, requireViewer } from './context.js';

/** A statement fragment and its bindings, in order. */
export interface AccessSql {
  sql: string;
  bindings: unknown[];
}

/** Whom the rule is applied for: the viewer, whether they are an admin, their teams (ascending ids). */
export interface AccessScope {
  viewerId: number;
  admin: boolean;
  teamIds: number[];
  /**
   * A team view's narrowing (`viewScope`): only the tickets of this team (and only its unassigned ones),
   * intersected with what the viewer may read, in every form of the rule below.
   */
  view?: { teamId: number; unassigned: boolean };
}

/** The scopes of a view (rules.VIEW_SCOPES), as the rule applies them. */
export type ViewScopeKind = 'MINE' | 'TEAM_UNASSIGNED' | 'TEAM' | 'ALL';

/**
 * The scope a view reads its tickets with: "may read" AND the view's own part. MINE is the scope of an agent in no
 * team (their assigned tickets: the same statements and plans as "My tickets"); ALL is the viewer's scope; a team
 * view narrows it to the team (its unassigned tickets), which for a non-member leaves at most the tickets of the
 * team assigned to them (none while the assignment rule holds), and for TEAM_UNASSIGNED nothing.
 */
export function viewScope(scope: AccessScope, kind: ViewScopeKind, teamId: number | null): AccessScope {
  const plain: AccessScope = { viewerId: scope.viewerId, admin: scope.admin, teamIds: scope.teamIds };
  if (kind === 'MINE') return { viewerId: scope.viewerId, admin: false, teamIds: [] };
  if (kind === 'ALL' || teamId == null) return plain;
  return { ...plain, view: { teamId, unassigned: kind === 'TEAM_UNASSIGNED' } };
}

/** Whether the viewer reads every ticket of a team (a member, or an admin): whose team views and shared views apply. */
export function readsTeam(scope: AccessScope, teamId: number): boolean {
  return scope.admin || scope.teamIds.includes(teamId);
}

/** Whether the viewer belongs to a team (an admin too only as a member): who sees the team's shared views. */
export function inTeam(scope: AccessScope, teamId: number): boolean {
  return scope.teamIds.includes(teamId);
}

/** The scopes of many viewers at once (the live view counts of one gateway, services/viewCounts.ts): one statement. */
export async function scopesOf(em: Em, viewerIds: readonly number[]): Promise<Map<number, AccessScope>> {
  const scopes = new Map<number, AccessScope>();
  if (!viewerIds.length) return scopes;
  const rows = await em
    .getConnection()
    .execute<{ id: number; role: string; team_id: number | null }[]>(
      `select u.id, u.role, m.team_id from users u left join team_members m on m.user_id = u.id where u.id in ${list(viewerIds)} order by u.id, m.team_id`,
      [...viewerIds],
    );
  for (const r of rows) {
    const id = Number(r.id);
    let scope = scopes.get(id);
    if (!scope) scopes.set(id, (scope = { viewerId: id, admin: r.role === 'ADMIN', teamIds: [] }));
    if (r.team_id != null) scope.teamIds.push(Number(r.team_id));
  }
  return scopes;
}

/** A ticket as an entity (its assignee and team references) or as a record/event payload (their ids). */
export type TicketOwner = { assignee?: { id: number } | null; team?: { id: number } | null } | { assigneeId?: unknown; teamId?: unknown };

function idOf(value: unknown): number | null {
  const n = Number(value);
  return value == null || !Number.isSafeInteger(n) || n <= 0 ? null : n;
}

/** The ticket's assignee and team ids (null for none). */
export function ownerOf(ticket: TicketOwner): { assigneeId: number | null; teamId: number | null } {
  if ('assignee' in ticket || 'team' in ticket) {
    const t = ticket;
    return { assigneeId: t.assignee?.id ?? null, teamId: t.team?.id ?? null };
  }
  const r = ticket as { assigneeId?: unknown; teamId?: unknown };
  return { assigneeId: idOf(r.assigneeId), teamId: idOf(r.teamId) };
}

/**
 * The viewer's scope, read now (role and teams in one statement). The REST facade's scope is the spec's rule:
 * the caller's own assigned tickets, whatever their role and teams.
 */
export function scopeOf(ctx: ServiceContext): Promise<AccessScope> {
  const viewerId = requireViewer(ctx);
  if (ctx.via === 'REST') return Promise.resolve({ viewerId, admin: false, teamIds: [] });
  // Once per context: a context is one HTTP request or one websocket operation's read (a subscription reads each
  // event with a context of its own, so a change of role or team reaches open sockets at the next event).
  let scope = scopes.get(ctx);
  if (!scope) {
    scope = readScope(ctx, viewerId);
    scopes.set(ctx, scope);
    scope.catch(() => scopes.delete(ctx));
  }
  return scope;
}

const scopes = new WeakMap<ServiceContext, Promise<AccessScope>>();

async function readScope(ctx: ServiceContext, viewerId: number): Promise<AccessScope> {
  const rows = await preparedRead<{ role: string; team_id: number | null }>(
    ctx.em,
    'access_scope',
    'select u.role, m.team_id from users u left join team_members m on m.user_id = u.id where u.id = ? order by m.team_id',
    [viewerId],
  );
  const admin = rows[0]?.role === 'ADMIN';
  const teamIds = rows.flatMap((r) => (r.team_id == null ? [] : [Number(r.team_id)]));
  return { viewerId, admin, teamIds };
}

/** Whether the viewer is an admin, read now (admin mutations; a demotion counts from the next request on). */
export async function isAdmin(ctx: ServiceContext): Promise<boolean> {
  const viewerId = requireViewer(ctx);
  const [row] = await preparedRead<{ role: string }>(ctx.em, 'viewer_role', 'select role from users where id = ?', [viewerId]);
  return row?.role === 'ADMIN';
}

/** What the event record keeps of the rule with each event: its assignee (0 for none) and team. */
export function audienceOwner(ticket: TicketOwner): number {
  return ownerOf(ticket).assigneeId ?? 0;
}

/** The team the event record keeps with each event (null for none). */
export function audienceTeam(ticket: TicketOwner): number | null {
  return ownerOf(ticket).teamId;
}

const list = (ids: readonly number[]) => `(${ids.map(() => '?').join(', ')})`;

/**
 * The condition over assignee and team columns of `prefix` (e.g. `t.`), for a scope. `unassigned`: how the table
 * says "no assignee" (the counters keep 0).
 */
function ownedSql(scope: AccessScope, prefix: string, unassigned = `${prefix}assignee_id is null`): AccessSql {
  if (scope.view) {
    const { teamId } = scope.view;
    const member = readsTeam(scope, teamId);
    if (scope.view.unassigned) return member ? { sql: `(${prefix}team_id = ? and ${unassigned})`, bindings: [teamId] } : { sql: '1 = 0', bindings: [] };
    return member
      ? { sql: `${prefix}team_id = ?`, bindings: [teamId] }
      : { sql: `(${prefix}assignee_id = ? and ${prefix}team_id = ?)`, bindings: [scope.viewerId, teamId] };
  }
  if (scope.admin) return { sql: '1 = 1', bindings: [] };
  if (!scope.teamIds.length) return { sql: `${prefix}assignee_id = ?`, bindings: [scope.viewerId] };
  return {
    sql: `(${prefix}assignee_id = ? or ${prefix}team_id in ${list(scope.teamIds)})`,
    bindings: [scope.viewerId, ...scope.teamIds],
  };
}

/** "May read": the condition over the tickets table aliased `alias` (default `t`; null: the table unaliased). */
export function readSql(scope: AccessScope, alias: string | null = 't'): AccessSql {
  return ownedSql(scope, alias ? `${alias}.` : '');
}

/** "May read" over the counters (ticket_counts, aliased `alias`, keyed by assignee and team): the rows that sum to the viewer's totals. */
export function countsSql(scope: AccessScope, alias = 'k'): AccessSql {
  return ownedSql(scope, `${alias}.`, `${alias}.assignee_id = 0`);
}

/** "May read" over the PostgreSQL search table (ticket_search, aliased `alias`). */
export function searchSql(scope: AccessScope, alias = 's'): AccessSql {
  return ownedSql(scope, `${alias}.`);
}

/**
 * "May read" in an SQLite FTS5 query: the `agent` column holds two tokens per ticket, `a<assignee id>` and
 * `t<team id>` (0 for none; written by the triggers of migration 20261126140000), so the engine only walks the
 * postings of the tickets the viewer may read. Null for an admin: no restriction.
 */
export function searchToken(scope: AccessScope): string | null {
  if (scope.view) {
    const { teamId } = scope.view;
    const member = readsTeam(scope, teamId);
    // "x0" is no token of the column: it matches nothing.
    if (scope.view.unassigned) return member ? `agent : "t${teamId}" AND agent : "a0"` : 'agent : "x0"';
    return member ? `agent : "t${teamId}"` : `agent : "a${scope.viewerId}" AND agent : "t${teamId}"`;
  }
  if (scope.admin) return null;
  if (!scope.teamIds.length) return `agent : "a${scope.viewerId}"`;
  return `agent : (${[`"a${scope.viewerId}"`, ...scope.teamIds.map((id) => `"t${id}"`)].join(' OR ')})`;
}

/** "May read" as a MikroORM filter of tickets. */
export function readFilter(scope: AccessScope): ObjectQuery<Ticket> {
  if (scope.admin) return {};
  if (!scope.teamIds.length) return { assignee: scope.viewerId };
  return { $or: [{ assignee: scope.viewerId }, { team: { $in: scope.teamIds } }] };
}

/** The tickets of a team assigned to one agent: what a removal from the team unassigns (services/assignment.ts). */
export function memberTicketsFilter(teamId: number, userId: number): ObjectQuery<Ticket> {
  return { team: teamId, assignee: userId };
}

/** "May change" as a MikroORM filter of tickets. */
export function changeFilter(scope: AccessScope): ObjectQuery<Ticket> {
  return readFilter(scope);
}

/** Whether the viewer may name this agent in a ticket body's legacy `assigneeId` field: only themselves. */
export function mayAssign(viewerId: number, assigneeId: number | null): boolean {
  return assigneeId === viewerId;
}

/** Whether a scope may read a ticket at hand (a live event's record, a ticket just loaded). */
export function mayRead(scope: AccessScope, ticket: TicketOwner): boolean {
  const { assigneeId, teamId } = ownerOf(ticket);
  if (scope.view && (teamId !== scope.view.teamId || (scope.view.unassigned && assigneeId != null))) return false;
  if (scope.admin) return true;
  return assigneeId === scope.viewerId || (teamId != null && scope.teamIds.includes(teamId));
}

/**
 * Whether a ticket of `teamId` may be assigned to `assigneeId`: a ticket without a team needs an assignee (anyone);
 * a team's ticket may be unassigned or assigned to a member. Returns the message of the refusal, or null.
 */
export async function checkAssignee(em: Em, teamId: number | null, assigneeId: number | null): Promise<'owner' | 'member' | null> {
  if (teamId == null) return assigneeId == null ? 'owner' : null;
  if (assigneeId == null) return null;
  const rows = await em
    .getConnection()
    .execute('select 1 as found from team_members where team_id = ? and user_id = ?', [teamId, assigneeId], 'all', em.getTransactionContext());
  return rows.length ? null : 'member';
}

/**
 * The agents who may read the ticket now: its events' audience (bus topics, webhook endpoints of these agents):
 * the assignee, the team's members and every admin. Read with `em` (in the write's transaction).
 */
export async function audienceOf(em: Em, ...tickets: TicketOwner[]): Promise<number[]> {
  const owners = tickets.map(ownerOf);
  const assignees = owners.flatMap((o) => (o.assigneeId == null ? [] : [o.assigneeId]));
  const teams = [...new Set(owners.flatMap((o) => (o.teamId == null ? [] : [o.teamId])))];
  const teamPart = teams.length ? ` union select user_id as id from team_members where team_id in ${list(teams)}` : '';
  // In the write's transaction when one is open (SQLite has one connection: a read beside it would wait for it).
  const rows = await em
    .getConnection()
    .execute<{ id: number }[]>(`select id from users where role = 'ADMIN'${teamPart}`, teams, 'all', em.getTransactionContext());
  return [...new Set([...assignees, ...rows.map((r) => Number(r.id))])].sort((a, b) => a - b);
}

/** The audience a write computed before its transaction (see audienceOf), or the assignee alone. */
export function audience(ticket: TicketOwner): number[] {
  const { assigneeId } = ownerOf(ticket);
  return assigneeId == null ? [] : [assigneeId];
}

/**
 * Sends a ticket change to the live topic of every agent of an audience (audienceOf, read in the write's
 * transaction, before and after the change: a reassignment away is heard by the agent who lost the ticket).
 */
export function publish(bus: EventBus, to: TicketOwner | readonly number[], change: TicketChange): void {
  const agents: readonly number[] = Array.isArray(to) ? (to as readonly number[]) : audience(to as TicketOwner);
  for (const agentId of agents) bus.publish('ticket', agentId, change);
}

/** Sends a ticket's new event-record seq to the live `timeline` topic of every agent of its audience. */
export function publishTimeline(bus: EventBus, to: TicketOwner | readonly number[], entry: TimelineSignal): void {
  const agents: readonly number[] = Array.isArray(to) ? (to as readonly number[]) : audience(to as TicketOwner);
  for (const agentId of agents) bus.publish('timeline', agentId, entry);
}

/** Sends a reply's new delivery state to the live `replyDelivery` topic of every agent who may read the ticket. */
export function publishReplyDelivery(bus: EventBus, to: readonly number[], change: { ticketId: number; replyId: number }): void {
  for (const agentId of to) bus.publish('replyDelivery', agentId, change);
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
 * while it exists, and once it is gone, the rule as its last event recorded it (its assignee and team then). The
 * statement selects `1 as found` when the viewer may read it.
 */
export function historySql(scope: AccessScope, ticketId: number): AccessSql {
  const owned = ownedSql(scope, 'o.');
  return {
    sql: `select 1 as found from (select assignee_id, team_id from tickets where id = ? union all select * from (select e.assignee_id, e.team_id from ticket_events e where e.ticket_id = ? and not exists (select 1 from tickets where id = ?) order by e.seq desc limit 1) as last) as o where ${owned.sql}`,
    bindings: [ticketId, ticketId, ticketId, ...owned.bindings],
  };
}

/** The live ticket changes the viewer may see (the ticketEvents subscription's source). */
export function subscribe(bus: EventBus, viewerId: number) {
  return bus.subscribe('ticket', viewerId);
}

/**
 * A ticket the viewer may read now, by id, with its event counter (`tickets.event_seq`, the timeline's page total);
 * NOT_FOUND otherwise, as for no ticket. One prepared statement: every surface that reads one ticket by id (the
 * timeline and history, the requester link) asks here.
 */
export async function readableTicket(ctx: ServiceContext, rawId: unknown): Promise<{ id: number; eventSeq: number }> {
  const scope = await scopeOf(ctx);
  const id = parseId(rawId);
  const already = id ? readThisRequest.get(ctx)?.get(id) : undefined;
  if (id && already !== undefined) return { id, eventSeq: already };
  if (id) {
    const access = readSql(scope);
    // The statement's name carries the rule's text: a rule whose SQL differs by viewer gets a statement per form.
    const [found] = await preparedRead<{ n: number | string }>(
      ctx.em,
      `readable_ticket:${access.sql}`,
      `select t.event_seq as n from tickets t where t.id = ? and ${access.sql}`,
      [id, ...access.bindings],
    );
    if (found) return { id, eventSeq: Number(found.n) };
  }
  throw AppError.notFound('Ticket');
}

/**
 * Tickets this request (this context: one HTTP request or one websocket operation's read) has read through the rule
 * (`readSql`, or `mayRead` on the ticket read), with their event counter at that read: `ticket(id) { timeline }` checks access once, not twice.
 * Only a read through the rule puts a ticket here (ticketReads.getTicket); a context lives for one request, so a
 * change of role or team counts from the next request on, as the scope does.
 */
const readThisRequest = new WeakMap<ServiceContext, Map<number, number>>();

export function readInThisRequest(ctx: ServiceContext, ticketId: number, eventSeq: number): void {
  let read = readThisRequest.get(ctx);
  if (!read) readThisRequest.set(ctx, (read = new Map<number, number>()));
  read.set(ticketId, eventSeq);
}

/**
 * The ticket (with its image) the caller may change, as an entity for a write; any other id is NOT_FOUND, as for a
 * ticket that does not exist.
 */
export async function findForChange(ctx: ServiceContext, rawId: unknown): Promise<Ticket> {
  const id = parseId(rawId);
  const scope = await scopeOf(ctx);
  const ticket = id ? await ctx.em.findOne(Ticket, { id, ...changeFilter(scope) }, { populate: ['image'] }) : null;
  if (!ticket) throw AppError.notFound('Ticket');
  return ticket;
}
