/**
 * The report from the facts themselves (report_facts joined to the tickets the viewer may read), with exact figures:
 * the path for a filter the rollups are not keyed by (status, priority, type, requester) or a bound off the quarter
 * hour. The facts in range are tallied per bucket and per group; the backlog before the range is their baseline.
 */
import { preparedReadArrays } from '../../database.js';
import type { ServiceContext } from '../context.js';
import { requireViewer } from '../context.js';
import * as ticketAccess from '../ticketAccess.js';
import { finish, NONE_KEY } from './breakdowns.js';
import { foldQueuedRollups } from './rollupQueue.js';
import {
  list,
  statementName,
  type ReportBreakdown,
  type ReportFigure,
  type ReportFilter,
  type ReportInput,
  type ReportPoint,
  type ReportResult,
  type ReportTotals,
} from './reportTypes.js';

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

const bool = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

/** The conditions over the tickets table (alias t) that the viewer's access and the filter put on the facts. */
async function ticketConditions(ctx: ServiceContext, filter: ReportFilter | null | undefined): Promise<{ sql: string; bindings: unknown[] }> {
  requireViewer(ctx);
  const scope = await ticketAccess.scopeOf(ctx);
  // "Assigned to me" narrows the rule to its first part, as the ticket list does (services/ticketReads.ts).
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

/** The report from the facts themselves (exact figures): for filters the rollups are not keyed by. */
export async function exactReport(ctx: ServiceContext, input: ReportInput, starts: string[], bounds: number[], end: number): Promise<ReportResult> {
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
    preparedReadArrays(ctx.em, statementName(inRange), inRange, [bounds[0], end, ...where.bindings]),
    preparedReadArrays(ctx.em, statementName(before), before, [bounds[0], ...where.bindings]),
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
