import { raw } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Macro, Ticket, User } from '../entities/index.js';
import { MESSAGES, NO_MACRO_ID, hasErrors, validateMacro, type MacroFields } from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { toDate, type MacroRecord } from '../records/index.js';
import * as ticketAccess from './ticketAccess.js';
import { flushWithEvents, macroData, recordEvents, ticketData, webhookEvent } from './changeLog.js';

export function toMacroRecord(m: Macro): MacroRecord {
  return { id: m.id, name: m.name, description: m.description, ownerId: m.owner?.id ?? null, createdAt: m.createdAt };
}

/** Macros an agent may see: their own and the built-in macro 1. */
function visibleTo(viewerId: number) {
  return { $or: [{ id: NO_MACRO_ID }, { owner: viewerId }] };
}

const permanent = () => new AppError('FORBIDDEN', MESSAGES.macroPermanent);

interface MacroRow {
  id: number;
  name: string;
  description: string;
  owner_id: number | null;
  created_at: unknown;
}

/** One page of the macros the caller may use (their own and macro 1), newest first (macro 1 comes last). */
export async function listMacrosPage(ctx: ServiceContext, args: PageArgs = {}): Promise<Page<MacroRecord>> {
  const viewerId = requireViewer(ctx);
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
          .select('id', 'name', 'description', 'owner_id', 'created_at')
          .where((w) => {
            w.where('id', NO_MACRO_ID).orWhere('owner_id', viewerId);
          }),
      toRecord: (r) => ({
        id: Number(r.id),
        name: r.name,
        description: r.description,
        ownerId: r.owner_id == null ? null : Number(r.owner_id),
        createdAt: toDate(r.created_at),
      }),
    },
    args,
  );
}

/** Every macro the caller may use, newest first (the REST list, a bare array). */
export async function listMacros(ctx: ServiceContext): Promise<MacroRecord[]> {
  const viewerId = requireViewer(ctx);
  const macros = await ctx.em.find(Macro, visibleTo(viewerId), { orderBy: { id: 'desc' } });
  return macros.map(toMacroRecord);
}

async function findVisibleMacro(ctx: ServiceContext, rawId: unknown): Promise<Macro> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const macro = id ? await ctx.em.findOne(Macro, { $and: [{ id }, visibleTo(viewerId)] }) : null;
  if (!macro) throw AppError.notFound('Macro');
  return macro;
}

export async function getMacro(ctx: ServiceContext, rawId: unknown): Promise<MacroRecord> {
  return toMacroRecord(await findVisibleMacro(ctx, rawId));
}

/** Macro ids a ticket of this agent may use; null when the id is not one of them. */
export async function resolveUsableMacroId(ctx: ServiceContext, raw: unknown): Promise<number | null> {
  if (raw === undefined || raw === null || raw === '') return NO_MACRO_ID;
  const id = parseId(raw);
  if (!id) return null;
  if (id === NO_MACRO_ID) return id;
  const viewerId = requireViewer(ctx);
  const count = await ctx.em.count(Macro, { id, owner: viewerId });
  return count > 0 ? id : null;
}

export async function macrosByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, MacroRecord>> {
  const macros = await ctx.em.find(Macro, { id: { $in: [...ids] } });
  return new Map(macros.map((m) => [m.id, toMacroRecord(m)]));
}

function validated(input: MacroFields): { name: string; description: string } {
  const name = typeof input.name === 'string' ? input.name.trim() : input.name;
  const fields = validateMacro({ name, description: input.description });
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { name: String(name), description: String(input.description) };
}

export async function createMacro(ctx: ServiceContext, input: MacroFields): Promise<MacroRecord> {
  const viewerId = requireViewer(ctx);
  const data = validated(input);
  const macro = ctx.em.create(Macro, { ...data, owner: ctx.em.getReference(User, viewerId), createdAt: new Date() });
  let record!: MacroRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.macro('CREATED', macro),
    () => ctx.deps.bus.publish('macro', viewerId, { kind: 'CREATED', id: macro.id, record: (record = toMacroRecord(macro)) }),
  );
  return record;
}

export async function updateMacro(ctx: ServiceContext, rawId: unknown, input: MacroFields): Promise<MacroRecord> {
  const viewerId = requireViewer(ctx);
  if (parseId(rawId) === NO_MACRO_ID) throw permanent();
  const macro = await findVisibleMacro(ctx, rawId);
  const data = validated(input);
  const before = macroData(macro);
  ctx.em.assign(macro, data);
  let record!: MacroRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.macro('UPDATED', macro, before),
    () => ctx.deps.bus.publish('macro', viewerId, { kind: 'UPDATED', id: macro.id, record: (record = toMacroRecord(macro)) }),
  );
  return record;
}

/** Deletes the macro; the agent's tickets that used it fall back to macro 1, in the same transaction. */
export async function deleteMacro(ctx: ServiceContext, rawId: unknown): Promise<{ id: number; movedTicketIds: number[] }> {
  const viewerId = requireViewer(ctx);
  if (parseId(rawId) === NO_MACRO_ID) throw permanent();
  const macro = await findVisibleMacro(ctx, rawId);
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
      ctx.deps.bus.publish('macro', viewerId, { kind: 'DELETED', id });
      // Each moved ticket to its audience (read in the transaction by the change log: assignee, team, admins).
      for (const t of moved) ticketAccess.publish(ctx.deps.bus, Array.isArray(t.draft.audience) ? t.draft.audience : [], { kind: 'UPDATED', id: t.id });
    });
    return moved;
  });
  return { id, movedTicketIds: moved.map((t) => t.id) };
}
