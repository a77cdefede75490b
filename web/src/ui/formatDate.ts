/**
 * Every date the app shows goes through here: one style, in the viewer's own locale and time zone
 * (Intl.DateTimeFormat with `undefined` as the locale is the browser's). "26 Nov 2026, 14:05" in en-GB,
 * "Nov 26, 2026, 2:05 PM" in en-US. The formatters are made once; Intl formatters are costly to create.
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** The same with seconds, where attempts seconds apart must be told apart (the webhook delivery log). */
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** The same without the time, for values that are days (a token's expiry). */
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type DateInput = string | number | Date;

export function formatDateTime(value: DateInput, options: { seconds?: boolean } = {}): string {
  return (options.seconds ? dateTimeSeconds : dateTime).format(new Date(value));
}

export function formatDay(value: DateInput): string {
  return dateOnly.format(new Date(value));
}

/** "2 min. ago", "3 hr. ago", "yesterday" in the viewer's locale; a week and older is the day ("26 Nov 2026"). */
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60 * 60],
  ['day', 24 * 60 * 60],
];

/** How long ago `value` was at `now`: "now" under a minute, then minutes, hours and days; older than 7 days, the day. */
export function formatRelative(value: DateInput, now: number): string {
  const seconds = Math.round((now - new Date(value).getTime()) / 1000);
  if (seconds < 60) return relative.format(0, 'second');
  if (seconds >= 7 * 24 * 60 * 60) return formatDay(value);
  const [unit, size] = [...UNITS].reverse().find(([, length]) => seconds >= length)!;
  return relative.format(-Math.floor(seconds / size), unit);
}
