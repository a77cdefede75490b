/**
 * Reports (docs/reports.md): the range, buckets, breakdowns and time-zone checks of a report's input, shared by the service and the web page.
 */
import { collect, hasNul, type FieldErrors } from './checks.js';

/** Reports: the longest range one report may cover, in days (two years, a leap day included). */
export const REPORT_LIMITS = { maxDays: 731 } as const;

export const REPORT_MESSAGES = {
  date: 'Dates must be written YYYY-MM-DD (for example 2026-03-29).',
  range: `The end date (exclusive) must be after the start date and at most ${REPORT_LIMITS.maxDays} days later.`,
  timeZone: 'Unknown time zone: use an IANA name such as Europe/Berlin or America/New_York.',
  bucket: 'Bucket must be DAY, WEEK or MONTH.',
  breakdown: 'Breakdown must be TEAM, ASSIGNEE, PRIORITY, TYPE or STATUS.',
  search: 'Reports cannot filter by search words: filter by status, priority, type, requester or assignment.',
} as const;

export const REPORT_BUCKETS = ['DAY', 'WEEK', 'MONTH'] as const;
export const REPORT_BREAKDOWNS = ['TEAM', 'ASSIGNEE', 'PRIORITY', 'TYPE', 'STATUS'] as const;

/** A local calendar date `YYYY-MM-DD` as days since 1970-01-01 (no time zone involved), or null when it is not a real date. */
export function localDateDays(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [y, m, d] = value.split('-').map(Number);
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  if (y < 1970 || back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

/** Whether the runtime knows this IANA time zone name (offsets such as +01:00 are not time zones). */
export function knownTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || !value || value.length > 64 || /^[+-]/.test(value) || hasNul(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The checks of a report's input shared by the service (services/reports/report.ts) and the web page. */
export function validateReportInput(input: { from: unknown; to: unknown; timeZone: unknown; bucket: unknown; breakdown?: unknown }): FieldErrors {
  const from = localDateDays(input.from);
  const to = localDateDays(input.to);
  return collect([
    ['from', from !== null, REPORT_MESSAGES.date],
    ['to', to !== null, REPORT_MESSAGES.date],
    ['to', from === null || to === null || (to > from && to - from <= REPORT_LIMITS.maxDays), REPORT_MESSAGES.range],
    ['timeZone', knownTimeZone(input.timeZone), REPORT_MESSAGES.timeZone],
    ['bucket', (REPORT_BUCKETS as readonly unknown[]).includes(input.bucket), REPORT_MESSAGES.bucket],
    ['breakdown', input.breakdown == null || (REPORT_BREAKDOWNS as readonly unknown[]).includes(input.breakdown), REPORT_MESSAGES.breakdown],
  ]);
}
