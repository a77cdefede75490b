/**
 * A report's breakdowns: the groups a report is split into (a team, an agent, a priority, a type or a status), their
 * labels and their order (enumerated breakdowns in the schema's order, the others by label, "none" last), and the
 * assembly of the result from the whole report's series and its groups', whichever way they were read.
 */
import { TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '../../validation/rules.js';
import type { ServiceContext } from '../context.js';
import { list, type ReportBreakdown, type ReportPoint, type ReportResult, type ReportTotals } from './reportTypes.js';

/** Enumerated breakdowns list their groups in the schema's order; the others by label, "none" last. */
const ENUM_ORDER: Partial<Record<ReportBreakdown, readonly string[]>> = { PRIORITY: TICKET_PRIORITIES, TYPE: TICKET_TYPES, STATUS: TICKET_STATUSES };
export const NONE_KEY = 'none';
const NONE_LABELS: Record<ReportBreakdown, string> = { TEAM: 'No team', ASSIGNEE: 'Unassigned', PRIORITY: 'None', TYPE: 'None', STATUS: 'None' };

/** What a report's whole and its groups give: their numbers, and whether a group has anything to show. */
export interface SeriesResult {
  result(starts: readonly string[]): { totals: ReportTotals; series: ReportPoint[] };
  hasAny(): boolean;
}

export async function finish(
  ctx: ServiceContext,
  breakdown: ReportBreakdown | null,
  all: SeriesResult,
  groups: Map<string, SeriesResult>,
  starts: string[],
): Promise<ReportResult> {
  const overall = all.result(starts);
  if (!breakdown) return { ...overall, groups: [] };

  const labels = await groupLabels(ctx, breakdown, [...groups.keys()]);
  const order = ENUM_ORDER[breakdown];
  const keys = [...groups.keys()]
    .filter((key) => groups.get(key)!.hasAny())
    .sort((a, b) => {
      if (a === NONE_KEY || b === NONE_KEY) return a === b ? 0 : a === NONE_KEY ? 1 : -1;
      if (order) return order.indexOf(a) - order.indexOf(b);
      return labels.get(a)!.localeCompare(labels.get(b)!) || a.localeCompare(b);
    });
  return {
    ...overall,
    groups: keys.map((key) => ({ key, label: labels.get(key)!, ...groups.get(key)!.result(starts) })),
  };
}

/** Each group key's label: a team's name, an agent's username, an enum value as it is; "none" the breakdown's word for none. */
async function groupLabels(ctx: ServiceContext, breakdown: ReportBreakdown, keys: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>(keys.map((k) => [k, k === NONE_KEY ? NONE_LABELS[breakdown] : k]));
  const ids = keys.filter((k) => k !== NONE_KEY).map(Number);
  if ((breakdown === 'TEAM' || breakdown === 'ASSIGNEE') && ids.length) {
    const sql = breakdown === 'TEAM' ? `select id, name from teams where id in ${list(ids)}` : `select id, username from users where id in ${list(ids)}`;
    const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(sql, ids);
    for (const r of rows) labels.set(String(r.id), String(breakdown === 'TEAM' ? r.name : r.username));
    for (const id of ids) if (labels.get(String(id)) === String(id)) labels.set(String(id), breakdown === 'TEAM' ? `Team #${id}` : `Agent #${id}`);
  }
  return labels;
}
