/**
 * Reports: volume (created, solved, reopened, backlog) and times (first response, first resolution,
 * resolution) per day, week or month in the viewer's IANA time zone, optionally broken down by team, assignee,
 * priority, type or status. Every number comes from the report facts (./facts.ts, where each metric is defined),
 * which the change log keeps in each write's transaction (their rollups' deltas queued there and folded before a report
 * reads them: ./rollupQueue.ts), so a report is current the moment a write commits.
 *
 * - Buckets: `from`/`to` are local dates in `timeZone` (`to` exclusive). A bucket is a local day, an ISO week
 *   (Monday to Sunday) or a calendar month; its `bucketStart` is the local date it starts on (a week's Monday, a
 *   month's 1st, which may lie before `from`: only facts in [from, to) count). Each bucket's instants are its local
 *   midnights in the zone (the time module's calendar, time/calendar.ts: a day is 23 or 25 hours long across a
 *   daylight-saving change, and a midnight that does not exist is the first instant of that day). Calendar time; business hours would be another duration
 *   function over the same facts.
 * - A fact counts in the bucket its instant falls in; a time counts where it ends (a first response at the reply, a
 *   resolution at the solve). Backlog is the number of unsolved tickets at the end of each bucket (the sum of the
 *   backlog deltas before it); the totals' backlog is the one at the end of the range.
 * - Figures: count, median, p90 (nearest rank: the smallest value with at least 50% / 90% of the values at or
 *   below it) and mean, in seconds; null without values. Read from the rollups (migrations/reportRollups.ts, the
 *   report's usual path: rows per time cell, not per ticket), counts and means are exact and a median or p90 is
 *   within FIGURE_ERROR (2.44 %) of the exact one; read from the facts (a filter on status, priority, type or
 *   requester, which the rollups are not keyed by), every figure is exact.
 * - Who sees what: the facts of the tickets the viewer may read now (ticketAccess.readSql over the tickets table: an
 *   agent their own and their teams' tickets, an admin all), so a reassignment changes whose reports a ticket's
 *   whole history counts in. A deleted ticket leaves every report (as it leaves every list). The filter
 *   (TicketFilter) also applies to the tickets as they are now; a breakdown groups by the value at each fact.
 */
import { createHash } from 'node:crypto';
import { emKind, hotReadArrays } from '../../database.js';
import { AppError } from '../../errors.js';
import { binValue, GRAINS, type Dim, type Grain } from '../../migrations/reportRollups.js';
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
import { bucketsOf, DAY_MS } from '../../time/index.js';
import { requireViewer, type ServiceContext } from '../context.js';
import * as ticketAccess from '../ticketAccess.js';
import { foldQueuedRollups } from './rollupQueue.js';

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

  hasAny(): boolean {
    return (
      this.baseline !== 0 || this.points.some((p) => p.created || p.solved || p.reopened || p.firstResponse.length) || this.backlogDelta.some((d) => d !== 0)
    );
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
  // The rollups answer unless the filter asks about what tickets are now beyond the access keys (status, priority,
  // type, requester), or a bound is not on a quarter hour (local mean time before a zone's standard offsets).
  const f = input.filter;
  const byKeysOnly = !f?.status?.length && !f?.priority?.length && !f?.type?.length && f?.requesterId == null;
  if (byKeysOnly && [...bounds, end].every((b) => b % GRAINS.Q === 0)) return rollupReport(ctx, input, starts, bounds, end);
  return exactReport(ctx, input, starts, bounds, end);
}

/** The report from the facts themselves (exact figures): for filters the rollups are not keyed by. */
async function exactReport(ctx: ServiceContext, input: ReportInput, starts: string[], bounds: number[], end: number): Promise<ReportResult> {
  // The writes acknowledged so far are in the facts once the queue is folded (./rollupQueue.ts).
  const [where] = await Promise.all([ticketConditions(ctx, input.filter), foldQueuedRollups(ctx.em)]);
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
  return finish(ctx, breakdown, all, groups, starts);
}

/** What a report's whole and its groups give: their numbers, and whether a group has anything to show. */
interface SeriesResult {
  result(starts: readonly string[]): { totals: ReportTotals; series: ReportPoint[] };
  hasAny(): boolean;
}

async function finish(
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

// ---- The report from the rollups (migrations/reportRollups.ts): rows per cell, not per ticket ----

const HOUR = GRAINS.H;
const QUARTER = GRAINS.Q;

/**
 * The signed cells whose sum is [the UTC day of b, b): the hours and quarters from the day's start when b is in its
 * first 12 hours, otherwise the day minus the quarters and hours from b to its end (so at most 12 hours and 3
 * quarters). `b` is on a quarter hour.
 */
function headCells(b: number): [Grain, number, 1 | -1][] {
  const day = Math.floor(b / DAY_MS) * DAY_MS;
  const cells: [Grain, number, 1 | -1][] = [];
  let t = day;
  if (b - day <= 12 * HOUR) {
    for (; t + HOUR <= b; t += HOUR) cells.push(['H', t, 1]);
    for (; t + QUARTER <= b; t += QUARTER) cells.push(['Q', t, 1]);
    return cells;
  }
  cells.push(['D', day, 1]);
  for (t = b; t % HOUR !== 0; t += QUARTER) cells.push(['Q', t, -1]);
  for (; t < day + DAY_MS; t += HOUR) cells.push(['H', t, -1]);
  return cells;
}

/**
 * Which cells a report reads and where each counts: for every cell, the buckets it adds to or takes from (-1: the
 * backlog before the range). Bucket i = [B_i, B_i+1) = the UTC days from B_i's to B_i+1's + head(B_i+1) − head(B_i).
 */
function cellPlan(bounds: readonly number[], end: number) {
  const edges = [...bounds, end];
  const targets = new Map<string, [number, number][]>();
  const put = (grain: Grain, cell: number, bucket: number, sign: number) => {
    const id = `${grain}${cell}`;
    const list = targets.get(id);
    if (list) list.push([bucket, sign]);
    else targets.set(id, [[bucket, sign]]);
  };
  const dayOf = (b: number) => Math.floor(b / DAY_MS) * DAY_MS;
  const hours = new Set<number>();
  const quarters = new Set<number>();
  edges.forEach((b, i) => {
    for (const [grain, cell, sign] of headCells(b)) {
      if (grain === 'H') hours.add(cell);
      if (grain === 'Q') quarters.add(cell);
      if (i > 0) put(grain, cell, i - 1, sign);
      if (i < edges.length - 1) put(grain, cell, i === 0 ? -1 : i, i === 0 ? sign : -sign);
      if (i === 0) put(grain, cell, 0, -sign);
    }
    if (i < edges.length - 1) for (let d = dayOf(b); d < dayOf(edges[i + 1]); d += DAY_MS) put('D', d, i, 1);
  });
  return { targets, hours: [...hours], quarters: [...quarters], firstDay: dayOf(edges[0]), lastDay: dayOf(end) };
}

/** Bins a report keeps per histogram: bin −1 (zero) to BIN_SLOTS − 2 (γ^k beyond 10 years of milliseconds: clamped). */
const BIN_SLOTS = 560;
const slotOf = (bin: number) => Math.min(BIN_SLOTS - 1, Math.max(0, bin + 1));

/**
 * A duration's histogram while a report adds up its cells. Lazy: it keeps what it is made of (stored bins as read,
 * with their sign, and other histograms) and adds them up only when its figure is asked for, so a report pays for
 * the medians the query selects (GraphQL reads each figure's fields on demand), not for every point of every group.
 */
class Histogram {
  n = 0;
  sum = 0;
  private readonly parts: unknown[] = [];
  private readonly signs: number[] = [];
  private readonly others: Histogram[] = [];
  private counts: Int32Array | null = null;

  add(n: number, sum: number, bins: unknown, sign: number): void {
    if (!n && !sum && (bins == null || bins === '{}')) return;
    this.n += sign * n;
    this.sum += sign * sum;
    this.parts.push(bins);
    this.signs.push(sign);
  }

  merge(other: Histogram): void {
    if (!other.n && !other.parts.length && !other.others.length) return;
    this.n += other.n;
    this.sum += other.sum;
    this.others.push(other);
  }

  private resolve(): Int32Array {
    if (this.counts) return this.counts;
    const counts = (this.counts = new Int32Array(BIN_SLOTS));
    this.parts.forEach((raw, i) => {
      const bins = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, number> | null;
      const sign = this.signs[i];
      for (const k in bins) counts[slotOf(Number(k))] += sign * Number(bins[k]);
    });
    for (const other of this.others) {
      const theirs = other.resolve();
      for (let i = 0; i < BIN_SLOTS; i++) counts[i] += theirs[i];
    }
    return counts;
  }

  /** count and mean exact; median and p90 by nearest rank over the bins' exact counts, read as the bin's value. */
  figure(): ReportFigure {
    const n = this.n;
    if (n <= 0) return { count: 0, median: null, p90: null, mean: null };
    const counts = this.resolve();
    const rank = (p: number) => {
      const r = Math.max(1, Math.ceil(p * n));
      let seen = 0;
      let last = 0;
      for (let i = 0; i < BIN_SLOTS; i++) {
        if (counts[i] <= 0) continue;
        last = i;
        if ((seen += counts[i]) >= r) return binValue(i - 1) / 1000;
      }
      return binValue(last - 1) / 1000;
    };
    return { count: n, median: rank(0.5), p90: rank(0.9), mean: this.sum / n / 1000 };
  }
}

class RollupPoint {
  created = 0;
  solved = 0;
  reopened = 0;
  backlog = 0;
  readonly fr = new Histogram();
  readonly fs = new Histogram();
  readonly rs = new Histogram();

  merge(p: RollupPoint): void {
    this.created += p.created;
    this.solved += p.solved;
    this.reopened += p.reopened;
    this.backlog += p.backlog;
    this.fr.merge(p.fr);
    this.fs.merge(p.fs);
    this.rs.merge(p.rs);
  }

  /** The point's numbers; its figures are computed when read (getters, once: never spread this object). */
  totals<T extends object>(backlog: number, extra: T): ReportTotals & T {
    const { fr, fs, rs } = this;
    const figures: [ReportFigure?, ReportFigure?, ReportFigure?] = [];
    return {
      ...extra,
      created: this.created,
      solved: this.solved,
      reopened: this.reopened,
      backlog,
      get firstResponse() {
        return (figures[0] ??= fr.figure());
      },
      get firstResolution() {
        return (figures[1] ??= fs.figure());
      },
      get resolution() {
        return (figures[2] ??= rs.figure());
      },
    };
  }
}

/** One rollup row as read: [grain, cell, value, created, solved, reopened, backlog, then n, sum, bins for fr, fs, rs]. */
type RollupRow = [string, unknown, string, ...unknown[]];

/** A series added up from cells: rows go to its points; the totals are its points' sum (their bins are exact counts). */
class RollupSeries implements SeriesResult {
  readonly points: RollupPoint[];
  baseline = 0;
  constructor(size: number) {
    this.points = Array.from({ length: size }, () => new RollupPoint());
  }

  add(bucket: number, sign: number, r: readonly unknown[]): void {
    if (bucket < 0) {
      this.baseline += sign * Number(r[6]);
      return;
    }
    const p = this.points[bucket];
    p.created += sign * Number(r[3]);
    p.solved += sign * Number(r[4]);
    p.reopened += sign * Number(r[5]);
    p.backlog += sign * Number(r[6]);
    p.fr.add(Number(r[7]), Number(r[8]), r[9], sign);
    p.fs.add(Number(r[10]), Number(r[11]), r[12], sign);
    p.rs.add(Number(r[13]), Number(r[14]), r[15], sign);
  }

  /** Adds another series (the whole report is the sum of its groups). */
  merge(other: RollupSeries): void {
    this.baseline += other.baseline;
    other.points.forEach((p, i) => this.points[i].merge(p));
  }

  hasAny(): boolean {
    return this.baseline !== 0 || this.points.some((p) => p.created || p.solved || p.reopened || p.fr.n || p.backlog);
  }

  result(starts: readonly string[]): { totals: ReportTotals; series: ReportPoint[] } {
    let backlog = this.baseline;
    const total = new RollupPoint();
    const series = this.points.map((p, i) => {
      backlog += p.backlog;
      total.merge(p);
      return p.totals(backlog, { bucketStart: starts[i] });
    });
    return { totals: total.totals(backlog, {}), series };
  }
}

const DIM_OF: Record<ReportBreakdown, Dim> = { TEAM: 'W', ASSIGNEE: 'W', PRIORITY: 'P', TYPE: 'Y', STATUS: 'S' };
// The histograms as text on both databases (PostgreSQL's driver would parse every jsonb it reads): a report parses only
// the ones behind the figures its query selects (Histogram is lazy).
const ROLLUP_READ = `r.grain, r.cell, r.value, r.created, r.solved, r.reopened, r.backlog, ${['fr', 'fs', 'rs']
  .map((m) => `r.${m}_n, r.${m}_sum, cast(r.${m}_bins as text)`)
  .join(', ')}`;

/** The group a rollup row's value falls in for a breakdown. */
function groupKey(breakdown: ReportBreakdown, value: string): string {
  if (breakdown !== 'TEAM' && breakdown !== 'ASSIGNEE') return value;
  const [team, assignee] = value.split(':');
  const id = breakdown === 'TEAM' ? team : assignee;
  return id === '0' ? NONE_KEY : id;
}

/**
 * The report from the rollups: the cells of the range (UTC days, and the hours and quarters at each bucket's ends)
 * of the tickets the viewer may read now (the access rule as a WHERE on the rows' team and assignee), added into
 * buckets by cellPlan. Counts and means are exact; medians and p90s are within FIGURE_ERROR (reportRollups.ts).
 */
async function rollupReport(ctx: ServiceContext, input: ReportInput, starts: string[], bounds: number[], end: number): Promise<ReportResult> {
  // The writes acknowledged so far are in the rollups once the queue is folded (./rollupQueue.ts).
  const [scope] = await Promise.all([ticketAccess.scopeOf(ctx), foldQueuedRollups(ctx.em)]);
  const access = ticketAccess.countsSql(input.filter?.assignedToMe ? { viewerId: scope.viewerId, admin: false, teamIds: [] } : scope, 'r');
  const breakdown = input.breakdown ?? null;
  const dim = breakdown ? DIM_OF[breakdown] : 'W';
  const plan = cellPlan(bounds, end);
  const cellList = emKind(ctx.em) === 'postgresql' ? 'select (jsonb_array_elements_text(?::jsonb))::bigint' : 'select value from json_each(?)';
  const days = `select ${ROLLUP_READ} from report_rollups r where r.grain = 'D' and r.dim = ? and r.cell >= ? and r.cell <= ? and ${access.sql}`;
  const listed = `select ${ROLLUP_READ} from report_rollups r where r.grain = ? and r.dim = ? and r.cell in (${cellList}) and ${access.sql}`;
  const before = `select r.value, sum(r.backlog) from report_rollups r where r.grain = 'D' and r.dim = ? and r.cell < ? and ${access.sql} group by r.value`;
  const [dayRows, hourRows, quarterRows, baselines] = await Promise.all([
    hotReadArrays(ctx.em, statementName(days), days, [dim, plan.firstDay, plan.lastDay, ...access.bindings]),
    plan.hours.length ? hotReadArrays(ctx.em, statementName(listed), listed, ['H', dim, JSON.stringify(plan.hours), ...access.bindings]) : [],
    plan.quarters.length ? hotReadArrays(ctx.em, statementName(listed), listed, ['Q', dim, JSON.stringify(plan.quarters), ...access.bindings]) : [],
    hotReadArrays(ctx.em, statementName(before), before, [dim, plan.firstDay, ...access.bindings]),
  ]);

  const all = new RollupSeries(starts.length);
  const groups = new Map<string, RollupSeries>();
  const seriesOf = (value: string): RollupSeries => {
    const key = groupKey(breakdown!, value);
    let s = groups.get(key);
    if (!s) groups.set(key, (s = new RollupSeries(starts.length)));
    return s;
  };
  // With a breakdown every row belongs to one group, and the whole is the sum of the groups.
  for (const [value, n] of baselines as [string, unknown][]) (breakdown ? seriesOf(value) : all).baseline += Number(n ?? 0);
  for (const rows of [dayRows, hourRows, quarterRows])
    for (const r of rows as RollupRow[]) {
      const targets = plan.targets.get(`${r[0]}${Number(r[1])}`);
      if (!targets) continue;
      const series = breakdown ? seriesOf(r[2]) : all;
      for (const [bucket, sign] of targets) series.add(bucket, sign, r);
    }
  for (const group of groups.values()) all.merge(group);
  return finish(ctx, breakdown, all, groups, starts);
}
