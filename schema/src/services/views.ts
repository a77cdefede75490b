/**
 * Views: a saved filter plus a scope (MINE, TEAM_UNASSIGNED, TEAM, ALL), personal or shared, and the
 * defaults every agent has without a row (My tickets, and for each of their teams its Unassigned and its unsolved
 * tickets). A view's tickets are a page of `tickets` (ticketReads.listTickets) read with the view's scope, which is
 * the access rule's `viewScope`: "may read" AND the view's part, whoever made the view. Its count is exactly that
 * page's `totalCount` (the same counts statement, ticketReads.viewTotals), read now: no cache, no cap. The counts of
 * all of a viewer's views are one statement.
 *
 * Who sees which view: its owner; a shared team view every member of the team; a shared ALL view (admins only
 * share those) everyone. Its owner changes or deletes it; an admin may change or delete any shared view.
 */
import { LockMode } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Team, TicketView, User } from '../entities/index.js';
import { emKind, type Em } from '../database.js';
import type { TeamRecord } from '../records/index.js';
import {
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TICKET_TYPES,
  VIEW_LIMITS,
  VIEW_MESSAGES,
  MESSAGES,
  checkViewName,
  hasErrors,
  isTeamViewScope,
  validateView,
  type FieldErrors,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
  type ViewScopeName,
} from '../validation/rules.js';
import * as ticketAccess from './ticketAccess.js';
import { checkFilter, listTickets, viewTotals, type PageRelations, type TicketFilter, type TicketPage } from './ticketReads.js';
import { parseId, requireViewer, type ServiceContext, type ServiceDeps } from './context.js';

/** A view's filter as stored and shown: null for "no restriction" in each part. */
export interface ViewFilterRecord {
  search: string | null;
  status: TicketStatus[] | null;
  priority: TicketPriority[] | null;
  type: TicketType[] | null;
  requesterId: number | null;
}

/** A view as its viewer sees it (without its count). */
export interface ViewDefinition {
  /** A saved view's row id; the defaults have ids below 1 (defaultViewId). */
  id: number;
  name: string;
  scope: ViewScopeName;
  teamId: number | null;
  shared: boolean;
  filter: ViewFilterRecord;
  /** Null for a default view. */
  ownerId: number | null;
}

export interface ViewRecord extends ViewDefinition {
  /** Exactly the `totalCount` of `tickets(viewId)` for this viewer now. */
  count: number;
}

/** A view as the live counts send it: with its team, read once for every socket of the window (services/viewCounts.ts). */
export interface LiveViewRecord extends ViewRecord {
  team: TeamRecord | null;
}

/** One changed count (Subscription.viewCountEvents). */
export interface ViewCountRecord {
  viewId: number;
  count: number;
  /** The view left the viewer's views (deleted, unshared, its team left): the client drops it. */
  removed?: boolean;
  /** The whole view, when it is new to the subscription (gained, or the first event) or was changed (renamed, ...). */
  view?: LiveViewRecord;
}

export interface ViewInputFields {
  name?: unknown;
  scope?: unknown;
  teamId?: unknown;
  shared?: unknown;
  filter?: TicketFilter | null;
}

const UNSOLVED: TicketStatus[] = ['OPEN', 'PENDING'];
const NO_FILTER: ViewFilterRecord = { search: null, status: null, priority: null, type: null, requesterId: null };

/**
 * The ids of the defaults: My tickets is -1; a team's Unassigned is -2 x team id and its unsolved -(2 x team id + 1).
 * Stable across requests (the web app keeps the selected view in the address), and never a row's id.
 */
export const MY_TICKETS_VIEW_ID = -1;
const unassignedViewId = (teamId: number) => -2 * teamId;
const teamViewId = (teamId: number) => -(2 * teamId + 1);

/** The defaults of a scope, with the names of its teams. */
function defaultViews(scope: ticketAccess.AccessScope, teamNames: Map<number, string>): ViewDefinition[] {
  const views: ViewDefinition[] = [
    { id: MY_TICKETS_VIEW_ID, name: 'My tickets', scope: 'MINE', teamId: null, shared: false, filter: { ...NO_FILTER, status: UNSOLVED }, ownerId: null },
  ];
  const teams = scope.teamIds.filter((id) => teamNames.has(id)).sort((a, b) => teamNames.get(a)!.localeCompare(teamNames.get(b)!) || a - b);
  for (const teamId of teams) {
    const name = teamNames.get(teamId)!;
    views.push(
      {
        id: unassignedViewId(teamId),
        name: `Unassigned in ${name}`,
        scope: 'TEAM_UNASSIGNED',
        teamId,
        shared: false,
        filter: { ...NO_FILTER, status: UNSOLVED },
        ownerId: null,
      },
      { id: teamViewId(teamId), name: `${name} (unsolved)`, scope: 'TEAM', teamId, shared: false, filter: { ...NO_FILTER, status: UNSOLVED }, ownerId: null },
    );
  }
  return views;
}

function parseFilter(text: string): ViewFilterRecord {
  try {
    return { ...NO_FILTER, ...(JSON.parse(text) as Partial<ViewFilterRecord>) };
  } catch {
    return NO_FILTER;
  }
}

function definitionOf(row: TicketView): ViewDefinition {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ViewScopeName,
    teamId: row.team?.id ?? null,
    shared: Boolean(row.shared),
    filter: parseFilter(row.filter),
    ownerId: row.owner.id,
  };
}

/** Whether a viewer sees a saved view: theirs, a shared view of one of their teams, or a shared ALL view. */
function sees(scope: ticketAccess.AccessScope, view: ViewDefinition): boolean {
  if (view.ownerId === scope.viewerId) return true;
  if (!view.shared) return false;
  return view.scope === 'ALL' || (view.teamId != null && ticketAccess.inTeam(scope, view.teamId));
}

/**
 * The views of many viewers (the defaults, then their saved views in id order), with three statements whatever
 * their number: team names, and the saved views that any of them may see.
 */
export async function viewsOf(em: Em, scopes: readonly ticketAccess.AccessScope[]): Promise<Map<number, ViewDefinition[]>> {
  const result = new Map<number, ViewDefinition[]>();
  if (!scopes.length) return result;
  const teamIds = [...new Set(scopes.flatMap((s) => s.teamIds))];
  const teams = teamIds.length ? await em.find(Team, { id: { $in: teamIds } }) : [];
  const teamNames = new Map(teams.map((t) => [t.id, t.name] as const));
  const shared = teamIds.length
    ? [
        { shared: true, scope: 'ALL' },
        { shared: true, team: { $in: teamIds } },
      ]
    : [{ shared: true, scope: 'ALL' }];
  const rows = await em.find(TicketView, { $or: [{ owner: { $in: scopes.map((s) => s.viewerId) } }, ...shared] }, { orderBy: { id: 'asc' } });
  const saved = rows.map(definitionOf);
  for (const scope of scopes) result.set(scope.viewerId, [...defaultViews(scope, teamNames), ...saved.filter((v) => sees(scope, v))]);
  return result;
}

/** What counts a view's tickets: the viewer's scope, the view's part of the rule and its filter. */
export function countOf(scope: ticketAccess.AccessScope, view: ViewDefinition) {
  return { scope, view: { scope: view.scope, teamId: view.teamId }, filter: { ...view.filter } as TicketFilter };
}

/**
 * A key shared by every view whose count is the same number whoever asks: the rule's condition for the view's scope
 * (its SQL and bindings: a team view of members is `team_id = ?` for all of them, "My tickets" is the viewer's own)
 * and the filter. The live counts compute each key once per window (services/viewCounts.ts).
 */
export function countKey(scope: ticketAccess.AccessScope, view: ViewDefinition): string {
  return JSON.stringify([ticketAccess.readSql(ticketAccess.viewScope(scope, view.scope, view.teamId)), view.filter]);
}

async function withCounts(ctx: ServiceContext, scope: ticketAccess.AccessScope, views: ViewDefinition[]): Promise<ViewRecord[]> {
  const totals = await viewTotals(
    ctx,
    views.map((v) => countOf(scope, v)),
  );
  return views.map((v, i) => ({ ...v, count: totals[i] }));
}

/** The viewer's views with their counts (two statements for the views, one for every count). */
export async function listViews(ctx: ServiceContext): Promise<ViewRecord[]> {
  const scope = await ticketAccess.scopeOf(ctx);
  const views = (await viewsOf(ctx.em, [scope])).get(scope.viewerId) ?? [];
  return withCounts(ctx, scope, views);
}

/** A view the viewer sees, by id (a default's id too, then without its name); NOT_FOUND otherwise, as for no view. */
async function visibleView(ctx: ServiceContext, scope: ticketAccess.AccessScope, rawId: unknown): Promise<ViewDefinition> {
  const id = Number(rawId);
  if (Number.isSafeInteger(id) && id < 1) {
    // What a page needs of a default is its scope, team and filter, not its name: no statement for the team names.
    const found = defaultViews(scope, new Map(scope.teamIds.map((teamId) => [teamId, ''] as const))).find((v) => v.id === id);
    if (found) return found;
    throw AppError.notFound('View');
  }
  const rowId = parseId(rawId);
  const row = rowId ? await ctx.em.findOne(TicketView, rowId, { refresh: true }) : null;
  const view = row ? definitionOf(row) : null;
  if (!view || !sees(scope, view)) throw AppError.notFound('View');
  return view;
}

/**
 * A page of a view's tickets: `tickets(viewId, filter, ...)`. The view's filter applies; a part the caller's filter
 * sets replaces the view's (to search within a view, say). Without a filter the page's totalCount is the view's count.
 */
export async function listViewTickets(
  ctx: ServiceContext,
  rawViewId: unknown,
  page: { first?: number | null; after?: string | null; filter?: TicketFilter | null; orderBy?: string | null; relations?: PageRelations },
): Promise<TicketPage> {
  const scope = await ticketAccess.scopeOf(ctx);
  const view = await visibleView(ctx, scope, rawViewId);
  const own = Object.fromEntries(Object.entries(page.filter ?? {}).filter(([key, value]) => value != null && key !== 'assignedToMe'));
  return listTickets(ctx, { ...page, filter: { ...view.filter, ...own }, view: { scope: view.scope, teamId: view.teamId } });
}

const setOf = <T extends string>(values: readonly string[] | null | undefined, allowed: readonly T[]): T[] | null => {
  if (!values?.length) return null;
  const set = allowed.filter((a) => values.includes(a));
  return set.length === allowed.length ? null : set;
};

/** The input checked (the shared rules, then the team's and the role's), as stored. */
async function checkInput(ctx: ServiceContext, scope: ticketAccess.AccessScope, input: ViewInputFields) {
  const errors: FieldErrors = { ...validateView({ name: input.name, scope: input.scope, teamId: input.teamId, shared: input.shared }) };
  const filter = input.filter ?? {};
  if (filter.assignedToMe) (errors.filter ??= []).push(VIEW_MESSAGES.assignedToMe);
  try {
    checkFilter({ ...filter, assignedToMe: null });
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields) throw error;
    for (const [field, messages] of Object.entries(error.fields)) (errors[field] ??= []).push(...messages);
  }
  let teamId: number | null = null;
  if (isTeamViewScope(input.scope) && input.teamId != null) {
    teamId = parseId(input.teamId);
    // An agent names only their own teams (another team's existence is not revealed); an admin any team.
    if (!teamId || !ticketAccess.readsTeam(scope, teamId)) (errors.teamId ??= []).push(scope.admin ? MESSAGES.teamUnknown : VIEW_MESSAGES.teamNotMine);
    else if (scope.admin && !(await ctx.em.findOne(Team, teamId))) (errors.teamId ??= []).push(MESSAGES.teamUnknown);
  }
  if (input.shared === true && input.scope === 'ALL' && !scope.admin) (errors.shared ??= []).push(VIEW_MESSAGES.sharedAll);
  if (hasErrors(errors)) throw AppError.validation(errors);
  const stored: ViewFilterRecord = {
    search: filter.search?.trim() ? filter.search.trim() : null,
    status: setOf(filter.status, TICKET_STATUSES),
    priority: setOf(filter.priority, TICKET_PRIORITIES),
    type: setOf(filter.type, TICKET_TYPES),
    requesterId: filter.requesterId == null ? null : parseId(filter.requesterId),
  };
  return { name: checkViewName(input.name)!, scope: input.scope as ViewScopeName, teamId, shared: input.shared === true, filter: stored };
}

async function recordOf(ctx: ServiceContext, scope: ticketAccess.AccessScope, row: TicketView): Promise<ViewRecord> {
  return (await withCounts(ctx, scope, [definitionOf(row)]))[0];
}

export async function createView(ctx: ServiceContext, input: ViewInputFields): Promise<ViewRecord> {
  const viewerId = requireViewer(ctx);
  const scope = await ticketAccess.scopeOf(ctx);
  const fields = await checkInput(ctx, scope, input);
  const row = await ctx.em.transactional(async (em) => {
    // Counted inside the transaction that inserts, so two creates at 49 views make one 50th: PostgreSQL locks the
    // owner's row (the other create waits, then counts 50); SQLite's writer lock serialises it.
    if (emKind(em) === 'postgresql') await em.findOne(User, viewerId, { fields: ['id'], lockMode: LockMode.PESSIMISTIC_WRITE });
    if ((await em.count(TicketView, { owner: viewerId })) >= VIEW_LIMITS.viewsPerAgent) throw AppError.validation({ name: [VIEW_MESSAGES.limit] });
    const now = new Date();
    const created = em.create(TicketView, {
      name: fields.name,
      owner: em.getReference(User, viewerId),
      scope: fields.scope,
      team: fields.teamId == null ? null : em.getReference(Team, fields.teamId),
      shared: fields.shared,
      filter: JSON.stringify(fields.filter),
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    return created;
  });
  await announceViewList(ctx, [audienceOf(row)]);
  return recordOf(ctx, scope, row);
}

/** A saved view the viewer may change: theirs, or (an admin) any shared one they see. */
async function changeable(ctx: ServiceContext, scope: ticketAccess.AccessScope, rawId: unknown): Promise<TicketView> {
  // An admin manages every shared view, also those of teams they are not in (which their own list does not show).
  const id = parseId(rawId);
  const shared = scope.admin && id ? await ctx.em.findOne(TicketView, { id, shared: true }, { refresh: true }) : null;
  if (shared) return shared;
  const view = await visibleView(ctx, scope, rawId);
  if (view.ownerId == null) throw AppError.validation({ id: [VIEW_MESSAGES.builtIn] });
  if (view.ownerId !== scope.viewerId && !scope.admin) throw AppError.forbidden(VIEW_MESSAGES.owner);
  return ctx.em.findOneOrFail(TicketView, view.id);
}

export async function updateView(ctx: ServiceContext, rawId: unknown, input: ViewInputFields): Promise<ViewRecord> {
  requireViewer(ctx);
  const scope = await ticketAccess.scopeOf(ctx);
  const row = await changeable(ctx, scope, rawId);
  const fields = await checkInput(ctx, scope, input);
  const before = audienceOf(row);
  row.name = fields.name;
  row.scope = fields.scope;
  row.team = fields.teamId == null ? null : ctx.em.getReference(Team, fields.teamId);
  row.shared = fields.shared;
  row.filter = JSON.stringify(fields.filter);
  row.updatedAt = new Date();
  await ctx.em.flush();
  await announceViewList(ctx, [before, audienceOf(row)]);
  return recordOf(ctx, scope, row);
}

export async function deleteView(ctx: ServiceContext, rawId: unknown): Promise<boolean> {
  requireViewer(ctx);
  const scope = await ticketAccess.scopeOf(ctx);
  const row = await changeable(ctx, scope, rawId);
  const before = audienceOf(row);
  await ctx.em.remove(row).flush();
  await announceViewList(ctx, [before]);
  return true;
}

/** Who sees a saved view: its owner, and when shared the team's members (a team view) or everyone (ALL). */
interface ViewAudience {
  ownerId: number;
  teamId: number | null;
  everyone: boolean;
}

function audienceOf(row: TicketView): ViewAudience {
  const teamId = row.shared ? (row.team?.id ?? null) : null;
  return { ownerId: row.owner.id, teamId, everyone: row.shared && teamId === null };
}

/**
 * Tells the agents who see (or saw) a view that their set of views, or one of them, changed: their open
 * viewCountEvents read their views again and send the new or changed view, or the removed view's `removed`
 * (services/viewCounts.ts). After the write's commit, as every live event.
 */
async function announceViewList(ctx: ServiceContext, audiences: ViewAudience[]): Promise<void> {
  const ids = new Set(audiences.map((a) => a.ownerId));
  const teamIds = [...new Set(audiences.flatMap((a) => (a.teamId === null ? [] : [a.teamId])))];
  const sql = audiences.some((a) => a.everyone)
    ? { text: 'select id from users', bindings: [] as number[] }
    : teamIds.length
      ? { text: `select user_id as id from team_members where team_id in (${teamIds.map(() => '?').join(', ')})`, bindings: teamIds }
      : null;
  if (sql) for (const r of await ctx.em.getConnection().execute<{ id: number | string }[]>(sql.text, sql.bindings)) ids.add(Number(r.id));
  announceViewListTo(ctx.deps, [...ids]);
}

/** The agents' sets of views may have changed (see announceViewList; teams.ts for a membership or a role). */
export function announceViewListTo(deps: ServiceDeps, userIds: readonly number[]): void {
  const at = Date.now();
  for (const id of userIds) deps.bus.publish('viewList', id, { at });
}
