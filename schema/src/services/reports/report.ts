/**
 * Reports (issue 29): volume (created, solved, reopened, backlog) and times (first response, first resolution,
 * resolution) per day, week or month in the viewer's IANA time zone, optionally broken down by team, assignee,
 * priority, type or status. Every number comes from the report facts (./facts.ts, where each metric is defined),
 * which the change log keeps in each write's transaction, so a report is current the moment a write commits.
 *
 * - Buckets: `from`/`to` are local dates in `timeZone` (`to` exclusive). A bucket is a local day, an ISO week
 *   (Monday to Sunday) or a calendar month; its `bucketStart` is the local date it starts on (a week's Monday, a
 *   month's 1st, which may lie before `from`: only facts in [from, to) count). Each bucket's instants are its local
 *   midnights in the zone, computed with @date-fns/tz (TZDate), which reads the runtime's IANA time zone data: a
 *   day is 23 or 25 hours long across a daylight-saving change, and a midnight that does not exist (zones that
 *   change at 00:00) is the first instant of that day. Calendar time; business hours would be another duration
 *   function over the same facts.
 * - A fact counts in the bucket its instant falls in; a time counts where it ends (a first response at the reply, a
 *   resolution at the solve). Backlog is the number of unsolved tickets at the end of each bucket (the sum of the
 *   backlog deltas before it); the totals' backlog is the one at the end of the range.
 * - Figures: count, median, p90 (nearest rank: the smallest value with at least 50% / 90% of the values at or
 *   below it) and mean, in seconds; null without values.
 * - Who sees what: the facts of the tickets the viewer may read now (ticketAccess.readSql over the tickets table: an
 *   agent their own and their teams' tickets, an admin all), so a reassignment changes whose reports a ticket's
 *   whole history counts in. A deleted ticket leaves every report (as it leaves every list). The filter
 *   (TicketFilter) also applies to the tickets as they are now; a breakdown groups by the value at each fact.
 */
import { createHash } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import { hotReadArrays } from '../../database.js';
import { AppError } from '../../errors.js';
import {
  REPORT_MESSAGES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TICKET_TYPES,
  hasErrors,
  localDateDays,
  validateReportInput,
  type FieldErrors,
} from '../../validation/rules.js';
import { requireViewer, type ServiceContext } from '../context.js';
import * as ticketAccess from '../ticketAccess.js';

export type ReportBucket = 'DAY' | 'WEEK' | 'MONTH';
export type ReportBreakdown = 'TEAM' | 'ASSIGNEE' | 'PRIORITY' | 'TYPE' | 'STATUS';

export interface ReportFilter {
  search?: string | null;
  status?: readonly string[] | null;
  priority?: readonly string[] | null;
  type?: readonly string[] | null;
  requesterId?: number | null;
  assignedToMe?: boolean | null;
}

export interface ReportInput {
  from: string;
  to: string;
  bucket: ReportBucket;
  timeZone: string;
  breakdown?: ReportBreakdown | null;
  filter?: ReportFilter | null;
}

/** A duration metric: how many, and their median, 90th percentile and mean in seconds (null without values). */
export interface ReportFigure {
  count: number;
  median: number | null;
  p90: number | null;
  mean: number | null;
}

export interface ReportTotals {
  created: number;
  solved: number;
  reopened: number;
  backlog: number;
  firstResponse: ReportFigure;
  firstResolution: ReportFigure;
  resolution: ReportFigure;
}

export interface ReportPoint extends ReportTotals {
  /** The local date the bucket starts on, YYYY-MM-DD. */
  bucketStart: string;
}

export interface ReportGroup {
  key: string;
  label: string;
  totals: ReportTotals;
  series: ReportPoint[];
}

export interface ReportResult {
  totals: ReportTotals;
  series: ReportPoint[];
  groups: ReportGroup[];
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 as a local date string. */
export function dayString(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The local date a bucket containing `days` starts on. */
export function bucketStartDay(days: number, bucket: ReportBucket): number {
  if (bucket === 'DAY') return days;
  if (bucket === 'WEEK') return days - ((days + 3) % 7); // 1970-01-01 was a Thursday; weeks start on Monday
  const d = new Date(days * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
}

function nextBucketDay(start: number, bucket: ReportBucket): number {
  if (bucket === 'DAY') return start + 1;
  if (bucket === 'WEEK') return start + 7;
  const d = new Date(start * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS;
}

/** The instant a local date begins in a time zone (its midnight, or the day's first instant when midnight is skipped). */
export function localMidnight(days: number, timeZone: string): number {
  const d = new Date(days * DAY_MS);
  return new TZDate(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), timeZone).getTime();
}

/** The buckets of a range: each one's local start date and the instant its counting starts; `end` the range's last instant (exclusive). */
export function bucketsOf(fromDays: number, toDays: number, bucket: ReportBucket, timeZone: string): { starts: string[]; bounds: number[]; end: number } {
  const starts: string[] = [];
  const bounds: number[] = [];
  for (let start = bucketStartDay(fromDays, bucket); start < toDays; start = nextBucketDay(start, bucket)) {
    starts.push(dayString(start));
    bounds.push(localMidnight(Math.max(start, fromDays), timeZone));
  }
  return { starts, bounds, end: localMidnight(toDays, timeZone) };
}

/** The figure of a list of durations in milliseconds (sorted here). */
export function figureOf(values: number[]): ReportFigure {
  const n = values.length;
  if (!n) return { count: 0, median: null, p90: null, mean: null };
  values.sort((a, b) => a - b);
  const rank = (p: number) => values[Math.max(0, Math.ceil(p * n) - 1)] / 1000;
  let sum = 0;
  for (const v of values) sum += v;
  return { count: n, median: rank(0.5), p90: rank(0.9), mean: sum / n / 1000 };
}

/** A totals accumulator. */
class Tally {
  created = 0;
  solved = 0;
  reopened = 0;
  backlog = 0;
  firstResponse: number[] = [];
  firstResolution: number[] = [];
  resolution: number[] = [];

  totals(): ReportTotals {
    return {
      created: this.created,
      solved: this.solved,
      reopened: this.reopened,
      backlog: this.backlog,
      firstResponse: figureOf(this.firstResponse),
      firstResolution: figureOf(this.firstResolution),
      resolution: figureOf(this.resolution),
    };
  }
}

/** The column a breakdown groups by (the value at each fact). */
const BREAKDOWN_COLUMNS: Record<ReportBreakdown, string> = {
  TEAM: 'f.team_id',
  ASSIGNEE: 'f.assignee_id',
  PRIORITY: 'f.priority',
  TYPE: 'f.type',
  STATUS: 'f.status',
};

/** Enumerated breakdowns list their groups in the schema's order; the others by label, "none" last. */
const ENUM_ORDER: Partial<Record<ReportBreakdown, readonly string[]>> = { PRIORITY: TICKET_PRIORITIES, TYPE: TICKET_TYPES, STATUS: TICKET_STATUSES };
const NONE_KEY = 'none';
const NONE_LABELS: Record<ReportBreakdown, string> = { TEAM: 'No team', ASSIGNEE: 'Unassigned', PRIORITY: 'None', TYPE: 'None', STATUS: 'None' };

const statementName = (sql: string) => `report_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
const list = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;
const bool = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

function checkInput(input: ReportInput): { fromDays: number; toDays: number } {
  const fields: FieldErrors = validateReportInput(input);
  if (input.filter?.search != null && input.filter.search.trim() !== '') (fields['filter.search'] ??= []).push(REPORT_MESSAGES.search);
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { fromDays: localDateDays(input.from)!, toDays: localDateDays(input.to)! };
}

/** The conditions over the tickets table (alias t) that the viewer's access and the filter put on the facts. */
async function ticketConditions(ctx: ServiceContext, filter: ReportFilter | null | undefined): Promise<{ sql: string; bindings: unknown[] }> {
  requireViewer(ctx);
  const scope = await ticketAccess.scopeOf(ctx);
  // "Assigned to me" narrows the rule to its first part, as the ticket list does (services/ticketPages.ts).
  const access = ticketAccess.readSql(filter?.assignedToMe ? { viewerId: scope.viewerId, admin: false, teamIds: [] } : scope, 't');
  const parts = [access.sql];
  const bindings = [...access.bindings];
  const inList = (column: string, values: readonly string[] | null | undefined) => {
    if (!values?.length) return;
    parts.push(`${column} in ${list(values)}`);
    bindings.push(...values);
  };
  inList('t.status', filter?.status);
  inList('t.priority', filter?.priority);
  inList('t.type', filter?.type);
  if (filter?.requesterId != null) {
    parts.push('t.requester_id = ?');
    bindings.push(filter.requesterId);
  }
  return { sql: parts.join(' and '), bindings };
}

/** Index of the bucket an instant falls in (bounds ascending, at >= bounds[0]). */
function bucketIndex(bounds: readonly number[], at: number): number {
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bounds[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** One group's (or the whole report's) tallies: per bucket and over the range, and its backlog before the range. */
class Series {
  readonly points: Tally[];
  readonly total = new Tally();
  baseline = 0;
  readonly backlogDelta: number[];
  constructor(size: number) {
    this.points = Array.from({ length: size }, () => new Tally());
    this.backlogDelta = new Array<number>(size).fill(0);
  }

  add(i: number, kind: string, delta: number, valueMs: number | null, firstSolve: boolean, final: boolean): void {
    const point = this.points[i];
    const total = this.total;
    switch (kind) {
      case 'CREATED':
        point.created++;
        total.created++;
        break;
      case 'SOLVED':
        point.solved++;
        total.solved++;
        if (firstSolve) {
          point.firstResolution.push(valueMs!);
          total.firstResolution.push(valueMs!);
        }
        if (final) {
          point.resolution.push(valueMs!);
          total.resolution.push(valueMs!);
        }
        break;
      case 'REOPENED':
        point.reopened++;
        total.reopened++;
        break;
      case 'RESPONSE':
        point.firstResponse.push(valueMs!);
        total.firstResponse.push(valueMs!);
        break;
      case 'BACKLOG':
        this.backlogDelta[i] += delta;
        break;
    }
  }

  result(starts: readonly string[]): { totals: ReportTotals; series: ReportPoint[] } {
    let backlog = this.baseline;
    const series = this.points.map((p, i) => {
      backlog += this.backlogDelta[i];
      p.backlog = backlog;
      return { bucketStart: starts[i], ...p.totals() };
    });
    this.total.backlog = backlog;
    return { totals: this.total.totals(), series };
  }
}

/** The report the viewer asked for (see the module comment for every definition). */
export async function report(ctx: ServiceContext, input: ReportInput): Promise<ReportResult> {
  requireViewer(ctx); // signed out is UNAUTHENTICATED whatever the input
  const { fromDays, toDays } = checkInput(input);
  const { starts, bounds, end } = bucketsOf(fromDays, toDays, input.bucket, input.timeZone);
  const where = await ticketConditions(ctx, input.filter);
  const breakdown = input.breakdown ?? null;
  const group = breakdown ? BREAKDOWN_COLUMNS[breakdown] : 'null';
  const inRange = `select f.kind as kind, f.at as at, f.delta as delta, f.value_ms as value_ms, f.first_solve as first_solve, f.final as final, ${group} as g
    from report_facts f join tickets t on t.id = f.ticket_id
    where f.at >= ? and f.at < ? and ${where.sql}`;
  const before = `select ${group} as g, sum(f.delta) as n
    from report_facts f join tickets t on t.id = f.ticket_id
    where f.kind = 'BACKLOG' and f.at < ? and ${where.sql}${breakdown ? ` group by ${group}` : ''}`;
  const [rows, baselines] = await Promise.all([
    hotReadArrays(ctx.em, statementName(inRange), inRange, [bounds[0], end, ...where.bindings]),
    hotReadArrays(ctx.em, statementName(before), before, [bounds[0], ...where.bindings]),
  ]);

  const all = new Series(starts.length);
  const groups = new Map<string, Series>();
  const seriesOf = (g: string | number | null): Series => {
    const key = g == null ? NONE_KEY : String(g);
    let s = groups.get(key);
    if (!s) groups.set(key, (s = new Series(starts.length)));
    return s;
  };
  for (const [g, n] of baselines as [string | number | null, unknown][]) {
    const delta = Number(n ?? 0);
    all.baseline += delta;
    if (breakdown) seriesOf(g).baseline += delta;
  }
  for (const row of rows) {
    const [kind, at, delta, value, firstSolve, final, g] = row as [string, unknown, unknown, unknown, unknown, unknown, string | number | null];
    const i = bucketIndex(bounds, Number(at));
    const args = [i, kind, Number(delta), value == null ? null : Number(value), bool(firstSolve), bool(final)] as const;
    all.add(...args);
    if (breakdown) seriesOf(g).add(...args);
  }
  const overall = all.result(starts);
  if (!breakdown) return { ...overall, groups: [] };

  const labels = await groupLabels(ctx, breakdown, [...groups.keys()]);
  const order = ENUM_ORDER[breakdown];
  const keys = [...groups.keys()]
    .filter((key) => {
      const s = groups.get(key)!;
      return s.baseline !== 0 || s.points.some((p) => p.created || p.solved || p.reopened || p.firstResponse.length) || s.backlogDelta.some((d) => d !== 0);
    })
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
