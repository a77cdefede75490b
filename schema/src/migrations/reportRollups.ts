/**
 * Report rollups ("fast"): the report facts (./reportFold.ts) summed per time cell, so that a report reads
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
 * Hand-written rather than a sketch library: the bins must be merged inside SQL (a sum per bin over two JSON objects)
 * by the write transaction's upsert, with fixed bins the read can add and subtract; sketch libraries (DDSketch's JS
 * port) keep their state in process memory.
 */
import type { ReportFact } from './reportFold.js';

const GAMMA = 1.05;
/** The largest relative error of a median or p90 read from the rollups. */
export const FIGURE_ERROR = (GAMMA - 1) / (GAMMA + 1);
const LOG_GAMMA = Math.log(GAMMA);

export const GRAINS = { Q: 900_000, H: 3_600_000, D: 86_400_000 } as const;
export type Grain = keyof typeof GRAINS;
const GRAIN_LIST = Object.keys(GRAINS) as Grain[];
const DIMS = ['W', 'P', 'Y', 'S'] as const;
export type Dim = (typeof DIMS)[number];

/** The bin of a duration in milliseconds. */
function binOf(ms: number): number {
  return ms <= 0 ? -1 : Math.max(0, Math.ceil(Math.log(ms) / LOG_GAMMA));
}

/** The duration (ms) a bin is read as. */
export function binValue(bin: number): number {
  return bin < 0 ? 0 : (2 * GAMMA ** bin) / (GAMMA + 1);
}

/** A duration's rollup: how many, their exact sum (ms), and the histogram (bin → count). */
interface MetricDelta {
  n: number;
  sum: number;
  bins: Map<number, number>;
}

interface RollupDelta {
  created: number;
  solved: number;
  reopened: number;
  backlog: number;
  fr: MetricDelta;
  fs: MetricDelta;
  rs: MetricDelta;
}

interface RollupKey {
  grain: Grain;
  cell: number;
  teamId: number;
  assigneeId: number;
  dim: Dim;
  value: string;
}

const metric = (): MetricDelta => ({ n: 0, sum: 0, bins: new Map() });
const emptyDelta = (): RollupDelta => ({ created: 0, solved: 0, reopened: 0, backlog: 0, fr: metric(), fs: metric(), rs: metric() });

function addMetric(m: MetricDelta, ms: number, sign: number): void {
  m.n += sign;
  m.sum += sign * ms;
  const bin = binOf(ms);
  m.bins.set(bin, (m.bins.get(bin) ?? 0) + sign);
}

/** The W dimension's value: the attributed team and assignee, 0 for none. */
const whoValue = (teamId: number | null, assigneeId: number | null) => `${teamId ?? 0}:${assigneeId ?? 0}`;

function dimValue(f: ReportFact, dim: Dim): string {
  if (dim === 'W') return whoValue(f.teamId, f.assigneeId);
  return dim === 'P' ? f.priority : dim === 'Y' ? f.type : f.status;
}

/** The ticket's key now: its team and assignee (null for none). */
interface CurrentKey {
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

  /**
   * Adds the contributions of a row an earlier version queued (each fact with the key it counted under, a sign and
   * whether only its resolution counts: QueuedEntry); deltas add exactly, in any order.
   */
  merge(serialized: string): void {
    for (const [teamId, assigneeId, sign, resolutionOnly, kind, at, delta, valueMs, firstSolve, final, fTeam, fAssignee, priority, type, status] of JSON.parse(
      serialized,
    ) as QueuedEntry[])
      this.add(
        { kind, at, delta, valueMs, firstSolve: firstSolve === 1, final: final === 1, teamId: fTeam, assigneeId: fAssignee, priority, type, status },
        { teamId, assigneeId },
        sign,
        resolutionOnly === 1,
      );
  }
}

/** A contribution as an earlier version queued it: the key (team, assignee), sign, resolution only, then the fact's fields. */
type QueuedEntry = [number | null, number | null, 1 | -1, 0 | 1, ...FactFields];
/** A fact's fields in FACT_COLUMNS' order after the ticket id (reportFold.ts factParams). */
type FactFields = [ReportFact['kind'], number, number, number | null, 0 | 1, 0 | 1, number | null, number | null, string, string, string];

export const ROLLUP_COLUMNS =
  'grain, cell, team_id, assignee_id, dim, value, created, solved, reopened, backlog, fr_n, fr_sum, fr_bins, fs_n, fs_sum, fs_bins, rs_n, rs_sum, rs_bins';
const COUNTS = ['created', 'solved', 'reopened', 'backlog', 'fr_n', 'fr_sum', 'fs_n', 'fs_sum', 'rs_n', 'rs_sum'];
const METRICS = ['fr', 'fs', 'rs'] as const;

/** A histogram as stored: a JSON object from bin to count. */
const binsJson = (entries: Iterable<[number, number]>) => JSON.stringify(Object.fromEntries([...entries].filter(([, n]) => n !== 0)));

/**
 * A fold's upsert of `rows` rows at once: adds each row's counts, and merges its histogram into the stored one bin by
 * bin (a sum per bin over both JSON objects, in SQL), creating rows as needed. Prepared once per connection and row
 * count (`writeRollups` uses at most seven counts).
 */
function upsertSql(postgres: boolean, rows: number): string {
  const add = COUNTS.map((c) => `${c} = report_rollups.${c} + excluded.${c}`).join(', ');
  const bins = METRICS.map((m) => {
    const mine = `report_rollups.${m}_bins`;
    const theirs = `excluded.${m}_bins`;
    const merged = postgres
      ? `(select coalesce(jsonb_object_agg(key, n), '{}'::jsonb) from (select key, sum(value::bigint) as n from (select * from jsonb_each_text(${mine}) union all select * from jsonb_each_text(${theirs})) u group by key having sum(value::bigint) <> 0) s)`
      : `(select coalesce(json_group_object(key, n), '{}') from (select key, sum(value) as n from (select key, value from json_each(${mine}) union all select key, value from json_each(${theirs})) group by key having sum(value) <> 0))`;
    // One bin (a write's usual case): set that key; more: the merge (a reassignment, a reopen's take-back with a solve).
    const one = postgres
      ? `(select ${mine} || jsonb_build_object(e.key, coalesce((${mine} ->> e.key)::bigint, 0) + e.value::bigint) from jsonb_each_text(${theirs}) e)`
      : `(select json_set(${mine}, '$."' || e.key || '"', coalesce(json_extract(${mine}, '$."' || e.key || '"'), 0) + e.value) from json_each(${theirs}) e)`;
    const count = postgres ? `(select count(*) from jsonb_each_text(${theirs}))` : `(select count(*) from json_each(${theirs}))`;
    return `${m}_bins = case when ${theirs} = '{}' then ${mine} when ${count} = 1 then ${one} else ${merged} end`;
  }).join(', ');
  const row = `(${ROLLUP_COLUMNS.split(', ')
    .map((c) => (postgres && c.endsWith('_bins') ? '?::jsonb' : '?'))
    .join(', ')})`;
  return `insert into report_rollups (${ROLLUP_COLUMNS}) values ${Array.from({ length: rows }, () => row).join(', ')}
    on conflict (grain, dim, cell, team_id, assignee_id, value) do update set ${add}, ${bins}`;
}

/** Runs one named statement in the fold's transaction (services/reports/rollupQueue.ts passes TransactionStatements.all). */
type RunStatement = (name: string, sql: string, params: readonly unknown[]) => Promise<unknown>;

const rowParams = ({ key, delta: d }: { key: RollupKey; delta: RollupDelta }): unknown[] => [
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
];

const isEmpty = (d: RollupDelta) =>
  !d.created && !d.solved && !d.reopened && !d.backlog && METRICS.every((m) => !d[m].n && !d[m].sum && [...d[m].bins.values()].every((n) => !n));

/** The most rows one upsert statement writes. */
const UPSERT_ROWS = 64;

/**
 * Writes gathered deltas with the upsert, in statements of UPSERT_ROWS rows and then of the powers of two that make
 * up the rest (150 rows: 64 + 64 + 16 + 4 + 2), so each connection prepares at most seven statements however many
 * rows a fold brings. The rows go in key order: two folds at once (two gateways) lock the rows they share in the
 * same order and cannot deadlock.
 */
export async function writeRollups(run: RunStatement, deltas: RollupDeltas, postgres: boolean): Promise<void> {
  const list = [...deltas.rows.entries()]
    .filter(([, r]) => !isEmpty(r.delta))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => r);
  for (const part of statementParts(list))
    await run(`report_rollups_upsert_${postgres ? 'pg' : 'sqlite'}_${part.length}`, upsertSql(postgres, part.length), part.flatMap(rowParams));
}

/**
 * A multi-row statement's rows in parts of UPSERT_ROWS and then of the powers of two that make up the rest (150
 * rows: 64 + 64 + 16 + 4 + 2): a connection prepares at most seven statements of one kind, however many rows come.
 */
export function* statementParts<T>(rows: readonly T[]): Generator<T[]> {
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const size = left >= UPSERT_ROWS ? UPSERT_ROWS : 2 ** Math.floor(Math.log2(left));
    yield rows.slice(i, i + size);
    i += size;
  }
}

/** Inserts gathered deltas as new rows (the rebuild: the tables are empty for these cells). */
async function insertRollups(execute: (sql: string, params: unknown[]) => Promise<unknown>, deltas: RollupDeltas, postgres: boolean): Promise<number> {
  const width = ROLLUP_COLUMNS.split(', ').length;
  const mark = `(${ROLLUP_COLUMNS.split(', ')
    .map((c) => (postgres && c.endsWith('_bins') ? '?::jsonb' : '?'))
    .join(', ')})`;
  const chunk = Math.floor((postgres ? 60_000 : 30_000) / width); // under each driver's bound-parameter limit
  const list = [...deltas.rows.values()];
  for (let i = 0; i < list.length; i += chunk) {
    const part = list.slice(i, i + chunk);
    const params = part.flatMap(rowParams);
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
 * there, the bench's bulk seed), 7 UTC days at a time so the gathered rows stay small. Returns the rows written.
 */
export async function rebuildReportRollups(execute: (sql: string, params: unknown[]) => Promise<unknown[]>, postgres: boolean): Promise<number> {
  await execute('delete from report_rollups', []);
  const [span] = (await execute('select min(at) as lo, max(at) as hi from report_facts', [])) as { lo: unknown; hi: unknown }[];
  if (span?.lo == null) return 0;
  const window = 7 * GRAINS.D;
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
