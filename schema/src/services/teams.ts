/**
 * Teams and roles. Admins create teams, add and remove members and set roles; every agent lists their
 * own teams (an admin every team). A role or membership change takes effect at the very next request and live
 * event: the access policy (services/ticketAccess.ts) reads the viewer's role and teams at each call.
 * Removing a member unassigns their tickets of that team (each an event, services/assignment.ts).
 */
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { anyOfIds, emKind, preparedRead } from '../database.js';
import { AppError } from '../errors.js';
import { Team, TeamMember, User } from '../entities/index.js';
import { MESSAGES, checkTeamName, hasErrors, isRole, type FieldErrors } from '../validation/rules.js';
import { toDate, type TeamRecord, type UserRecord } from '../records/index.js';
import * as ticketAccess from './ticketAccess.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { toUserRecord } from './users.js';
import { unassignMemberTickets } from './assignment.js';
import { announceViewListTo } from './views.js';

/** FORBIDDEN unless the caller is an admin now. */
async function requireAdmin(ctx: ServiceContext): Promise<number> {
  const viewerId = requireViewer(ctx);
  if (!(await ticketAccess.isAdmin(ctx))) throw AppError.forbidden(MESSAGES.adminOnly);
  return viewerId;
}

async function teamRecords(ctx: ServiceContext, teams: Team[]): Promise<TeamRecord[]> {
  if (!teams.length) return [];
  const members = await ctx.em.find(TeamMember, { team: { $in: teams.map((t) => t.id) } }, { orderBy: { user: 'asc' } });
  return teams.map((t) => ({
    id: t.id,
    name: t.name,
    createdAt: t.createdAt,
    memberIds: members.filter((m) => m.team.id === t.id).map((m) => m.user.id),
    autoAssign: Boolean(t.autoAssign),
  }));
}

async function teamRecord(ctx: ServiceContext, teamId: number): Promise<TeamRecord> {
  const team = await ctx.em.findOne(Team, teamId, { refresh: true });
  if (!team) throw AppError.notFound('Team');
  return (await teamRecords(ctx, [team]))[0];
}

/**
 * Tickets' teams by id, with their names and members, in two statements whatever their number (a page of tickets
 * asks `team` of each: graphql/context.ts batches it). For tickets already read through the access policy.
 */
export async function teamsByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, TeamRecord>> {
  const any = anyOfIds(ctx.em, ids);
  if (!any) return new Map();
  // One prepared statement (teams with their members in user order), not two ORM queries.
  const rows = await preparedRead<{ id: number | string; name: string; created_at: unknown; auto_assign: unknown; user_id: number | string | null }>(
    ctx.em,
    'teams_by_ids',
    `select t.id, t.name, t.created_at, t.auto_assign, m.user_id from teams t left join team_members m on m.team_id = t.id
      where t.id ${any.sql} order by t.id, m.user_id`,
    [any.binding],
  );
  const teams = new Map<number, TeamRecord>();
  for (const r of rows) {
    const id = Number(r.id);
    let team = teams.get(id);
    if (!team) {
      team = { id, name: r.name, createdAt: toDate(r.created_at), memberIds: [], autoAssign: Boolean(r.auto_assign) };
      teams.set(id, team);
    }
    if (r.user_id != null) team.memberIds.push(Number(r.user_id));
  }
  return teams;
}

/** The viewer's teams, by name (an admin: every team). */
export async function listTeams(ctx: ServiceContext): Promise<TeamRecord[]> {
  const scope = await ticketAccess.scopeOf(ctx);
  const teams = await ctx.em.find(Team, scope.admin ? {} : { id: { $in: scope.teamIds } }, { orderBy: { name: 'asc', id: 'asc' } });
  return teamRecords(ctx, teams);
}

export async function createTeam(ctx: ServiceContext, rawName: unknown): Promise<TeamRecord> {
  await requireAdmin(ctx);
  const name = checkTeamName(rawName);
  if (name == null) throw AppError.validation({ name: [MESSAGES.teamName] });
  const team = ctx.em.create(Team, { name, createdAt: new Date() });
  try {
    await ctx.em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw AppError.validation({ name: [MESSAGES.teamNameTaken] });
    throw error;
  }
  return { id: team.id, name: team.name, createdAt: team.createdAt, memberIds: [], autoAssign: false };
}

async function teamAndUser(ctx: ServiceContext, rawTeamId: unknown, rawUserId: unknown): Promise<{ teamId: number; userId: number }> {
  const teamId = parseId(rawTeamId);
  const userId = parseId(rawUserId);
  const team = teamId ? await ctx.em.findOne(Team, teamId) : null;
  if (!team) throw AppError.validation({ teamId: [MESSAGES.teamUnknown] });
  const user = userId ? await ctx.em.findOne(User, userId) : null;
  if (!user) throw AppError.validation({ userId: [MESSAGES.userUnknown] });
  return { teamId: team.id, userId: user.id };
}

export async function addTeamMember(ctx: ServiceContext, rawTeamId: unknown, rawUserId: unknown): Promise<TeamRecord> {
  await requireAdmin(ctx);
  const { teamId, userId } = await teamAndUser(ctx, rawTeamId, rawUserId);
  if (!(await ctx.em.count(TeamMember, { team: teamId, user: userId }))) {
    ctx.em.create(TeamMember, { team: teamId, user: userId, createdAt: new Date() });
    try {
      await ctx.em.flush();
    } catch (error) {
      // Added twice at once: the unique index keeps one.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      ctx.em.clear();
    }
    // The member gains the team's views (its defaults and shared views) in their open sidebars.
    announceViewListTo(ctx.deps, [userId]);
  }
  return teamRecord(ctx, teamId);
}

/** Removes a member; their tickets of the team stay in it, unassigned (each an event), in the same transaction. */
export async function removeTeamMember(ctx: ServiceContext, rawTeamId: unknown, rawUserId: unknown): Promise<TeamRecord> {
  await requireAdmin(ctx);
  const { teamId, userId } = await teamAndUser(ctx, rawTeamId, rawUserId);
  let announce: (() => void) | null = null;
  await ctx.em.transactional(async (em) => {
    const removed = await em.nativeDelete(TeamMember, { team: teamId, user: userId });
    if (removed) announce = await unassignMemberTickets(ctx, em, teamId, userId);
  });
  (announce as (() => void) | null)?.();
  announceViewListTo(ctx.deps, [userId]);
  return teamRecord(ctx, teamId);
}

/**
 * Turns the team's auto-assignment on or off (off by default): while on, each new ticket of the team created without
 * an assignee goes to its least-loaded member online (services/autoAssign.ts). Tickets already in the team stay as
 * they are.
 */
export async function setTeamAutoAssign(ctx: ServiceContext, rawTeamId: unknown, enabled: unknown): Promise<TeamRecord> {
  await requireAdmin(ctx);
  const fields: FieldErrors = {};
  const teamId = parseId(rawTeamId);
  const team = teamId ? await ctx.em.findOne(Team, teamId) : null;
  if (!team) fields.teamId = [MESSAGES.teamUnknown];
  if (typeof enabled !== 'boolean') fields.enabled = [MESSAGES.autoAssignEnabled];
  if (hasErrors(fields) || !team) throw AppError.validation(fields);
  if (team.autoAssign !== enabled) await ctx.em.nativeUpdate(Team, { id: team.id }, { autoAssign: enabled as boolean });
  return teamRecord(ctx, team.id);
}

/** Sets an agent's role; the last admin cannot be demoted. */
export async function setUserRole(ctx: ServiceContext, rawUserId: unknown, role: unknown): Promise<UserRecord> {
  await requireAdmin(ctx);
  if (!isRole(role)) throw AppError.validation({ role: [MESSAGES.role] });
  const userId = parseId(rawUserId);
  const user = userId ? await ctx.em.findOne(User, userId) : null;
  if (!user) throw AppError.validation({ userId: [MESSAGES.userUnknown] });
  if (user.role !== role) {
    await ctx.em.transactional(async (em) => {
      if (role === 'AGENT') {
        // Counted inside the transaction that demotes, so two admins demoting each other at once leave one.
        // PostgreSQL locks the admins' rows (a concurrent demotion re-reads them); SQLite's writer lock serialises it.
        const lock = emKind(em) === 'postgresql' ? { lockMode: LockMode.PESSIMISTIC_WRITE as const } : {};
        const admins = await em.find(User, { role: 'ADMIN' }, { fields: ['id'], ...lock });
        if (admins.length <= 1 && admins.some((a) => a.id === user.id)) throw AppError.validation({ role: [MESSAGES.lastAdmin] });
      }
      await em.nativeUpdate(User, { id: user.id }, { role });
    });
    user.role = role;
    // An admin's views count every ticket: the open sidebars read their counts again.
    announceViewListTo(ctx.deps, [user.id]);
  }
  return toUserRecord(user);
}
