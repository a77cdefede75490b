/**
 * A report's input (the range, its buckets, the breakdown, the filter) and its result (totals, a point per bucket,
 * a group per breakdown value), with the two SQL helpers every way of reading a report shares. The definitions of
 * every number are in ./report.ts.
 */
import { createHash } from 'node:crypto';

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

export const statementName = (sql: string) => `report_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
export const list = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;
