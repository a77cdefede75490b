/**
 * The Reports page's tables, chart data and CSV, derived from the `report` answer by pure functions, so that one
 * number is one number on every surface: a chart's series, the table beside it and its CSV come from the same rows
 * (reportTable.test.ts proves chart = table = CSV = answer for random answers).
 */

export interface Figure {
  count: number;
  median?: number | null;
  p90?: number | null;
  mean?: number | null;
}

export interface Totals {
  created: number;
  solved: number;
  reopened: number;
  backlog: number;
  firstResponse: Figure;
  firstResolution: Figure;
  resolution: Figure;
}

export interface Point extends Totals {
  bucketStart: string;
}

export interface ReportAnswer {
  totals: Totals;
  series: readonly Point[];
  groups: readonly { key: string; label: string; totals: Totals }[];
}

/** One table: its caption, column headers, body rows and total row, every cell as shown (and as the CSV has it). */
export interface ReportTable {
  caption: string;
  columns: string[];
  rows: string[][];
  total: string[];
}

/** Seconds as hours with two decimals (the tables' and CSV's unit); an em dash when there is no value. */
export function hours(seconds: number | null | undefined): string {
  return seconds == null ? '—' : (seconds / 3600).toFixed(2);
}

/** Seconds as hours, a number for the charts (null: no value, no point). */
export function hoursValue(seconds: number | null | undefined): number | null {
  return seconds == null ? null : Number((seconds / 3600).toFixed(2));
}

const volumeCells = (t: Totals) => [String(t.created), String(t.solved), String(t.reopened), String(t.backlog)];
const timeCells = (t: Totals) => [
  String(t.created),
  String(t.firstResponse.count),
  hours(t.firstResponse.median),
  hours(t.firstResponse.p90),
  String(t.resolution.count),
  hours(t.resolution.median),
  hours(t.resolution.p90),
];

/** Tickets per bucket: created, solved, reopened, and the backlog at each bucket's end (total: at the range's end). */
export function volumeTable(report: ReportAnswer): ReportTable {
  return {
    caption: 'Tickets per period',
    columns: ['Period starting', 'Created', 'Solved', 'Reopened', 'Backlog at end'],
    rows: report.series.map((p) => [p.bucketStart, ...volumeCells(p)]),
    total: ['Total', ...volumeCells(report.totals)],
  };
}

/** Times per bucket: first response and resolution (count, median, p90, in hours). */
export function timesTable(report: ReportAnswer): ReportTable {
  return {
    caption: 'Response and resolution times per period (hours)',
    columns: [
      'Period starting',
      'Created',
      'First responses',
      'Median first response (h)',
      'P90 first response (h)',
      'Resolutions',
      'Median resolution (h)',
      'P90 resolution (h)',
    ],
    rows: report.series.map((p) => [p.bucketStart, ...timeCells(p)]),
    total: ['Total', ...timeCells(report.totals)],
  };
}

/** One row per group of the breakdown, over the whole range; the total row is the report's (a ticket counts once). */
export function groupTable(report: ReportAnswer, groupName: string): ReportTable {
  return {
    caption: `Tickets by ${groupName.toLowerCase()}`,
    columns: [groupName, 'Created', 'Solved', 'Reopened', 'Backlog at end', 'Median first response (h)', 'Median resolution (h)'],
    rows: report.groups.map((g) => [g.label, ...volumeCells(g.totals), hours(g.totals.firstResponse.median), hours(g.totals.resolution.median)]),
    total: ['Total', ...volumeCells(report.totals), hours(report.totals.firstResponse.median), hours(report.totals.resolution.median)],
  };
}

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection rule): one starting with =, +, -, @, a tab, a
 * carriage return or a line feed, or with whitespace before one of =, +, -, @ (spreadsheets trim it before they
 * look). Such a cell is written as text: a leading ' and quoted. Any other cell, one starting with a plain space
 * included, is written as it is.
 */
const FORMULA_START = /^(?:[=+\-@\t\r\n]|\s+[=+\-@])/u;

const csvCell = (cell: string) => {
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return text !== cell || /[",\r\n]/.test(cell) ? `"${text.replace(/"/g, '""')}"` : cell;
};

/**
 * The table as CSV (RFC 4180: CRLF, quotes doubled): the header, the rows, the total row, cell for cell. A cell
 * that a spreadsheet would run as a formula (FORMULA_START) is quoted with a leading '.
 */
export function csvOf(table: ReportTable): string {
  return [table.columns, ...table.rows, table.total].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The volume chart's data: one entry per bucket, the same numbers as the volume table's rows. */
export function volumeChart(report: ReportAnswer) {
  return report.series.map((p) => ({ period: p.bucketStart, created: p.created, solved: p.solved, reopened: p.reopened, backlog: p.backlog }));
}

/** The times chart's data: medians per bucket in hours (the times table's rounding). */
export function timesChart(report: ReportAnswer) {
  return report.series.map((p) => ({ period: p.bucketStart, firstResponse: hoursValue(p.firstResponse.median), resolution: hoursValue(p.resolution.median) }));
}

/** The breakdown chart's data: one entry per group. */
export function groupChart(report: ReportAnswer) {
  return report.groups.map((g) => ({ group: g.label, created: g.totals.created, solved: g.totals.solved, backlog: g.totals.backlog }));
}

/** Whether a report has nothing to show: no event in the range and no backlog. */
export function isEmptyReport(report: ReportAnswer): boolean {
  const t = report.totals;
  return t.created + t.solved + t.reopened + t.backlog + t.firstResponse.count + t.resolution.count === 0;
}

/** Days since 1970-01-01 of a local date string, and back (calendar arithmetic, no time zone involved). */
const daysOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
export const addDays = (date: string, n: number) => new Date((daysOf(date) + n) * 86_400_000).toISOString().slice(0, 10);

/** Today's local date in a time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The browser's IANA time zone. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
