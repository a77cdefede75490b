/**
 * Report rollups (issue 29, "fast"): the report facts (./reportFold.ts) summed per time cell, so that a report reads
 * a number of rows that depends on its range and its groups, not on how many tickets there are.
 *
 * - Cells: a fact counts in the 15-minute (Q), hour (H) and UTC day (D) cell its instant falls in. Every IANA zone's
 *   offset is a multiple of 15 minutes, so every local midnight (daylight-saving or not) is a Q boundary; a report
 *   sums a local day as the UTC days it spans plus or minus the hours and quarters at its two ends (at most 12
 *   hours and 3 quarters a side: services/reports/report.ts `cellsOf`).
 * - Keys: the ticket's team and assignee *now* (`team_id`, `assignee_id`, 0 for none: the access rule is a WHERE
 *   on them, as on ticket_counts) and one breakdown dimension with the value the ticket had when the fact happened:
 *   `W` (who: "team:assignee", which serves the team and the assignee breakdowns and the totals), `P` priority,
 *   `Y` type, `S` status. A reassignment or a deletion moves or removes the ticket's contributions (the write path
 *   has its facts at hand: services/reports/facts.ts).
 * - Values: the counts (created, solved, reopened, backlog deltas) exactly, and for each duration (fr first
 *   response, fs first resolution, rs resolution) its count, exact sum (so the mean is exact) and a histogram of
 *   fixed log-scale bins: bin k holds the durations d (in ms) with GAMMA^(k-1) < d ≤ GAMMA^k (k = -1: d = 0), and
 *   is read as 2·GAMMA^k / (GAMMA + 1), which is within FIGURE_ERROR = (GAMMA - 1) / (GAMMA + 1) (2.44 %) of every
 *   duration in it. Histograms add and subtract exactly, so the median and p90 of any set of cells are found in the
 *   right bin (nearest rank over exact counts) and are within FIGURE_ERROR of the exact figure.
 *
 * Hand-written rather than a sketch library: the bins must be updated inside SQL (json_set / jsonb ||) by the write
 * transaction's single upsert per row, with fixed bins the read can add and subtract; sketch libraries (DDSketch's
 * JS port) keep their state in process memory.
 */
import type { ReportFact } from './reportFold.js';

export const GAMMA = 1.05;
/** The largest relative error of a median or p90 read from the rollups. */
export const FIGURE_ERROR = (GAMMA - 1) / (GAMMA + 1);
const LOG_GAMMA = Math.log(GAMMA);

export const GRAINS = { Q: 900_000, H: 3_600_000, D: 86_400_000 } as const;
export type Grain = keyof typeof GRAINS;
const GRAIN_LIST = Object.keys(GRAINS) as Grain[];
export const DIMS = ['W', 'P', 'Y', 'S'] as const;
export type Dim = (typeof DIMS)[number];

/** The bin of a duration in milliseconds. */
export function binOf(ms: number): number {
  return ms <= 0 ? -1 : Math.max(0, Math.ceil(Math.log(ms) / LOG_GAMMA));
}

/** The duration (ms) a bin is read as. */
export function binValue(bin: number): number {
  return bin < 0 ? 0 : (2 * GAMMA ** bin) / (GAMMA + 1);
}

/** A duration's rollup: how many, their exact sum (ms), and the histogram (bin → count). */
export interface MetricDelta {
  n: number;
  sum: number;
  bins: Map<number, number>;
}

export interface RollupDelta {
  created: number;
  solved: number;
  reopened: number;
  backlog: number;
  fr: MetricDelta;
  fs: MetricDelta;
  rs: MetricDelta;
}

export interface RollupKey {
  grain: Grain;
  cell: number;
  teamId: number;
  assigneeId: number;
  dim: Dim;
  value: string;
}

const metric = (): MetricDelta => ({ n: 0, sum: 0, bins: new Map() });
export const emptyDelta = (): RollupDelta => ({ created: 0, solved: 0, reopened: 0, backlog: 0, fr: metric(), fs: metric(), rs: metric() });

function addMetric(m: MetricDelta, ms: number, sign: number): void {
  m.n += sign;
  m.sum += sign * ms;
  const bin = binOf(ms);
  m.bins.set(bin, (m.bins.get(bin) ?? 0) + sign);
}

/** The W dimension's value: the attributed team and assignee, 0 for none. */
export const whoValue = (teamId: number | null, assigneeId: number | null) => `${teamId ?? 0}:${assigneeId ?? 0}`;

function dimValue(f: ReportFact, dim: Dim): string {
  if (dim === 'W') return whoValue(f.teamId, f.assigneeId);
  return dim === 'P' ? f.priority : dim === 'Y' ? f.type : f.status;
}

/** The ticket's key now: its team and assignee (null for none). */
export interface CurrentKey {
  teamId: number | null;
  assigneeId: number | null;
}

/** Rollup deltas being gathered (one entry per row touched), then written by `writeRollups` or `insertRollups`. */
export class RollupDeltas {
  readonly rows = new Map<string, { key: RollupKey; delta: RollupDelta }>();

  /**
   * Adds (sign 1) or takes back (sign -1) a fact's contribution under the ticket's key now. `resolutionOnly`: only
   * its resolution (a reopen takes back the final solve's resolution time, the rest of the solve still counts).
   */
  add(f: ReportFact, current: CurrentKey, sign: 1 | -1, resolutionOnly = false): void {
    if (resolutionOnly && !(f.kind === 'SOLVED' && f.final)) return;
    for (const grain of GRAIN_LIST) {
      const size = GRAINS[grain];
      const cell = Math.floor(f.at / size) * size;
      for (const dim of DIMS) {
        const key: RollupKey = { grain, cell, teamId: current.teamId ?? 0, assigneeId: current.assigneeId ?? 0, dim, value: dimValue(f, dim) };
        const id = `${grain}|${cell}|${key.teamId}|${key.assigneeId}|${dim}|${key.value}`;
        let row = this.rows.get(id);
        if (!row) this.rows.set(id, (row = { key, delta: emptyDelta() }));
        const d = row.delta;
        if (resolutionOnly) {
          addMetric(d.rs, f.valueMs ?? 0, sign);
          continue;
        }
        switch (f.kind) {
          case 'CREATED':
            d.created += sign;
            break;
          case 'SOLVED':
            d.solved += sign;
            if (f.firstSolve) addMetric(d.fs, f.valueMs ?? 0, sign);
            if (f.final) addMetric(d.rs, f.valueMs ?? 0, sign);
            break;
          case 'REOPENED':
            d.reopened += sign;
            break;
          case 'RESPONSE':
            addMetric(d.fr, f.valueMs ?? 0, sign);
            break;
          case 'BACKLOG':
            d.backlog += sign * f.delta;
            break;
        }
      }
    }
  }
}

export const ROLLUP_COLUMNS =
  'grain, cell, team_id, assignee_id, dim, value, created, solved, reopened, backlog, fr_n, fr_sum, fr_bins, fs_n, fs_sum, fs_bins, rs_n, rs_sum, rs_bins';
const COUNTS = ['created', 'solved', 'reopened', 'backlog', 'fr_n', 'fr_sum', 'fs_n', 'fs_sum', 'rs_n', 'rs_sum'];
const METRICS = ['fr', 'fs', 'rs'] as const;

/** A histogram as stored: a JSON object from bin to count. */
const binsJson = (entries: Iterable<[number, number]>) => JSON.stringify(Object.fromEntries([...entries].filter(([, n]) => n !== 0)));

/**
 * The one upsert of the write path: adds a row's counts and at most one bin per duration (bin null: none) to the
 * row, creating it if needed. Fixed text, so each connection prepares it once.
 */
function upsertSql(postgres: boolean): string {
  const add = COUNTS.map((c) => `${c} = report_rollups.${c} + excluded.${c}`).join(', ');
  const bins = METRICS.map((m) =>
    postgres
      ? `${m}_bins = case when ?::text is null then report_rollups.${m}_bins else report_rollups.${m}_bins || jsonb_build_object(?::text, coalesce((report_rollups.${m}_bins ->> ?::text)::bigint, 0) + ?::bigint) end`
      : `${m}_bins = case when ? is null then report_rollups.${m}_bins else json_set(report_rollups.${m}_bins, '$."' || ? || '"', coalesce(json_extract(report_rollups.${m}_bins, '$."' || ? || '"'), 0) + ?) end`,
  ).join(', ');
  const marks = ROLLUP_COLUMNS.split(', ')
    .map((c) => (postgres && c.endsWith('_bins') ? '?::jsonb' : '?'))
    .join(', ');
  return `insert into report_rollups (${ROLLUP_COLUMNS}) values (${marks})
    on conflict (grain, dim, cell, team_id, assignee_id, value) do update set ${add}, ${bins}`;
}

/** Runs one named statement in the write's transaction (services/reports/facts.ts passes TransactionStatements.all). */
export type RunStatement = (name: string, sql: string, params: readonly unknown[]) => Promise<unknown>;

/** Writes gathered deltas with the upsert: one statement per row, one more for each further bin of a duration. */
export async function writeRollups(run: RunStatement, deltas: RollupDeltas, postgres: boolean): Promise<void> {
  const sql = upsertSql(postgres);
  const name = postgres ? 'report_rollups_upsert_pg' : 'report_rollups_upsert';
  for (const { key, delta } of deltas.rows.values()) {
    const bins = METRICS.map((m) => [...delta[m].bins].filter(([, n]) => n !== 0));
    const rounds = Math.max(1, ...bins.map((b) => b.length));
    const counts = [delta.created, delta.solved, delta.reopened, delta.backlog, delta.fr.n, delta.fr.sum, delta.fs.n, delta.fs.sum, delta.rs.n, delta.rs.sum];
    if (rounds === 1 && counts.every((c) => c === 0) && bins.every((b) => !b.length)) continue;
    for (let r = 0; r < rounds; r++) {
      const c = r === 0 ? counts : counts.map(() => 0);
      const one = bins.map((b) => b[r] ?? null);
      const params: unknown[] = [key.grain, key.cell, key.teamId, key.assigneeId, key.dim, key.value, c[0], c[1], c[2], c[3]];
      METRICS.forEach((_, i) => params.push(c[4 + 2 * i], c[5 + 2 * i], binsJson(one[i] ? [one[i]] : [])));
      for (const b of one) {
        const k = b ? String(b[0]) : null;
        params.push(k, k, k, b ? b[1] : 0);
      }
      await run(name, sql, params);
    }
  }
}

/** Inserts gathered deltas as new rows (the rebuild: the tables are empty for these cells). */
export async function insertRollups(execute: (sql: string, params: unknown[]) => Promise<unknown>, deltas: RollupDeltas, postgres: boolean): Promise<number> {
  const width = ROLLUP_COLUMNS.split(', ').length;
  const mark = `(${ROLLUP_COLUMNS.split(', ')
    .map((c) => (postgres && c.endsWith('_bins') ? '?::jsonb' : '?'))
    .join(', ')})`;
  const chunk = Math.floor(900 / width);
  const list = [...deltas.rows.values()];
  for (let i = 0; i < list.length; i += chunk) {
    const part = list.slice(i, i + chunk);
    const params = part.flatMap(({ key, delta: d }) => [
      key.grain,
      key.cell,
      key.teamId,
      key.assigneeId,
      key.dim,
      key.value,
      d.created,
      d.solved,
      d.reopened,
      d.backlog,
      ...METRICS.flatMap((m) => [d[m].n, d[m].sum, binsJson(d[m].bins)]),
    ]);
    await execute(`insert into report_rollups (${ROLLUP_COLUMNS}) values ${part.map(() => mark).join(', ')}`, params);
  }
  return list.length;
}

interface FactRow {
  kind: string;
  at: unknown;
  delta: unknown;
  value_ms: unknown;
  first_solve: unknown;
  final: unknown;
  f_team: unknown;
  f_assignee: unknown;
  priority: string;
  type: string;
  status: string;
  t_team: unknown;
  t_assignee: unknown;
}

const bool = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';
const idOrNull = (value: unknown): number | null => (value == null || Number(value) <= 0 ? null : Number(value));

/** A stored fact as the rollups read it. */
export function factOfRow(r: Omit<FactRow, 't_team' | 't_assignee'>): ReportFact {
  return {
    kind: r.kind as ReportFact['kind'],
    at: Number(r.at),
    delta: Number(r.delta),
    valueMs: r.value_ms == null ? null : Number(r.value_ms),
    firstSolve: bool(r.first_solve),
    final: bool(r.final),
    teamId: idOrNull(r.f_team),
    assigneeId: idOrNull(r.f_assignee),
    priority: r.priority,
    type: r.type,
    status: r.status,
  };
}

export const FACT_READ_COLUMNS =
  'f.kind, f.at, f.delta, f.value_ms, f.first_solve, f.final, f.team_id as f_team, f.assignee_id as f_assignee, f.priority, f.type, f.status';

/**
 * Rebuilds the rollups from the report facts of the tickets that exist (the migration's fold of the data already
 * there, the bench's bulk seed), 30 UTC days at a time so the gathered rows stay small. Returns the rows written.
 */
export async function rebuildReportRollups(execute: (sql: string, params: unknown[]) => Promise<unknown[]>, postgres: boolean): Promise<number> {
  await execute('delete from report_rollups', []);
  const [span] = (await execute('select min(at) as lo, max(at) as hi from report_facts', [])) as { lo: unknown; hi: unknown }[];
  if (span?.lo == null) return 0;
  const window = 30 * GRAINS.D;
  let written = 0;
  for (let from = Math.floor(Number(span.lo) / GRAINS.D) * GRAINS.D; from <= Number(span.hi); from += window) {
    const rows = (await execute(
      `select ${FACT_READ_COLUMNS}, t.team_id as t_team, t.assignee_id as t_assignee
       from report_facts f join tickets t on t.id = f.ticket_id where f.at >= ? and f.at < ?`,
      [from, from + window],
    )) as FactRow[];
    const deltas = new RollupDeltas();
    for (const r of rows) deltas.add(factOfRow(r), { teamId: idOrNull(r.t_team), assigneeId: idOrNull(r.t_assignee) }, 1);
    written += await insertRollups(execute, deltas, postgres);
  }
  return written;
}
