/**
 * The report from the rollups (migrations/reportRollups.ts), a report's usual path: rows per time cell, not per
 * ticket. Each bucket is covered by the coarsest cells that fit it (days, hours and quarter hours at its edges);
 * counts and means are exact, and a median or p90 is read from the cells' histograms within FIGURE_ERROR.
 */
import { emKind, preparedReadArrays } from '../../database.js';
import { binValue, GRAINS, type Dim, type Grain } from '../../migrations/reportRollups.js';
import { DAY_MS } from '../../time/index.js';
import type { ServiceContext } from '../context.js';
import * as ticketAccess from '../ticketAccess.js';
import { finish, NONE_KEY, type SeriesResult } from './breakdowns.js';
import { foldQueuedRollups } from './rollupQueue.js';
import {
  statementName,
  type ReportBreakdown,
  type ReportFigure,
  type ReportInput,
  type ReportPoint,
  type ReportResult,
  type ReportTotals,
} from './reportTypes.js';

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
export async function rollupReport(ctx: ServiceContext, input: ReportInput, starts: string[], bounds: number[], end: number): Promise<ReportResult> {
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
    preparedReadArrays(ctx.em, statementName(days), days, [dim, plan.firstDay, plan.lastDay, ...access.bindings]),
    plan.hours.length ? preparedReadArrays(ctx.em, statementName(listed), listed, ['H', dim, JSON.stringify(plan.hours), ...access.bindings]) : [],
    plan.quarters.length ? preparedReadArrays(ctx.em, statementName(listed), listed, ['Q', dim, JSON.stringify(plan.quarters), ...access.bindings]) : [],
    preparedReadArrays(ctx.em, statementName(before), before, [dim, plan.firstDay, ...access.bindings]),
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
