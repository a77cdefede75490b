import { raw } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { preparedRead } from '../database.js';
import { Macro, Team, Ticket, User } from '../entities/index.js';
import { MESSAGES, NO_MACRO_ID, hasErrors, isMacroSharing, validateMacro, type FieldErrors, type MacroFields, type MacroSharing } from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { toDate, type MacroRecord } from '../records/index.js';
import * as ticketAccess from './ticketAccess.js';
import { flushWithEvents, macroData, recordEvents, ticketData, webhookEvent } from './changeLog.js';

export function toMacroRecord(m: Macro): MacroRecord {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    ownerId: m.owner?.id ?? null,
    sharing: m.sharing,
    teamId: m.team?.id ?? null,
    createdAt: m.createdAt,
  };
}

/*
 * Who may do what with a macro (one rule for both transports):
 * - use it (apply it to a ticket, render it, read it): its author; anyone for macro 1; the members of its team for a
 *   TEAM macro; every agent for an EVERYONE macro. An admin may also read any shared (non-PRIVATE) macro, to manage it.
 * - edit or delete it: its author, and an admin for a shared one; others who may read it are FORBIDDEN.
 * - list it: `macros` lists the caller's own and macro 1 (the spec's macros page); with includeShared also the
 *   TEAM macros of the caller's teams and the EVERYONE macros.
 * The REST facade keeps the contract's rule: the caller's own macros and macro 1, nothing shared.
 */

const permanent = () => new AppError('FORBIDDEN', MESSAGES.macroPermanent);

interface MacroRow {
  id: number;
  name: string;
  description: string;
  owner_id: number | null;
  sharing: MacroSharing;
  team_id: number | null;
  created_at: unknown;
}

/**
 * One page of the macros the caller may use, newest first (macro 1 comes last): their own and macro 1, and with
 * `includeShared` their teams' TEAM macros and the EVERYONE macros too.
 */
export async function listMacrosPage(ctx: ServiceContext, args: PageArgs = {}, includeShared = false): Promise<Page<MacroRecord>> {
  const viewerId = requireViewer(ctx);
  const teamIds = includeShared ? (await ticketAccess.scopeOf(ctx)).teamIds : [];
  const knex = ctx.em.getKnex();
  return keysetPage<MacroRow, MacroRecord>(
    ctx,
    {
      kind: 'macro',
      idColumn: 'id',
      order: 'desc',
      query: () =>
        knex
          .from('macros')
          .select('id', 'name', 'description', 'owner_id', 'sharing', 'team_id', 'created_at')
          .where((w) => {
            w.where('id', NO_MACRO_ID).orWhere('owner_id', viewerId);
            if (includeShared) {
              w.orWhere('sharing', 'EVERYONE');
              if (teamIds.length)
                w.orWhere((t) => {
                  t.where('sharing', 'TEAM').whereIn('team_id', teamIds);
                });
            }
          }),
      toRecord: (r) => ({
        id: Number(r.id),
        name: r.name,
        description: r.description,
        ownerId: r.owner_id == null ? null : Number(r.owner_id),
        sharing: r.sharing,
        teamId: r.team_id == null ? null : Number(r.team_id),
        createdAt: toDate(r.created_at),
      }),
    },
    args,
  );
}

/** Every macro of the caller's own and macro 1, newest first (the REST list, a bare array). */
export async function listMacros(ctx: ServiceContext): Promise<MacroRecord[]> {
  const viewerId = requireViewer(ctx);
  const macros = await ctx.em.find(Macro, { $or: [{ id: NO_MACRO_ID }, { owner: viewerId }] }, { orderBy: { id: 'desc' } });
  return macros.map(toMacroRecord);
}

type Access = 'use' | 'change';

/** The macro when the caller may `use` (or `change`) it; NOT_FOUND when they may not read it, FORBIDDEN when only that. */
async function findMacro(ctx: ServiceContext, rawId: unknown, access: Access): Promise<Macro> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const macro = id ? await ctx.em.findOne(Macro, { id }) : null;
  if (!macro) throw AppError.notFound('Macro');
  const own = macro.id === NO_MACRO_ID || macro.owner?.id === viewerId;
  if (own) return macro;
  if (ctx.via === 'REST') throw AppError.notFound('Macro');
  const scope = await ticketAccess.scopeOf(ctx);
  const shared = macro.sharing === 'EVERYONE' || (macro.sharing === 'TEAM' && macro.team != null && scope.teamIds.includes(macro.team.id));
  const manages = scope.admin && macro.sharing !== 'PRIVATE';
  if (!shared && !manages) throw AppError.notFound('Macro');
  if (access === 'change' && !manages) throw new AppError('FORBIDDEN', MESSAGES.macroNotYours);
  return macro;
}

/** A macro the caller may use (read, apply, render); NOT_FOUND otherwise. */
export function usableMacro(ctx: ServiceContext, rawId: unknown): Promise<Macro> {
  return findMacro(ctx, rawId, 'use');
}

export async function getMacro(ctx: ServiceContext, rawId: unknown): Promise<MacroRecord> {
  return toMacroRecord(await usableMacro(ctx, rawId));
}

/**
 * Macro ids a ticket of this agent may use (their own, their teams' TEAM macros, EVERYONE macros; over REST their
 * own only); null when the id is not one of them. One indexed read.
 */
export async function resolveUsableMacroId(ctx: ServiceContext, raw: unknown): Promise<number | null> {
  if (raw === undefined || raw === null || raw === '') return NO_MACRO_ID;
  const id = parseId(raw);
  if (!id) return null;
  if (id === NO_MACRO_ID) return id;
  const viewerId = requireViewer(ctx);
  const rows =
    ctx.via === 'REST'
      ? await preparedRead(ctx.em, 'macro_usable_own', 'select 1 as found from macros where id = ? and owner_id = ?', [id, viewerId])
      : await preparedRead(
          ctx.em,
          'macro_usable',
          `select 1 as found from macros m where m.id = ? and (m.owner_id = ? or m.sharing = 'EVERYONE'
             or (m.sharing = 'TEAM' and m.team_id in (select team_id from team_members where user_id = ?)))`,
          [id, viewerId, viewerId],
        );
  return rows.length > 0 ? id : null;
}

export async function macrosByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, MacroRecord>> {
  const macros = await ctx.em.find(Macro, { id: { $in: [...ids] } });
  return new Map(macros.map((m) => [m.id, toMacroRecord(m)]));
}

/** A macro's sharing input: `sharing` (missing keeps it; PRIVATE for a new macro) and `teamId` for TEAM. */
export interface MacroInputFields extends MacroFields {
  sharing?: unknown;
  teamId?: unknown;
}

/**
 * The sharing the input asks for, checked: TEAM needs a team the author is a member of, EVERYONE an admin caller
 * (FORBIDDEN otherwise). Field errors go into `fields` with the name and description's.
 */
async function checkedSharing(
  ctx: ServiceContext,
  input: MacroInputFields,
  authorId: number,
  current: { sharing: MacroSharing; teamId: number | null },
  fields: FieldErrors,
): Promise<{ sharing: MacroSharing; teamId: number | null }> {
  if (input.sharing === undefined || input.sharing === null) return current;
  if (!isMacroSharing(input.sharing)) {
    fields.sharing = [MESSAGES.macroSharing];
    return current;
  }
  if (input.sharing === 'PRIVATE') return { sharing: 'PRIVATE', teamId: null };
  if (input.sharing === 'EVERYONE') {
    if (!(await ticketAccess.isAdmin(ctx))) throw new AppError('FORBIDDEN', MESSAGES.macroEveryone);
    return { sharing: 'EVERYONE', teamId: null };
  }
  const teamId = parseId(input.teamId);
  const member = teamId
    ? await preparedRead(ctx.em, 'macro_team_member', 'select 1 as found from team_members where team_id = ? and user_id = ?', [teamId, authorId])
    : [];
  if (!teamId || !member.length) {
    fields.teamId = [MESSAGES.macroTeam];
    return current;
  }
  return { sharing: 'TEAM', teamId };
}

/** The macro's fields, all checked at once: name, description and sharing. */
async function validated(
  ctx: ServiceContext,
  input: MacroInputFields,
  authorId: number,
  current: { sharing: MacroSharing; teamId: number | null },
): Promise<{ name: string; description: string; sharing: MacroSharing; team: Team | null }> {
  const name = typeof input.name === 'string' ? input.name.trim() : input.name;
  const fields = validateMacro({ name, description: input.description });
  const { sharing, teamId } = await checkedSharing(ctx, input, authorId, current, fields);
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { name: String(name), description: String(input.description), sharing, team: teamId == null ? null : ctx.em.getReference(Team, teamId) };
}

/** Who hears of a change on their `macro` topic: the caller, and the author when an admin changed it. */
const hearers = (macro: Macro, viewerId: number) => [...new Set([viewerId, macro.owner?.id ?? viewerId])];

export async function createMacro(ctx: ServiceContext, input: MacroInputFields): Promise<MacroRecord> {
  const viewerId = requireViewer(ctx);
  const data = await validated(ctx, input, viewerId, { sharing: 'PRIVATE', teamId: null });
  const macro = ctx.em.create(Macro, { ...data, owner: ctx.em.getReference(User, viewerId), createdAt: new Date() });
  let record!: MacroRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.macro('CREATED', macro),
    () => ctx.deps.bus.publish('macro', viewerId, { kind: 'CREATED', id: macro.id, record: (record = toMacroRecord(macro)) }),
  );
  return record;
}

export async function updateMacro(ctx: ServiceContext, rawId: unknown, input: MacroInputFields): Promise<MacroRecord> {
  const viewerId = requireViewer(ctx);
  if (parseId(rawId) === NO_MACRO_ID) throw permanent();
  const macro = await findMacro(ctx, rawId, 'change');
  const data = await validated(ctx, input, macro.owner?.id ?? viewerId, { sharing: macro.sharing, teamId: macro.team?.id ?? null });
  const before = macroData(macro);
  ctx.em.assign(macro, data);
  let record!: MacroRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.macro('UPDATED', macro, before),
    () => {
      record = toMacroRecord(macro);
      for (const userId of hearers(macro, viewerId)) ctx.deps.bus.publish('macro', userId, { kind: 'UPDATED', id: macro.id, record });
    },
  );
  return record;
}

/** Deletes the macro; the tickets that used it fall back to macro 1, in the same transaction. */
export async function deleteMacro(ctx: ServiceContext, rawId: unknown): Promise<{ id: number; movedTicketIds: number[] }> {
  const viewerId = requireViewer(ctx);
  if (parseId(rawId) === NO_MACRO_ID) throw permanent();
  const macro = await findMacro(ctx, rawId, 'change');
  const id = macro.id;
  const moved = await ctx.em.transactional(async (em) => {
    const tickets = await em.find(Ticket, { macro: id }, { populate: ['image'] });
    const updatedAt = new Date();
    // A change of the tickets' own field: their versions move too (the compare-and-set of assignment).
    await em.nativeUpdate(Ticket, { macro: id }, { macro: NO_MACRO_ID, updatedAt, version: raw('version + 1') });
    await em.nativeDelete(Macro, { id });
    const drafts = tickets.map((t) => {
      const before = ticketData(t);
      return webhookEvent.ticketData('UPDATED', { ...before, macroId: NO_MACRO_ID, updatedAt }, before);
    });
    const moved = tickets.map((t, i) => ({ id: t.id, draft: drafts[i] }));
    await recordEvents(ctx, em, [webhookEvent.macro('DELETED', macro), ...drafts], () => {
      for (const userId of hearers(macro, viewerId)) ctx.deps.bus.publish('macro', userId, { kind: 'DELETED', id });
      // Each moved ticket to its audience (read in the transaction by the change log: assignee, team, admins).
      for (const t of moved) ticketAccess.publish(ctx.deps.bus, Array.isArray(t.draft.audience) ? t.draft.audience : [], { kind: 'UPDATED', id: t.id });
    });
    return moved;
  });
  return { id, movedTicketIds: moved.map((t) => t.id) };
}
