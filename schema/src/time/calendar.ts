/**
 * Calendar and time-zone arithmetic, shared by the reports (services/reports/report.ts) and whatever else counts in
 * local days (SLA next). Local dates are whole days since 1970-01-01 (validation's localDateDays reads them from
 * `YYYY-MM-DD`); a zone's midnight is computed with @date-fns/tz (TZDate), which reads the runtime's IANA time zone
 * data: a day is 23 or 25 hours long across a daylight-saving change, and a midnight that does not exist (zones
 * that change at 00:00) is the first instant of that day. Weeks are ISO weeks (Monday to Sunday), months calendar
 * months.
 */
import { TZDate } from '@date-fns/tz';

export const DAY_MS = 86_400_000;

/** A span of local dates: a day, an ISO week or a calendar month. */
export type CalendarBucket = 'DAY' | 'WEEK' | 'MONTH';

/** Days since 1970-01-01 as a local date string. */
export function dayString(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The local date a bucket containing `days` starts on. */
export function bucketStartDay(days: number, bucket: CalendarBucket): number {
  if (bucket === 'DAY') return days;
  if (bucket === 'WEEK') return days - ((days + 3) % 7); // 1970-01-01 was a Thursday; weeks start on Monday
  const d = new Date(days * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
}

/** The local date the bucket after the one starting on `start` starts on. */
export function nextBucketDay(start: number, bucket: CalendarBucket): number {
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
export function bucketsOf(fromDays: number, toDays: number, bucket: CalendarBucket, timeZone: string): { starts: string[]; bounds: number[]; end: number } {
  const starts: string[] = [];
  const bounds: number[] = [];
  for (let start = bucketStartDay(fromDays, bucket); start < toDays; start = nextBucketDay(start, bucket)) {
    starts.push(dayString(start));
    bounds.push(localMidnight(Math.max(start, fromDays), timeZone));
  }
  return { starts, bounds, end: localMidnight(toDays, timeZone) };
}
